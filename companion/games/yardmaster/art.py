"""Our own printable Yardmaster Express cards: the engine, the railcar cards and the card
back, drawn with cv2 for the synthetic table and for a family's printer.

Made for the camera first, which over a table large enough for five trains sees a card at
as little as half a pixel a millimetre (a hard camera: tilted, turned, a cheap lens):

- a card is landscape (a mini card, 63 x 41 mm), as the two railcars lie side by side;
  every face has the Caboose design's dark frame inset from a white margin, so two cards
  laid end to end still show two frames with paper between them, and the frame gives the
  card's pose;
- inside the frame a grid of 4 rows of 6 cells (8 x 6.5 mm each, far larger than a
  pixel) holds everything the camera reads. On a railcar card the top two rows are a
  code strip and the bottom two the railcars, each in its cargo colour with its value
  printed large for the players. Each railcar has three cells of the strip above it (two
  rows), three of the six black: the twenty ways to choose them are the twenty railcars
  (five colours, values 1-4; `CODE_WORDS`). A code with exactly three black cells is read
  without a threshold (the three darkest are black), and one cell misread gives two or
  four black: never another railcar. Identity is in black and white, so a colour cast,
  a dim lamp or a shadow cannot change it; the cargo colour is a second, independent
  check;
- which way a card lies is where its colour is: the railcars are at the printed bottom,
  the black-and-white strip at the top, so a card turned end for end shows its colour at
  the other long edge (a mark nothing else on the card imitates);
- the engine's strip is its own pattern (`ENGINE_ROWS`, four black cells a railcar) over
  a black locomotive that runs to the left, where the train starts; the back is diagonal
  stripes of the same cells that read the same both ways round (`BACK_ROWS`, four black a
  half): neither is a railcar's code however it lies.

All drawing is in millimetres scaled by `px_per_mm`; a face is drawn upright (its printed
top at the top, its printed left railcar on the left) and comes with the mask of its
outline, as the Caboose cards do (companion/games/caboose/vision/card_art.py).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import cv2
import numpy as np

from companion.games.yardmaster import cards
from companion.vision.dice_art import INK, Sprite, fixed_point, rounded_rect

CARD_MM = (63.0, 41.0)  # landscape: the long side runs along the train
MARGIN_MM = 3.0  # white paper between the card's edge and its frame
FRAME_MM = 3.0  # the dark frame's width
CLEAR_MM = 1.5  # the grid keeps this far from the frame's inner edge
CORNER_MM = 3.0
ROWS, COLUMNS = 4, 6  # the grid inside the frame; rows 0-1 the code strip, 2-3 the railcars

PAPER = (238, 242, 244)
# the cargo colours (BGR) of the edition's letters: far apart in hue and in brightness
CARGO = {
    "R": (50, 45, 205),
    "B": (185, 105, 30),
    "Y": (35, 200, 240),
    "G": (60, 150, 40),
    "P": (150, 50, 135),
}
VALUES = (1, 2, 3, 4)

# the 20 ways to blacken 3 of a railcar's 6 code cells (row 0 left to right, then row 1),
# in order: colour by colour (CARGO's order), value 1 to 4 within each
CODE_WORDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 if cell in chosen else 0 for cell in range(6)) for chosen in combinations(range(6), 3)
)
# the engine's and the back's code strips (rows 0 and 1, six cells each); a half of either
# has four black cells, so neither reads as railcars; the back reads the same turned round
ENGINE_ROWS = ((1, 1, 0, 0, 1, 1), (1, 0, 1, 1, 0, 1))
BACK_ROWS = ((1, 1, 0, 1, 1, 0), (0, 1, 1, 0, 1, 1))


def railcar_word(colour: str, value: int) -> tuple[int, ...]:
    """The 6 code cells (1 black) of one railcar: ValueError for a colour or value our
    design does not print."""
    if colour not in CARGO or value not in VALUES:
        raise ValueError(
            f"our cards print railcars of colours {', '.join(CARGO)} and values 1-4, "
            f"not {colour}{value}"
        )
    return CODE_WORDS[list(CARGO).index(colour) * len(VALUES) + VALUES.index(value)]


def railcar_of_word(word: tuple[int, ...]) -> cards.Railcar | None:
    """The railcar whose code cells these are, or None."""
    try:
        index = CODE_WORDS.index(tuple(word))
    except ValueError:
        return None
    return list(CARGO)[index // len(VALUES)], VALUES[index % len(VALUES)]


def code_rows(code: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two rows of the code strip of a card face as printed (`E`, `W` or a railcar
    card's printed code)."""
    if code == cards.ENGINE:
        return ENGINE_ROWS
    if code == cards.FACE_DOWN:
        return BACK_ROWS
    left, right = (railcar_word(*car) for car in cards.railcars(code))
    return left[:3] + right[:3], left[3:] + right[3:]


def hole_mm(card_mm: tuple[float, float] = CARD_MM) -> tuple[float, float]:
    """Width and height of the hole inside a card's frame: what recognition finds."""
    inset = 2 * (MARGIN_MM + FRAME_MM)
    return card_mm[0] - inset, card_mm[1] - inset


def cell_mm(card_mm: tuple[float, float] = CARD_MM) -> tuple[float, float]:
    """Width and height of one grid cell."""
    width, height = hole_mm(card_mm)
    return (width - 2 * CLEAR_MM) / COLUMNS, (height - 2 * CLEAR_MM) / ROWS


