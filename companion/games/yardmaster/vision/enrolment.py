"""A Yardmaster Express box taught to the camera (`companion enroll --game
yardmaster-express`): each card face of its deck, its engine and its back, one at a time.

Why: a family's box is printed for people, not in our design (art.py), and nothing may be
downloaded, so the camera learns what it will have to tell apart (vision/taught.py reads
trains with what it learnt). The player lays one card alone on the table, its railcars
along the bottom edge as they sit at the bottom of the table (the side of markers 3 and
2), and the card is found by its colour unlike the table's and cut out straight at
taught.LEARNT_PX_PER_MM. A frame with no card, more than one, something not a card's
size or a blurred picture is refused, saying what to do. What is learnt is a catalogue
folder (taught.Catalogue) that the configuration's `table.catalogue` names.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.games.yardmaster import cards
from companion.games.yardmaster import edition as editions
from companion.games.yardmaster.printed_art import CARD_MM
from companion.games.yardmaster.scenes import TABLE
from companion.games.yardmaster.vision.taught import (
    LEARNT_PX_PER_MM,
    Catalogue,
    CatalogueError,
    cut,
    in_play,
)
from companion.vision.calibrate import calibrate, top_down
from companion.vision.table import TableLayout
from companion.vision.unlike_table import unlike_table

_JOIN_MM = 6.0  # parts of what lies on the table this close are one thing
_SPECK_MM2 = 150.0  # less than this unlike the table is a speck or a crumb, not a card
_BLURRED_MM = 3.5  # an edge spread over more than this (10-90 %) is too blurred
_TURNED_LEAD = 0.05  # how much better a card must fit the others turned round to be refused
_EDGE_MM = 4.5  # each side of a marker's edge, the run its sharpness is measured on


def faces_of(edition_id: str) -> list[str]:
    """Every distinct printed card of an edition's deck, then the engine and the back."""
    return list(dict.fromkeys(editions.load(edition_id).deck)) + [cards.ENGINE, cards.FACE_DOWN]


def prompt(face: str) -> str:
    """What to lay on the table to teach `face`."""
    if face == cards.ENGINE:
        return "lay an engine card alone on the table, its wheels along the bottom edge"
    if face == cards.FACE_DOWN:
        return "lay any card face down alone on the table"
    return (
        f"lay card {face} alone on the table, its railcars along the bottom edge as you sit "
        "at the bottom of the table"
    )


def learn_card(frame: np.ndarray, layout: TableLayout) -> tuple[np.ndarray, str | None]:
    """The upright picture (taught.LEARNT_PX_PER_MM, the whole card, its long side
    across) of the one card lying alone on the table in `frame`, or why not."""
    calibration = calibrate(frame, layout)
    if calibration is None or len(calibration.markers) < 4:
        return np.empty(0), "the four table markers are not all in view"
    k = LEARNT_PX_PER_MM
    top = top_down(frame, calibration, layout, k)
    # a card's print in colours near the table's can part it: its parts are one card
    gaps = round(_JOIN_MM * k) | 1
    mask = cv2.morphologyEx(
        in_play(unlike_table(top, layout, k), layout, k),
        cv2.MORPH_CLOSE,
        np.ones((gaps, gaps), np.uint8),
    )
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pieces = [c for c in contours if cv2.contourArea(c) >= _SPECK_MM2 * k * k]
    if not pieces:
        return np.empty(0), "no card found: lay one card alone on the table"
    if len(pieces) > 1:
        return np.empty(0), f"{len(pieces)} things found: lay exactly one card on the table"
    (cx, cy), (w, h), angle = cv2.minAreaRect(pieces[0])
    if w < h:
        w, h, angle = h, w, angle + 90.0
    angle = (angle + 90.0) % 180.0 - 90.0  # its long side across, the nearer way round
    long_mm, short_mm = w / k, h / k
    if (
        abs(long_mm - CARD_MM[0]) > 0.1 * CARD_MM[0]
        or abs(short_mm - CARD_MM[1]) > 0.1 * CARD_MM[1]
    ):
        return np.empty(0), (
            f"what lies there is {long_mm:.0f} x {short_mm:.0f} mm, not a card of "
            f"{CARD_MM[0]:g} x {CARD_MM[1]:g} mm: lay one card flat, alone"
        )
    picture = cut(top, (cx / k, cy / k), CARD_MM, angle, k)
    blur = _blur_mm(top, layout, k)
    if blur > _BLURRED_MM:
        return np.empty(0), (
            f"the picture is blurred (an edge spreads over {blur:.1f} mm): focus the "
            "camera and keep it and the card still"
        )
    return picture, None


def _blur_mm(top: np.ndarray, layout: TableLayout, k: float) -> float:
    """How far (mm) a sharp edge spreads in the top-down image at `k` px/mm: the run over
    which the grey falls from 10 % to 90 % of the way from a marker's white paper to its
    black border, across the middle of each side of each marker, the median. Markers,
    not the card: their edge is the same sharp black on white whatever a box prints."""
    widths = []
    for corners in layout.marker_corners().values():
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        for angle, reach in ((0.0, x1 - x0), (90.0, y1 - y0), (180.0, x1 - x0), (270.0, y1 - y0)):
            # a band across the side at `angle`, from the paper (left) into the border
            a = math.radians(angle)
            centre = np.array(middle) + (reach / 2) * np.array([-math.cos(a), -math.sin(a)])
            band = cut(top, tuple(centre), (2 * _EDGE_MM, reach / 2), angle, k)
            profile = cv2.cvtColor(band, cv2.COLOR_BGR2GRAY).astype(np.float32).mean(axis=0)
            fall = (profile[0] - profile) / max(float(profile[0] - profile.min()), 1.0)
            if profile[0] - profile.min() < 40:
                continue  # a hand over the marker, or no marker there
            sure = np.maximum.accumulate(fall)
            widths.append((np.argmax(sure >= 0.9) - np.argmax(sure >= 0.1)) / k)
    return float(np.median(widths)) if widths else 0.0


