"""A card that does not lie flat, as the top-down image shows it: bent.

The top-down image (calibrate.top_down) places the table's plane. A card bent along its
length or with a corner lifted has parts raised off that plane, and a raised point is seen
displaced away from the foot of the camera, by its height over the camera's (a 5 mm rise
seen from 1.4 m, 800 mm to one side: 3 mm). So a curled card's frame is no rectangle,
its print lies off the grid a flat card's has, and a reader that cuts it out as flat
reads the wrong places. `frame_bend` measures the bend from the card's printed frame
(each game's design has a dark frame inset from a white margin: paper to ink is the
steepest fall going into the card) and gives where each point of the flat card is seen,
for the reader to cut the card out along it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import cv2
import numpy as np

from companion.pose import Pose

# where the flat card's point (x, y) (mm from its centre, upright) is seen, the same shape
Bend = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]

_SCALE = 2.0  # the crop's pixels a mm
_REACH_MM = 3.5  # how far from a flat card's edge the frame's edge is looked for
_STATIONS = (7, 3)  # places along the long and the short sides where the edge is found
_ALONG = 0.38  # the stations span this share of a side's length either way from its middle
_SIZE_SLACK_MM = 2.0  # a side's two edges this near a frame's size apart, or no edge


def frame_bend(
    image: np.ndarray,
    pose: Pose,
    frame_mm: tuple[float, float],
    eye: np.ndarray | None,
    k: float = 1.0,
) -> Bend | None:
    """How the card at `pose` in the top-down `image` (grey or BGR, `k` px/mm) bends:
    its frame's outer edge (`frame_mm`, width along the pose's x) found at `_STATIONS`
    places along each side within _REACH_MM of where a flat card's lies, each long
    side's offsets fitted as a parabola along it and each short side's as a line.
    Inside, each shift is the two opposite sides' blended; the part of a bend beyond a
    straight line is a raised part, which also moves along the card as the direction
    away from the camera's foot says (`eye`, Calibration.eye: x, y, height in mm; None
    leaves that out). None when a side's edges are not a frame's size apart at enough
    places."""
    fits = []
    for axis in (1, 0):  # the edges across y (stations along x), then across x
        length = frame_mm[1 - axis]
        stations = _STATIONS[0] if length >= frame_mm[axis] else _STATIONS[1]
        found = _edges(image, pose, frame_mm, axis, stations, k)
        if found is None:
            return None
        fits.append(found)
    (top, bottom), (left, right) = fits
    hx, hy = frame_mm[0] / 2, frame_mm[1] / 2
    away = np.zeros(2) if eye is None else _away(pose, eye)

    def seen(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t, u = (y + hy) / (2 * hy), (x + hx) / (2 * hx)

        def across(xx: np.ndarray | float) -> np.ndarray:  # the shift in y at (xx, y)
            return (1 - t) * np.polyval(top, xx) + t * np.polyval(bottom, xx)

        def along(yy: np.ndarray | float) -> np.ndarray:  # the shift in x at (x, yy)
            return (1 - u) * np.polyval(left, yy) + u * np.polyval(right, yy)

        dv, du = across(x), along(y)
        raised_v = dv - ((1 - u) * across(-hx) + u * across(hx))
        raised_u = du - ((1 - t) * along(-hy) + t * along(hy))
        du = du + away[0] * raised_v
        dv = dv + away[1] * raised_u
        return x + du, y + dv

    return seen


def _away(pose: Pose, eye: np.ndarray) -> np.ndarray:
    """How far a raised point moves along the card's x per mm it moves across (y), and
    along y per mm along x: the direction away from the camera's foot, in the card's own
    axes; 0 where that direction lies too nearly along the other axis to tell."""
    a = math.radians(pose.rotation)
    away = np.array([pose.x - eye[0], pose.y - eye[1]])
    along_x, along_y = away @ [math.cos(a), math.sin(a)], away @ [-math.sin(a), math.cos(a)]
    size = math.hypot(along_x, along_y)
    x_per_y = along_x / along_y if abs(along_y) > 0.25 * size else 0.0
    y_per_x = along_y / along_x if abs(along_x) > 0.25 * size else 0.0
    return np.array([x_per_y, y_per_x])


def _edges(
    image: np.ndarray,
    pose: Pose,
    frame_mm: tuple[float, float],
    axis: int,
    stations: int,
    k: float,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The two sides across `axis` (1: the edges at -y and +y) as fits of their offsets
    from a flat frame's (mm) along the other axis; None with too few places found."""
    s = _SCALE
    size = (frame_mm[0] + 4 * _REACH_MM, frame_mm[1] + 4 * _REACH_MM)
    crop = _upright(image, pose, size, k)
    crop = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
    half, length = frame_mm[axis] / 2, frame_mm[1 - axis]
    places, near, far = [], [], []
    for place in np.linspace(-_ALONG, _ALONG, stations) * length:
        middle = (size[1 - axis] / 2 + place) * s
        band = slice(round(middle - 2 * s), round(middle + 2 * s))
        profile = crop[:, band].mean(axis=1) if axis == 1 else crop[band, :].mean(axis=0)
        ends = frame_edges(profile, half, s, _REACH_MM)
        if abs((ends[1] - ends[0]) - 2 * half) <= _SIZE_SLACK_MM:
            places.append(place)
            near.append(ends[0] + half)
            far.append(ends[1] - half)
    if len(places) < (4 if stations > 3 else 2):
        return None
    # the steepest fall lies a little outside a blurred edge, alike on both sides: the
    # frame's size is known, so only how its sides' offsets differ along it is kept
    wider = (np.mean(far) - np.mean(near)) / 2
    near, far = np.array(near) + wider, np.array(far) - wider
    degree = 2 if stations > 3 else 1
    return np.polyfit(places, near, degree), np.polyfit(places, far, degree)


