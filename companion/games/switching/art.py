"""The switching-track game's pieces as the camera sees them from above, drawn with cv2 for
the synthetic table (`companion.synthetic.Picture`s: BGRA at any px/mm, cached).

Made for the camera first, which sees a train at about a pixel a millimetre:

- a train is a locomotive seen from above, nose up when upright: a body in its player's
  colour (`TRAIN_COLOURS`, saturated, far from the board's greys and whites and from each
  other in hue), a black cab roof over its back third and a white lamp at its nose. Which
  way it faces is where the black is: at its back, a mark nothing else on a track imitates;
- the colour die is a die of `dice_art.DIE_MM` in a panel's colour (`PANEL_COLOURS`), so
  the camera tells it from the two white number dice by its colour alone;
- the board and its panels are drawn from the board file (`board_picture`,
  `panel_picture`): printed paper, grey tracks, each space a white rounded box with a
  thin dark rim, and the board's own ArUco markers in its corners (`board_markers`).

Calibration is on the board's own printed corner markers (ids `BOARD_MARKER_IDS`, never
the table's 0-3): the camera then measures in the board's own millimetres, which is where
the board file puts every space, and a board nudged across the table by an elbow is
still read right. A board without printed markers would lie at a measured place among
the table markers instead (companion/vision/table.py); ours has them.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.vision.dice_art import DIE_MM, INK, fixed_point, rounded_rect
from companion.vision.table import TableLayout

# the players' train colours and the panels' (and the colour die's), BGR as printed
TRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 35, 205),
    "blue": (195, 95, 20),
    "yellow": (25, 205, 245),
    "green": (55, 160, 35),
}
PANEL_COLOURS: dict[str, tuple[int, int, int]] = {
    "purple": (150, 55, 135),
    "cyan": (205, 195, 55),
    "orange": (40, 135, 245),
}
PAPER = (236, 240, 242)
TRACK = (150, 150, 146)  # the printed track: a grey, unlike every piece's colour
SPACE = (246, 248, 248)  # a space: whiter than the paper, with a thin dark rim

TRAIN_MM = (15.0, 30.0)  # a train seen from above, upright (nose up): width, length
ROOF_MM = 10.0  # the black cab roof's length, at the train's back
BOARD_MARKER_IDS = (4, 5, 6, 7)  # ArUco DICT_4X4_50, top left, top right, bottom right,
# bottom left of the board as printed (the table's own are 0-3)
BOARD_MARKER_MM = 40.0  # the printed markers' side
BOARD_MARKER_INSET_MM = 6.0  # from the board's edges to each marker


class BoardMarkers(TableLayout):
    """The board's printed corner markers as a `TableLayout` of the board's size, so the
    shared calibration (companion/vision/calibrate.py) and top-down warp work in board
    millimetres: ids `BOARD_MARKER_IDS` in the board's corners."""

    def marker_corners(self) -> dict[int, np.ndarray]:
        table = super().marker_corners()
        return {BOARD_MARKER_IDS[k]: corners for k, corners in table.items()}


def board_markers(width_mm: float, height_mm: float) -> BoardMarkers:
    """The corner markers of a board `width_mm` x `height_mm` as printed."""
    return BoardMarkers(
        width=width_mm,
        height=height_mm,
        marker_mm=BOARD_MARKER_MM,
        inset_mm=BOARD_MARKER_INSET_MM,
    )


def _train_outline() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The train's body, its roof and its lamp in mm from its centre, nose up: the body a
    box with a nose tapering over its front fifth."""
    w, length = TRAIN_MM[0] / 2, TRAIN_MM[1] / 2
    nose = length - 6.0
    body = np.array(
        [(-w, length - 1.5), (-w, -nose), (-w + 3.5, -length), (w - 3.5, -length),
         (w, -nose), (w, length - 1.5), (w - 1.5, length), (-w + 1.5, length)]
    )  # fmt: skip
    roof = np.array(
        [(-w + 1.2, length - ROOF_MM), (w - 1.2, length - ROOF_MM), (w - 1.2, length - 1.2),
         (-w + 1.2, length - 1.2)]
    )  # fmt: skip
    lamp = np.array([0.0, -length + 2.4])
    return body, roof, lamp


@cache
def train(colour: str, px_per_mm: float) -> np.ndarray:
    """A train of `colour` (`TRAIN_COLOURS`) seen from above, nose up, as one BGRA image:
    a `companion.synthetic.Picture` once the colour is bound. KeyError for a colour no
    player has."""
    body_colour = TRAIN_COLOURS[colour]
    size = (round(TRAIN_MM[1] * px_per_mm), round(TRAIN_MM[0] * px_per_mm))
    origin = (TRAIN_MM[0] / 2, TRAIN_MM[1] / 2)
    body, roof, lamp = _train_outline()

    def points(polygon: np.ndarray) -> np.ndarray:
        return np.array([fixed_point(x, y, px_per_mm, origin) for x, y in polygon], np.int32)

    image = np.zeros((*size, 3), np.uint8)
    mask = np.zeros(size, np.uint8)
    cv2.fillPoly(mask, [points(body)], 255, cv2.LINE_AA, 4)
    cv2.fillPoly(image, [points(body)], body_colour, cv2.LINE_AA, 4)
    # a darker line round the body: the piece's edge and its shadow on its own side
    cv2.polylines(image, [points(body)], True, _darker(body_colour), 1, cv2.LINE_AA, 4)
    cv2.fillPoly(image, [points(roof)], INK, cv2.LINE_AA, 4)
    cx, cy = fixed_point(*lamp, px_per_mm, origin)
    cv2.circle(image, (cx, cy), round(1.6 * px_per_mm * 16), (245, 250, 250), -1, cv2.LINE_AA, 4)
    return np.dstack([image, mask])


def _darker(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(int(c * 0.7) for c in colour)  # type: ignore[return-value]


@cache
def colour_die(colour: str, px_per_mm: float) -> np.ndarray:
    """The colour die's face showing `colour` (`PANEL_COLOURS`) as one BGRA image: a
    `companion.synthetic.Picture` once the colour is bound (`PlacedDie(picture=...)`)."""
    size = round(DIE_MM * px_per_mm)
    mask = rounded_rect((size, size), round(2.5 * px_per_mm))
    image = np.empty((size, size, 3), np.uint8)
    image[:] = PANEL_COLOURS[colour]
    return np.dstack([image, mask])
