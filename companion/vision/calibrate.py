"""From camera pixels to table millimetres: the four printed ArUco markers (DICT_4X4_50, ids
0-3, `TableLayout`) give a homography, refitted with the one lens parameter that matters.

Why this shape: the camera may be bumped or re-aimed at any time, so every frame can be
calibrated from scratch (a few milliseconds); a caller that saw the markers before can hand
the last `Calibration` back in when a hand covers one. Markers are searched on a half-size
frame (four times fewer pixels, still ~40 px per marker), a new camera's first in a window
round where a quarter-size search and the markers found put each (the same corners at
about half the cost), and their corners refined on the full frame. A cheap lens bends
straight lines (barrel distortion), which a homography alone cannot follow; the 16 marker
corners pin one radial coefficient k1 about the frame centre, which takes the worst error
in the middle of the table from several mm to about one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.table import TableLayout

_DETECT_WIDTH = 800  # frames wider than this are searched for markers at half size
# How finely a camera must see the table (frame px per table mm at its centre,
# `Calibration.px_per_mm`): at FINE_PX_PER_MM or finer every game reads as it was tuned (the
# default camera sees the hard synthetic Caboose tables at 0.86-1.4; the larger Yardmaster
# and switching tables at 0.72-1.2, where their readers read all as well); coarser, down to
# LEAST_PX_PER_MM, the cards and trains still read and the dice are asked more often (a
# 720p webcam holding the whole Caboose table: 0.57-1.0); coarser still, a die's pips are a
# pixel or two and cards go unfound, so the Caboose reader says the table is seen too
# coarsely instead of reading it (960x540 frames, 0.43-0.75: a quarter of the railways and
# the dice lost)
FINE_PX_PER_MM, LEAST_PX_PER_MM = 0.85, 0.5
_STILL_PX = 0.5  # markers that moved less than this keep the previous calibration
# a marker's patch (`_patch`, 2x2 pixel squares) whose squares changed by this many grey
# levels, more than this many of them, has moved or is covered (`_unmoved`)
_PATCH_LEVELS, _PATCH_NOISE = 24, 2
_K1_GRID = np.linspace(-0.05, 0.25, 7)  # k1 in units of the frame's half diagonal, coarse
TABLE_IDS = frozenset(range(4))  # the table markers' ids (TableLayout)
_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
# a marker narrower than this (pixels) is placed by its whole pattern (`_aligned`): its bits
# are under 6 px, and the corner's 7 px window reaches into them (the default camera's are
# 36-91 px on hard tables, placed by their corners as before; a 720p webcam's 24-61)
_ALIGN_BELOW_PX = 36.0
# a marker's pattern is aligned at 3-8 pixels a bit (its size in the frame, within these),
# with half a bit of its white paper round it (the printed sheet has 8 mm, 1 bit is 8.3 mm)
_ALIGN_BIT_PX, _ALIGN_QUIET_BITS = (3, 8), 0.5


@dataclass(frozen=True)
class Calibration:
    """Pixels to table mm for one camera position. `homography` maps undistorted pixels to
    table mm; `k1` undoes the lens (radius normalised by the frame's half diagonal, about the
    frame centre); `markers` are the ids seen; `error_mm` the markers' fit residual."""

    homography: np.ndarray
    k1: float
    frame_size: tuple[int, int]
    markers: tuple[int, ...]
    error_mm: float
    corners: np.ndarray = field(default_factory=lambda: np.empty((0, 2)), compare=False)
    # each marker's surroundings as this frame showed them (`_patches`): the next frame whose
    # markers look the same is of a camera that has not moved (`_unmoved`)
    patches: tuple[np.ndarray, ...] = field(default=(), compare=False, repr=False)

    def undistort(self, pixels: np.ndarray) -> np.ndarray:
        """Where frame pixels (N, 2) would be through a perfect lens."""
        return _undistort(np.asarray(pixels, np.float64).reshape(-1, 2), self.k1, self.frame_size)

    def to_table(self, pixels: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) of frame pixels (N, 2)."""
        pts = self.undistort(pixels).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Frame pixels (N, 2) of table points (N, 2) in mm, lens included."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        flat = cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)
        return _distort(flat, self.k1, self.frame_size)

    def eye(self) -> np.ndarray | None:
        """Where the camera stands (x, y mm over the table, and its height in mm), from
        the homography alone (square pixels, the lens's axis through the frame's centre:
        the focal length is what makes the table's two axes square and equal); None
        when the camera looks too nearly straight down to tell its height. A point
        raised off the table (a card's bent edge) is seen displaced away from the foot of
        the camera, by its height over the camera's."""
        centre = np.array(self.frame_size, np.float64) / 2
        g = np.linalg.inv(self.homography)  # table mm to undistorted pixels
        a = np.vstack([g[0] - centre[0] * g[2], g[1] - centre[1] * g[2], g[2]])
        # r1 . r2 = 0 and |r1| = |r2|, linear in 1 / f^2
        p = np.array([a[0, 0] * a[0, 1] + a[1, 0] * a[1, 1],
                      a[0, 0] ** 2 + a[1, 0] ** 2 - a[0, 1] ** 2 - a[1, 1] ** 2])  # fmt: skip
        q = np.array([a[2, 0] * a[2, 1], a[2, 0] ** 2 - a[2, 1] ** 2])
        if not float(p @ p) > 0:
            return None
        inverse_f2 = -float(p @ q) / float(p @ p)
        if inverse_f2 <= 0:
            return None
        f = 1.0 / math.sqrt(inverse_f2)
        m = np.vstack([a[0] / f, a[1] / f, a[2]])
        m = m / np.linalg.norm(m[:, 0]) * (1.0 if m[2, 2] > 0 else -1.0)
        rot = np.column_stack([m[:, 0], m[:, 1], np.cross(m[:, 0], m[:, 1])])
        eye = -rot.T @ m[:, 2]
        if not np.isfinite(eye).all():
            return None
        return np.array([eye[0], eye[1], abs(eye[2])])

    def px_per_mm(self, at: tuple[float, float]) -> float:
        """How many frame pixels a millimetre of table spans around the table point `at`
        (mm), the frame's density there (the square root of the pixels a square mm covers):
        what says whether the camera sees the table finely enough, whatever its frame's
        size and shape."""
        x, y = at
        p = self.to_pixels(np.array([[x - 5.0, y - 5.0], [x + 5.0, y - 5.0], [x - 5.0, y + 5.0]]))
        across, down = p[1] - p[0], p[2] - p[0]
        return math.sqrt(abs(float(across[0] * down[1] - across[1] * down[0]))) / 10.0


def _norm(frame_size: tuple[int, int]) -> tuple[np.ndarray, float]:
    centre = np.array(frame_size, np.float64) / 2
    return centre, float(np.hypot(*centre))


def _undistort(pixels: np.ndarray, k1: float, frame_size: tuple[int, int]) -> np.ndarray:
    centre, scale = _norm(frame_size)
    d = (pixels - centre) / scale
    r2 = (d * d).sum(axis=1, keepdims=True)
    return d / (1.0 + k1 * r2) * scale + centre


def _distort(pixels: np.ndarray, k1: float, frame_size: tuple[int, int]) -> np.ndarray:
    centre, scale = _norm(frame_size)
    u = (pixels - centre) / scale
    r_u = np.hypot(u[:, 0], u[:, 1])
    r_d = r_u.copy()
    for _ in range(8):  # converges as (k1 r^2)^n: far below a pixel for any real lens
        r_d = r_u * (1.0 + k1 * r_d * r_d)
    factor = np.divide(r_d, r_u, out=np.ones_like(r_u), where=r_u > 0)
    return u * factor[:, None] * scale + centre


def _detector(window: int | None, least_perimeter: float | None = None) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # A printed marker's black square gives two outlines a few pixels apart (its outer and
    # inner edge). OpenCV 4.8 groups candidates that close and keeps one per group, often the
    # wrong one, so it missed markers that 4.9 and newer (which try each one in a group)
    # find; a smaller distance keeps both outlines, and either reads as the marker.
    params.minMarkerDistanceRate = 0.02
    if window is not None:  # one threshold window instead of three: three times faster
        params.adaptiveThreshWinSizeMin = window
        params.adaptiveThreshWinSizeMax = window
    if least_perimeter is not None:
        params.minMarkerPerimeterRate = least_perimeter
    return cv2.aruco.ArucoDetector(_DICTIONARY, params)


# The fast search leaves outlines shorter than this share of the searched image's longer
# side before it fits a polygon to them: a wooden table's grain and the sensor's noise make
# some 2000 short outlines in a half-size frame, and OpenCV's default (0.03) fitted most of
# them (the search 6.9 -> 4.4 ms on hard tables). A table marker's outline is longer at any
# camera the readers accept: at LEAST_PX_PER_MM a 50 mm marker is 25 frame px a side, 12 at
# half size, a perimeter of 0.075 of a 1280x720 frame's half; smaller markers are found by
# the thorough search, which keeps the default.
_FAST_LEAST_PERIMETER = 0.05
_FAST = _detector(9, _FAST_LEAST_PERIMETER)
# a marker's window (`_placed`): this share of its side more on every side round where it
# should be, this many pixels more when another marker's place put it there, and this
# share of its distance from that one marker more when only one was found
_WINDOW_PAD, _WINDOW_PX, _WINDOW_FAR = 0.6, 10.0, 0.25
# The quarter-size search reads a marker about 18 half-size pixels wide or wider (9 there,
# 1.5 a bit), yet found one to place all four from in 7 of 11 switching frames whose largest
# marker was 20-24 px, in every one of 24 or more (seed 2000; hard Caboose tables 28 of 32,
# seed 3000), so it is tried first only while the last search from scratch at that size
# found a marker this wide (the same camera, moved: its markers' sizes change little; a
# frame it fails costs the quarter-size search, about a fifth of the whole one's time).
# A switching board's markers are 13-26 px, a 720p webcam's 11-29, the hard camera's 17-45
_QUARTER_LEAST_PX = 24.0
_LARGEST: dict[tuple[tuple[int, ...], frozenset[int]], float] = {}
_THOROUGH = _detector(None)


def find_markers(
    grey: np.ndarray,
    near: dict[int, np.ndarray] | None = None,
    ids: frozenset[int] = TABLE_IDS,
    known: dict[int, np.ndarray] | None = None,
) -> dict[int, np.ndarray]:
    """The markers `ids` (the table's, 0-3, unless a layout prints others: a board's own
    corner markers) seen in a grey frame: id -> 4 corner pixels (4, 2) in ArUco's order.
    With `near` (where the markers were last seen) each is looked for only around its last
    place, which costs a fraction of a search of the whole frame; the whole frame is
    searched when that does not find all four. Fast search first; the thorough one
    only when markers are missing. With `known` (each marker's corners on the table, mm:
    `TableLayout.marker_corners`) a large frame's markers are first looked for by where the
    ones a quarter-size search finds put the others (`_placed`), which finds the same
    corners as a search of the whole half-size frame at about half its cost."""
    if near and len(near) == 4:
        found = {}
        for marker_id, quad in near.items():
            lo, hi = quad.min(axis=0), quad.max(axis=0)
            pad = 0.6 * float((hi - lo).max())
            x0, y0 = max(int(lo[0] - pad), 0), max(int(lo[1] - pad), 0)
            x1 = min(int(hi[0] + pad) + 1, grey.shape[1])
            y1 = min(int(hi[1] + pad) + 1, grey.shape[0])
            seen = _detect(_FAST, grey[y0:y1, x0:x1], ids) if x1 > x0 and y1 > y0 else {}
            if marker_id in seen:
                found[marker_id] = seen[marker_id] + (x0, y0)
        if len(found) == 4:
            return _refine(grey, found)
    half = grey.shape[1] > _DETECT_WIDTH
    small = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) if half else grey
    scale = 2.0 if half else 1.0
    seen_before = (small.shape, ids)
    placed = {}
    if (
        half
        and len(ids) == 4
        and known
        and _LARGEST.get(seen_before, math.inf) >= _QUARTER_LEAST_PX
    ):
        placed = _placed(small, ids, known)
    fast = placed if len(placed) == 4 else _detect(_FAST, small, ids)
    if half:
        _LARGEST[seen_before] = max((_side(quad) for quad in fast.values()), default=0.0)
    # back to full-frame pixels: a half-size pixel's centre is at 2x + 0.5
    found = {k: v * scale + (scale - 1) / 2 for k, v in fast.items()}
    if len(found) < 4:
        extra = _detect(_THOROUGH, small, ids).items()
        found.update({k: v * scale + (scale - 1) / 2 for k, v in extra if k not in found})
    if len(found) < 4 and half:
        found.update({k: v for k, v in _detect(_THOROUGH, grey, ids).items() if k not in found})
    return _refine(grey, found) if found else {}


def _placed(
    small: np.ndarray, ids: frozenset[int], known: dict[int, np.ndarray]
) -> dict[int, np.ndarray]:
    """The fast search's markers in the half-size frame `small`, each searched for only in
    a window round where it should lie: the markers a quarter-size search reads (about half
    of them; its bits are 2-5 pixels there) say where they are, and those found say where
    the others are (a homography to their places on the table, `known`, fitted again after
    each one found, the nearest looked for first). In its window a marker gives the very
    corners a search of the whole image gives (the window reaches past its outline by over
    the threshold's block, and the least outline is the same in pixels: `_window_search`),
    so the calibration is the same; the caller searches the whole image when this finds
    fewer than four. A wooden table's grain makes the whole image's search slow (some 2000
    outlines); a quarter-size image and four windows are about half its time."""
    quarter = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    least = _FAST_LEAST_PERIMETER * max(small.shape)
    found: dict[int, np.ndarray] = {}
    for k, quad in _detect(_FAST, quarter, ids).items():
        quad = quad * 2.0 + 0.5  # a quarter-size pixel's centre in half-size pixels
        found.update(_window_search(small, k, quad, _WINDOW_PAD * _side(quad), least))
    tried: set[tuple[int, int]] = set()
    while found and len(found) < 4:
        table = np.concatenate([known[k] for k in sorted(found)]).astype(np.float64)
        pixels = np.concatenate([found[k] for k in sorted(found)])
        homography, _ = cv2.findHomography(table, pixels, 0)
        centre = table.mean(axis=0)
        missing = [k for k in ids if k in known and k not in found and (k, len(found)) not in tried]
        if homography is None or not missing:
            break
        k = min(missing, key=lambda k: (float(np.linalg.norm(known[k].mean(axis=0) - centre)), k))
        tried.add((k, len(found)))
        quad = cv2.perspectiveTransform(
            known[k].reshape(-1, 1, 2).astype(np.float64), homography
        ).reshape(4, 2)
        if not np.isfinite(quad).all():
            continue
        # one marker's homography puts a far one a few sides off (100 px at 700 mm, seed
        # 3006); two or more within a few pixels
        pad = _WINDOW_PAD * _side(quad) + _WINDOW_PX
        if len(found) == 1:
            pad += _WINDOW_FAR * float(np.linalg.norm(quad.mean(axis=0) - pixels.mean(axis=0)))
        found.update(_window_search(small, k, quad, pad, least))
    return found


def _window_search(
    small: np.ndarray, marker_id: int, quad: np.ndarray, pad: float, least: float
) -> dict[int, np.ndarray]:
    """Marker `marker_id` searched for by the fast search in the window of `small` round
    `quad` (pixels) `pad` more on every side, its outlines at least `least` pixels long as
    over the whole image (the search's least is a share of its image's longer side); {}
    when it is not there."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    x0, y0 = max(int(lo[0] - pad), 0), max(int(lo[1] - pad), 0)
    x1, y1 = min(int(hi[0] + pad) + 1, small.shape[1]), min(int(hi[1] + pad) + 1, small.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return {}
    window = small[y0:y1, x0:x1]
    params = _FAST.getDetectorParameters()
    params.minMarkerPerimeterRate = least / max(window.shape)
    # a detector of its own (a few microseconds): a shared one's parameters set here would
    # race with another thread's search
    window_search = cv2.aruco.ArucoDetector(_DICTIONARY, params)
    seen = _detect(window_search, window, frozenset((marker_id,)))
    return {marker_id: seen[marker_id] + (x0, y0)} if seen else {}


def _refine(grey: np.ndarray, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Marker corners refined on the full frame: to a tenth of a pixel at their corners,
    and a marker under _ALIGN_BELOW_PX wide by its whole print aligned (`_aligned`), which
    holds where a corner alone cannot."""
    corners = np.concatenate([found[k] for k in sorted(found)]).astype(np.float32)
    corners = corners.reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    cv2.cornerSubPix(grey, corners, (3, 3), (-1, -1), criteria)
    refined = corners.reshape(-1, 4, 2).astype(np.float64)
    return {
        k: _aligned(grey, k, refined[i]) if _side(refined[i]) < _ALIGN_BELOW_PX else refined[i]
        for i, k in enumerate(sorted(found))
    }


def _side(quad: np.ndarray) -> float:
    """A marker's mean side in pixels."""
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def _aligned(grey: np.ndarray, marker_id: int, quad: np.ndarray) -> np.ndarray:
    """The corners of marker `marker_id` seen at `quad` (frame pixels), its printed pattern
    and a margin of its white paper aligned with the frame by a homography (OpenCV's ECC);
    `quad` itself when that fails or moves a corner by over a quarter of its side. A marker
    22 pixels wide, as a 720p webcam sees one across the table, is 3.7 pixels a bit: a
    corner's 7-pixel window there reaches the bits inside, whose corners pulled it up to
    3.5 pixels (4 mm of table) off on the hard synthetic tables; the whole pattern's
    alignment is within a pixel at any size (seeds 7000-7009)."""
    side = _side(quad)
    bit = int(np.clip(round(side / 6), *_ALIGN_BIT_PX))
    quiet = max(round(_ALIGN_QUIET_BITS * bit), 1)
    template = cv2.copyMakeBorder(
        cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, 6 * bit),
        *(quiet,) * 4, cv2.BORDER_CONSTANT, value=255,
    ).astype(np.float32)  # fmt: skip
    inner = np.float32([[0, 0], [6 * bit, 0], [6 * bit, 6 * bit], [0, 6 * bit]]) + quiet
    lo = np.floor(quad.min(axis=0) - side / 2).astype(int).clip(0)
    hi = np.ceil(quad.max(axis=0) + side / 2).astype(int)
    patch = grey[lo[1] : hi[1], lo[0] : hi[0]].astype(np.float32)
    warp = cv2.getPerspectiveTransform(inner, (quad - lo).astype(np.float32))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
    try:
        _, warp = cv2.findTransformECC(
            template, patch, warp.astype(np.float32), cv2.MOTION_HOMOGRAPHY, criteria, None, 3
        )
    except cv2.error:  # no convergence: the corners as found
        return quad
    corners = cv2.perspectiveTransform(inner.reshape(-1, 1, 2), warp).reshape(4, 2) + lo
    if np.abs(corners - quad).max() > 0.25 * side:
        return quad
    return corners.astype(np.float64)


