"""The caboose token: the one saturated red disc on the table (ours), or the box's own
token as `companion enroll` taught it (`TaughtToken`: LOK'n'ROLL's locomotive, Rollecate's
wooden train); which railway card it stands on is `railway_order.card_under`'s. It is
found before the cards are matched, because it covers part of the face of the card it
stands on (`card_identity.hidden_by_token`).

A taught token is kept in the catalogue folder as `token.json` (format
`caboose-token/1`: its colour, the area of that colour and its length) and `token.png`,
the picture it was taught from.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose.vision import card_art
from companion.vision.taught_dice import Colour, TaughtError, read_taught

TOKEN_FORMAT = "caboose-token/1"


@dataclass(frozen=True)
class TaughtToken:
    """The box's caboose token as taught: the colour of most of it, how many mm^2 of the
    table that colour covers seen from above, its length (mm, its outline's longer side)
    and the picture it was taught from (BGR)."""

    colour: Colour
    area_mm2: float
    length_mm: float
    picture: np.ndarray

    @classmethod
    def learn(cls, picture: np.ndarray, px_per_mm: float) -> TaughtToken:
        """The token in `picture` (cut out straight at `px_per_mm`, BGRA: its outline in
        alpha): its commonest colour, that colour's area and the outline's length."""
        outline = picture[..., 3] > 127
        colour = Colour.of(picture[..., :3][outline])
        hsv = cv2.cvtColor(np.ascontiguousarray(picture[..., :3]), cv2.COLOR_BGR2HSV)
        area = float(((colour.mask(hsv) > 0) & outline).sum()) / px_per_mm**2
        length = max(picture.shape[:2]) / px_per_mm
        return cls(colour, area, length, picture[..., :3].copy())

    def save(self, folder: Path) -> None:
        """Write `token.json` and `token.png` into `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / "token.png"), self.picture)
        doc = {"format": TOKEN_FORMAT, "colour": self.colour.as_json(),
               "area_mm2": round(self.area_mm2, 1), "length_mm": round(self.length_mm, 1),
               "image": "token.png"}  # fmt: skip
        (folder / "token.json").write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path) -> TaughtToken | None:
        """The token taught in `folder` (`save`), None when none was; TaughtError says why
        a `token.json` there cannot be used."""
        index = folder / "token.json"
        doc = read_taught(index, TOKEN_FORMAT)
        if doc is None:
            return None
        area, length = doc.get("area_mm2"), doc.get("length_mm")
        if not all(isinstance(v, (int, float)) and 10.0 <= v <= 5000.0 for v in (area, length)):
            raise TaughtError(f"{index}: area_mm2 and length_mm must be a token's size in mm")
        picture = cv2.imread(str(folder / str(doc.get("image", ""))), cv2.IMREAD_COLOR)
        if picture is None:
            raise TaughtError(f"{index}: its image is missing or unreadable")
        colour = Colour.from_json(doc.get("colour"), str(index))
        return cls(colour, float(area), float(length), picture)  # type: ignore[arg-type]


def find_caboose(
    half: np.ndarray,
    k: float,
    taught: TaughtToken | None = None,
    cards: Sequence[np.ndarray] = (),
    hsv: np.ndarray | None = None,
) -> tuple[float, float] | None:
    """The centre (mm) of the largest saturated red disc of about the token's size, looked
    for in the top-down image at half scale `k` (the token is 20 mm: 10 pixels suffice);
    of the taught token's colour and size instead when one was taught. The caboose stands
    on a railway card: a red disc on one of `cards` (their corners in mm) wins over any
    off them, so a red die thrown beside the railway, as large as the token, is not it.
    `hsv` is `half` in HSV when the caller has it already (the dice finder needs it too)."""
    if hsv is None:
        hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    if taught is not None:
        return _find_taught(hsv, k, taught)
    # red's hue wraps round 180: its two ends, each with saturation >= 120 and value >= 50
    red = cv2.bitwise_or(
        cv2.inRange(hsv, (0, 120, 50), (8, 255, 255)),
        cv2.inRange(hsv, (172, 120, 50), (255, 255, 255)),
    )
    count, _, stats, centroids = cv2.connectedComponentsWithStats(red)
    disc = math.pi * (card_art.CABOOSE_MM / 2) ** 2 * k * k
    found = []  # (on a card, area, centre mm)
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if 0.25 * disc < area < 2.0 * disc and max(w, h) < 1.6 * card_art.CABOOSE_MM * k:
            centre = (float(centroids[i][0] / k), float(centroids[i][1] / k))
            on = any(
                cv2.pointPolygonTest(corners.astype(np.float32), centre, False) >= 0
                for corners in cards
            )
            found.append((on, area, centre))
    return max(found)[2] if found else None


def _find_taught(hsv: np.ndarray, k: float, taught: TaughtToken) -> tuple[float, float] | None:
    """The centre (mm) of the blob of the taught token's colour whose area is nearest the
    taught one, and not longer than the token, in the half-scale top-down image `hsv`."""
    mask = taught.colour.mask(hsv)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask)
    best, best_off = None, 0.6  # an area off by more than this share is not the token
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA] / k**2
        w, h = stats[i, cv2.CC_STAT_WIDTH] / k, stats[i, cv2.CC_STAT_HEIGHT] / k
        off = abs(area / taught.area_mm2 - 1.0)
        if off < best_off and max(w, h) <= 1.5 * taught.length_mm + 2.0 / k:
            best, best_off = (float(centroids[i][0] / k), float(centroids[i][1] / k)), off
    return best
