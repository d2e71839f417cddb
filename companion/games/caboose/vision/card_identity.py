"""Which card lies at a pose, and which of its ends is its top: the card cut out of the
top-down image (`card_image`, also what enrollment stores) and matched against the
catalogue of faces, the caboose's place left out (`match_faces`); and where its print puts
it, to a fraction of a mm, when only its outline placed it (`locate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, FaceMatch
from companion.games.caboose.vision.observation import VisionConfig
from companion.pose import Pose
from companion.vision.table import card_corners, on_card

_LOCATE_PX = 3  # how far (TEMPLATE_PX pixels, 1.5 mm each) `locate` looks round a card


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


def locate(top: np.ndarray, pose: Pose, match: FaceMatch, config: VisionConfig) -> Pose:
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


def match_faces(
    top: np.ndarray,
    poses: Sequence[Pose],
    config: VisionConfig,
    token: tuple[float, float] | None,
    *,
    closely: bool = True,
    washed: np.ndarray | None = None,
) -> list[FaceMatch]:
    """The catalogue's best face for the card at each pose, the caboose's place left out,
    and what a lamp's reflection washed out (`washed`, a mask of `top`, or None).
    `closely=False` (Catalogue.match_all) where only whether and where a face fits counts:
    a printed deck's candidate pieces of a region, and its cards before `locate`."""
    return config.faces().match_all(
        [card_image(top, pose, config.card_mm, config.px_per_mm) for pose in poses],
        [hidden(pose, token, washed, config) for pose in poses],
        closely=closely,
    )


def hidden(
    pose: Pose, token: tuple[float, float] | None, washed: np.ndarray | None, config: VisionConfig
) -> np.ndarray | None:
    """Where the caboose covers the card's face and a lamp's reflection washed it out
    (`washed`, a mask of the top-down image), as a TEMPLATE_PX mask, or None."""
    mask = hidden_by_token(pose, token, config.card_mm)
    if washed is None or not _touches(washed, pose, config):
        return mask
    crop = card_image(washed, pose, config.card_mm, config.px_per_mm)
    if not crop.any():
        return mask
    glared = (cv2.resize(crop, TEMPLATE_PX, interpolation=cv2.INTER_AREA) > 0).astype(np.uint8)
    return glared if mask is None else glared | mask


def _touches(washed: np.ndarray, pose: Pose, config: VisionConfig) -> bool:
    """Whether anything of `washed` lies in the box round the card at `pose` (2 px more, for
    `card_image`'s interpolation, cut to the image, whose edge it repeats): a card far from
    the glare (most of a table's) is then not cut out of it only to find it empty."""
    corners = card_corners(pose, config.card_mm) * config.px_per_mm
    height, width = washed.shape
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int) - 2, 0, (width - 1, height - 1))
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + 3, 1, (width, height))
    return bool(washed[y0:y1, x0:x1].any())


def hidden_by_token(
    pose: Pose, token: tuple[float, float] | None, card_mm: tuple[float, float]
) -> np.ndarray | None:
    """Where the caboose covers the card's face, as a TEMPLATE_PX mask, or None."""
    if token is None:
        return None
    local = on_card(pose, token)
    radius = card_art.CABOOSE_MM / 2 + 2.0
    if abs(local[0]) > card_mm[0] / 2 + radius or abs(local[1]) > card_mm[1] / 2 + radius:
        return None
    mask = np.zeros((TEMPLATE_PX[1], TEMPLATE_PX[0]), np.uint8)
    hide(mask, local, radius, card_mm)
    return mask


def hide(
    mask: np.ndarray, local: tuple[float, float], radius_mm: float, card_mm: tuple[float, float]
) -> None:
    """Mark on a card face's TEMPLATE_PX `mask` the disc of `radius_mm` round `local` (mm in
    the card's own frame, `on_card`): what a piece lying there hides of the face."""
    sx, sy = TEMPLATE_PX[0] / card_mm[0], TEMPLATE_PX[1] / card_mm[1]
    centre = (round((local[0] + card_mm[0] / 2) * sx), round((local[1] + card_mm[1] / 2) * sy))
    cv2.circle(mask, centre, round(radius_mm * sx), 1, -1)
