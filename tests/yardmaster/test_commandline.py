"""`companion replay` and `companion simulate --game yardmaster-express` as a user runs them,
each in its own process: the spec's object for a record, exit 2 naming the turn and rule
for a bad one, and simulated games whose records replay to the simulator's scores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.games.yardmaster import record

from .test_record import SPEC

COMPANION = [sys.executable, "-m", "companion"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMPANION, *args], capture_output=True, text=True, timeout=120)


def write(tmp_path: Path, doc: object) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_replay_json_prints_the_specs_object(tmp_path: Path) -> None:
    """The spec's example after its three turns: Ana's R3-B2 is worth 5 and no run longer
    than 1; Ben's Y1-Y1 is a yellow run of 2, the longest (Y-9: 2 points); Cleo's card lies
    face down (Y-2: 0 points); nobody has the Oil baron's three yellows."""
    done = run("replay", write(tmp_path, SPEC), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "game": "yardmaster-express", "over": False, "round": 2, "rounds": 6,
        "to_move": "Ana", "longest_run": 2,
        "players": [
            {"name": "Ana", "train": ["E", "R3-B2"], "train_value": 5, "longest_run": 1,
             "run_bonus": 0, "caboose_bonus": 0, "carried": 0, "score": 5},
            {"name": "Ben", "train": ["E", "Y1-Y1"], "train_value": 2, "longest_run": 2,
             "run_bonus": 2, "caboose_bonus": 0, "carried": 0, "score": 4},
            {"name": "Cleo", "train": ["E", "W"], "train_value": 0, "longest_run": 0,
             "run_bonus": 0, "caboose_bonus": 0, "carried": 0, "score": 0},
        ],
        "winners": [], "decided_by": None,
    }  # fmt: skip


def test_replay_in_words_says_each_turn_and_score(tmp_path: Path) -> None:
    done = run("replay", write(tmp_path, SPEC))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "turn 1: Ana adds R3-B2",
        "turn 2: Ben adds Y1-Y1 turned",
        "turn 3: Cleo adds B2-P4 face down",
    ]
    assert "Ben: E Y1-Y1" in lines
    assert "  score 4 (train 2, run bonus 2, caboose 0; longest run 2)" in lines
    assert lines[-1] == "not over: round 2 of 6, Ana to move"


def test_a_bad_record_exits_2_naming_the_turn_and_rule(tmp_path: Path) -> None:
    # Cleo's turn adds R3-B2, which Ana already added: it is not in the hand (Y-6).
    bad = SPEC | {"turns": [*SPEC["turns"][:2], {"add": "R3-B2"}]}
    done = run("replay", write(tmp_path, bad), "--json")
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["turn"], error["rule"]) == (3, "Y-6")
    assert error["message"].startswith("R3-B2 is not in the hand")
    done = run("replay", write(tmp_path, bad))
    assert done.returncode == 2 and done.stderr.startswith("error in turn 3 (Y-6): R3-B2 ")


def test_simulate_writes_records_that_replay_to_its_scores(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    done = run(
        "simulate", "--game", "yardmaster-express", "--players", "5", "--games", "4",
        "--seed", "3", "--records", str(folder), "--json", "--caboose",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["policies"] == ["run", "value"] * 2 + ["run"]
    assert sum(summary["wins"]) == 1.0  # Y-10: exactly one winner a game
    files = sorted(folder.glob("*.json"))
    assert len(files) == 4
    totals = [0] * 5
    for path in files:
        replayed = run("replay", str(path), "--json")
        assert replayed.returncode == 0, replayed.stdout
        summed = json.loads(replayed.stdout)
        assert summed["over"] and summed == record.replay_json(json.loads(path.read_text()))
        for player in summed["players"]:
            totals[int(player["name"].rsplit("-", 1)[1]) - 1] += player["score"]
    assert summary["mean_score"] == [t / 4 for t in totals]


def test_simulate_the_strategic_variant_keeps_both_games(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    done = run(
        "simulate", "--game", "yardmaster-express", "--players", "3", "--games", "2",
        "--strategic", "--records", str(folder),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 strategic pairs of games of Yardmaster Express, 3 players")
    names = sorted(p.name for p in folder.glob("*.json"))
    assert names == [f"yardmaster-0000{n}-{part}.json" for n in (1, 2) for part in (1, 2)]
    second = json.loads((folder / "yardmaster-00001-2.json").read_text())
    assert second["variant"] == "strategic-2" and len(second["carried"]) == 3


def test_simulate_refuses_what_it_cannot_play() -> None:
    done = run("simulate", "--game", "yardmaster-express", "--players", "6", "--games", "1")
    assert done.returncode == 2
    assert done.stderr.strip() == "--players: Yardmaster Express is for 2 to 5 players"
    done = run("simulate", "--game", "yardmaster-express", "--policies", "run,greedy")
    assert done.returncode == 2 and "unknown policy ['greedy']" in done.stderr
