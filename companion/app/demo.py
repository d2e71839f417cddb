"""`companion demo`: scripted players play a whole game on the synthetic table.

Nothing is short-circuited: the game's players (its `demo`, companion/games/protocol.py)
choose every move and lay it on the synthetic table; what the camera sees of it is rendered
(companion.synthetic) and goes through the frame loop of `companion run` (the game's real
recognition, tracker and turn flow); the buttons are pressed on gpiozero's mock pins
through hw.controls, debounce included; every accepted action is journaled by the real
table and store; and, unless `--headless`, the real web page serves the game live.

This module is the driver every game's demo shares: the store, the table, the page, the
buttons, the camera's frames and the progress (`--progress`: each accepted turn on stderr).
The players know the truth of their game; they say at the end whether the companion saw
every turn right and whether its game is the true one. With `--store` a killed demo resumes
its game where the store left it (the table resumes the store's game), and a finished one
prints its result again: that is how the kill test checks that no accepted action is ever
lost.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from companion import games, synthetic
from companion.app.run import button_presses, serve_page
from companion.app.service import FrameLoop, log
from companion.app.speech import TableVoice
from companion.games.protocol import Camera, CameraSetup, Demo, DemoError, Game, Refusal, Setting
from companion.hardware import GPIO_PINS
from companion.store import Store
from companion.table import Table
from companion.vision.setup_check import check_setup
from companion.vision.table import TableLayout
from hw.controls import Controls, pin_factory
from hw.frames import FrameSource
from hw.speaker import Speaker
from web.serve import say_where
from web.setup import SetupTools

# A safety net, not a deadline: a press waits for the controls and the table to take it,
# however slowly; only a press not taken after this long means something is broken.
PRESS_TIMEOUT = 120.0
SPEECH_DRAIN = 600.0  # seconds the demo waits, once over, for its last phrases to be written
LOOKS = 4  # pictures of one still scene, each a little different, before the demo gives up


@dataclass(frozen=True)
class Filming:
    """How the demo films its table and presses its buttons. Small frames and an easy
    camera keep a whole game quick; `still_frames` frames of a scene make it still; `delay`
    paces the frames for a person watching the page."""

    camera: str = "easy"  # companion.synthetic.Camera.preset
    frame_size: tuple[int, int] = (960, 720)
    still_frames: int = 2
    delay: float = 0.0
    debounce: float = 0.02
    hold: float = 2.0


def _camera(game: Game) -> Camera:
    """The camera of a game that offers a demo: its demo is filmed."""
    assert game.camera is not None, f"{game.name}'s demo is filmed: it has a camera"
    return game.camera


class SyntheticTable(FrameLoop):
    """The synthetic table the players play at (their `hands`): its camera, whose frames go
    through the frame loop of `companion run`, its buttons on mock pins, and the table they
    report to. Made over `store`, it sits the players at it (`Demo.sit`)."""

    def __init__(
        self, game: Game, demo: Demo, store: Store, filming: Filming = Filming(), log: Any = None
    ) -> None:
        self.demo = demo
        self.filming = filming
        self.log = log
        self.pins = pin_factory("mock")
        self.presses = button_presses()  # what the setup page shows of the buttons
        self._presses = threading.Condition()
        self.presses_taken = 0  # button presses the table has dealt with (taken or refused)
        self.controls = Controls(
            self._on_button,
            GPIO_PINS,
            debounce=filming.debounce,
            hold=filming.hold,
            pin_factory=self.pins,
        )
        # The players shuffle the deck by hand: the companion plays on a provisional deal.
        setting = Setting(
            provisional=True, camera=_camera(game).follow(demo.follows), outputs=self.controls
        )
        table = Table(store, setting)
        setup = CameraSetup(TableLayout(), filming.frame_size, still_frames=filming.still_frames)
        try:
            watcher = demo.sit(table, setup)
        except BaseException:
            self.controls.close()
            raise
        # the demo's game is the only one played at its table
        super().__init__(table, lambda game: watcher)
        self.camera_setup = setup
        self.camera = replace(
            synthetic.Camera.preset(filming.camera), frame_size=filming.frame_size
        )
        self.camera_seed = random.Random(demo.seed).randrange(10**6)
        self.showing: tuple[Any, int] | None = None  # the scene under the camera
        self.rendered = 0  # pictures drawn (a scene already shown is not drawn again)

    def close(self) -> None:
        self.controls.close()

    def setup_tools(self, speaker: Speaker | None) -> SetupTools:
        """What the demo's setup page checks and tries: the synthetic camera as set up,
        the mock pins, the demo's voice if it speaks; nothing to save (no configuration
        file)."""
        setup = self.camera_setup

        def check(frame: Any, game: Game) -> Any:
            return check_setup(frame, setup, game, game.options[0].id)

        pins = {"led": GPIO_PINS["led"], "buzzer": GPIO_PINS["buzzer"]}
        return SetupTools(check, self.presses, None, self.controls, speaker, pins)

    # --- the camera ----------------------------------------------------------------------

    def look(self, scene: Any, attempt: int = 0, frames: int | None = None) -> None:
        """Show the camera a scene (anything whose `drawn()` is a companion.synthetic.Scene)
        for `frames` frames (default: long enough to be still); the same frame repeated is
        not recognised again, as on a real camera. A scene the camera already shows is not
        rendered again: nothing on the table moved."""
        frame = None
        if (scene, attempt) != self.showing:
            frame = synthetic.render(scene.drawn(), self.camera_seed + attempt, self.camera)
            self.showing = (scene, attempt)
            self.rendered += 1
        self.run(_Still(frame), self.filming.delay, frames or self.filming.still_frames)

    def step(self, frame: np.ndarray | None) -> list[object]:
        """One frame through the service's loop; then the players answer what the companion
        asked, as players at the table would."""
        commands = super().step(frame)
        self.demo.answer()
        return commands

    def look_until(self, scene: Any, done: Callable[[], bool]) -> bool:
        """Show a still scene until `done()`; a camera that stays stuck on one frame is
        given a slightly different one (as a real sensor's noise would). Whether it was."""
        for attempt in range(LOOKS):
            self.look(scene, attempt)
            if done():
                return True
        return False

    # --- the buttons ---------------------------------------------------------------------

    def _on_button(self, button: str) -> None:
        """The table takes the press; then whoever pressed is told it was dealt with."""
        self.presses.record(button)
        try:
            self.table.handle(self.table.game.button(button))
        except Refusal as refusal:
            log.info("%s: %s", button, refusal.message)
        finally:
            with self._presses:
                self.presses_taken += 1
                self._presses.notify_all()

    def press(self, button: str, done: Callable[[], bool]) -> bool:
        """Press a button on its mock pin until the controls count it as down, release it,
        and wait until the table has dealt with the press; then whether `done()`. Each
        step waits for what it needs, not for a time: the debounce runs on timer threads,
        late on a busy machine, and a slow machine makes the demo slower, never wrong.
        Only a step that has not happened after PRESS_TIMEOUT seconds stops the demo."""
        device = self.controls.pass_button if button == "pass" else self.controls.confirm_button
        pin = self.pins.pin(GPIO_PINS[button])
        with self._presses:
            taken = self.presses_taken
        pin.drive_low()
        down = device.wait_until(True, PRESS_TIMEOUT)
        pin.drive_high()
        if not down:
            raise DemoError(f"{button.upper()} was held {PRESS_TIMEOUT:.0f} s, never seen down")
        with self._presses:
            if not self._presses.wait_for(lambda: self.presses_taken > taken, PRESS_TIMEOUT):
                raise DemoError(
                    f"{button.upper()} was released but not reported within "
                    f"{PRESS_TIMEOUT:.0f} s: the controls' debounce timers did not run"
                )
        return done()

    # --- the progress --------------------------------------------------------------------

    def announce(self, turns: int) -> None:
        """Say that a turn was accepted: only now may anyone rely on it (the kill test)."""
        if self.log is not None:
            print(f"accepted turn {turns + 1}", file=self.log, flush=True)


class _Still(FrameSource):
    """The camera over a table where nothing moves: the frame shown, then the same picture
    again (None: not recognised again, as on a real camera)."""

    def __init__(self, frame: np.ndarray | None) -> None:
        self.frame = frame

    def read(self) -> np.ndarray | None:
        frame, self.frame = self.frame, None
        return frame


def run_demo(
    demo: Demo,
    store: Path | None = None,
    log: Any = None,
    serve: Callable[[FrameLoop], None] | None = None,
    filming: Filming = Filming(),
    game: Game | None = None,
) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """Play (or resume) one demo game of `game` (None: the default game): its result (as
    `companion replay --json` prints it, plus how the camera did) and its record.
    `serve(loop)` starts the page (and what else follows the game) on the frame loop's
    table, its camera's latest frame for the PIN holder's camera view. A store whose demo
    is already over only reports how it ended."""
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as folder:
        kept = Store(store or Path(folder) / "demo.sqlite3")
        try:
            numbers = kept.games()
            if kept.current() is None and numbers:
                return demo.finished(kept, numbers[-1][0])
            hands = SyntheticTable(game or games.default(), demo, kept, filming, log)
            try:
                if serve is not None:
                    serve(hands)
                return demo.play(hands), hands.table.record()[2]
            finally:
                hands.close()
        finally:
            kept.close()


def _serve(
    host: str, port: int, pin: str | None, out: TextIO, speaker: Speaker | None = None
) -> Callable[[FrameLoop], None]:
    """Start the page (its setup page tries the demo's mock pins and `speaker`); where to
    watch it is said on `out`."""

    def start(loop: FrameLoop) -> None:
        tools = loop.setup_tools(speaker) if isinstance(loop, SyntheticTable) else None
        chosen = serve_page(loop.table, host, port, pin, loop.sight, tools)
        opening = 'add --host 0.0.0.0 (make demo DEMO_ARGS="--host 0.0.0.0")'
        say_where("Caboose Companion demo: ", host, port, opening, out)
        print(f"table PIN: {chosen}", file=out)
        out.flush()

    return start


def _voice(args: argparse.Namespace) -> TableVoice | None:
    """The demo's voice (`--speak`, `--speak-to DIR`: its phrases as WAV files), saying
    the whole game from its first view; None when the demo is silent."""
    if not (args.speak or args.speak_to is not None):
        return None
    speaker = Speaker(
        lang=args.speak_lang,
        out_dir=args.speak_to,
        on_problem=lambda message: print(message, file=sys.stderr, flush=True),
    )
    return TableVoice(speaker, args.speak_lang, news=True)


def _also(
    first: Callable[[FrameLoop], None] | None, then: Callable[[Table], None]
) -> Callable[[FrameLoop], None]:
    """Both things to start on the demo's table (the page, the voice)."""

    def start(loop: FrameLoop) -> None:
        if first is not None:
            first(loop)
        then(loop.table)

    return start


def _store_refusal(path: Path, demo: Demo) -> str | None:
    """Why the demo cannot play its game in the store at `path` (the game's players say),
    or None if it can. Raises StoreError (an OSError) for a file that is no store at all."""
    kept = Store(path)
    try:
        return demo.refusal(kept)
    finally:
        kept.close()


def _save(record: Mapping[str, Any], path: Path) -> None:
    """A record as `companion replay` reads it (one JSON document, as every record is)."""
    path.write_text(json.dumps(record, indent=1) + "\n")


# More turns than any record holds: a record watched to its end.
EVERY_TURN = 1_000_000


def terminal_lines(game: Game, record: Mapping[str, Any]) -> list[str]:
    """The game's turns as the page's log says them in English (`Game.watch` of its record
    to the end), oldest first: the terminal and the page name the same turn by the same
    number, cards and spaces in words, where the record's own notation (`doc["log"]`,
    what `companion replay` prints) keeps its codes and counts."""
    frame = game.watch(record, EVERY_TURN, "en")
    turns = [entry["text"] for entry in reversed(frame["log"])]
    return turns + ranking_lines(frame["ranking"]) if frame["over"] else turns


# What a ranking row's figures are called, as the games' views name them.
FIGURES = (("score", "score"), ("depot", "trains in the depot"))


def ranking_lines(ranking: Mapping[str, Any] | list[Mapping[str, Any]]) -> list[str]:
    """A finished game's ranking as the terminal says it, each row's place, name and
    figures, then who won: every game's demo ends with it (a view's `ranking`: its rows,
    alone or beside `winners`)."""
    rows = ranking["rows"] if isinstance(ranking, Mapping) else ranking
    lines = ["", "ranking:"]
    for row in rows:
        figures = ", ".join(f"{label} {row[key]}" for key, label in FIGURES if key in row)
        lines.append(f"  {row['place']}. {row['name']}: {figures}")
    if isinstance(ranking, Mapping):
        winners = list(ranking["winners"])
    else:
        winners = [row["name"] for row in rows if row["place"] == 1]
    lines.append(("winner: " if len(winners) == 1 else "winners: ") + ", ".join(winners))
    return lines


def main(args: argparse.Namespace) -> int:
    """`companion demo`; exit 0 when the game was played to its end, 2 when it could not."""
    delay = args.delay if args.delay is not None else (0.0 if args.headless else 0.4)
    filming = Filming(camera=args.camera, delay=delay)
    played = games.game(args.game)
    try:
        demo = played.demo(args)
    except DemoError as error:
        print(f"demo stopped: {error}", file=sys.stderr)
        return 2
    if args.store is not None:
        try:
            refusal = _store_refusal(args.store, demo)
        except OSError as error:  # StoreError: a folder, another program's file
            refusal = str(error)
        if refusal is not None:
            print(f"companion demo: --store: {refusal}", file=sys.stderr)
            return 2
    # With --json, stdout holds the one JSON object alone; what a person reads goes to stderr.
    said = sys.stderr if args.json else sys.stdout
    try:
        voice = _voice(args)
    except OSError as error:  # --speak-to names a file, or a folder that cannot be made
        print(
            f"companion demo: --speak-to: cannot write WAV files in {args.speak_to} "
            f"({error.strerror or error}): give a folder that can be written",
            file=sys.stderr,
        )
        return 2
    speaker = voice.speaker if voice is not None else None
    serve = None if args.headless else _serve(args.host, args.port, args.pin, said, speaker)
    if voice is not None:
        serve = _also(serve, voice.follow)
    progress = sys.stderr if args.progress else None
    try:
        doc, record = run_demo(demo, args.store, progress, serve, filming, played)
    except DemoError as error:
        print(f"demo stopped: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the page's port is taken, the store cannot be written
        print(f"companion demo: {error}", file=sys.stderr)
        return 2
    finally:
        if voice is not None:
            voice.close(SPEECH_DRAIN)
    if voice is not None and args.speak_to is not None:
        written = voice.speaker.written
        print(f"speech: {written} phrases written to {args.speak_to}", file=sys.stderr)
    if args.record is not None:
        try:
            _save(record, args.record)
        except OSError as error:  # checked at the start, but its folder may since have gone
            print(
                f"companion demo: cannot write the record {args.record} "
                f"({error.strerror or error}): its folder went while the game was played",
                file=sys.stderr,
            )
            return 2
    if args.json:
        print(json.dumps(doc))
    else:
        for line in terminal_lines(played, record):
            print(line)
        print(f"camera matched every turn: {doc['camera_matched_every_turn']}")
        print(f"the companion's game is the players' true game: {doc['truth_matched']}")
    sys.stdout.flush()  # the result is read now, not when the page is stopped
    if not args.headless:
        # Ctrl-C may come as soon as the line is read, before print has returned: it is
        # inside the block that ends the demo cleanly on it
        with contextlib.suppress(KeyboardInterrupt):
            print("the game is over; the page stays up until Ctrl-C", file=said, flush=True)
            threading.Event().wait()
    return 0
