"""The switching-track table through the camera: our board rendered with known panels,
trains and dice (companion/games/switching/scenes.py), read back by `read_board`."""

from __future__ import annotations

import dataclasses
from functools import cache
from itertools import permutations, product

import numpy as np
import pytest

from companion.games.switching import board as boards
from companion.games.switching import rules, scenes
from companion.games.switching.board import Lie
from companion.games.switching.vision import reader
from companion.games.switching.vision.reader import read_board
from companion.synthetic import Camera, Hand, render
from companion.vision.frame_checks import glare_mask, glared


@cache
def _board() -> boards.Board:
    return boards.load()


def _position(trains: list[rules.Train], layout=None, depots=(0, 0)) -> rules.Position:
    """A position of red and blue on our board with these trains and panels."""
    start = rules.deal(_board(), ("red", "blue"))
    return dataclasses.replace(
        start, trains=tuple(sorted(trains)), layout=layout or start.layout, depots=depots
    )


def _read(
    position: rules.Position,
    seed: int,
    camera: Camera,
    roll=None,
    hands=(),
    pose=None,
    number_dice: str = "white",
):
    """The table showing `position` and `roll` as the camera reads it, its number dice of
    `number_dice` (a colour of dice_art.PIP_COLOURS)."""
    rng = np.random.default_rng(seed)
    scene = scenes.board_scene(_board(), position, roll, rng, hands, pose=pose)
    dice = tuple(
        dataclasses.replace(die, colour=number_dice) if die.kind == "pips" else die
        for die in scene.dice
    )
    scene = dataclasses.replace(scene, dice=dice)
    return read_board(render(scene, seed, camera), _board())


def _seen_trains(seen) -> dict[str, tuple[str | None, int | None]]:
    return {t.space: (t.colour, t.facing) for t in seen.trains if t.sure}


# a train on every kind of space: a Start, a Finish, a track's middle, a panel's curve, a
# panel piece's last space before its dead end, both facings, and a crowded track (A2-A4
# nose to tail, a red and two blues)
EVERY_KIND = [
    rules.Train("A1", "red", 1),
    rules.Train("A2", "blue", 1),
    rules.Train("A3", "blue", -1),
    rules.Train("A4", "red", 1),
    rules.Train("E5", "blue", 1),
    rules.Train("G3", "red", -1),
    rules.Train("p2", "red", -1),
    rules.Train("p5", "blue", 1),
    rules.Train("o6", "red", 1),
    rules.Train("c4", "blue", -1),
]


@pytest.mark.parametrize("camera", ["easy", "hard"])
def test_a_train_on_every_kind_of_space_is_read_with_its_colour_and_facing(camera):
    seen = _read(_position(EVERY_KIND), 11, Camera.preset(camera))
    assert _seen_trains(seen) == {t.space: (t.owner, t.facing) for t in EVERY_KIND}
    assert seen.unseen == ()  # every other space surely empty
    assert seen.layout == _board().home


# eight lies of the panels that put every panel in every slot, both ways round
_SLOTS = ("NW", "NE", "SE", "SW")
LIES = [
    tuple(Lie(_SLOTS[(shift + k) % 4], bool((shift + k + turn) % 2)) for k in range(3))
    for shift in range(4)
    for turn in (0, 1)
]


def test_the_lies_cover_every_panel_in_every_slot_either_way():
    assert {(k, lie) for layout in LIES for k, lie in enumerate(layout)} == {
        (k, Lie(slot, turned)) for k in range(3) for slot in _SLOTS for turned in (False, True)
    }


@pytest.mark.parametrize("layout", LIES, ids=lambda lie: "-".join(f"{s}{int(t)}" for s, t in lie))
def test_every_panel_is_read_in_its_slot_and_way_round_and_its_trains_ride_with_it(layout):
    trains = [rules.Train("p1", "red", 1), rules.Train("c6", "blue", -1),
              rules.Train("o3", "blue", 1)]  # fmt: skip
    seen = _read(_position(trains, layout), 21, Camera.hard())
    assert seen.layout == layout
    assert _seen_trains(seen) == {t.space: (t.owner, t.facing) for t in trains}


def test_the_board_is_read_wherever_and_however_it_lies_on_the_table():
    trains = [rules.Train("B2", "red", 1), rules.Train("H4", "blue", -1)]
    home = scenes.home_pose()
    pose = home._replace(x=home.x + 10, y=home.y - 6, rotation=93.0)  # a quarter turn and more
    seen = _read(_position(trains), 5, Camera.hard(), pose=pose)
    assert _seen_trains(seen) == {"B2": ("red", 1), "H4": ("blue", -1)}


