"""One camera frame in, one `Observation` out: the cards with their codes and poses, the
railway they form, where the caboose stands, the dice and their faces, and what could not
be seen.

How (each step is a few milliseconds; bench/RESULTS-vision.md has the figures):
1. calibrate from the four markers (calibrate.py) and warp the table to a top-down image at
   1 px/mm, where every card is a card-sized rectangle wherever the camera stands;
2. cards: our design prints a dark frame inset from the card's edge, so an adaptive
   threshold finds one closed dark rectangle per card, and two cards laid edge to edge are
   still two rectangles (the white margins keep a band between them); each rectangle gives
   a pose, and its crop is matched against the catalogue, which also says which end is the
   card's top. An enrolled printed deck has no such frame: its cards are where the colour
   is unlike the table's (`unlike_table`), a lone card a card-sized rectangle there, and
   cards laid edge to edge one region that `touching_cards` takes apart card by card with
   the catalogue's help; each such card is then placed by its own print (`_locate`);
3. railway: rail ends (geometry.rail_ends) of cards that touch join them into a chain;
4. caboose: the one saturated red disc on the table, on the card under it;
5. dice: bright (or yellow) die-sized blobs off the cards, read on the original frame
   (dice.py);
6. anything large, smooth and unlike the table off the cards is reported as covering it.

`observe` never raises on a bad frame: what it could not see is in `problems`, each a
`Problem` (problems.py), a kind with parameters whose words a player can act on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.rules import geometry
from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, Catalogue, Match, ours
from companion.games.caboose.vision.problems import Problem, counted
from companion.hardware import FRAME_SIZE
from companion.pose import Pose
from companion.vision.calibrate import Calibration, calibrate, top_down
from companion.vision.dice import find_dice, read_die
from companion.vision.table import TableLayout, card_corners

_JOIN_MM = 12.0  # two rail ends this close are joined
_MIN_CONFIDENCE = 0.15  # below this a card-shaped thing is reported as unreadable
_FRAME_CONTRAST = 25  # grey levels a card's frame is darker than its surroundings, at least
_COVER_MM2 = 2500.0  # a region this large, off the cards and unlike the table, hides things
_PIECE_SCORE = 0.5  # a card-sized piece of a region matching a face this well is that card
_UNLIKE_CHROMA = 0.09  # chromaticity distance from the table's beyond which a pixel is no table
_HOLE_MM2 = 50.0  # a hole in a region of cards larger than this is table showing through
_LOCATE_PX = 3  # how far (TEMPLATE_PX pixels, 1.5 mm each) `_locate` looks round a card


@dataclass(frozen=True)
class SeenCard:
    """A card on the table: its code (as in cards.py, e.g. "3x/s", "C2"), how sure the
    match is (0-1) and its pose in table mm."""

    code: str
    confidence: float
    pose: Pose


@dataclass(frozen=True)
class SeenDie:
    """A die off the cards: kind "wheels" (face 0-2) or "pips" (face 1-6), centre in mm."""

    kind: str
    face: int
    position: tuple[float, float]
    confidence: float


@dataclass(frozen=True)
class Observation:
    """What one frame shows. `railway` holds indices into `cards`, back to front; `caboose`
    an index into `railway` and `caboose_at` where the token stands (mm); `problems` says
    what could not be seen (empty when all is well), each a `Problem` with its English
    `text()`. `calibration` should be
    handed to the next `observe` call: it is reused while the camera stays put and stands
    in for hidden markers."""

    cards: tuple[SeenCard, ...] = ()
    railway: tuple[int, ...] = ()
    caboose: int | None = None
    dice: tuple[SeenDie, ...] = ()
    problems: tuple[Problem, ...] = ()
    caboose_at: tuple[float, float] | None = None
    calibration: Calibration | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class VisionConfig:
    """What recognition needs to know about this table: where the markers are, the card
    size (the edition's `card_mm`), the catalogue of faces (ours unless a deck was
    enrolled), the frame size the camera should give, and the top-down scale."""

    layout: TableLayout = field(default_factory=TableLayout)
    card_mm: tuple[float, float] = card_art.CARD_MM
    catalogue: Catalogue | None = None
    frame_size: tuple[int, int] = FRAME_SIZE
    px_per_mm: float = 1.0

    @classmethod
    def for_edition(
        cls, edition_id: str, catalogue_folder: Path | None = None, **kwargs: object
    ) -> VisionConfig:
        """The configuration for an edition's card size, with an enrolled catalogue if given."""
        card_mm = editions.load(edition_id).card_mm
        catalogue = Catalogue.load(catalogue_folder) if catalogue_folder else None
        return cls(card_mm=card_mm, catalogue=catalogue, **kwargs)  # type: ignore[arg-type]

    def faces(self) -> Catalogue:
        return self.catalogue if self.catalogue is not None else ours(self.card_mm)


