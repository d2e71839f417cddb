"""Our printable dice, drawn with cv2: what the dice readers look for and the synthetic table
draws.

Two kinds, told apart by their body colour: our wheel dice are yellow and show 0, 1 or 2
black spoked wheels (a wheel's radius is twice a pip's, so a wheel never reads as a pip,
and a blank face is still a yellow die); standard dice are white with black pips. The
spots are in millimetres from the die's centre, so the readers can measure a die in a
picture of any scale and the renderer can draw it at any.

All drawing is in millimetres scaled by `px_per_mm`; sprites come with a mask of their
outline (a `Sprite`), which a game's own art (its cards, its tokens) shares.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

DIE_MM = 16.0  # die side
WHEEL_SPOTS = {0: (), 1: ((0.0, 0.0),), 2: ((-3.6, -3.6), (3.6, 3.6))}  # mm from the die centre
PIP_SPOTS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}  # in pitches (PIP_PITCH_MM) from the die centre
WHEEL_MM = 3.1  # wheel radius: twice a pip's, so a wheel never reads as a pip
PIP_MM = 1.5  # pip radius
PIP_PITCH_MM = 4.3

INK = (30, 30, 30)  # the printed sheet's black, for dice and cards alike
WHEEL_DIE = (40, 215, 250)
PIP_DIE = (245, 245, 245)
# Standard dice as shops sell them (body, pips; BGR): the table reads any of these, so the
# synthetic table can throw any of them; "white" is PIP_DIE with our INK.
PIP_COLOURS = {
    "white": (PIP_DIE, INK),
    "red": ((45, 40, 190), (240, 240, 240)),
    "black": ((38, 36, 34), (235, 235, 235)),
    "blue": ((150, 75, 25), (240, 240, 240)),
    "green": ((70, 140, 40), (245, 245, 245)),
}

Sprite = tuple[np.ndarray, np.ndarray]  # BGR image, uint8 mask (255 inside the outline)


def fixed_point(
    x_mm: float, y_mm: float, scale: float, origin: tuple[float, float]
) -> tuple[int, int]:
    """A point in millimetres from a sprite's centre `origin` (mm from its top left) as
    cv2's 1/16 pixel fixed point (drawn with shift 4): antialiased edges land where the
    millimetres say, not on the nearest pixel."""
    return (round((x_mm + origin[0]) * scale * 16), round((y_mm + origin[1]) * scale * 16))


def rounded_rect(size: tuple[int, int], radius: int) -> np.ndarray:
    """The mask (255 inside) of a `size` (height, width) rectangle with rounded corners."""
    h, w = size
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    cv2.circle(mask, (w - 1 - radius, h - 1 - radius), radius, 255, -1, cv2.LINE_AA)
    return mask


def _die_body(colour: tuple[int, int, int], px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    size = round(DIE_MM * px_per_mm)
    mask = rounded_rect((size, size), round(2.5 * px_per_mm))
    img = np.empty((size, size, 3), np.uint8)
    img[:] = colour
    return img, mask


@cache
def draw_wheel_die(face: int, px_per_mm: float = 4.0) -> Sprite:
    """A custom die showing `face` wheels (0, 1 or 2): yellow body, black spoked wheels."""
    img, mask = _die_body(WHEEL_DIE, px_per_mm)
    half = DIE_MM / 2
    for x, y in WHEEL_SPOTS[face]:
        c = fixed_point(x, y, px_per_mm, (half, half))
        cv2.circle(img, c, round(WHEEL_MM * px_per_mm * 16), INK, -1, cv2.LINE_AA, 4)
        cv2.circle(img, c, round(0.9 * px_per_mm * 16), (160, 160, 160), -1, cv2.LINE_AA, 4)
    return img, mask


@cache
def draw_pip_die(face: int, px_per_mm: float = 4.0, colour: str = "white") -> Sprite:
    """A standard die showing `face` pips, in one of PIP_COLOURS (white: black pips)."""
    body, pips = PIP_COLOURS[colour]
    img, mask = _die_body(body, px_per_mm)
    half = DIE_MM / 2
    for x, y in PIP_SPOTS[face]:
        c = fixed_point(x * PIP_PITCH_MM, y * PIP_PITCH_MM, px_per_mm, (half, half))
        cv2.circle(img, c, round(PIP_MM * px_per_mm * 16), pips, -1, cv2.LINE_AA, 4)
    return img, mask


PRINTED_DIE = (170, 80, 25)  # a deep blue: darker than a wooden table, and not yellow
PRINTED_WHEEL = (245, 245, 240)
PRINTED_WHEEL_SPOTS = {0: (), 1: ((0.0, 0.0),), 2: ((-3.7, 0.0), (3.7, 0.0))}
PRINTED_WHEEL_MM = 3.0


@cache
def draw_printed_wheel_die(face: int, px_per_mm: float = 4.0) -> Sprite:
    """A wheel die of a box that is not ours, as a stand-in for the real boxes' dice whose
    look we do not ship: a deep blue body with well rounded corners, and 0, 1 or 2 white
    wheels drawn as a rim with six spokes, side by side rather than on a diagonal. Our
    reader must not read it (it is neither brighter than the table nor yellow, and its
    wheels are light on dark); a die taught by `companion enroll` is read instead."""
    size = round(DIE_MM * px_per_mm)
    mask = rounded_rect((size, size), round(4.0 * px_per_mm))
    img = np.empty((size, size, 3), np.uint8)
    img[:] = PRINTED_DIE
    half = DIE_MM / 2
    r = PRINTED_WHEEL_MM
    for x, y in PRINTED_WHEEL_SPOTS[face]:
        c = fixed_point(x, y, px_per_mm, (half, half))
        thick = max(1, round(0.7 * px_per_mm))
        cv2.circle(img, c, round(r * px_per_mm * 16), PRINTED_WHEEL, thick, cv2.LINE_AA, 4)
        for spoke in range(3):
            a = np.pi / 3 * spoke
            dx, dy = r * np.cos(a), r * np.sin(a)
            cv2.line(img, fixed_point(x - dx, y - dy, px_per_mm, (half, half)),
                     fixed_point(x + dx, y + dy, px_per_mm, (half, half)), PRINTED_WHEEL,
                     max(1, round(0.5 * px_per_mm)), cv2.LINE_AA, 4)  # fmt: skip
        cv2.circle(img, c, round(0.9 * px_per_mm * 16), PRINTED_WHEEL, -1, cv2.LINE_AA, 4)
    return img, mask
