"""`companion demo --dice pips`: the players throw standard pip dice instead of the edition's
wheel dice, and the table reads them through the edition's face map (R-6). The same seeded
game played each way finishes with every roll read right, and is the same game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = "demo --headless --json --seed pips --edition loose-caboose --players 2"


def _played(tmp_path: Path, dice: str) -> tuple[dict, dict]:
    """The demo's result and its record, with `dice` thrown."""
    record = tmp_path / f"{dice}.json"
    done = subprocess.run(
        [sys.executable, "-m", "companion", *DEMO.split(), "--dice", dice, "--record", str(record)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), json.loads(record.read_text())


@pytest.mark.slow
def test_a_seeded_game_reads_every_roll_right_with_wheel_dice_and_with_pip_dice(
    tmp_path: Path,
) -> None:
    turns = {}
    for dice in ("wheels", "pips"):
        doc, record = _played(tmp_path, dice)
        assert doc["over"] is True and doc["truth_matched"] is True
        camera = doc["camera"]
        assert doc["camera_matched_every_turn"] is True, (dice, camera)
        assert camera["asked"] == 0 and camera["mismatched_turns"] == []
        turns[dice] = [(t.get("play"), sorted(t.get("roll", ()))) for t in record["turns"]]
    # the players choose alike whatever dice they throw: the same plays, the same rolls
    # (which die is which is not seen, nor does it matter)
    assert turns["pips"] == turns["wheels"]
    rolled = {wheels for _, roll in turns["pips"] for wheels in roll}
    assert rolled == {0, 1, 2}  # every wheel count was thrown as pips and read
