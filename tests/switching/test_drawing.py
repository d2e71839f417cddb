"""The switching-track game's camera picture (`Camera.draw`): each panel outlined where it
lies, each train ringed where it stands, a train not read surely in the unsure colour."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion import synthetic
from companion.games.protocol import CameraSetup
from companion.games.switching import standin
from companion.games.switching.camera import Camera
from companion.games.switching.demo import teach_standin
from companion.games.switching.drawing import draw
from companion.games.switching.vision.reader import APRON_MM, reading_layout
from companion.vision.annotate import READ, UNSURE
from tests.pictures import filmed, near

SEED = 3  # a table whose every panel, train and die the reader reads
PANEL_MM = (158.0, 158.0)
TRAIN_MM = (13.0, 26.0)


@pytest.fixture(scope="module")
def table():
    return filmed("switching", SEED)


def _pieces(table, size):
    return [card for card in table.scene.cards if card.size == size]


def test_every_panel_is_outlined_where_it_lies(table):
    drawn = table.drawn()
    panels = _pieces(table, PANEL_MM)
    assert len(panels) == 3
    for panel in panels:
        for middle in table.sides(panel):
            assert near(drawn, middle, READ, 4) > 0, f"no outline at {middle} of {panel.pose}"
            assert near(table.frame, middle, READ, 4) == 0


def _ring_reach(table, train) -> int:
    """A little more than the ring's radius (12 mm) in pixels, where the train stands."""
    centre = np.array(train.pose[:2])
    ends = table.view.to_pixels(np.array([centre, centre + (12.0, 0.0)]))
    return round(np.hypot(*(ends[1] - ends[0]))) + 3


def test_every_train_is_ringed_where_it_stands(table):
    drawn = table.drawn()
    trains = _pieces(table, TRAIN_MM)
    assert len(trains) == len(table.reading.seen.trains) == 5
    for train in trains:
        at = table.view.to_pixels(np.array([train.pose[:2]]))[0]
        reach = _ring_reach(table, train)
        # a green train is green itself: the ring is what the drawing adds of the colour
        assert near(drawn, at, READ, reach) > near(table.frame, at, READ, reach) + 20


def test_a_train_not_read_surely_is_in_the_unsure_colour(table):
    seen = table.reading.seen
    doubtful = replace(seen.trains[0], colour=None, sure=False)
    unsure = table.reading._replace(seen=replace(seen, trains=(doubtful, *seen.trains[1:])))
    x, y = table.reading.board.centre(doubtful.space, seen.layout)
    read_at = seen.calibration.to_pixels(np.array([[x + APRON_MM, y + APRON_MM]]))[0]
    truly = [table.view.to_pixels(np.array([t.pose[:2]]))[0] for t in _pieces(table, TRAIN_MM)]
    at = min(truly, key=lambda p: np.hypot(*(p - read_at)))  # where that train truly stands
    reach = _ring_reach(table, _pieces(table, TRAIN_MM)[0])
    assert near(table.drawn(reading=unsure), at, UNSURE, reach) > 0
    assert near(table.drawn(), at, UNSURE, reach) == 0


def test_a_taught_board_is_drawn_without_markers_of_ours_said_hidden(tmp_path):
    """A family's own board has none of our corner markers: the picture outlines the board
    found among the table's markers and says no marker of it hidden."""
    frame_size = (1280, 960)
    setup = CameraSetup(standin.TABLE, frame_size, catalogue=tmp_path / "box")
    teach_standin(setup)
    camera = Camera.over(setup, "ours")
    shown = standin.random_table(7002, hand_chance=0.0)
    filming = replace(synthetic.Camera.easy(), frame_size=frame_size)
    frame = synthetic.render(shown.scene, 3, filming)
    camera.see(frame, None)
    reading = camera.reading
    assert reading is not None and reading.taught and reading.seen.calibration is not None
    markers = reading_layout(reading.board).marker_corners()
    where = [reading.seen.calibration.to_pixels(c[:1])[0]
             for c in markers.values()]  # fmt: skip
    drawn = draw(frame, reading, {"session": None}, "en")
    assert all(near(drawn, at, UNSURE, 6) == 0 for at in where)
    ours = draw(frame, reading._replace(taught=False), {"session": None}, "en")
    assert all(near(ours, at, UNSURE, 6) > 0 for at in where)  # where they would be said
