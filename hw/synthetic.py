"""The synthetic table: what an overhead camera sees, rendered deterministically from a seed.

It stands in for the camera in the tests, the demo and `companion eval-vision`, so it must
be honest about what makes a real frame hard: a camera that is not straight above (tilt,
rotation), a cheap lens (barrel distortion), a lamp to one side (uneven light, shadows), a
small sensor (noise), focus (blur) and JPEG compression. Each is a field of `Camera`, with
`Camera.easy()` and `Camera.hard()` presets.

The scene is drawn in table millimetres on a top-view canvas, then one remap takes it
through the camera (homography, then lens distortion) to the 1456x1088 frame, so every
object's true pose is known exactly in table mm. Poses are companion.games.caboose.rules.geometry's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.geometry import Pose
from companion.games.caboose.vision import card_art
from companion.hardware import FRAME_SIZE
from companion.vision.table import TableLayout, card_corners, rotate

CANVAS_PX_PER_MM = 2.2  # top-view drawing scale, finer than the camera's 1.2-1.9 px/mm
_MAP_STEP = 8  # the camera remap is computed on this grid and interpolated: it is smooth


@dataclass(frozen=True)
class PlacedCard:
    code: str
    pose: Pose


@dataclass(frozen=True)
class PlacedDie:
    """A die off the cards: kind "wheels" (faces 0-2) or "pips" (faces 1-6), centre in mm."""

    kind: str
    face: int
    x: float
    y: float
    rotation: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A player's hand and forearm, palm centre at (x, y) mm, fingers pointing `rotation`
    degrees clockwise from table-up, the arm reaching in from the other side; `scale` 1 is
    an adult hand."""

    x: float
    y: float
    rotation: float
    scale: float = 1.0


@dataclass(frozen=True)
class Scene:
    """A table: every card with its pose, the railway as card indices back to front, the card
    the caboose stands on (and where), the dice, and any hands over the table."""

    cards: tuple[PlacedCard, ...]
    railway: tuple[int, ...]
    caboose: int | None = None  # index into `cards`
    caboose_at: tuple[float, float] | None = None
    dice: tuple[PlacedDie, ...] = ()
    hands: tuple[Hand, ...] = ()
    card_mm: tuple[float, float] = card_art.CARD_MM
    layout: TableLayout = field(default_factory=TableLayout)
    design: str = "ours"  # "ours" (card_art) or "printed" (printed_card: a deck we do not ship)


@dataclass(frozen=True)
class Camera:
    """How hard the camera has it. `tilt` is the most the camera leans off vertical and
    `rotation` the most it is turned about its axis (degrees); `distortion` the lens's radial
    k1 at worst; `light` and `shadow` the fraction of brightness lost at worst; `noise` the
    sensor noise's standard deviation in grey levels; `blur` a Gaussian sigma in pixels. The
    renderer draws each frame's tilt, distortion, light and blur between 0.5x and 1x of these,
    and its rotation anywhere in +/- `rotation`, from the seed."""

    tilt: float = 6.0
    rotation: float = 4.0
    distortion: float = 0.0
    light: float = 0.1
    shadow: float = 0.0
    noise: float = 2.0
    blur: float = 0.4
    jpeg_quality: int = 92
    frame_size: tuple[int, int] = FRAME_SIZE

    @classmethod
    def easy(cls) -> Camera:
        """A camera almost straight above, even light, a clean sensor."""
        return cls()

    @classmethod
    def hard(cls) -> Camera:
        """A camera on a bent arm, a lamp to one side, a cheap lens and a noisy sensor."""
        return cls(
            tilt=30.0,
            rotation=180.0,
            distortion=0.04,
            light=0.45,
            shadow=0.35,
            noise=6.0,
            blur=1.1,
            jpeg_quality=70,
        )

    @classmethod
    def preset(cls, name: str) -> Camera:
        """ "easy" or "hard"; ValueError names the presets."""
        if name not in ("easy", "hard"):
            raise ValueError(f"unknown camera preset {name!r}: use easy or hard")
        return cls.easy() if name == "easy" else cls.hard()