def test_a_hand_over_a_train_makes_it_unsure_never_wrong():
    trains = [rules.Train("D3", "red", 1), rules.Train("F3", "blue", -1)]
    table = scenes.to_table(_board(), scenes.home_pose(), _board().centre("D3", _board().home))
    x, y = table[0]
    hand = Hand(float(x), float(y) + 40.0, 0.0)  # the fingers over D3, reaching from below
    seen = _read(_position(trains), 7, Camera.hard(), hands=(hand,))
    d3 = seen.train_at("D3")
    assert d3 is None or not d3.sure
    assert "D3" in seen.unseen
    assert _seen_trains(seen) == {"F3": ("blue", -1)}  # the train in view still read
    assert "spaces_unseen" in [p.key for p in seen.problems]


@pytest.mark.parametrize("seed", [3, 4])
def test_the_dice_beside_the_board_are_read(seed):
    roll = rules.Roll("orange", 6, 2) if seed == 3 else rules.Roll("purple", 3, 3)
    seen = _read(_position([rules.Train("A2", "red", 1)]), seed, Camera.hard(), roll=roll)
    assert seen.dice.colour == roll.colour
    assert seen.dice.numbers == tuple(sorted((roll.white, roll.black)))
    assert seen.dice.sure


@pytest.mark.parametrize("colour", ["red", "black", "blue", "green"])
def test_number_dice_of_another_colour_than_white_are_read(colour):
    """A family's number dice need not be white: a shop's red, black, blue or green pip dice
    (found by the shared finder in the dice bands) are read as white ones are, beside the
    colour die."""
    roll = rules.Roll("orange", 6, 2)
    position = _position([rules.Train("A2", "red", 1)], depots=(2, 1))
    seen = _read(position, 5, Camera.hard(), roll=roll, number_dice=colour)
    assert (seen.dice.colour, seen.dice.numbers, seen.dice.sure) == ("orange", (2, 6), True)


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_trains_standing_in_their_depots_beside_the_board_are_no_dice(seed):
    """Finished trains stand in the bands where dice are thrown, as colourful as a die and,
    to the learned count, their black roof and white lamp much like a 2's pips: each is
    told from a die by its length, and no die is seen where none was thrown."""
    position = _position([rules.Train("A2", "red", 1)], depots=(3, 3))
    seen = _read(position, seed, Camera.hard())
    assert seen.dice.pips == ()


def test_a_die_cut_in_strips_by_its_pips_is_found_once_and_a_whole_die_not_again():
    # the small top-down image at 0.5 px/mm: a die is 8 pixels a side; a far 6's two rows
    # of blurred pips leave three strips of white, none die-sized
    mask = np.zeros((60, 60), bool)
    mask[10:18, 10:18] = True  # a die whole
    mask[40:48, 20:28] = True
    mask[42, 20:28] = mask[45, 20:28] = False  # the 6 cut in three
    whole = reader.die_spots(mask)
    assert len(whole) == 1
    split = reader.split_die_spots(mask, whole)
    assert [(round(x), round(y)) for x, y, _ in split] == [(47, 87)]  # mm: pixel (23.5, 43.5)


def test_no_dice_thrown_is_not_a_roll():
    seen = _read(_position([]), 8, Camera.easy())
    assert (seen.dice.colour, seen.dice.numbers, seen.dice.sure) == (None, None, False)


@pytest.mark.parametrize(
    ("frame", "key"),
    [
        (None, "no_image"),
        (np.zeros((40, 40, 3), np.uint8), "frame_tiny"),
        (np.zeros((480, 640, 3), np.uint8), "too_dark"),
        (np.full((480, 640, 3), 255, np.uint8), "overexposed"),
        (np.full((480, 640, 3), 128, np.uint8), "no_board"),
    ],
)
def test_a_frame_that_shows_no_board_is_said_not_raised(frame, key):
    seen = read_board(frame, _board())
    assert key in [p.key for p in seen.problems]
    assert seen.trains == () and seen.layout is None and not seen.sure
    assert set(seen.unseen) == set(_board().spaces)  # nothing is said to be empty


def test_a_frame_without_colour_is_said_and_nothing_read_surely():
    """Every piece is told by its colour: through a camera without colour the board is
    placed, the missing colour is said, and no train, panel or die is read, never guessed."""
    grey = dataclasses.replace(Camera.hard(), grey=True)
    seen = _read(_position(EVERY_KIND), 906, grey, roll=rules.Roll("orange", 3, 5))
    assert [p.key for p in seen.problems] == ["no_colour"]
    assert "switch the camera's colour on" in seen.problems[0].text
    assert seen.trains == () and seen.layout is None and not seen.sure
    assert set(seen.unseen) == set(_board().spaces)  # nothing is said to be empty
    assert (seen.dice.colour, seen.dice.numbers, seen.dice.sure) == (None, None, False)


