"""The synthetic table: deterministic, legal railways, honest camera."""

from __future__ import annotations

import hashlib
import math
import platform
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games.caboose.rules import edition, geometry
from companion.games.caboose.scenes import random_scene, render
from companion.pose import Pose
from companion.synthetic import Camera, Card, Picture, Scene, camera_view
from companion.synthetic import render as render_scene
from companion.synthetic.camera import has_curl, has_glare, has_lens_error, lens_field
from companion.synthetic.surface import CANVAS_PX_PER_MM, CardLift, Lifts, _lay, draw_table
from companion.vision.table import card_corners


def test_same_seed_same_frame_and_another_seed_another() -> None:
    scene = random_scene(3, n_cards=6, n_dice=2)
    first = render(scene, 3, Camera.hard())
    assert first.shape == (1088, 1456, 3)
    assert np.array_equal(first, render(scene, 3, Camera.hard()))
    assert not np.array_equal(first, render(scene, 4, Camera.hard()))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_scene_lays_a_legal_railway_by_the_rules(seed: int) -> None:
    scene = random_scene(seed, "loose-caboose", n_cards=20, n_dice=4)
    ed = edition.load("loose-caboose")
    codes = [scene.cards[i].code for i in scene.railway]
    poses = [scene.cards[i].pose for i in scene.railway]
    assert len(codes) == 20 and len(scene.dice) == 4
    # every card after the back joins the front's open end, within a hand's nudge
    geometry.check_play(ed, codes[:1], poses[:1], codes[1:], poses[1:])
    left, top, right, bottom = scene.layout.play_area()
    for card in scene.cards:
        corners = card_corners(card.pose, scene.card_mm)
        assert corners[:, 0].min() >= left - 2 and corners[:, 0].max() <= right + 2
        assert corners[:, 1].min() >= top - 2 and corners[:, 1].max() <= bottom + 2


def test_caboose_stands_on_its_card_and_dice_lie_off_the_cards() -> None:
    scene = random_scene(11, n_cards=12, n_dice=4, loose_cards=1)
    on = scene.cards[scene.caboose].pose
    assert math.dist(scene.caboose_at, (on.x, on.y)) < 10
    for die in scene.dice:
        for card in scene.cards:
            assert math.dist((die.x, die.y), (card.pose.x, card.pose.y)) > 40


def test_view_knows_where_a_table_point_lands() -> None:
    """The marker's dark border shows where View says the marker's corner is."""
    scene = random_scene(5, n_cards=3, n_dice=0)
    frame = render(scene, 5, Camera.easy())
    view = camera_view(5, Camera.easy(), scene.layout)
    inside = view.to_pixels(np.array([[12.0, 12.0], [100.0, 100.0]]))
    grey = frame.mean(axis=2)
    x, y = inside[0].round().astype(int)
    assert grey[y, x] < 80  # marker 0's black border, 2 mm inside its corner
    x, y = inside[1].round().astype(int)
    assert grey[y, x] > 60  # the table beyond it, not the dark floor


def test_presets_differ_and_unknown_preset_is_refused() -> None:
    assert Camera.hard().tilt == 30 and Camera.easy().tilt < 10
    with pytest.raises(ValueError, match="easy or hard"):
        Camera.preset("medium")


def test_a_camera_without_colour_gives_the_colour_frame_in_grey() -> None:
    """A grey camera's frame is one brightness in three equal channels, the brightness of the
    colour camera's frame of the same seed (no random number drawn for it)."""
    scene = random_scene(5)
    colour = render(scene, 5, Camera.hard())
    grey = render(scene, 5, replace(Camera.hard(), grey=True))
    assert grey.shape == colour.shape and grey.dtype == colour.dtype
    assert (grey[..., 0] == grey[..., 1]).all() and (grey[..., 1] == grey[..., 2]).all()
    brightness = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY).astype(np.int16)
    assert np.abs(grey[..., 0].astype(np.int16) - brightness).mean() < 3  # JPEG's rounding


