"""`companion run` at a real table where the switching-track game is started from the page:
the frames go to this game's camera, a throw lying still beside the board is the mover's
roll, the board showing a legal move is taken when CONFIRM is pressed on the mock pins, and
a board no legal move explains sounds the buzzer (the synthetic camera, gpiozero's mock
pins)."""

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
from companion.games.switching import rules, scenes
from companion.games.switching.record import GAME_ID
from hw.frames import SyntheticFrames

FRAME_SIZE = (1280, 960)
CONFIRM, BUZZER = 6, 19


@pytest.fixture
def service(tmp_path: Path):
    config = tmp_path / "companion.toml"
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        f"frame_size = [{FRAME_SIZE[0]}, {FRAME_SIZE[1]}]\n"
        "[gpio]\npin_factory = 'mock'\npass = 5\nconfirm = 6\nled = 13\nbuzzer = 19\n"
        "debounce = 0.02\nhold = 0.3\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    yield service, factory
    time.sleep(0.1)
    service.close()


def frame(position: rules.Position, roll: rules.Roll | None, seed: int = 1) -> np.ndarray:
    scene = scenes.board_scene(position.board, position, roll, np.random.default_rng(seed))
    camera = replace(synthetic.Camera.preset("easy"), frame_size=FRAME_SIZE)
    return synthetic.render(scene, 4, camera)


def press(factory: MockFactory, pin: int, done, seconds: float = 0.1) -> None:
    """A short press of a button on the mock pins, then wait until `done()`."""
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()
    deadline = time.monotonic() + 5
    while not done() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_switching_game_at_a_real_table_is_followed_by_its_own_camera(service) -> None:
    service, factory = service
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), "ours", None))
    start = table.match.hint().start
    for _ in range(3):  # the dice in the hand: the board alone
        service.step(frame(start, None))
    roll = rules.Roll("orange", 3, 4)
    for _ in range(3):
        service.step(frame(start, roll))
    snap = table.match.hint()
    assert snap.roll is not None and snap.roll.total == 7 and snap.roll.colour == "orange"
    entering = next(o for o in snap.moves if o.action.train == "C1")
    for _ in range(3):
        service.step(frame(entering.position, roll))
    assert table.view("en")["session"]["shown"] == {"from": "C1", "place": "the top Start"}
    press(factory, CONFIRM, lambda: table.match.hint().history)
    assert table.match.hint().position == entering.position
    assert table.record()[2]["turns"][0]["enter"] == "C1"


def test_confirm_on_a_board_no_legal_move_explains_sounds_the_buzzer(service) -> None:
    service, factory = service
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), "ours", None))
    start = table.match.hint().start
    for _ in range(3):
        service.step(frame(start, None))
    roll = rules.Roll("orange", 3, 4)
    for _ in range(3):
        service.step(frame(start, roll))
    snap = table.match.hint()
    wrong = replace(
        snap.moves[0].position, trains=(rules.Train("C3", "red"),), turn=0
    )  # red put three spaces on, for a roll of seven
    for _ in range(3):
        service.step(frame(wrong, roll))
    assert table.view("en")["session"]["waiting"] is not None
    buzzer = factory.pin(BUZZER)
    press(factory, CONFIRM, lambda: table.view("en")["session"]["problem"] is not None)
    session = table.view("en")["session"]
    assert session["problem"]["key"] == "train_extra"
    assert any(state for _, state in buzzer.states)  # the buzzer sounded
    assert not table.match.hint().history  # nothing taken
