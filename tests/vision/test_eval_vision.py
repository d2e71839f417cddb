"""`companion eval-vision`: the measured figures, in JSON."""

from __future__ import annotations

import json

import pytest

from companion.app import eval_vision


def test_json_report_has_the_figures_and_they_are_right_on_easy_scenes(capsys) -> None:
    assert eval_vision.main(["--scenes", "2", "--seed", "3", "--difficulty", "easy", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for key in ("cards_accuracy", "railway_exact", "caboose_accuracy", "dice_accuracy",
                "latency_ms_p50", "latency_ms_p95", "scenes"):  # fmt: skip
        assert key in doc
    assert doc["scenes"] == 2 and doc["cards"] >= 6
    assert doc["cards_accuracy"] == 1.0 and doc["railway_exact"] == 1.0
    assert doc["caboose_accuracy"] == 1.0 and doc["dice_accuracy"] == 1.0
    assert 0 < doc["latency_ms_p50"] <= doc["latency_ms_p95"]


def test_bad_scene_count_exits_2() -> None:
    with pytest.raises(SystemExit) as stop:
        eval_vision.main(["--scenes", "0"])
    assert stop.value.code == 2


def test_grey_measures_through_a_camera_without_colour(capsys) -> None:
    argv = ["--scenes", "1", "--seed", "3", "--difficulty", "easy", "--grey"]
    assert eval_vision.main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["grey"] and doc["cards_accuracy"] == 1.0  # the cards need no colour
    assert eval_vision.main(argv) == 0
    assert "a camera without colour" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["caboose", "switching", "yardmaster-express"])
def test_every_game_measures_under_a_lamp_s_glare(game: str, capsys) -> None:
    """`--glare` alone is the usual reflection (3 % of the frame at most), with a share
    the share asked for; a share that is no number or too large is refused by name."""
    assert eval_vision.main(["--game", game, "--scenes", "1", "--glare", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["glare"] == 0.03
    assert eval_vision.main(["--game", game, "--scenes", "1", "--glare", "0.02", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["glare"] == 0.02
    for bad in ("lamp", "0.9"):
        with pytest.raises(SystemExit) as stop:
            eval_vision.main(["--game", game, "--scenes", "1", "--glare", bad])
        assert stop.value.code == 2
        assert "--glare" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["caboose", "switching", "yardmaster-express"])
def test_every_game_measures_curled_cards_and_a_lens_error(game: str, capsys) -> None:
    """`--curl` and `--lens-error` alone are the usual amounts (5 mm, 3.5 px) on every table,
    or the amount asked for, 0 none; without them the hard camera's own (each on half its
    tables); an amount that is no number or too large is refused by name."""
    args = ["--game", game, "--scenes", "1", "--seed", "7000"]
    assert eval_vision.main([*args, "--curl", "--lens-error", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["curl"], result["lens_error"]) == (5.0, 3.5)
    assert (result["curl_odds"], result["lens_odds"]) == (1.0, 1.0)
    assert eval_vision.main([*args, "--curl", "3", "--lens-error", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["curl"], result["lens_error"]) == (3.0, 0.0)
    assert eval_vision.main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["curl"], result["curl_odds"]) == (5.0, 0.5)
    assert (result["lens_error"], result["lens_odds"]) == (3.5, 0.5)
    if game == "caboose":  # its words say what the camera had to cope with
        assert eval_vision.main([*args, "--curl", "--lens-error"]) == 0
        said = capsys.readouterr().out
        assert "cards curled up to 5 mm" in said and "a lens error of up to 3.5 px" in said
    for option, bad in (("--curl", "bent"), ("--lens-error", "40")):
        with pytest.raises(SystemExit) as stop:
            eval_vision.main([*args, option, bad])
        assert stop.value.code == 2
        assert option in capsys.readouterr().err


def test_frame_size_films_at_a_webcam_s_size_for_every_game(capsys) -> None:
    """`--frame-size WxH`: the same measure at another camera's frame size, each game's."""
    for game in ("caboose", "switching", "yardmaster-express"):
        args = ["--game", game, "--scenes", "1", "--seed", "7000", "--frame-size", "1280x720"]
        assert eval_vision.main([*args, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["frame_size"] == [1280, 720]


@pytest.mark.parametrize("size", ["1280", "1280x", "0x720", "1280x720x3", "big"])
def test_a_frame_size_that_is_none_is_refused_in_one_line(size: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        eval_vision.main(["--frame-size", size])
    assert stop.value.code == 2
    said = capsys.readouterr().err.strip()
    assert "\n" not in said and "such as 1280x720" in said
