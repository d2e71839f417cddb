"""Where the cards lie in the top-down image, before anything says which cards they are.

Our design is found by its dark printed frame; an enrolled printed deck, which has none,
by its colour unlike the table's (companion/vision/unlike_table.py): a card lying alone is
a card-sized region of it, cards laid edge to edge are one region that `touching_cards.py` takes
apart. Poses only: `card_identity.py` says which card lies there and which end is its top.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.observation import VisionConfig
from companion.pose import Pose
from companion.vision.calibrate import FINE_PX_PER_MM

_FRAME_CONTRAST = 25  # grey levels a card's frame is darker than its surroundings, at least
# ... where the camera sees the table at FINE_PX_PER_MM or finer (calibrate.py). Coarser,
# the 3 mm frame is fewer pixels than the lens blurs, and its contrast falls as the
# density's square: at a 720p webcam's 0.57-0.65 (hard tables of seeds 7000-7014), 25
# closed 171 of 184 cards' frames, 11 all 184
_LEAST_CONTRAST = 8.0
_RING_SHARE = 0.8  # of a card frame's outline a broken frame still runs along, at least
_LEAST_SHOWN = 0.4  # of a frame's outline that a lamp's reflection leaves showing, at least
_GONE_HIDDEN = 0.6  # of what completing a frame adds, at least this much under the reflection
_LEAST_SIDE = 0.25  # of a frame's side the reflection cuts short, at least this much shows
Rect = tuple[tuple[float, float], tuple[float, float], float]  # minAreaRect's: centre, sides, angle
Contours = tuple[Sequence[np.ndarray], np.ndarray | None]  # findContours': the contours, hierarchy
Piece = tuple[np.ndarray, int, int]  # a mask of one component's box, and the box's left and top


def frame_contrast(density: float | None) -> float:
    """The least contrast (grey levels) of a card's dark frame in a frame that sees the
    table at `density` frame px per mm (`Calibration.px_per_mm`; None: finely enough)."""
    if density is None or density >= FINE_PX_PER_MM:
        return _FRAME_CONTRAST
    return max(_FRAME_CONTRAST * (density / FINE_PX_PER_MM) ** 2, _LEAST_CONTRAST)


def card_poses(
    grey: np.ndarray,
    config: VisionConfig,
    outlines: np.ndarray | None = None,
    density: float | None = None,
    washed: np.ndarray | None = None,
) -> list[Pose]:
    """Cards in the grey top-down image, as poses whose rotation is the one of the two half
    turns that puts the card's top nearer the table's top (the catalogue match decides).

    Our design is found by its dark frame: a closed dark rectangle inset by the card's
    margin. Given `outlines` (`unlike_table`'s mask), a card lying alone is also found by its
    outer edge, a card-sized region unlike the table: how a printed deck without our frame is
    found (cards that touch are `touching_cards`' work). `density` is how finely the camera
    sees the table (frame px per mm): a coarse frame shows the frame fainter. `washed` (a
    mask of the top-down image, or None) is where a lamp's reflection clipped the frame
    white: a card whose frame runs into it is completed there (`_glared_frames`)."""
    k = config.px_per_mm
    block = round(15 * k) | 1
    dark = cv2.adaptiveThreshold(
        grey,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        block,
        frame_contrast(density),
    )
    # bridge one-pixel breaks in a frame line (blur and a dim corner can open a frame, and an
    # open frame is no rectangle); the white margins between cards are wider than this
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    inset = 2 * card_art.MARGIN_MM
    frame_mm = (config.card_mm[0] - inset, config.card_mm[1] - inset)
    contours = _contours(dark)
    found = _shaped(contours, frame_mm, k)
    if density is not None and density < FINE_PX_PER_MM:
        found += _broken_frames(dark, frame_mm, k, found)
        found += _frames_by_inside(contours, frame_mm, k, found)
    if washed is not None:
        found += _glared_frames(dark, washed, frame_mm, k, found)
    if outlines is not None:
        for pose in _rectangles(outlines, config.card_mm, k):
            if all(math.dist((pose.x, pose.y), (p.x, p.y)) > 20.0 for p in found):
                found.append(pose)
    return found


def _broken_frames(
    dark: np.ndarray, size_mm: tuple[float, float], k: float, found: list[Pose]
) -> list[Pose]:
    """Frames of `size_mm` in the `dark` mask (at `k` px/mm) that a gap leaves open, none
    of them `found` already: a dark component whose smallest rectangle is a frame's (12 %
    leeway), its convex hull filling that rectangle, and within a frame's width of at least
    _RING_SHARE of the rectangle's outline (a frame, not a blob of print or grain). A
    coarse camera (under FINE_PX_PER_MM) blurs a frame in a card's shadowed corner open
    by up to a centimetre: on a 720p webcam's hard tables (seeds 7000-7119), 3 of 120
    railways lost a card so, and its print was taken for dice."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark)
    want_w, want_h = size_mm
    band = max(round(card_art.FRAME_MM * k), 1)
    poses: list[Pose] = []
    for i in range(1, count):
        x, y, w, h = (int(v) for v in stats[i, :4])
        if min(w, h) < 0.88 * want_w * k or max(w, h) > 1.5 * math.hypot(want_w, want_h) * k:
            continue
        alone = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        points = cv2.findNonZero(alone)
        rect = cv2.minAreaRect(points)
        short, long_ = sorted(side / k for side in rect[1])
        if abs(short - want_w) > 0.12 * want_w or abs(long_ - want_h) > 0.12 * want_h:
            continue
        hull = cv2.contourArea(cv2.convexHull(points))
        if hull / max(rect[1][0] * rect[1][1], 1e-6) < 0.9:
            continue
        box = cv2.boxPoints(rect).round().astype(np.int32)
        outline = cv2.drawContours(np.zeros_like(alone), [box], -1, 1, 1)
        near = cv2.dilate(alone, np.ones((2 * band + 1,) * 2, np.uint8))
        if (near & outline).sum() < _RING_SHARE * outline.sum():
            continue
        filled = cv2.fillConvexPoly(np.zeros_like(alone), cv2.convexHull(points), 255)
        for pose in _rectangles(np.pad(filled, 1), size_mm, k):
            pose = Pose(pose.x + (x - 1) / k, pose.y + (y - 1) / k, pose.rotation)
            if all(math.dist((pose.x, pose.y), (p.x, p.y)) > 20.0 for p in found):
                poses.append(pose)
    return poses


def _glared_frames(
    dark: np.ndarray, washed: np.ndarray, size_mm: tuple[float, float], k: float, found: list[Pose]
) -> list[Pose]:
    """Frames of `size_mm` in the `dark` mask (at `k` px/mm) that run into `washed` (where a
    lamp's reflection clipped the frame white), none of them `found` already. What shows of such
    a frame is an open ring: its smallest rectangle is a frame's on one side and shorter on the
    other (or a frame's both ways, a corner gone). The frame is the rectangle of the right size
    that keeps the side seen whole (of the other, at least `_LEAST_SIDE` shows) and reaches into
    the washed out part (which must hide at least `_GONE_HIDDEN` of what it adds), whose outline
    the dark frame follows within a frame's width for at least _RING_SHARE of what is not washed
    out, and of which at least `_LEAST_SHOWN` shows: a lamp's reflection over part of a card
    hides its frame there, not the card."""
    band = max(round(card_art.FRAME_MM * k), 1)
    hidden = cv2.dilate(washed, np.ones((2 * band + 1,) * 2, np.uint8))
    shown = cv2.bitwise_and(dark, cv2.bitwise_not(hidden))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(shown)
    near_hidden = cv2.dilate(hidden, np.ones((5, 5), np.uint8))
    want_w, want_h = size_mm
    poses: list[Pose] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 2 * want_w * band or max(w, h) > 1.2 * math.hypot(want_w, want_h) * k:
            continue
        alone = labels[y : y + h, x : x + w] == i
        if not near_hidden[y : y + h, x : x + w][alone].any():
            continue
        alone = alone.astype(np.uint8)
        points = cv2.findNonZero(alone) + np.array([x, y], np.int32)
        pose = _completed(hidden, (alone, x, y), cv2.minAreaRect(points), size_mm, k)
        if pose is not None and all(
            math.dist((pose.x, pose.y), (p.x, p.y)) > 20.0 for p in [*found, *poses]
        ):
            poses.append(pose)
    return poses


def _completed(
    hidden: np.ndarray, frame: Piece, shown: Rect, size_mm: tuple[float, float], k: float
) -> Pose | None:
    """The frame rectangle (`size_mm`) that completes what shows of one (`frame`, a mask
    of its box and where that lies; `shown` its smallest rectangle) into the `hidden` part,
    or None when none fits (`_glared_frames` says how)."""
    centre, sides, angle = shown
    want_w, want_h = size_mm
    a = math.radians(angle)
    axes = (np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)]))
    seen = [side / k for side in sides]
    for full, other in ((want_w, want_h), (want_h, want_w)):
        for along in (0, 1):  # the side seen whole lies along axes[along]
            if abs(seen[along] - full) > 0.12 * full or seen[1 - along] > 1.12 * other:
                continue
            if seen[1 - along] < _LEAST_SIDE * other:
                continue
            shift = max(other - seen[1 - along], 0.0) / 2 * k
            for sign in (1.0, -1.0) if shift > 0 else (0.0,):
                middle = np.array(centre) + sign * shift * axes[1 - along]
                size = [0.0, 0.0]
                size[along], size[1 - along] = full * k, other * k
                box = cv2.boxPoints((tuple(middle), tuple(size), angle))
                if _explained(hidden, frame, box, shown, k):
                    mask = cv2.fillConvexPoly(
                        np.zeros(hidden.shape, np.uint8), box.round().astype(np.int32), 255
                    )
                    for pose in _rectangles(mask, size_mm, k):
                        return pose
    return None


