"""`companion eval-vision --game switching` on a small seeded run: its figures at least the
floor measured when the reader was committed (6 hard scenes from seed 300: every train and
panel right, 5 of 6 number dice pairs, none wrong), and its command line."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest

from companion.games.switching import scenes, standin
from companion.games.switching.vision import eval_vision, taught
from companion.games.switching.vision.reader import SeenDie, read_board
from companion.synthetic import Camera, render
from companion.synthetic.photo_dice import FOLDER, PhotoDice
from companion.vision.eval_dice import PHOTOS


@cache
def _taught_box() -> taught.TaughtBox:
    lesson = standin.teaching_table(0)
    return taught.teach(render(lesson.scene, 900, Camera.easy()), lesson.board, standin.TABLE)


@pytest.fixture(scope="module")
def hard_run() -> dict:
    return eval_vision.evaluate(6, 300, "hard")


def test_a_seeded_hard_run_reads_trains_and_panels_right_and_nothing_wrong(hard_run):
    r = hard_run
    assert r["trains"] == 31 and r["panels"] == 18 and r["hands"] == 3
    assert r["trains_accuracy"] >= 0.96  # measured 1.0 (31 of 31)
    assert r["panels_accuracy"] >= 0.94  # measured 1.0 (18 of 18)
    assert r["colour_right"] >= 5 and r["numbers_right"] >= 4  # measured 6 and 5 of 6
    wrong = ("trains_wrong", "trains_extra", "panels_wrong", "colour_wrong", "numbers_wrong")
    assert {key: r[key] for key in wrong} == dict.fromkeys(wrong, 0)
    assert r["plain_pass_ms_p50"] > 0 and r["latency_ratio_p50"] > 0  # timed in the same run
    assert r["number_dice"] == 12 and r["number_dice_right"] >= 10  # measured 11 of 12
    assert r["number_dice_wrong"] == r["number_dice_extra"] == 0
    assert r["number_dice_right"] >= 2 * r["numbers_right"]  # a pair read is two dice read


def test_eval_vision_prints_one_json_document(capsys):
    assert (
        eval_vision.main(["--scenes", "1", "--seed", "300", "--difficulty", "easy", "--json"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert (result["game"], result["scenes"], result["difficulty"]) == ("switching", 1, "easy")
    assert result["trains_right"] == result["trains"] > 0


def test_eval_vision_refuses_no_scenes_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        eval_vision.main(["--scenes", "0"])
    assert exit_.value.code == 2
    assert "--scenes is 1 or more" in capsys.readouterr().err


needs_photos = pytest.mark.skipif(
    not (PHOTOS / FOLDER).is_dir(),
    reason=f"the labelled dice photographs are not at {PHOTOS / FOLDER} (not in the repo)",
)


@needs_photos
def test_real_number_dice_lie_where_the_drawn_ones_would_and_the_roll_is_their_pips():
    truth = scenes.random_table(300)
    cut = PhotoDice()
    photos = (d for i in range(len(cut)) if (d := cut.die(i)) is not None)
    real = eval_vision.with_real_numbers(truth, photos)
    before, after = truth.scene.dice, real.scene.dice
    assert [(d.kind, d.x, d.y, d.rotation) for d in after] == [
        (d.kind, d.x, d.y, d.rotation) for d in before
    ]
    numbers = [d for d in after if d.kind == "pips"]
    assert len(numbers) == 2 and all(d.picture is not None for d in numbers)
    assert real.roll == (truth.roll[0], numbers[0].face, numbers[1].face)
    assert [d for d in after if d.kind != "pips"] == [d for d in before if d.kind != "pips"]
    assert real.trains == truth.trains and real.scene.cards == truth.scene.cards


@needs_photos
def test_eval_vision_measures_real_number_dice_and_reads_none_wrong(capsys):
    code = eval_vision.main(["--scenes", "2", "--seed", "300", "--dice", "real", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and (doc["dice_kind"], doc["photo_dice_half"]) == ("real", "even")
    assert doc["numbers_right"] + doc["numbers_unsure"] + doc["numbers_wrong"] == 2
    assert doc["numbers_wrong"] == 0  # a real pair is asked, never guessed


def test_missing_dice_photographs_say_where_they_were_looked_for(tmp_path, capsys):
    args = ["--scenes", "1", "--dice", "real", "--dice-photos", str(tmp_path / "nowhere")]
    assert eval_vision.main(args) == 2
    assert "--dice-photos" in capsys.readouterr().err


def test_eval_vision_measures_a_taught_stand_in_box_and_reads_none_wrong(capsys):
    code = eval_vision.main(["--scenes", "2", "--seed", "300", "--pieces", "printed", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["pieces"] == "printed" and doc["trains"] > 0
    wrong = ("trains_wrong", "trains_extra", "panels_wrong", "colour_wrong", "numbers_wrong")
    assert {key: doc[key] for key in wrong} == dict.fromkeys(wrong, 0)
    assert doc["trains_right"] >= doc["trains"] - 1 and doc["panels_right"] >= 5


@pytest.fixture(scope="module")
def lamp_run() -> dict:
    return eval_vision.evaluate(1, 1303, "hard", glare=0.03, pieces="printed")


def test_pieces_under_a_lamps_reflection_are_counted_apart_and_are_the_ones_asked(lamp_run):
    """Seed 1303 of the stand-in box with a lamp: the two trains the reader asks lie under
    the reflection, so every train clear of it is read right; seed 1302's lamp lies off
    every piece, and nothing is counted under it."""
    lit = lamp_run
    assert lit["trains_unsure"] == lit["trains_lamp_unsure"] == 2
    assert lit["trains_lamp"] >= 2 and lit["trains_accuracy"] < 1.0
    assert lit["trains_clear_accuracy"] == 1.0
    assert lit["trains"] - lit["trains_lamp"] == lit["trains_right"] - lit["trains_lamp_right"]
    dark = eval_vision.evaluate(1, 1302, "hard", glare=0.03, pieces="printed")
    lamp = [key for key in eval_vision.LAMP_COUNTS if dark[key]]
    assert lamp == [] and dark["trains_clear_accuracy"] == dark["trains_accuracy"] == 1.0


def test_a_report_says_what_was_read_clear_of_the_lamp_and_under_it(lamp_run):
    text = eval_vision.report(lamp_run)
    assert "where its reflection touches none of the piece, read right: trains 100.00%" in text
    assert "under it: trains " in text and "2 asked" in text
    assert "where neither the lamp nor a hand touches the piece, read right: trains" in text


def test_a_number_die_under_a_hand_is_counted_unsure_and_the_other_right_die_by_die():
    # seed 3008 of the stand-in box: a hand lies over one number die; the pair is asked,
    # but the die beside it was read, and is counted so
    shown = standin.random_table(3008)
    seen, _ = taught.read_taught(render(shown.scene, 3008, Camera.preset("hard", glare=0.0)),
                                 _taught_box(), standin.TABLE)  # fmt: skip
    counts = eval_vision.score(shown, seen)
    assert counts["numbers_unsure"] == 1
    assert counts["number_dice"] == 2 and counts["number_dice_right"] == 1
    assert counts["number_dice_unsure"] == 1
    assert counts["number_dice_wrong"] == counts["number_dice_extra"] == 0
    assert counts["number_dice_missed"] == 1  # not seen at all, not asked


def test_a_number_die_read_surely_where_none_was_thrown_is_counted_seen_where_none_lies():
    shown = scenes.random_table(300)
    seen = read_board(render(shown.scene, 300, Camera.easy()), shown.board)
    beside = SeenDie(-40.0, -40.0, 6)  # beyond the board's top left corner: no die there
    counts = eval_vision.score(shown, replace(seen, dice=replace(seen.dice, pips=(
        *seen.dice.pips, beside))))  # fmt: skip
    assert counts["number_dice_extra"] == 1 and counts["number_dice_right"] == 2
    wrong = replace(seen.dice.pips[0], face=seen.dice.pips[0].face % 6 + 1)
    counts = eval_vision.score(shown, replace(seen, dice=replace(seen.dice, pips=(
        wrong, *seen.dice.pips[1:]))))  # fmt: skip
    assert counts["number_dice_wrong"] == 1 and counts["number_dice_extra"] == 0


def test_a_clean_4_the_learned_count_spreads_is_read_surely_on_the_stand_in_box():
    # tuning seed 3048 of the stand-in box: one number die shows a 4 its layout fits
    # cleanly while the table's count spreads its answer over 2-6; it was asked
    shown = standin.random_table(3048)
    camera = Camera.preset("hard")
    seen, _ = taught.read_taught(render(shown.scene, 3048, camera), _taught_box(), standin.TABLE)
    counts = eval_vision.score(shown, seen)
    assert counts["number_dice_right"] == 2 and counts["numbers_right"] == 1
    assert counts["number_dice_wrong"] == counts["number_dice_extra"] == 0


def test_a_number_die_under_a_hand_is_counted_apart_as_the_lamp_s_are():
    # seed 3008 of the stand-in box: a hand lies over one number die (the second thrown)
    shown = standin.random_table(3008)
    covered = eval_vision.under_hand(shown)
    assert "number:1" in covered and "number:0" not in covered
    assert eval_vision.under_hand(standin.random_table(3048)) == frozenset()  # no hand there
    seen, _ = taught.read_taught(render(shown.scene, 3008, Camera.preset("hard", glare=0.0)),
                                 _taught_box(), standin.TABLE)  # fmt: skip
    counts = eval_vision.score(shown, seen, covered=covered)
    assert counts["number_dice_hand"] == counts["number_dice_hand_unsure"] == 1
    assert counts["number_dice_open"] == counts["number_dice_open_right"] == 1
    assert counts["number_dice_lamp"] == 0


def test_a_coarse_colour_die_whose_white_pips_bleed_into_it_is_read():
    # tuning seed 7024 of the stand-in box at 1280x720 (about a pixel a millimetre): the
    # cyan colour die's white pips are a fifth of its blob and more; it was asked
    shown = standin.random_table(7024)
    camera = Camera.preset("hard", frame_size=(1280, 720))
    seen, _ = taught.read_taught(render(shown.scene, 7024, camera), _taught_box(), standin.TABLE)
    assert shown.roll[0] == "cyan" and seen.dice.colour == "cyan"
