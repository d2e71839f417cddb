"""`companion run` at a real table where the switching-track game is started from the page:
the frames go to this game's camera, a throw lying still beside the board is the mover's
roll, the board showing a legal move is taken when CONFIRM is pressed on the mock pins, and
a board no legal move explains sounds the buzzer (the synthetic camera, gpiozero's mock
pins)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import synthetic
from companion.app.config import load
from companion.app.run import Service
from companion.games import game
from companion.games.protocol import Start
from companion.games.switching import board, rules, scenes, standin
from companion.games.switching.record import GAME_ID
from companion.games.switching.vision import taught
from companion.pose import Pose
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


def thrown(service: Service, board_id: str, drawn=None) -> tuple[Any, rules.Roll]:
    """A game started on `board_id`, the board shown with the dice in the hand, then an
    orange 3 and 4 thrown beside it (`drawn`: the frame of a position and roll), read."""
    drawn = drawn or frame
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), board_id, None))
    start = table.match.hint().start
    for _ in range(3):  # the dice in the hand: the board alone
        service.step(drawn(start, None))
    roll = rules.Roll("orange", 3, 4)
    for _ in range(3):
        service.step(drawn(start, roll))
    snap = table.match.hint()
    assert snap.roll is not None and snap.roll.total == 7 and snap.roll.colour == "orange"
    return snap, roll


def test_a_switching_game_at_a_real_table_is_followed_by_its_own_camera(service) -> None:
    service, factory = service
    table = service.table
    snap, roll = thrown(service, "ours")
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
    snap, roll = thrown(service, "ours")
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


@pytest.fixture(scope="module")
def taught_box(tmp_path_factory) -> Path:
    """The synthetic table's stand-in box taught as `companion enroll --game switching`
    teaches a family's: one frame of it laid out, written to a folder."""
    lesson = standin.teaching_table(0)
    box = taught.teach(
        synthetic.render(lesson.scene, 900, synthetic.Camera.easy()), lesson.board, TABLE
    )
    folder = tmp_path_factory.mktemp("box")
    box.save(folder)
    return folder


def box_frame(position: rules.Position, roll: rules.Roll | None, seed: int = 1) -> np.ndarray:
    """The stand-in box at `POSE` (anywhere among the markers, turned) showing `position`."""
    trains = tuple(scenes.OnBoard(t.owner, t.space, t.facing) for t in position.trains)
    shown = None if roll is None else (roll.colour, roll.white, roll.black)
    rng = np.random.default_rng(seed)
    scene = standin.table_scene(position.board, POSE, position.layout, trains, shown, rng)
    return synthetic.render(scene, 4, synthetic.Camera.easy())


POSE = Pose(470.0, 440.0, 205.0)
TABLE = standin.TABLE


def test_a_family_s_taught_box_is_offered_played_and_followed(
    tmp_path: Path, taught_box: Path, monkeypatch
) -> None:
    """`[table] catalogue` naming a taught switching box: its board is offered on the
    start form from the start, a game on it is followed by the camera wherever the board
    lies, and the game resumes on it after a restart."""
    monkeypatch.setattr(board, "_TAUGHT", {})  # the boards offered in this process
    config = tmp_path / "companion.toml"
    config.write_text(
        f"[camera]\nsource = 'synthetic:3'\n[table]\nwidth = {TABLE.width}\n"
        f"height = {TABLE.height}\ncatalogue = '{taught_box}'\n"
        "[gpio]\npin_factory = 'mock'\nconfirm = 6\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    try:
        offered = {o.id: o.name for o in game(GAME_ID).options}
        assert offered.get("standin") == standin.board().name and "ours" in offered
        table = service.table
        snap, roll = thrown(service, "standin", box_frame)
        entering = next(o for o in snap.moves if o.action.train == snap.board.starts[0])
        for _ in range(3):
            service.step(box_frame(entering.position, roll))
        press(factory, CONFIRM, lambda: table.match.hint().history)
        assert table.match.hint().position == entering.position
    finally:
        time.sleep(0.1)
        service.close()
    monkeypatch.setattr(board, "_TAUGHT", {})  # restarted without the box configured
    plain = tmp_path / "plain.toml"
    plain.write_text(
        f"[camera]\nsource = 'synthetic:3'\n[gpio]\npin_factory = 'mock'\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    restarted = Service(load(plain), SyntheticFrames(3), MockFactory())
    try:
        assert restarted.table.match.hint().position == entering.position
    finally:
        restarted.close()
