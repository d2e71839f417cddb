"""A stand-in for a real box's Yardmaster Express cards, which we may not ship: what the
synthetic table lays when it tests enrolment of a printed deck (`companion enroll`) and
the reader of taught faces (vision/taught.py).

Why a stand-in at all: a family's box is printed for people, not for our camera, so the
camera must learn it; the stand-in is made to be unlike our design (art.py) in every way
the reader of our design leans on, so that nothing of ours helps it by accident:

- full-bleed art to the cut edge with rounded corners: no white margin, no dark frame, no
  code strip, so two cards laid end to end show no band between them (one region of
  colour that the reader must cut apart);
- each railcar is a tall block in its cargo colour (hues a little off ours, as another
  printer's are) with its value as a big numeral in a disc, over a dark rail with wheels
  along the printed bottom and under a pale sky band with the company's lettering along
  the top: values differ only in the numeral, as on a real card;
- the engine is a red locomotive on a green ground, running to the left, and the back a
  navy lattice of silver lines with a silver medallion, the same turned half round.

Every colour at a card's edge is unlike a wooden table's (the cream of many printed
borders is not: such a deck's edges would be found by where its print begins).

Its size is our cards' (art.CARD_MM, 63 x 41 mm, the mini-card size of the real box): the
synthetic table lays trains at that pitch (scenes.lay) and the trains are chained at it
(reader.py), as a real box's mini cards would be.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.games.yardmaster import art, cards
from companion.vision.dice_art import Sprite, fixed_point, rounded_rect

CARD_MM = art.CARD_MM
CORNER_MM = 3.5
# the cargo colours as another printer has them (BGR): near ours, not ours
CARGO = {
    "R": (40, 62, 214),
    "B": (172, 118, 42),
    "Y": (58, 206, 232),
    "G": (78, 162, 64),
    "P": (158, 68, 148),
}
SKY = (236, 214, 182)  # the pale sky band along a railcar card's top
RAIL = (118, 78, 58)  # the rail along a railcar card's bottom
_LETTERING = (150, 96, 60)
_ENGINE_GROUND = (66, 118, 40)
_ENGINE_BODY = (40, 40, 190)
_BACK = (92, 44, 22)
_SILVER = (206, 206, 198)


def _canvas(px_per_mm: float, colour: tuple[int, int, int]):
    """An upright card of one colour, and its helpers: mm from the card's centre to cv2's
    fixed point, and a length in whole pixels."""
    w_mm, h_mm = CARD_MM
    img = np.empty((round(h_mm * px_per_mm), round(w_mm * px_per_mm), 3), np.uint8)
    img[:] = colour

    def pt(x: float, y: float) -> tuple[int, int]:
        return fixed_point(x, y, px_per_mm, (w_mm / 2, h_mm / 2))

    def mm(length: float) -> int:
        return max(1, round(length * px_per_mm))

    return img, pt, mm


def _numeral(img: np.ndarray, pt, value: int, centre: tuple[float, float], ink,
             px_per_mm: float) -> None:  # fmt: skip
    """A value as a big numeral (17 mm tall) centred at `centre` mm."""
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(3.0 * px_per_mm))
    (_, th), _ = cv2.getTextSize(str(value), font, 1.0, thick)
    scale = 17.0 * px_per_mm / th
    (tw, th), _ = cv2.getTextSize(str(value), font, scale, thick)
    cx, cy = pt(*centre)
    org = (round(cx / 16 - tw / 2), round(cy / 16 + th / 2))
    cv2.putText(img, str(value), org, font, scale, ink, thick, cv2.LINE_AA)


def _railcar_card(code: str, px_per_mm: float) -> np.ndarray:
    w_mm, h_mm = CARD_MM
    img, pt, mm = _canvas(px_per_mm, SKY)
    top, rail = -h_mm / 2 + 7.0, h_mm / 2 - 6.0
    for half, (colour, value) in enumerate(cards.railcars(code)):
        x0, x1 = -w_mm / 2 + half * w_mm / 2, half * w_mm / 2
        cv2.rectangle(img, pt(x0, top), pt(x1, rail), CARGO[colour], -1, cv2.LINE_AA, 4)
        middle = ((x0 + x1) / 2, (top + rail) / 2)
        disc = (250, 250, 250) if colour != "Y" else (40, 40, 40)
        cv2.circle(img, pt(*middle), mm(11.5) * 16, disc, -1, cv2.LINE_AA, 4)
        _numeral(img, pt, value, middle, CARGO[colour], px_per_mm)
        for wheel in (x0 + 7.0, x1 - 7.0):
            cv2.circle(img, pt(wheel, rail + 2.5), mm(2.6) * 16, (20, 20, 20), -1, cv2.LINE_AA, 4)
    cv2.rectangle(img, pt(-w_mm / 2, rail + 2.0), pt(w_mm / 2, h_mm / 2), RAIL, -1, cv2.LINE_AA, 4)
    cv2.line(img, pt(0.0, top), pt(0.0, rail), SKY, mm(1.2), cv2.LINE_AA, 4)  # the coupling
    for x in np.arange(-w_mm / 2 + 5.0, w_mm / 2 - 4.0, 6.0):  # the company's lettering
        cv2.rectangle(img, pt(x, -h_mm / 2 + 2.5), pt(x + 4.0, -h_mm / 2 + 4.5), _LETTERING, -1,
                      cv2.LINE_AA, 4)  # fmt: skip
    return img


def _engine_card(px_per_mm: float) -> np.ndarray:
    w_mm, h_mm = CARD_MM
    img, pt, mm = _canvas(px_per_mm, _ENGINE_GROUND)
    body = [(-24, 8), (-28, 12), (-24, -2), (10, -2), (10, -12), (25, -12), (25, 8)]
    cv2.fillPoly(img, [np.array([pt(x, y) for x, y in body], np.int32)], _ENGINE_BODY,
                 cv2.LINE_AA, 4)  # fmt: skip
    cv2.rectangle(img, pt(-18, -10), pt(-13, -2), (30, 30, 30), -1, cv2.LINE_AA, 4)  # chimney
    cv2.rectangle(img, pt(13, -9), pt(22, -4), SKY, -1, cv2.LINE_AA, 4)  # the cab's window
    cv2.rectangle(img, pt(-w_mm / 2, 14), pt(w_mm / 2, h_mm / 2), RAIL, -1, cv2.LINE_AA, 4)
    for x in (-17, -6, 5, 18):
        cv2.circle(img, pt(x, 12), mm(4.0) * 16, (20, 20, 20), -1, cv2.LINE_AA, 4)
        cv2.circle(img, pt(x, 12), mm(1.5) * 16, _SILVER, -1, cv2.LINE_AA, 4)
    cv2.ellipse(img, pt(-8, -14), (mm(6) * 16, mm(2.5) * 16), 0, 0, 360, (230, 230, 230), -1,
                cv2.LINE_AA, 4)  # fmt: skip
    return img


def _back_card(px_per_mm: float) -> np.ndarray:
    """A lattice of silver lines and a medallion in the middle: the same turned half round."""
    img, pt, mm = _canvas(px_per_mm, _BACK)
    for offset in np.arange(-60.0, 61.0, 10.0):
        for sign in (-1.0, 1.0):
            a, b = pt(offset - sign * 25.0, -25.0), pt(offset + sign * 25.0, 25.0)
            cv2.line(img, a, b, _SILVER, mm(0.8), cv2.LINE_AA, 4)
    cv2.ellipse(img, pt(0, 0), (mm(16) * 16, mm(11) * 16), 0, 0, 360, _BACK, -1, cv2.LINE_AA, 4)
    cv2.ellipse(img, pt(0, 0), (mm(14) * 16, mm(9) * 16), 0, 0, 360, _SILVER, mm(1.5),
                cv2.LINE_AA, 4)  # fmt: skip
    cv2.rectangle(img, pt(-7, -3), pt(7, 3), _SILVER, -1, cv2.LINE_AA, 4)
    return img


@cache
def draw_card(code: str, px_per_mm: float = 4.0) -> Sprite:
    """A face of the stand-in deck, upright: `E` the engine, `W` the back, or a railcar
    card's printed code (`R3-B2`); with the mask of its rounded outline. ValueError (a
    CardCodeError) for anything else, or a colour it does not print."""
    if code == cards.ENGINE:
        img = _engine_card(px_per_mm)
    elif code == cards.FACE_DOWN:
        img = _back_card(px_per_mm)
    else:
        for colour, value in cards.railcars(code):
            if colour not in CARGO or not 0 <= value <= 9:
                raise ValueError(f"the stand-in deck prints no railcar {colour}{value}")
        img = _railcar_card(code, px_per_mm)
    return img, rounded_rect(img.shape[:2], max(1, round(CORNER_MM * px_per_mm)))


@cache
def face(code: str, px_per_mm: float) -> np.ndarray:
    """A face as one BGRA image, drawn once per scale: a `companion.synthetic.Picture` once
    `code` is bound."""
    return np.dstack(draw_card(code, px_per_mm))
