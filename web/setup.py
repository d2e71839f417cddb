"""Setting up the table from the PIN holder's phone: what `companion check` says about the
camera's latest frame, beside the camera's picture (web/camera.py draws it), and the
table's own buttons, LED, buzzer, speaker and configuration file, tried from the page.

- `GET /api/setup` (the PIN needed, never cached): the findings of the frame loop's latest
  frame (`companion.vision.setup_check`, the same words as `companion check`), how often
  each button was pressed and how long ago, and what the page can try. A check is made
  only when a page asks, at most once a second whatever the number of phones asking
  (each frame is checked once; a newer frame within the second waits for the next ask).
- `POST /api/setup/led`, `/buzzer`, `/speaker`: the service's own outputs (the pins the
  service holds, its voice), never opened a second time; a table without them says so.
- `POST /api/setup/save`: what the check measured (the frame's size, the table's size)
  written into the service's configuration file, comments kept (companion/app/check.py's
  `save`, handed in by the application: the page never imports it).

The presses come from the service's own controls: the service tells `Presses` of each one
(the button's pins are held by `hw.controls.Controls`; opening them again would fail on a
Pi), and the page polls.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion import games
from companion.games.protocol import Game
from companion.vision.setup_check import Finding, Report
from companion.vision.setup_words import word
from web.api import ApiError, _fields, data, language, table
from web.board_teach import BoxFolder
from web.camera import Pictures
from web.words import setup_said

setup = Blueprint("setup", __name__, url_prefix="/api")

CHECK_EVERY = 1.0  # seconds: the check of a frame is heavier than its picture
# Findings whose fix `companion check` words for its command line (`--save`): the page's
# own Save button does it here.
SAVED_BY_BUTTON = {"frame_size", "table_size"}


class SaveError(Exception):
    """The configuration could not be written; the message says why (the file is as it was)."""


class Presses:
    """The table's buttons as the service's controls report them (`buttons`, by the names
    the controls give them, in the order the page shows them; `aliases`, what else a
    button reports, such as CONFIRM held): how many presses of each, and when the last.
    Thread-safe: the controls' timer threads record, the page's threads read."""

    def __init__(self, buttons: tuple[str, ...], aliases: Mapping[str, str] | None = None) -> None:
        self._buttons = buttons
        self._aliases = dict(aliases or {})
        self._lock = threading.Lock()
        self._count = dict.fromkeys(buttons, 0)
        self._last: dict[str, float] = {}

    def record(self, button: str) -> None:
        pressed = self._aliases.get(button, button)
        if pressed not in self._count:
            return
        with self._lock:
            self._count[pressed] += 1
            self._last[pressed] = time.monotonic()

    def as_json(self) -> list[dict[str, Any]]:
        """Each button, in order, with its presses so far and how many seconds ago the
        last (None: never)."""
        now = time.monotonic()
        with self._lock:
            return [
                {
                    "button": button,
                    "presses": self._count[button],
                    "ago": None if button not in self._last else round(now - self._last[button], 1),
                }
                for button in self._buttons
            ]


@dataclass
class SetupTools:
    """What the application hands the page to set the table up with: `check` the setup
    check of a frame for a game (with the table's configured camera), `save` writing a
    report into the configuration file (None: the service has none, as in the demo; it
    returns the file's path, raises SaveError), the service's own `controls` (None: no
    pins) and `speaker` (None: the table's voice is off), and the `presses` its controls
    report."""

    check: Callable[[Any, Game], Report]
    presses: Presses
    save: Callable[[Report], str] | None = None
    controls: Any = None  # hw.controls.Controls
    speaker: Any = None  # hw.speaker.Speaker
    pins: dict[str, int] = field(default_factory=dict)  # the LED's and buzzer's, said
    box: BoxFolder | None = None  # where a board taught on the page is written (board_teach)


class Checks:
    """The last report and when it was made, shared by every phone asking."""

    def __init__(self, tools: SetupTools | None, pictures: Pictures) -> None:
        self.tools = tools
        self.pictures = pictures
        self._lock = threading.Lock()
        self._kept: tuple[tuple[int, str], float, Report] | None = None

    def report(self, game: Game | None = None) -> tuple[str, Report | None]:
        """("none", None) without a camera, ("waiting", None) before its first frame, else
        ("seen", the report of the latest frame, or of one at most a second older), for
        `game`'s play area (None: the game at the table)."""
        sights = self.pictures.sights
        if self.tools is None or sights is None:
            return "none", None
        sight = sights()
        if sight is None:
            return "waiting", None
        game = game or table().game or games.default()
        shows = (sight.number, game.id)
        with self._lock:  # one check at a time: a second phone waits for it and shares it
            kept = self._kept
            fresh = kept is not None and time.monotonic() - kept[1] < CHECK_EVERY
            if kept is not None and (kept[0] == shows or (fresh and kept[0][1] == game.id)):
                return "seen", kept[2]
            made = self.tools.check(sight.frame, game)
            self._kept = (shows, time.monotonic(), made)
        return "seen", made


def _finding(finding: Finding, lang: str) -> dict[str, Any]:
    said = finding.as_json(lang)
    if not finding.ok and finding.key in SAVED_BY_BUTTON:
        said["fix"] = setup_said(lang, "setup_save_fix" if _tools().save else "setup_no_file")
    return said


def _chosen() -> Game | None:
    """The game `?game=` names (None when not given); 400 naming the games for another."""
    wanted = request.args.get("game")
    if wanted is None:
        return None
    try:
        return games.game(wanted)
    except KeyError as error:
        raise ApiError(400, "request", error.args[0], fields=["game"]) from None


def _tools() -> SetupTools:
    tools: SetupTools | None = current_app.extensions["caboose.setup"].tools
    if tools is None:
        raise ApiError(404, "setup", "no camera watches this table", key="setup_none")
    return tools


@setup.get("/setup")
def findings() -> ResponseReturnValue:
    """What the camera's latest frame shows (the PIN needed, never cached) for the play
    area of `?game=` (the start form's choice between games; the game at the table when
    not given), the buttons' presses, and what this table can try and save."""
    lang = language()
    checks: Checks = current_app.extensions["caboose.setup"]
    camera, report = checks.report(_chosen())
    tools = checks.tools
    answer: dict[str, Any] = {"camera": camera, "report": None}
    if report is not None:
        first = report.first_fix
        answer["report"] = {
            **report.as_json(lang),
            "findings": [_finding(finding, lang) for finding in report.findings],
            "first_fix": None if first is None else _finding(first, lang),
        }
    answer["buttons"] = None if tools is None or tools.controls is None else tools.presses.as_json()
    answer["speaker"] = tools is not None and tools.speaker is not None
    answer["save"] = tools is not None and tools.save is not None
    return jsonify(answer)


def _controls() -> Any:
    """The service's own controls; the request takes no field."""
    _fields(data(), ())
    controls = _tools().controls
    if controls is None:
        raise ApiError(409, "setup", "the table has no buttons, LED or buzzer", key="setup_no_pins")
    return controls


@setup.post("/setup/led")
def led() -> ResponseReturnValue:
    """Blink the table's LED three times (then back to what it showed)."""
    _controls().flash()
    said = Finding("led", True, {"pin": _tools().pins.get("led")}).said(language())
    return jsonify({"said": said})


@setup.post("/setup/buzzer")
def buzzer() -> ResponseReturnValue:
    """Sound the table's buzzer twice."""
    _controls().chirp()
    said = Finding("buzzer", True, {"pin": _tools().pins.get("buzzer")}).said(language())
    return jsonify({"said": said})


@setup.post("/setup/speaker")
def speaker() -> ResponseReturnValue:
    """Have the table's voice say a sentence in the page's language."""
    _fields(data(), ())
    lang = language()
    voice = _tools().speaker
    if voice is None:
        raise ApiError(409, "setup", "the table's voice is off", key="setup_no_voice")
    if voice.silent:
        missing = Finding("speaker", False)
        said = f"{missing.said(lang)} {missing.fix(lang)}"
        raise ApiError(409, "setup", "espeak-ng is missing", key="setup_mute", said=said)
    sentence = word("sentence", lang)
    voice.say(sentence)
    return jsonify({"said": Finding("speaker", True, {"sentence": sentence}).said(lang)})


@setup.post("/setup/save")
def save() -> ResponseReturnValue:
    """Write what the latest frame measured into the service's configuration file."""
    _fields(data(), ())
    lang = language()
    tools = _tools()
    if tools.save is None:
        raise ApiError(409, "setup", "no configuration file to save to", key="setup_no_file")
    report = current_app.extensions["caboose.setup"].report()[1]
    if report is None or report.frame_size is None:
        raise ApiError(409, "setup", "no picture to measure yet", key="setup_no_picture")
    try:
        path = tools.save(report)
    except SaveError as error:
        problem = {"problem": str(error)}
        raise ApiError(
            409, "setup", f"not saved: {error}", key="setup_not_saved", params=problem
        ) from error
    said = f"{word('saved', lang, path=path)} {setup_said(lang, 'setup_restart')}"
    return jsonify({"said": said})
