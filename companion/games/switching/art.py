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
still read right. A board without printed markers, a family's own, is found among the
table's markers by its taught picture instead (vision/taught.py); ours has them.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import cv2
import numpy as np

from companion.games.switching.board import DEAD_END, FINISH, START, Board, Chain, Layout
from companion.vision.dice_art import DIE_MM, INK, fixed_point, rounded_rect
from companion.vision.table import TableLayout

# the players' train colours and the panels' (and the colour die's), BGR as printed: seven
# hues at least 30 degrees apart (a train's from any other train's by 50 at least), each
# far more colourful (HSV saturation 0.7 and more) than skin, wood (0.4-0.55) or greys
TRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (50, 30, 205),
    "blue": (205, 85, 25),
    "yellow": (35, 228, 215),
    "green": (70, 175, 30),
}
PANEL_COLOURS: dict[str, tuple[int, int, int]] = {
    "purple": (160, 40, 140),
    "cyan": (195, 200, 55),
    "orange": (40, 130, 245),
}
PAPER = (236, 240, 242)
TRACK = (150, 150, 146)  # the printed track: a grey, unlike every piece's colour
SPACE = (246, 248, 248)  # a space: whiter than the paper, with a thin dark rim

# a train seen from above, upright (nose up): width, length. Our board's spaces are 32-41
# mm apart along a track, so two trains nose to tail still leave a gap the camera sees
TRAIN_MM = (13.0, 26.0)
ROOF_MM = (3.0, 11.0)  # the black cab roof, from the train's centre towards its back: a
# band of the body's colour stays behind it, so the roof is the train's and no neighbour's
BOARD_MARKER_IDS = (4, 5, 6, 7)  # ArUco DICT_4X4_50, top left, top right, bottom right,
# bottom left of the board as printed (the table's own are 0-3)
BOARD_MARKER_MM = 44.0  # the printed markers' side: as large as our board's free corners allow
BOARD_MARKER_INSET_MM = 3.0  # from the board's edges to each marker (its corners are free to 50 mm)


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
    nose = length - 5.0
    body = np.array(
        [(-w, length - 1.5), (-w, -nose), (-w + 3.0, -length), (w - 3.0, -length),
         (w, -nose), (w, length - 1.5), (w - 1.5, length), (-w + 1.5, length)]
    )  # fmt: skip
    (front, back), rim = ROOF_MM, 1.2
    roof = np.array([(-w + rim, front), (w - rim, front), (w - rim, back), (-w + rim, back)])
    lamp = np.array([0.0, -length + 2.2])
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
    cv2.circle(image, (cx, cy), round(1.4 * px_per_mm * 16), (245, 250, 250), -1, cv2.LINE_AA, 4)
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


SLOT_BED = (200, 203, 204)  # an empty slot's floor: grey, no panel's colour
TRACK_MM = 20.0  # a track's printed width
SPACE_MM = (24.0, 16.0)  # a space's white box: along the track, across it
END_MM = 14.0  # a dead end's buffer stop, past its last space's centre
PANEL_INSET_MM = 1.0  # a panel is this much smaller than its slot all round
MARK_MM = (6.0, 14.0)  # a panel's way-round marks: inset from its corners, and side
_BAR = (115, 115, 115)  # a buffer stop's grey: darker than the track, far lighter than a roof


def _chain_points(board: Board, chain: Chain, layout: Layout) -> list[tuple[float, float]]:
    """The centre line of a chain drawn upright in its own frame (the board for a track,
    the panel for a piece): from its back end's point through its spaces to its front's.
    A port is where it lies on the slot's edge; Start, Finish and a dead end half a step
    beyond the end space."""
    centres = [_frame_point(board, s, layout) for s in chain.spaces]
    points = list(centres)
    for end, index, step in ((chain.back, 0, -1), (chain.front, -1, 1)):
        if end in (START, FINISH, DEAD_END):
            dx, dy = board.heading(chain.spaces[index], layout)
            reach = END_MM if end == DEAD_END else 18.0
            x, y = centres[index]
            point = (x + step * dx * reach, y + step * dy * reach)
        elif chain.panel is None:
            point = board.port_point(*end.split("."))
        else:
            point = board.ports[end]
        points.insert(0 if index == 0 else len(points), point)
    return points


def _frame_point(board: Board, space: str, layout: Layout) -> tuple[float, float]:
    """A space's centre in its own frame: on the board, or in its panel upright."""
    s = board.spaces[space]
    return s.at if s.panel is not None else board.centre(space, layout)