def _detect(
    detector: cv2.aruco.ArucoDetector, grey: np.ndarray, wanted: frozenset[int]
) -> dict[int, np.ndarray]:
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    found: dict[int, np.ndarray] = {}
    for marker_id, quad in zip(np.asarray(ids).ravel().tolist(), corners, strict=True):
        if marker_id in wanted and marker_id not in found:
            found[int(marker_id)] = np.asarray(quad, np.float64).reshape(4, 2)
    return found


def _fit(
    pixels: np.ndarray, table: np.ndarray, k1: float, frame_size: tuple[int, int]
) -> tuple[np.ndarray | None, float]:
    flat = _undistort(pixels, k1, frame_size)
    homography, _ = cv2.findHomography(flat, table, 0)
    if homography is None:
        return None, float("inf")
    mapped = cv2.perspectiveTransform(flat.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return homography, float(np.sqrt(((mapped - table) ** 2).sum(axis=1).mean()))


def _valley(error: Callable[[float], float], values: list[float], start: int) -> float:
    """Of `values` (in order), the one of least `error`, walked to from `values[start]`:
    a neighbour at a time, downhill, first to the right, else to the left. The fit's error
    over the lens parameter has one valley over the grid (in each of 282 calibrations of
    hard, 720p, lamp-lit, grey and easy Caboose tables, Yardmaster's and the switching
    game's, the walk ended at the least of all), so this is the least of them, found in 3-5
    fits instead of 13 (each a homography refined, about 0.2 ms)."""
    at = start
    for way in (1, -1):
        while 0 <= at + way < len(values) and error(values[at + way]) < error(values[at]):
            at += way
        if at != start:
            break
    return values[at]


def calibrate(
    frame_bgr: np.ndarray,
    layout: TableLayout | None = None,
    previous: Calibration | None = None,
) -> Calibration | None:
    """The calibration of this frame, or None with fewer than two markers in view (one
    marker's four corners are too close together to place the whole table). When the same
    markers lie within half a pixel of where `previous` saw them, the camera has not moved
    and `previous` itself is returned, so its top-down warp tables are reused."""
    layout = layout or TableLayout()
    if _unmoved(frame_bgr, previous):
        return previous
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    size = (grey.shape[1], grey.shape[0])
    near = None
    if previous is not None and previous.frame_size == size and len(previous.markers) == 4:
        near = {k: previous.corners[4 * i : 4 * i + 4] for i, k in enumerate(previous.markers)}
    known = layout.marker_corners()
    markers = find_markers(grey, near, frozenset(known), known)
    if len(markers) < 2:
        return None
    ids = sorted(markers)
    pixels = np.concatenate([markers[k] for k in ids])
    table = np.concatenate([known[k] for k in ids])
    if (
        previous is not None
        and previous.markers == tuple(ids)
        and previous.frame_size == size
        and np.abs(previous.corners - pixels).max() < _STILL_PX
    ):
        return previous
    best_k1, (best_h, best_err) = 0.0, _fit(pixels, table, 0.0, size)
    if len(ids) == 4:  # fewer markers cannot tell a bent lens from perspective
        fits = {0.0: (best_h, best_err)}

        def error(k1: float) -> float:
            if k1 not in fits:
                fits[k1] = _fit(pixels, table, k1, size)
            return fits[k1][1]

        # the grid's zero is -7e-18, a fit the same as the one without a lens made above
        grid = [0.0 if abs(k1) < 1e-12 else float(k1) for k1 in _K1_GRID]
        best_k1 = _valley(error, grid, grid.index(0.0))
        step = float(_K1_GRID[1] - _K1_GRID[0])
        around = [best_k1 + step * offset for offset in (-0.75, -0.5, -0.25, 0.25, 0.5, 0.75)]
        best_k1 = _valley(error, [*around[:3], best_k1, *around[3:]], 3)
        best_h, best_err = fits[best_k1]
    if best_h is None:
        return None
    patches = _patches(grey, pixels) if len(ids) == 4 else ()
    return Calibration(best_h, best_k1, size, tuple(ids), best_err, pixels, patches)


def _windows(corners: np.ndarray, size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Each marker's box (x0, y0, x1, y1 frame pixels, even) round its four `corners` (4 per
    marker, in order) with a quarter of its side more on every side: its print and its
    paper's edge, which any move of the camera shifts."""
    boxes = []
    for quad in corners.reshape(-1, 4, 2):
        pad = 0.25 * _side(quad)
        x0, y0 = (np.floor(quad.min(axis=0) - pad).astype(int) // 2 * 2).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0) + pad).astype(int) // 2 * 2
        boxes.append(
            (int(x0), int(y0), min(int(x1), size[0] // 2 * 2), min(int(y1), size[1] // 2 * 2))
        )
    return boxes


def _patch(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The grey of `image` (BGR or grey) in `box`, averaged over 2x2 pixels (sensor noise
    halves; a marker's edge moved by half a pixel still changes its squares by tens of
    grey levels), as int16."""
    x0, y0, x1, y1 = box
    window = image[y0:y1, x0:x1]
    if window.ndim == 3:
        window = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(window, ((x1 - x0) // 2, (y1 - y0) // 2), interpolation=cv2.INTER_AREA)
    return small.astype(np.int16)


def _patches(grey: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each marker's `_patch` in the frame it was found in."""
    size = (grey.shape[1], grey.shape[0])
    return tuple(_patch(grey, box) for box in _windows(corners, size))


def _unmoved(frame: np.ndarray, previous: Calibration | None) -> bool:
    """Whether `frame` shows every marker of `previous` just as its frame did (no square of
    any marker's patch `_PATCH_LEVELS` or more off, but for noise's few): the camera has
    not moved and nothing covers a marker, so its calibration holds as it is, without
    looking for the markers again (what a still camera's every frame saves)."""
    size = (frame.shape[1], frame.shape[0])
    if previous is None or len(previous.patches) != 4 or previous.frame_size != size:
        return False
    for box, before in zip(_windows(previous.corners, size), previous.patches, strict=True):
        now = _patch(frame, box)
        if now.shape != before.shape:
            return False
        if int(np.count_nonzero(np.abs(now - before) >= _PATCH_LEVELS)) > _PATCH_NOISE:
            return False
    return True


def top_down(
    frame_bgr: np.ndarray,
    calibration: Calibration,
    layout: TableLayout | None = None,
    px_per_mm: float = 1.0,
    interpolation: int = cv2.INTER_LINEAR,
) -> np.ndarray:
    """The table seen from straight above at `px_per_mm`: pixel (i, j) shows table mm
    (j / px_per_mm, i / px_per_mm). Recognition works on this, where a card is a card-sized
    rectangle wherever the camera stands."""
    layout = layout or TableLayout()
    width, height = round(layout.width * px_per_mm), round(layout.height * px_per_mm)
    maps = _table_maps(calibration, (width, height), px_per_mm)
    frame_px = frame_bgr.shape[0] * frame_bgr.shape[1]
    if frame_bgr.ndim == 3 and frame_bgr.shape[2] == 3 and width * height >= frame_px / 4:
        # OpenCV's remap interpolates four channels at once and three one by one: through
        # a fourth channel the same pixels come about a seventh sooner, the channel's two
        # conversions included (240 remaps of hard tables: 3.00 -> 2.58 ms)
        four = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2BGRA)
        top = cv2.remap(four, maps[0], maps[1], interpolation, borderValue=(0, 0, 0, 0))
        return cv2.cvtColor(top, cv2.COLOR_BGRA2BGR)
    return cv2.remap(frame_bgr, maps[0], maps[1], interpolation, borderValue=(0, 0, 0))


_MAP_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _table_maps(
    calibration: Calibration, size: tuple[int, int], px_per_mm: float
) -> tuple[np.ndarray, np.ndarray]:
    """Remap tables from top-down pixels to frame pixels, kept for the last few cameras: a
    fixed camera reuses them frame after frame."""
    key = (calibration.homography.tobytes(), calibration.k1, size, px_per_mm)
    if key in _MAP_CACHE:
        return _MAP_CACHE[key]
    width, height = size
    # computed on a coarse grid and interpolated (the mapping is smooth); grid point i sits
    # at pixel (i + 0.5) * step - 0.5, which is where resize puts it, so no shift is needed
    step = 16
    gw, gh = -(-width // step), -(-height // step)
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * step - 0.5, (np.arange(gh) + 0.5) * step - 0.5)
    mm = np.stack([gx.ravel(), gy.ravel()], axis=1) / px_per_mm
    coarse = calibration.to_pixels(mm).reshape(gh, gw, 2).astype(np.float32)
    fine = cv2.resize(coarse, (gw * step, gh * step), interpolation=cv2.INTER_LINEAR)
    maps = cv2.convertMaps(fine[:height, :width], None, cv2.CV_16SC2)  # a view: no copy
    if len(_MAP_CACHE) > 8:
        _MAP_CACHE.clear()
    _MAP_CACHE[key] = maps
    return maps
