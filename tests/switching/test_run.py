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
from companion.app.config import ConfigError, load
from companion.app.run import Service
from companion.games import game
from companion.games.protocol import CameraSetup, Start
from companion.games.switching import rules, scenes, standin
from companion.games.switching.demo import teach_standin
from companion.games.switching.record import GAME_ID
from companion.vision.setup_check import check_setup
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


def box_config(tmp_path: Path, folder: Path) -> Path:
    """A configuration whose table is the stand-in box's, its taught folder named as a
    Caboose deck is (`[table] catalogue`)."""
    config = tmp_path / "box.toml"
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        f"frame_size = [{FRAME_SIZE[0]}, {FRAME_SIZE[1]}]\n"
        f"[table]\nwidth = {standin.TABLE.width}\nheight = {standin.TABLE.height}\n"
        f"catalogue = '{folder}'\n"
        "[gpio]\npin_factory = 'mock'\npass = 5\nconfirm = 6\nled = 13\nbuzzer = 19\n"
        f"[store]\npath = '{tmp_path / 'box.sqlite3'}'\n"
    )
    return config


@pytest.fixture
def taught_service(tmp_path: Path):
    """The service at a table whose configuration names the stand-in box, taught."""
    folder = tmp_path / "box"
    teach_standin(CameraSetup(standin.TABLE, FRAME_SIZE, catalogue=folder))
    service = Service(load(box_config(tmp_path, folder)), SyntheticFrames(3), MockFactory())
    yield service
    service.close()


def test_a_taught_box_named_by_the_configuration_is_played_and_read(taught_service) -> None:
    service = taught_service
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), "standin", None))
    start = table.match.hint().start
    pose = standin.random_pose(start.board, np.random.default_rng(5))  # anywhere, any way
    camera = replace(synthetic.Camera.preset("easy"), frame_size=FRAME_SIZE)

    def box_frame(roll: tuple[str, int, int] | None) -> np.ndarray:
        rng = np.random.default_rng(1)
        scene = standin.table_scene(start.board, pose, start.layout, (), roll, rng)
        return synthetic.render(scene, 4, camera)

    for _ in range(3):
        service.step(box_frame(None))
    for _ in range(3):
        service.step(box_frame(("cyan", 2, 5)))
    snap = table.match.hint()
    assert snap.board.id == "standin"
    assert snap.roll == rules.Roll("cyan", 2, 5) or snap.roll == rules.Roll("cyan", 5, 2)


def test_a_game_on_our_board_at_a_table_with_a_taught_box_is_read_as_ours(
    taught_service,
) -> None:
    """The start form offers both boards: a game on ours is read by our board's markers,
    not looked for as the taught box."""
    service = taught_service
    table = service.table
    table.start(GAME_ID, Start(("Ana", "Ben"), "ours", None))
    start = table.match.hint().start
    for _ in range(3):
        service.step(frame(start, None))
    for _ in range(3):
        service.step(frame(start, rules.Roll("orange", 3, 4)))
    roll = table.match.hint().roll
    assert roll is not None and roll.total == 7


def test_a_taught_box_that_cannot_be_read_stops_the_service_saying_why(tmp_path: Path) -> None:
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "box.json").write_text('{"format": "switching-box/1"}')
    (folder / "board.json").write_text("{ not a board")
    with pytest.raises(ConfigError, match=r"table\.catalogue: .*board\.json"):
        Service(load(box_config(tmp_path, folder)), SyntheticFrames(3), MockFactory())


def test_a_catalogue_folder_that_is_missing_stops_the_service_saying_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"table\.catalogue: .*box is no folder"):
        Service(load(box_config(tmp_path, tmp_path / "box")), SyntheticFrames(3), MockFactory())


def test_the_setup_check_of_a_taught_box_looks_for_the_tables_markers_not_ours(
    tmp_path: Path,
) -> None:
    """The box's board carries none of our corner markers: the setup page checks the
    table's own, among which it lies anywhere."""
    setup = CameraSetup(standin.TABLE, FRAME_SIZE, catalogue=tmp_path / "box")
    teach_standin(setup)
    lesson = standin.teaching_table(0)
    camera = replace(synthetic.Camera.preset("easy"), frame_size=FRAME_SIZE)
    report = check_setup(synthetic.render(lesson.scene, 2, camera), setup, game(GAME_ID), "ours")
    assert report.ready, report.first_fix


def box_frame(board, roll: tuple[str, int, int] | None) -> np.ndarray:
    """The stand-in box's board at its start, lying somewhere on its table, with `roll`."""
    position = rules.deal(board, rules.COLOURS[:2], rules.VARIANTS["full"])
    pose = standin.random_pose(board, np.random.default_rng(5))
    scene = standin.table_scene(board, pose, position.layout, (), roll, np.random.default_rng(1))
    return synthetic.render(scene, 4, replace(synthetic.Camera.preset("easy"),
                                              frame_size=FRAME_SIZE))  # fmt: skip


def test_a_box_taught_while_the_service_runs_is_offered_and_read_at_once(tmp_path: Path) -> None:
    """The setup page teaches the box into the configured folder while the companion runs:
    the start form offers its board straight away, and a game started on it is read on it,
    with no restart."""
    folder = tmp_path / "box"
    folder.mkdir()
    service = Service(load(box_config(tmp_path, folder)), SyntheticFrames(3), MockFactory())
    try:
        teach_standin(CameraSetup(standin.TABLE, FRAME_SIZE, catalogue=folder))
        table = service.table
        offered = game(GAME_ID).own_options(table.setting)
        assert [o.id for o in offered] == ["standin"]
        table.start(GAME_ID, Start(("Ana", "Ben"), "standin", None))
        board = table.match.hint().board
        for _ in range(3):
            service.step(box_frame(board, None))
        for _ in range(3):
            service.step(box_frame(board, ("cyan", 2, 5)))
        assert table.match.hint().roll in (rules.Roll("cyan", 2, 5), rules.Roll("cyan", 5, 2))
    finally:
        service.close()


def test_a_game_resumed_where_its_box_is_not_taught_says_so_in_words(tmp_path: Path) -> None:
    """A game on the family's own board resumes from its record, but the folder no longer
    holds that box: the camera says what to do, and reads nothing as a move."""
    folder = tmp_path / "box"
    teach_standin(CameraSetup(standin.TABLE, FRAME_SIZE, catalogue=folder))
    service = Service(load(box_config(tmp_path, folder)), SyntheticFrames(3), MockFactory())
    service.table.start(GAME_ID, Start(("Ana", "Ben"), "standin", None))
    board = service.table.match.hint().board
    service.close()
    for path in folder.iterdir():  # the box taught elsewhere, or its folder emptied
        path.unlink()
    service = Service(load(box_config(tmp_path, folder)), SyntheticFrames(3), MockFactory())
    try:
        table = service.table
        assert table.match.hint().board == board  # resumed on the board its record keeps
        for _ in range(3):
            service.step(box_frame(board, ("cyan", 2, 5)))
        assert table.match.hint().roll is None
        for lang, words in (("en", "teach this board again"), ("es", "vuelve a enseñar")):
            camera = table.view(lang)["session"]["camera"]
            assert [said["key"] for said in camera] == ["box_untaught"]
            assert words in camera[0]["said"]
    finally:
        service.close()
