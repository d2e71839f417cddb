"""A lamp's reflection in a frame (companion/vision/frame_checks.py `glare_mask`): found
where the synthetic camera draws one, and nowhere else."""

from __future__ import annotations

import numpy as np

from companion.games.caboose.scenes import random_scene, render
from companion.synthetic import Camera, camera_view
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
