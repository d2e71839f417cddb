"""Is the table ready for the camera? Findings over one frame: the camera (and whether its
pictures are the configured size), the four table markers, the table's size measured
from them, the chosen game's play area, how finely the camera sees the table, focus,
exposure and glare, each with what to do when it is wrong.

Pure functions of a frame and the table as configured (`check_setup`), so `companion
check` (the command line) and a setup page beside the camera's picture say the same
things (`Report.as_json`). A `Finding` is a stable key, an ok flag and its parameters;
its words, in English and Spanish, are setup_words.py's. The game's play area comes in
as a `PlayArea` (a game's `Camera.area`, the table's own play area when it has none).

Why these measures:
- the table's size: the markers' positions in the configuration are what a person had to
  measure with a tape; but each printed marker's own size is known, and the 16 corners of
  four squares of known size fix both the camera's perspective and where each square lies
  (`measure_table`), so the tape is not needed;
- focus: sharpness measures such as the variance of the Laplacian depend on what lies on
  the table (a bare wooden top has little to be sharp), so no threshold fits every table;
  the markers' edges are black-to-white steps whatever else is there, and a step blurred
  by the lens rises over a width that says the blur in pixels (`edge_blur`);
- exposure is judged on the table inside the markers (the room around it does not
  matter), glare as near-white blobs on it: a lamp's reflection is white whatever the
  paper it falls on, while paper and wood are not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.games.protocol import CameraSetup, Game
from companion.vision import setup_words
from companion.vision.calibrate import (
    FINE_PX_PER_MM,
    LEAST_PX_PER_MM,
    TABLE_IDS,
    Calibration,
    calibrate,
    find_markers,
)
from companion.vision.frame_checks import as_image
from companion.vision.table import TableLayout

# the markers, in TableLayout's order, by where they lie as the camera sees the table
MARKER_PLACES = ("top_left", "top_right", "bottom_right", "bottom_left")
MIN_FRAME = 640  # a frame narrower than this cannot read a card's value across the table
SIZE_TOLERANCE = 0.02  # a configured side further off the measured one than this share
MAX_BLUR_PX = 1.6  # an edge's blur (Gaussian sigma) over this: the lens is out of focus
DARK_WHITE = 70  # the table's brightest hundredth under this grey level: too dark
CLIPPED = 250  # a channel at this or more has lost its detail (all three: white)
CLIPPED_SHARE = 0.2  # of the table with a channel clipped: overexposed, not a reflection (a
# white board covering the table is bright, not clipped: brightness alone says nothing)
GLARE_MM2 = 150.0  # a clipped blob at least this large on the table is a reflection


@dataclass(frozen=True)
class Finding:
    """One thing the check found: `key` stable for programs (setup_words.py says it),
    `ok` whether it is as it should be, `params` what fills in its words."""

    key: str
    ok: bool
    params: Mapping[str, Any] = field(default_factory=dict)

    def said(self, lang: str = "en") -> str:
        """What was found, in the language's words."""
        return setup_words.said(self, lang)

    def fix(self, lang: str = "en") -> str | None:
        """What to do about it, or None when it is as it should be."""
        return None if self.ok else setup_words.fix(self, lang)

    def as_json(self, lang: str = "en") -> dict[str, Any]:
        """For a page: the key, whether it is ok, its parameters and its words."""
        return {
            "key": self.key,
            "ok": self.ok,
            "params": dict(self.params),
            "said": self.said(lang),
            "fix": self.fix(lang),
        }


@dataclass(frozen=True)
class PlayArea:
    """Where a game's pieces lie: the rectangle (left, top, right, bottom) in the mm of
    `layout`, whose markers place it, and `beside` mm of table on its left and right
    along the table's own width (a board's dice and depots: the board may lie turned,
    the players still throw where the table has room); without a layout, the table's own
    markers place its play area (`TableLayout.play_area` of the table as measured) and
    the `zone` where cards are shown (table mm), wherever it lies."""

    game: str = ""  # the game's name, for the words (`play_area` fills it in)
    rect: tuple[float, float, float, float] | None = None
    layout: TableLayout | None = None  # another set of markers (a board's); None: the table's
    zone: tuple[float, float, float, float] | None = None
    beside: float = 0.0


def play_area(game: Game, setup: CameraSetup, option: str) -> PlayArea:
    """Where `game`'s pieces lie at a table set up as `setup`: its camera's `area` tool
    if it has one; else the table's play area and the marked zone where cards are shown
    (`setup.zone`)."""
    if game.camera is not None and game.camera.area is not None:
        return replace(game.camera.area(setup, option), game=game.name)
    return PlayArea(game.name, zone=setup.zone)