def _upside_down(picture: np.ndarray, others: Sequence[np.ndarray]) -> bool:
    """Whether a card's picture correlates better, on average, with `others` (railcar
    cards of the same box, taught upright) turned half round than as it is: a box prints
    its railcar cards alike (where the colour, the values, the rails are), so one laid the
    other way round stands out."""
    size = (round(CARD_MM[0]), round(CARD_MM[1]))  # a pixel a millimetre is plenty here

    def small(image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)

    seen = small(picture)
    turned = np.ascontiguousarray(seen[::-1, ::-1])
    fits = [
        [cv2.matchTemplate(way, small(other), cv2.TM_CCOEFF_NORMED)[0, 0] for other in others]
        for way in (seen, turned)
    ]
    return float(np.mean(fits[1])) > float(np.mean(fits[0])) + _TURNED_LEAD


def preview(faces: Sequence[str], pictures: Sequence[np.ndarray]) -> np.ndarray:
    """A contact sheet of the faces learnt so far, each labelled with its code."""
    w, h = round(CARD_MM[0] * 2), round(CARD_MM[1] * 2)
    columns = 6
    rows = max(1, (len(pictures) + columns - 1) // columns)
    sheet = np.full((rows * (h + 24), columns * (w + 8), 3), 255, np.uint8)
    for i, (code, picture) in enumerate(zip(faces, pictures, strict=True)):
        x, y = (i % columns) * (w + 8), (i // columns) * (h + 24)
        sheet[y : y + h, x : x + w] = cv2.resize(picture, (w, h), interpolation=cv2.INTER_AREA)
        cv2.putText(sheet, code, (x + 4, y + h + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0),
                    1, cv2.LINE_AA)  # fmt: skip
    return sheet


class Deck:
    """The faces of a box to learn (`companion.games.protocol.Enrolment`), on a table laid
    out as `layout`."""

    def __init__(self, faces: Sequence[str], layout: TableLayout = TABLE) -> None:
        self.faces = tuple(faces)
        self.layout = layout
        self.learnt: dict[str, np.ndarray] = {}  # the railcar cards learnt so far

    def prompt(self, face: str) -> str:
        return prompt(face)

    def learn(self, face: str, frame: np.ndarray) -> tuple[np.ndarray, str | None]:
        """`learn_card`, and a railcar card that looks more like the railcar cards taught
        before when turned half round is refused: it lies with its railcars along the top
        edge, and taught so, every reading of it would say turned wrongly."""
        picture, why = learn_card(frame, self.layout)
        if why is not None or face in (cards.ENGINE, cards.FACE_DOWN):
            return picture, why
        others = [p for f, p in self.learnt.items() if f != face]
        if others and _upside_down(picture, others):
            return np.empty(0), (
                f"card {face} lies the other way round from the cards taught before: turn it "
                "so that its railcars run along the bottom edge (if they do, the cards before "
                "were laid upside down: see the preview, and teach them again)"
            )
        self.learnt[face] = picture
        return picture, None

    def preview(self, faces: Sequence[str], pictures: Sequence[np.ndarray]) -> np.ndarray:
        return preview(faces, pictures)

    def save(self, pictures: Sequence[np.ndarray], folder: Path) -> None:
        """The faces learnt as a catalogue in `folder`, with the faces it already holds
        that were not taught again (a card taught again with --codes replaces its own);
        a folder holding something else is written over."""
        held: dict[str, np.ndarray] = {}
        if (folder / "catalogue.json").is_file():
            try:
                held = dict(Catalogue.load(folder).pictures)
            except CatalogueError:
                held = {}
        held.update(zip(self.faces, pictures, strict=True))
        Catalogue(held).save(folder)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`companion enroll`'s options for this game: whose deck, or which of its faces."""
    parser.add_argument("--edition", choices=editions.EDITIONS, default="yardmaster-express")
    parser.add_argument(
        "--codes",
        help="comma-separated faces instead of the edition's every card, its engine and back: "
        "railcar cards as printed (R3-B2), E the engine, W the back",
    )


def enrolment(args: argparse.Namespace) -> Deck:
    """What `companion enroll`'s options ask to teach: the edition's every printed card,
    the engine and the back, or the faces given; ValueError names a face that is none of
    the edition's, or codes that name none."""
    faces = faces_of(args.edition)
    if args.codes:
        asked = [c.strip() for c in args.codes.split(",") if c.strip()]
        if not asked:
            raise ValueError(f"--codes {args.codes!r} names no card: give codes such as R3-B2,E")
        for code in asked:
            if code not in faces:
                raise ValueError(
                    f"{code!r} is no face of {args.edition}: give a card as printed (R3-B2, "
                    "its left railcar first), E for the engine or W for the back"
                )
        faces = list(dict.fromkeys(asked))
    return Deck(faces)
