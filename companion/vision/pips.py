"""Read standard pip dice from an overhead camera frame: OpenCV, plus a small learned counter.

Why this shape: the Pi has no GPU and nothing may be downloaded, and the table has dice of
any colour (black pips on white, white pips on red, red on black, yellow on green...). Two
readers share the work, because neither sees every die:

* Die first. Where the table is plainer than the dice (a tray, a cloth), the dice stand out
  from a smooth background estimate, so each die's outline is known. Its pips are then found
  inside it with thresholds relative to that die alone (a gold die is darker than the tray,
  which defeats a frame-wide local threshold), many threshold hypotheses are tried, and only
  those whose pips form a real die layout vote for the count. Pips that break up (glare, a
  light rim on translucent dice) make the vote undercount, so a grid check of the nine pip
  places, which needs no blobs, may raise the count. Dice touching each other are cut apart
  by k-means on their pixels when the blob holds about k dice' area. A small learned network
  (dice_net.py) looks at each blob squared up as a whole and overrules the
  count when it is sure; it alone reads blobs that are not square (a tilted die with a side
  face showing).
* Pips first, for the rest of the frame (white dice on light wood, where a die barely
  differs from the table): find round contrasting blobs of both polarities with an adaptive
  threshold, link two when they could be pips of one face (same polarity, similar size,
  close in pip sizes, same face colour around both, and the path between them stays on that
  face), and read each linked group whose count is a die face. The same network then
  drops the groups it sees as no die (wood grain, specks) and recounts those it is sure of.

What both leave of the die mask (a white die on a light tray, whose pips merge in rows) is
cut out at the frame's typical die size and read by the network alone where it is sure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision import dice_art
from companion.vision.dice_net import count_many
from companion.vision.frame_checks import colourless

MAX_SIDE = 1024  # larger frames are shrunk first: pips stay several pixels wide, work drops
MIN_SIDE = 16  # below this there is no die to read
BLOCK_PER_SIDE = 1 / 30  # adaptive-threshold window relative to the frame (~21 px at 640)
THRESH_C = 12  # grey levels a pip must differ from its neighbourhood mean
MIN_AREA = 6  # pip area in pixels: smaller blobs are JPEG noise
MAX_PIP_PER_SIDE = 1 / 36  # widest pip against the frame's longer side: a whole die is wider
CONNECTIVITY = 4  # 4-neighbour blobs: a pip touching a highlight or edge stays separate
MIN_FILL = 0.5  # blob area over its bounding box (a disc is 0.79)
MIN_INERTIA = 0.35  # minor/major second moment: drops streaks, grain and steep side faces
MIN_CONTRAST = 28.0  # Lab distance between pip and its face
PLANES = 1  # grey only (then blue, green, red): colour dice are read die-first, and the
# colour planes here mostly add false pips on wood and clutter (measured: fewer exact frames)
LINK_REACH = 3.5  # pips of one face are at most this many pip diameters apart
MIN_REACH = 1.5  # ... and neighbours on a 6 are still this far apart
PATH_SKIP = 0.8  # path samples this close to either pip (in its diameters) show its rim
SIZE_RATIO = 1.6  # pips of one face have about the same size
CONTRAST_RATIO = 1.5  # ... and about the same contrast (a side face's pips are shaded)
FACE_TOL = 25.0  # Lab distance within which two colours count as the same face / pip
LONE_MIN_SIZE = 0.8  # a 1's pip against the frame's median pip diameter
LONE_RADII = (1.2, 1.6)  # where a 1's plain face is checked, in pip diameters
LONE_PLAIN = 1.0  # share of those samples that must be face-coloured
SIDE_REACH = 1.0  # a side face lies within this many face sizes of its top face
SIDE_ROUNDER = 0.15  # how much rounder the top face's pips are than a side face's

# Die-first reader (sizes below are in units of the die blob's side, sqrt of its area).
BG_SHRINK = 16  # the background is estimated at 1/16 scale: cheap, and wider than a die
BG_MEDIAN = 5  # ... with a 5-pixel median there (80 px at full size) that skips over dice
DIE_DIST = 50.0  # Lab distance from the background that counts as "not table"
DIE_MIN_SIDE, DIE_MAX_SIDE = 1 / 40, 1 / 5  # die blob extent against the frame's longer side
DIE_ASPECT = 1.35  # a die's outline is about square from above...
DIE_FILL = 0.75  # ... and fills most of its rotated bounding box
SPLIT_MIN, SPLIT_MAX = 1.4, 6  # a blob of 1.4-6 typical dice' area is dice touching
PART_AREA = (0.5, 1.6)  # each piece cut from it must hold about one die's area
# Two dice read die-first closer than this many typical die sides are one die: two touching
# dice and their shadow cut in three, the middle piece half of each. The surer is kept.
PIECES_APART = 0.7
LOCAL_WINDOW = 0.6  # pips are compared with the die's own mean over this window
DIE_PLANES = "kbr"  # grey (k), blue, red: hue-only pips show in one; green is much like grey
DIE_THRESHOLDS = (15.0, 25.0, 40.0, 60.0)  # grey levels tried: 6s merge low, faint pips fade high
PIP_AREA = (0.01, 0.06)  # pip area against the die blob's area
PIP_DEPTH = 0.08  # a pip centre lies this far inside the outline: nearer is a side face
PIP_FILL = (0.5, 0.88)  # blob area over its box: a disc is 0.79, a printed square is 1
PIP_SIMILAR = 0.5  # pips of one face reach this share of the largest's area and contrast
LAYOUT_SCALE = (0.15, 0.3)  # corner-pip offset (per axis) against the die side
LAYOUT_TOL = 0.45  # worst pip-to-template distance, in corner-pip offsets
CENTRE_OFF = (0.2, 0.3)  # pip pattern centre to blob centre, for a 1 and for more pips
COUNT_BIAS = 1.5  # votes are scaled by count**this: a missed pip is likelier than a false one
NEAR_DIE = 9  # pixels round a die read die-first where the pips-first reader is not trusted
# Grid check of a die blob: the nine places a pip can have, laid from the blob's rectangle.
GRID_SCALES = (0.2, 0.24, 0.28)  # corner-place offset (per axis) against the die side
GRID_SHIFT = 0.08  # the face may sit this far off the blob's centre (side faces, shadow)
GRID_TURN = 8.0  # degrees either way from the blob rectangle's angle
GRID_SMOOTH = 0.1  # evidence is averaged over this share of the side (about a pip's core)
GRID_ONE = 0.4  # a 1 needs one bright place only, so a highlight fakes it: its margin counts less
GRID_OVERRULE = 0.8  # a higher count wins over the vote when the vote's margin is below this share
GRID_ALONE = 30.0  # grey levels of margin the grid needs to read a die that no layout voted for
GRID_PIP = 0.18  # pip diameter against the die side, reported for a count the grid read
# Learned check of a die blob's count (dice_net.py): it replaces the reader's count when it is
# at least this sure of its own and gives the reader's count at most this chance (chosen on
# the odd-numbered images, by a net trained on the other odd ones: 0.5 with 0.2-0.5 a plateau).
MODEL_SURE, MODEL_DOUBT = 0.5, 0.2
# The same network checks the pips-first reader's faces: it drops a face it gives at least
# CHECK_NONE of being no die, and recounts one where it is CHECK_SURE of another count.
CHECK_NONE, CHECK_SURE = 0.5, 0.6
# A pips-first face of one pip is a lone spot, as often a speck on the tray as a 1: it is kept
# only where the network is at least this sure of its count (chosen on the odd-numbered
# images by a net trained on the other odd ones: overhead-tray's reports where no die is
# 12 -> 5, no die lost; 0.75 for session 11's wider net, surer of the tray's speck: 3 fewer
# reports, 3 more exact images, 1 webcam-table die fewer of 476).
CHECK_LONE = 0.75
# A die blob the network is at least NET_ALONE sure of is read by it alone (the pip vote,
# most of the reader's time, is skipped), and one it gives at least NET_NONE of being no die
# is not read at all (chosen on the odd-numbered images by nets trained on the other odd
# ones: 0.6-0.9 and 0.5-0.9 alike).
NET_ALONE, NET_NONE = 0.7, 0.7
# Leftover dice: what is left of the die mask once every die read is taken out (a white die on
# the light tray shows only its pips there, merged in rows the pips-first reader drops) is
# grouped by growing it LEFT_GROW of the typical die side; a group about one die wide
# (LEFT_EXTENT sides) is cut out at the typical side and read where the network is at least
# LEFT_SURE of a count and gives no die under LEFT_NONE. A die read die-first is taken out
# LEFT_CLEAR typical sides round its centre; one read pips-first, LEFT_FACE of its face size
# (a slanted camera shows a side face about that far off). Chosen on the odd-numbered images
# by a net trained on the other odd ones: sure 0.5-0.7 and grow 0.3-0.7 read alike.
LEFT_GROW, LEFT_EXTENT, LEFT_SURE, LEFT_NONE = 0.5, (0.3, 1.3), 0.7, 0.3
LEFT_CLEAR, LEFT_FACE = 0.8, 1.2

# Standard pip places, in units of the corner pip's offset from the face centre: the same
# faces our printable dice show.
LAYOUTS = dice_art.PIP_SPOTS
_ANGLES = np.deg2rad(np.arange(0, 180, 6))  # 2, 3 and 6 repeat every 180 degrees
_ROTATIONS = np.stack(
    [
        np.stack([np.cos(_ANGLES), -np.sin(_ANGLES)], axis=1),
        np.stack([np.sin(_ANGLES), np.cos(_ANGLES)], axis=1),
    ],
    axis=1,
)  # (angles, 2, 2)
_CELLS = np.array([(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)], float)  # grid places


def _cell_masks() -> tuple[np.ndarray, np.ndarray]:
    """Each layout as a mask over the nine grid places, in both of its orientations on the
    grid (2, 3 and 6 differ when turned 90 degrees); and the pip count of each mask."""
    masks: list[np.ndarray] = []
    counts = []
    for count, places in LAYOUTS.items():
        for turned in (places, [(-y, x) for x, y in places]):
            mask = np.zeros(9, bool)
            mask[[(y + 1) * 3 + x + 1 for x, y in turned]] = True
            if not any((mask == seen).all() for seen in masks):
                masks.append(mask)
                counts.append(count)
    return np.array(masks), np.array(counts)


_CELL_MASKS, _CELL_COUNTS = _cell_masks()


@dataclass(frozen=True)
class PipDie:
    """One die read: pixel centre of its pip group, rough face size in pixels, pip count."""

    x: float
    y: float
    size: float
    pips: int
    confidence: float


@dataclass(frozen=True)
class _Face(PipDie):
    """A face read (from a die blob or a pip group), with what side-face suppression needs."""

    diam: float  # median pip diameter
    roundness: float  # median pip inertia ratio


@dataclass(frozen=True)
class _Pips:
    """Pip candidates as parallel arrays (vectorised linking is what keeps this fast)."""

    xy: np.ndarray  # (n, 2) centres
    diam: np.ndarray  # (n,) equivalent diameters
    dark: np.ndarray  # (n,) True for dark-on-light pips
    pip_lab: np.ndarray  # (n, 3) colour at the pip centre
    face_lab: np.ndarray  # (n, 3) median colour just outside the pip
    contrast: np.ndarray  # (n,) |L*(pip) - L*(face)|
    roundness: np.ndarray  # (n,) inertia ratio, 1 for a disc seen square-on


def read_pips(image: np.ndarray) -> list[PipDie]:
    """Read every pip die in a BGR frame; a frame with nothing readable gives [].

    Raises ValueError only when `image` is not an array at all; odd frames (grey, BGRA,
    float, tiny, blank) are handled, since a camera glitch must not stop the referee.
    """
    bgr = _as_bgr(image)
    if bgr is None:
        return []
    scale = 1.0
    if max(bgr.shape[:2]) > MAX_SIDE:
        scale = MAX_SIDE / max(bgr.shape[:2])
        bgr = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    faces, done, mask, side = _die_first(bgr, lab)
    first = len(faces)
    pips = _find_pips(bgr, lab, done)
    if len(pips.diam):
        typical = float(np.median(pips.diam))
        # Pips-first groups at a die already read are its side faces or highlights.
        near = cv2.dilate(done, np.ones((NEAR_DIE, NEAR_DIE), np.uint8))
        h, w = done.shape
        faces += _checked(
            bgr,
            side,
            [
                face
                for group in _groups(pips, lab)
                if (len(group) > 1 or _lone_on_face(pips, lab, group[0], typical))
                and (face := _read_group(pips, group))
                and not near[min(h - 1, max(0, int(face.y))), min(w - 1, max(0, int(face.x)))]
            ],
        )
    faces = _drop_side_faces(faces)
    faces += _leftover_dice(bgr, mask, faces, first, side)
    return [PipDie(f.x / scale, f.y / scale, f.size / scale, f.pips, f.confidence) for f in faces]


def _leftover_dice(
    bgr: np.ndarray, mask: np.ndarray, faces: list[_Face], first: int, side: float
) -> list[_Face]:
    """Dice in what is left of the die mask once the `faces` read are taken out (the first
    `first` of them read die-first), each as sure as the network is; none without a typical
    die `side` from the die-first blobs.

    Why: a white die on a light tray barely differs from it, so the mask holds only its pips,
    merged into rows at this size: no die blob, and no round pips for the pips-first reader.
    The network, shown the die cut out at the frame's typical die size, reads it plainly.
    """
    if side <= 0:
        return []
    free = mask.copy()
    for i, face in enumerate(faces):
        reach = LEFT_CLEAR * side if i < first else max(LEFT_CLEAR * side, LEFT_FACE * face.size)
        cv2.circle(free, (round(face.x), round(face.y)), round(reach), 0, -1)
    grow = max(3, int(LEFT_GROW * side)) | 1
    grown = cv2.dilate(free, np.ones((grow, grow), np.uint8))  # a square: a tenth of a disc's time
    count, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    height, width = mask.shape
    rects = []
    for r in range(1, count):
        x, y, w, h, _ = stats[r]
        extent = max(w, h) - grow + 1
        if not LEFT_EXTENT[0] * side <= extent <= LEFT_EXTENT[1] * side:
            continue
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            continue  # cut off by the frame edge, as for die blobs
        ys, xs = np.nonzero((labels[y : y + h, x : x + w] == r) & (free[y : y + h, x : x + w] > 0))
        if len(xs) >= MIN_AREA:
            centre = (x + (xs.min() + xs.max()) / 2, y + (ys.min() + ys.max()) / 2)
            rects.append((centre, (side, side), 0.0))
    found = []
    for ((cx, cy), _, _), odds in zip(rects, count_many(bgr, rects), strict=True):
        pips = int(np.argmax(odds[1:])) + 1
        if odds[pips] >= LEFT_SURE and odds[0] < LEFT_NONE:
            found.append(_Face(float(cx), float(cy), side, pips, float(odds[pips]), 0.0, 0.0))
    return found


def _checked(bgr: np.ndarray, side: float, faces: list[_Face]) -> list[_Face]:
    """Pips-first faces the pip-count network does not rule out, its count where it is sure.

    Pips linked into a face are sometimes specks, wood grain or a side face's pips joined to
    the top's, and a white 6 whose middle pips fade reads as a 4; the network, shown the
    whole face, tells these apart. A lone pip must convince it more: a speck on the tray
    looks like a 1 and is seen in every photograph of that tray.

    The network is shown each face at least the frame's typical die `side` (from the die
    blobs; 0 when there are none): a face's size guessed from its pips is the pip pattern's,
    often 0.8 of the die, and a white 4 on a pale tray cut out that tight read as a 2.
    """
    if not faces:
        return faces
    sides = [max(f.size, side) for f in faces]
    chances = count_many(
        bgr, [((f.x, f.y), (s, s), 0.0) for f, s in zip(faces, sides, strict=True)]
    )
    kept = []
    for face, odds in zip(faces, chances, strict=True):
        learned = int(np.argmax(odds))
        if odds[0] >= CHECK_NONE or (face.pips == 1 and odds[learned] < CHECK_LONE):
            continue
        if learned and learned != face.pips and odds[learned] >= CHECK_SURE:
            face = replace(face, pips=learned, confidence=float(odds[learned]))
        kept.append(face)
    return kept


def _as_bgr(image: np.ndarray) -> np.ndarray | None:
    """Coerce any plausible frame to 3-channel uint8 BGR, or None when it cannot hold dice."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"read_pips needs a numpy image array, not {type(image).__name__}")
    if image.ndim not in (2, 3) or image.size == 0 or min(image.shape[:2]) < MIN_SIDE:
        return None
    if image.dtype != np.uint8:
        data = np.nan_to_num(image.astype(np.float32))
        if data.max() <= 1.0:  # float frames in [0, 1]
            data = data * 255.0
        elif image.dtype == np.uint16:
            data = data / 257.0
        image = np.clip(data, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    channels = image.shape[2]
    if channels == 1:
        return cv2.cvtColor(image[:, :, 0], cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(image) if channels == 3 else None


def _find_pips(bgr: np.ndarray, lab: np.ndarray, done: np.ndarray) -> _Pips:
    """Round, solid blobs darker or lighter than their neighbourhood, with colour contrast.

    The first PLANES of grey, blue, green, red are searched (a hue-only pip shows in a colour
    plane only); a blob already found in an earlier plane is not added again, and nothing
    is looked for on a die already read (`done`).
    """
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    planes = [grey, *cv2.split(bgr)][: int(PLANES)]
    block = max(3, int(max(grey.shape) * BLOCK_PER_SIDE) | 1)
    max_area = np.pi / 4 * (max(grey.shape) * MAX_PIP_PER_SIDE) ** 2
    taken = np.zeros(grey.shape, np.uint8)
    found: list[tuple[float, float, float, float]] = []
    for plane in planes:
        for mode, offset in ((cv2.THRESH_BINARY_INV, THRESH_C), (cv2.THRESH_BINARY, -THRESH_C)):
            mask = cv2.adaptiveThreshold(
                plane, 255, cv2.ADAPTIVE_THRESH_MEAN_C, mode, block, offset
            )
            mask[done > 0] = 0
            _, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
                mask, CONNECTIVITY, cv2.CV_32S, cv2.CCL_WU
            )
            w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
            keep = (
                (area >= MIN_AREA)
                & (area <= max_area)
                & (area >= MIN_FILL * w * h)
                & (np.maximum(w, h) <= 2.5 * np.minimum(w, h))
            )
            at = np.rint(centres[1:]).astype(int)
            keep &= (
                done[at[:, 1].clip(0, grey.shape[0] - 1), at[:, 0].clip(0, grey.shape[1] - 1)] == 0
            )
            for i in np.flatnonzero(keep) + 1:
                cx, cy = centres[i]
                if taken[int(cy + 0.5), int(cx + 0.5)]:
                    continue
                bx, by, bw, bh = stats[i, :4]
                blob = (labels[by : by + bh, bx : bx + bw] == i).astype(np.uint8)
                roundness = _inertia(blob)
                if roundness < MIN_INERTIA:
                    continue
                taken[by : by + bh, bx : bx + bw] |= blob
                found.append((cx, cy, 2.0 * np.sqrt(stats[i, 4] / np.pi), roundness))
    if not found:
        empty = np.zeros((0, 3), np.float32)
        none = np.zeros(0)
        return _Pips(np.zeros((0, 2)), none, none.astype(bool), empty, empty, none, none)
    arr = np.array(found, np.float64)
    xy, diam, roundness = arr[:, :2], arr[:, 2], arr[:, 3]
    pip_lab = _sample(lab, xy)
    radius = np.maximum(0.9 * diam, diam / 2 + 2.0)
    angles = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = xy[:, None, :] + radius[:, None, None] * np.stack(
        [np.cos(angles), np.sin(angles)], axis=1
    )
    face_lab = np.median(_sample(lab, ring.reshape(-1, 2)).reshape(-1, 8, 3), axis=1)
    contrast = np.linalg.norm(pip_lab - face_lab, axis=1)
    good = contrast >= MIN_CONTRAST
    return _Pips(
        xy[good],
        diam[good],
        pip_lab[good, 0] < face_lab[good, 0],
        pip_lab[good],
        face_lab[good],
        contrast[good],
        roundness[good],
    )


def _inertia(blob: np.ndarray) -> float:
    """Minor over major second moment of a binary blob: 1 for a disc, 0 for a line."""
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] == 0:
        return 0.0
    a, b, c = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = np.hypot((a - b) / 2, c)
    major = (a + b) / 2 + spread
    return float(((a + b) / 2 - spread) / major) if major > 0 else 0.0


