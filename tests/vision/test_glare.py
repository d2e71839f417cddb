"""A lamp's reflection in a frame (companion/vision/frame_checks.py `glare_mask`): found
where the synthetic camera draws one, and nowhere else."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.caboose.scenes import random_scene, render
from companion.games.switching.scenes import random_table as switching_table
from companion.synthetic import Camera, camera_view
from companion.synthetic import render as synthetic_render
from companion.synthetic.camera import lamp_footprint, touched
from companion.vision.frame_checks import glare_mask, glared


def test_the_glare_is_found_where_the_camera_drew_it_and_only_with_glare() -> None:
    scene = random_scene(7, n_cards=12, n_dice=3)
    for camera in (Camera.easy(), Camera.preset("hard", glare=0.0)):
        assert glare_mask(render(scene, 7, camera)) is None
    frame = render(scene, 7, Camera.preset("hard", glare=0.03))
    mask = glare_mask(frame)
    assert mask is not None
    assert 0.005 < float((mask > 0).mean()) < 0.1  # a few percent of the frame
    clipped = frame.min(axis=2) >= 250
    assert (mask[clipped] > 0).mean() > 0.99  # every clipped white, and its halo
    assert (mask > 0).sum() > 2 * clipped.sum()


def test_a_piece_touching_the_glare_is_glared_one_far_from_it_is_not() -> None:
    scene = random_scene(7, n_cards=12, n_dice=3)
    mask = glare_mask(render(scene, 7, Camera.preset("hard", glare=0.03)))
    assert mask is not None
    ys, xs = np.nonzero(mask)
    x, y = int(xs.mean()), int(ys.mean())
    assert glared(mask, np.array([[x - 3, y - 3], [x + 3, y - 3], [x + 3, y + 3], [x - 3, y + 3]]))
    corners = camera_view(7, Camera.hard(), scene.layout).to_pixels(np.array([[0.0, 0.0]]))
    far = corners[0] if np.hypot(*(corners[0] - (x, y))) > 300 else np.array([5.0, 5.0])
    square = far + np.array([[0, 0], [10, 0], [10, 10], [0, 10]])
    assert not glared(mask, square)
    assert not glared(None, square)


def test_the_lamps_footprint_is_where_it_lit_the_table_and_none_without_a_lamp() -> None:
    """Evaluation counts apart the pieces the lamp touches: its footprint is where the frame
    differs from the same frame without the lamp, and a frame without one has none."""
    scene = switching_table(7).scene
    plain = Camera.preset("hard", glare=0.0)
    assert lamp_footprint(scene, 7, plain, synthetic_render(scene, 7, plain)) is None
    camera = Camera.preset("hard", glare=0.03)
    frame = synthetic_render(scene, 7, camera)
    footprint = lamp_footprint(scene, 7, camera, frame)
    assert footprint is not None and 0.01 < footprint.mean() < 0.1  # a few percent
    clipped = frame.min(axis=2) >= 250
    assert footprint[clipped].mean() > 0.99  # the clipped white is lit, and more round it
    assert footprint.sum() > 2 * clipped.sum()
    view = camera_view(7, camera, scene.layout)
    ys, xs = np.nonzero(clipped)
    middle = np.array([[[xs.mean(), ys.mean()]]])
    inverse = np.linalg.inv(view.homography)
    lit_mm = cv2.perspectiveTransform(middle, inverse).reshape(2)  # the lens bends a little
    square = np.array([[-5.0, -5.0], [5.0, -5.0], [5.0, 5.0], [-5.0, 5.0]])
    assert touched(footprint, view, lit_mm + square)
    width, height = scene.layout.width - 40, scene.layout.height - 40
    corners = np.array([[40.0, 40.0], [width, height], [40.0, height], [width, 40.0]])
    far = max(corners, key=lambda corner: np.hypot(*(corner - lit_mm)))
    assert not touched(footprint, view, far + square)
    assert not touched(footprint, view, square - 900.0)  # a piece the camera does not see
    assert not touched(None, view, lit_mm + square)


def test_the_halo_lies_round_each_reflection_wherever_the_clipped_white_lies() -> None:
    """Two reflections far apart and a clipped speck too small to be one, on a grey frame:
    each reflection is masked with its halo all round it (half its radius more), centred on
    it, the speck not at all, and nothing else."""
    frame = np.full((600, 800, 3), 120, np.uint8)
    cv2.circle(frame, (650, 420), 20, (255, 255, 255), -1)
    cv2.circle(frame, (150, 130), 14, (255, 255, 255), -1)
    frame[560:562, 30:32] = 255  # 4 pixels: under a reflection's least size
    mask = glare_mask(frame)
    assert mask is not None
    for (x, y), radius in (((650, 420), 20), ((150, 130), 14)):
        reach = radius * 1.5
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            assert mask[y + round(dy * (reach - 2)), x + round(dx * (reach - 2))] == 255
            assert mask[y + round(dy * (reach + 5)), x + round(dx * (reach + 5))] == 0
    assert mask[555:567, 25:37].max() == 0
    halos = np.pi * ((20 * 1.5 + 2) ** 2 + (14 * 1.5 + 2) ** 2)
    assert 0.85 * halos < np.count_nonzero(mask) < 1.15 * halos
