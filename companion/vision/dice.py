"""Dice on the table: find them off the cards, tell wheel dice from pip dice, read the face.

Why this shape: a die is 16 mm, about 20 frame pixels on a tilted camera, and its pips are
3-4 pixels wide, too few to count blobs reliably through blur and JPEG. But a die's face
can only be one of a few layouts on a 3 x 3 grid, so the reader finds the die's body (a
square brighter than the table around it, or yellow), its centre and its turn, looks at how
dark the face is at each place a pip or wheel can be, on a 4 px/mm crop of the original
frame, and takes the layout that explains those nine numbers best. The body colour gives
the kind: our wheel dice are yellow, standard dice white (dice_art).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import dice_art
from companion.vision.calibrate import Calibration

WHEELS, PIPS = "wheels", "pips"
_CROP_MM = 26.0  # the window read around a die
_CROP_PX_PER_MM = 4.0
_MIN_AREA, _MAX_AREA = 70.0, 420.0  # a die's top face in mm^2 (16 mm side, rounded)
_BRIGHTER = 1.3  # a die body against the table's local mean brightness


@dataclass(frozen=True)
class DieReading:
    """One die read: kind, face shown, centre in table mm, and 0-1 confidence."""

    kind: str
    face: int
    x: float
    y: float
    confidence: float


def _grid(kind: str) -> np.ndarray:
    """Where a dark spot can be on a face, in mm from its centre, die square to the axes."""
    if kind == WHEELS:
        d = dice_art.WHEEL_SPOTS[2][1][0]
        return np.array([[0, 0], [-d, -d], [d, d], [-d, d], [d, -d]], np.float64)
    p = dice_art.PIP_PITCH_MM
    return np.array([[x * p, y * p] for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float64)


def _layouts(kind: str) -> list[tuple[int, np.ndarray]]:
    """(face, expected darkness 0/1 at each grid place) for every face and quarter turn."""
    found: list[tuple[int, np.ndarray]] = []
    if kind == WHEELS:
        for face, spots in dice_art.WHEEL_SPOTS.items():
            for turn in (0, 1):
                pattern = np.zeros(5)
                for x, y in spots:
                    x, y = (x, y) if turn == 0 else (-y, x)
                    pattern[int(np.argmin(np.hypot(*(_grid(kind) - (x, y)).T)))] = 1
                found.append((face, pattern))
        return found
    for face, spots in dice_art.PIP_SPOTS.items():
        for turn in (0, 1):
            pattern = np.zeros(9)
            for x, y in spots:
                x, y = (x, y) if turn == 0 else (-y, x)
                pattern[(y + 1) * 3 + (x + 1)] = 1
            found.append((face, pattern))
    return found


_LAYOUTS = {WHEELS: _layouts(WHEELS), PIPS: _layouts(PIPS)}


def find_dice(half: np.ndarray, free: np.ndarray, k: float) -> list[tuple[float, float]]:
    """Centres (table mm) of die-sized blobs in the colour top-down image `half` (at `k`
    px/mm, half recognition's scale: a die is still 8 pixels wide), looking only where
    `free` (at full scale) is set: off the cards, the markers and the caboose. A die is
    brighter than the table around it, or (a wheel die in shadow, two big wheels darkening
    its face) at least strongly yellow; the read that follows is on the original frame."""
    grey = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    allowed = cv2.resize(free, (grey.shape[1], grey.shape[0]), interpolation=cv2.INTER_NEAREST)
    window = round(45 * k) | 1
    local = cv2.blur(grey, (window, window))
    brighter = cv2.compare(grey, cv2.multiply(local, _BRIGHTER), cv2.CMP_GT)
    bright = cv2.bitwise_and(brighter, cv2.compare(grey, 60, cv2.CMP_GT))
    yellow = cv2.inRange(hsv, (20, 200, 60), (38, 255, 255))
    mask = cv2.bitwise_and(cv2.bitwise_or(bright, yellow), allowed)
    # close over the pips first (they cut a six's face into thin strips), then drop specks
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_mm = stats[:, cv2.CC_STAT_AREA] / k**2
    found = []
    for i in range(1, count):
        x, y, w, h = (stats[i, j] / k for j in range(4))
        if _MIN_AREA <= area_mm[i] <= _MAX_AREA and 11 <= max(w, h) <= 28 and min(w, h) >= 6:
            # the box's centre, not the blob's: dark wheels leave the bright part lopsided
            found.append((x + w / 2 - 0.5 / k, y + h / 2 - 0.5 / k))
    return found


def read_die(frame: np.ndarray, calibration: Calibration, x: float, y: float) -> DieReading | None:
    """Read the die near table point (x, y) mm on a 4 px/mm crop of the original frame;
    None when no die body is there. A die found off the crop's centre is read again
    centred, where the table's level around it and the die's outline are measured best."""
    reading = _read_at(frame, calibration, x, y)
    if reading is not None and math.dist((reading.x, reading.y), (x, y)) > 2.0:
        return _read_at(frame, calibration, reading.x, reading.y) or reading
    return reading


def _read_at(frame: np.ndarray, calibration: Calibration, x: float, y: float) -> DieReading | None:
    size = round(_CROP_MM * _CROP_PX_PER_MM)
    half = _CROP_MM / 2
    window = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half]])
    pixels = calibration.to_pixels(window).astype(np.float32)
    out = np.float32([[0, 0], [size, 0], [size, size]])
    crop = cv2.warpAffine(
        frame, cv2.getAffineTransform(out, pixels), (size, size),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    outlines = [o for o in (_outline(body, size) for body in _bodies(grey, hsv)) if o is not None]
    if not outlines:
        return None
    # the outline nearest a whole die's size: a mask that lost a wheel or gained some table
    # is smaller or larger, and its centre would misplace the spots
    best = min(outlines, key=lambda o: abs(o[3] - dice_art.DIE_MM))
    return _read_face(grey, hsv, best[:3], (x - half, y - half))


def _read_face(
    grey: np.ndarray,
    hsv: np.ndarray,
    outline: tuple[np.ndarray, tuple[float, float], float],
    origin_mm: tuple[float, float],
) -> DieReading:
    """The kind (body colour) and face (darkness at each place a spot can be, averaged
    over about a spot's size) of the die whose outline was found in a crop."""
    contour_mask, (cx, cy), angle = outline
    size = grey.shape[0]
    inner = cv2.erode(contour_mask, np.ones((7, 7), np.uint8)) > 0
    saturation = float(np.median(hsv[..., 1][inner])) if inner.any() else 0.0
    kind = WHEELS if saturation > 90 else PIPS
    body_grey = np.sort(grey[inner]) if inner.any() else np.array([255])
    level = float(body_grey[int(0.9 * (len(body_grey) - 1))])  # the face, not its spots
    spot_px = 15 if kind == WHEELS else 7
    mean = cv2.blur(grey.astype(np.float32), (spot_px, spot_px))
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    places = _grid(kind) @ rot.T * _CROP_PX_PER_MM + (cx, cy)
    xi = np.clip(places[:, 0].round().astype(int), 0, size - 1)
    yi = np.clip(places[:, 1].round().astype(int), 0, size - 1)
    dark = np.clip(1.0 - mean[yi, xi] / max(level, 1.0), 0.0, 1.0)
    face, confidence = _best_layout(kind, dark)
    centre_mm = np.array([cx, cy]) / _CROP_PX_PER_MM + origin_mm
    return DieReading(kind, face, float(centre_mm[0]), float(centre_mm[1]), confidence)


def _bodies(grey: np.ndarray, hsv: np.ndarray):
    """Masks that may hold the die's body: Otsu's split of the crop (tight where the die
    stands out), and brighter than the table at the crop's border or strongly yellow (a
    wheel die in shadow, where Otsu may split the wheels off instead); the outline nearest
    a die's size wins."""
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    _, body = cv2.threshold(smooth, 0, 1, cv2.THRESH_OTSU)
    yield body
    border = np.concatenate([grey[:6].ravel(), grey[-6:].ravel(), grey[:, :6].ravel(),
                             grey[:, -6:].ravel()])  # fmt: skip
    brighter = smooth > float(np.median(border)) * 1.4
    yield (brighter | (cv2.inRange(hsv, (20, 175, 50), (38, 255, 255)) > 0)).astype(np.uint8)


def _outline(body: np.ndarray, size: int) -> tuple[np.ndarray, tuple[float, float], float] | None:
    """The die in a body mask: its filled mask, centre (crop px) and turn, or None when
    the part around the crop's centre is not die-sized."""
    body = cv2.morphologyEx(body, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(body)
    mid = size // 2
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    # the body may have a wheel at its centre, so it need not cover the centre itself
    around = [i for i in range(1, count) if left[i] < mid < right[i] and top[i] < mid < bottom[i]]
    if not around:
        return None
    label = max(around, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    mask = (labels == label).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre, (w, h), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    side = (w + h) / 2 / _CROP_PX_PER_MM
    if not 11.0 <= side <= 22.0:
        return None
    return mask, centre, angle, side


def _best_layout(kind: str, dark: np.ndarray) -> tuple[int, float]:
    """The face whose layout best explains the darkness at each grid place, and a 0-1
    confidence from how far ahead of the next face it is."""
    strongest = float(dark.max())
    if strongest < 0.18:  # nothing dark anywhere: a blank wheel face
        return (0, float(np.clip((0.18 - strongest) / 0.1, 0.2, 1.0))) if kind == WHEELS else (
            1, 0.0)  # fmt: skip
    level = dark / strongest
    errors: dict[int, float] = {}
    for face, pattern in _LAYOUTS[kind]:
        error = float(((level - pattern) ** 2).sum())
        errors[face] = min(errors.get(face, np.inf), error)
    ranked = sorted(errors.items(), key=lambda item: item[1])
    best, second = ranked[0], ranked[1]
    confidence = float(np.clip((second[1] - best[1]) / 1.0, 0.0, 1.0))
    return best[0], confidence
