"""What lies on the table off the cards, the markers and the caboose: the dice, read on
the original frame, and anything large that covers the table (a hand), reported because
what lies under it is not seen. Both look only where nothing known lies
(`off_the_known`), so a card's print is never taken for a die or a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.caboose.vision.observation import SeenCard, SeenDie, VisionConfig
from companion.vision.calibrate import Calibration
from companion.vision.dice import find_dice, read_dice
from companion.vision.table import card_corners

_COVER_MM2 = 2500.0  # a region this large, off the cards and unlike the table, hides things


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


def dice_off_the_cards(
    frame: np.ndarray,
    half: np.ndarray,
    calibration: Calibration,
    config: VisionConfig,
    free: np.ndarray,
) -> list[SeenDie]:
    """The dice lying in `free` (`off_the_known`), found in the half-scale top-down image
    and read on finer crops of the original `frame` (dice.read_dice, all at once; a faint
    blob only where the learned count sees a die); the box's own dice by what `companion
    enroll` taught of them when it did (`config.dice`)."""
    found = []
    taught = config.dice
    k = config.px_per_mm / 2
    if taught is None:
        readings: list = read_dice(frame, calibration, *find_dice(half, free, k))
    else:
        spots = taught.find(half, free, k)
        readings = [taught.read(frame, calibration, x, y) for x, y in spots]
    for reading in readings:
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
