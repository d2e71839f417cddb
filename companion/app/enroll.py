"""`companion enroll FOLDER`: teach the camera a printed deck by showing it each card face once.

Why: the deck on a real table may not be our printable design, and nothing may be
downloaded, so the camera learns the faces it will have to tell apart. For each face of the
edition (or the codes given), the player lays that one card alone on the table, portrait,
its top towards the markers 0 and 1 (a curve's track must then end at the bottom and right
edges, as the rules' geometry draws it), and presses Enter. The card is found by its
outline, cut out straight, and stored; progress goes to the console and a preview of every
face learnt so far to an image file, so a wrong card or a bad crop is seen at once. The
result is a catalogue folder (the game's vision/catalogue.py) that `VisionConfig.for_edition(...,
catalogue_folder)` loads.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.app.cli import CommandLine, folder_path, writable_file, writable_folder
from companion.games.caboose import cards
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.scenes import random_table
from companion.games.caboose.vision.card_identity import card_image
from companion.games.caboose.vision.card_outlines import card_poses, unlike_table
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, Catalogue, normalise
from companion.games.caboose.vision.observation import VisionConfig
from companion.vision.calibrate import calibrate, top_down
from hw.frames import FrameSource, FrameSourceError, open_source

_TRIES = 10  # frames read for one card before asking again


class EnrollError(RuntimeError):
    """A card face could not be learnt; the message says what to change."""


def faces_of(edition_id: str) -> list[str]:
    """Every distinct card face of an edition, in deck order."""
    return list(dict.fromkeys(editions.load(edition_id).deck))


def learn_card(frame: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, str | None]:
    """The portrait image of the one card lying on the table in `frame`, or why not."""
    calibration = calibrate(frame, config.layout)
    if calibration is None or len(calibration.markers) < 4:
        return np.empty(0), "the four table markers are not all in view"
    k = 4.0  # learn at a finer scale than recognition needs; the catalogue shrinks it
    top = top_down(frame, calibration, config.layout, k)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    outlines = unlike_table(top, config.layout, k)
    poses = card_poses(grey, VisionConfig(config.layout, config.card_mm, px_per_mm=k), outlines)
    if not poses:
        return np.empty(0), "no card found: lay one card alone on the table, face up"
    if len(poses) > 1:
        return np.empty(0), f"{len(poses)} cards found: lay exactly one card on the table"
    w, h = TEMPLATE_PX
    big = card_image(top, poses[0], config.card_mm, k)
    return cv2.resize(big, (w * 2, h * 2), interpolation=cv2.INTER_AREA), None


def preview(codes: Sequence[str], images: Sequence[np.ndarray]) -> np.ndarray:
    """A contact sheet of the faces learnt so far, each labelled with its code."""
    w, h = TEMPLATE_PX[0] * 3, TEMPLATE_PX[1] * 3
    columns = 8
    rows = max(1, (len(images) + columns - 1) // columns)
    sheet = np.full((rows * (h + 24), columns * (w + 8), 3), 255, np.uint8)
    for i, (code, image) in enumerate(zip(codes, images, strict=True)):
        x, y = (i % columns) * (w + 8), (i // columns) * (h + 24)
        sheet[y : y + h, x : x + w] = cv2.resize(normalise(image), (w, h))
        cv2.putText(sheet, code, (x + 4, y + h + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0),
                    1, cv2.LINE_AA)  # fmt: skip
    return sheet


def enroll(
    source: FrameSource,
    codes: Sequence[str],
    config: VisionConfig,
    *,
    wait: Callable[[str], object] | None = None,
    say: Callable[[str], object] = print,
    preview_path: Path | None = None,
) -> Catalogue:
    """Learn each of `codes` from `source`: before each card `wait(prompt)` (None: read on
    at once, e.g. from recorded frames); EnrollError when a face cannot be learnt."""
    learnt: list[np.ndarray] = []
    for number, code in enumerate(codes, start=1):
        prompt = f"[{number}/{len(codes)}] lay card {code} alone on the table, top up"
        if wait is not None:
            wait(prompt + ", then press Enter ")
        why = "the camera gave no frame"
        for _ in range(_TRIES):
            frame = source.read()
            if frame is None:
                break
            image, why = learn_card(frame, config)
            if why is None:
                break
        if why is not None:
            raise EnrollError(f"card {code}: {why}")
        learnt.append(image)
        say(f"[{number}/{len(codes)}] learnt {code}")
        if preview_path is not None:
            cv2.imwrite(str(preview_path), preview(list(codes[:number]), learnt))
    return Catalogue(list(codes), learnt)


def _preview_file(text: str) -> Path:
    """The preview's path: a file that can be written, of a kind OpenCV writes (it would
    otherwise fail only once the first card is learnt)."""
    path = writable_file("preview.png")(text)
    if not cv2.haveImageWriter(str(path)):
        raise argparse.ArgumentTypeError(f"{path} is not an image file: end it in .png or .jpg")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion enroll",
        description="Teach the camera a deck: show it each card face once.",
    )
    parser.add_argument("folder", type=folder_path, help="where to write the catalogue")
    parser.add_argument("--source", default="picamera2", help="frame source (default picamera2)")
    parser.add_argument("--edition", choices=editions.EDITIONS, default="rollecate")
    parser.add_argument("--codes", help="comma-separated card codes instead of the edition's")
    parser.add_argument(
        "--preview",
        type=_preview_file,
        help="preview image, .png or .jpg (default FOLDER/preview.png)",
    )
    parser.add_argument(
        "--no-wait", action="store_true", help="do not wait for Enter: frames come in code order"
    )
    args = parser.parse_args(argv)
    codes = faces_of(args.edition)
    if args.codes:
        codes = [c.strip() for c in args.codes.split(",") if c.strip()]
        for code in codes:
            try:
                cards.parse(code)
            except cards.CardCodeError as error:
                parser.error(str(error))
        if not codes:
            parser.error(f"--codes {args.codes!r} names no card: give codes such as 1/s,2/c")
    config = VisionConfig.for_edition(args.edition)
    problem = writable_folder(args.folder)
    if problem is not None:  # said before the first card, not after the last
        print(f"companion enroll: {problem}", file=sys.stderr)
        return 2
    preview_path = args.preview or args.folder / "preview.png"
    try:
        with open_source(args.source, random_table) as source:
            catalogue = enroll(
                source, codes, config, wait=None if args.no_wait else input,
                preview_path=preview_path,
            )  # fmt: skip
    except (FrameSourceError, EnrollError) as error:
        print(f"enroll stopped: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nenroll stopped: nothing written", file=sys.stderr)
        return 2
    catalogue.save(args.folder)
    print(f"wrote {len(catalogue)} faces to {args.folder}; preview in {preview_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
