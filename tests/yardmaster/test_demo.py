"""`companion demo --game yardmaster-express` end to end: bots lay every card of a game on
the synthetic table, the camera's frames go through the real reader, the frame loop and the
match, CONFIRM is pressed on mock pins, every card is journaled; the game ends as its
record replays, every card seen right, the companion's trains and scores the true ones."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.games.yardmaster import record
from companion.games.yardmaster.match import fold
from companion.store import Store

COMPANION = [sys.executable, "-m", "companion"]


def demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMPANION, "demo", "--game", "yardmaster-express", "--headless", "--json", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_a_whole_demo_game_is_seen_right_and_ends_as_its_record_replays(
    players: int, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    done = demo("--players", str(players), "--seed", "e2e", "--caboose", "--record", str(path))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["over"] and doc["camera_matched_every_turn"] and doc["truth_matched"]
    assert doc["camera"]["turns"] == doc["rounds"] * players
    kept = json.loads(path.read_text())
    assert kept["format"] == "yardmaster-record/1" and kept["caboose"] is not None
    replayed = record.replay_json(kept)
    assert {k: v for k, v in doc.items() if k in replayed} == replayed


@pytest.mark.slow
def test_a_finished_demo_in_a_store_reports_the_same_game_again(tmp_path: Path) -> None:
    store = tmp_path / "demo.sqlite3"
    first = demo("--players", "3", "--seed", "again", "--store", str(store))
    assert first.returncode == 0, first.stderr
    again = demo("--players", "3", "--seed", "again", "--store", str(store))
    assert again.returncode == 0, again.stderr
    one, two = json.loads(first.stdout), json.loads(again.stdout)
    assert two["truth_matched"] and two["players"] == one["players"]
    other = demo("--players", "4", "--seed", "again", "--store", str(store))
    assert other.returncode == 2 and "holds another game" in other.stderr


def journaled(store: Path) -> list[dict]:
    """The cards added in the newest game of the store, as a fresh process reads them."""
    kept = Store(store)
    try:
        return list(fold(kept.kept(kept.games()[-1][0])).record()["turns"])
    finally:
        kept.close()


@pytest.mark.slow
def test_sigkill_at_random_points_loses_no_card_taken(tmp_path: Path) -> None:
    """Never lose a game: killed twice anywhere in a turn and restarted on the same store, the
    demo keeps every card it announced as taken and ends as the same game played through."""
    game = ("--players", "4", "--seed", "kill")
    reference = json.loads(demo(*game).stdout)
    store = tmp_path / "table.sqlite3"
    rng = random.Random(7)
    announced, kept = 0, []
    for _ in range(2):
        process = subprocess.Popen(
            [*COMPANION, "demo", "--game", "yardmaster-express", "--headless", "--json", *game,
             "--store", str(store), "--progress"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        wanted, heard = rng.randint(2, 5), 0
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("accepted turn"):
                announced = max(announced, int(line.split()[-1]))
                heard += 1
                if heard == wanted:
                    break
        time.sleep(rng.uniform(0.0, 0.3))  # anywhere in the next turn
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        turns = journaled(store)
        assert len(turns) >= announced, "a card announced as taken was lost"
        assert turns[: len(kept)] == kept, "a journaled card changed after a restart"
        kept = turns
    done = demo(*game, "--store", str(store))
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    assert resumed["truth_matched"]
    assert {k: resumed[k] for k in ("players", "winners", "decided_by")} == {
        k: reference[k] for k in ("players", "winners", "decided_by")
    }