def camera_homography(
    layout: TableLayout, frame_size: tuple[int, int], tilt: float, azimuth: float, roll: float
) -> tuple[np.ndarray, float]:
    """Homography from table mm to (undistorted) frame pixels of a camera aimed at the table's
    centre, tilted `tilt` degrees towards `azimuth` and rolled `roll` degrees about its axis,
    with the focal length that just fits the whole table in the frame; and that focal length."""
    width, height = frame_size
    centre = np.array([layout.width / 2, layout.height / 2, 0.0])
    axis = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth)), 0.0])
    tilt_r = cv2.Rodrigues(axis * math.radians(tilt))[0]
    roll_r = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(roll)]))[0]
    rot = roll_r @ tilt_r  # world (x right, y down, z into the table) to camera
    look = rot.T @ np.array([0.0, 0.0, 1.0])
    position = centre - 1500.0 * look
    corners = np.array(
        [[0, 0, 0], [layout.width, 0, 0], [layout.width, layout.height, 0], [0, layout.height, 0]]
    )
    cam = (corners - position) @ rot.T
    xy = cam[:, :2] / cam[:, 2:]
    focal = 0.94 * min(width / 2 / np.abs(xy[:, 0]).max(), height / 2 / np.abs(xy[:, 1]).max())
    k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    t = -rot @ position
    return k @ np.column_stack([rot[:, 0], rot[:, 1], t]), focal


@dataclass(frozen=True)
class View:
    """Where one rendered frame's camera stood: the homography from table mm to undistorted
    pixels, the focal length and lens k1 that distort them, and the frame size. Tests use it
    to know exactly where a table point lands in the frame."""

    homography: np.ndarray
    focal: float
    k1: float
    frame_size: tuple[int, int]

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Frame pixels (N, 2) of table points (N, 2) in mm, lens distortion included."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        undistorted = cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)
        centre = np.array(self.frame_size, np.float64) / 2
        u = (undistorted - centre) / self.focal
        r_u = np.hypot(u[:, 0], u[:, 1])
        r_d = r_u.copy()
        for _ in range(20):  # the lens maps distorted radius r_d to r_d / (1 + k1 r_d^2)
            r_d = r_u * (1.0 + self.k1 * r_d * r_d)
        factor = np.divide(r_d, r_u, out=np.ones_like(r_u), where=r_u > 0)
        return u * factor[:, None] * self.focal + centre


def camera_view(seed: int, camera: Camera, layout: TableLayout) -> View:
    """The camera of the frame rendered with `seed`: drawn first from the seed's generator,
    so `render` and the tests agree on it."""
    rng = np.random.default_rng(seed)
    return _draw_view(rng, camera, layout)


def _draw_view(rng: np.random.Generator, camera: Camera, layout: TableLayout) -> View:
    homography, focal = camera_homography(
        layout,
        camera.frame_size,
        camera.tilt * rng.uniform(0.5, 1.0),
        rng.uniform(0, 360),
        rng.uniform(-camera.rotation, camera.rotation),
    )
    k1 = camera.distortion * rng.uniform(0.5, 1.0)
    return View(homography, float(focal), float(k1), camera.frame_size)


