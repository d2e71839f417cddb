"""`companion run` at a real table where Yardmaster Express is started from the page: the
frames go to this game's camera (not the default game's), a card laid still in the mover's
train is taken, and a held CONFIRM on the mock pins takes it back (the synthetic camera,
gpiozero's mock pins)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import synthetic
from companion.app.config import load
from companion.app.run import Service
from companion.games.protocol import Start
from companion.games.yardmaster import scenes
from companion.games.yardmaster.record import GAME_ID
from hw.frames import SyntheticFrames

FRAME_SIZE = (1280, 960)


@pytest.fixture
def service(tmp_path: Path):
    config = tmp_path / "companion.toml"
    layout = scenes.TABLE
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        f"frame_size = [{FRAME_SIZE[0]}, {FRAME_SIZE[1]}]\n"
        f"[table]\nwidth = {layout.width}\nheight = {layout.height}\n"
        "[gpio]\npin_factory = 'mock'\npass = 5\nconfirm = 6\nled = 13\nbuzzer = 19\n"
        "debounce = 0.02\nhold = 0.3\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    yield service, factory
    time.sleep(0.1)
    service.close()


def frame(trains: tuple[tuple[str, ...], ...]) -> np.ndarray:
    seats = scenes.seat_poses(len(trains))
    laid = [scenes.TrainOnTable(seat, train) for seat, train in zip(seats, trains, strict=True)]
    scene = scenes.table_scene(laid, scenes.TABLE, np.random.default_rng(1))
    camera = replace(synthetic.Camera.preset("easy"), frame_size=FRAME_SIZE)
    return synthetic.render(scene, 4, camera)


def test_a_yardmaster_game_at_a_real_table_is_followed_by_its_own_camera(service) -> None:
    service, factory = service
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), "yardmaster-express", seed=1))
    for _ in range(3):
        service.step(frame((("E",), ("E",))))
    assert table.view("en")["session"]["mover"] == "Ana"
    for _ in range(3):
        service.step(frame((("E", "R1-R1"), ("E",))))
    assert table.record()[2]["turns"] == [{"add": "R1-R1"}]
    last = {"name": "Ana", "card": "R1-R1", "said": "red 1 · red 1"}
    assert table.view("en")["session"]["last"] == last
    # hold CONFIRM: the card is taken back, and not taken again while it still lies there
    pin = factory.pin(6)
    pin.drive_low()
    deadline = time.monotonic() + 5
    while table.record()[2]["turns"] and time.monotonic() < deadline:
        time.sleep(0.02)
    pin.drive_high()
    assert table.record()[2]["turns"] == []
    service.step(frame((("E", "R1-R1"), ("E",))))
    assert table.view("en")["session"]["waiting"]["key"] == "take_back"