def cell_centre(
    row: int, column: int, card_mm: tuple[float, float] = CARD_MM
) -> tuple[float, float]:
    """The centre of a grid cell in mm from the card's centre, the card upright."""
    width, height = cell_mm(card_mm)
    return (column - (COLUMNS - 1) / 2) * width, (row - (ROWS - 1) / 2) * height


class _Pen:
    """Drawing on a card in millimetres from its centre at `scale` px/mm: cv2's 1/16
    pixel fixed point (shift 4), so antialiased edges land where the millimetres say."""

    def __init__(self, image: np.ndarray, scale: float) -> None:
        self.image, self.scale = image, scale

    def at(self, x: float, y: float) -> tuple[int, int]:
        return fixed_point(x, y, self.scale, (CARD_MM[0] / 2, CARD_MM[1] / 2))

    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    def box(self, x0: float, y0: float, x1: float, y1: float, colour, width: int = -1) -> None:
        cv2.rectangle(self.image, self.at(x0, y0), self.at(x1, y1), colour, width, cv2.LINE_AA, 4)

    def disc(self, x: float, y: float, radius: float, colour) -> None:
        cv2.circle(self.image, self.at(x, y), self.px(radius) * 16, colour, -1, cv2.LINE_AA, 4)


@cache
def draw_card(code: str, px_per_mm: float = 4.0) -> Sprite:
    """A face as printed, upright: `E` the engine, `W` the back, or a railcar card's
    printed code (`R3-B2`: red 3 on the left, blue 2 on the right). ValueError (a
    CardCodeError) for a code our design does not print."""
    rows = code_rows(code)
    size = (round(CARD_MM[1] * px_per_mm), round(CARD_MM[0] * px_per_mm))
    pen = _Pen(np.full((*size, 3), PAPER, np.uint8), px_per_mm)
    x, y = (CARD_MM[0] / 2 - MARGIN_MM - FRAME_MM / 2, CARD_MM[1] / 2 - MARGIN_MM - FRAME_MM / 2)
    pen.box(-x, -y, x, y, INK, pen.px(FRAME_MM))
    cw, ch = cell_mm()
    grid = rows if code != cards.FACE_DOWN else rows + (rows[1][::-1], rows[0][::-1])
    for r, row in enumerate(grid):
        for c, black in enumerate(row):
            if black:
                x, y = cell_centre(r, c)
                pen.box(x - cw / 2, y - ch / 2, x + cw / 2, y + ch / 2, INK)
    if code == cards.ENGINE:
        _locomotive(pen)
    elif code != cards.FACE_DOWN:
        for half, (colour, value) in enumerate(cards.railcars(code)):
            _railcar(pen, half, colour, value)
    return pen.image, rounded_rect(size, pen.px(CORNER_MM))


def _railcar(pen: _Pen, half: int, colour: str, value: int) -> None:
    """One railcar in the bottom two rows of its half: a wagon in its cargo colour with the
    value large on it (dark on yellow, white on the dark colours), on two wheels."""
    cw, ch = cell_mm()
    left, _ = cell_centre(2, 3 * half)
    right, _ = cell_centre(2, 3 * half + 2)
    top, bottom = cell_centre(2, 0)[1] - ch / 2 + 0.6, cell_centre(3, 0)[1] + ch / 2 - 2.2
    x0, x1 = left - cw / 2 + 0.8, right + cw / 2 - 0.8
    pen.box(x0, top, x1, bottom, CARGO[colour])
    for wheel in (x0 + 4.0, x1 - 4.0):
        pen.disc(wheel, bottom + 0.6, 1.6, INK)
    text = str(value)
    font, thick = cv2.FONT_HERSHEY_DUPLEX, pen.px(1.6)
    (_, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = 8.5 * pen.scale / th
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cx, cy = pen.at((x0 + x1) / 2, (top + bottom) / 2)
    ink = INK if colour == "Y" else PAPER
    org = (round(cx / 16 - tw / 2), round(cy / 16 + th / 2))
    cv2.putText(pen.image, text, org, font, scale, ink, thick, cv2.LINE_AA)


def _locomotive(pen: _Pen) -> None:
    """The engine in the bottom two rows: a black locomotive running to the left (the
    train's start), its cab at the back, a chimney at the front, a white window."""
    cw, ch = cell_mm()
    left = cell_centre(2, 0)[0] - cw / 2 + 0.5
    right = cell_centre(2, COLUMNS - 1)[0] + cw / 2 - 0.5
    top, bottom = cell_centre(2, 0)[1] - ch / 2 + 0.6, cell_centre(3, 0)[1] + ch / 2 - 0.5
    boiler_top = top + 4.5
    body = [(left + 3, bottom - 2), (left, bottom - 2), (left + 3, boiler_top + 2),
            (right - 14, boiler_top + 2), (right - 14, top), (right, top),
            (right, bottom - 2)]  # fmt: skip
    outline = np.array([pen.at(x, y) for x, y in body], np.int32)
    cv2.fillPoly(pen.image, [outline], INK, cv2.LINE_AA, 4)
    pen.box(left + 7, top + 1, left + 11, boiler_top + 2, INK)  # the chimney
    pen.box(right - 10, top + 2, right - 4, top + 5.5, PAPER)  # the cab's window
    for wheel in (left + 8, left + 17, left + 26, right - 8):
        pen.disc(wheel, bottom - 1.8, 2.2, INK)


@cache
def face(code: str, px_per_mm: float) -> np.ndarray:
    """A face as one BGRA image (one warp per paste on the synthetic table), drawn once per
    scale: a `companion.synthetic.Picture` once `code` is bound."""
    return np.dstack(draw_card(code, px_per_mm))
