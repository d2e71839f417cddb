"""The camera over the synthetic table: where it stands, and the frame it takes of a scene.

It must be honest about what makes a real frame hard: a camera that is not straight above
(tilt, rotation), a cheap lens (barrel distortion), a lamp to one side (uneven light,
shadows), a ceiling lamp's reflection on the table (glare), cards that do not lie flat
(curl), a lens its calibration does not quite undo (lens error), a small sensor (noise),
focus (blur) and JPEG compression. Each is a field of `Camera`, with `Camera.easy()` and
`Camera.hard()` presets.

The scene is drawn in table millimetres on a top-view canvas (surface.py), then one remap
takes it through the camera (homography, then lens distortion) to the frame, so every
object's true pose is known exactly in table mm.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from companion.arguments import frame_size
from companion.hardware import FRAME_SIZE
from companion.synthetic.scene import Scene
from companion.synthetic.surface import CANVAS_PX_PER_MM, CardLift, Lifts, draw_table
from companion.vision.table import TableLayout

_MAP_STEP = 8  # the camera remap is computed on this grid and interpolated: it is smooth
GLARE_SHARE = 0.03  # eval-vision's --glare: a ceiling lamp's reflection, 3 % of the frame
_GLARE_STREAM = 0x61A4E  # the glare's own random stream: a frame without it is unchanged
_GLARE_ODDS_STREAM = 0x61A4F  # whether a frame has glare at all, when only some have
_GLARE_PEAK = 2.0  # the reflection's added light at its centre, in full scales (it clips)
_GLARE_EDGE = 0.15  # its added light where its extent (`glare`) ends: a visible wash
HARD_GLARE_ODDS = 1 / 3  # the hard camera's tables with a lamp's reflection (the others none)
CURL_MM = 5.0  # eval-vision's --curl: the most a card's bent edge or lifted corner rises, mm
LENS_ERROR_PX = 3.5  # eval-vision's --lens-error: what a calibrated lens still displaces, px
_CURL_STREAM = 0xC0421  # the curled cards' own random stream
_LENS_STREAM = 0x1E45E  # the lens error's own random stream
_CURL_ODDS_STREAM = 0xC0422  # whether a frame's cards are curled, when only some are
_LENS_ODDS_STREAM = 0x1E45F  # whether a frame has a lens error, when only some have
# The hard camera's tables with curled cards, and (drawn apart) with a lens error: half each,
# so a hard run holds flat and curled cards, exact and imperfect lenses, and every pairing of
# them (and of the lamp) in shares a run of 30 tables measures; a whole run of either is a flag.
HARD_CURL_ODDS = 1 / 2
HARD_LENS_ODDS = 1 / 2


@dataclass(frozen=True)
class Camera:
    """How hard the camera has it. `tilt` is the most the camera leans off vertical and
    `rotation` the most it is turned about its axis (degrees); `distortion` the lens's radial
    k1 at worst; `light` and `shadow` the fraction of brightness lost at worst; `noise` the
    sensor noise's standard deviation in grey levels; `blur` a Gaussian sigma in pixels;
    `glare` the share of the frame a lamp's reflection covers at most (0: none), on
    `glare_odds` of the frames (the glare's own random numbers say which). The
    renderer draws each frame's tilt, distortion, light, blur and glare between 0.5x and 1x
    of these, and its rotation anywhere in +/- `rotation`, from the seed. A `grey` camera has
    no colour: its frames hold one brightness in three equal channels, as OpenCV hands on a
    mono sensor's (no random number is drawn for it, so a colour camera's frames stay the
    same). `curl` is the most a card's bent edge or lifted corner rises off the table (mm;
    each card is bent between 0.5x and 1x of it) and `lens_error` the most the lens displaces
    a point beyond the one radial coefficient a calibration undoes (pixels; a smooth field
    over the frame whose worst point moves 0.5x to 1x of it), on `curl_odds` and
    `lens_odds` of the frames; each draws its random numbers (and whether a frame has it)
    from its own streams, so a frame without it stays the same."""

    tilt: float = 6.0
    rotation: float = 4.0
    distortion: float = 0.0
    light: float = 0.1
    shadow: float = 0.0
    noise: float = 2.0
    blur: float = 0.4
    jpeg_quality: int = 92
    glare: float = 0.0
    glare_odds: float = 1.0
    frame_size: tuple[int, int] = FRAME_SIZE
    grey: bool = False
    curl: float = 0.0
    lens_error: float = 0.0
    curl_odds: float = 1.0
    lens_odds: float = 1.0

    @classmethod
    def easy(cls) -> Camera:
        """A camera almost straight above, even light, a clean sensor."""
        return cls()

    @classmethod
    def hard(cls) -> Camera:
        """A camera on a bent arm, a lamp to one side, a cheap lens and a noisy sensor, and on
        a third of the tables (`HARD_GLARE_ODDS`) a ceiling lamp's reflection over up to
        `GLARE_SHARE` of the frame: a family table under a lamp has one, and every reader
        must say it, never misread what it washes out. On half the tables the cards do not lie
        flat (up to `CURL_MM`) and on half (drawn apart) the calibrated lens still displaces
        the frame (up to `LENS_ERROR_PX`): real cards and real lenses do."""
        return cls(
            tilt=30.0,
            rotation=180.0,
            distortion=0.04,
            light=0.45,
            shadow=0.35,
            noise=6.0,
            blur=1.1,
            jpeg_quality=70,
            glare=GLARE_SHARE,
            glare_odds=HARD_GLARE_ODDS,
            curl=CURL_MM,
            curl_odds=HARD_CURL_ODDS,
            lens_error=LENS_ERROR_PX,
            lens_odds=HARD_LENS_ODDS,
        )

    @classmethod
    def preset(
        cls,
        name: str,
        *,
        glare: float | None = None,
        frame_size: tuple[int, int] | None = None,
        curl: float | None = None,
        lens_error: float | None = None,
    ) -> Camera:
        """ "easy" or "hard" (whose own glare, curl and lens error lie on a share of its
        tables each), with, when given, on every table: a lamp's reflection over `glare` of
        the frame at most (eval-vision's `--glare`), cards curled up to `curl` mm (`--curl`),
        a lens error of up to `lens_error` px (`--lens-error`), 0 meaning none on any table;
        filming at `frame_size` (the default camera's unless given); ValueError names the
        presets."""
        if name not in ("easy", "hard"):
            raise ValueError(f"unknown camera preset {name!r}: use easy or hard")
        camera = cls.easy() if name == "easy" else cls.hard()
        if glare is not None:
            camera = replace(camera, glare=glare, glare_odds=1.0)
        if curl is not None:
            camera = replace(camera, curl=curl, curl_odds=1.0)
        if lens_error is not None:
            camera = replace(camera, lens_error=lens_error, lens_odds=1.0)
        return camera if frame_size is None else replace(camera, frame_size=frame_size)


def add_camera_options(parser: argparse.ArgumentParser) -> None:
    """eval-vision's camera options, the same for every game: `--glare [SHARE]`, a lamp's
    reflection over SHARE of the frame at most on every table (GLARE_SHARE when no share is
    given, 0 none at all; default the preset's own: the hard camera's on a third of its
    tables), `--frame-size WxH`, filming at another size than the default camera's, `--curl
    [MM]`, cards that do not lie flat, and `--lens-error [PX]`, a lens its calibration does
    not quite undo (each, like `--glare`, on every table when given, 0 on none, else the
    preset's own)."""

    parser.add_argument(
        "--glare",
        type=_amount(0.5, "a share "),
        nargs="?",
        const=GLARE_SHARE,
        default=None,
        metavar="SHARE",
        help="a ceiling lamp's reflection on every table, over SHARE of the frame at most "
        f"({GLARE_SHARE} when SHARE is not given, 0 none; default: the hard camera's on "
        "a third of its tables, none on the easy camera's)",
    )
    parser.add_argument(
        "--frame-size",
        type=frame_size,
        default=FRAME_SIZE,
        metavar="WxH",
        help=f"film at this size (default {FRAME_SIZE[0]}x{FRAME_SIZE[1]}, a 720p webcam 1280x720)",
    )
    effects = (
        ("--curl", CURL_MM, "MM", "cards that do not lie flat on every table: each bent along "
         f"its length or a corner lifted, up to MM off the table ({CURL_MM} when MM is not "
         "given, 0 flat; default: the hard camera's on half its tables, flat on the easy's)"),
        ("--lens-error", LENS_ERROR_PX, "PX", "a lens its calibration does not quite undo, on "
         f"every table: a smooth displacement of the frame of up to PX pixels ({LENS_ERROR_PX} "
         "when PX is not given, 0 none; default: the hard camera's on half its tables, none "
         "on the easy's)"),
    )  # fmt: skip
    for flag, usual, metavar, words in effects:
        parser.add_argument(
            flag,
            type=_amount(20.0),
            nargs="?",
            const=usual,
            default=None,
            metavar=metavar,
            help=words,
        )


def _amount(most: float, kind: str = "") -> Callable[[str], float]:
    """An argparse type: a number from 0 to `most`, or a message saying what is wrong (and
    that it should be `kind` of a thing, "a share " say)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not 0.0 <= value <= most:
            raise argparse.ArgumentTypeError(f"{value} is not {kind}from 0 to {most:g}")
        return value

    return parse


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
    pixels, the focal length and lens k1 that distort them, the frame size, and the lens
    error's coefficients (`lens_field`; none for a lens its calibration undoes). Tests use it
    to know exactly where a table point lands in the frame."""

    homography: np.ndarray
    focal: float
    k1: float
    frame_size: tuple[int, int]
    lens: tuple[float, ...] = ()

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
        distorted = u * factor[:, None] * self.focal + centre
        if not self.lens:
            return distorted
        frame = distorted.copy()  # the frame pixel q shows q + lens_field(q): solve for q
        for _ in range(10):
            frame = distorted - lens_field(self.lens, self.frame_size, frame)
        return frame

    def eye(self) -> np.ndarray:
        """The camera's centre (x, y, height above the table) in table mm."""
        width, height = self.frame_size
        k = np.array([[self.focal, 0, width / 2], [0, self.focal, height / 2], [0, 0, 1]])
        m = np.linalg.inv(k) @ self.homography
        m = m / np.linalg.norm(m[:, 0]) * (1 if m[2, 2] > 0 else -1)
        rot = np.column_stack([m[:, 0], m[:, 1], np.cross(m[:, 0], m[:, 1])])
        centre = -rot.T @ m[:, 2]  # world z points into the table
        return np.array([centre[0], centre[1], -centre[2]])


_LENS_TERMS = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))


def lens_field(
    lens: tuple[float, ...], frame_size: tuple[int, int], pixels: np.ndarray
) -> np.ndarray:
    """The lens error at frame `pixels` (N, 2): where, beyond its calibrated k1, the lens takes
    each pixel's view from (an offset in pixels). Quadratic and cubic terms of the position
    about the frame centre, each axis its own: decentred and tangential distortion and any
    smooth bend between, none of which a homography (nor one k1 about the centre) follows."""
    centre = np.array(frame_size, np.float64) / 2
    xy = (np.asarray(pixels, np.float64).reshape(-1, 2) - centre) / np.hypot(*centre)
    basis = np.stack([xy[:, 0] ** a * xy[:, 1] ** b for a, b in _LENS_TERMS], 1)
    coefficients = np.asarray(lens, np.float64).reshape(2, -1)
    return basis @ coefficients.T


def _draw_lens(seed: int, camera: Camera) -> tuple[float, ...]:
    """The lens error of the frame rendered with `seed`, from its own stream: random terms
    scaled so that the frame's worst point moves 0.5x to 1x of `camera.lens_error`."""
    if not _drawn(seed, camera.lens_error, camera.lens_odds, _LENS_ODDS_STREAM):
        return ()
    rng = np.random.default_rng([seed, _LENS_STREAM])
    raw = rng.normal(0.0, 1.0, 2 * len(_LENS_TERMS))
    width, height = camera.frame_size
    grid = np.stack(np.meshgrid(np.linspace(0, width, 17), np.linspace(0, height, 13)), -1)
    worst = np.hypot(*lens_field(tuple(raw), camera.frame_size, grid.reshape(-1, 2)).T).max()
    scale = camera.lens_error * rng.uniform(0.5, 1.0) / worst
    return tuple(float(c) for c in raw * scale)


def camera_view(seed: int, camera: Camera, layout: TableLayout) -> View:
    """The camera of the frame rendered with `seed`: drawn first from the seed's generator,
    so `render` and the tests agree on it."""
    rng = np.random.default_rng(seed)
    return _draw_view(rng, camera, layout, seed)


def _draw_view(rng: np.random.Generator, camera: Camera, layout: TableLayout, seed: int) -> View:
    homography, focal = camera_homography(
        layout,
        camera.frame_size,
        camera.tilt * rng.uniform(0.5, 1.0),
        rng.uniform(0, 360),
        rng.uniform(-camera.rotation, camera.rotation),
    )
    k1 = camera.distortion * rng.uniform(0.5, 1.0)
    return View(homography, float(focal), float(k1), camera.frame_size, _draw_lens(seed, camera))


def _draw_lifts(seed: int, camera: Camera, scene: Scene, view: View) -> Lifts | None:
    """How each card of the frame rendered with `seed` is curled, from its own stream: bent
    along its length (ends up or middle up) or one corner lifted, by 0.5x to 1x of
    `camera.curl` (a rigid one lies flat); seen from the camera's eye."""
    if not scene.cards or not has_curl(seed, camera):
        return None
    rng = np.random.default_rng([seed, _CURL_STREAM])
    cards = []
    for card in scene.cards:  # a rigid card's numbers are drawn too: the others' stay put
        lift = CardLift(
            str(rng.choice(CardLift.SHAPES)),
            camera.curl * rng.uniform(0.5, 1.0),
            (int(rng.choice((-1, 1))), int(rng.choice((-1, 1)))),
        )
        cards.append(None if card.rigid else lift)
    return Lifts(tuple(cards), tuple(float(v) for v in view.eye()))


def render(scene: Scene, seed: int, camera: Camera | None = None) -> np.ndarray:
    """The BGR frame an overhead camera sees of `scene`; the same seed gives the same image.
    `camera_view(seed, camera, scene.layout)` tells where the camera stood."""
    camera = camera or Camera.easy()
    rng = np.random.default_rng(seed)
    view = _draw_view(rng, camera, scene.layout, seed)
    canvas = draw_table(scene, rng, _draw_lifts(seed, camera, scene, view))
    width, height = camera.frame_size
    focal, k1 = view.focal, view.k1
    # one remap: distorted pixel -> undistorted pixel -> table mm -> canvas pixel, computed
    # on a coarse grid and interpolated (the mapping is smooth; this saves ~150 ms)
    gw, gh = width // _MAP_STEP + 2, height // _MAP_STEP + 2
    u, v = np.meshgrid(
        np.arange(gw, dtype=np.float64) * _MAP_STEP, np.arange(gh, dtype=np.float64) * _MAP_STEP
    )
    if view.lens:  # the frame pixel shows what a perfect lens shows a little away
        lens = lens_field(view.lens, camera.frame_size, np.stack([u, v], -1).reshape(-1, 2))
        u, v = u + lens[:, 0].reshape(u.shape), v + lens[:, 1].reshape(v.shape)
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
    if has_glare(seed, camera):
        glare_rng = np.random.default_rng([seed, _GLARE_STREAM])
        frame = _add_glare(frame, glare_rng, camera.glare, view, scene.layout)
    if camera.grey:  # a one-channel JPEG, which decodes to three equal channels
        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg_quality])
    if not ok:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if camera.grey else frame
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def has_glare(seed: int, camera: Camera) -> bool:
    """Whether the frame rendered with `seed` through `camera` has a lamp's reflection:
    always when its `glare_odds` is 1, else as a stream of its own says (the glare's own
    numbers stay as they were, so a frame with glare is the same whatever the odds)."""
    return _drawn(seed, camera.glare, camera.glare_odds, _GLARE_ODDS_STREAM)


LAMP_LIT = 12  # grey levels the lamp adds, at least, where it touches the table


def lamp_footprint(scene: Scene, seed: int, camera: Camera, frame: np.ndarray) -> np.ndarray | None:
    """Where the lamp's reflection touches `frame` (rendered from `scene` with `seed` through
    `camera`): a frame-size mask, True where the frame differs from the same frame without
    the lamp by `LAMP_LIT` grey levels or more; None when the frame has no lamp. Evaluation
    uses it to count apart the pieces a reflection lies on, which a reader must not read
    surely and cannot always read (the glare's own random numbers draw nothing else, so the
    lamp-free frame is the same frame otherwise)."""
    if not has_glare(seed, camera):
        return None
    lamp_free = render(scene, seed, replace(camera, glare=0.0))
    return cv2.absdiff(frame, lamp_free).max(axis=2) >= LAMP_LIT


def clear_share(right: int, total: int, right_lit: int, lit: int) -> float:
    """The share read right of the pieces a lamp's reflection touches none of: `right` of
    `total` read right in all, `right_lit` of the `lit` ones it touches (1.0 when it touches
    every one). The accuracy a reader is held to, since under the reflection it asks."""
    clear = total - lit
    return round((right - right_lit) / clear, 4) if clear else 1.0


def touched(footprint: np.ndarray | None, view: View, corners_mm: np.ndarray) -> bool:
    """Whether the lamp's `footprint` (`lamp_footprint`) lies on any pixel of the table
    polygon `corners_mm` (N, 2 mm: a piece's outline) as `view` sees it."""
    if footprint is None:
        return False
    polygon = np.round(view.to_pixels(corners_mm)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(polygon)
    x0, y0 = max(x, 0), max(y, 0)
    lit = footprint[y0 : y + h, x0 : x + w]  # the piece's box, clipped to the frame
    if lit.size == 0:
        return False
    piece = np.zeros(lit.shape, np.uint8)
    cv2.fillPoly(piece, [polygon - (x0, y0)], 1)  # what falls outside the box is clipped
    return bool(lit[piece > 0].any())


def has_curl(seed: int, camera: Camera) -> bool:
    """Whether the cards of the frame rendered with `seed` through `camera` are curled, as
    `has_glare` says of the lamp (from a stream of its own)."""
    return _drawn(seed, camera.curl, camera.curl_odds, _CURL_ODDS_STREAM)


def has_lens_error(seed: int, camera: Camera) -> bool:
    """Whether the frame rendered with `seed` through `camera` has a lens error, as
    `has_glare` says of the lamp (from a stream of its own)."""
    return _drawn(seed, camera.lens_error, camera.lens_odds, _LENS_ODDS_STREAM)


def _drawn(seed: int, amount: float, odds: float, stream: int) -> bool:
    """Whether an effect of `amount` (0: off) on `odds` of the frames is on in the frame
    rendered with `seed`: always at odds 1, else as the effect's own `stream` says (no other
    random number moves, so a frame with it is the same whatever the odds)."""
    if amount <= 0:
        return False
    if odds >= 1.0:
        return True
    return bool(np.random.default_rng([seed, stream]).uniform() < odds)


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


def _add_glare(
    frame: np.ndarray, rng: np.random.Generator, share: float, view: View, layout: TableLayout
) -> np.ndarray:
    """`frame` with a lamp's specular reflection: white light added to every channel alike,
    falling off as a Gaussian over an ellipse of `share` (0.5x to 1x) of the frame, centred
    on a point of the table top (the glossy surface that reflects) drawn from `rng`. Where
    the added light reaches full scale the sensor clips to white (the core); around it the
    brightest channel clips first and the rest rise, so colours wash out to white (the
    halo). It is added after the sensor's noise, as clipping is."""
    height, width = frame.shape[:2]
    area = share * rng.uniform(0.5, 1.0) * width * height
    aspect = rng.uniform(0.6, 1.0)
    a = math.sqrt(area / (math.pi * aspect))  # semi-axes a, a * aspect: pi a b = area
    on_table = (rng.uniform(0.1, 0.9) * layout.width, rng.uniform(0.1, 0.9) * layout.height)
    centre = view.to_pixels(np.array([on_table]))[0]
    angle = math.radians(rng.uniform(0, 180))
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    dx, dy = x - centre[0], y - centre[1]
    along = (dx * math.cos(angle) + dy * math.sin(angle)) / a
    across = (-dx * math.sin(angle) + dy * math.cos(angle)) / (a * aspect)
    falloff = math.log(_GLARE_PEAK / _GLARE_EDGE)
    light = (255.0 * _GLARE_PEAK) * np.exp(-falloff * (along * along + across * across))
    return cv2.add(frame, cv2.merge([light, light, light]), dtype=cv2.CV_8U)
