"""A printed Caboose deck taught to the camera (`companion enroll`), one card face at a time.

Why: the deck on a real table may not be our printable design, and nothing may be
downloaded, so the camera learns the faces it will have to tell apart. The player lays one
card alone on the table, portrait, its top towards the markers 0 and 1 (a curve's track must
then end at the bottom and right edges, as the rules' geometry draws it): the card is found
by its outline and cut out straight. The faces learnt are a catalogue folder
(vision/catalogue.py) that `VisionConfig.for_edition(..., catalogue_folder)` loads. The
command itself (prompts, the camera, the files) is the application's, companion/app/enroll.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.vision.card_identity import card_image
from companion.games.caboose.vision.card_outlines import card_poses, unlike_table
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, Catalogue, normalise
from companion.games.caboose.vision.observation import VisionConfig
from companion.vision.calibrate import calibrate, top_down


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


class Deck:
    """The faces of a deck to learn (`companion.games.protocol.Enrolment`), for the card
    size of `config`."""

    def __init__(self, faces: Sequence[str], config: VisionConfig) -> None:
        self.faces = tuple(faces)
        self.config = config

    def learn(self, frame: np.ndarray) -> tuple[np.ndarray, str | None]:
        return learn_card(frame, self.config)

    def preview(self, faces: Sequence[str], pictures: Sequence[np.ndarray]) -> np.ndarray:
        return preview(faces, pictures)

    def save(self, pictures: Sequence[np.ndarray], folder: Path) -> None:
        Catalogue(list(self.faces), list(pictures)).save(folder)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`companion enroll`'s options for this game: whose deck, or which of its faces."""
    parser.add_argument("--edition", choices=editions.EDITIONS, default="rollecate")
    parser.add_argument("--codes", help="comma-separated card codes instead of the edition's")


def enrolment(args: argparse.Namespace) -> Deck:
    """The deck `companion enroll`'s options ask for: the edition's every face, or the
    codes given; ValueError names a code that is no card, or codes that name none."""
    codes = faces_of(args.edition)
    if args.codes:
        codes = [c.strip() for c in args.codes.split(",") if c.strip()]
        for code in codes:
            cards.parse(code)  # CardCodeError, a ValueError, says what a code must be
        if not codes:
            raise ValueError(f"--codes {args.codes!r} names no card: give codes such as 1/s,2/c")
    return Deck(codes, VisionConfig.for_edition(args.edition))
