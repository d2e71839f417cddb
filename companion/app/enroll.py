"""`companion enroll FOLDER`: teach the camera a box's pieces by showing it each face once.

Why: the deck on a real table may not be our printable design, nor the dice and token
ours, and nothing may be downloaded, so the camera learns the faces it will have to tell
apart. For each face the game asks for (its `enroll`: for the Caboose design, an edition's
card faces, then each face of one of its wheel dice and its caboose token, or the faces
given), the player lays that one piece alone on the table as the prompt says and presses
Enter; the game cuts the face out of the frame (companion/games/caboose/vision/
enrolment.py). Progress goes to the console and a preview of every face learnt so far to
an image file, so a wrong piece or a bad crop is seen at once. The faces learnt are a
catalogue folder, which the configuration's `table.catalogue` names.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from companion import games
from companion.app.cli import (
    chosen_game,
    folder_path,
    game_options,
    refused_tool,
    writable_file,
    writable_folder,
)
from companion.arguments import CommandLine
from companion.games.protocol import Enrolment, preview_path
from hw.frames import FrameSource, FrameSourceError, open_source

_TRIES = 10  # frames read for one face before asking again


class EnrollError(RuntimeError):
    """A face could not be learnt; the message says what to change."""


def enroll(
    source: FrameSource,
    deck: Enrolment,
    *,
    wait: Callable[[str], object] | None = None,
    say: Callable[[str], object] = print,
    preview_path: Path | None = None,
) -> list[Any]:
    """Learn each of the deck's faces from `source`: before each card `wait(prompt)` (None:
    read on at once, e.g. from recorded frames); the pictures learnt, one per face, in the
    deck's order. EnrollError when a face cannot be learnt."""
    learnt: list[Any] = []
    codes = list(deck.faces)
    for number, code in enumerate(codes, start=1):
        prompt = f"[{number}/{len(codes)}] {deck.prompt(code)}"
        if wait is not None:
            wait(prompt + ", then press Enter ")
        why = "the camera gave no frame"
        for _ in range(_TRIES):
            frame = source.read()
            if frame is None:
                break
            image, why = deck.learn(code, frame)
            if why is None:
                break
        if why is not None:
            raise EnrollError(f"{code}: {why}")
        learnt.append(image)
        say(f"[{number}/{len(codes)}] learnt {code}")
        if preview_path is not None:
            cv2.imwrite(str(preview_path), deck.preview(codes[:number], learnt))
    return learnt


def _preview_file(text: str) -> Path:
    """The preview's path: a file that can be written, of a kind OpenCV writes (it would
    otherwise fail only once the first card is learnt)."""
    path = writable_file("preview.png")(text)
    if not cv2.haveImageWriter(str(path)):
        raise argparse.ArgumentTypeError(f"{path} is not an image file: end it in .png or .jpg")
    return path


def _scene(game: games.Game) -> Callable[[int], Any] | None:
    """What the synthetic camera shows for `game` (its camera's scene), if it has one."""
    return None if game.camera is None else game.camera.scene


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = chosen_game(argv)  # the game whose faces are asked for (`--game`)
    game = games.game(chosen)
    refused = refused_tool("enroll", chosen, "enroll")
    if refused is not None:
        return refused
    parser = CommandLine(
        prog="companion enroll",
        description="Teach the camera a box: show it each card face, die face and token once.",
    )
    parser.add_argument("folder", type=folder_path, help="where to write the catalogue")
    parser.add_argument("--source", default="picamera2", help="frame source (default picamera2)")
    game_options("enroll", parser, chosen, "enroll")
    parser.add_argument(
        "--preview",
        type=_preview_file,
        help="preview image, .png or .jpg (default FOLDER/preview-GAME.png, GAME the game's id)",
    )
    parser.add_argument(
        "--no-wait", action="store_true", help="do not wait for Enter: frames come in code order"
    )
    args = parser.parse_args(argv)
    try:
        deck = game.enroll(args)
    except ValueError as error:  # a face asked for that is none of the game's
        parser.error(str(error))
    problem = writable_folder(args.folder)
    if problem is not None:  # said before the first card, not after the last
        print(f"companion enroll: {problem}", file=sys.stderr)
        return 2
    preview = args.preview or preview_path(args.folder, game.id)
    try:
        with open_source(args.source, _scene(game)) as source:
            pictures = enroll(
                source, deck, wait=None if args.no_wait else input, preview_path=preview
            )
    except (FrameSourceError, EnrollError) as error:
        print(f"enroll stopped: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nenroll stopped: nothing written", file=sys.stderr)
        return 2
    deck.save(pictures, args.folder)
    faces = "1 face" if len(pictures) == 1 else f"{len(pictures)} faces"
    print(f"wrote {faces} to {args.folder}; preview in {preview}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
