"""`companion demo --game switching` end to end: bots throw the dice beside the rendered
board, slide the panels and move their trains; the camera's frames go through the real
reader, the frame loop and the match; CONFIRM and PASS are pressed on mock pins; every step
is journaled. The game ends as its record replays, every step the camera took the players'
own, the companion's game the true one; a finished demo reports the same game again, and a
demo killed twice resumes with no step lost; a table that shows no legal move stops the
demo with what the companion says of it."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from companion import games
from companion.app.demo import run_demo
from companion.games.protocol import DemoError, Setting
from companion.games.switching import match, record, rules, standin
from companion.games.switching.demo import ScriptedGame
from companion.store import Store

COMPANION = [sys.executable, "-m", "companion"]


def demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMPANION, "demo", "--game", "switching", "--headless", "--json", *args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def played_right(done: subprocess.CompletedProcess[str], path: Path) -> dict:
    """The demo's JSON, checked: the game over, every step the camera took the players',
    the companion's game the true one, and its record replaying to what the demo said."""
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["over"] and doc["winner"] is not None
    assert doc["camera_matched_every_turn"] and doc["truth_matched"]
    camera = doc["camera"]
    assert camera["turns"] == camera["matched"] == doc["turns"]
    assert camera["mismatched_turns"] == [] and camera["misread_throws"] == []
    kept = json.loads(path.read_text())
    assert kept["format"] == "switching-record/1"
    replayed = record.replay_json(kept)
    assert {k: v for k, v in doc.items() if k in replayed} == replayed
    return doc


def test_a_short_demo_game_is_seen_right_and_ends_as_its_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    doc = played_right(demo("--short", "--seed", "demo", "--record", str(path)), path)
    assert doc["variant"] == "short" and [p["name"] for p in doc["players"]] == ["Ana", "Ben"]
    winner = next(p for p in doc["players"] if p["name"] == doc["winner"])
    assert winner["depot"] == 2  # the short game: two trains at Finish win (S-21)
    # every roll of the record was thrown at the table and read by the camera (after the
    # dice were lifted: those lying there from the last throw were never read again)
    kept = json.loads(path.read_text())
    assert doc["camera"]["throws"] == sum("dice" in turn for turn in kept["turns"])


def test_a_demo_for_more_players_than_the_game_takes_stops_saying_so() -> None:
    done = demo("--players", "5")
    assert done.returncode == 2
    assert "2 to 4 players, not 5" in done.stderr and done.stdout == ""