def _explained(hidden: np.ndarray, frame: Piece, box: np.ndarray, shown: Rect, k: float) -> bool:
    """Whether the frame rectangle `box` is what the shown `frame` (a mask of its box, and
    where that box lies) and the `hidden` part explain: its outline followed by the frame
    where it shows (_RING_SHARE), at least `_LEAST_SHOWN` of it showing, and what it adds
    beyond the shown part's rectangle (`shown`) mostly hidden (`_GONE_HIDDEN`). All of it is
    drawn and counted within the box round the two rectangles (cut to the image), not over
    the whole image: the same pixels, a fraction of the time."""
    band = max(round(card_art.FRAME_MM * k), 1)
    corners = box.round().astype(np.int32)
    seen_box = cv2.boxPoints(shown).round().astype(np.int32)
    both = np.concatenate([corners, seen_box])
    height, width = hidden.shape
    x0, y0 = np.clip(both.min(axis=0), 0, (width, height))
    x1, y1 = np.clip(both.max(axis=0) + 1, 0, (width, height))
    if x1 <= x0 or y1 <= y0:
        return False  # wholly off the image: no outline to follow
    at = np.array([x0, y0], np.int32)
    shape = (int(y1 - y0), int(x1 - x0))
    outline = cv2.drawContours(np.zeros(shape, np.uint8), [corners - at], -1, 1, 1) > 0
    if outline.sum() == 0:
        return False
    near = _near(frame, (int(x0), int(y0), int(x1), int(y1)), band)
    covered = hidden[y0:y1, x0:x1] > 0
    showing = outline & ~covered
    if showing.sum() < _LEAST_SHOWN * outline.sum():
        return False
    if (near & showing).sum() < _RING_SHARE * showing.sum():
        return False
    whole = cv2.fillConvexPoly(np.zeros(shape, np.uint8), corners - at, 1) > 0
    seen_part = cv2.fillConvexPoly(np.zeros(shape, np.uint8), seen_box - at, 1) > 0
    added = whole & ~seen_part
    return added.sum() == 0 or (added & covered).sum() >= _GONE_HIDDEN * added.sum()


