"""A family's own switching box taught to the camera (switching/vision/taught.py): the
stand-in box the synthetic table draws (switching/standin.py) taught from one frame, its
board found among the table's markers wherever it lies, and its trains, panels and dice
read by the switching reader through the taught board."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from companion.games.switching import demo, scenes, standin
from companion.games.switching.demo import ScriptedGame
from companion.games.switching.vision import reader, taught
from companion.games.switching.vision.eval_vision import score
from companion.games.switching.vision.reader import SeenBoard, SeenPanel, SeenTrain
from companion.pose import Pose
from companion.synthetic import Camera, render
from companion.vision.calibrate import calibrate
from tests.opencv_versions import differs_on_opencv_5

TABLE = standin.TABLE


@cache
def _box() -> taught.TaughtBox:
    lesson = standin.teaching_table(0)
    return taught.teach(render(lesson.scene, 900, Camera.easy()), lesson.board, TABLE)


def _close(found: Pose, truth: Pose, mm: float = 4.0, degrees: float = 0.8) -> bool:
    """Whether a pose found is near the truth: on the table as the camera's calibration
    shows it, which a hard camera's bends by a few mm (the reading, through the same
    calibration, does not see that)."""
    turn = (found.rotation - truth.rotation + 180.0) % 360.0 - 180.0
    return abs(found.x - truth.x) <= mm and abs(found.y - truth.y) <= mm and abs(turn) <= degrees


def test_a_taught_box_is_a_folder_read_back_as_it_was(tmp_path):
    box = _box()
    box.save(tmp_path / "box")
    back = taught.TaughtBox.load(tmp_path / "box")
    assert back.board == box.board and back.hues == box.hues
    assert back.picture.shape == box.picture.shape
    for colour, picture in box.panels.items():
        assert np.abs(back.panels[colour] - picture).max() <= 1 / 150  # the PNG's rounding
    for colour, shape in box.trains.items():
        assert np.array_equal(back.trains[colour], shape)
    assert back.paper == box.paper


def test_the_board_s_buff_paper_is_taught_against_the_table_markers_white():
    buff = np.array(standin.PAPER) / max(standin.PAPER)  # (0.83, 0.94, 1.0)
    paper = _box().paper
    assert paper is not None and np.abs(np.array(paper) - buff).max() <= 0.05  # (0.80, 0.91, 1)


def test_a_box_taught_before_its_paper_was_reads_its_paper_as_white(tmp_path):
    _box().save(tmp_path / "box")
    path = tmp_path / "box" / "box.json"
    document = json.loads(path.read_text())
    del document["paper"]
    path.write_text(json.dumps(document))
    assert taught.TaughtBox.load(tmp_path / "box").paper is None
    document["paper"] = [0.8, 2.0]
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="its paper is three shares of white"):
        taught.TaughtBox.load(tmp_path / "box")


# tuning seeds, no lamp: balanced against the buff board as if it were white paper, the
# white dice turned bluish (3026, 3001: a die unseen) and pale fingertips white (3005: a
# third blob read as a die, so the pair was asked)
@pytest.mark.parametrize(("seed", "numbers"), [(3026, (4, 5)), (3001, (5, 6)), (3005, (3, 5))])
def test_the_white_dice_beside_a_buff_board_are_read_under_the_board_s_own_tint(seed, numbers):
    shown = standin.random_table(seed)
    frame = render(shown.scene, seed, Camera.preset("hard", glare=0.0))
    seen, _ = taught.read_taught(frame, _box(), TABLE)
    assert seen.dice.numbers == numbers and seen.dice.colour == shown.roll[0]
    assert sorted(die.face for die in seen.dice.pips) == list(numbers)


def test_a_folder_that_is_no_taught_box_is_refused_in_words(tmp_path):
    with pytest.raises(ValueError, match="no taught switching box"):
        taught.TaughtBox.load(tmp_path)


def test_a_box_taught_before_trains_had_shapes_is_taught_again(tmp_path):
    _box().save(tmp_path / "box")
    (tmp_path / "box" / "train-green.png").unlink()
    with pytest.raises(ValueError, match="a train's shape: teach it again"):
        taught.TaughtBox.load(tmp_path / "box")


def test_a_train_s_shape_is_taught_facing_along_its_start():
    box = _box()
    shape, ways = box.trains["red"], box.pieces.train_ways["red"]
    # the stand-in's trains: a round nose ahead (the cut-out's first rows), the dark cab
    # at the back, which is no body
    assert reader._facing_by_shape(shape, ways) == 1
    assert reader._facing_by_shape(shape[::-1, ::-1], ways) == -1
    assert reader._facing_by_shape(np.zeros_like(shape), ways) is None


def test_a_taught_train_whose_cab_does_not_tell_is_read_by_its_shape():
    # hard table 3081's yellow train on C1: its cab's dark lay too near its middle to
    # tell (3.4 mm behind it, 4 needed), so it was asked; its shape tells it
    shown = standin.random_table(3081, hand_chance=0.0)
    frame = render(shown.scene, 3081, Camera.preset("hard", glare=0.0))
    seen, _ = taught.read_taught(frame, _box(), TABLE)
    train = seen.train_at("C1")
    assert train is not None and (train.colour, train.facing, train.sure) == ("yellow", 1, True)


def test_the_demo_s_seed_e2e_sees_blue_s_train_facing_along_its_start():
    # `companion demo --game switching --pieces printed --players 4 --seed e2e` stopped at
    # action 34: blue's train on its Start D1, its dark cab blurred into its blue body
    # under the demo's camera, was not told facing either way
    game = demo.ScriptedGame(4, "e2e", "full", 4, "printed")
    camera = replace(Camera.easy(), frame_size=(960, 720))
    lesson = standin.teaching_table(0)
    box = taught.teach(render(lesson.scene, demo._TEACHING_SEED, camera), lesson.board, TABLE)
    step = game.truth.steps[33]
    table = game._table(step.position, step.action.roll, 33)
    frame = render(table.drawn(), random.Random("e2e").randrange(10**6), camera)
    seen, _ = taught.read_taught(frame, box, TABLE)
    assert not seen.unseen
    assert {t.space: (t.colour, t.facing) for t in seen.trains if t.sure} == {
        t.space: (t.owner, t.facing) for t in step.position.trains
    }


# held-out seeds: the finder and reader were tried on 100-119 only; the hard camera
# without its lamp's reflection (under one, a space is unseen: the reader's step 6)
@pytest.mark.parametrize("seed", [7001, 7002, 7003])
def test_the_board_is_found_anywhere_and_its_pieces_read_through_it(seed):
    shown = standin.random_table(seed, hand_chance=0.0)
    frame = render(shown.scene, seed, Camera.preset("hard", glare=0.0))
    seen, found = taught.read_taught(frame, _box(), TABLE)
    assert found is not None and _close(found.pose, shown.pose)
    counts = score(shown, seen)
    assert counts["trains_wrong"] == counts["trains_extra"] == counts["panels_wrong"] == 0
    assert counts["colour_wrong"] == counts["numbers_wrong"] == 0
    assert counts["trains_right"] >= counts["trains"] - 1 and counts["panels_right"] >= 2


def test_a_board_moved_on_the_table_is_found_where_it_now_lies():
    box = _box()
    rng = np.random.default_rng(5)
    lie = scenes.random_layout(box.board, rng)
    poses = [standin.random_pose(box.board, rng) for _ in range(2)]
    found = None
    for k, pose in enumerate(poses):
        scene = standin.table_scene(box.board, pose, lie, (), None, rng)
        seen, found = taught.read_taught(render(scene, 50 + k, Camera.hard()), box, TABLE, found)
        assert found is not None and _close(found.pose, pose)
        assert seen.layout == lie


def test_a_table_without_the_board_says_so_and_reads_nothing_surely():
    box = standin.board()
    away = standin.table_scene(
        box, Pose(-900, -900, 0), box.home, (), None, np.random.default_rng(1)
    )
    empty = render(away, 3, Camera.easy())
    seen, found = taught.read_taught(empty, _box(), TABLE)
    assert found is None and not seen.sure and seen.layout is None
    assert "board_unfound" in {p.key for p in seen.problems}


def test_teaching_refuses_a_frame_without_the_board_or_its_trains():
    box = standin.board()
    away = standin.table_scene(
        box, Pose(-900, -900, 0), box.home, (), None, np.random.default_rng(1)
    )
    with pytest.raises(taught.TeachError, match="outline"):
        taught.teach(render(away, 3, Camera.easy()), box, TABLE)
    bare = standin.table_scene(box, scenes.home_pose(TABLE), box.home, (), None,
                               np.random.default_rng(1))  # fmt: skip
    with pytest.raises(taught.TeachError, match="red train is not seen on A1"):
        taught.teach(render(bare, 3, Camera.easy()), box, TABLE)


def test_under_a_still_camera_the_board_is_kept_and_a_nudge_of_it_seen():
    box, rng = _box(), np.random.default_rng(8)
    lie = scenes.random_layout(box.board, rng)
    pose = standin.random_pose(box.board, rng)
    nudged = Pose(pose.x + 3.0, pose.y - 2.0, pose.rotation + 0.4)
    frames = [render(standin.table_scene(box.board, p, lie, (), None, np.random.default_rng(1)),
                     60, Camera.hard()) for p in (pose, nudged)]  # fmt: skip
    _, found = taught.read_taught(frames[0], box, TABLE)
    seen, again = taught.read_taught(frames[0], box, TABLE, found)
    # nothing moved: kept, not sought again
    assert again.calibration is found.calibration and seen.layout == lie
    seen, moved = taught.read_taught(frames[1], box, TABLE, found)
    assert moved is not None and moved.table is found.table  # the camera still
    assert _close(moved.pose, nudged, mm=1.5) and not _close(moved.pose, pose, mm=1.5)
    assert seen.layout == lie


def test_under_a_still_camera_a_train_moved_on_the_taught_board_is_read_again():
    box, rng = _box(), np.random.default_rng(8)
    lie = scenes.random_layout(box.board, rng)
    pose = standin.random_pose(box.board, rng)
    starts = sorted(box.board.starts)
    before = (scenes.OnBoard("red", starts[0], 1), scenes.OnBoard("blue", starts[1], 1))
    after = (scenes.OnBoard("red", starts[0], 1), scenes.OnBoard("blue", starts[2], 1))
    frames = [render(standin.table_scene(box.board, pose, lie, trains, None,
                                         np.random.default_rng(1)), 60, Camera.hard())
              for trains in (before, after)]  # fmt: skip
    first, found = taught.read_taught(frames[0], box, TABLE)
    assert {t.space for t in first.trains if t.sure} == {starts[0], starts[1]}
    seen, again = taught.read_taught(frames[1], box, TABLE, found)
    assert again is not None and again.calibration is found.calibration  # the board kept
    assert {(t.space, t.colour, t.facing) for t in seen.trains if t.sure} == {
        (starts[0], "red", 1), (starts[2], "blue", 1)}  # fmt: skip
    assert seen == taught.read_taught(frames[1], box, TABLE)[0]  # as a new camera reads it


def test_another_board_on_the_table_is_never_taken_for_the_taught_one():
    ours = scenes.random_table(5, hand_chance=0.0, layout=TABLE)  # our board, not the box's
    seen, found = taught.read_taught(render(ours.scene, 5, Camera.easy()), _box(), TABLE)
    assert found is None and seen.layout is None and not seen.trains
    assert "board_unfound" in {p.key for p in seen.problems}


def test_the_board_s_own_dark_print_beside_a_space_is_never_a_train_s_roof():
    dark = _box().pieces.printed_dark
    assert dark is not None
    # the box's dark sleepers lie beyond a space's ends, along its track, never over it
    rows, _ = dark["A3"].shape
    assert dark["A3"][: rows // 5].any() and dark["A3"][-rows // 5 :].any()
    assert not dark["A3"][2 * rows // 5 : 3 * rows // 5].any()
    # where a train stood while the box was taught, its cab is no print, but the print
    # beyond its ends (a sleeper, the board's border) still is
    for start in standin.board().starts:
        assert not dark[start][rows // 3 : 2 * rows // 3].any()
        assert dark[start][: rows // 5].any() or dark[start][-rows // 5 :].any()


@pytest.mark.parametrize("turn", [-40.0, -12.5, -0.5, 0.0, 0.5, 12.5, 40.0])
def test_a_board_lying_square_is_told_turned_less_than_45_degrees_on_every_opencv(turn):
    # OpenCV 4's minAreaRect gives (0, 90] degrees, 5's [-90, 0): a board lying square
    # was 270 degrees round on 5, and its panels were looked for in the wrong slots.
    corners = cv2.boxPoints(((500.0, 400.0), (700.0, 450.0), turn))
    (cx, cy), (w, h), angle = taught._square(cv2.minAreaRect(corners))
    assert (cx, cy) == pytest.approx((500.0, 400.0), abs=0.5)
    assert (w, h) == pytest.approx((700.0, 450.0), abs=1.0)
    assert angle == pytest.approx(turn, abs=0.1)


def test_a_train_on_a_start_it_was_taught_on_is_read_facing_its_way():
    # the 4-player demo's seed 1, action 25: the yellow train on the Start D1 (where the
    # yellow train stood while the box was taught) beside the board's dark border, a
    # sleeper at its nose; taken for its roof, they left its facing unsure for ever (the
    # demo camera's seed: random.Random("1").randrange(10**6))
    game = ScriptedGame(4, "1", "full", 1, "printed")
    step = game.truth.steps[24]
    camera = replace(Camera.easy(), frame_size=(960, 720))
    scene = game._table(step.position, step.action.roll, 24).drawn()
    seen, _ = taught.read_taught(render(scene, 501479, camera), _box(), TABLE)
    assert seen.train_at("D1") == SeenTrain("D1", "yellow", 1, True)
    assert not seen.unseen


def _read(seed: int, camera: Camera) -> tuple[scenes.Shown, SeenBoard]:
    shown = standin.random_table(seed)
    seen, _ = taught.read_taught(render(shown.scene, seed, camera), _box(), TABLE)
    return shown, seen


def test_a_train_against_another_s_cab_is_never_read_turned_round_surely():
    # table 211019 (the stand-in box, hard camera): the green train on G2, facing the
    # heading, lies against the red train's dark cab on G3; its shape matched turned round
    # better, its roof (83 dark pixels, under the 102 that tell a facing alone) pointed the
    # heading: read turned round surely before, now asked
    shown, seen = _read(211019, Camera.hard())
    truth = next(train for train in shown.trains if train.space == "G2")
    read = seen.train_at("G2")
    assert (truth.colour, truth.facing) == ("green", 1)
    assert read is not None and (not read.sure or read.facing == truth.facing)


def test_a_train_too_coarse_to_tell_its_facing_is_asked_not_read_turned_round_surely():
    # table 3140 through a 720p webcam (the stand-in box, 0.55 px/mm at the train): the
    # blue train on G5, facing the heading, lies 4 mm behind its space's middle; its shape
    # matched turned round (mismatches 12 against 102), its cab beside the board's dark
    # print kept 16 dark pixels, 6.1 mm behind its middle: read turned round surely before,
    # now asked
    shown, seen = _read(3140, Camera.preset("hard", frame_size=(1280, 720)))
    truth = next(train for train in shown.trains if train.space == "G5")
    read = seen.train_at("G5")
    assert (truth.colour, truth.facing) == ("blue", 1)
    assert read is not None and read.colour == "blue"
    assert not read.sure or read.facing == truth.facing


@pytest.mark.parametrize(
    ("seed", "camera"), [(1014, Camera.hard()), (1228, Camera.preset("hard", glare=0.03))]
)
def test_the_board_is_found_where_orb_s_pyramid_or_its_one_scale_alone_did_not(seed, camera):
    # 1014: the pyramid's features alone (Lowe's ratio 0.8) left it unfound, one scale's
    # find it; 1228 (far, half under a lamp's glare): one scale's do not, the pyramid's do
    shown = standin.random_table(seed)
    frame = render(shown.scene, seed, camera)
    table = calibrate(frame, TABLE)
    found = taught.find_board(frame, _box(), table, TABLE)
    assert found is not None and _close(found, shown.pose)


@pytest.mark.parametrize("seed", [2000, 2018, 3016])
def test_the_board_is_found_by_the_coarse_search_alone(seed, monkeypatch):
    # a quarter of the pixels and a third of the features (a new camera's frame: 37 ms to
    # find the board at the picture's scale, 14 coarsely); 2018's board lies far, half
    # under a lamp's glare
    monkeypatch.setattr(taught, "_LEVELS", ())  # no finer search
    shown = standin.random_table(seed)
    frame = render(shown.scene, seed, Camera.hard())
    table = calibrate(frame, TABLE)
    found = taught.find_board(frame, _box(), table, TABLE)
    assert found is not None and _close(found, shown.pose, mm=2.5, degrees=0.3)


def test_a_panel_with_trains_on_it_is_read_the_right_way_round():
    # seed 1114: two trains on the orange panel's spur hid its print, and the two ways
    # round differed too little there to tell; the trains are no print of the panel's
    shown, seen = _read(1114, Camera.hard())
    lie = dict(zip((p.colour for p in shown.board.panels), shown.layout, strict=True))
    assert seen.panels["orange"] == SeenPanel("orange", lie["orange"].slot, False, True)


def test_a_panel_a_lamp_s_glare_partly_hides_is_read_from_what_shows_never_wrongly():
    # seed 1084: a fifth of the orange panel and of the purple one show beside the glare,
    # enough to read both; seed 1047: too little of the cyan one's print shows to tell
    # its way round, and it is asked, not read the wrong way round
    shown, seen = _read(1084, Camera.hard())
    assert seen.layout == shown.layout
    shown, seen = _read(1047, Camera.hard())
    counts = score(shown, seen)
    assert counts["panels_wrong"] == 0 and not seen.panels["cyan"].sure


# tuning seeds with a lamp's reflection on the board (clear of the dice): the paper
# measured under it was washed white, so the buff tint turned the white dice buff and a
# die of many pips (3012's and 3013's six, 3016's four) too small a white blob to be a die
@pytest.mark.parametrize(("seed", "numbers"), [(3012, (5, 6)), (3013, (2, 6)), (3016, (2, 4))])
def test_a_buff_board_s_tint_is_measured_clear_of_a_lamp_s_reflection(seed, numbers):
    shown = standin.random_table(seed)
    seen, _ = taught.read_taught(render(shown.scene, seed, Camera.hard()), _box(), TABLE)
    assert any(p.key == "glare" for p in seen.problems)
    assert seen.dice.numbers == numbers


# tuning seeds 3399 and 4918: a lamp's reflection on the board, the purple colour die on
# the wood clear of it. Balanced on the reflection's white the lamp's warm cast stayed, the
# die's blurred edge took no piece's colour, and what was left was too small to be a die
@pytest.mark.parametrize("seed", [3399, 4918])
def test_a_colour_die_is_found_while_a_lamp_s_reflection_lies_elsewhere_on_the_board(seed):
    shown = standin.random_table(seed)
    seen, _ = taught.read_taught(render(shown.scene, seed, Camera.hard()), _box(), TABLE)
    assert any(p.key == "glare" for p in seen.problems)
    assert seen.dice.colour == shown.roll[0] == "purple"


@cache
def _die_hues() -> dict[str, int]:
    """The stand-in's colour die's own shades taught face by face (`standin.die_lesson`)."""
    return {colour: taught.teach_die(render(standin.die_lesson(colour).scene, 901,
                                            Camera.easy()), _box(), TABLE, colour)[0]
            for colour in standin.PANEL_COLOURS}  # fmt: skip


# tuning seeds 3000-3029, no lamp, the colour die in its own shades: read by the panels'
# colours 11 right (its orange is near the panel's), 19 asked; by its taught faces 30 right
@pytest.mark.parametrize("seed", [3000, 3001, 3002, 3003])
def test_a_colour_die_in_shades_of_its_own_is_read_by_its_taught_faces_and_never_wrongly(seed):
    shown = standin.random_table(seed, own_die=True)
    frame = render(shown.scene, seed, Camera.preset("hard", glare=0.0))
    taught_dice = taught.with_dice(_box(), _die_hues())
    assert taught.read_taught(frame, taught_dice, TABLE)[0].dice.colour == shown.roll[0]
    by_panels = taught.read_taught(frame, _box(), TABLE)[0].dice.colour
    assert by_panels in (None, shown.roll[0])  # asked where its shade is not a panel's
    assert shown.roll[0] in ("purple", "cyan") or by_panels == shown.roll[0]


def test_the_stand_in_s_colour_die_in_its_own_shades_leaves_the_rest_of_the_table_as_it_was():
    plain, own = standin.random_table(3000), standin.random_table(3000, own_die=True)
    camera = Camera.preset("hard", glare=0.0)
    before, after = render(plain.scene, 3000, camera), render(own.scene, 3000, camera)
    die = next(d for d in own.scene.dice if d.kind != "pips")
    centre = calibrate(before, TABLE).to_pixels(np.array([[die.x, die.y]]))[0]
    rows, columns = np.nonzero((before != after).any(axis=2))
    assert len(rows) and np.hypot(columns - centre[0], rows - centre[1]).max() < 30


def test_a_box_s_taught_colour_die_is_kept_in_its_folder(tmp_path):
    box = taught.with_dice(_box(), _die_hues())
    box.save(tmp_path / "box")
    assert taught.TaughtBox.load(tmp_path / "box").dice == box.dice
    assert taught.TaughtBox.load(tmp_path / "box").pieces.dice is not None


def test_a_colour_die_face_like_a_train_s_colour_or_another_face_is_refused_in_words():
    hues = _die_hues()
    with pytest.raises(taught.TeachError, match="look alike"):
        taught.with_dice(_box(), {**hues, "orange": _box().hues["yellow"]})
    with pytest.raises(taught.TeachError, match="look alike"):
        taught.with_dice(_box(), {**hues, "cyan": hues["purple"]})


def test_a_colour_die_not_beside_the_board_is_not_taught():
    lesson = standin.teaching_table(0)  # the board alone: no die
    with pytest.raises(taught.TeachError, match="colour die is not seen alone"):
        taught.teach_die(render(lesson.scene, 901, Camera.easy()), _box(), TABLE, "purple")


def test_a_colour_die_face_taught_comes_with_the_die_as_the_camera_saw_it():
    # for the family to check on the setup page: the die in the middle of its picture
    frame = render(standin.die_lesson("cyan").scene, 901, Camera.easy())
    hue, picture = taught.teach_die(frame, _box(), TABLE, "cyan")
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    rows, columns = picture.shape[:2]
    middle = hsv[rows * 2 // 5 : rows * 3 // 5, columns * 2 // 5 : columns * 3 // 5]
    assert middle[..., 1].mean() > 100  # colourful, not the wood round it
    assert abs(int(np.median(middle[..., 0])) - hue) < 12


# tuning seeds: a far, blurred white die whose layout fits only loosely and whose learned
# count spreads its answer was asked (the shared pip reader); its whole picture, fitted with
# a blurred template of each face at its measured outline, tells its face plainly
@pytest.mark.parametrize(("seed", "face"), [(3110, 3), (3184, 3), (3197, 1), (3264, 2)])
def test_a_blurred_number_die_is_read_by_its_template_where_its_layout_fit_is_loose(seed, face):
    shown, seen = _read(seed, Camera.hard())
    thrown = [die for die in shown.scene.dice if die.kind == "pips"]
    assert face in [die.face for die in thrown]
    assert face in [die.face for die in seen.dice.pips]
    assert all(die.face in (None, *(d.face for d in thrown)) for die in seen.dice.pips)


def test_a_die_read_surely_whose_template_tells_otherwise_is_asked_not_read_wrong():
    # tuning seed 3459: a far 5 whose outline was measured 30 degrees turned, where the four
    # corner pips' layout fit cleanly, was read as a 4 at 0.995
    shown, seen = _read(3459, Camera.hard())
    faces = sorted(die.face for die in shown.scene.dice if die.kind == "pips")
    assert faces == [2, 5]
    assert 4 not in [die.face for die in seen.dice.pips]
    assert seen.dice.numbers in (None, (2, 5))


# tuning seeds: a far, blurred 5 or 6 the template fits only loosely (0.60-0.84) and the
# learned count names at 0.71-0.76 was asked; the two readers naming the same face, with
# the template's margin over the next face at least 1.15, it is read
@pytest.mark.parametrize(
    ("seed", "numbers"), [(3225, (1, 6)), (3363, (1, 5)), (3382, (2, 5)), (3720, (4, 6))]
)
def test_a_far_blurred_die_both_readers_name_alike_is_read(seed, numbers):
    shown, seen = _read(seed, Camera.hard())
    assert sorted(die.face for die in shown.scene.dice if die.kind == "pips") == list(numbers)
    assert seen.dice.numbers == numbers


# seeds at 1280x720: a far 3 seen at 0.42-0.44 px/mm, its middle pip blurred away, the
# template fits as a 2 (0.92-0.94, 1.3-1.9 times better than as a 3) and the learned count
# names a 2 (0.74-0.84): 4177 was read as a 2 surely, and 4037 would be by the two readers'
# agreement alone
@pytest.mark.parametrize(("seed", "numbers"), [(4177, (3, 4)), (4037, (3, 5))])
def test_a_coarse_die_read_without_its_middle_pip_is_asked(seed, numbers):
    shown, seen = _read(seed, Camera.preset("hard", frame_size=(1280, 720)))
    assert sorted(die.face for die in shown.scene.dice if die.kind == "pips") == list(numbers)
    assert 2 not in [die.face for die in seen.dice.pips]
    assert seen.dice.numbers in (None, numbers)


# tuning seeds: a far, blurred 6 whose two rows of pips cut its white into three strips,
# none die-sized, was never found as a die; the strips' gaps closed, it is (on 3330 a pale
# blob where a hand lies over the colour die is asked beside them, so the pair still is)
@pytest.mark.parametrize(
    ("seed", "numbers"),
    [
        (2035, (5, 6)),
        pytest.param(
            3330,
            (4, 6),
            marks=differs_on_opencv_5(
                "issue 33, left open: on OpenCV 5 table 3330's far 6 is not found even with the "
                "strips joined (missed, the pair asked, not misread)"
            ),
        ),
        (3354, (3, 6)),
    ],
)
def test_a_far_6_cut_in_strips_by_its_pips_is_found_and_read(seed, numbers):
    shown, seen = _read(seed, Camera.hard())
    assert sorted(die.face for die in shown.scene.dice if die.kind == "pips") == list(numbers)
    assert sorted(die.face for die in seen.dice.pips if die.face is not None) == list(numbers)
    assert seen.dice.numbers in (None, numbers)


def test_a_panel_s_way_round_is_weighed_on_its_telling_pixels_as_opencv_sums_them():
    """A taught panel's mismatch at each shift summed over its telling pixels alone
    (`least_squared_differences_at`) is what OpenCV's masked sums over the whole slot give
    (`least_squared_differences`), to float rounding, for either way round: the way round
    is read as before, only sooner."""
    rng = np.random.default_rng(7)
    side = 122  # a slot's cut-out less the shifts either way (`_TAUGHT_SHIFT_PX`)
    wide = side + 2 * reader._TAUGHT_SHIFT_PX
    for share in (0.05, 0.2, 0.6):
        seen = rng.uniform(0.0, 1.3, (wide, wide, 3)).astype(np.float32)
        pictures = [rng.uniform(0.0, 1.3, (side, side, 3)).astype(np.float32) for _ in range(2)]
        pictures[0] = seen[2 : 2 + side, 5 : 5 + side] + 0.01  # upright, 2 and 5 px off
        use = rng.random((side, side)) < share
        weight = np.repeat(use.astype(np.float32)[:, :, None], 3, axis=2)
        rows, columns = np.nonzero(use)
        direct = reader.least_squared_differences_at(seen, pictures, rows, columns)
        masked = reader.least_squared_differences(seen, pictures, weight)
        assert direct == pytest.approx(masked, rel=1e-4, abs=1e-2)
        assert direct[0] < 0.01 * direct[1]  # the shifted picture found where it lies


def test_the_picture_s_nearest_features_are_the_brute_force_matcher_s():
    """Each picture feature's nearest two table features, and a table feature's nearest
    picture feature, counted from every distance at once (`_nearest`), are what OpenCV's
    brute-force matcher gives (`_nearest_matched`, numpy before 2.0): the same pairs and
    distances, the first of equals first, on a hard table's own features and on
    descriptors with many ties."""
    frame = render(standin.random_table(3000).scene, 3000, Camera.hard())
    table = calibrate(frame, TABLE)
    _, found = taught._orb(taught.top_down(frame, table, TABLE, 0.5), None, 1000, 1)
    _, picture = _box().features(1, 0.5)
    few = np.random.default_rng(5).integers(0, 3, (60, 32), dtype=np.uint8)
    for query, train in ((picture, found), (few[:40], np.repeat(few[40:], 3, axis=0))):
        counted, matched = taught._nearest(query, train), taught._nearest_matched(query, train)
        assert np.array_equal(counted[0], matched[0])
        assert np.array_equal(counted[1], matched[1])
        asked = np.unique(counted[0][:, 0])
        assert np.array_equal(counted[2](asked), matched[2](asked))
    assert (np.diff(matched[1], axis=1) == 0).any()  # ties were told apart alike