@dataclass(frozen=True)
class Report:
    """Everything one frame showed: the findings in the order a person fixes them, the
    table as measured (None unless all four markers were seen) and the frame's size."""

    findings: tuple[Finding, ...]
    frame_size: tuple[int, int] | None
    measured: TableLayout | None

    @property
    def ready(self) -> bool:
        return all(finding.ok for finding in self.findings)

    @property
    def first_fix(self) -> Finding | None:
        """The first thing to fix, or None when the table is ready."""
        return next((finding for finding in self.findings if not finding.ok), None)

    def as_json(self, lang: str = "en") -> dict[str, Any]:
        """For a setup page: ready or not, the first thing to fix, every finding in
        words, the frame's size and the table as measured (mm), as --save keeps them."""
        first = self.first_fix
        measured = self.measured
        return {
            "ready": self.ready,
            "first_fix": None if first is None else first.as_json(lang),
            "findings": [finding.as_json(lang) for finding in self.findings],
            "frame_size": None if self.frame_size is None else list(self.frame_size),
            "measured": None
            if measured is None
            else {"width": measured.width, "height": measured.height},
        }


def check_setup(frame: object, setup: CameraSetup, game: Game, option: str) -> Report:
    """All the findings of one frame at a table set up as `setup` (its layout and frame
    size, as `companion run` and `companion check` make it from the configuration), for
    `game`'s pieces of `option`: what a setup page shows beside the picture."""
    return check_frame(frame, setup.layout, play_area(game, setup, option), setup.frame_size)


def check_frame(
    frame: object,
    layout: TableLayout,
    area: PlayArea,
    frame_size: tuple[int, int] | None = None,
) -> Report:
    """All the findings of one frame over a table configured as `layout` with frames of
    `frame_size` (None: not configured), for the game whose pieces lie in `area`. A frame
    that is None (or no image) is a camera that gave no picture."""
    frame, problem = as_image(frame)
    if frame is None:
        if problem is not None and problem[0] == "frame_tiny":
            size = problem[1]["width"], problem[1]["height"]
            tiny = Finding(
                "camera", False, {"width": size[0], "height": size[1], "least": MIN_FRAME}
            )
            return Report((tiny,), size, None)
        return Report((Finding("camera_none", False),), None, None)
    height, width = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    findings = [
        Finding(
            "camera", width >= MIN_FRAME, {"width": width, "height": height, "least": MIN_FRAME}
        )
    ]
    if frame_size is not None:  # recognition expects the configured size on every frame
        configured = {"configured_width": frame_size[0], "configured_height": frame_size[1]}
        findings.append(
            Finding(
                "frame_size",
                tuple(frame_size) == (width, height),
                {"width": width, "height": height, **configured},
            )
        )
    markers = find_markers(grey, ids=frozenset(layout.marker_corners()))
    findings += marker_findings(markers)
    measured = measure_table(markers, layout)
    findings += size_findings(measured, layout)
    table = measured or layout
    calibration = calibrate(frame, table)
    findings.append(area_finding(frame, calibration, table, area))
    if calibration is not None:
        findings.append(density_finding(calibration, table))
    findings += light_findings(frame, grey, calibration, table, markers)
    ordered = sorted(findings, key=lambda f: f.ok)  # stable: the failures first, in order
    return Report(tuple(ordered), (width, height), measured)


def marker_findings(markers: Mapping[int, np.ndarray]) -> list[Finding]:
    """One finding a table marker: seen, or missing and where it should be."""
    return [
        Finding("marker", marker_id in markers, {"id": marker_id, "place": MARKER_PLACES[i]})
        for i, marker_id in enumerate(sorted(TABLE_IDS))
    ]


