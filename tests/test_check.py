"""`companion check`: the table's findings said in plain words with the exit status, the
configuration saved as measured (the person's comments and keys kept), and the buttons,
LED, buzzer and speaker tested (gpiozero's mock pins, espeak-ng writing files)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app import check
from companion.app.cli import main as cli_main
from companion.app.config import load
from companion.synthetic import Camera, Scene, camera_view, render
from companion.vision.table import TableLayout
from hw.speaker import MANIFEST, Speaker

SMALL = replace(Camera.easy(), frame_size=(728, 544))
PINS = {"pass": 5, "confirm": 6, "led": 13, "buzzer": 19}
WRITTEN = """\
# our kitchen table
[camera]
source = "picamera2"  # the ribbon camera
frame_size = [728, 544]

[web]
pin = "482913"
"""


def camera_folder(folder: Path, frame: np.ndarray) -> str:
    folder.mkdir()
    cv2.imwrite(str(folder / "frame.png"), frame)
    return f"folder:{folder}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = check.main([*argv, "--no-hardware", "--settle", "0"])
    out = capsys.readouterr()
    return status, (out.out + out.err).splitlines()


def test_a_ready_table_exits_0_and_says_so(tmp_path: Path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN)
    source = camera_folder(tmp_path / "frames", render(Scene(), 3, SMALL))
    status, lines = run(capsys, "--config", str(config), "--camera", source)
    assert status == 0, lines
    assert lines[0] == "The table is ready."
    assert "ok  Camera found: 728 x 544 pixels." in lines
    assert "ok  Marker 2 (bottom right) found." in lines


def test_the_synthetic_camera_at_its_own_size_is_a_ready_table(capsys) -> None:
    status, lines = run(capsys, "--camera", "synthetic:1", "--game", "caboose")
    assert status == 0, lines
    assert "ok  Camera found: 1456 x 1088 pixels." in lines


def test_a_hidden_marker_is_the_first_thing_to_fix_in_either_language(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN)
    frame = render(Scene(), 3, SMALL)
    quad = camera_view(3, SMALL, TableLayout()).to_pixels(TableLayout().marker_corners()[3])
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (60, 90, 120))
    source = camera_folder(tmp_path / "frames", frame)
    status, lines = run(capsys, "--config", str(config), "--camera", source)
    assert status == 2
    assert lines[:3] == [
        "First fix this:",
        "  Marker 3 (bottom left) is missing.",
        "  -> Move the camera so the marker at the bottom left is in view, and check that "
        "nothing covers it.",
    ]
    status, lines = run(capsys, "--config", str(config), "--camera", source, "--lang", "es")
    assert status == 2
    assert lines[:2] == ["Primero arregla esto:", "  Falta el marcador 3 (abajo a la izquierda)."]


def test_save_writes_the_measured_table_and_keeps_what_a_person_wrote(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN.replace("frame_size = [728, 544]\n", ""))
    laid = TableLayout(width=900.0, height=700.0)
    source = camera_folder(tmp_path / "frames", render(Scene(layout=laid), 3, SMALL))
    status, lines = run(capsys, "--config", str(config), "--camera", source)
    assert status == 2 and lines[0] == "First fix this:"
    assert "expects pictures of 1456 x 1088 pixels, but the camera gives 728 x 544" in lines[1]
    assert any("but the configuration says 840 x 630 mm" in line for line in lines)
    assert config.read_text() == WRITTEN.replace("frame_size = [728, 544]\n", "")

    status, lines = run(capsys, "--config", str(config), "--camera", source, "--save")
    assert status == 0, lines
    assert lines[0] == f"Saved to {config}." and lines[1] == "The table is ready."
    text = config.read_text()
    assert text.startswith("# our kitchen table\n[camera]\n")
    assert f'source = "{source}"  # the ribbon camera' in text
    assert 'pin = "482913"' in text
    saved = load(config)
    assert saved.camera.frame_size == (728, 544) and saved.web.pin == "482913"
    assert abs(saved.table.width - 900) <= 12 and abs(saved.table.height - 700) <= 12


def test_save_makes_a_configuration_where_there_was_none(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    source = camera_folder(tmp_path / "frames", render(Scene(), 3, SMALL))
    status, lines = run(capsys, "--config", str(config), "--camera", source, "--save")
    assert status == 0, lines
    assert load(config).camera.frame_size == (728, 544)
    assert load(config).camera.source == source


def test_a_broken_configuration_is_not_overwritten(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("[camera]\nframe_sise = [1, 2]\n")
    source = camera_folder(tmp_path / "frames", render(Scene(), 3, SMALL))
    status, lines = run(capsys, "--config", str(config), "--camera", source, "--save")
    assert status == 2 and "frame_sise" in lines[0]
    assert config.read_text() == "[camera]\nframe_sise = [1, 2]\n"


def test_no_camera_is_the_first_thing_to_fix(tmp_path, capsys) -> None:
    status, lines = run(capsys, "--camera", f"folder:{tmp_path / 'none'}")
    assert status == 2
    assert lines[:2] == ["First fix this:", "  No picture came from the camera."]
    assert "no folder at" in lines[2]


def test_the_command_line_offers_check_with_its_help(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        cli_main(["check", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--no-hardware" in out and "--save" in out and "Exit 0 when the table is ready" in out
    with pytest.raises(SystemExit):
        cli_main(["--help"])
    assert "check      check the table with the camera in place" in capsys.readouterr().out


def pressing(
    factory: MockFactory, answers: dict[str, int | None]
) -> tuple[list[str], Callable[[str], None]]:
    """A person at the buttons: asked for a button, presses the pin `answers` names for
    it (None: presses nothing); what they were told."""
    told: list[str] = []

    def tell(text: str) -> None:
        told.append(text)
        if "LED" in text:
            return
        asked = "pass" if "PASS" in text else "confirm"
        pin = answers[asked]
        if pin is not None:

            def press() -> None:
                time.sleep(0.05)
                factory.pin(pin).drive_low()
                time.sleep(0.1)
                factory.pin(pin).drive_high()

            threading.Thread(target=press, daemon=True).start()

    return told, tell


def test_the_buttons_are_asked_for_and_each_press_is_said() -> None:
    factory = MockFactory()
    told, tell = pressing(factory, {"pass": 5, "confirm": 6})
    findings = check.try_buttons(factory, PINS, tell, "en", seconds=2.0)
    assert told == [
        "Press PASS now.",
        "Press CONFIRM now.",
        "Now watch the LED, then listen to the buzzer and the speaker.",
    ]
    assert [f.said() for f in findings][:2] == [
        "The PASS button works.",
        "The CONFIRM button works.",
    ]
    assert "LED blinked three times (GPIO 13)" in findings[2].said()
    assert "buzzer beeped twice (GPIO 19)" in findings[3].said()
    assert all(f.ok for f in findings)


def test_swapped_or_silent_buttons_say_what_to_do() -> None:
    factory = MockFactory()
    _, tell = pressing(factory, {"pass": 6, "confirm": None})
    findings = check.try_buttons(factory, PINS, tell, "es", seconds=0.5)
    swapped, silent = findings[:2]
    assert not swapped.ok and swapped.said("en") == "Asked for PASS, the companion saw CONFIRM."
    assert "swapped" in (swapped.fix("en") or "")
    assert not silent.ok
    assert silent.said("en") == "The CONFIRM button was not pressed within 0.5 seconds."
    assert silent.fix("en") == "Check the CONFIRM button's wires to GPIO 6 and ground."
    assert "GPIO 6" in (silent.fix("es") or "")


def test_the_speaker_says_a_sentence_in_the_chosen_language(tmp_path: Path) -> None:
    speaker = Speaker(lang="es", out_dir=tmp_path)
    try:
        finding = check.try_speaker(speaker, "es")
    finally:
        speaker.close()
    assert finding.ok and "Hola" in finding.said("es")
    assert "Hola, soy el acompañante de la mesa." in (tmp_path / MANIFEST).read_text()


def test_a_speaker_without_espeak_says_how_to_install_it(tmp_path: Path) -> None:
    speaker = Speaker(program="no-such-espeak", on_problem=lambda _: None)
    try:
        finding = check.try_speaker(speaker, "en")
    finally:
        speaker.close()
    assert not finding.ok and "apt-get install espeak-ng" in (finding.fix() or "")


def test_a_computer_without_pins_says_the_buttons_were_not_tested(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN + '\n[gpio]\npin_factory = "mock"\n')
    source = camera_folder(tmp_path / "frames", render(Scene(), 3, SMALL))
    status = check.main(["--config", str(config), "--camera", source, "--settle", "0"])
    out = capsys.readouterr().out
    assert status == (0 if out.startswith("The table is ready.") else 2)
    assert 'not tested: the configuration sets gpio.pin_factory = "mock".' in out


def test_a_speaker_that_fails_is_said_with_what_to_check(tmp_path: Path) -> None:
    failing = tmp_path / "espeak-ng"
    failing.write_text("#!/bin/sh\necho 'no such voice' >&2\nexit 1\n")
    failing.chmod(0o755)
    problems: list[str] = []
    speaker = Speaker(program=str(failing), on_problem=problems.append)
    try:
        finding = check.try_speaker(speaker, "en", problems)
    finally:
        speaker.close()
    assert not finding.ok and "no such voice" in finding.said()
    assert "plugged in" in (finding.fix() or "")


def test_confirm_held_down_still_counts_as_confirm() -> None:
    factory = MockFactory()
    told: list[str] = []

    def tell(text: str) -> None:
        told.append(text)
        if "LED" in text:
            return
        pin = PINS["pass"] if "PASS" in text else PINS["confirm"]
        held = 0.1 if "PASS" in text else 0.5

        def press() -> None:
            factory.pin(pin).drive_low()
            time.sleep(held)
            factory.pin(pin).drive_high()

        threading.Thread(target=press, daemon=True).start()

    findings = check.try_buttons(factory, PINS, tell, "en", seconds=2.0, hold=0.3)
    assert [f.ok for f in findings[:2]] == [True, True], [f.said() for f in findings]


def test_nothing_is_saved_without_a_picture(tmp_path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN)
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "frame.png").write_bytes(b"not a picture")
    status, lines = run(capsys, "--config", str(config), "--camera", f"folder:{frames}", "--save")
    assert status == 2 and lines[:2] == ["First fix this:", "  No picture came from the camera."]
    assert config.read_text() == WRITTEN