def _near(frame: Piece, window: tuple[int, int, int, int], band: int) -> np.ndarray:
    """Within `window` (x0, y0, x1, y1 of the image), where the component `frame` lies
    within `band` pixels: its mask dilated as over the whole image (what lies beyond the
    image adds nothing to a dilation there either)."""
    mask, x, y = frame
    x0, y0, x1, y1 = window
    grown = np.zeros((y1 - y0 + 2 * band, x1 - x0 + 2 * band), np.uint8)
    # the part of the component's box that lies within `band` of the window
    gx0, gy0 = max(x, x0 - band), max(y, y0 - band)
    gx1, gy1 = min(x + mask.shape[1], x1 + band), min(y + mask.shape[0], y1 + band)
    if gx1 > gx0 and gy1 > gy0:
        grown[gy0 - y0 + band : gy1 - y0 + band, gx0 - x0 + band : gx1 - x0 + band] = mask[
            gy0 - y : gy1 - y, gx0 - x : gx1 - x
        ]
    grown = cv2.dilate(grown, np.ones((2 * band + 1,) * 2, np.uint8))
    return grown[band:-band, band:-band] > 0


def _frames_by_inside(
    contours: Contours, size_mm: tuple[float, float], k: float, found: list[Pose]
) -> list[Pose]:
    """Frames of `size_mm` among the dark mask's `contours` (at `k` px/mm) found by their
    inside, none of them `found` already: a hole of the frame's inner size (less the frame
    line on each side). A coarse camera (under FINE_PX_PER_MM) blurs a frame into the
    shadow along the card's edge and the wood's grain beside it, so the frame's outer
    boundary runs round them too and is no rectangle, while its inside stays one: on a 720p
    webcam's hard tables (seeds 7000-7119, flat), 4 of 120 railways lost a card so (table
    7000)."""
    inside = (size_mm[0] - 2 * card_art.FRAME_MM, size_mm[1] - 2 * card_art.FRAME_MM)
    return [
        pose
        for pose in _shaped(contours, inside, k, holes=True)
        if all(math.dist((pose.x, pose.y), (p.x, p.y)) > 20.0 for p in found)
    ]