def render(scene: Scene, seed: int, camera: Camera | None = None) -> np.ndarray:
    """The BGR frame an overhead camera sees of `scene`; the same seed gives the same image.
    `camera_view(seed, camera, scene.layout)` tells where the camera stood."""
    camera = camera or Camera.easy()
    rng = np.random.default_rng(seed)
    view = _draw_view(rng, camera, scene.layout)
    canvas = _draw_table(scene, rng)
    width, height = camera.frame_size
    focal, k1 = view.focal, view.k1
    # one remap: distorted pixel -> undistorted pixel -> table mm -> canvas pixel, computed
    # on a coarse grid and interpolated (the mapping is smooth; this saves ~150 ms)
    gw, gh = width // _MAP_STEP + 2, height // _MAP_STEP + 2
    u, v = np.meshgrid(
        np.arange(gw, dtype=np.float64) * _MAP_STEP, np.arange(gh, dtype=np.float64) * _MAP_STEP
    )
    xd, yd = (u - width / 2) / focal, (v - height / 2) / focal
    undistort = 1.0 / (1.0 + k1 * (xd * xd + yd * yd))
    pts = np.stack([xd * undistort * focal + width / 2, yd * undistort * focal + height / 2], -1)
    table_mm = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(view.homography))
    coarse = (table_mm.reshape(gh, gw, 2) * CANVAS_PX_PER_MM).astype(np.float32)
    fine = cv2.resize(coarse, (gw * _MAP_STEP, gh * _MAP_STEP), interpolation=cv2.INTER_LINEAR)
    shift = _MAP_STEP / 2 - 0.5  # resize aligns pixel centres, the grid aligns corners
    fine = cv2.warpAffine(fine, np.float32([[1, 0, -shift], [0, 1, -shift]]), (width, height))
    map_xy, map_frac = cv2.convertMaps(fine, None, cv2.CV_16SC2)  # fixed point: faster remap
    frame = cv2.remap(canvas, map_xy, map_frac, cv2.INTER_LINEAR, borderValue=(40, 45, 50))
    light = _lighting(rng, camera, width, height)
    frame = (frame * cv2.merge([light, light, light])).astype(np.uint8)
    if camera.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), camera.blur * rng.uniform(0.5, 1.0))
    if camera.noise > 0:
        noise = _noise_field(width, height)
        ox, oy = int(rng.integers(0, width)), int(rng.integers(0, height))
        sample = noise[oy : oy + height, ox : ox + width] * (camera.noise / 16.0)
        frame = cv2.add(frame, sample.astype(np.int16), dtype=cv2.CV_8U)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg_quality])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else frame


@cache
def _noise_field(width: int, height: int) -> np.ndarray:
    """Gaussian sensor noise (sigma 16) twice the frame size; each frame takes a window of it
    at a seeded offset, which is as random as fresh noise and ten times cheaper."""
    rng = np.random.default_rng(0)
    return rng.normal(0, 16.0, (2 * height, 2 * width, 3)).astype(np.float32)


def _lighting(rng: np.random.Generator, c: Camera, width: int, height: int) -> np.ndarray:
    """A multiplicative light field: a gradient from a lamp to one side plus soft shadows."""
    y, x = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (x / width - 0.5) * math.cos(angle) + (y / height - 0.5) * math.sin(angle)
    light = 1.0 - c.light * rng.uniform(0.5, 1.0) * (ramp - ramp.min()) / np.ptp(ramp)
    small = np.ones_like(light)
    for _ in range(int(rng.integers(1, 3)) if c.shadow > 0 else 0):
        centre = (int(rng.uniform(0, x.shape[1])), int(rng.uniform(0, x.shape[0])))
        axes = (int(rng.uniform(10, 40)), int(rng.uniform(5, 20)))
        cv2.ellipse(small, centre, axes, rng.uniform(0, 180), 0, 360, 1 - c.shadow, -1)
    small = cv2.GaussianBlur(small, (0, 0), 4)
    return cv2.resize(light * small, (width, height), interpolation=cv2.INTER_LINEAR)


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


# the printed deck's colours: sky and ground of each kind's art (BGR), all unlike the wood
_PRINTED_SKY = {cards.TRACK: (240, 214, 168), cards.BROKEN: (214, 216, 212),
                cards.CHAOS: (226, 178, 214)}  # fmt: skip
_PRINTED_GROUND = {cards.TRACK: (112, 182, 124), cards.BROKEN: (150, 142, 128),
                   cards.CHAOS: (166, 92, 148)}  # fmt: skip
_PRINTED_BADGE = {cards.TRACK: (90, 50, 20), cards.BROKEN: (20, 60, 120),
                  cards.CHAOS: (90, 20, 70)}  # fmt: skip


