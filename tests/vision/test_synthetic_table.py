"""The synthetic table draws any game's pieces, and the synthetic camera shows the table its
caller's game lays, the Caboose one through the game's own `scene`."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games import game
from companion.games.caboose.scenes import PlacedCard, Scene, random_scene, render
from companion.games.caboose.vision.observe import observe
from companion.pose import Pose
from companion.synthetic import Camera, Card, PlacedDie, Token, camera_view
from companion.synthetic import Scene as Table
from companion.synthetic import render as render_table
from hw.frames import SyntheticFrames, open_source

GREEN, MAGENTA = (40, 200, 40), (200, 40, 200)


def _tile(px_per_mm: float) -> np.ndarray:
    """A plain green 60 x 90 mm tile: a card of no game the companion knows."""
    tile = np.empty((round(90 * px_per_mm), round(60 * px_per_mm), 4), np.uint8)
    tile[:] = (*GREEN, 255)
    return tile


def _meeple(px_per_mm: float) -> np.ndarray:
    """A magenta disc 24 mm across, transparent around it."""
    side = round(24 * px_per_mm)
    yy, xx = np.mgrid[0:side, 0:side]
    inside = np.hypot(xx - (side - 1) / 2, yy - (side - 1) / 2) <= side / 2
    disc = np.zeros((side, side, 4), np.uint8)
    disc[inside] = (*MAGENTA, 255)
    return disc


def _colour_at(frame: np.ndarray, seed: int, point: tuple[float, float]) -> np.ndarray:
    """The frame's mean colour over 5x5 pixels where table point `point` (mm) landed."""
    view = camera_view(seed, Camera.easy(), Table().layout)
    x, y = view.to_pixels(np.array([point]))[0].round().astype(int)
    return frame[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(axis=0)


def test_another_game_s_pieces_lie_where_its_scene_lays_them() -> None:
    tile = Card(_tile, Pose(300.0, 250.0, 30.0), (60.0, 90.0))
    table = Table(cards=(tile,), tokens=(Token(_meeple, 560.0, 400.0, 24.0),))
    frame = render_table(table, 2, Camera.easy())
    assert np.abs(_colour_at(frame, 2, (300.0, 250.0)) - GREEN).max() < 30
    assert np.abs(_colour_at(frame, 2, (560.0, 400.0)) - MAGENTA).max() < 30
    # turned 30 degrees clockwise: (25, 40) mm from its centre in the tile's own axes is on
    # it, though 47 mm below its centre on the table; (28, 40) mm on the table is off it
    assert np.abs(_colour_at(frame, 2, (300.0 + 1.65, 250.0 + 47.1)) - GREEN).max() < 30
    assert np.abs(_colour_at(frame, 2, (300.0 + 28.0, 250.0 + 40.0)) - GREEN).max() > 60
    assert np.array_equal(frame, render_table(table, 2, Camera.easy()))


def test_the_caboose_game_s_synthetic_camera_shows_a_table_in_mid_game() -> None:
    """`synthetic:SEED` at the service shows what it showed before the table knew games: a
    Rollecate railway from that seed, which recognition reads card for card."""
    scene = random_scene(4)
    with open_source("synthetic:4", game("caboose").camera.scene) as source:
        frame = source.read()
    assert np.array_equal(frame, render(scene, 4, Camera.easy()))
    seen = observe(frame)
    assert sorted(c.code for c in seen.cards) == sorted(c.code for c in scene.cards)


def test_without_a_game_the_synthetic_camera_shows_the_bare_table() -> None:
    with open_source("synthetic:4") as source:
        seen = observe(source.read())
    assert seen.calibration is not None and not seen.cards and not seen.dice


def test_a_shown_scene_replaces_the_table_under_the_camera() -> None:
    camera = SyntheticFrames(6)
    assert not observe(camera.read()).cards
    card = PlacedCard("3/s", Pose(420.0, 300.0, 90.0))
    camera.show(Scene(cards=(card,), railway=(0,)).drawn())
    assert [c.code for c in observe(camera.read()).cards] == ["3/s"]


def test_pieces_nobody_draws_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="wheels or pips"):
        render_table(Table(dice=(PlacedDie("dots", 3, 300.0, 300.0),)), 1)
    with pytest.raises(ValueError, match="ours or printed"):
        Scene(cards=(), railway=(), design="hand-drawn").drawn()