def measure_table(markers: Mapping[int, np.ndarray], layout: TableLayout) -> TableLayout | None:
    """The table as the four markers lie (`layout` with the width and height they mark;
    the marker size and inset as printed and configured), or None without all four.

    The unknowns are the camera's homography (8) and where markers 1-3 lie relative to
    marker 0 (6); the data the 32 coordinates of the 16 corners, each marker a square of
    `marker_mm`. Gauss-Newton from the configured layout converges in a few steps. The
    lens's bend is left out: a k1 fitted against the configured layout would take the
    error in its size for a bent lens (the synthetic hard camera measures within 2%).
    Markers laid off a rectangle are averaged: the table is as wide as the mean of its
    two sides."""
    if set(markers) != set(TABLE_IDS):
        return None
    m, inset = layout.marker_mm, layout.inset_mm
    square = np.array([[0, 0], [m, 0], [m, m], [0, m]], np.float64)
    pixels = np.concatenate([markers[k] for k in sorted(TABLE_IDS)])
    configured = layout.marker_corners()
    start, _ = cv2.findHomography(
        np.concatenate([configured[k] for k in sorted(TABLE_IDS)]), pixels, 0
    )
    if start is None:
        return None
    origins = np.array([configured[k][0] for k in sorted(TABLE_IDS)])
    scale = float(np.ptp(pixels, axis=0).max())  # residuals in shares of the markers' spread

    def residual(p: np.ndarray) -> np.ndarray:
        h = np.append(p[:8], 1.0).reshape(3, 3)
        corners = np.concatenate([square + (inset, inset), square + p[8:10], square + p[10:12],
                                  square + p[12:14]])  # fmt: skip
        mapped = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h).reshape(-1, 2)
        return ((mapped - pixels) / scale).ravel()

    p = np.concatenate([(start / start[2, 2]).ravel()[:8], origins[1:].ravel()])
    steps = np.concatenate([np.abs(p[:8]) * 1e-6 + 1e-9, np.full(6, 1e-3)])
    for _ in range(20):
        r = residual(p)
        jacobian = np.stack(
            [(residual(p + np.eye(14)[i] * steps[i]) - r) / steps[i] for i in range(14)], axis=1
        )
        delta = np.linalg.lstsq(jacobian, -r, rcond=None)[0]
        p = p + delta
        if np.abs(delta[8:]).max() < 0.01:
            break
    right = (p[8] + p[10]) / 2 + m + inset  # markers 1 and 2: the right edge
    bottom = (p[11] + p[13]) / 2 + m + inset  # markers 2 and 3: the bottom edge
    left, top = (inset + p[12]) / 2 - inset, (inset + p[9]) / 2 - inset
    width, height = right - left, bottom - top
    least = 2 * (m + inset)  # markers that overlap, or lie in the wrong corners: no table
    if not (math.isfinite(width) and math.isfinite(height) and min(width, height) > least):
        return None
    return replace(layout, width=float(round(width)), height=float(round(height)))


def size_findings(measured: TableLayout | None, configured: TableLayout) -> list[Finding]:
    """The table's size as its markers mark it, against the configuration's; nothing to
    say when not all four markers were seen (they are said missing)."""
    if measured is None:
        return []
    off = max(
        abs(measured.width - configured.width) / configured.width,
        abs(measured.height - configured.height) / configured.height,
    )
    return [
        Finding(
            "table_size",
            off <= SIZE_TOLERANCE,
            {
                "width": round(measured.width),
                "height": round(measured.height),
                "configured_width": round(configured.width),
                "configured_height": round(configured.height),
            },
        )
    ]


def area_finding(
    frame: np.ndarray, calibration: Calibration | None, table: TableLayout, area: PlayArea
) -> Finding:
    """Whether the whole of the game's play area is in the frame: `area_unplaced` when
    the markers that place it are not seen (fewer than two), else `area` with the sides
    of the picture past which it reaches (the way to move the camera)."""
    placed = calibration if area.layout is None else calibrate(frame, area.layout)
    if placed is None:
        return Finding(
            "area_unplaced", False, {"game": area.game, "board": area.layout is not None}
        )
    rect = area.rect or table.play_area()
    if area.layout is None and area.zone is not None:
        rect = _spanning(rect, area.zone)
    pixels = placed.to_pixels(_outline(rect))
    if area.beside and calibration is not None:  # the table's room beside it, too
        on_table = calibration.to_table(pixels)
        left, top = on_table.min(axis=0)
        right, bottom = on_table.max(axis=0)
        room = (left - area.beside, top, right + area.beside, bottom)
        pixels = np.concatenate([pixels, calibration.to_pixels(_outline(room))])
    height, width = frame.shape[:2]
    beyond = {
        "top": pixels[:, 1].min() < 0,
        "right": pixels[:, 0].max() > width - 1,
        "bottom": pixels[:, 1].max() > height - 1,
        "left": pixels[:, 0].min() < 0,
    }
    cut = [side for side, out in beyond.items() if out]
    return Finding("area", not cut, {"game": area.game, "cut": tuple(cut)})


def density_finding(calibration: Calibration, table: TableLayout) -> Finding:
    """How finely the camera sees the table, in pixels a centimetre at its centre (what a
    frame's size, the lens and the camera's height come to): `good` at FINE_PX_PER_MM or
    finer, where every game reads as it was tuned; `coarse` down to LEAST_PX_PER_MM, where
    the cards read and dice are asked about more often (still ready); `too_coarse` below,
    where recognition says so instead of reading."""
    density = calibration.px_per_mm((table.width / 2, table.height / 2))
    level = (
        "good"
        if density >= FINE_PX_PER_MM
        else "coarse"
        if density >= LEAST_PX_PER_MM
        else "too_coarse"
    )
    params = {
        "per_cm": round(density * 10, 1),
        "fine": round(FINE_PX_PER_MM * 10, 1),
        "least": round(LEAST_PX_PER_MM * 10),
        "level": level,
    }
    return Finding("density", level != "too_coarse", params)


