"""What lies on the table off the cards, the markers and the caboose: the dice, read on
the original frame, and anything large that covers the table (a hand), reported because
what lies under it is not seen; and a card beside the railway that no frame outline showed
(`cards_unfound`: a die across its printed frame). All look only where nothing known lies
(`off_the_known`), so a card's print is never taken for a die or a hand. And the dice lying
on a card (`dice_on_the_cards`): there the card's own face, known once the card is read,
stands for the table, so a die is where the card does not look like its face.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, partial

import cv2
import numpy as np

from companion.games.caboose.vision.card_identity import card_image, hidden_by_token
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, normalise
from companion.games.caboose.vision.observation import SeenCard, SeenDie, VisionConfig
from companion.games.caboose.vision.unchanged import Changes
from companion.pose import Pose
from companion.vision.calibrate import Calibration
from companion.vision.dice import (
    CROP_PX_PER_MM,
    CROP_SIDE,
    Under,
    channel_length,
    find_dice,
    read_dice,
)
from companion.vision.table import card_corners
from companion.vision.unlike_table import unlike_table

_COVER_MM2 = 2500.0  # a region this large, off the cards and unlike the table, hides things
# a card not found: a region unlike the table of this share of a card's area, and of its
# length (the die on it, shadows and the frame's colour cut parts off)
_CARD_SHARE, _CARD_LENGTH = (0.4, 1.3), (0.6, 1.25)
_BESIDE_MM = 10.0  # and this near a railway card (which is cut out of `free` 3 mm grown)
# a die on a card: where the card's picture lies this many colour levels from its face, in
# a blob of a die's top face or a good part of it (mm^2, a 16 mm die is 256). On the tuning
# tables (seed 7000) our yellow dice are 90-170 off, dice on dark print as much, the print
# itself a pixel off up to ~40 once opened; a white die on our light blue only 20-35, which
# is not looked for (lower levels found fewer dice: their blobs ran into the print's)
_DIE_ON_FACE, _DIE_MM2 = 40.0, (100.0, 450.0)
# and somewhere in such a blob this many levels off: a die's own colour lies far from the
# print under it, the print a little off its face's grid (a bent card, the hard camera's
# lens and blur) only just past _DIE_ON_FACE. On tuning seeds 7200, 7300 and 8000 (669
# places, each read alone: 73 read as dice) every real die read on a card peaked at 60 or
# more (one place read as a die where none lay, at 48), and 62 % of the places the reader
# turned down (a crop, a layout fit and a count each) below this
_DIE_PEAK = 55.0


def off_the_known(
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


def covered_area(half: np.ndarray, free: np.ndarray, k: float) -> float:
    """How many mm^2 of the table, off everything recognised, are covered by something large
    that is neither table nor game: smooth where the table's surface has grain or print, and
    of another colour than the table's own (its median colour where nothing was found).
    Lighting changes brightness more than colour, so brightness counts half. Looked for at
    half the scale `k` of `half` (a hand is large)."""
    small = cv2.resize(half, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    mask = cv2.resize(free, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST)
    if cv2.countNonZero(mask) < 100:
        return 0.0
    free_px = mask > 0
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    # every 7th free pixel's colour, each channel's median taken along a contiguous row: the
    # same medians as over lab[free_px][::7] along its columns, at a fifth of the time
    sample = lab.reshape(-1, 3)[np.flatnonzero(free_px)[::7]]
    table = np.median(np.ascontiguousarray(sample.T), axis=1)
    weights = np.array([0.5, 1.0, 1.0], np.float32)
    unlike = channel_length((lab - table) * weights) > 15.0
    grey = lab[..., 0]
    mean = cv2.blur(grey, (3, 3))
    texture = np.sqrt(np.maximum(cv2.blur(grey * grey, (3, 3)) - mean * mean, 0.0))
    smooth = texture < 0.5 * float(np.median(texture[free_px]))
    blob = (unlike & smooth & free_px).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(blob)
    mm2_per_px = (2.0 / k) ** 2
    areas = stats[1:, cv2.CC_STAT_AREA] * mm2_per_px
    return float(areas[areas > _COVER_MM2].sum()) if count > 1 else 0.0


def cards_unfound(
    half: np.ndarray, free: np.ndarray, config: VisionConfig, railway: Sequence[SeenCard]
) -> int:
    """How many cards lie beside the `railway`'s cards where no card was found: a die lying
    across a card's printed frame breaks the frame, so the card is not found at all, and
    the railway would be seen a card short with nothing said. Where nothing is known to lie
    (`free`, the top-down mask with the dice found taken out), such a card is a region of
    about a card's size and length unlike the table by chromaticity (`unlike_table`: light
    falling off across the table and shadows change brightness, not the shares of red,
    green and blue), within _BESIDE_MM of a railway card. Only there: a face-down draw
    pile or a box lid elsewhere on the table is no card of the game. A card of the table's
    own colour is not found. Looked for in `half`, the top-down image at half scale (at a
    quarter, cards beside the railway's ran into its cards: 28 of 37 tables with a card
    under a die told on seed 5000, against 37)."""
    if not railway:
        return 0
    k = config.px_per_mm / 2
    mask = cv2.resize(free, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_NEAREST)
    unlike = cv2.bitwise_and(unlike_table(half, config.layout, k), mask)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(unlike)
    beside = np.zeros_like(mask)
    grown = (config.card_mm[0] + 2 * _BESIDE_MM, config.card_mm[1] + 2 * _BESIDE_MM)
    for card in railway:
        cv2.fillConvexPoly(beside, (card_corners(card.pose, grown) * k).round().astype(np.int32), 1)
    card_mm2 = config.card_mm[0] * config.card_mm[1]
    found = 0
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA] / (k * k)
        if not _CARD_SHARE[0] * card_mm2 <= area <= _CARD_SHARE[1] * card_mm2:
            continue
        x, y, w, h = stats[i, :4]
        region = labels[y : y + h, x : x + w] == i
        if not beside[y : y + h, x : x + w][region].any():
            continue
        long_side = max(cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))[1]) / k
        found += _CARD_LENGTH[0] <= long_side / max(config.card_mm) <= _CARD_LENGTH[1]
    return found


def dice_off_the_cards(
    frame: np.ndarray,
    half: np.ndarray,
    calibration: Calibration,
    config: VisionConfig,
    free: np.ndarray,
    on_cards: Sequence[tuple[float, float, Under, int]] = (),
    kept: Sequence[SeenDie] = (),
    changes: Changes | None = None,
    hsv: np.ndarray | None = None,
) -> list[SeenDie]:
    """The dice lying in `free` (`off_the_known`), found in the half-scale top-down image
    and read on finer crops of the original `frame` (dice.read_dice, all at once; a faint
    blob only where the learned count sees a die); the box's own dice by what `companion
    enroll` taught of them when it did (`config.dice`); and with them, in the same read, the
    dice at the places on the cards `on_cards` (`dice_on_the_cards`), a taught die there only
    where its taught colour and size are. The family's own pip dice, when taught
    (`config.pips`), adapt the learned count; a pip die is as sure as what the game
    counts its face for (`config.alike`). The next frame of a camera that did not move
    keeps the dice `kept` (read before, on a picture unchanged round them: unchanged.py)
    and reads only the spots where the picture changed round them (`changes`; None: every
    spot), looking for none when it changed nowhere near `free`. `hsv` is `half` in HSV
    when the caller has it already."""
    found = list(kept)
    taught = config.dice
    k = config.px_per_mm / 2
    anywhere = changes is None or changes.off_the_known(free)

    def new(places: list) -> list:
        return places if changes is None else [p for p in places if changes.near(p[:2])]

    if taught is None:
        spots, faint = find_dice(half, free, k, hsv) if anywhere else ([], [])
        on_a_card = new([(x, y, under) for x, y, under, _ in on_cards])
        spots, faint = new(spots), new(faint)
        readings: list = read_dice(
            frame, calibration, spots, faint, on_a_card, config.pips, alike=config.alike
        )
    else:
        spots = taught.find(half, free, k) if anywhere else []
        spots = new(spots + [(x, y) for x, y, _, _ in on_cards])
        readings = [taught.read(frame, calibration, x, y) for x, y in spots]
    for reading in readings:
        if reading is not None and all(
            math.dist((reading.x, reading.y), die.position) >= 10.0 for die in found
        ):
            found.append(
                SeenDie(
                    reading.kind,
                    reading.face,
                    (round(reading.x, 1), round(reading.y, 1)),
                    round(reading.confidence, 3),
                )
            )
    return found


def dice_on_the_cards(
    top: np.ndarray,
    config: VisionConfig,
    seen: Sequence[SeenCard],
    token: tuple[float, float] | None,
    glow: bool = False,
) -> tuple[list[tuple[float, float, Under, int]], list[int]]:
    """Where a die may lie on one of the `seen` cards (their poses upright, as read), each
    with what that card would show there (`Under`) and the card's index in `seen`: die-sized
    places where the card, cut out of the top-down image `top`, looks unlike the catalogue
    face it was read as. A card's print is known once the card is read, so the card itself
    cannot pass for a die; the face is put in the frame's colours first (a lamp's brightness
    and cast; with `glow`, a lamp's reflection in the frame, its slope across the card too),
    blurred a little, and thin differences (print a pixel off, the frame's edge)
    are opened away. The reader then keeps only what is a die (dice.read_dice). And the
    cards (indices) unlike their face in a place larger than a die: a card that does not lie
    flat is off its face's grid and darker at one end, which hides a die on it. Either only
    where the picture lies `_DIE_PEAK` off its face somewhere: a die's colour, not the
    print a little off its grid or a shaded end alone (each place costs the reader a crop,
    a layout fit and a count, each such card a laying flat and a second look)."""
    if not seen:
        return [], []
    catalogue = config.faces()
    k = config.px_per_mm
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mm2 = config.card_mm[0] * config.card_mm[1] / (TEMPLATE_PX[0] * TEMPLATE_PX[1])
    pictures = np.stack(
        [normalise(card_image(top, card.pose, config.card_mm, k)) for card in seen]
    ).astype(np.float32)
    faces = catalogue.images[[catalogue.codes.index(card.code) for card in seen]]
    hidden = [hidden_by_token(card.pose, token, config.card_mm) for card in seen]
    keep = np.stack([np.ones(TEMPLATE_PX[::-1], bool) if h is None else h == 0 for h in hidden])
    expected, residuals = _in_frame_colours(faces.astype(np.float32), pictures, keep, glow)
    found, unlike = [], []
    for index, card in enumerate(seen):
        residual = cv2.morphologyEx(residuals[index] * keep[index], cv2.MORPH_OPEN, kernel)
        blobs = (residual > _DIE_ON_FACE).astype(np.uint8)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(blobs)
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA] * mm2
            extent = max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) * 1.5
            if _DIE_MM2[0] <= area <= _DIE_MM2[1] and extent <= 30.0:
                if _peak(residual, labels, stats[i], i) < _DIE_PEAK:
                    continue  # the print a little off its face's grid: no die's colour
                x, y = _on_table(card.pose, config.card_mm, centroids[i])
                under = partial(_under, card.pose, config.card_mm, expected[index])
                found.append((x, y, under, index))
            elif (
                area > _DIE_MM2[1]
                and index not in unlike
                and _peak(residual, labels, stats[i], i) >= _DIE_PEAK
            ):
                unlike.append(index)
    return found, unlike


def _peak(residual: np.ndarray, labels: np.ndarray, box: np.ndarray, label: int) -> float:
    """The largest of `residual` over blob `label` of `labels`, whose stats row is `box`."""
    x, y, w, h = (int(v) for v in box[:4])
    inside = labels[y : y + h, x : x + w] == label
    return float(residual[y : y + h, x : x + w][inside].max())


@cache
def _plane(h: int, w: int, glow: bool) -> np.ndarray:
    """The terms a card picture's (h x w pixels) light is fitted with besides its face,
    one row each over its pixels: 1 (a shift), and under a lamp's glow where each pixel
    lies across and along the card (-0.5 to 0.5: a slope)."""
    across, along = np.meshgrid(np.linspace(-0.5, 0.5, w), np.linspace(-0.5, 0.5, h))
    rows = [np.ones(h * w), across.ravel(), along.ravel()] if glow else [np.ones(h * w)]
    plane = np.stack(rows).astype(np.float32)
    plane.setflags(write=False)  # shared by every frame's cards
    return plane


@cache
def _plane_products(h: int, w: int, glow: bool) -> np.ndarray:
    """Each pair of `_plane`'s terms multiplied, pixel by pixel (pixels, terms x terms):
    summed with a card's used pixels, the normal equations' terms-by-terms block."""
    plane = _plane(h, w, glow)
    products = np.ascontiguousarray((plane[:, None] * plane[None]).reshape(len(plane) ** 2, -1).T)
    products.setflags(write=False)
    return products


def _in_frame_colours(
    faces: np.ndarray, pictures: np.ndarray, keep: np.ndarray, glow: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Each catalogue face of `faces` (n, h, w, 3) in the colours of the card's picture in
    `pictures` (each channel scaled and shifted to fit where `keep`, twice: the second time
    without what fitted worst, a die among it), and how far (colour levels) each picture
    lies from its face at each pixel (n, h, w), both lightly blurred. All cards at once: a
    frame's railway is up to twenty of them. With `glow` (a lamp's reflection in the frame)
    each channel also gets a slope across and along the card: the reflection's glow
    brightens one end of a card more than the other, and fitted without it the dark print
    at the bright end was as unlike its face as a die (720p, tuning table 7043)."""
    n, h, w, _ = faces.shape

    def channels(images: np.ndarray) -> np.ndarray:  # (n, 3, pixels): each row contiguous
        return np.ascontiguousarray(images.reshape(n, h * w, 3).transpose(0, 2, 1))

    # the cards one above the other: one blur for all (a card's edge rows blur into the
    # next card's, where no die lies: 12 mm in from every edge)
    blurred = channels(cv2.GaussianBlur(faces.reshape(n * h, w, 3), (5, 5), 0))
    seen = channels(cv2.GaussianBlur(pictures.reshape(n * h, w, 3), (5, 5), 0))
    keep = keep.reshape(n, 1, h * w)
    used = keep.astype(np.float32)[:, 0, :, None]  # (n, pixels, 1): sums as products
    # each channel as gain x face + shift, under a lamp's glow + a slope across and along
    # the card too: least squares by its normal equations, each of their sums over the
    # pixels one product with `used`
    plane = _plane(h, w, glow)  # (terms, pixels): 1, and across and along under a glow
    t = len(plane)
    squares, products = blurred * blurred, blurred * seen
    # each channel times each term (the first, 1, leaves it as it is)
    face_terms = blurred if t == 1 else (blurred[:, :, None] * plane).reshape(n, 3 * t, -1)
    seen_terms = seen if t == 1 else (seen[:, :, None] * plane).reshape(n, 3 * t, -1)
    normal = np.empty((n, 3, t + 1, t + 1))  # float64: sums of squares of levels to 255
    right = np.empty((n, 3, t + 1))
    for _ in range(2):
        normal[:, :, 0, 0] = (squares @ used)[..., 0]
        normal[:, :, 0, 1:] = normal[:, :, 1:, 0] = (face_terms @ used).reshape(n, 3, t)
        normal[:, :, 1:, 1:] = (used[..., 0] @ _plane_products(h, w, glow)).reshape(n, 1, t, t)
        normal += 1e-3 * np.eye(t + 1)
        right[:, :, 0] = (products @ used)[..., 0]
        right[:, :, 1:] = (seen_terms @ used).reshape(n, 3, t)
        beta = np.linalg.solve(normal, right[..., None])[..., 0].astype(np.float32)
        lit = beta[..., 1:2]  # the shift, then each slope times where a pixel lies
        for term in range(1, t):
            lit = lit + beta[..., term + 1 : term + 2] * plane[term]
        off = beta[..., :1] * blurred
        off += lit
        np.subtract(seen, off, out=off)
        residual = np.sqrt(off[:, 0] ** 2 + off[:, 1] ** 2 + off[:, 2] ** 2)  # (n, pixels)
        weight = np.maximum(used.sum(axis=1), 1.0)
        level = (residual[:, None] @ used)[:, 0] / weight  # the mean off, a die's too
        used = (keep[:, 0] & (residual <= 2.5 * level + 1.0)).astype(np.float32)[..., None]
    expected = beta[..., :1] * channels(faces) + lit
    expected = np.ascontiguousarray(expected.transpose(0, 2, 1).reshape(n, h, w, 3))
    return expected, residual.reshape(n, h, w)


def _on_table(pose: Pose, card_mm: tuple[float, float], at: np.ndarray) -> tuple[float, float]:
    """A TEMPLATE_PX pixel (x, y) of a card's upright picture as a table point (mm)."""
    corners = card_corners(pose, card_mm)
    u, v = (at[0] + 0.5) / TEMPLATE_PX[0], (at[1] + 0.5) / TEMPLATE_PX[1]
    point = corners[0] + u * (corners[1] - corners[0]) + v * (corners[3] - corners[0])
    return float(point[0]), float(point[1])


def _under(
    pose: Pose, card_mm: tuple[float, float], expected: np.ndarray, x: float, y: float
) -> np.ndarray:
    """`Under` for a card at `pose` whose face in the frame's colours is `expected`
    (TEMPLATE_PX): that face drawn into the reader's window around (x, y) mm."""
    corners = card_corners(pose, card_mm)[[0, 1, 3]].astype(np.float32)
    card = cv2.getAffineTransform(np.float32([[0, 0], [TEMPLATE_PX[0], 0], [0, TEMPLATE_PX[1]]]),
                                  corners)  # fmt: skip
    half = CROP_SIDE / CROP_PX_PER_MM / 2
    window = np.float32([[x - half, y - half], [x + half, y - half], [x - half, y + half]])
    crop = cv2.getAffineTransform(np.float32([[0, 0], [CROP_SIDE, 0], [0, CROP_SIDE]]), window)
    to_face = cv2.invertAffineTransform(card)
    matrix = to_face[:, :2] @ crop  # crop pixel -> table mm -> face pixel
    matrix[:, 2] += to_face[:, 2]
    return cv2.warpAffine(
        expected, matrix, (CROP_SIDE, CROP_SIDE), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT, borderValue=(-1.0, -1.0, -1.0),
    )  # fmt: skip