def frame_edges(profile: np.ndarray, half: float, scale: float, reach: float) -> list[float]:
    """Where a card's frame's two outer edges lie along a `profile` across the card (its
    middle at the profile's, `scale` px/mm): each where paper turns to ink most steeply
    going into the card, within `reach` mm of `half` mm from the middle; mm from it. The
    fall is in the log of the brightness, as light multiplies it: a raised end turned from
    the lamp shades its own margin, and the next card's margin, lit fully, falls as many
    grey levels into the hair's shadow between them as the shaded margin does into the
    frame, but by a far smaller share."""
    shade = np.log(np.maximum(profile.astype(np.float64), 0.0) + 1.0)
    step = shade[2:] - shade[:-2]  # at i + 1: the change over a millimetre
    centre = len(profile) / 2
    ends = []
    for sign in (-1.0, 1.0):
        at = centre + sign * half * scale - 1
        low, high = round(at - reach * scale), round(at + reach * scale) + 1
        window = step[low:high] * sign  # into the card: paper to ink is a fall
        ends.append((low + int(np.argmax(window)) + 1 - centre) / scale)
    return ends


def _upright(image: np.ndarray, pose: Pose, size_mm: tuple[float, float], k: float) -> np.ndarray:
    """`size_mm` of the image (`k` px/mm) round `pose` at _SCALE px/mm, turned so that the pose's
    rotation points up: pixel (u, v) shows (u / s - width / 2, v / s - height / 2) mm
    from the pose's centre in the card's own axes."""
    s = _SCALE
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    m = np.array([[c / s, -sn / s, 0.0], [sn / s, c / s, 0.0]])
    m[:, 2] = np.array([pose.x, pose.y]) - m[:, :2] @ (np.array(size_mm) * s / 2)
    size = (round(size_mm[0] * s), round(size_mm[1] * s))
    return cv2.warpAffine(image, m * k, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


def bent_crop(
    image: np.ndarray,
    pose: Pose,
    card_mm: tuple[float, float],
    bend: Bend,
    size: tuple[int, int],
    k: float = 1.0,
) -> np.ndarray:
    """The card at `pose` cut out of the top-down `image` (`k` px/mm) along its `bend`, as
    `size` (width, height) pixels spanning its `card_mm`, upright: pixel (i, j) shows the
    flat card's point ((i + 0.5) / width - 0.5, (j + 0.5) / height - 0.5) times its size."""
    x, y = _bent_points(bend, card_mm, size)
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    map_x = ((pose.x + c * x - sn * y) * k).astype(np.float32)
    map_y = ((pose.y + sn * x + c * y) * k).astype(np.float32)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@functools.lru_cache(maxsize=8)
def _bent_points(
    bend: Bend, card_mm: tuple[float, float], size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Where `bent_crop`'s pixels show the card (mm from its centre, in its own axes):
    the same wherever the card lies, and most of a crop's cost, so a reader that cuts one
    bent card out a little moved and turned many times over (yardmaster's reader, 74
    times) works it out once. Kept by the `bend` itself (held, so no other card's bend can
    take its place)."""
    w, h = size
    x, y = np.meshgrid((np.arange(w) + 0.5) / w - 0.5, (np.arange(h) + 0.5) / h - 0.5)
    points = bend(x * card_mm[0], y * card_mm[1])
    for kept in points:
        kept.flags.writeable = False  # shared by every crop along this bend
    return points


def bend_size(bend: Bend, frame_mm: tuple[float, float]) -> float:
    """The most `bend` moves a point of the frame (mm): how far from flat the card looks."""
    x, y = np.meshgrid(
        np.linspace(-0.5, 0.5, 5) * frame_mm[0], np.linspace(-0.5, 0.5, 5) * frame_mm[1]
    )
    bx, by = bend(x, y)
    return float(np.hypot(bx - x, by - y).max())


def flatten(
    image: np.ndarray, pose: Pose, card_mm: tuple[float, float], bend: Bend, k: float = 1.0
) -> Callable[[], None]:
    """Lay the card at `pose` flat in the top-down `image` (`k` px/mm), in place: each
    pixel of its flat outline shows what its `bend` says is seen of that point, lit
    evenly, so that what reads a flat card (its face matched, a die looked for on it)
    reads it too. Returns what puts the image back as it was (the pixels it overwrote):
    a reader that tries a card laid flat and keeps the image as it lay when that reads
    no better need not copy the whole table first."""
    half = math.hypot(*card_mm) / 2 + 1
    x0, y0 = max(int((pose.x - half) * k), 0), max(int((pose.y - half) * k), 0)
    x1 = min(int((pose.x + half) * k) + 1, image.shape[1])
    y1 = min(int((pose.y + half) * k) + 1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return lambda: None
    gx, gy = np.meshgrid(np.arange(x0, x1) / k - pose.x, np.arange(y0, y1) / k - pose.y)
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    x, y = c * gx + sn * gy, -sn * gx + c * gy  # the card's own axes
    inside = (np.abs(x) <= card_mm[0] / 2) & (np.abs(y) <= card_mm[1] / 2)
    bx, by = bend(x, y)
    map_x = ((pose.x + c * bx - sn * by) * k).astype(np.float32)
    map_y = ((pose.y + sn * bx + c * by) * k).astype(np.float32)
    flat = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    region = image[y0:y1, x0:x1]
    before = region[inside]  # a copy (boolean indexing): what undo puts back

    def undo() -> None:
        region[inside] = before

    region[inside] = _evenly_lit(flat[inside], x[inside], y[inside])
    return undo


def _evenly_lit(pixels: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A card's `pixels` (N, 3; or N, grey) at its own `x`, `y` (mm) as if its paper were
    lit evenly: a bent card turns part of its face from the lamp, a third darker at worst.
    The light is fitted as a plane to the paper (the brightest half of the card, chosen
    anew under the fitted light, twice over) and divided out, its mean kept."""
    grey = pixels.astype(np.float32)
    if grey.ndim == 2:  # the channels' mean, added one by one: the same float32 values as
        # mean(axis=1), which numpy reduces slowly over a 3-long axis
        grey = (grey[:, 0] + grey[:, 1] + grey[:, 2]) / np.float32(3)
    columns = (np.ones_like(x), x, y)
    terms = np.stack(columns, 1)
    light = np.full_like(grey, float(np.median(grey)))
    for _ in range(3):
        ratio = grey / light
        paper = ratio >= np.median(ratio)
        # the paper's rows of `terms`, gathered column by column (the same matrix as
        # terms[paper], at a fraction of the time)
        chosen = np.stack([column[paper] for column in columns], 1)
        fit, *_ = np.linalg.lstsq(chosen, grey[paper], rcond=None)
        light = np.maximum(terms @ fit, 1.0).astype(np.float32)
    scale = float(light.mean()) / light
    scale = scale[:, None] if pixels.ndim == 2 else scale
    return np.clip(pixels * scale, 0, 255).astype(pixels.dtype)
