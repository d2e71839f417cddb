"""The frame loop that `companion run` and `companion demo` share (companion/app/service.py):
frames through the watcher to the table, ended by the source running dry or by `stop`."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.service import FrameLoop
from companion.games import default
from companion.games.caboose import scenes as synthetic
from companion.games.protocol import CameraSetup, Setting
from companion.hardware import FRAME_SIZE
from companion.store import Store
from companion.table import Table
from companion.vision.table import TableLayout
from hw.frames import FolderFrames, SyntheticFrames


@pytest.fixture
def loop(tmp_path: Path):
    store = Store(tmp_path / "table.sqlite3")
    game = default()  # as `companion run` asks the registry for its camera and turn flow
    table = Table(store, Setting(provisional=True, camera=game.camera.follow({})))
    watcher = game.camera.watcher(CameraSetup(TableLayout(), FRAME_SIZE), "rollecate")
    yield FrameLoop(table, lambda _: watcher)
    store.close()


def _finishes(loop: FrameLoop, *args) -> bool:
    """Whether `loop.run(*args)` returns by itself (a loop that never ends would hang)."""
    runner = threading.Thread(target=loop.run, args=args, daemon=True)
    runner.start()
    runner.join(60)
    return not runner.is_alive()


def test_what_the_camera_cannot_see_reaches_the_page_and_clears(loop) -> None:
    """Before any game too: a table is set up (markers, light) before its first game."""
    black = np.zeros((FRAME_SIZE[1], FRAME_SIZE[0], 3), np.uint8)
    loop.step(black)
    camera = loop.table.view("en")["session"]["camera"]
    assert camera, "a black frame is a problem the page shows"
    table = synthetic.render(synthetic.random_scene(3, "rollecate", n_dice=0), 3)
    loop.step(table)
    assert loop.table.view("en")["session"]["camera"] == []
    assert loop.frames == 2


def test_a_recording_that_runs_out_ends_the_loop_once_its_frames_are_seen(
    loop, tmp_path: Path
) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    scene = synthetic.random_scene(5, "rollecate", n_dice=0)
    cv2.imwrite(str(folder / "0.png"), synthetic.render(scene, 5))
    assert _finishes(loop, FolderFrames(folder))
    assert loop.watcher().last is not None and len(loop.watcher().last.cards) == len(scene.cards)


def test_stop_ends_the_loop_over_a_camera_that_never_runs_out(loop) -> None:
    camera = SyntheticFrames(7)
    runner = threading.Thread(target=loop.run, args=(camera, 0.01), daemon=True)
    runner.start()
    loop.stop.set()
    runner.join(60)
    assert not runner.is_alive()


def test_the_loop_reads_the_frames_asked_for_at_the_pace_asked_for(loop) -> None:
    """The service reads at most `camera.fps` frames a second; the demo's --delay paces
    its frames for a person watching."""
    started = time.monotonic()
    assert _finishes(loop, SyntheticFrames(7), 0.2, 3)
    assert loop.frames == 3
    assert time.monotonic() - started >= 0.6
