"""Cards of an enrolled printed deck laid edge to edge, as a railway lies: with no printed
frame and no band of table between them, their colours make one region, taken apart here
card by card with the catalogue's help.

The one step of recognition with geometry of its own (the corners of a union of
rectangles, a pose trued up against an outline), so it reads apart from finding lone
cards (`card_outlines.py`) and from naming them (`card_identity.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.caboose.vision.card_identity import locate, match_faces
from companion.games.caboose.vision.observation import VisionConfig
from companion.pose import Pose
from companion.vision.table import card_corners

_PIECE_SCORE = 0.5  # a card-sized piece of a region matching a face this well is that card
_HOLE_MM2 = 50.0  # a hole in a region of cards larger than this is table showing through


def touching_cards(
    top: np.ndarray,
    outlines: np.ndarray,
    found: Sequence[Pose],
    config: VisionConfig,
    token: tuple[float, float] | None = None,
) -> list[Pose]:
    """The cards in regions of `outlines` (`unlike_table`) not in `found` (`card_poses`):
    cards of a deck without our frame laid edge to edge, as a railway lies, show no band
    between them, so their union is one region. It is the union of card-sized rectangles
    joined edge to edge, so it is taken apart the way it was built: every convex corner of
    such a union is some card's corner, and the card there lies along the union's edges,
    portrait or landscape. Each such candidate that the region covers is cut out and
    matched against the catalogue; the best matches that do not overlap are kept, trued
    up against the region's outline and placed by their print (`locate`), and removed
    from the region, which uncovers the corners of the cards next to them; until no
    candidate matches. A lone card that `card_poses` missed (its outline ragged) is a
    region of one card."""
    k = config.px_per_mm
    rest = outlines.copy()
    grown = (config.card_mm[0] + 4.0, config.card_mm[1] + 4.0)
    for pose in found:
        cv2.fillConvexPoly(rest, (card_corners(pose, grown) * k).round().astype(np.int32), 0)
    contours, hierarchy = cv2.findContours(rest, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    card_px = config.card_mm[0] * config.card_mm[1] * k * k
    poses: list[Pose] = []
    for outer, (_, _, child, parent) in zip(contours, hierarchy[0], strict=True):
        if parent >= 0 or cv2.contourArea(outer) < 0.8 * card_px:
            continue  # a die, the caboose, a speck
        # table seen through the region (a railway that turns back beside itself: a long
        # gap between cards) stays out; other holes are print in the table's colour
        holes = []
        while child >= 0:
            hole = contours[child]
            if (
                cv2.contourArea(hole) > _HOLE_MM2 * k * k
                and max(cv2.minAreaRect(hole)[1]) > 0.5 * config.card_mm[0] * k
            ):
                holes.append(hole)
            child = hierarchy[0][child][0]
        poses += _take_apart(outer, holes, top, config, token)
    return poses


def _take_apart(
    contour: np.ndarray,
    holes: Sequence[np.ndarray],
    top: np.ndarray,
    config: VisionConfig,
    token: tuple[float, float] | None,
) -> list[Pose]:
    """`touching_cards` for one region: its outline `contour` and `holes` in top-down px."""
    k = config.px_per_mm
    angle = _edge_direction(contour, k)
    # the region turned by `angle` so that its edges run along the image axes, where its
    # corners are found with box sums
    turn = cv2.getRotationMatrix2D((0.0, 0.0), angle, 1.0)
    turned = cv2.transform(contour.astype(np.float32), turn)
    pad = 10 * k
    low, high = turned.reshape(-1, 2).min(axis=0), turned.reshape(-1, 2).max(axis=0)
    turn[:, 2] = pad - low
    back = cv2.invertAffineTransform(turn)
    width, height = np.ceil(high - low + 2 * pad).astype(int)
    region = np.zeros((height, width), np.uint8)
    for fill, line in ((1, contour), *((0, hole) for hole in holes)):
        turned = cv2.transform(line.astype(np.float32), turn)
        cv2.fillPoly(region, [(turned * 16).round().astype(np.int32)], fill, cv2.LINE_8, 4)
    # in table mm, for truing up
    outline = np.concatenate([contour, *holes]).reshape(-1, 2).astype(np.float64) / k
    card_w, card_h = config.card_mm[0] * k, config.card_mm[1] * k
    kept: list[Pose] = []
    rounds = round(cv2.countNonZero(region) / (card_w * card_h)) + 1  # each takes a card or more
    for _ in range(rounds):
        boxes = _corner_boxes(region, card_w, card_h, k)
        if not boxes:
            break
        centres = [back @ (bx + bw / 2, by + bh / 2, 1.0) / k for bx, by, bw, bh in boxes]
        poses = [
            Pose(float(cx), float(cy), (angle + (0.0 if bw < bh else 90.0)) % 360.0)
            for (cx, cy), (_, _, bw, bh) in zip(centres, boxes, strict=True)
        ]
        matches = match_faces(top, poses, config, token, closely=False)
        taken: list[tuple[float, float, float, float]] = []
        for i in sorted(range(len(boxes)), key=lambda i: -matches[i].score):
            if matches[i].score < _PIECE_SCORE:
                break
            if any(_overlap(boxes[i], other) > 0.05 * card_w * card_h for other in taken):
                continue
            taken.append(boxes[i])
            pose = _true_up(poses[i], outline, config.card_mm, k)
            pose = locate(top, pose, matches[i], config)
            kept.append(pose)
            grown = (config.card_mm[0] + 3.0, config.card_mm[1] + 3.0)
            corners = cv2.transform((card_corners(pose, grown) * k)[None], turn)[0]
            cv2.fillConvexPoly(region, (corners * 16).round().astype(np.int32), 0, cv2.LINE_8, 4)
        if not taken:
            break
    return kept


def _edge_direction(contour: np.ndarray, k: float) -> float:
    """The direction (degrees clockwise, 0-90) the straight edges of a region of cards laid
    square to each other run in: the length-weighted mean of its outline's directions,
    taken four times round so that edges a quarter turn apart agree."""
    points = cv2.approxPolyDP(contour, 2.0 * k, True).reshape(-1, 2).astype(np.float64)
    steps = np.roll(points, -1, axis=0) - points
    length = np.hypot(steps[:, 0], steps[:, 1])
    angles = np.arctan2(steps[:, 1], steps[:, 0])
    mean = (length * np.exp(4j * angles)).sum()
    return math.degrees(np.angle(mean) / 4) % 90.0


def _corner_boxes(
    region: np.ndarray, card_w: float, card_h: float, k: float
) -> list[tuple[float, float, float, float]]:
    """Card-sized boxes (x, y, width, height; portrait and landscape) at each convex corner
    of an axis-aligned 0/1 `region`, reaching into it, that it covers but for a few
    specks of print in the table's colour (short of a 3 mm rim: neighbours lie a little
    crooked). A corner is a point where one quadrant of a small square around it is inside
    the region and the other three are outside."""
    b = max(3, round(6 * k))
    sums = cv2.boxFilter(region, cv2.CV_32F, (b, b), anchor=(0, 0), normalize=False,
                         borderType=cv2.BORDER_CONSTANT)  # fmt: skip
    # the four quadrants round each grid point (y + b, x + b): below right, below left, ...
    quadrants = {(0, 0): sums[b:, b:], (0, -1): sums[b:, :-b],
                 (-1, 0): sums[:-b, b:], (-1, -1): sums[:-b, :-b]}  # fmt: skip
    scores = []
    for key, inside in quadrants.items():
        others = [q for other, q in quadrants.items() if other != key]
        scores.append(cv2.subtract(inside, cv2.max(cv2.max(others[0], others[1]), others[2])))
    best = cv2.max(cv2.max(scores[0], scores[1]), cv2.max(scores[2], scores[3]))
    peaks = (best > 0.6 * b * b) & (best >= cv2.dilate(best, np.ones((2 * b + 1,) * 2, np.uint8)))
    table = cv2.integral(region)
    height, width = region.shape
    rim = 3.0 * k
    boxes = []
    for py, px in zip(*np.nonzero(peaks), strict=True):
        dy, dx = next(key for key, score in zip(quadrants, scores, strict=True)
                      if score[py, px] == best[py, px])  # fmt: skip
        cx, cy = float(px + b), float(py + b)  # the corner
        for bw, bh in ((card_w, card_h), (card_h, card_w)):
            bx, by = cx + dx * bw, cy + dy * bh
            x0, y0 = round(bx + rim), round(by + rim)
            x1, y1 = round(bx + bw - rim), round(by + bh - rim)
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                continue
            filled = table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]
            if filled >= 0.9 * (x1 - x0) * (y1 - y0):
                boxes.append((bx, by, bw, bh))
    return list(dict.fromkeys(boxes))


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Area shared by two axis-aligned boxes (x, y, width, height)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def _true_up(pose: Pose, outline: np.ndarray, card_mm: tuple[float, float], k: float) -> Pose:
    """`pose` moved and turned so that those of its sides that lie on the region's `outline`
    (table mm, a point per pixel at `k` px/mm) fit it: a line through the outline's points
    along each such side. A side against another card (no outline there) keeps its place."""
    w, h = card_mm
    a = math.radians(pose.rotation)
    c, s = math.cos(a), math.sin(a)
    rel = outline - (pose.x, pose.y)
    lx, ly = rel[:, 0] * c + rel[:, 1] * s, -rel[:, 0] * s + rel[:, 1] * c  # card frame
    shifts: dict[str, float] = {}
    turns: list[float] = []
    for name, across, along, at, length, sign in (
        ("left", lx, ly, -w / 2, h, -1.0), ("right", lx, ly, w / 2, h, -1.0),
        ("top", ly, lx, -h / 2, w, 1.0), ("bottom", ly, lx, h / 2, w, 1.0),
    ):  # fmt: skip
        near = (np.abs(across - at) < 4.0) & (np.abs(along) < 0.4 * length)
        if near.sum() < 0.4 * 0.8 * length * k:
            continue
        (slope, offset), residual, *_ = np.polyfit(along[near], across[near], 1, full=True)
        if residual.size and residual[0] > near.sum():  # not a straight edge: 1 mm rms or more
            continue
        shifts[name] = float(offset - at)
        turns.append(sign * float(slope))
    dx = _side_shift(shifts.get("left"), shifts.get("right"))
    dy = _side_shift(shifts.get("top"), shifts.get("bottom"))
    turn = math.degrees(float(np.mean(turns))) if turns else 0.0
    return Pose(pose.x + dx * c - dy * s, pose.y + dx * s + dy * c, (pose.rotation + turn) % 360.0)


def _side_shift(low: float | None, high: float | None) -> float:
    """How far a card's centre moves along one axis given how far its two opposite sides
    were found off (None: not on the outline)."""
    if low is not None and high is not None:
        return (low + high) / 2
    return low if low is not None else high if high is not None else 0.0