class _Sheet:
    """Drawing on a printed sheet (the board, a panel) in its own millimetres at `scale`
    px/mm, in cv2's 1/16 pixel fixed point."""

    def __init__(self, size_mm: tuple[float, float], scale: float, colour) -> None:
        self.scale = scale
        shape = (round(size_mm[1] * scale), round(size_mm[0] * scale), 3)
        self.image = np.empty(shape, np.uint8)
        self.image[:] = colour

    def at(self, x: float, y: float) -> tuple[int, int]:
        return fixed_point(x, y, self.scale, (0.0, 0.0))

    def poly(self, points, colour) -> None:
        pts = np.array([self.at(x, y) for x, y in points], np.int32)
        cv2.fillPoly(self.image, [pts], colour, cv2.LINE_AA, 4)

    def box(self, centre, heading, size: tuple[float, float], colour) -> None:
        """A box `size` (along, across) centred at `centre`, its length along `heading`."""
        (x, y), (dx, dy) = centre, heading
        a, c = size[0] / 2, size[1] / 2
        self.poly([(x + dx * u - dy * v, y + dy * u + dx * v)
                   for u, v in ((-a, -c), (a, -c), (a, c), (-a, c))], colour)  # fmt: skip

    def band(self, points, width: float, colour) -> None:
        """A band `width` mm wide along a polyline, round at its joints."""
        for (x0, y0), (x1, y1) in pairwise(points):
            length = max(float(np.hypot(x1 - x0, y1 - y0)), 1e-6)
            heading = ((x1 - x0) / length, (y1 - y0) / length)
            self.box(((x0 + x1) / 2, (y0 + y1) / 2), heading, (length, width), colour)
        for x, y in points[1:-1]:
            radius = round(width / 2 * self.scale * 16)
            cv2.circle(self.image, self.at(x, y), radius, colour, -1, cv2.LINE_AA, 4)


def _draw_chain(sheet: _Sheet, board: Board, chain: Chain, layout: Layout) -> None:
    """A track or piece as printed: its grey band, a buffer stop at a dead end, a
    chequered band past a Finish, and each space's white box along the track."""
    points = _chain_points(board, chain, layout)
    sheet.band(points, TRACK_MM, TRACK)
    for end, index, outward in ((chain.back, 0, -1.0), (chain.front, -1, 1.0)):
        dx, dy = board.heading(chain.spaces[index], layout)
        _end_mark(sheet, end, points[index], (outward * dx, outward * dy))
    for space in chain.spaces:
        centre = _frame_point(board, space, layout)
        sheet.box(centre, board.heading(space, layout), SPACE_MM, SPACE)


def _end_mark(
    sheet: _Sheet, end: str, point: tuple[float, float], out: tuple[float, float]
) -> None:
    """The mark at a chain's end `point` (`out` points off the track's end): a buffer stop
    at a dead end, a chequered band at a Finish, an arrowhead into the track at a Start.
    All lie at least END_MM past a space's centre, clear of a train's roof there."""
    across = (-out[1], out[0])

    def at(u: float, v: float) -> tuple[float, float]:
        """`u` mm back from the end's point into the track, `v` across it."""
        return point[0] - out[0] * u + across[0] * v, point[1] - out[1] * u + across[1] * v

    if end == DEAD_END:
        sheet.box(point, across, (TRACK_MM + 4.0, 3.0), _BAR)
    elif end == FINISH:
        for k in range(4):
            for row in (0, 1):
                if (k + row) % 2 == 0:
                    sheet.box(at(3.0 - 2.5 * row, -7.5 + 5.0 * k), out, (2.5, 5.0), INK)
    elif end == START:
        sheet.poly([at(-1.0, -4.0), at(-1.0, 4.0), at(4.0, 0.0)], INK)


@cache
def board_picture(board: Board, px_per_mm: float) -> np.ndarray:
    """The board as printed, as one BGRA image (`companion.synthetic.Picture` once the
    board is bound): paper, its corner markers, the slots' empty floors, the fixed tracks
    and their spaces (the panels are pieces of their own: `panel_picture`)."""
    sheet = _Sheet(board.size, px_per_mm, PAPER)
    for marker_id, corners in board_markers(*board.size).marker_corners().items():
        lo = corners.min(axis=0)
        side = round(BOARD_MARKER_MM * px_per_mm)
        x0, y0 = (lo * px_per_mm).round().astype(int)
        marker = cv2.aruco.generateImageMarker(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), marker_id, side
        )
        sheet.image[y0 : y0 + side, x0 : x0 + side] = np.where(marker[..., None] > 127, 250, 25)
    for slot in board.slots.values():
        x0, y0, x1, y1 = slot.x, slot.y, slot.x + slot.width, slot.y + slot.height
        sheet.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], SLOT_BED)
    for chain in board.chains.values():
        if chain.panel is None:
            _draw_chain(sheet, board, chain, board.home)
    mask = np.full(sheet.image.shape[:2], 255, np.uint8)
    return np.dstack([sheet.image, mask])


@cache
def panel_picture(board: Board, colour: str, px_per_mm: float) -> np.ndarray:
    """One panel as printed, upright, as one BGRA image: its colour, its pieces, and two
    black squares in its top corners that say which way round it lies (turned, they are
    at its bottom). `PANEL_INSET_MM` smaller than its slot all round."""
    slot = next(iter(board.slots.values()))
    size = (slot.width - 2 * PANEL_INSET_MM, slot.height - 2 * PANEL_INSET_MM)
    sheet = _Sheet((slot.width, slot.height), px_per_mm, PANEL_COLOURS[colour])
    inset, side = MARK_MM
    for x in (inset, slot.width - inset - side):
        sheet.poly([(x, inset), (x + side, inset), (x + side, inset + side), (x, inset + side)],
                   INK)  # fmt: skip
    for chain_id in board.panel(colour).pieces:
        _draw_chain(sheet, board, board.chains[chain_id], board.home)
    cut = round(PANEL_INSET_MM * px_per_mm)
    image = sheet.image[
        cut : cut + round(size[1] * px_per_mm), cut : cut + round(size[0] * px_per_mm)
    ]
    mask = np.full(image.shape[:2], 255, np.uint8)
    return np.dstack([image, mask])