def test_a_hand_on_a_board_marker_is_said_and_the_board_still_read():
    trains = EVERY_KIND[:4]
    rng = np.random.default_rng(2)
    clear = scenes.board_scene(_board(), _position(trains), None, rng)
    first = read_board(render(clear, 2, Camera.easy()), _board())
    corner = scenes.to_table(_board(), scenes.home_pose(), (25.0, 25.0))[0]  # marker 4
    hand = Hand(float(corner[0]), float(corner[1]) + 60.0, 0.0)
    covered = dataclasses.replace(clear, hands=(hand,))
    seen = read_board(render(covered, 2, Camera.easy()), _board(), calibration=first.calibration)
    assert "markers_hidden" in [p.key for p in seen.problems]
    assert (
        _seen_trains(seen) == _seen_trains(first) == {t.space: (t.owner, t.facing) for t in trains}
    )


# Four orders in which each slot holds each panel once (`make test`); the other twenty run
# in `make test-long`.
_ROTATIONS = {(_SLOTS[i:] + _SLOTS[:i])[:3] for i in range(len(_SLOTS))}


@pytest.mark.slow
@pytest.mark.parametrize(
    "order",
    [
        pytest.param(order, marks=() if order in _ROTATIONS else pytest.mark.long)
        for order in permutations(_SLOTS, 3)
    ],
    ids="-".join,
)
def test_every_arrangement_of_the_panels_is_read(order):
    """All 192 lies (the panels in any three slots, each either way round), 8 a test."""
    for turned in product((False, True), repeat=3):
        layout = tuple(Lie(slot, way) for slot, way in zip(order, turned, strict=True))
        trains = [rules.Train("p3", "red", -1), rules.Train("c2", "blue", 1),
                  rules.Train("o5", "red", 1)]  # fmt: skip
        seen = _read(_position(trains, layout), 31, Camera.hard())
        assert seen.layout == layout
        assert _seen_trains(seen) == {t.space: (t.owner, t.facing) for t in trains}


@pytest.mark.parametrize("seed", [5005, 5019])
def test_under_a_lamp_s_glare_nothing_is_read_wrong_yet_sure_and_the_glare_is_said(
    seed: int,
) -> None:
    """A reflection turns a space white (it looked empty, a train there was lost) and washes
    a panel's colour out: what it touches is unseen or unsure, and the frame says why."""
    truth = scenes.random_table(seed)
    seen = read_board(render(truth.scene, seed, Camera.preset("hard", glare=0.03)), _board())
    assert "glare" in [p.key for p in seen.problems]
    on = {t.space: (t.colour, t.facing) for t in truth.trains}
    for space, train in on.items():
        assert _seen_trains(seen).get(space, train) == train
        assert space in seen.unseen or seen.train_at(space) is not None
    for panel, lie in zip(truth.board.panels, truth.layout, strict=True):
        read = seen.panels[panel.colour]
        assert not read.sure or (read.slot, read.turned) == tuple(lie)


def test_a_train_in_a_lamp_s_halo_clear_of_its_clipped_white_is_still_read() -> None:
    """The halo round a reflection only pales what lies in it: a train there is read when
    its colour and facing are read surely (before, every train the halo touched was
    asked: table 5014's A3 and A4)."""
    truth = scenes.random_table(5014)
    frame = render(truth.scene, 5014, Camera.preset("hard", glare=0.03))
    seen = read_board(frame, _board())
    glare = glare_mask(frame)
    assert glare is not None and "glare" in [p.key for p in seen.problems]
    assert _seen_trains(seen) == {t.space: (t.colour, t.facing) for t in truth.trains}
    halo = [t.space for t in truth.trains
            if glared(glare, _space_pixels(seen, t.space, truth.layout))]  # fmt: skip
    assert sorted(halo) == ["A3", "A4"]


def _space_pixels(seen, space: str, layout) -> np.ndarray:
    """The frame pixels of a space's cut-out, as the reader cuts it."""
    board = _board()
    corners = reader.rectangle_corners(board.centre(space, layout), board.heading(space, layout),
                              reader.PATCH_MM)  # fmt: skip
    return seen.calibration.to_pixels(corners)


def test_without_glare_no_glare_is_said() -> None:
    truth = scenes.random_table(5005)
    seen = read_board(render(truth.scene, 5005, Camera.preset("hard", glare=0.0)), _board())
    assert "glare" not in [p.key for p in seen.problems]


def _frames_of_a_still_camera(positions, seed: int, camera: Camera, hands=()):
    """Frames of one still camera (the same pose, light and noise) over the table showing
    each of `positions` in turn: two differ only where a piece moved."""
    return [
        render(scenes.board_scene(_board(), p, None, np.random.default_rng(seed), hands), seed,
               camera)
        for p in positions
    ]  # fmt: skip


