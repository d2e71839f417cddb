"""The caboose token: the one saturated red disc on the table, and the railway card it
stands on. It is found before the cards are matched, because it covers part of the face
of the card it stands on (`card_identity.hidden_by_token`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.observation import SeenCard


def find_caboose(half: np.ndarray, k: float) -> tuple[float, float] | None:
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


def card_under(
    point: tuple[float, float],
    seen: Sequence[SeenCard],
    railway: Sequence[int],
    card_mm: tuple[float, float],
) -> int | None:
    """Where in `railway` (0: its back card) the card under `point` (mm) lies; None when
    the point is on none of its cards."""
    for position, index in enumerate(railway):
        pose = seen[index].pose
        a = math.radians(pose.rotation)
        dx, dy = point[0] - pose.x, point[1] - pose.y
        lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        if abs(lx) <= card_mm[0] / 2 and abs(ly) <= card_mm[1] / 2:
            return position
    return None
