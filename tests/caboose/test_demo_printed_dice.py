"""`companion demo --dice printed`: the players throw a box's own wheel dice and move its
own caboose token (a design that is not ours), which they first teach the camera as a
family would with `companion enroll`; the whole game is then read right."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import build_parser
from companion.games.caboose.demo import from_args
from companion.games.protocol import DemoError

DEMO = "demo --headless --json --seed e2e --edition loose-caboose --players 2 --dice printed"


@pytest.mark.slow
def test_a_demo_game_with_the_box_s_own_dice_reads_every_roll_right(tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    done = subprocess.run(
        [sys.executable, "-m", "companion", *DEMO.split(), "--record", str(record)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["over"] is True and doc["truth_matched"] is True
    camera = doc["camera"]
    assert doc["camera_matched_every_turn"] is True, camera
    assert camera["asked"] == 0 and camera["mismatched_turns"] == []
    rolled = {wheels for turn in json.loads(record.read_text())["turns"]
              for wheels in turn.get("roll", ())}  # fmt: skip
    assert rolled == {0, 1, 2}  # every face of the taught die was thrown and read


def demo_args(*options: str) -> argparse.Namespace:
    return build_parser("caboose").parse_args(["demo", "--game", "caboose", *options])


def test_pieces_printed_names_the_box_s_own_dice_as_every_game_s_demo_does() -> None:
    """One name for one concept: `--pieces printed` plays the box's own pieces, in the
    Caboose demo as in the switching-track one; `--dice printed` still does."""
    assert from_args(demo_args("--pieces", "printed")).options.dice == "printed"
    assert from_args(demo_args("--dice", "printed")).options.dice == "printed"
    assert from_args(demo_args()).options.dice == "wheels"
    with pytest.raises(DemoError, match="leave --dice pips out"):
        from_args(demo_args("--pieces", "printed", "--dice", "pips"))
