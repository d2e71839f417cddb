"""The synthetic table: deterministic, legal railways, honest camera."""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games.caboose.rules import edition, geometry
from companion.games.caboose.scenes import random_scene, render
from companion.synthetic import Camera, camera_view
from companion.synthetic.camera import has_glare
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
    """Glare draws its own random numbers, only when it is on: every frame, figure and
    test made without it stays as it was (these digests are the frames before glare), and
    so does a hard table the hard camera's own lamp does not reach (seed 3)."""
    scene = random_scene(3, n_cards=6, n_dice=2)
    cameras = (Camera.easy(), Camera.preset("hard", glare=0.0), Camera.hard())
    digests = [hashlib.sha256(render(scene, 3, c).tobytes()).hexdigest()[:16] for c in cameras]
    if cv2.__version__.startswith("4."):  # the digests are OpenCV 4's; 5's JPEG differs
        assert digests == ["8378bde3ebbc2425", "91bcf339febe6207", "91bcf339febe6207"]
    assert not has_glare(3, Camera.hard()) and digests[1] == digests[2]


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