def test_a_camera_without_glare_renders_the_very_frames_it_rendered_before() -> None:
    """Glare, curl and lens error draw their own random numbers, only when they are on: every
    frame, figure and test made without them stays as it was (these digests are the frames
    before glare). The hard camera's own frame of seed 3 has no lamp but curled cards and a
    lens error (its digest changed when they joined it): exactly what `--curl --lens-error`
    draws."""
    scene = random_scene(3, n_cards=6, n_dice=2)
    plain_hard = Camera.preset("hard", glare=0.0, curl=0.0, lens_error=0.0)
    bent = Camera.preset("hard", curl=5.0, lens_error=3.5)
    cameras = (Camera.easy(), plain_hard, Camera.hard(), bent)
    digests = [hashlib.sha256(render(scene, 3, c).tobytes()).hexdigest()[:16] for c in cameras]
    # The digests are OpenCV 4's on x86_64: OpenCV 5's JPEG differs, and so does an arm64
    # build's resampling (NEON rounds otherwise: `make check-arm64` found it); there the
    # same frames are only checked equal to each other below. The bent frame's remapping
    # rounds otherwise from one OpenCV 4 release to the next (4.8 against 4.11): its digest
    # is the pinned release's.
    if cv2.__version__.startswith("4.") and platform.machine() in ("x86_64", "AMD64"):
        assert digests[:2] == ["8378bde3ebbc2425", "91bcf339febe6207"]
        if cv2.__version__ == "4.11.0":
            assert digests[2] == "f7dd3a2708057338"
    hard = Camera.hard()
    assert not has_glare(3, hard) and has_curl(3, hard) and has_lens_error(3, hard)
    assert digests[2] == digests[3]


def test_the_hard_camera_has_a_lamp_s_reflection_on_a_third_of_its_tables() -> None:
    """A family table under a ceiling lamp: the hard camera draws the reflection on about a
    third of its tables, each exactly the frame `--glare` draws for that seed (the same
    spot), and the rest exactly as without it; `--glare` puts it on every table."""
    hard = Camera.hard()
    lit = [seed for seed in range(300) if has_glare(seed, hard)]
    assert 80 <= len(lit) <= 120
    everywhere = Camera.preset("hard", glare=0.03)
    assert all(has_glare(seed, everywhere) for seed in range(300))
    assert not any(has_glare(seed, Camera.preset("hard", glare=0.0)) for seed in range(300))
    scene = random_scene(lit[0], n_cards=6, n_dice=2)
    frame = render(scene, lit[0], hard)
    assert np.array_equal(frame, render(scene, lit[0], everywhere))
    assert (frame.min(axis=2) >= 250).mean() > 0.002  # a clipped white core