def _rectangles(mask: np.ndarray, size_mm: tuple[float, float], k: float) -> list[Pose]:
    """Outer boundaries in `mask` that are filled rectangles of `size_mm` (12 % leeway),
    also those lying in a hole of another component (the table's grain, darker than the
    bright cards around it, can enclose a whole railway)."""
    return _shaped(_contours(mask), size_mm, k)


def _contours(mask: np.ndarray) -> Contours:
    """`mask`'s outer boundaries and holes, two levels (what `_shaped` looks through)."""
    return cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)


def _shaped(
    contours: Contours, size_mm: tuple[float, float], k: float, holes: bool = False
) -> list[Pose]:
    """`_rectangles` among `contours` found once (`_contours`); with `holes`, the holes of
    that shape instead of the outer boundaries."""
    contours, hierarchy = contours
    if hierarchy is None:
        return []
    want_w, want_h = size_mm
    smallest = 0.8 * want_w * want_h * k * k
    poses: list[Pose] = []
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if (parent >= 0) != holes or len(contour) < 4 or cv2.contourArea(contour) < smallest:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        w, h = w / k, h / k
        short, long_ = min(w, h), max(w, h)
        if abs(short - want_w) > 0.12 * want_w or abs(long_ - want_h) > 0.12 * want_h:
            continue
        if cv2.contourArea(contour) / k**2 / max(w * h, 1e-6) < 0.9:
            continue
        a = math.radians(angle)
        along_w = (math.cos(a), math.sin(a))  # direction of the side minAreaRect calls w
        dx, dy = along_w if w >= h else (-along_w[1], along_w[0])
        if dy < 0 or (dy == 0 and dx > 0):
            dx, dy = -dx, -dy  # the long side's direction that points down the table
        poses.append(Pose(cx / k, cy / k, math.degrees(math.atan2(-dx, dy)) % 360.0))
    return poses