@pytest.mark.slow
@pytest.mark.long  # the short game's demos above and below run in `make test`
def test_a_whole_four_player_demo_game_is_seen_right(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    doc = played_right(demo("--players", "4", "--seed", "e2e", "--record", str(path)), path)
    assert len(doc["players"]) == 4 and doc["variant"] == "full"
    winner = next(p for p in doc["players"] if p["name"] == doc["winner"])
    assert winner["depot"] == 3  # the full game: all three trains at Finish (S-18)


@pytest.mark.slow
def test_repair_tiles_played_on_the_page_beside_a_game_the_camera_follows(
    tmp_path: Path,
) -> None:
    """The bonus level: a tile is played on the page (the camera cannot see one), the
    number dice thrown with it are beside the board alone; the game still ends right.
    Seed "bonus" is one in which the bots play tiles."""
    path = tmp_path / "record.json"
    args = ("--players", "3", "--short", "--repair", "--seed", "bonus", "--record", str(path))
    doc = played_right(demo(*args), path)
    assert doc["variant"] == "short-repair"
    kept = json.loads(path.read_text())
    assert sum("repair" in turn for turn in kept["turns"]) >= 1


@pytest.mark.slow
def test_a_finished_demo_in_a_store_reports_the_same_game_again(tmp_path: Path) -> None:
    store = tmp_path / "demo.sqlite3"
    first = demo("--short", "--seed", "again", "--store", str(store))
    assert first.returncode == 0, first.stderr
    started = time.perf_counter()
    again = demo("--short", "--seed", "again", "--store", str(store))
    assert again.returncode == 0, again.stderr
    one, two = json.loads(first.stdout), json.loads(again.stdout)
    assert two["truth_matched"] and two["camera"]["frames"] == 0  # reported, not played
    assert {k: two[k] for k in ("players", "panels", "winner", "turns")} == {
        k: one[k] for k in ("players", "panels", "winner", "turns")
    }
    assert time.perf_counter() - started < 20
    other = demo("--players", "3", "--short", "--seed", "again", "--store", str(store))
    assert other.returncode == 2 and "holds another game" in other.stderr
    longer = demo("--seed", "again", "--store", str(store))  # the full game: another
    assert longer.returncode == 2 and "holds another game" in longer.stderr


def journaled(store: Path) -> list[dict]:
    """The actions of the newest game of the store, as a fresh process reads them."""
    kept = Store(store)
    try:
        return list(match.resume(kept, kept.games()[-1][0], Setting()).record()["turns"])
    finally:
        kept.close()


def killed_during(argv: list[str], rng: random.Random) -> int:
    """Start `argv` (a demo with --progress), SIGKILL it anywhere in the turn after a
    random 2nd to 4th accepted one; the last turn it announced as accepted."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wanted, announced = rng.randint(2, 4), []
    assert process.stderr is not None
    for line in process.stderr:
        if line.startswith("accepted turn"):
            announced.append(int(line.split()[-1]))
            if len(announced) == wanted:
                break
    time.sleep(rng.uniform(0.0, 1.0))  # anywhere in the next turn
    assert process.poll() is None, "the demo ended before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return max(announced)


@pytest.mark.slow
@pytest.mark.long  # make test kills the Caboose and Yardmaster demos so (tests/test_kill.py,
# tests/yardmaster/test_demo.py) and a switching service at its last turn (test_kill.py)
def test_sigkill_at_random_points_loses_no_step_taken(tmp_path: Path) -> None:
    """Never lose a game: killed twice anywhere in a turn (the dice read, the board half
    moved, CONFIRM pressed) and restarted on the same store, the demo keeps every action
    it announced as taken and ends as the same game played through (18 actions)."""
    game = ("--players", "3", "--seed", "kill")
    reference = json.loads(demo(*game).stdout)
    store = tmp_path / "table.sqlite3"
    argv = [*COMPANION, "demo", "--game", "switching", "--headless", "--json", *game,
            "--store", str(store), "--progress"]  # fmt: skip
    rng = random.Random(7)
    kept: list[dict] = []
    for _ in range(2):
        announced = killed_during(argv, rng)
        turns = journaled(store)
        assert len(turns) >= announced, "an action announced as taken was lost"
        assert turns[: len(kept)] == kept, "a journaled action changed after a restart"
        kept = turns
    done = demo(*game, "--store", str(store))
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    assert resumed["truth_matched"] and resumed["camera_matched_every_turn"]
    assert journaled(store)[: len(kept)] == kept
    assert {k: resumed[k] for k in ("players", "panels", "winner", "turns")} == {
        k: reference[k] for k in ("players", "panels", "winner", "turns")
    }


class Careless(ScriptedGame):
    """Players who leave a spare train of Ben's on the board once a train stands on it:
    the table no longer shows any legal move's outcome."""

    def _table(self, position, roll, number, hand_at=None):  # type: ignore[no-untyped-def]
        if position.trains:
            taken = {t.space for t in position.trains}
            spare = next(s for s in ("G3", "H3") if s not in taken)
            trains = tuple(sorted((*position.trains, rules.Train(spare, "blue"))))
            position = replace(position, trains=trains)
        return super()._table(position, roll, number, hand_at)


def test_a_move_the_camera_cannot_take_stops_the_demo_saying_what_the_companion_says() -> None:
    game = Careless(2, "careless", "short", 0)
    entered = game.truth.steps[0]
    with pytest.raises(DemoError) as stopped:
        run_demo(game, game=games.game("switching"))
    said = str(stopped.value)
    assert said.startswith(f"the camera did not see Ana's move from {entered.action.train}")
    assert "(action 1)" in said and "where the game has none" in said  # the waiting said


def test_a_demo_on_a_familys_own_box_taught_ends_as_the_true_game(tmp_path: Path) -> None:
    """`--pieces printed`: the stand-in box taught first, its board lying anywhere among
    the table's markers, the game played on its board and read as taught."""
    path = tmp_path / "record.json"
    done = demo("--short", "--seed", "demo", "--pieces", "printed", "--record", str(path))
    doc = played_right(done, path)
    assert doc["board"] == "standin"
    assert json.loads(path.read_text())["board"] == standin.board_document()  # kept whole
