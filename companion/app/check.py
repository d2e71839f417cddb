"""`companion check`: is the table ready? The camera in place, it says in plain words what
the camera sees (companion/vision/setup_check.py's findings: the camera, the four
markers, the table's size, the game's play area, focus, exposure, glare), tests the
buttons, the LED, the buzzer and the speaker, and with `--save` keeps what it measured as
the configuration. Exit 0 when all is ready, 2 with the first thing to fix printed first.

Saving edits the person's own configuration file in place (tomlkit): only the keys the
check measured change (`camera.frame_size`, `table.width`, `table.height`, and
`camera.source` when `--camera` names one); every comment, every other key and their
order stay as written. One file is what the service reads (`companion run --config`), so
what it uses is what a person reads there: a second file of measured values laid over
the person's would hide which value is in force. The result is checked as a
configuration before it replaces the old file, atomically, so a failed save leaves the
file as it was.
"""

from __future__ import annotations

import os
import queue
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tomlkit
from gpiozero import Factory

from companion.app.config import Config, ConfigError, load, parse
from companion.arguments import CommandLine, seconds
from companion.games import default, game, games
from companion.games.protocol import CameraSetup, Game
from companion.vision.setup_check import Finding, Report, check_setup
from companion.vision.setup_words import word
from companion.vision.table import TableLayout
from hw.controls import CONFIRM, PASS, UNDO, Controls, PinsError, pin_factory
from hw.frames import FrameSourceError, open_source
from hw.speaker import Speaker

BUTTON_SECONDS = 20.0  # how long a person has to press each button
SETTLE_SECONDS = 1.0  # a camera's first frames are dark while its exposure settles
SPEAKER_SECONDS = 15.0  # the sentence must be said within this


def camera_setup(config: Config) -> CameraSetup:
    """The camera over the table as the configuration describes it."""
    table = config.table
    return CameraSetup(
        layout=TableLayout(table.width, table.height, table.marker_mm, table.inset_mm),
        frame_size=config.camera.frame_size,
        catalogue=table.catalogue,
        zone=table.zone,
    )


def check_camera(frame: np.ndarray | None, config: Config, chosen: Game) -> Report:
    """The findings of one frame, at a table configured as `config`, for `chosen` (the
    default game's pieces of the configured edition, another game's first option's)."""
    option = config.table.edition if chosen.id == default().id else chosen.options[0].id
    return check_setup(frame, camera_setup(config), chosen, option)


def read_settled(spec: str, chosen: Game, settle: float) -> np.ndarray | None:
    """The last frame the camera `spec` gave within `settle` seconds of its first (None:
    it gave none). Raises FrameSourceError naming what is wrong with the camera."""
    scene = chosen.camera.scene if chosen.camera is not None else None
    with open_source(spec, scene) as source:
        frame = source.read()
        started = time.monotonic()
        while frame is not None and time.monotonic() - started < settle:
            later = source.read()
            if later is None:
                break
            frame = later
    return frame


def try_buttons(
    factory: Factory,
    pins: Mapping[str, int],
    tell: Callable[[str], None],
    lang: str,
    seconds: float = BUTTON_SECONDS,
    debounce: float = 0.03,
    hold: float = 2.0,
) -> list[Finding]:
    """Asks for PASS, then CONFIRM (`tell` says it), and says which it saw (or none
    within `seconds`); then blinks the LED and sounds the buzzer, which a person sees and
    hears."""
    seen: queue.Queue[str] = queue.Queue()
    controls = Controls(seen.put, pins, debounce=debounce, hold=hold, pin_factory=factory)
    findings = []
    try:
        for button in (PASS, CONFIRM):
            while not seen.empty():  # a press before the question is not its answer
                seen.get_nowait()
            tell(word("press", lang, button=word(f"button.{button}", lang)))
            params: dict[str, Any] = {"button": button, "pin": pins[button], "seconds": seconds}
            try:
                pressed = seen.get(timeout=seconds)
            except queue.Empty:
                findings.append(Finding("button", False, params))
                continue
            pressed = CONFIRM if pressed == UNDO else pressed  # CONFIRM held: still CONFIRM
            other = None if pressed == button else pressed
            findings.append(Finding("button", other is None, {**params, "seen": other}))
        tell(word("look_listen", lang))
        controls.led.blink(on_time=0.15, off_time=0.15, n=3, background=False)
        findings.append(Finding("led", True, {"pin": pins["led"]}))
        controls.buzzer.beep(on_time=0.1, off_time=0.1, n=2, background=False)
        findings.append(Finding("buzzer", True, {"pin": pins["buzzer"]}))
    finally:
        controls.close()
    return findings


def try_speaker(speaker: Speaker, lang: str, problems: Sequence[str] = ()) -> Finding:
    """The speaker says one sentence in `lang`; not ok when espeak-ng is missing or
    fails (`problems`: what the speaker's `on_problem` was told, the last one said)."""
    if speaker.silent:
        return Finding("speaker", False)
    sentence = word("sentence", lang)
    before = len(problems)
    speaker.say(sentence)
    speaker.wait_idle(SPEAKER_SECONDS)
    if len(problems) > before:
        return Finding("speaker", False, {"problem": problems[-1]})
    return Finding("speaker", True, {"sentence": sentence})


