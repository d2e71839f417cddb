"""The speaker: a queue that never blocks the table, stale phrases dropped, a missing or
failing espeak-ng one message and silence, and real espeak-ng writing WAV files whose
length follows the text and whose voice is the table's language."""

from __future__ import annotations

import stat
import subprocess
import time
import wave
from pathlib import Path

import pytest

from hw.speaker import Speaker, phrases_written

WAIT = 60.0  # a safety net for the worker on a busy machine, not a measured time


def stand_in(folder: Path) -> tuple[Path, Path, Path]:
    """An espeak-ng stand-in that says nothing until the test opens its gate: it notes
    each phrase it was given (its command line and its standard input) when it starts,
    then waits for the gate file. Returns (program, gate, notes)."""
    gate, notes = folder / "gate", folder / "notes"
    program = folder / "espeak-stand-in"
    program.write_text(
        "#!/bin/sh\n"
        f'text=$(cat); echo "$* | $text" >> "{notes}"\n'
        f'while [ ! -e "{gate}" ]; do sleep 0.02; done\n'
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program, gate, notes


def noted(notes: Path) -> list[str]:
    return notes.read_text().splitlines() if notes.exists() else []


def wait_until(done, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_say_returns_while_the_voice_is_still_speaking(tmp_path: Path) -> None:
    program, gate, notes = stand_in(tmp_path)
    speaker = Speaker(lang="en", program=str(program))
    try:
        speaker.say("Ana's turn")
        wait_until(lambda: len(noted(notes)) == 1, "the stand-in never started")
        # The stand-in is stuck until the gate opens: say() must not wait for it.
        for turn in range(20):
            speaker.say(f"turn {turn}")
        assert not gate.exists() and len(noted(notes)) == 1
        gate.touch()
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()


def test_phrases_waiting_while_the_table_moves_on_are_dropped(tmp_path: Path) -> None:
    program, gate, notes = stand_in(tmp_path)
    speaker = Speaker(lang="es", program=str(program), keep=3)
    try:
        speaker.say("uno")
        wait_until(lambda: len(noted(notes)) == 1, "the stand-in never started")
        speaker.say("dos", "tres")
        speaker.say("cuatro", "cinco")  # the table moved on: "dos" is stale
        gate.touch()
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    said = [line.split(" | ")[1] for line in noted(notes)]
    assert said == ["uno", "tres", "cuatro", "cinco"]
    assert speaker.dropped == 1


def test_the_command_line_carries_voice_speed_and_volume_and_the_text_goes_on_stdin(
    tmp_path: Path,
) -> None:
    program, gate, notes = stand_in(tmp_path)
    gate.touch()
    speaker = Speaker(voice="es-419", speed=140, volume=80, lang="es", program=str(program))
    try:
        speaker.say("-v en: no es una opción")
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert noted(notes) == ["-v es-419 -s 140 -a 80 --stdin | -v en: no es una opción"]


def test_a_missing_espeak_is_one_message_and_silence(tmp_path: Path) -> None:
    told: list[str] = []
    speaker = Speaker(lang="en", program=str(tmp_path / "espeak-ng"), on_problem=told.append)
    try:
        for _ in range(5):
            speaker.say("Ana's turn", "Ben's turn")
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert speaker.silent and speaker.ran == []
    assert len(told) == 1 and "espeak-ng" in told[0] and "apt-get install espeak-ng" in told[0]


def test_an_espeak_that_fails_is_one_message_and_the_service_goes_on(tmp_path: Path) -> None:
    program = tmp_path / "failing-espeak"
    program.write_text("#!/bin/sh\ncat > /dev/null; echo 'Failed to set voice' >&2; exit 1\n")
    program.chmod(0o755)
    told: list[str] = []
    speaker = Speaker(voice="klingon", program=str(program), on_problem=told.append)
    try:
        speaker.say("one")
        speaker.say("two")
        assert speaker.wait_idle(WAIT)
        speaker.say("three")
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert len(speaker.ran) == 3  # every phrase was tried: the speaker did not stop
    assert len(told) == 1 and "klingon" in told[0] and "Failed to set voice" in told[0]


def test_close_cuts_the_phrase_being_spoken_short(tmp_path: Path) -> None:
    program, _gate, notes = stand_in(tmp_path)  # the gate never opens
    speaker = Speaker(lang="en", program=str(program))
    speaker.say("a very long phrase", "and another")
    wait_until(lambda: len(noted(notes)) == 1, "the stand-in never started")
    speaker.close()
    assert speaker.dropped == 1 and len(noted(notes)) == 1


def seconds(path: Path) -> float:
    with wave.open(str(path)) as sound:
        return sound.getnframes() / sound.getframerate()


def espeak(voice: str, text: str, target: Path) -> bytes:
    subprocess.run(
        ["espeak-ng", "-v", voice, "-s", "160", "-a", "100", "-w", str(target), "--stdin"],
        input=text.encode(),
        check=True,
    )
    return target.read_bytes()


def test_espeak_writes_each_phrase_as_a_wav_as_long_as_its_text(tmp_path: Path) -> None:
    out = tmp_path / "said"
    short = "Ana's turn"
    long = "Ben plays 3 3, rolls 3 wheels, caboose 4 to 7, takes 2 from the back of the railway"
    speaker = Speaker(lang="en", out_dir=out)
    try:
        speaker.say(short)
        speaker.say(long, short)
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    written = list(phrases_written(out))
    assert [(name, text) for name, _, text in written] == [
        ("0001.wav", short),
        ("0002.wav", long),
        ("0003.wav", short),
    ]
    assert sorted(p.name for p in out.glob("*.wav")) == ["0001.wav", "0002.wav", "0003.wav"]
    first, longer, again = (seconds(out / name) for name, _, _ in written)
    assert 0.3 < first < 3.0
    assert longer > 3 * first
    assert again == first


def test_a_spanish_table_is_spoken_with_the_spanish_voice(tmp_path: Path) -> None:
    text = "el furgón va a la carta cuatro desde el final"
    out = tmp_path / "dicho"
    speaker = Speaker(lang="es", out_dir=out)
    try:
        speaker.say(text)
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    [(name, voice, said)] = phrases_written(out)
    assert (voice, said) == ("es", text)
    written = (out / name).read_bytes()
    spanish = espeak("es", text, tmp_path / "es.wav")
    english = espeak("en", text, tmp_path / "en.wav")
    assert spanish != english  # the two voices read the same text differently
    assert written == spanish


def test_a_file_in_the_way_of_the_folder_is_an_error_before_anything_is_said(
    tmp_path: Path,
) -> None:
    (tmp_path / "said").write_text("a file, not a folder")
    with pytest.raises(OSError):
        Speaker(out_dir=tmp_path / "said")
