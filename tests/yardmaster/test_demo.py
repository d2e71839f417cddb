"""`companion demo --game yardmaster-express` end to end: bots lay every card of a game on
the synthetic table, the camera's frames go through the real reader, the frame loop and the
match, CONFIRM is pressed on mock pins, every card is journaled; the game ends as its
record replays, every card seen right, the companion's trains and scores the true ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.yardmaster import record

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