@cache
def printed_card(
    code: str, px_per_mm: float = 4.0, card_mm: tuple[float, float] = card_art.CARD_MM
) -> card_art.Sprite:
    """A face of a commercial-looking deck that is not ours, as a stand-in for the real printed
    decks whose art we do not ship: full-bleed art to the cut edge (no white border, no inset
    frame), a sky over a hilly ground whose colours say the kind, a ballasted track with
    sleepers between geometry's rail ends (a gap and a warning board when broken, a lightning
    bolt and no track on a chaos card), the value as a big white numeral on a dark badge top
    right and a small one upside down bottom left (the only difference between the values:
    the art is the same), rounded corners. Two such cards laid edge to edge show no band
    between them: only the art changing at the cut, and the table where the hand left a
    gap. Portrait, rotation 0, as card_art.draw_card."""
    value, kind, shape = cards.parse(code)
    w_mm, h_mm = card_mm
    h, w = round(h_mm * px_per_mm), round(w_mm * px_per_mm)

    def pt(x: float, y: float) -> tuple[int, int]:  # card mm from the centre, 1/16 px
        return (round((x + w_mm / 2) * px_per_mm * 16), round((y + h_mm / 2) * px_per_mm * 16))

    def mm(length: float) -> int:
        return max(1, round(length * px_per_mm))

    img = np.empty((h, w, 3), np.uint8)
    img[:] = _PRINTED_SKY[kind]
    xs = np.linspace(-w_mm / 2, w_mm / 2, 60)
    horizon = 0.1 * h_mm + 4.0 * np.sin(xs * 2 * np.pi / 40.0)  # hills
    ground = [pt(x, y) for x, y in zip(xs, horizon, strict=True)]
    ground += [pt(w_mm / 2, h_mm / 2), pt(-w_mm / 2, h_mm / 2)]
    cv2.fillPoly(img, [np.array(ground, np.int32)], _PRINTED_GROUND[kind], cv2.LINE_AA, 4)
    cv2.ellipse(img, pt(-12, -28), (mm(9) * 16, mm(4) * 16), 0, 0, 360,
                (250, 250, 250), -1, cv2.LINE_AA, 4)  # fmt: skip
    if kind == cards.CHAOS:
        bolt = [(-4, -22), (9, -22), (2, -4), (11, -4), (-7, 24), (-2, 3), (-10, 3)]
        cv2.fillPoly(img, [np.array([pt(x, y) for x, y in bolt], np.int32)], (250, 250, 250),
                     cv2.LINE_AA, 4)  # fmt: skip
    else:
        path = card_art._track_path(shape, w_mm, h_mm)  # the rail ends' line
        poly = np.array([pt(x, y) for x, y in path], np.int32)
        cv2.polylines(img, [poly], False, (132, 136, 140), mm(14), cv2.LINE_AA, 4)  # ballast
        steps = np.hypot(*np.diff(path, axis=0).T)
        along = np.concatenate([[0.0], np.cumsum(steps)])
        for at in np.arange(2.0, along[-1] - 1.0, 4.5):
            i = min(max(int(np.searchsorted(along, at)), 1), len(path) - 1)
            d = (path[i] - path[i - 1]) / max(steps[i - 1], 1e-6)
            mid, n = path[i - 1] + d * (at - along[i - 1]), np.array([-d[1], d[0]]) * 5.5
            cv2.line(img, pt(*(mid - n)), pt(*(mid + n)), (50, 62, 80), mm(1.6), cv2.LINE_AA, 4)
        normals = np.gradient(path, axis=0)[:, ::-1] * (1, -1)
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        for side in (-2.6, 2.6):
            rail = np.array([pt(*(p + side * q)) for p, q in zip(path, normals, strict=True)])
            cv2.polylines(img, [rail.astype(np.int32)], False, (196, 196, 200), mm(0.9),
                          cv2.LINE_AA, 4)  # fmt: skip
        if kind == cards.BROKEN:
            centre = path[len(path) // 2]
            cv2.circle(img, pt(*centre), mm(8) * 16, _PRINTED_GROUND[kind], -1, cv2.LINE_AA, 4)
            x, y = centre
            cv2.rectangle(img, pt(x - 10, y - 3), pt(x + 10, y + 3), (20, 20, 20), -1,
                          cv2.LINE_AA, 4)  # fmt: skip
            for stripe in range(-8, 10, 6):
                cv2.rectangle(img, pt(x + stripe - 1.5, y - 2), pt(x + stripe + 1.5, y + 2),
                              (30, 200, 240), -1, cv2.LINE_AA, 4)  # fmt: skip
    font = cv2.FONT_HERSHEY_SIMPLEX
    for centre, height, turn in (((w_mm / 2 - 13, -h_mm / 2 + 14), 15.0, False),
                                 ((-w_mm / 2 + 7, h_mm / 2 - 7), 5.0, True)):  # fmt: skip
        badge = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(badge, pt(*centre), mm(height * 0.85) * 16, 255, -1, cv2.LINE_AA, 4)
        thick = mm(height / 6)
        (_, th), _ = cv2.getTextSize(str(value), font, 1.0, thick)
        scale = height * px_per_mm / th
        (tw, th), _ = cv2.getTextSize(str(value), font, scale, thick)
        digit = np.zeros(img.shape[:2], np.uint8)
        cx, cy = pt(*centre)
        org = (round(cx / 16 - tw / 2), round(cy / 16 + th / 2))
        cv2.putText(digit, str(value), org, font, scale, 255, thick, cv2.LINE_AA)
        if turn:
            digit = cv2.warpAffine(digit, cv2.getRotationMatrix2D((cx / 16, cy / 16), 180, 1),
                                   (w, h))  # fmt: skip
        img[badge > 127] = _PRINTED_BADGE[kind]
        alpha = (digit.astype(np.float32) / 255)[..., None]
        img = (img * (1 - alpha) + 250 * alpha).astype(np.uint8)
    return img, card_art._rounded_rect((h, w), mm(card_art.CORNER_MM))


@cache
def _sprite(kind: str, what: str | int) -> np.ndarray:
    """A card, die or caboose face at canvas scale as one BGRA image (one warp per paste)."""
    s = CANVAS_PX_PER_MM
    if kind == "card":
        image, mask = card_art.draw_card(str(what), s)
    elif kind == "printed":
        image, mask = printed_card(str(what), s)
    elif kind == "wheels":
        image, mask = card_art.draw_wheel_die(int(what), s)
    elif kind == "pips":
        image, mask = card_art.draw_pip_die(int(what), s)
    else:
        image, mask = card_art.draw_caboose(s)
    return np.dstack([image, mask])


def _shadows(scene: Scene, size: tuple[int, int]) -> np.ndarray:
    """The light left on the table top (1 = lit) where each card, die and the caboose casts
    its soft shadow (a lamp high up to the top left): drawn at a quarter of the canvas scale,
    where blurring is cheap."""
    s = CANVAS_PX_PER_MM / 4
    w, h = size
    shade = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
    offset = np.array([1.5, 1.5])

    def outline(points_mm: np.ndarray, depth: float) -> None:
        pts = ((points_mm + offset) * s * 16).round().astype(np.int32)
        cv2.fillConvexPoly(shade, pts, depth, cv2.LINE_AA, 4)

    for placed in scene.cards:
        outline(card_corners(placed.pose, scene.card_mm), 0.3)
    for die in scene.dice:
        side = card_art.DIE_MM
        outline(card_corners(Pose(die.x, die.y, die.rotation), (side, side)), 0.45)
    if scene.caboose_at is not None:
        angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ring = np.stack([np.cos(angles), np.sin(angles)], 1) * card_art.CABOOSE_MM / 2
        outline(ring + scene.caboose_at, 0.4)
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


def _draw_table(scene: Scene, rng: np.random.Generator) -> np.ndarray:
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
    if scene.design not in ("ours", "printed"):
        raise ValueError(f"unknown card design {scene.design!r}: use ours or printed")
    kind = "card" if scene.design == "ours" else "printed"
    draw = card_art.draw_card if scene.design == "ours" else printed_card
    for placed in scene.cards:
        sprite = (
            _sprite(kind, placed.code)
            if scene.card_mm == card_art.CARD_MM
            else np.dstack(draw(placed.code, s, scene.card_mm))
        )
        _paste(canvas, sprite, placed.pose.x, placed.pose.y, placed.pose.rotation)
    if scene.caboose_at is not None:
        x, y = scene.caboose_at
        _paste(canvas, _sprite("caboose", 0), x, y, 0.0)
    for die in scene.dice:
        _paste(canvas, _sprite(die.kind, die.face), die.x, die.y, die.rotation)
    for hand in scene.hands:
        skin = np.array([120, 150, 205]) * rng.uniform(0.8, 1.1)
        for polygon in _hand_polygons(hand):
            pts = (polygon * s * 16).round().astype(np.int32)
            cv2.fillPoly(canvas, [pts], skin.tolist(), cv2.LINE_AA, 4)
    return canvas


# --- scenes -------------------------------------------------------------------------------


def _inside(pose: Pose, card_mm: tuple[float, float], area: tuple[float, ...]) -> bool:
    corners = card_corners(pose, card_mm)
    left, top, right, bottom = area
    low, high = corners.min(axis=0), corners.max(axis=0)
    return bool(low[0] >= left and low[1] >= top and high[0] <= right and high[1] <= bottom)


def _touches_other_end(
    codes: list[str], poses: list[Pose], code: str, pose: Pose, card_mm: tuple[float, float]
) -> bool:
    """Whether a new card's rail ends would touch any rail end but the front's open one:
    a loop, legal in some editions, but then the picture alone cannot order the railway."""
    ends = geometry.rail_ends(code, pose, card_mm)
    for index, (other_code, other) in enumerate(zip(codes, poses, strict=True)):
        for end in geometry.rail_ends(other_code, other, card_mm):
            if index == len(codes) - 1 and end in geometry.open_ends(codes, poses, card_mm):
                continue
            if any(math.dist(end, new) < 5.0 for new in ends):
                return True
    return False


def lay_railway(
    rng: np.random.Generator,
    n: int,
    ed: editions.Edition,
    layout: TableLayout,
    budget: int = 4000,
) -> list[PlacedCard] | None:
    """A railway of `n` track cards of the edition's deck laid by the rules
    (geometry.legal_placements: each card joins the front's open rail end, edge to edge, none
    overlapping) inside the play area and without loops: a depth-first search over random
    cards and placements; None when `budget` placements were tried without success."""
    size = ed.card_mm
    area = layout.play_area()
    left, top, right, bottom = area
    track = sorted({c for c in ed.deck if not cards.is_chaos(c)})
    weights = np.array([sum(1 for d in ed.deck if d == c) for c in track], np.float64)
    first = Pose(
        float(rng.uniform(left + 120, right - 120)),
        float(rng.uniform(top + 120, bottom - 120)),
        float(rng.choice([0.0, 90.0, 180.0, 270.0])),
    )
    laid: list[str] = [str(rng.choice(track, p=weights / weights.sum()))]
    poses: list[Pose] = [first]
    tried = 0

    def extend() -> bool:
        nonlocal tried
        if len(laid) == n:
            return True
        order = rng.choice(len(track), size=len(track), replace=False, p=weights / weights.sum())
        for code in (track[i] for i in order[:4]):
            options = geometry.legal_placements(ed, laid, poses, code)
            for index in rng.permutation(len(options)):
                pose = options[index]
                tried += 1
                if tried > budget:
                    return False
                if not _inside(pose, size, area) or _touches_other_end(
                    laid, poses, code, pose, size
                ):
                    continue
                laid.append(code)
                poses.append(pose)
                if extend():
                    return True
                laid.pop()
                poses.pop()
        return False

    if not extend():
        return None
    return [PlacedCard(c, p) for c, p in zip(laid, poses, strict=True)]


def _clear_of(point: np.ndarray, radius: float, placed: list[PlacedCard], card_mm) -> bool:
    for card in placed:
        local = rotate((point - (card.pose.x, card.pose.y))[None, :], -card.pose.rotation)[0]
        gap = np.maximum(np.abs(local) - np.array(card_mm) / 2, 0)
        if np.hypot(*gap) < radius:
            return False
    return True


def random_scene(
    seed: int,
    edition: str = "rollecate",
    n_cards: int | None = None,
    n_dice: int | None = None,
    *,
    loose_cards: int = 0,
    jitter_mm: float = 0.8,
    jitter_deg: float = 1.5,
    layout: TableLayout | None = None,
) -> Scene:
    """A table in the middle of a game: a legal railway of `n_cards` track cards (3-20 drawn
    from the seed when None) laid edge to edge by geometry.legal_placements, each nudged by
    up to `jitter_mm` and `jitter_deg` as a hand lays it; the caboose on one railway card;
    `n_dice` dice (1-4 when None, wheel or pip dice) and `loose_cards` cards lying apart
    (a chaos card, a card put down), all off the railway."""
    rng = np.random.default_rng(seed)
    layout = layout or TableLayout()
    ed = editions.load(edition)
    n = int(rng.integers(3, 21)) if n_cards is None else n_cards
    if not 1 <= n <= 20:
        raise ValueError(f"a scene holds 1 to 20 railway cards, not {n}")
    if n_dice is not None and not 0 <= n_dice <= 4:
        raise ValueError(f"a scene holds 0 to 4 dice, not {n_dice}")
    railway = None
    for _attempt in range(50):
        railway = lay_railway(rng, n, ed, layout)
        if railway is not None:
            break
    if railway is None:
        raise ValueError(f"could not lay {n} cards on a {layout.width}x{layout.height} table")
    placed = [
        PlacedCard(
            c.code,
            Pose(
                c.pose.x + float(rng.uniform(-jitter_mm, jitter_mm)),
                c.pose.y + float(rng.uniform(-jitter_mm, jitter_mm)),
                (c.pose.rotation + float(rng.uniform(-jitter_deg, jitter_deg))) % 360.0,
            ),
        )
        for c in railway
    ]
    size = ed.card_mm
    left, top, right, bottom = layout.play_area()
    for _ in range(loose_cards):
        for _try in range(300):
            pose = Pose(float(rng.uniform(left + 50, right - 50)),
                        float(rng.uniform(top + 50, bottom - 50)),
                        float(rng.uniform(0, 360)))  # fmt: skip
            if _inside(pose, size, layout.play_area()) and _clear_of(
                np.array([pose.x, pose.y]), 70.0, placed, size
            ):
                placed.append(PlacedCard(str(rng.choice(ed.deck)), pose))
                break
    caboose = int(rng.integers(0, len(railway)))
    on = placed[caboose].pose
    jitter = rotate(rng.uniform(-5, 5, (1, 2)), on.rotation)[0]
    dice: list[PlacedDie] = []
    for _ in range(int(rng.integers(1, 5)) if n_dice is None else n_dice):
        for _try in range(500):
            xy = np.array([rng.uniform(left + 15, right - 15), rng.uniform(top + 15, bottom - 15)])
            if _clear_of(xy, 22.0, placed, size) and all(
                math.hypot(d.x - xy[0], d.y - xy[1]) > 35 for d in dice
            ):
                kind = "wheels" if rng.random() < 0.5 else "pips"
                face = int(rng.integers(0, 3)) if kind == "wheels" else int(rng.integers(1, 7))
                dice.append(
                    PlacedDie(kind, face, float(xy[0]), float(xy[1]), float(rng.uniform(0, 90)))
                )
                break
    return Scene(
        cards=tuple(placed),
        railway=tuple(range(len(railway))),
        caboose=caboose,
        caboose_at=(on.x + float(jitter[0]), on.y + float(jitter[1])),
        dice=tuple(dice),
        card_mm=size,
        layout=layout,
    )