def _spanning(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The smallest rectangle holding both."""
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _outline(rect: tuple[float, float, float, float]) -> np.ndarray:
    """Points along a rectangle's edges (20 a side: a bent lens bends them)."""
    left, top, right, bottom = rect
    along = np.linspace(0.0, 1.0, 21)[:, None]
    return np.concatenate([
        (left, top) + along * (right - left, 0.0),
        (right, top) + along * (0.0, bottom - top),
        (left, bottom) + along * (right - left, 0.0),
        (left, top) + along * (0.0, bottom - top),
    ])  # fmt: skip


def light_findings(
    frame: np.ndarray,
    grey: np.ndarray,
    calibration: Calibration | None,
    table: TableLayout,
    markers: Mapping[int, np.ndarray],
) -> list[Finding]:
    """Focus (from the markers' edges; none when no marker is seen), exposure and glare
    over the table inside the markers (the whole frame when they place no table)."""
    height, width = grey.shape
    mask = np.zeros((height, width), np.uint8)
    px_per_mm = 1.0
    if calibration is not None:
        corners = np.array(
            [[0, 0], [table.width, 0], [table.width, table.height], [0, table.height]]
        )
        outline = calibration.to_pixels(corners)
        cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 255)
        px_per_mm = math.sqrt(
            cv2.contourArea(outline.astype(np.float32)) / (table.width * table.height)
        )
    if not mask.any():
        mask[:] = 255
    findings = []
    blur = edge_blur(grey, markers)
    if blur is not None:
        findings.append(Finding("focus", blur <= MAX_BLUR_PX, {"blur_px": round(blur, 1)}))
    on_table = grey[mask > 0]
    clipped_share = float(((frame.max(axis=2) >= CLIPPED) & (mask > 0)).sum()) / on_table.size
    clipped = ((frame.min(axis=2) >= CLIPPED) & (mask > 0)).astype(np.uint8)
    median, brightest = float(np.median(on_table)), float(np.percentile(on_table, 99))
    level = "good"
    if brightest < DARK_WHITE:
        level = "dark"
    elif clipped_share > CLIPPED_SHARE:
        level = "bright"
    findings.append(Finding("exposure", level == "good", {"level": level, "median": round(median)}))
    if level == "bright":  # a picture white all over: that is the exposure, not a reflection
        return findings
    for quad in markers.values():  # the markers' white paper may shine: it is read anyway
        cv2.fillConvexPoly(clipped, np.round(quad).astype(np.int32), 0)
    count, _, stats, centres = cv2.connectedComponentsWithStats(clipped)
    least = GLARE_MM2 * px_per_mm**2
    spots = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= least]
    place = None
    if spots:
        biggest = max(spots, key=lambda i: stats[i, cv2.CC_STAT_AREA])
        place = frame_place(centres[biggest], (width, height))
    return [*findings, Finding("glare", not spots, {"spots": len(spots), "place": place})]


def edge_blur(grey: np.ndarray, markers: Mapping[int, np.ndarray]) -> float | None:
    """The blur (a Gaussian's sigma, in pixels) of the markers' black-to-white edges: a
    step of contrast C blurred by sigma rises at most C / (sigma * sqrt(2 pi)) a pixel, so
    sigma is the contrast over the steepest slope. The median over the markers seen (None
    without any): a hand's shadow on one does not decide."""
    blurs = []
    for quad in markers.values():
        lo, hi = np.floor(quad.min(axis=0)).astype(int), np.ceil(quad.max(axis=0)).astype(int)
        x0, y0 = np.maximum(lo, 0)
        x1, y1 = np.minimum(hi + 1, (grey.shape[1], grey.shape[0]))
        patch = grey[y0:y1, x0:x1].astype(np.float32)
        if patch.shape[0] < 8 or patch.shape[1] < 8:
            continue
        contrast = float(np.percentile(patch, 95) - np.percentile(patch, 5))
        gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8
        slope = float(np.percentile(np.hypot(gx, gy), 99.5))
        if contrast > 20 and slope > 0:
            blurs.append(contrast / (slope * math.sqrt(2 * math.pi)))
    return float(np.median(blurs)) if blurs else None


def frame_place(point: np.ndarray, frame_size: tuple[int, int]) -> str:
    """Where a point lies in the frame, in thirds: top_left, top, top_right, left,
    centre, ... (setup_words.py says them)."""
    column = min(int(3 * point[0] / frame_size[0]), 2)
    row = min(int(3 * point[1] / frame_size[1]), 2)
    rows, columns = ("top", "", "bottom"), ("left", "", "right")
    return "_".join(part for part in (rows[row], columns[column]) if part) or "centre"
