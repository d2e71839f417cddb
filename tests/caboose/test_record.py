"""`caboose-record/1` and `companion replay`, exactly as shared/spec/game-record.md says."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.games.caboose.bots import POLICIES
from companion.games.caboose.record import RecordError, load, parse, replay, save, summary
from companion.games.caboose.simulate import play_game

SPEC_KEYS = {
    "edition",
    "over",
    "turn",
    "to_move",
    "railway",
    "caboose",
    "draw",
    "discard",
    "players",
    "winners",
    "log",
}
PLAYER_KEYS = {"name", "hand", "pile", "banked", "score", "cards", "derailments"}


def small_record(turns):
    return {
        "format": "caboose-record/1",
        "edition": "rollecate",
        "players": ["Ana", "Ben"],
        "setup": {
            "railway": ["2", "3", "4", "1"],
            "caboose": 2,
            "hands": [["1", "2"], ["3", "2"]],
            "draw": ["2", "4x", "1", "3"],
            "discard": [],
        },
        "turns": turns,
    }


def run_replay(tmp_path, doc, *extra):
    path = tmp_path / "game.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return main(["replay", str(path), *extra])


def test_replay_json_prints_the_spec_object(tmp_path, capsys):
    doc = small_record([{"play": ["2"], "roll": [1, 0]}, {"pass": True}])
    assert run_replay(tmp_path, doc, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == SPEC_KEYS
    assert all(set(p) == PLAYER_KEYS for p in out["players"])
    assert out["turn"] == 2 and out["to_move"] == 0 and out["over"] is False
    # Ana draws a 2, plays a 2 onto the 1, one wheel: the caboose's index 2 -> 3, counted
    # as the record's `caboose` counts (the spec's form; the page counts from 1).
    assert out["log"][0] == "turn 1 Ana plays 2, rolls 1 wheel, caboose 2 -> 3"
    assert out["railway"][-1] == "2" and out["winners"] == []
    assert out["draw"] == 2


def test_replay_logs_the_spec_example_turn_exactly_as_the_spec_prints_it(tmp_path, capsys):
    """spec/game-record.md: from the caboose on index 2 of the railway, a 3 played and 2
    wheels log `turn 1 Ana plays 3, rolls 2 wheels, caboose 2 -> 4`. Other tools read this
    line, so the page's counting from 1 must not leak into it."""
    doc = small_record([{"play": ["3"], "roll": [1, 0, 1]}])
    doc["setup"]["railway"] = ["2", "3", "4", "2"]
    doc["setup"]["hands"][0] = ["1", "3"]
    assert run_replay(tmp_path, doc, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["log"][0] == "turn 1 Ana plays 3, rolls 2 wheels, caboose 2 -> 4"


def test_a_finished_game_lists_its_winners(tmp_path, capsys):
    result = play_game("loose-caboose", ["Ana", "Ben", "Cleo"], 3, [POLICIES["cautious"]])
    save(result.record, tmp_path / "game.json")
    assert main(["replay", str(tmp_path / "game.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True and out["winners"]
    assert out == summary(result.state, out["log"])
    assert len(out["log"]) == out["turn"] == len(result.record.turns)


@pytest.mark.parametrize(
    ("doc", "turn", "rule", "words"),
    [
        ("{not json", 0, "record", "not valid JSON"),
        (small_record([{"play": ["7"], "roll": []}]), 1, "record", "not a card code"),
        (small_record([{"play": ["2"], "roll": [1]}]), 1, "dice", "rolls 2 dice"),
        (small_record([{"pass": True}, {"play": ["4"], "roll": [1] * 4}]), 2, "hand", "not in"),
        (small_record([{"play": ["3"], "roll": [1, 1, 1]}]), 1, "hand", "not in the hand"),
        (small_record([{"pass": True}, {"play": ["3"], "roll": [1, 1, 1]}]), 2, "R-11", "2"),
        (small_record([{"jump": True}]), 1, "record", "unknown fields"),
        (small_record([{"play": [{"a": 1}], "roll": []}]), 1, "record", "not a card code"),
        (
            {**small_record([]), "setup": {**small_record([])["setup"], "railway": [[1]]}},
            0,
            "record",
            "not a card code",
        ),
        ({**small_record([]), "format": "caboose-record/2"}, 0, "record", "format"),
    ],
)
def test_a_bad_record_exits_2_naming_the_turn_and_rule(tmp_path, capsys, doc, turn, rule, words):
    assert run_replay(tmp_path, doc, "--json") == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["turn"] == turn
    assert out["error"]["rule"] == rule
    assert words in out["error"]["message"]


def test_without_json_an_error_is_one_plain_line(tmp_path, capsys):
    assert run_replay(tmp_path, small_record([{"play": ["2"], "roll": [9, 9]}])) == 2
    err = capsys.readouterr().err
    assert err.startswith("error in turn 1 (dice):") and "Traceback" not in err


def test_the_turns_before_a_fault_stand():
    doc = small_record([{"pass": True}, {"pass": True}, {"play": ["4"], "roll": [1]}])
    result = replay(parse(json.dumps(doc)))
    assert result.error is not None and result.error.turn == 3
    assert result.state.turn == 2 and len(result.lines) == 2


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "nope.json")


def test_python_dash_m_companion_replay(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(small_record([{"pass": True}])))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turn"] == 1


def test_simulate_writes_records_that_replay_to_the_same_final_state(tmp_path, capsys):
    records = tmp_path / "records"
    code = main(
        [
            "simulate",
            "--edition",
            "loknroll",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "9",
            "--records",
            str(records),
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 3 and len(out["mean_score"]) == 3 and out["games_per_second"] > 0
    files = sorted(Path(records).glob("*.json"))
    assert len(files) == 3
    names = [f"Bot {i + 1} ({p})" for i, p in enumerate(["cautious", "greedy", "cautious"])]
    policies = [POLICIES["cautious"], POLICIES["greedy"]]
    for game, path in enumerate(files):
        replayed = replay(load(path))
        expected = play_game("loknroll", names, f"9:{game}", policies)
        assert replayed.error is None
        assert summary(replayed.state, []) == summary(expected.state, [])


def test_simulate_rejects_a_bad_player_count(capsys):
    assert main(["simulate", "--edition", "rollecate", "--players", "7", "--games", "1"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
