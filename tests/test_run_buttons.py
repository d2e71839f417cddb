"""`companion run`'s buttons are commands to the table like the page's: a press goes through
`Table.handle`, a press the game refuses is said on the LED and never escapes the buttons'
thread, and the page sees what the buttons did (gpiozero's mock pins, the synthetic camera)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.config import load
from companion.app.run import Service
from companion.games.caboose.follow import CHECKING, LED_ERROR, WAITING
from companion.store import Store, StoreError
from hw.frames import SyntheticFrames
from tests.playing import match, new_game, press

PINS = "pass = 5\nconfirm = 6\nled = 13\nbuzzer = 19\ndebounce = 0.02\nhold = 0.3\n"


@pytest.fixture
def service(tmp_path: Path):
    config = tmp_path / "companion.toml"
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        f"[gpio]\npin_factory = 'mock'\n{PINS}"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    yield service, factory
    time.sleep(0.1)  # a button's callback may still be lighting the LED on its timer thread
    service.close()


def wait_for(condition, seconds: float = 3.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the table did not hear the button"
        time.sleep(0.01)


def test_buttons_act_through_the_table_and_a_refused_press_is_only_said(service):
    service, factory = service
    table = service.table
    new_game(table, "rollecate", ["Ana", "Ben"], seed=2)
    session = match(table).following
    assert session is not None  # a real table: a camera follows it
    version = table.version
    press(factory, 5)  # PASS
    # the game changes inside the table's step, the version once the step is done
    wait_for(lambda: table.version > version)
    assert match(table).snap.record.turns == [{"pass": True}] and session.phase == CHECKING
    assert table.view("en")["session"]["phase"] == CHECKING
    kept = table.version
    press(factory, 5)  # PASS again: the move waits for CONFIRM, so it is refused
    wait_for(lambda: service.controls.status == LED_ERROR and table.version > kept)
    assert session.problem.key == "pass_not_now"
    assert match(table).snap.record.turns == [{"pass": True}] and table.version == kept + 1
    press(factory, 6, seconds=0.45)  # CONFIRM held: UNDO, through the same table
    wait_for(lambda: not match(table).snap.record.turns)
    assert session.phase == WAITING


def test_a_press_before_any_game_is_refused_quietly(service):
    service, factory = service
    version = service.table.version
    service.press("pass")  # what the buttons' thread calls: a refusal does not escape it
    press(factory, 5)
    time.sleep(0.2)
    assert service.table.version == version
    assert service.table.view("en")["game"] is None


def test_a_service_that_cannot_open_its_table_lets_go_of_the_pins_and_the_store(tmp_path):
    """A store whose game in progress this companion does not referee stops `run` with a
    StoreError; the buttons' pins are free again (gpiozero refuses a pin in use), so the
    next start, on a good store, can take them."""
    bad = tmp_path / "newer.sqlite3"
    Store(bad).start("switching-track", {"format": "switching-record/1"})
    config = tmp_path / "companion.toml"
    body = f"[camera]\nsource = 'synthetic:3'\n[gpio]\npin_factory = 'mock'\n{PINS}"
    config.write_text(body + f"[store]\npath = '{bad}'\n")
    factory = MockFactory()
    with pytest.raises(StoreError, match="switching-track"):
        Service(load(config), SyntheticFrames(3), factory)
    config.write_text(body + f"[store]\npath = '{tmp_path / 'good.sqlite3'}'\n")
    service = Service(load(config), SyntheticFrames(3), factory)
    service.close()


def test_a_table_with_speech_on_says_what_the_buttons_did_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """[speech] on: the service's voice follows the table from its start (espeak-ng here a
    stand-in on PATH noting each phrase and its command line: the Pi's audio output is the
    hardware), in the configured language, voice, speed and volume."""
    notes = tmp_path / "said"
    espeak = tmp_path / "bin" / "espeak-ng"
    espeak.parent.mkdir()
    espeak.write_text(f'#!/bin/sh\ntext=$(cat); echo "$* | $text" >> "{notes}"\n')
    espeak.chmod(0o755)
    monkeypatch.setenv("PATH", f"{espeak.parent}:{os.environ['PATH']}")
    config = tmp_path / "companion.toml"
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        f"[gpio]\npin_factory = 'mock'\n{PINS}"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
        "[speech]\non = true\nlang = 'es'\nvoice = 'es-419'\nspeed = 140\nvolume = 60\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    try:
        new_game(service.table, "rollecate", ["Ana", "Ben"], seed=2)
        wait_for(lambda: notes.exists() and "Le toca a Ana" in notes.read_text())
        press(factory, 5)  # PASS
        wait_for(lambda: len(notes.read_text().splitlines()) > 1)
    finally:
        time.sleep(0.1)
        service.close()
    said = notes.read_text().splitlines()
    assert all(line.startswith("-v es-419 -s 140 -a 60 --stdin | ") for line in said)
    assert said[0].endswith("| Le toca a Ana")
    assert "Ana" in said[1] and "pasa" in said[1].lower(), said