def observe(
    frame_bgr: object,
    config: VisionConfig | None = None,
    *,
    calibration: Calibration | None = None,
    back: tuple[float, float] | None = None,
    apart: tuple[float, float, float, float] | None = None,
) -> Observation:
    """Recognise one frame. `calibration` (from a previous Observation) is kept while the
    camera has not moved (its warp tables are then reused) and stands in when markers are
    hidden, if the ones still seen lie where it expects them. `back` is where the railway's
    back card was last seen (table mm): the chain end nearest it is the back. Without it the
    back is the chain end nearer the table's top edge (smaller y), then the left edge; a
    tracker that knows the previous railway should always pass it. `apart` (left, top,
    right, bottom in table mm) is where cards are shown, not laid: cards there are never
    part of the railway, even side by side with their rail ends touching."""
    config = config or VisionConfig()
    problems: list[Problem] = []
    frame = _as_frame(frame_bgr, problems)
    if frame is None:
        return Observation(problems=tuple(problems))
    height, width = frame.shape[:2]
    if (width, height) != config.frame_size:
        want_width, want_height = config.frame_size
        size = {"width": width, "height": height}
        problems.append(
            Problem("frame_size", size | {"want_width": want_width, "want_height": want_height})
        )
    exposure = _exposure_problem(frame)
    if exposure is not None:
        return Observation(problems=(*problems, exposure))
    seen = calibrate(frame, config.layout, calibration)
    if seen is None or len(seen.markers) < 4:
        missing = sorted(set(range(4)) - set(seen.markers if seen else ()))
        markers = ", ".join(map(str, missing))
        problems.append(counted("markers_hidden", len(missing), markers=markers))
    if seen is None or len(seen.markers) < 4:
        if _still_fits(calibration, seen, config.layout, (width, height)):
            seen = calibration
        elif seen is None:
            problems.append(Problem("no_table"))
            return Observation(problems=tuple(problems))
    try:
        top = top_down(frame, seen, config.layout, config.px_per_mm)
        return _recognise(frame, top, seen, config, back, problems, apart)
    except cv2.error as error:  # OpenCV refusing some odd frame must not stop the referee
        problems.append(Problem("frame_unread", {"error": str(error).strip()}))
        return Observation(problems=tuple(problems), calibration=seen)


def _still_fits(
    previous: Calibration | None,
    seen: Calibration | None,
    layout: TableLayout,
    size: tuple[int, int],
) -> bool:
    """Whether a previous calibration still holds for a frame whose markers are partly
    hidden: same frame size, and every marker still seen within 2 px of where it says."""
    if previous is None or previous.frame_size != size:
        return False
    if seen is None or not seen.markers:
        return True  # nothing contradicts it; a moved camera shows its markers again soon
    known = layout.marker_corners()
    expected = previous.to_pixels(np.concatenate([known[k] for k in seen.markers]))
    return float(np.abs(expected - seen.corners).max()) < 2.0