def save(path: Path, report: Report, source: str | None) -> None:
    """Write what `report` measured into the configuration at `path` (made if there is
    none), keeping everything else in it as written. Raises ConfigError if the result
    would not be a configuration, OSError if it cannot be written; the file is then as
    it was."""
    if path.exists():
        load(path)  # a file the service could not read is not edited: its message says why
        doc = tomlkit.parse(path.read_text())
    else:
        doc = tomlkit.document()
        doc.add(tomlkit.comment("Caboose Companion: written by `companion check --save`;"))
        doc.add(tomlkit.comment("examples/companion.toml shows every key."))
    camera = doc.setdefault("camera", tomlkit.table())
    if source is not None:
        camera["source"] = source
    if report.frame_size is not None:
        camera["frame_size"] = list(report.frame_size)
    if report.measured is not None:
        table = doc.setdefault("table", tomlkit.table())
        table["width"] = round(report.measured.width)
        table["height"] = round(report.measured.height)
    parse(doc.unwrap(), str(path))
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(tomlkit.dumps(doc))
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def say_report(findings: list[Finding], lang: str) -> str:
    """The report as printed: the first thing to fix first (with what to do), then
    every finding, each ticked or crossed, with what to do under a crossed one."""
    lines = []
    first = next((finding for finding in findings if not finding.ok), None)
    if first is None:
        lines.append(word("ready", lang))
    else:
        lines += [word("not_ready", lang), f"  {first.said(lang)}", f"  -> {first.fix(lang)}"]
    lines.append("")
    for finding in findings:
        lines.append(f"{'ok ' if finding.ok else 'NO '} {finding.said(lang)}")
        if not finding.ok:
            lines.append(f"     -> {finding.fix(lang)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion check",
        description="Check the table with the camera in place: the camera and its "
        "resolution, each of the four table markers, the table's size measured from them, "
        "whether the chosen game's whole play area is in view, focus, light and glare, each "
        "with what to do about it; then the PASS and CONFIRM buttons (press each when asked),"
        " the LED, the buzzer and the speaker. Exit 0 when the table is ready, 2 with the "
        "first thing to fix printed first.",
        epilog="Example: companion check --config /etc/caboose-companion/companion.toml "
        "--save (then `companion run` with that file starts with what was measured).",
    )
    parser.add_argument(
        "--config",
        type=Path,
        help="the table's configuration (TOML): what it says is checked, and --save writes "
        "into it (made if missing); without it, the defaults",
    )
    parser.add_argument(
        "--game",
        choices=tuple(games()),
        default=default().id,
        help="whose play area must be in view (default %(default)s)",
    )
    parser.add_argument(
        "--camera",
        metavar="SOURCE",
        help="the camera: picamera2, usb:N, folder:PATH, video:PATH or synthetic:SEED "
        "(default: the configuration's camera.source)",
    )
    parser.add_argument("--lang", choices=("en", "es"), default="en", help="the words' language")
    parser.add_argument(
        "--save",
        action="store_true",
        help="write the measured table size, the frame size and --camera into --config",
    )
    parser.add_argument(
        "--no-hardware",
        action="store_true",
        help="skip the buttons, LED, buzzer and speaker (a computer without GPIO pins)",
    )
    parser.add_argument(
        "--settle",
        type=seconds,
        default=SETTLE_SECONDS,
        metavar="SECONDS",
        help="let the camera's exposure settle this long first (default %(default)s)",
    )
    args = parser.parse_args(argv)
    lang = args.lang
    if args.save and args.config is None:
        parser.error("--save needs --config FILE: the configuration to write")
    try:
        missing = args.config is not None and not args.config.exists() and args.save
        config = Config() if args.config is None or missing else load(args.config)
    except ConfigError as error:
        print(f"companion check: {error}", file=sys.stderr)
        return 2
    chosen = game(args.game)
    source = args.camera or config.camera.source
    try:
        frame = read_settled(source, chosen, args.settle)
    except FrameSourceError as error:
        print(f"{word('not_ready', lang)}\n  {Finding('camera_none', False).said(lang)}\n  "
              f"-> {error}", file=sys.stderr)  # fmt: skip
        return 2
    report = check_camera(frame, config, chosen)
    if args.save and report.frame_size is not None:  # no picture: nothing measured to keep
        try:
            save(args.config, report, args.camera)
            config = load(args.config)
        except (ConfigError, OSError) as error:
            print(f"companion check: cannot save to {args.config}: {error}", file=sys.stderr)
            return 2
        print(word("saved", lang, path=args.config))
        report = check_camera(frame, config, chosen)
    findings = list(report.findings)
    if not args.no_hardware:
        findings += _hardware(config, lang)
    print(say_report(findings, lang))
    return 0 if all(finding.ok for finding in findings) else 2


def _hardware(config: Config, lang: str) -> list[Finding]:
    """The buttons, LED and buzzer where this machine has GPIO pins (skipped, and said,
    where it has none), then the speaker."""
    findings = []
    if config.gpio.pin_factory == "mock":
        findings.append(Finding("pins", True, {"why": "mock"}))
    else:
        try:
            factory = pin_factory(config.gpio.pin_factory)
        except PinsError:  # not a Pi: nothing to test, and nothing wrong
            findings.append(Finding("pins", True, {"why": "none"}))
        else:
            tell = lambda text: print(text, flush=True)  # noqa: E731
            gpio = config.gpio
            findings += try_buttons(
                factory, gpio.pins, tell, lang, debounce=gpio.debounce, hold=gpio.hold
            )
    speech = config.speech
    voice = speech.voice if speech.lang == lang else None  # a configured voice speaks its own
    problems: list[str] = []
    speaker = Speaker(voice, speech.speed, speech.volume, lang, on_problem=problems.append)
    try:
        findings.append(try_speaker(speaker, lang, problems))
    finally:
        speaker.close()
    return findings


if __name__ == "__main__":
    raise SystemExit(main())
