"""What `companion replay` prints for a switching-record/1, exactly as the spec
(docs/switching-record.md) shows it, and `companion simulate --game switching`'s options
and summary, whose records replay to its wins: the functions game.py wires in, then the
commands as a user runs them."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from companion.games.protocol import RecordProblem
from companion.games.switching import commandline, record

from .test_record import SPEC

SPEC_TEXT = (files("companion.games.switching") / "docs" / "switching-record.md").read_text()


def spec_block(after: str) -> str:
    """The spec's first fenced block after the words `after`."""
    found = re.search(re.escape(after) + r".*?```\w*\n(.*?)```", SPEC_TEXT, re.S)
    assert found is not None, after
    return found.group(1)


def test_the_spec_documents_example_is_the_record_the_tests_replay() -> None:
    shown = json.loads(spec_block("## Document"))
    assert shown | {"board": SPEC["board"]} == SPEC
    assert shown["board"]["id"] == SPEC["board"]["id"] == "ours"


def test_replay_json_prints_the_specs_object() -> None:
    printed = commandline.replay_text(SPEC, True)
    assert json.loads(printed) == json.loads(spec_block("`companion replay FILE --json`"))


def test_replay_in_words_prints_exactly_what_the_spec_shows() -> None:
    shown = spec_block("`companion replay FILE` prints each turn in words")
    assert commandline.replay_text(SPEC, False) == shown.rstrip("\n")


def test_replay_in_words_says_the_winner_and_a_pending_reroll() -> None:
    pending = SPEC | {"turns": SPEC["turns"][:3]}
    last = commandline.replay_text(pending, False).splitlines()[-1]
    assert last == "not over: Ana (red) to move, may roll again with the train on E1"
    pending = SPEC | {"turns": SPEC["turns"][:7]}
    last = commandline.replay_text(pending, False).splitlines()[-1]
    assert last == "not over: Ben (blue) to move, may roll again and enter the train again"
    # the short game (S-21): Ana's second train home wins it, with steps to spare (S-12)
    won = SPEC | {
        "variant": "short",
        "turns": [*SPEC["turns"][:6], {"colour": "orange", "dice": [1, 2], "move": "p3"},
                  {"colour": "orange", "dice": [2, 3], "enter": "D1"},
                  {"colour": "orange", "dice": [1, 3], "move": "E3"},
                  {"colour": "orange", "dice": [4, 5], "move": "D5"}],
    }  # fmt: skip
    lines = commandline.replay_text(won, False).splitlines()
    assert lines[9] == (
        "turn 10: Ana (red) rolls orange 4+5: orange stays (not next to the empty slot); "
        "moves D5 -> E5; Ana's train reaches Finish (E5); Ana wins"
    )
    assert lines[-3:] == [
        "Ana (red): depot 2, no train on the board, supply 1",
        "Ben (blue): depot 1, no train on the board, supply 2",
        "winner: Ana (red)",
    ]


def test_a_bad_record_raises_the_problem_naming_turn_and_rule() -> None:
    bad = SPEC | {"turns": [*SPEC["turns"][:4], {"colour": "purple", "dice": [3, 4], "move": "E1"}]}
    with pytest.raises(RecordProblem) as raised:
        commandline.replay_text(bad, False)
    assert (raised.value.turn, raised.value.rule) == (5, "S-9")
    assert raised.value.message == "the train on E1 is red's, not blue's"


def simulate_args(*argv: str) -> argparse.Namespace:
    """The options as `companion simulate --game switching` parses them (companion/app/cli.py
    adds --games, --seed, --records and --json to the game's own)."""
    parser = argparse.ArgumentParser()
    commandline.add_arguments("simulate", parser)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--records", type=Path)
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def test_simulate_writes_records_that_replay_to_its_summary(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    args = simulate_args(
        "--players", "3", "--games", "9", "--seed", "4", "--repair", "--records", str(folder),
        "--json",
    )  # fmt: skip
    assert commandline.simulate(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 9 and summary["variant"] == "repair" and summary["board"] == "ours"
    assert summary["policies"] == ["greedy", "random", "greedy"]
    files_written = sorted(folder.glob("*.json"))
    assert [p.name for p in files_written] == [f"switching-0000{n}.json" for n in range(1, 10)]
    wins, turns = [0, 0, 0], []
    for path in files_written:
        out = record.replay_json(json.loads(path.read_text()))
        assert out["over"] and out["variant"] == "repair"
        wins[int(out["winner"].rsplit("-", 1)[1]) - 1] += 1
        turns.append(out["turns"])
    assert summary["wins"] == [w / 9 for w in wins]
    assert summary["turns"] == {"mean": sum(turns) / 9, "min": min(turns), "max": max(turns)}
    assert summary["games_per_second"] > 0


def test_simulate_in_words(capsys) -> None:
    args = simulate_args("--games", "4", "--short", "--policies", "random")
    assert commandline.simulate(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "4 games of the switching-track game (short) on board ours, 2 players (random, random)"
    )
    assert lines[1].startswith("  seat 1 (random, red): wins ")
    assert lines[3].startswith("  turns a game: mean ")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--players", "5"), "--players: the game is for 2 to 4 players"),
        (("--players", "1"), "--players: the game is for 2 to 4 players"),
        (("--policies", "greedy,clever"), "unknown policy ['clever']: use greedy, random"),
        (("--policies", ","), "unknown policy []: use greedy, random"),
    ],
)
def test_simulate_refuses_what_it_cannot_play(argv, said: str, capsys) -> None:
    assert commandline.simulate(simulate_args("--games", "1", *argv)) == 2
    assert capsys.readouterr().err.strip() == said


