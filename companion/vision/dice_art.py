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
def draw_pip_die(face: int, px_per_mm: float = 4.0) -> Sprite:
    """A standard white die showing `face` black pips."""
    img, mask = _die_body(PIP_DIE, px_per_mm)
    half = DIE_MM / 2
    for x, y in PIP_SPOTS[face]:
        c = fixed_point(x * PIP_PITCH_MM, y * PIP_PITCH_MM, px_per_mm, (half, half))
        cv2.circle(img, c, round(PIP_MM * px_per_mm * 16), INK, -1, cv2.LINE_AA, 4)
    return img, mask