def _cut_spaces(monkeypatch) -> list[int]:
    """How many spaces' cut-outs each reading makes from now on (one number a call)."""
    counts: list[int] = []
    cut = reader.cut_many

    def counting(frame, pixels, size_mm, scale):
        if size_mm == reader.PATCH_MM:
            counts.append(len(pixels))
        return cut(frame, pixels, size_mm, scale)

    monkeypatch.setattr(reader, "cut_many", counting)
    return counts


def test_a_still_camera_s_next_frame_reads_again_where_a_train_moved_and_keeps_the_rest(
    monkeypatch,
):
    purple = [p.colour for p in _board().panels].index(_board().spaces["p2"].panel)
    home = _board().home
    turned = tuple(Lie(lie.slot, not lie.turned) if k == purple else lie
                   for k, lie in enumerate(home))  # fmt: skip
    before = [rules.Train("A2", "red", 1), rules.Train("E5", "blue", 1),
              rules.Train("G3", "red", -1), rules.Train("p2", "blue", -1)]  # fmt: skip
    # A2's train moved on to A3, E5's turned round, the purple panel turned with p2's
    # train on it; G3's stood still
    after = [rules.Train("A3", "red", 1), rules.Train("E5", "blue", -1),
             rules.Train("G3", "red", -1), rules.Train("p2", "blue", -1)]  # fmt: skip
    frames = _frames_of_a_still_camera(
        [_position(before), _position(after, turned)], 43, Camera.hard()
    )
    first = read_board(frames[0], _board())
    assert _seen_trains(first) == {t.space: (t.owner, t.facing) for t in before}
    cut = _cut_spaces(monkeypatch)
    seen = read_board(frames[1], _board(), calibration=first.calibration, memo=first.memo)
    assert _seen_trains(seen) == {t.space: (t.owner, t.facing) for t in after}
    assert seen.layout == turned and seen.unseen == ()
    assert seen == read_board(frames[1], _board())  # as a new camera reads it
    # only the spaces where the picture changed were cut out again: A2, A3, E5, the
    # turned panel's, and their neighbours
    spaces = len(_board().spaces)
    assert cut[0] < spaces / 2 and cut[1] == spaces


def test_a_still_camera_s_frame_with_nothing_changed_keeps_every_reading(monkeypatch):
    # under a lamp's reflection that leaves a track unseen
    frames = _frames_of_a_still_camera([_position(EVERY_KIND)] * 2, 45, Camera.hard())
    first = read_board(frames[0], _board())
    cut = _cut_spaces(monkeypatch)
    seen = read_board(frames[1], _board(), calibration=first.calibration, memo=first.memo)
    # only the spaces not read surely were cut out again (fresh noise may tell them)
    assert first.layout is not None and first.unseen
    assert seen == first and cut == [len(first.unseen)]
    # the memo of another camera's frame (moved: calibrated anew) is not taken
    moved = render(scenes.board_scene(_board(), _position(EVERY_KIND), None,
                                      np.random.default_rng(45)), 13, Camera.hard())  # fmt: skip
    cut.clear()
    seen = read_board(moved, _board(), calibration=first.calibration, memo=first.memo)
    assert cut == [len(_board().spaces)]
    assert _seen_trains(seen) == {t.space: (t.owner, t.facing) for t in EVERY_KIND}


def test_a_hand_moved_over_a_train_under_a_still_camera_makes_it_unsure_and_uncovers_others():
    trains = [rules.Train("E5", "red", 1), rules.Train("G3", "blue", -1)]
    ((x, y),) = scenes.to_table(_board(), scenes.home_pose(), _board().centre("E5", _board().home))
    lower, over = Hand(float(x), float(y) + 150.0, 0.0), Hand(float(x), float(y) + 40.0, 0.0)
    frames = [_frames_of_a_still_camera([_position(trains)], 43, Camera.hard(), (hand,))[0]
              for hand in (lower, over)]  # fmt: skip
    first = read_board(frames[0], _board())
    assert _seen_trains(first) == {"E5": ("red", 1), "G3": ("blue", -1)}
    assert {"A1", "A2"} <= set(first.unseen)  # under the hand reaching lower
    seen = read_board(frames[1], _board(), calibration=first.calibration, memo=first.memo)
    assert seen.calibration is first.calibration  # the camera still: the memo taken
    assert "E5" in seen.unseen and _seen_trains(seen) == {"G3": ("blue", -1)}
    assert not {"A1", "A2"} & set(seen.unseen)  # uncovered, read again
    assert seen == read_board(frames[1], _board())
