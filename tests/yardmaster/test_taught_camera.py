"""The camera as the table asks the registry for it (`Game.camera.watcher`) over a box printed in
another design and taught with `companion enroll` (`CameraSetup.catalogue`): its trains
are read and told once still; a catalogue missing a face of the box is refused, naming
what to teach."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.games import game
from companion.games.protocol import CameraSetup
from companion.games.yardmaster import scenes
from companion.games.yardmaster.vision.eval_printed import printed_table, teach_stand_in
from companion.synthetic import Camera, render

CAMERA = game("yardmaster-express").camera


def setup(folder: Path) -> CameraSetup:
    return CameraSetup(scenes.TABLE, Camera.easy().frame_size, catalogue=folder)


def test_a_catalogue_missing_faces_of_the_box_is_refused_naming_them(tmp_path: Path) -> None:
    deck, pictures = teach_stand_in(faces=("E", "W", "R3-B2"))
    deck.save(pictures, tmp_path)
    with pytest.raises(ValueError) as caught:
        CAMERA.watcher(setup(tmp_path), "yardmaster-express")
    assert "R1-R1" in str(caught.value) and "companion enroll" in str(caught.value)


@pytest.mark.slow
def test_a_taught_box_is_read_through_the_games_camera(tmp_path: Path) -> None:
    deck, pictures = teach_stand_in()
    deck.save(pictures, tmp_path)
    watcher = CAMERA.watcher(setup(tmp_path), "yardmaster-express")
    seats = scenes.seat_poses(3)
    trains = (("E", "R1-R1", "W"), ("E",), ("E", "Y2-B3"))
    laid = scenes.lay(
        [
            scenes.TrainOnTable(seats[0], trains[0]),
            scenes.TrainOnTable(seats[1], trains[1]),
            scenes.TrainOnTable(seats[2], trains[2], (False, True)),
        ],
        np.random.default_rng(3),
    )
    frame = render(printed_table(laid), 8, Camera.easy())
    told = watcher.see(frame, None)
    for _ in range(2):  # the same picture again (still_frames 3): the table is still
        told += watcher.see(None, None)
    assert [s.trains is None for s in told] == [True, True, False]  # told once, when still
    seen = told[-1]
    assert seen.camera == ()
    assert seen.trains is not None
    assert sorted(t.cards for t in seen.trains) == sorted(train[1:] for train in trains)