def _as_frame(frame: object, problems: list[Problem]) -> np.ndarray | None:
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        problems.append(Problem("no_image"))
        return None
    if min(frame.shape[:2]) < 64:
        problems.append(Problem("frame_tiny", {"width": frame.shape[1], "height": frame.shape[0]}))
        return None
    if frame.dtype != np.uint8:
        frame = np.clip(np.nan_to_num(frame.astype(np.float32)), 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        problems.append(Problem("frame_channels", {"channels": frame.shape[2]}))
        return None
    return frame


def _exposure_problem(frame: np.ndarray) -> Problem | None:
    small = cv2.cvtColor(frame[::8, ::8], cv2.COLOR_BGR2GRAY)
    if float(small.mean()) < 20 or float(np.percentile(small, 99)) < 40:
        return Problem("too_dark")
    if float((small > 250).mean()) > 0.5:
        return Problem("overexposed")
    return None


def card_poses(
    grey: np.ndarray, config: VisionConfig, outlines: np.ndarray | None = None
) -> list[Pose]:
    """Cards in the grey top-down image, as poses whose rotation is the one of the two half
    turns that puts the card's top nearer the table's top (the catalogue match decides).

    Our design is found by its dark frame: a closed dark rectangle inset by the card's
    margin. Given `outlines` (`unlike_table`'s mask), a card lying alone is also found by its
    outer edge, a card-sized region unlike the table: how a printed deck without our frame is
    found (cards that touch are `touching_cards`' work)."""
    k = config.px_per_mm
    block = round(15 * k) | 1
    dark = cv2.adaptiveThreshold(
        grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, _FRAME_CONTRAST
    )
    # bridge one-pixel breaks in a frame line (blur and a dim corner can open a frame, and an
    # open frame is no rectangle); the white margins between cards are wider than this
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    inset = 2 * card_art.MARGIN_MM
    found = _rectangles(dark, (config.card_mm[0] - inset, config.card_mm[1] - inset), k)
    if outlines is not None:
        for pose in _rectangles(outlines, config.card_mm, k):
            if all(math.dist((pose.x, pose.y), (p.x, p.y)) > 20.0 for p in found):
                found.append(pose)
    return found


def unlike_table(top: np.ndarray, layout: TableLayout, k: float) -> np.ndarray:
    """A top-down mask, 255 where the colour is unlike the table top's, markers left out.

    Colour, not brightness: light falls off across a table and shadows darken it, but both
    scale red, green and blue alike, so the share of each in a pixel (its chromaticity)
    stays the table's wherever the table shows, while a card's print (sky, grass, a grey
    track, white paper) has other shares. The table's own is the commonest colour of the
    image. A deck printed in the table's very colour at its edges would not be found."""
    colour = top.astype(np.float32)
    colour += 1.0
    sample = colour[::8, ::8].reshape(-1, 3)
    table = np.median(sample / sample.sum(axis=1, keepdims=True), axis=0).astype(np.float32)
    # |x / sum(x) - table| > limit, as |x - table * sum(x)|^2 > (limit * sum(x))^2: all in
    # OpenCV, a few milliseconds for the whole table
    total = cv2.transform(colour, np.ones((1, 3), np.float32))
    off = cv2.transform(colour, np.eye(3, dtype=np.float32) - table[:, None])
    spread = cv2.transform(cv2.multiply(off, off), np.ones((1, 3), np.float32))
    far = cv2.compare(spread, cv2.multiply(total, total, scale=_UNLIKE_CHROMA**2), cv2.CMP_GT)
    # noise makes specks and pinholes; smoothing before the threshold instead would move
    # the outline out by the smoothing's reach
    square = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(far, cv2.MORPH_OPEN, square)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    for corners in layout.marker_corners().values():
        lo, hi = corners.min(axis=0) - 8, corners.max(axis=0) + 8  # the marker's white paper
        cv2.rectangle(mask, tuple((lo * k).astype(int)), tuple((hi * k).astype(int)), 0, -1)
    return mask


def _rectangles(mask: np.ndarray, size_mm: tuple[float, float], k: float) -> list[Pose]:
    """Outer boundaries in `mask` that are filled rectangles of `size_mm` (12 % leeway),
    also those lying in a hole of another component (the table's grain, darker than the
    bright cards around it, can enclose a whole railway)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    want_w, want_h = size_mm
    smallest = 0.8 * want_w * want_h * k * k
    poses: list[Pose] = []
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent >= 0 or len(contour) < 4 or cv2.contourArea(contour) < smallest:
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
    up against the region's outline and placed by their print (`_locate`), and removed
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
        matches = _match(top, poses, config, token, closely=False)
        taken: list[tuple[float, float, float, float]] = []
        for i in sorted(range(len(boxes)), key=lambda i: -matches[i].score):
            if matches[i].score < _PIECE_SCORE:
                break
            if any(_overlap(boxes[i], other) > 0.05 * card_w * card_h for other in taken):
                continue
            taken.append(boxes[i])
            pose = _true_up(poses[i], outline, config.card_mm, k)
            pose = _locate(top, pose, matches[i], config)
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


def card_image(
    top: np.ndarray, pose: Pose, card_mm: tuple[float, float], k: float, margin: int = 0
) -> np.ndarray:
    """The card at `pose` as a small portrait image (its top at the top), from the top-down
    image at `k` px/mm: what the catalogue matches and what enrollment stores. With
    `margin`, that many TEMPLATE_PX pixels more of what lies around it on every side (at
    twice TEMPLATE_PX's scale, like the card), for `Catalogue.locate`."""
    corners = card_corners(pose, card_mm)[[0, 1, 3]] * k
    w, h = TEMPLATE_PX[0] * 2, TEMPLATE_PX[1] * 2  # then shrunk: less aliasing
    m = 2 * margin
    out = np.float32([[m, m], [w + m, m], [m, h + m]])
    matrix = cv2.getAffineTransform(out, corners.astype(np.float32))
    return cv2.warpAffine(
        top, matrix, (w + 2 * m, h + 2 * m), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip


def _locate(top: np.ndarray, pose: Pose, match: Match, config: VisionConfig) -> Pose:
    """`pose` moved to where the face it matched fits the picture best: a card found by its
    outline sits where the outline's colour edge is, which blur and a threshold place a mm
    or two off; the face's own print says to a fraction of a mm."""
    k = config.px_per_mm
    crop = card_image(top, pose, config.card_mm, k, _LOCATE_PX)
    dx, dy = config.faces().locate(crop, match, _LOCATE_PX)
    dx *= config.card_mm[0] / TEMPLATE_PX[0]  # template pixels to card mm
    dy *= config.card_mm[1] / TEMPLATE_PX[1]
    a = math.radians(pose.rotation)
    c, s = math.cos(a), math.sin(a)
    return Pose(pose.x + dx * c - dy * s, pose.y + dx * s + dy * c, pose.rotation)


def _caboose(half: np.ndarray, k: float) -> tuple[float, float] | None:
    """The centre (mm) of the largest saturated red disc of about the token's size, looked
    for in the top-down image at half scale `k` (the token is 20 mm: 10 pixels suffice)."""
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    red = ((hue <= 8) | (hue >= 172)) & (sat >= 120) & (val >= 50)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(red.astype(np.uint8))
    disc = math.pi * (card_art.CABOOSE_MM / 2) ** 2 * k * k
    best, best_area = None, 0.25 * disc
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if best_area < area < 2.0 * disc and max(w, h) < 1.6 * card_art.CABOOSE_MM * k:
            best, best_area = (centroids[i][0] / k, centroids[i][1] / k), area
    return best


def _recognise(
    frame: np.ndarray,
    top: np.ndarray,
    calibration: Calibration,
    config: VisionConfig,
    back: tuple[float, float] | None,
    problems: list[Problem],
    apart: tuple[float, float, float, float] | None = None,
) -> Observation:
    k = config.px_per_mm
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    outlines = None if config.catalogue is None else unlike_table(top, config.layout, k)
    poses = card_poses(grey, config, outlines)
    half = cv2.resize(top, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    token = _caboose(half, k / 2)
    if outlines is not None:  # an enrolled deck: each card is placed by its print
        matches = _match(top, poses, config, token, closely=False)
        poses = [_locate(top, p, m, config) for p, m in zip(poses, matches, strict=True)]
        poses += touching_cards(top, outlines, poses, config, token)
    matches = _match(top, poses, config, token)
    seen: list[SeenCard] = []
    unreadable = 0
    for pose, match in zip(poses, matches, strict=True):
        rotation = pose.rotation
        if match.turned:
            pose = Pose(pose.x, pose.y, (rotation + 180.0) % 360.0)
        if match.confidence < _MIN_CONFIDENCE:
            unreadable += 1
            continue
        pose = Pose(round(pose.x, 1), round(pose.y, 1), round(pose.rotation, 1) % 360.0)
        seen.append(SeenCard(match.code, round(match.confidence, 3), pose))
    if unreadable:
        problems.append(counted("cards_unread", unreadable))
    railway = _railway(seen, config.card_mm, back, apart)
    caboose = None
    if token is None:
        problems.append(Problem("caboose_unseen"))
    else:
        caboose = _card_under(token, seen, railway, config.card_mm)
        if caboose is None:
            problems.append(Problem("caboose_off"))
    free = _off_the_known(grey.shape[:2], config, seen, token)
    dice = _dice(frame, half, calibration, config, free)
    for die in dice:
        centre = (round(die.position[0] * k), round(die.position[1] * k))
        cv2.circle(free, centre, round(14 * k), 0, -1)
    hidden_mm2 = _covered_area(half, free, k / 2)
    if hidden_mm2 > 0:
        share = hidden_mm2 / (config.layout.width * config.layout.height)
        problems.append(Problem("covered", {"percent": round(max(share, 0.01) * 100)}))
    return Observation(
        cards=tuple(seen),
        railway=railway,
        caboose=caboose,
        dice=tuple(dice),
        problems=tuple(problems),
        caboose_at=None if token is None else (round(token[0], 1), round(token[1], 1)),
        calibration=calibration,
    )


def _match(
    top: np.ndarray,
    poses: Sequence[Pose],
    config: VisionConfig,
    token: tuple[float, float] | None,
    *,
    closely: bool = True,
) -> list[Match]:
    """The catalogue's best face for the card at each pose, the caboose's place left out.
    `closely=False` (Catalogue.match_all) where only whether and where a face fits counts:
    a printed deck's candidate pieces of a region, and its cards before `_locate`."""
    return config.faces().match_all(
        [card_image(top, pose, config.card_mm, config.px_per_mm) for pose in poses],
        [_hidden_by_token(pose, token, config.card_mm) for pose in poses],
        closely=closely,
    )


def _hidden_by_token(
    pose: Pose, token: tuple[float, float] | None, card_mm: tuple[float, float]
) -> np.ndarray | None:
    """Where the caboose covers the card's face, as a TEMPLATE_PX mask, or None."""
    if token is None:
        return None
    a = math.radians(pose.rotation)
    dx, dy = token[0] - pose.x, token[1] - pose.y
    lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    radius = card_art.CABOOSE_MM / 2 + 2.0
    if abs(lx) > card_mm[0] / 2 + radius or abs(ly) > card_mm[1] / 2 + radius:
        return None
    sx, sy = TEMPLATE_PX[0] / card_mm[0], TEMPLATE_PX[1] / card_mm[1]
    mask = np.zeros((TEMPLATE_PX[1], TEMPLATE_PX[0]), np.uint8)
    centre = (round((lx + card_mm[0] / 2) * sx), round((ly + card_mm[1] / 2) * sy))
    cv2.circle(mask, centre, round(radius * sx), 1, -1)
    return mask


def _railway(
    seen: Sequence[SeenCard],
    card_mm: tuple[float, float],
    back: tuple[float, float] | None,
    apart: tuple[float, float, float, float] | None = None,
) -> tuple[int, ...]:
    """The longest chain of cards joined rail end to rail end, back to front; of chains as
    long, the one nearest `back` (a railway of one card beside a card shown in the zone)."""
    track = [
        i
        for i, card in enumerate(seen)
        if not cards.is_chaos(card.code) and not _inside(card.pose, apart)
    ]
    ends = {i: geometry.rail_ends(seen[i].code, seen[i].pose, card_mm) for i in track}
    links: dict[int, set[int]] = {i: set() for i in track}
    for n, i in enumerate(track):
        for j in track[n + 1 :]:
            if any(math.dist(a, b) < _JOIN_MM for a in ends[i] for b in ends[j]):
                links[i].add(j)
                links[j].add(i)
    best: list[int] = []
    done: set[int] = set()

    def off_back(chain: list[int]) -> float:
        if back is None:
            return 0.0
        return min(math.dist(back, (seen[i].pose.x, seen[i].pose.y)) for i in chain)

    for start in track:
        if start in done:
            continue
        component = _component(start, links)
        done |= component
        chain = _chain(component, links)
        if len(chain) > len(best) or (
            best and len(chain) == len(best) and off_back(chain) < off_back(best)
        ):
            best = chain
    if len(best) > 1:
        first, last = seen[best[0]].pose, seen[best[-1]].pose
        if back is not None:
            turn = math.dist(back, (last.x, last.y)) < math.dist(back, (first.x, first.y))
        else:
            turn = (last.y, last.x) < (first.y, first.x)
        if turn:
            best.reverse()
    return tuple(best)


def _inside(pose: Pose, region: tuple[float, float, float, float] | None) -> bool:
    if region is None:
        return False
    left, top, right, bottom = region
    return left <= pose.x <= right and top <= pose.y <= bottom


def _component(start: int, links: dict[int, set[int]]) -> set[int]:
    found, todo = {start}, [start]
    while todo:
        for other in links[todo.pop()]:
            if other not in found:
                found.add(other)
                todo.append(other)
    return found


def _chain(component: set[int], links: dict[int, set[int]]) -> list[int]:
    """The longest simple path through a component (a railway is a path; a stray card
    touching it must not break the order)."""
    ends = [i for i in component if len(links[i] & component) <= 1] or sorted(component)
    best: list[int] = []

    def walk(path: list[int]) -> None:
        nonlocal best
        if len(path) > len(best):
            best = list(path)
        for nxt in sorted(links[path[-1]]):
            if nxt not in path and len(best) < len(component):
                path.append(nxt)
                walk(path)
                path.pop()

    for start in sorted(ends):
        walk([start])
    return best


def _card_under(
    point: tuple[float, float],
    seen: Sequence[SeenCard],
    railway: Sequence[int],
    card_mm: tuple[float, float],
) -> int | None:
    for position, index in enumerate(railway):
        pose = seen[index].pose
        a = math.radians(pose.rotation)
        dx, dy = point[0] - pose.x, point[1] - pose.y
        lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        if abs(lx) <= card_mm[0] / 2 and abs(ly) <= card_mm[1] / 2:
            return position
    return None


def _off_the_known(
    shape: tuple[int, ...],
    config: VisionConfig,
    seen: Sequence[SeenCard],
    token: tuple[float, float] | None,
) -> np.ndarray:
    """A top-down mask, 255 where no card, marker or the caboose lies."""
    k = config.px_per_mm
    free = np.full(shape, 255, np.uint8)
    grow = (config.card_mm[0] + 6.0, config.card_mm[1] + 6.0)
    for card in seen:
        cv2.fillConvexPoly(free, (card_corners(card.pose, grow) * k).round().astype(np.int32), 0)
    for corners in config.layout.marker_corners().values():
        lo, hi = corners.min(axis=0) - 8, corners.max(axis=0) + 8
        cv2.rectangle(free, tuple((lo * k).astype(int)), tuple((hi * k).astype(int)), 0, -1)
    if token is not None:
        cv2.circle(free, (round(token[0] * k), round(token[1] * k)), round(14 * k), 0, -1)
    return free


def _covered_area(half: np.ndarray, free: np.ndarray, k: float) -> float:
    """How many mm^2 of the table, off everything recognised, are covered by something large
    that is neither table nor game: smooth where the table's surface has grain or print, and
    of another colour than the table's own (its median colour where nothing was found).
    Lighting changes brightness more than colour, so brightness counts half. Looked for at
    half the scale `k` of `half` (a hand is large)."""
    small = cv2.resize(half, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    mask = cv2.resize(free, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST)
    if (mask > 0).sum() < 100:
        return 0.0
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    table = np.median(lab[mask > 0][::7], axis=0)
    weights = np.array([0.5, 1.0, 1.0], np.float32)
    unlike = np.sqrt((((lab - table) * weights) ** 2).sum(axis=2)) > 15.0
    grey = lab[..., 0]
    mean = cv2.blur(grey, (3, 3))
    texture = np.sqrt(np.maximum(cv2.blur(grey * grey, (3, 3)) - mean * mean, 0.0))
    smooth = texture < 0.5 * float(np.median(texture[mask > 0]))
    blob = (unlike & smooth & (mask > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(blob)
    mm2_per_px = (2.0 / k) ** 2
    areas = stats[1:, cv2.CC_STAT_AREA] * mm2_per_px
    return float(areas[areas > _COVER_MM2].sum()) if count > 1 else 0.0


def _dice(
    frame: np.ndarray,
    half: np.ndarray,
    calibration: Calibration,
    config: VisionConfig,
    free: np.ndarray,
) -> list[SeenDie]:
    found = []
    for x, y in find_dice(half, free, config.px_per_mm / 2):
        reading = read_die(frame, calibration, x, y)
        if reading is not None:
            found.append(
                SeenDie(
                    reading.kind,
                    reading.face,
                    (round(reading.x, 1), round(reading.y, 1)),
                    round(reading.confidence, 3),
                )
            )
    return found


class ChangeGate:
    """Tells whether a frame differs from the last one that was recognised, so a caller can
    skip `observe` while nothing on the table moves. It compares 160x120 grey thumbnails:
    each thumbnail pixel averages ~80 frame pixels, so sensor noise averages away (to a
    fraction of a grey level) while a die (~3 thumbnail pixels) moving changes a few of
    them by tens of grey levels."""

    def __init__(self, threshold: float = 12.0, pixels: int = 2) -> None:
        self.threshold = threshold  # grey levels a thumbnail pixel must change by
        self.pixels = pixels  # how many thumbnail pixels must change
        self._last: np.ndarray | None = None

    def changed(self, frame_bgr: object) -> bool:
        """True when the frame should be recognised (and it becomes the reference)."""
        if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim not in (2, 3):
            return True
        grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        thumb = cv2.resize(grey, (160, 120), interpolation=cv2.INTER_AREA).astype(np.int16)
        if self._last is not None and self._last.shape == thumb.shape:
            moved = int((np.abs(thumb - self._last) > self.threshold).sum())
            if moved < self.pixels:
                return False
        self._last = thumb
        return True
