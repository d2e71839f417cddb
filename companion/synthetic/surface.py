"""The table top seen straight from above, drawn in table millimetres: wood, the printed
markers, the shadows, then every card, token, die and hand of a scene where it lies.

The camera (camera.py) then takes this canvas through its lens to a frame. Drawing at
`CANVAS_PX_PER_MM`, finer than any camera sees the table, keeps the pieces' edges honest.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from companion.pose import Pose
from companion.synthetic.scene import Hand, Scene
from companion.vision import dice_art
from companion.vision.table import card_corners, rotate

CANVAS_PX_PER_MM = 2.2  # top-view drawing scale, finer than the camera's 1.2-1.9 px/mm


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
    alpha = warped[..., 3].astype(np.float32) * (1 / 255)
    roi = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = cv2.blendLinear(warped[..., :3], roi, alpha, 1.0 - alpha)


@cache
def _die(kind: str, face: int, colour: str = "white") -> np.ndarray:
    """A die's face at canvas scale as one BGRA image (one warp per paste)."""
    if kind == "wheels":
        return np.dstack(dice_art.draw_wheel_die(face, CANVAS_PX_PER_MM))
    if kind == "pips":
        return np.dstack(dice_art.draw_pip_die(face, CANVAS_PX_PER_MM, colour))
    raise ValueError(f"unknown die kind {kind!r}: use wheels or pips")


def _shadows(scene: Scene, size: tuple[int, int]) -> np.ndarray:
    """The light left on the table top (1 = lit) where each card, die and token casts its
    soft shadow (a lamp high up to the top left): drawn at a quarter of the canvas scale,
    where blurring is cheap."""
    s = CANVAS_PX_PER_MM / 4
    w, h = size
    shade = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
    offset = np.array([1.5, 1.5])

    def outline(points_mm: np.ndarray, depth: float) -> None:
        pts = ((points_mm + offset) * s * 16).round().astype(np.int32)
        cv2.fillConvexPoly(shade, pts, depth, cv2.LINE_AA, 4)

    for card in scene.cards:
        outline(card_corners(card.pose, card.size), 0.3)
    for die in scene.dice:
        side = dice_art.DIE_MM
        outline(card_corners(Pose(die.x, die.y, die.rotation), (side, side)), 0.45)
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for token in scene.tokens:
        ring = np.stack([np.cos(angles), np.sin(angles)], 1) * token.diameter / 2
        outline(ring + (token.x, token.y), 0.4)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.2 * CANVAS_PX_PER_MM / 4 + 0.8)
    return 1.0 - cv2.resize(shade, (w // 4 * 4 + 4, h // 4 * 4 + 4))[:h, :w]


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


def draw_table(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The table top under `scene` at canvas scale (BGR); the wood's colour and the hands'
    skin are drawn from `rng`."""
    layout, s = scene.layout, CANVAS_PX_PER_MM
    size = (round(layout.width * s), round(layout.height * s))
    grain = _wood_grain(size) * _shadows(scene, size)
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
    for card in scene.cards:
        _paste(canvas, card.picture(s), card.pose.x, card.pose.y, card.pose.rotation)
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