def test_the_variant_is_the_short_game_and_repair_tiles_as_asked() -> None:
    assert commandline.variant_of(simulate_args()) == "full"
    assert commandline.variant_of(simulate_args("--short")) == "short"
    assert commandline.variant_of(simulate_args("--repair")) == "repair"
    assert commandline.variant_of(simulate_args("--repair", "--short")) == "short-repair"


# --- as a user runs them: `companion replay` and `companion simulate`, each its own process

COMPANION = [sys.executable, "-m", "companion"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMPANION, *args], capture_output=True, text=True, timeout=120)


def test_companion_replay_prints_the_specs_object_and_words(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC))
    done = run("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(spec_block("`companion replay FILE --json`"))
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == spec_block("`companion replay FILE` prints each turn in words")


def test_companion_replay_of_a_bad_record_exits_2_naming_turn_and_rule(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(SPEC | {"turns": [*SPEC["turns"][:1], {"stop": True}]}))
    done = run("replay", str(path), "--json")
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["turn"], error["rule"]) == (2, "S-16")
    done = run("replay", str(path))
    assert done.returncode == 2
    assert done.stderr.startswith("error in turn 2 (S-16): there is no re-roll to decline")
    path.write_text(json.dumps(SPEC | {"variant": "long"}))
    done = run("replay", str(path))
    assert done.returncode == 2 and done.stderr.startswith("error in the record (S-21): ")


def test_companion_simulate_writes_records_companion_replays(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    done = run(
        "simulate", "--game", "switching", "--players", "4", "--games", "3", "--seed", "9",
        "--short", "--records", str(folder), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["variant"] == "short" and summary["policies"] == ["greedy", "random"] * 2
    assert sum(summary["wins"]) == 1.0
    for path in sorted(folder.glob("*.json")):
        replayed = run("replay", str(path), "--json")
        assert replayed.returncode == 0, replayed.stdout
        assert json.loads(replayed.stdout)["over"] is True
    assert len(list(folder.glob("*.json"))) == 3
    done = run("simulate", "--game", "switching", "--players", "5", "--games", "1")
    assert done.returncode == 2
    assert done.stderr.strip() == "--players: the game is for 2 to 4 players"


def test_a_seed_plays_the_same_games_in_any_process(tmp_path: Path) -> None:
    """`--seed` names the games for good: two processes with different string hashing
    (PYTHONHASHSEED) write the same records."""
    written = []
    for hashing in ("1", "2"):
        folder = tmp_path / hashing
        env = {**os.environ, "PYTHONHASHSEED": hashing}
        argv = ["simulate", "--game", "switching", "--players", "3", "--games", "4", "--repair"]
        done = subprocess.run(
            [*COMPANION, *argv, "--seed", "s", "--records", str(folder)],
            capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        written.append([p.read_text() for p in sorted(folder.glob("*.json"))])
    assert len(written[0]) == 4 and written[0] == written[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--game", "switching", "--help"],
        ["simulate", "--game=switching", "--help"],
        ["simulate", "--help", "--game", "switching"],
        ["demo", "--game", "switching", "--help"],
    ],
    ids=" ".join,
)
def test_the_help_of_a_switching_command_lists_its_own_options(argv: list[str]) -> None:
    """`--short` and `--repair` are this game's: its commands' help says them, wherever
    `--game` stands."""
    shown = subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "--short" in shown and "--repair" in shown and "--players" in shown
