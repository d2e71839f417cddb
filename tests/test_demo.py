"""`companion demo` end to end, in every edition: whole games through the synthetic camera,
the tracker, the session, the mock buttons, the engine and the store. Each game ends as
replaying its record ends, with every turn seen right by the camera."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

COMPANION = [sys.executable, "-m", "companion"]
CAMERA_FIELDS = ("camera_matched_every_turn", "camera", "truth_matched")
SEED = "e2e"

GAMES = [
    pytest.param(["--edition", "loose-caboose", "--players", "3"], id="loose-caboose"),
    pytest.param(["--edition", "rollecate", "--players", "2"], id="rollecate"),
    pytest.param(["--edition", "loknroll", "--players", "4"], id="loknroll"),
    pytest.param(["--edition", "loknroll", "--variant", "solo-laura"], id="loknroll-laura"),
]


def demo(*args: str, timeout: float = 240.0) -> dict[str, Any]:
    done = subprocess.run(
        [*COMPANION, "demo", "--headless", "--json", "--seed", SEED, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@cache
def uninterrupted(args: tuple[str, ...]) -> tuple[dict[str, Any], Path]:
    """One whole demo game and its record, played once per test run (the kill test
    compares its interrupted game with this one)."""
    record = Path(tempfile.mkdtemp(prefix="caboose-e2e-")) / "record.json"
    return demo(*args, "--record", str(record)), record


def state_only(doc: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in doc.items() if key not in CAMERA_FIELDS}


@pytest.mark.slow
@pytest.mark.parametrize("args", GAMES)
def test_a_whole_demo_game_ends_as_its_record_replays(args):
    doc, record = uninterrupted(tuple(args))
    assert doc["over"] is True
    replayed = subprocess.run(
        [*COMPANION, "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert state_only(doc) == json.loads(replayed.stdout)
    camera = doc["camera"]
    assert doc["camera_matched_every_turn"] is True, camera
    # the companion played on a deal of its own and ended with the true game
    assert doc["truth_matched"] is True
    assert camera["turns"] == doc["turn"] == camera["matched"]
    assert camera["asked"] == 0 and camera["mismatched_turns"] == []
    # the frames were really looked at, and repeated frames were not recognised again
    assert camera["rendered"] >= doc["turn"] and camera["frames"] > camera["rendered"]
    # every play carries the poses the camera measured, for the geometry checks
    turns = json.loads(record.read_text())["turns"]
    assert all("place" in turn for turn in turns if "play" in turn)


def test_a_demo_that_cannot_start_says_why_and_exits_2(tmp_path):
    done = subprocess.run(
        [*COMPANION, "demo", "--headless", "--edition", "rollecate", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "for 2 to 4 players" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "args"),
    [
        pytest.param("a", ["--edition", "loose-caboose", "--players", "4"], id="hands-in-zone"),
        pytest.param("b", ["--edition", "loose-caboose", "--players", "2"], id="4-from-draw"),
        pytest.param("g", ["--edition", "loknroll", "--variant", "solo-laura"], id="laura-edge"),
        pytest.param("a", ["--edition", "loknroll", "--players", "4"], id="dice-near-cards"),
    ],
)
def test_games_that_once_tripped_the_companion_end_as_the_true_game(seed, args):
    """Games whose tables once fooled the demo or the companion: hands shown side by side
    in the zone at the end, more cards taken from the draw pile than the zone holds, a
    solo railway reaching the table's edge, a railway reaching down to the dice."""
    done = subprocess.run(
        [*COMPANION, "demo", "--headless", "--json", "--seed", seed, *args],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["over"] and doc["camera_matched_every_turn"] and doc["truth_matched"]
