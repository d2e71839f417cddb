"""The table top seen straight from above, drawn in table millimetres: wood, the printed
markers, the shadows, then every card, token, die and hand of a scene where it lies.

The camera (camera.py) then takes this canvas through its lens to a frame. Drawing at
`CANVAS_PX_PER_MM`, finer than any camera sees the table, keeps the pieces' edges honest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import cv2
import numpy as np

from companion.pose import Pose
from companion.synthetic.scene import Card, Hand, Scene
from companion.vision import dice_art
from companion.vision.table import card_corners, rotate

CANVAS_PX_PER_MM = 2.2  # top-view drawing scale, finer than the camera's 1.2-1.9 px/mm
# towards the lamp (high up to the top left; x right, y down, z up): a face turned to it
# is lit more, and a lifted edge's shadow falls away from it
_TO_LAMP = np.array([-0.6, -0.6, 0.53]) / np.linalg.norm([-0.6, -0.6, 0.53])
_SHADOW_OFFSET = np.array([1.5, 1.5])  # a flat piece's shadow peeks out this far, mm


@dataclass(frozen=True)
class CardLift:
    """How one card does not lie flat: `shape` "ends" (bent along its length, both short
    edges up), "middle" (bent along its length, its middle up) or "corner" (one corner
    lifted, `corner` the signs of its x and y in the card's own frame); `rise` the most it
    rises off the table, mm."""

    SHAPES: ClassVar[tuple[str, ...]] = ("ends", "middle", "corner")

    shape: str
    rise: float
    corner: tuple[int, int] = (1, 1)

    def height(self, u: np.ndarray, v: np.ndarray, size: tuple[float, float]) -> np.ndarray:
        """The card's face above the table (mm) at its own coordinates `u`, `v` (mm from its
        centre, upright) for a card of `size` (width, height) mm."""
        half_w, half_h = size[0] / 2, size[1] / 2
        if self.shape == "corner":
            reach = self.corner[0] * u / half_w + self.corner[1] * v / half_h - 1.0
            return self.rise * np.clip(reach, 0.0, 1.0) ** 2
        along = np.clip(v / half_h if half_h >= half_w else u / half_w, -1.0, 1.0)
        bend = along * along if self.shape == "ends" else 1.0 - along * along
        return self.rise * bend


@dataclass(frozen=True)
class Lifts:
    """How every card of a scene does not lie flat (one `CardLift` a card, in the scene's
    order; None for one lying flat) and the camera's `eye` (x, y, height above the table,
    mm) that sees a lifted point away from where it stands over the table."""

    cards: tuple[CardLift | None, ...]
    eye: tuple[float, float, float]


@cache
def _wood_grain(size: tuple[int, int]) -> np.ndarray:
    """The grain of a wooden table top (a shade factor around 1, grain along x): the same
    board under every scene, only its colour changes, so it is made once."""
    w, h = size
    rng = np.random.default_rng(7)
    grain = cv2.resize(rng.normal(0, 1, (h // 6, w // 60)), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(rng.normal(0, 1, (h // 2, w // 12)), (w, h), interpolation=cv2.INTER_LINEAR)
    return (1.0 + 0.10 * grain + 0.04 * fine).astype(np.float32)


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """An ArUco DICT_4X4_50 marker, `side` pixels square, black on white."""
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(aruco.DICT_4X4_50)
    return aruco.generateImageMarker(dictionary, marker_id, side)


def _paste(canvas: np.ndarray, sprite: np.ndarray, x: float, y: float,
           rotation: float) -> None:  # fmt: skip
    """Lay a sprite (drawn at canvas scale) on the canvas, centred at (x, y) mm, rotated
    clockwise, its outline antialiased by its mask."""
    h, w = sprite.shape[:2]
    s = CANVAS_PX_PER_MM
    half = math.hypot(w, h) / 2 + 2
    cx, cy = x * s, y * s
    x0, y0 = max(int(cx - half), 0), max(int(cy - half), 0)
    x1, y1 = min(int(cx + half) + 1, canvas.shape[1]), min(int(cy + half) + 1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    a = math.radians(rotation)
    c, sn = math.cos(a), math.sin(a)
    m = np.array([[c, -sn, 0.0], [sn, c, 0.0]])
    m[:, 2] = np.array([cx - x0, cy - y0]) - m[:, :2] @ np.array([(w - 1) / 2, (h - 1) / 2])
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(sprite, m, size, flags=cv2.INTER_LINEAR)
    _lay(canvas[y0:y1, x0:x1], cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR), warped[..., 3])


_BLENDED_WHOLE_PX = 128 * 128  # a box this small is blended whole: cheaper than sorting it


def _lay(under: np.ndarray, over: np.ndarray, alpha: np.ndarray) -> None:
    """`over` (BGR) laid on `under` in place by its `alpha` (0-255): a large box copied
    where it is whole and blended only where it is partial (its antialiased outline), a
    small one blended whole. Bit for bit OpenCV's `blendLinear` over the whole box (which
    gives `over` at 255 and `under` at 0, and blends pixel by pixel), at a fraction of its
    cost on a board's or a card's box: the synthetic camera lays a few hundred a frame."""
    alpha = np.ascontiguousarray(alpha)
    if alpha.size <= _BLENDED_WHOLE_PX:
        share = alpha.astype(np.float32) * (1 / 255)
        under[...] = cv2.blendLinear(over, under, share, 1.0 - share)
        return
    whole = cv2.threshold(alpha, 254, 255, cv2.THRESH_BINARY)[1]
    outline = cv2.findNonZero(cv2.threshold(alpha, 0, 255, cv2.THRESH_BINARY)[1] - whole)
    if outline is not None:
        columns, rows = outline.reshape(-1, 2).T  # (N, 1, 2) on OpenCV 4, (N, 2) on 5
        share = alpha[rows, columns].astype(np.float32)[:, None] * (1 / 255)
        mixed = cv2.blendLinear(over[rows, columns][:, None], under[rows, columns][:, None],
                                share, 1.0 - share)  # fmt: skip
    cv2.copyTo(over, whole, under)  # in place: `under` is a view of the canvas's box
    if outline is not None:
        under[rows, columns] = mixed[:, 0]


@cache
def _die(kind: str, face: int, colour: str = "white") -> np.ndarray:
    """A die's face at canvas scale as one BGRA image (one warp per paste)."""
    if kind == "wheels":
        return np.dstack(dice_art.draw_wheel_die(face, CANVAS_PX_PER_MM))
    if kind == "pips":
        return np.dstack(dice_art.draw_pip_die(face, CANVAS_PX_PER_MM, colour))
    raise ValueError(f"unknown die kind {kind!r}: use wheels or pips")


