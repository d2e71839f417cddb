"""The stand-in box the synthetic table draws (switching/standin.py): a family's own board,
panels and trains, of another design than ours, lying anywhere among the table's markers."""

import numpy as np

from companion.games.switching import standin
from companion.games.switching.board import load
from companion.games.switching.vision.reader import read_board
from companion.synthetic import Camera, render
from companion.vision.table import lies_on


def test_the_stand_in_board_is_a_board_file_of_its_own():
    box, ours = standin.board(), load()
    assert box != ours and not box.ours
    assert box.size == (560.0, 560.0)
    assert set(box.spaces) == set(ours.spaces)  # the same game, another print


def test_it_lies_anywhere_any_way_round_clear_of_the_table_markers():
    poses = [standin.random_table(seed, hand_chance=0).pose for seed in range(12)]
    turns = {round(p.rotation) % 90 for p in poses}
    assert len(turns) > 6  # not only quarter turns
    for pose in poses:
        for corners in standin.TABLE.marker_corners().values():
            assert not any(lies_on(pose, standin.board().size, tuple(c)) for c in corners)
    xs = [p.x for p in poses]
    assert max(xs) - min(xs) > 60  # not only the middle of the table


def test_our_reader_cannot_place_it_it_has_no_markers_of_ours():
    shown = standin.random_table(5, hand_chance=0)
    seen = read_board(render(shown.scene, 5, Camera.easy()), shown.board)
    assert "no_board" in {p.key for p in seen.problems}


def test_its_pieces_are_drawn_in_its_own_look():
    purple = standin.panel_picture("purple", 1.0)
    assert purple.shape[2] == 4 and np.any(purple[..., :3] != purple[::-1, ::-1, :3])
    red = standin.train("red", 4.0)
    assert red.shape[:2] == (round(standin.TRAIN_MM[1] * 4), round(standin.TRAIN_MM[0] * 4))