def test_glare_is_a_white_clipped_core_in_a_washed_out_halo_on_the_table() -> None:
    scene = random_scene(4, n_cards=12, n_dice=3)
    plain = render(scene, 4, Camera.preset("hard", glare=0.0))
    glare = render(scene, 4, Camera.preset("hard", glare=0.03))
    assert np.array_equal(glare, render(scene, 4, Camera.preset("hard", glare=0.03)))
    clipped = glare.min(axis=2) >= 250
    share = float(clipped.mean())
    assert 0.002 < share < 0.03 and float((plain.min(axis=2) >= 250).mean()) < 0.0005
    # the halo around the core: brighter than without glare, and greyer (colour washed out)
    ys, xs = np.nonzero(clipped)
    cy, cx, reach = int(ys.mean()), int(xs.mean()), int(math.sqrt(clipped.sum() / math.pi))
    ring = np.zeros(clipped.shape, np.uint8)
    cv2.circle(ring, (cx, cy), reach * 3 // 2, 1, thickness=max(reach // 2, 2))
    ring = (ring > 0) & ~clipped
    lit, dim = glare[ring].astype(int), plain[ring].astype(int)
    assert lit.mean() > dim.mean() + 40
    spread = lambda px: float((px.max(axis=1) - px.min(axis=1)).mean())  # noqa: E731
    assert spread(lit) < spread(dim)
    # where the camera stood is the same: glare changes the light, not the view
    far = np.ones(clipped.shape, bool)
    far[max(cy - 5 * reach, 0) : cy + 5 * reach, max(cx - 5 * reach, 0) : cx + 5 * reach] = False
    assert np.abs(glare[far].astype(int) - plain[far].astype(int)).mean() < 2


def test_the_hard_camera_curls_the_cards_of_half_its_tables_and_errs_in_half_its_lenses() -> None:
    """Real cards do not lie flat and a calibrated lens still errs: the hard camera curls the
    cards of about half its tables and gives about half (drawn apart) a lens error, each
    table exactly the frame `--curl` / `--lens-error` draw for that seed, the rest exactly as
    without; given, each is on every table (0: on none); the easy camera has neither."""
    hard = Camera.hard()
    curled = [seed for seed in range(300) if has_curl(seed, hard)]
    erring = [seed for seed in range(300) if has_lens_error(seed, hard)]
    assert 120 <= len(curled) <= 180 and 120 <= len(erring) <= 180
    both = set(curled) & set(erring)
    assert 50 <= len(both) <= 100  # drawn apart: about a quarter have both
    everywhere = Camera.preset("hard", glare=0.0, curl=5.0, lens_error=3.5)
    assert (everywhere.curl, everywhere.lens_error) == (5.0, 3.5)
    assert all(has_curl(s, everywhere) and has_lens_error(s, everywhere) for s in range(300))
    flat = Camera.preset("hard", curl=0.0, lens_error=0.0)
    assert not any(has_curl(s, flat) or has_lens_error(s, flat) for s in range(300))
    easy = Camera.easy()
    assert not any(has_curl(s, easy) or has_lens_error(s, easy) for s in range(300))
    unlit = [s for s in range(300) if not has_glare(s, hard)]
    only_curl = next(s for s in unlit if s in curled and s not in erring)
    only_lens = next(s for s in unlit if s in erring and s not in curled)
    neither = next(s for s in unlit if s not in curled and s not in erring)
    for seed, camera in (
        (only_curl, Camera.preset("hard", curl=5.0)),
        (only_lens, Camera.preset("hard", lens_error=3.5)),
        (neither, flat),
    ):
        scene = random_scene(seed, n_cards=6, n_dice=2)
        assert np.array_equal(render(scene, seed, hard), render(scene, seed, camera))
    scene = random_scene(only_curl, n_cards=6, n_dice=2)
    assert not np.array_equal(render(scene, only_curl, hard), render(scene, only_curl, flat))


def _white_card(size_mm: tuple[float, float]) -> Picture:
    def picture(px_per_mm: float) -> np.ndarray:
        w, h = round(size_mm[0] * px_per_mm), round(size_mm[1] * px_per_mm)
        return np.full((h, w, 4), 255, np.uint8)

    return picture


def _white_columns(canvas: np.ndarray, row_mm: float) -> tuple[float, float]:
    """The first and last millimetre of the white card along one canvas row."""
    row = canvas[round(row_mm * CANVAS_PX_PER_MM)].min(axis=1)
    white = np.nonzero(row > 120)[0]  # the wood is darker, a face turned away still lighter
    return white[0] / CANVAS_PX_PER_MM, white[-1] / CANVAS_PX_PER_MM


def test_a_curled_card_is_drawn_where_the_camera_sees_its_raised_face() -> None:
    """A card bent along its length, both ends 5 mm up, seen by a camera 600 mm to its left
    and 1300 mm up: a raised point looks further from the camera's foot than it stands
    (z d / (H - z): 2.1 mm at the near end, 2.5 mm at the far one), so the card looks
    longer than it is; its middle, lying flat, stays put; a face turned from the lamp is
    darker."""
    size = (90.0, 58.0)
    scene = Scene(cards=(Card(_white_card(size), Pose(400, 300, 0), size),))
    flat = draw_table(scene, np.random.default_rng(0))
    eye = (-200.0, 300.0, 1300.0)
    bent = draw_table(scene, np.random.default_rng(0), Lifts((CardLift("ends", 5.0),), eye))
    (left, right), (b_left, b_right) = _white_columns(flat, 300), _white_columns(bent, 300)
    assert b_left - left == pytest.approx(5 * 555 / 1295, abs=0.6)
    assert b_right - right == pytest.approx(5 * 645 / 1295, abs=0.6)
    # the left end turns its face from the lamp (high up to the top left): it is darker
    row, end, middle = (round(v * CANVAS_PX_PER_MM) for v in (300, 362, 400))
    assert int(bent[row, end].min()) < int(bent[row, middle].min()) - 30
    # across the card's middle (its long sides, lying flat) nothing moves
    flat_mid, bent_mid = (
        flat[:, round(400 * CANVAS_PX_PER_MM)],
        bent[:, round(400 * CANVAS_PX_PER_MM)],
    )
    assert np.array_equal(flat_mid.min(axis=1) > 120, bent_mid.min(axis=1) > 120)
    assert CardLift("corner", 4.0, (1, -1)).height(
        np.array([45.0, -45.0]), np.array([-29.0, 29.0]), size
    ).tolist() == [4.0, 0.0]


def test_lens_error_moves_the_frame_smoothly_within_its_pixels_and_the_view_follows() -> None:
    """The lens error displaces every point by at most `lens_error` px (the worst by at least
    half of it), and View.to_pixels knows where each table point lands under it."""
    scene = random_scene(5, n_cards=3, n_dice=0)
    camera = Camera.preset("easy", lens_error=3.5)
    view, plain = camera_view(5, camera, scene.layout), camera_view(5, Camera.easy(), scene.layout)
    width, height = camera.frame_size
    grid = np.stack(np.meshgrid(np.linspace(0, width, 40), np.linspace(0, height, 30)), -1)
    moved = np.hypot(*lens_field(view.lens, camera.frame_size, grid.reshape(-1, 2)).T)
    assert 1.75 <= moved.max() <= 3.5 + 1e-9
    marker = np.array([[12.0, 12.0], [100.0, 100.0]])
    assert np.abs(view.to_pixels(marker) - plain.to_pixels(marker)).max() <= 3.5
    frame = render(scene, 5, camera)
    grey = frame.mean(axis=2)
    x, y = view.to_pixels(marker)[0].round().astype(int)
    assert grey[y, x] < 80  # marker 0's black border, 2 mm inside its corner


def test_a_rigid_piece_lies_flat_where_the_cards_curl() -> None:
    """A board or a wooden piece (`rigid`) does not bend: with only such pieces on the
    table, a camera that curls cards films the very frame a flat table gives."""
    size = (90.0, 58.0)
    board = Scene(cards=(Card(_white_card(size), Pose(400, 300, 10), size, rigid=True),))
    flat = render_scene(board, 6, Camera.hard())
    assert np.array_equal(render_scene(board, 6, Camera.preset("hard", curl=5.0)), flat)
    paper = Scene(cards=(Card(_white_card(size), Pose(400, 300, 10), size),))
    assert not np.array_equal(render_scene(paper, 6, Camera.preset("hard", curl=5.0)), flat)


def test_a_sprite_is_laid_as_opencv_blends_it_bit_for_bit() -> None:
    """The table's sprites are laid by copying where they are whole and blending only their
    outline, or in a small box blended whole (`surface._lay`): either way every pixel as
    `cv2.blendLinear` over the whole box gives, whatever mix of whole, partial and absent
    pixels the box holds."""
    rng = np.random.default_rng(5)
    for h, w in [(1, 1), (3, 200), (57, 41), (240, 320)]:
        for kinds in ((0,), (255,), (0, 255), (0, 255, None)):
            under = rng.integers(0, 256, (h, w, 3), np.uint8)
            over = rng.integers(0, 256, (h, w, 3), np.uint8)
            pick = rng.integers(0, len(kinds), (h, w))
            partial = rng.integers(1, 255, (h, w))
            alpha = np.choose(pick, [partial if k is None else np.full((h, w), k) for k in kinds])
            alpha = alpha.astype(np.uint8)
            share = alpha.astype(np.float32) / 255
            expected = cv2.blendLinear(over, under, share, 1.0 - share)
            laid = under.copy()
            _lay(laid, over, alpha)
            assert np.array_equal(laid, expected)