def _shadows(scene: Scene, size: tuple[int, int], lifts: Lifts | None) -> np.ndarray:
    """The light left on the table top (1 = lit) where each card, die and token casts its
    soft shadow (a lamp high up to the top left; a lifted card's edge casts it further):
    drawn at a quarter of the canvas scale, where blurring is cheap."""
    s = CANVAS_PX_PER_MM / 4
    w, h = size
    shade = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
    offset = _SHADOW_OFFSET

    def outline(points_mm: np.ndarray, depth: float) -> None:
        pts = ((points_mm + offset) * s * 16).round().astype(np.int32)
        cv2.fillConvexPoly(shade, pts, depth, cv2.LINE_AA, 4)

    for index, card in enumerate(scene.cards):
        lift = None if lifts is None else lifts.cards[index]
        if lift is None:
            outline(card_corners(card.pose, card.size), 0.3)
            continue
        edge = _card_edge(card, lift)
        pts = ((edge + offset) * s * 16).round().astype(np.int32)
        cv2.fillPoly(shade, [pts], 0.3, cv2.LINE_AA, 4)
    for die in scene.dice:
        side = dice_art.DIE_MM
        outline(card_corners(Pose(die.x, die.y, die.rotation), (side, side)), 0.45)
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for token in scene.tokens:
        ring = np.stack([np.cos(angles), np.sin(angles)], 1) * token.diameter / 2
        outline(ring + (token.x, token.y), 0.4)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.2 * CANVAS_PX_PER_MM / 4 + 0.8)
    return 1.0 - cv2.resize(shade, (w // 4 * 4 + 4, h // 4 * 4 + 4))[:h, :w]


def _card_edge(card: Card, lift: CardLift) -> np.ndarray:
    """Where a lifted card's edge casts its shadow on the table (mm, 64 points round it)."""
    w, h = card.size
    t = np.linspace(-0.5, 0.5, 16, endpoint=False)
    one = np.ones_like(t)
    u = np.concatenate([t * w, one * w / 2, -t * w, -one * w / 2])
    v = np.concatenate([-one * h / 2, t * h, one * h / 2, -t * h])
    z = lift.height(u, v, card.size)
    edge = rotate(np.stack([u, v], 1), card.pose.rotation) + (card.pose.x, card.pose.y)
    return edge - z[:, None] * (_TO_LAMP[:2] / _TO_LAMP[2])


def _paste_lifted(
    canvas: np.ndarray, card: Card, lift: CardLift, eye: tuple[float, float, float]
) -> None:
    """Lay a card that does not lie flat: each point of its face is drawn where the camera's
    `eye` sees it (a raised point looks further from the eye's foot than it stands), and
    shaded by how its face turns to the lamp."""
    s = CANVAS_PX_PER_MM
    sprite = card.picture(s)
    h_px, w_px = sprite.shape[:2]
    cx, cy = card.pose.x * s, card.pose.y * s
    half = math.hypot(w_px, h_px) / 2 + 2 + 1.5 * lift.rise * s
    x0, y0 = max(int(cx - half), 0), max(int(cy - half), 0)
    x1, y1 = min(int(cx + half) + 1, canvas.shape[1]), min(int(cy + half) + 1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    qx, qy = np.meshgrid(np.arange(x0, x1) / s, np.arange(y0, y1) / s)
    a = math.radians(card.pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    ex, ey, eh = eye
    px, py = qx, qy
    for _ in range(4):  # the table point whose lifted face the eye sees at (qx, qy)
        dx, dy = px - card.pose.x, py - card.pose.y
        z = lift.height(c * dx + sn * dy, -sn * dx + c * dy, card.size)
        px, py = (qx * (eh - z) + ex * z) / eh, (qy * (eh - z) + ey * z) / eh
    dx, dy = px - card.pose.x, py - card.pose.y
    u, v = c * dx + sn * dy, -sn * dx + c * dy
    step = 0.5  # the face's slope, by central differences over a millimetre
    du = (lift.height(u + step, v, card.size) - lift.height(u - step, v, card.size)) / (2 * step)
    dv = (lift.height(u, v + step, card.size) - lift.height(u, v - step, card.size)) / (2 * step)
    gx, gy = c * du - sn * dv, sn * du + c * dv  # the slope in table directions
    lit = (_TO_LAMP[2] - gx * _TO_LAMP[0] - gy * _TO_LAMP[1]) / np.sqrt(1 + gx * gx + gy * gy)
    shade = (lit / _TO_LAMP[2]).astype(np.float32)
    map_x = (u * s + (w_px - 1) / 2).astype(np.float32)
    map_y = (v * s + (h_px - 1) / 2).astype(np.float32)
    warped = cv2.remap(sprite, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    face = np.clip(warped[..., :3] * shade[..., None], 0, 255).astype(np.uint8)
    _lay(canvas[y0:y1, x0:x1], face, warped[..., 3])


def _hand_polygons(hand: Hand) -> list[np.ndarray]:
    """Palm, four fingers and thumb, and a forearm running 500 mm back: polygons in mm."""
    k = hand.scale
    parts = [np.array([[-45, -40], [45, -40], [50, 40], [-50, 40]]) * k]
    for dx, length in ((-33, 75), (-11, 85), (11, 80), (31, 65)):
        parts.append(np.array([[dx - 9, -38], [dx + 9, -38], [dx + 8, -38 - length],
                               [dx - 8, -38 - length]]) * k)  # fmt: skip
    parts.append(np.array([[40, 10], [58, -5], [95, -50], [80, -60], [45, -25]]) * k)
    parts.append(np.array([[-40, 35], [40, 35], [45, 500], [-45, 500]]) * k)
    return [rotate(p.astype(np.float64), hand.rotation) + (hand.x, hand.y) for p in parts]


def under_a_hand(scene: Scene, corners_mm: np.ndarray) -> bool:
    """Whether any of `scene`'s hands lies over part of the table polygon `corners_mm`
    (N, 2 mm: a piece's outline), as `draw_table` draws them (flat on the table, so the
    camera sees the same): evaluation counts such pieces apart, as it does those a lamp's
    reflection touches, since what a hand covers no reader can see."""
    if not scene.hands:
        return False
    polygons = [p for hand in scene.hands for p in _hand_polygons(hand)]
    origin = np.vstack([corners_mm, *polygons]).min(axis=0) - 1.0
    far = np.vstack([corners_mm, *polygons]).max(axis=0) - origin + 2.0
    piece, hands = (np.zeros((math.ceil(far[1]), math.ceil(far[0])), np.uint8) for _ in range(2))
    cv2.fillPoly(piece, [np.round(corners_mm - origin).astype(np.int32)], 1)
    for polygon in polygons:  # a millimetre's raster: a hand's edge is blurred wider than that
        cv2.fillPoly(hands, [np.round(polygon - origin).astype(np.int32)], 1)
    return bool((piece & hands).any())


def draw_table(scene: Scene, rng: np.random.Generator, lifts: Lifts | None = None) -> np.ndarray:
    """The table top under `scene` at canvas scale (BGR); the wood's colour and the hands'
    skin are drawn from `rng`; the cards lie flat unless `lifts` says how each is curled."""
    layout, s = scene.layout, CANVAS_PX_PER_MM
    size = (round(layout.width * s), round(layout.height * s))
    grain = _wood_grain(size) * _shadows(scene, size, lifts)
    base = np.array([70, 110, 150], np.float32) * rng.uniform(0.85, 1.1)
    canvas = cv2.merge([cv2.convertScaleAbs(grain, alpha=float(b)) for b in base])
    quiet = 6.0  # white paper around each printed marker
    for marker_id, corners in layout.marker_corners().items():
        lo = corners.min(axis=0)
        paper = ((lo - quiet) * s).round().astype(int)
        far = paper + round((layout.marker_mm + 2 * quiet) * s)
        cv2.rectangle(canvas, tuple(map(int, paper)), tuple(map(int, far)), (236, 238, 238), -1)
        side = round(layout.marker_mm * s)
        x0, y0 = (lo * s).round().astype(int)
        marker = marker_image(marker_id, side)
        canvas[y0 : y0 + side, x0 : x0 + side] = np.where(marker[..., None] > 127, 236, 25)
    for index, card in enumerate(scene.cards):
        lift = None if lifts is None else lifts.cards[index]
        if lift is None:
            _paste(canvas, card.picture(s), card.pose.x, card.pose.y, card.pose.rotation)
        else:
            _paste_lifted(canvas, card, lift, lifts.eye)
    for token in scene.tokens:
        _paste(canvas, token.picture(s), token.x, token.y, 0.0)
    for die in scene.dice:
        face = _die(die.kind, die.face, die.colour) if die.picture is None else die.picture(s)
        _paste(canvas, face, die.x, die.y, die.rotation)
    for hand in scene.hands:
        skin = np.array([120, 150, 205]) * rng.uniform(0.8, 1.1)
        for polygon in _hand_polygons(hand):
            pts = (polygon * s * 16).round().astype(np.int32)
            cv2.fillPoly(canvas, [pts], skin.tolist(), cv2.LINE_AA, 4)
    return canvas
