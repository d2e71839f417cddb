"""A die's look is read through shortcuts (session 23: the colour distances without numpy's
slow reductions over three channels or an unused channel): each must give the very masks
the plain formulas give, bit for bit, or a die's outline, place, face and confidence could
move. Checked on the reader's own windows of a hard table with dice on and off the cards,
and on random windows."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.vision import dice


def _plain_bodies(
    grey: np.ndarray, hsv: np.ndarray, crop: np.ndarray, faint: bool
) -> list[np.ndarray]:
    """`dice._bodies` as written before the shortcut: the whole Lab difference, hypot."""
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    _, body = cv2.threshold(smooth, 0, 1, cv2.THRESH_OTSU)
    brighter = smooth > float(np.median(dice._rim(grey))) * 1.4
    yellow = cv2.inRange(hsv, (20, 175, 50), (38, 255, 255)) > 0
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.int16)
    table = np.median(dice._rim(lab), axis=0)
    diff = lab - table
    distance = np.hypot(diff[..., 1], diff[..., 2])
    unlike = (distance > dice._OTHER_COLOUR) | (lab[..., 0] < 0.5 * table[0])
    bodies = [body, (brighter | yellow).astype(np.uint8), unlike.astype(np.uint8)]
    if faint:
        little = (distance > dice._FAINT_COLOUR) | (lab[..., 0] < dice._FAINT_DARKER * table[0])
        bodies.append(little.astype(np.uint8))
        bodies.append((distance > dice._FAINT_COLOUR).astype(np.uint8))
    return bodies


def _plain_bodies_on(hsv: np.ndarray, crop: np.ndarray, background: np.ndarray) -> list:
    """`dice._bodies_on` as written before the shortcut: numpy's sum over the channels."""
    blurred = cv2.GaussianBlur(crop, (0, 0), 3.0).astype(np.float32) / 255.0
    expected = background.clip(-1.0, 255.0) / 255.0
    seen = cv2.cvtColor(blurred, cv2.COLOR_BGR2Lab)
    face = cv2.cvtColor(expected.clip(0.0, 1.0).astype(np.float32), cv2.COLOR_BGR2Lab)
    diff = (seen - face) * (2.55, 1.0, 1.0)
    distance = np.sqrt((diff**2).sum(axis=2))
    unlike = (distance > dice._UNLIKE_FACE) & (expected[..., 0] >= 0.0)
    yellow = cv2.inRange(hsv, (20, 175, 50), (38, 255, 255)) > 0
    return [unlike.astype(np.uint8), yellow.astype(np.uint8)]


def _same(got: list[np.ndarray], want: list[np.ndarray]) -> bool:
    return len(got) == len(want) and all(
        g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want, strict=True)
    )


@pytest.fixture(scope="module")
def windows() -> list[tuple]:
    """The reader's windows (crop, origin, faint, background) of three hard tables with half
    their dice on cards, as `observe` looks at them."""
    seen: list[tuple] = []
    real = dice.look_in

    def spy(
        crop: np.ndarray,
        origin: tuple,
        faint: bool,
        background: object = None,
        slack_mm: float = 0.0,
    ) -> object:
        seen.append((crop, origin, faint, background))
        return real(crop, origin, faint, background, slack_mm)

    config = VisionConfig.for_edition("rollecate")
    camera = synthetic.Camera.preset("hard")
    dice.look_in = spy
    try:
        for seed in (7400, 7402, 7409):  # 7409: dice looked for on cards past the glance
            scene = synthetic.random_scene(seed, "rollecate", loose_cards=1, dice_on_cards=0.5)
            back = scene.cards[scene.railway[0]].pose
            observe(synthetic.render(scene, seed, camera), config, back=(back.x, back.y))
    finally:
        dice.look_in = real
    return seen


def test_a_die_s_body_masks_are_the_plain_formulas_bit_for_bit(windows: list[tuple]) -> None:
    on_cards = [w for w in windows if w[3] is not None]
    off_cards = [w for w in windows if w[3] is None]
    assert on_cards and off_cards  # both readers' masks were looked at
    for crop, _, faint, background in windows:
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
        if background is None:
            for either in (faint, not faint):
                assert _same(
                    dice._bodies(grey, hsv, crop, either), _plain_bodies(grey, hsv, crop, either)
                )
        else:
            assert _same(
                dice._bodies_on(hsv, crop, background), _plain_bodies_on(hsv, crop, background)
            )


def test_random_windows_give_the_plain_formulas_masks_too() -> None:
    rng = np.random.default_rng(23)
    side = dice.CROP_SIDE
    for _ in range(40):
        crop = rng.integers(0, 256, (side, side, 3), dtype=np.uint8)
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.5, 4.0)))
        background = rng.uniform(-1.0, 255.0, (side, side, 3)).astype(np.float32)
        background[: rng.integers(0, side)] = -1.0  # off the card: nothing expected there
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
        assert _same(dice._bodies(grey, hsv, crop, True), _plain_bodies(grey, hsv, crop, True))
        assert _same(
            dice._bodies_on(hsv, crop, background), _plain_bodies_on(hsv, crop, background)
        )


def _plain_unlike(bgr: np.ndarray, allowed: np.ndarray, window: int) -> tuple:
    """`dice._unlike` as written before the shortcut: the whole three-channel difference
    from the table's colour (the same `table_colour`, which the shortcut left alone)."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
    local = dice.table_colour(lab, allowed, window)
    diff = lab.astype(np.float32) - local
    distance = cv2.magnitude(diff[..., 1], diff[..., 2])
    lightness = lab[..., 0] / np.maximum(local[..., 0], 1.0)
    unlike = (distance > dice._OTHER_COLOUR) | (lightness < 0.5)
    faint = (distance > dice._FAINT_COLOUR) | (lightness < dice._FAINT_DARKER)
    return unlike.view(np.uint8) * np.uint8(255), faint.view(np.uint8) * np.uint8(255)


def test_the_dice_finder_s_unlike_masks_are_the_plain_formulas_bit_for_bit() -> None:
    rng = np.random.default_rng(230)
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(60, 320, 2))
        image = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), 2.0)
        allowed = (rng.random((h, w)) > 0.3).astype(np.uint8) * 255
        assert _same(
            list(dice._unlike(image, allowed, 23)), list(_plain_unlike(image, allowed, 23))
        )