def _sample(lab: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Lab colours at (x, y) points, clamped to the frame."""
    h, w = lab.shape[:2]
    xs = np.clip(np.rint(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(points[:, 1]).astype(int), 0, h - 1)
    return lab[ys, xs]


def _groups(pips: _Pips, lab: np.ndarray) -> list[list[int]]:
    """Connected components of the 'could be on one face' relation."""
    n = len(pips.diam)
    delta = pips.xy[:, None, :] - pips.xy[None, :, :]
    dist = np.hypot(delta[..., 0], delta[..., 1])
    mean_d = (pips.diam[:, None] + pips.diam[None, :]) / 2
    ratio = np.maximum(pips.diam[:, None], pips.diam[None, :]) / np.minimum(
        pips.diam[:, None], pips.diam[None, :]
    )
    contrast_ratio = np.maximum(pips.contrast[:, None], pips.contrast[None, :]) / np.maximum(
        np.minimum(pips.contrast[:, None], pips.contrast[None, :]), 1.0
    )
    face_gap = np.linalg.norm(pips.face_lab[:, None, :] - pips.face_lab[None, :, :], axis=2)
    near = (
        (dist <= LINK_REACH * mean_d)
        & (ratio <= SIZE_RATIO)
        & (contrast_ratio <= CONTRAST_RATIO)
        & (pips.dark[:, None] == pips.dark[None, :])
        & (face_gap <= FACE_TOL)
    )
    i, j = np.nonzero(np.triu(near, k=1))
    if len(i):
        ok = _path_on_face(pips, lab, i, j)
        i, j = i[ok], j[ok]
    span = dist[i, j] / mean_d[i, j]  # link length in pip diameters
    return _split(np.arange(n), i, j, span, LINK_REACH)


def _split(
    members: np.ndarray, i: np.ndarray, j: np.ndarray, span: np.ndarray, reach: float
) -> list[list[int]]:
    """Components of the links no longer than `reach`; any with more pips than a die has
    is split again with shorter links, since touching dice join through their near pips."""
    inside = np.isin(i, members) & np.isin(j, members) & (span <= reach)
    parent = {int(k): int(k) for k in members}

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, b in zip(i[inside].tolist(), j[inside].tolist(), strict=True):
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for k in parent:
        groups.setdefault(root(k), []).append(k)
    result = []
    for group in groups.values():
        if len(group) <= 6 or reach <= MIN_REACH:
            result.append(group)
        else:
            result.extend(_split(np.array(group), i, j, span, reach * 0.85))
    return result


def _path_on_face(pips: _Pips, lab: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """For each pair, whether the segment between the two pips looks like face or pip only."""
    steps = np.linspace(0.0, 1.0, 11)[1:-1]
    start, end = pips.xy[i], pips.xy[j]
    points = start[:, None, :] + (end - start)[:, None, :] * steps[None, :, None]
    colours = _sample(lab, points.reshape(-1, 2)).reshape(len(i), len(steps), 3)
    face = (pips.face_lab[i] + pips.face_lab[j]) / 2
    pip = (pips.pip_lab[i] + pips.pip_lab[j]) / 2
    to_face = np.linalg.norm(colours - face[:, None, :], axis=2)
    to_pip = np.linalg.norm(colours - pip[:, None, :], axis=2)
    length = np.linalg.norm(end - start, axis=1)
    from_start = steps[None, :] * length[:, None]
    outside = (from_start > PATH_SKIP * pips.diam[i][:, None]) & (
        length[:, None] - from_start > PATH_SKIP * pips.diam[j][:, None]
    )
    fits = (to_face <= FACE_TOL) | (to_pip <= FACE_TOL)
    return np.all(fits | ~outside, axis=1)


def _lone_on_face(pips: _Pips, lab: np.ndarray, k: int, typical: float) -> bool:
    """Whether a lone pip sits in the middle of a plain face, as a 1 does.

    Lone blobs are the commonest false reading: specks, text, a side face's pip. A real 1
    has nothing but face colour for a pip diameter or so all round, and its pip is no
    smaller than the frame's typical pip (a 1's pip is often the biggest on the die).
    """
    if pips.diam[k] < LONE_MIN_SIZE * typical:
        return False
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    points = np.concatenate([pips.xy[k] + r * pips.diam[k] * circle for r in LONE_RADII])
    colours = _sample(lab, points)
    plain = np.linalg.norm(colours - pips.face_lab[k], axis=1) <= FACE_TOL
    return float(plain.mean()) >= LONE_PLAIN


def _read_group(pips: _Pips, group: list[int]) -> _Face | None:
    """A die face from one group of linked pips, if the group can be a die face."""
    count = len(group)
    if count > 6:
        return None
    xy = pips.xy[group]
    centre = xy.mean(axis=0)
    diam = float(np.median(pips.diam[group]))
    spread = float(np.max(np.linalg.norm(xy - centre, axis=1))) if count > 1 else 0.0
    size = max(5.0 * diam, 2.4 * spread)
    confidence = float(np.clip(np.median(pips.contrast[group]) / 100.0, 0.0, 1.0))
    return _Face(
        float(centre[0]),
        float(centre[1]),
        size,
        count,
        confidence,
        diam,
        float(np.median(pips.roundness[group])),
    )


def _drop_side_faces(faces: list[_Face]) -> list[_Face]:
    """Drop faces seen edge-on next to a face seen square-on: they are the same die's sides.

    A camera at an angle sees a die's top and one or two of its sides; the side's pips are
    foreshortened, so smaller and less round than the top's, and the side sits within about
    one face size of the top.
    """
    keep = []
    for face in faces:
        beaten = any(
            other is not face
            and np.hypot(other.x - face.x, other.y - face.y) <= SIDE_REACH * other.size
            and other.diam > face.diam
            and other.roundness >= face.roundness + SIDE_ROUNDER
            for other in faces
        )
        if not beaten:
            keep.append(face)
    return keep


def _die_first(
    bgr: np.ndarray, lab: np.ndarray
) -> tuple[list[_Face], np.ndarray, np.ndarray, float]:
    """Faces read die-first, a mask of the dice they were read on, the die mask, and the
    typical die side (the median blob rectangle's longer side; 0 without blobs).

    Every blob's rectangle is collected first and the counter asked about all of them in
    one call: one net run per frame costs less than one per die. Of faces closer than
    PIECES_APART sides, the surest is kept: a blob of two touching dice with their shadow is
    cut in three, and a counter that reads the middle piece as a die reported a third die
    (odd half's two folds: 12 fewer reports, 4 more exact images, 1 die fewer of 759).
    """
    mask = _die_mask(bgr, lab)
    done = np.zeros(mask.shape, np.uint8)
    blobs = _die_blobs(mask)
    rects = [_blob_rect(blob) for blob in blobs]
    chances = count_many(bgr, rects)
    faces = [
        face
        for blob, rect, odds in zip(blobs, rects, chances, strict=True)
        if (face := _read_blob(bgr, blob, rect, odds, done))
    ]
    side = float(np.median([max(rect[1]) for rect in rects])) if rects else 0.0
    kept: list[_Face] = []
    for face in sorted(faces, key=lambda f: -f.confidence):
        if all(np.hypot(face.x - k.x, face.y - k.y) >= PIECES_APART * side for k in kept):
            kept.append(face)
    return kept, done, mask, side


def _blob_rect(blob: tuple) -> tuple:
    """The minimum-area rectangle of a die blob (x, y, crop mask, die-shaped), in frame pixels."""
    x, y, part, _ = blob
    ys, xs = np.nonzero(part)
    return cv2.minAreaRect(np.stack([xs + x, ys + y], axis=1).astype(np.float32))


def _read_blob(
    bgr: np.ndarray, blob: tuple, rect: tuple, chances: np.ndarray, done: np.ndarray
) -> _Face | None:
    """The face of one die blob (x, y, crop mask, die-shaped), marked in `done`, or None.

    The network's `chances` for its rectangle `rect` come first: a blob it is sure is no
    die is dropped, one it is sure of is read by it alone. Otherwise a die-shaped blob is
    read by the pip vote and grid check, which the network may overrule; a blob that is not
    die-shaped is read by the network alone. (A sure network is right more often than the
    vote and the grid that could veto it, on the odd half: see RESULTS-pips.md.)
    """
    x, y, part, shaped = blob
    h, w = part.shape
    side = float(np.sqrt(part.sum()))
    learned = int(np.argmax(chances))
    if chances[0] >= NET_NONE:
        return None
    alone = bool(learned) and chances[learned] >= NET_ALONE
    if shaped and not alone:
        found, grid = _die_pips(bgr[y : y + h, x : x + w], part, side)
    else:
        found, grid = None, None
    count = 0 if found is None else len(found[0])
    if alone or _network_wins(chances, learned, count, grid):
        centre, count = np.array(rect[0]), learned
        diam, confidence = GRID_PIP * side, float(chances[learned])
    elif found is None:
        return None
    else:
        xy, diam, contrast = found
        centre = xy.mean(axis=0) + (x, y)
        confidence = float(np.clip(contrast / 100.0, 0.0, 1.0))
    done[y : y + h, x : x + w] |= part
    return _Face(float(centre[0]), float(centre[1]), side, count, confidence, diam, 1.0)


def _network_wins(chances: np.ndarray, learned: int, count: int, grid: np.ndarray | None) -> bool:
    """Whether the pip-count network's answer replaces the reader's `count` (0: none).

    The network sees the whole face at once, so it reads dice whose pips never come out as
    round blobs (dark dice with red pips, marbled or glossy dice, logos) and blobs that are
    not square (a side face or a neighbour in the outline). It must be sure of its count and
    nearly rule out the reader's. Where the grid check clearly sees the reader's count, the
    network must also fit the grid about as well: drawn or unusual dice, unlike any it was
    trained on, can fool it where the grid is not fooled.
    """
    if not learned or chances[learned] < MODEL_SURE or chances[count] > MODEL_DOUBT:
        return False
    return grid is None or grid[count] < GRID_ALONE or grid[learned] >= GRID_OVERRULE * grid[count]


def _die_mask(bgr: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """Pixels far in colour from a smooth background estimate, with holes (pips) filled.

    The background is a heavy median at low resolution, so dice (smaller than the median's
    window) drop out of it while lighting gradients and a textured table stay in. Only holes
    up to a die's size are filled: a tray's dark rim is a closed ring, and filling all it
    encloses made the whole tray one blob, losing every die in it that stands out only from
    the tray (a blue, purple or black die on the grey card).
    """
    h, w = bgr.shape[:2]
    small = cv2.resize(
        bgr, (max(1, w // BG_SHRINK), max(1, h // BG_SHRINK)), interpolation=cv2.INTER_AREA
    )
    small = cv2.medianBlur(cv2.medianBlur(small, BG_MEDIAN), BG_MEDIAN)
    background = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    delta = cv2.subtract(lab, cv2.cvtColor(background, cv2.COLOR_BGR2Lab).astype(np.float32))
    squared = cv2.transform(cv2.multiply(delta, delta), np.ones((1, 3), np.float32))
    mask = (squared > DIE_DIST**2).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:  # nothing stands out
        return mask
    widest = (DIE_MAX_SIDE * max(h, w)) ** 2
    holes = [
        outline
        for outline, (_, _, _, parent) in zip(outlines, tree[0], strict=True)
        if parent >= 0 and cv2.contourArea(outline) <= widest
    ]
    cv2.drawContours(mask, holes, -1, 1, -1)
    return mask


def _die_shaped(part: np.ndarray, frame_side: int) -> bool:
    """Whether a blob is the size and shape of a die seen from above (about square)."""
    ys, xs = np.nonzero(part)
    if len(xs) < 10:
        return False
    extent = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
    if not DIE_MIN_SIDE * frame_side <= extent <= DIE_MAX_SIDE * frame_side:
        return False
    rw, rh = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))[1]
    return (
        min(rw, rh) > 0
        and max(rw, rh) <= DIE_ASPECT * min(rw, rh)
        and len(xs) >= DIE_FILL * rw * rh
    )


def _die_blobs(mask: np.ndarray) -> list[tuple[int, int, np.ndarray, bool]]:
    """Die-sized blobs of the mask as (x, y, crop mask, die-shaped), touching dice cut apart.

    Blobs touching the frame edge are skipped: a cut-off die cannot be read, and on a busy
    table they are mostly other objects. So are blobs much smaller than the frame's typical
    die: that is a light die only partly told apart from the table, or not a die at all.
    A blob of one die's area that is not square (a die tilted against another, with a side
    face or its shadow) is kept but marked, for the learned check alone to read.
    """
    frame_side = max(mask.shape)
    height, width = mask.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    blobs, others = [], []
    for r in range(1, n):
        x, y, w, h, _ = stats[r]
        if max(w, h) < DIE_MIN_SIDE * frame_side:
            continue
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            continue
        part = (labels[y : y + h, x : x + w] == r).astype(np.uint8)
        if _die_shaped(part, frame_side):
            blobs.append((int(x), int(y), part, True))
        else:
            others.append((int(x), int(y), part))
    if blobs:
        typical = float(np.median([part.sum() for _, _, part, _ in blobs]))
        blobs = [blob for blob in blobs if blob[2].sum() >= PART_AREA[0] * typical]
        for x, y, part in others:
            if PART_AREA[0] * typical <= part.sum() < SPLIT_MIN * typical:
                blobs.append((x, y, part, False))
            else:
                blobs += _split_touching(x, y, part, typical, frame_side)
    return blobs


def _split_touching(
    x: int, y: int, part: np.ndarray, typical: float, frame_side: int
) -> list[tuple[int, int, np.ndarray, bool]]:
    """Cut a blob of k touching dice into k pieces by k-means on its pixel positions.

    The start splits the blob into k slices along its long axis, so the result is the same
    on every run (k-means++ would draw random numbers). A piece that is not square is kept
    but marked, like a lone non-square blob: a pile's pieces often hold a tilted die.
    """
    k = round(float(part.sum()) / typical)
    if part.sum() < SPLIT_MIN * typical or k > SPLIT_MAX:
        return []
    ys, xs = np.nonzero(part)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    centred = points - points.mean(axis=0)
    axis = np.linalg.eigh(centred.T @ centred)[1][:, -1]
    rank = np.argsort(np.argsort(centred @ axis))
    start = (rank * k // len(points)).astype(np.int32).reshape(-1, 1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, assign, _ = cv2.kmeans(points, k, start, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    pieces = []
    for c in range(k):
        chosen = assign.ravel() == c
        if not PART_AREA[0] * typical <= chosen.sum() <= PART_AREA[1] * typical:
            continue
        px, py = xs[chosen], ys[chosen]
        x0, y0 = px.min(), py.min()
        piece = np.zeros((py.max() - y0 + 1, px.max() - x0 + 1), np.uint8)
        piece[py - y0, px - x0] = 1
        pieces.append((x + int(x0), y + int(y0), piece, _die_shaped(piece, frame_side)))
    return pieces


def _die_pips(
    bgr: np.ndarray, part: np.ndarray, side: float
) -> tuple[tuple[np.ndarray, float, float] | None, np.ndarray]:
    """Pips of one die blob, (centres, median diameter, mean contrast) or None, and the grid
    check's margin for each count 0-6 (what `_network_wins` weighs against).

    Each plane of DIE_PLANES, polarity and threshold gives a hypothesis: the
    pip-sized, round blobs well inside the outline. Those that form a real die layout vote
    for their count with their contrast, so a count seen in many planes and thresholds wins
    over a stray highlight that makes a layout once.

    The vote undercounts when pips break up (translucent dice, dark-red pips with a light
    rim): the whole pips never pass as round blobs, and two of a 4's pips still make a 2. So
    a grid check that needs no blobs has the last word when the voted count fits the grid
    much worse than another count does (see `_grid_margins`).
    """
    depth = cv2.distanceTransform(np.pad(part, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    window = max(3, int(side * LOCAL_WINDOW) | 1)
    weight = part.astype(np.float32)
    weight_sum = cv2.blur(weight, (window, window)) + 1e-3
    inside = part > 0
    ys, xs = np.nonzero(part)
    centre = np.array([xs.mean(), ys.mean()])
    grid = _grid_places(xs, ys, side, part.shape)
    smooth = max(1, round(GRID_SMOOTH * side))
    margins = np.full((len(_CELL_MASKS),), -np.inf)
    places = np.zeros((len(_CELL_MASKS), 9, 2))
    hypotheses: list[tuple[int, float, np.ndarray, float]] = []
    fits: dict[bytes, bool] = {}  # planes and thresholds often find the same pips again
    planes = dict(zip("bgr", cv2.split(bgr), strict=True))
    planes["k"] = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    # A die without colour shows the same pips in every plane: one gives the same vote
    for name in "k" if colourless(bgr) else DIE_PLANES:
        values = planes[name].astype(np.float32)
        diff = values - cv2.blur(values * weight, (window, window)) / weight_sum
        evidence = cv2.blur(diff, (smooth, smooth))[grid[..., 1], grid[..., 0]]
        for sign, signed in ((1.0, diff), (-1.0, -diff)):
            found_margin, config = _grid_margins(sign * evidence)
            better = found_margin > margins
            margins[better] = found_margin[better]
            places[better] = grid[config[better]]
            for threshold in DIE_THRESHOLDS:
                blobs = ((signed > threshold) & inside).astype(np.uint8)
                n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
                    blobs, 4, cv2.CV_32S, cv2.CCL_WU
                )
                if n < 2:
                    break  # higher thresholds find nothing either
                found = _pip_hypothesis(labels, stats, centres, signed, depth, side)
                if found is None:
                    continue
                xy, area, contrast = found
                key = np.rint(xy).astype(np.int32).tobytes()
                if key not in fits:
                    fits[key] = _layout_ok(xy, centre, side)
                if fits[key]:
                    diam = float(np.median(2.0 * np.sqrt(area / np.pi)))
                    hypotheses.append((len(xy), float(contrast.mean()), xy, diam))
    by_count = np.full(7, -np.inf)
    np.maximum.at(by_count, _CELL_COUNTS, margins)
    by_count[1] *= GRID_ONE
    grid_best = int(np.argmax(by_count))
    if hypotheses:
        votes: dict[int, float] = {}
        for count, contrast, _, _ in hypotheses:
            votes[count] = votes.get(count, 0.0) + contrast
        best = max(votes, key=lambda count: (votes[count] * count**COUNT_BIAS, count))
        # The grid only ever adds pips: below the vote it is mostly a highlight posing as a 1
        # or a grid squared on a shadow, while a vote below the truth is the common miss. A
        # grid where no layout has every pip above every empty place proves nothing.
        if (
            grid_best <= best
            or by_count[grid_best] <= 0
            or by_count[best] >= GRID_OVERRULE * by_count[grid_best]
        ):
            _, contrast, xy, diam = max((h for h in hypotheses if h[0] == best), key=lambda h: h[1])
            return (xy, diam, contrast), by_count
    elif by_count[grid_best] < GRID_ALONE:
        return None, by_count
    pattern = int(np.argmax(np.where(grid_best == _CELL_COUNTS, margins, -np.inf)))
    xy = places[pattern][_CELL_MASKS[pattern]]
    return (xy, GRID_PIP * side, float(margins[pattern])), by_count


def _grid_places(xs: np.ndarray, ys: np.ndarray, side: float, shape: tuple) -> np.ndarray:
    """The nine pip places of every grid tried on a blob, as (grids, 9, 2) integer pixels.

    The grid is squared with the blob's minimum-area rectangle, then turned, scaled and
    moved a little, since the blob also holds a shadow or a sliver of side face.
    """
    (cx, cy), _, angle = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
    turns = np.deg2rad(angle + np.array([-GRID_TURN, 0.0, GRID_TURN]))
    rotations = np.stack(
        [np.stack([np.cos(turns), -np.sin(turns)], 1), np.stack([np.sin(turns), np.cos(turns)], 1)],
        axis=1,
    )
    shifts = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]) * GRID_SHIFT * side
    cells = np.einsum("rij,nj->rni", rotations, _CELLS)  # (turns, 9, 2)
    grids = (
        cells[:, None, None] * (np.array(GRID_SCALES) * side)[None, :, None, None, None]
        + shifts[None, None, :, None, :]
        + (cx, cy)
    ).reshape(-1, 9, 2)
    grids = np.rint(grids).astype(int)
    grids[..., 0] = grids[..., 0].clip(0, shape[1] - 1)
    grids[..., 1] = grids[..., 1].clip(0, shape[0] - 1)
    return grids


def _grid_margins(evidence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each layout mask: the best margin over all grids, and the grid giving it.

    `evidence` is (grids, 9), how much each place stands out from the die (pip polarity
    positive). A layout's margin is its weakest pip place minus its strongest empty place:
    only a real face, seen on the right grid, has every pip above every empty place.
    """
    pips = np.where(_CELL_MASKS[None], evidence[:, None, :], np.inf).min(axis=2)
    empty = np.where(~_CELL_MASKS[None], evidence[:, None, :], -np.inf).max(axis=2)
    margin = pips - empty  # (grids, masks); a 6 on the 3x3 grid still has 3 empty places
    config = np.argmax(margin, axis=0)
    return margin[config, np.arange(margin.shape[1])], config


def _pip_hypothesis(
    labels: np.ndarray,
    stats: np.ndarray,
    centres: np.ndarray,
    signed: np.ndarray,
    depth: np.ndarray,
    side: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The pip-like components of one thresholded die: (centres, areas, contrasts) or None."""
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    cx, cy = centres[1:, 0], centres[1:, 1]
    inside = depth[np.rint(cy).astype(int), np.rint(cx).astype(int)]
    box = w * h
    ok = (
        (area >= PIP_AREA[0] * side**2)
        & (area <= PIP_AREA[1] * side**2)
        & (np.maximum(w, h) <= 2.0 * np.minimum(w, h))
        & (area >= PIP_FILL[0] * box)
        & ((area <= PIP_FILL[1] * box) | (area < 30))  # tiny blobs are too blocky to judge
        & (inside >= PIP_DEPTH * side)
    )
    if not ok.any():
        return None
    sums = np.bincount(labels.ravel(), weights=signed.ravel(), minlength=len(stats))[1:]
    contrast = sums / np.maximum(area, 1)
    ok &= (area >= PIP_SIMILAR * area[ok].max()) & (contrast >= PIP_SIMILAR * contrast[ok].max())
    if not 1 <= ok.sum() <= 6:
        return None
    return np.stack([cx[ok], cy[ok]], axis=1), area[ok].astype(float), contrast[ok]


def _layout_ok(xy: np.ndarray, centre: np.ndarray, side: float) -> bool:
    """Whether pips sit where a die face has them: centred on the blob, right spacing, shape."""
    count = len(xy)
    if np.linalg.norm(xy.mean(axis=0) - centre) > CENTRE_OFF[count > 1] * side:
        return False
    return count == 1 or _layout_error(xy, side) <= LAYOUT_TOL


def _layout_error(xy: np.ndarray, side: float) -> float:
    """Worst distance between the pips and the best-rotated standard layout of their count,
    in corner-pip offsets; infinite when the spacing does not fit a die of this size."""
    template = np.array(LAYOUTS[len(xy)], float)
    offsets = xy - xy.mean(axis=0)
    scale = float(np.sqrt((offsets**2).sum() / (template**2).sum()))
    if not LAYOUT_SCALE[0] * side <= scale <= LAYOUT_SCALE[1] * side:
        return float("inf")
    placed = np.einsum("kij,nj->kni", _ROTATIONS, template) * scale
    dist = np.linalg.norm(placed[:, :, None, :] - offsets[None, None, :, :], axis=3)
    worst = np.maximum(dist.min(axis=2).max(axis=1), dist.min(axis=1).max(axis=1))
    return float(worst.min() / scale)
