"""`companion eval-vision --game switching` on a small seeded run: its figures at least the
floor measured when the reader was committed (6 hard scenes from seed 300: every train and
panel right, 5 of 6 number dice pairs, none wrong), and its command line."""

from __future__ import annotations

import json

import pytest

from companion.games.switching.vision import eval_vision


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
