"""`companion run --config FILE`: the companion at a real table.

One process owns the camera, the GPIO pins, the store and the web page: frames are read at
the configured rate, recognised only when something moved, and fed through the tracker to
the table as commands; the buttons and the page send theirs to the same table, its one
writer (`companion.table.Table`), which hands them to the game one at a time. A
configuration or a camera at fault is one clear message and exit status 2 (systemd then
shows it in `journalctl -u caboose-companion`), never a traceback.

Killing the process at any moment loses no accepted action (the store journals each one
before anyone is told); restarted, it resumes the same game, and the session checks the
table again before the next CONFIRM.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from gpiozero import Factory

from companion.app.check import check_camera, save
from companion.app.config import Config, ConfigError, load
from companion.app.service import FrameLoop, log
from companion.app.speech import TableVoice
from companion.games import default, games
from companion.games.protocol import Camera, CameraSetup, Game, Refusal, Setting, Watcher
from companion.store import Store
from companion.table import Table
from companion.vision.setup_check import Report
from companion.vision.table import TableLayout
from hw.controls import CONFIRM, PASS, UNDO, Controls, PinsError, pin_factory
from hw.frames import FrameSource, FrameSourceError, open_source
from hw.speaker import Speaker
from web.app import Settings, create_app, new_pin
from web.board_teach import BoxFolder
from web.camera import Sights
from web.serve import MAX_STREAMS, say_where, serve_in_background
from web.setup import Presses, SaveError, SetupTools


class Service(FrameLoop):
    """The frame loop at a real table and everything it drives, built from a configuration:
    the store, the table, the buttons and the camera."""

    def __init__(self, config: Config, source: FrameSource, pins: Factory) -> None:
        self.config = config
        self.source = source
        self.store = Store(config.store)
        self.presses = button_presses()  # what the setup page shows of the buttons
        self.controls = Controls(
            self.press,
            config.gpio.pins,
            debounce=config.gpio.debounce,
            hold=config.gpio.hold,
            pin_factory=pins,
        )
        # A real table's deck is shuffled by hand: the deal is fixed from what it shows.
        setting = Setting(
            provisional=True,
            camera=default_camera().follow(asdict(config.session)),
            outputs=self.controls,
            catalogue=config.table.catalogue,
        )
        try:
            super().__init__(Table(self.store, setting), _watchers(config))
        except BaseException:  # a deck or a store it cannot use: let go of pins and file
            self.controls.close()
            self.store.close()
            raise
        self.voice = _voice(config)
        if self.voice is not None:
            self.voice.follow(self.table)

    def press(self, button: str) -> None:
        """A button, as a command to the table like the page's; a refusal is the game's to
        show (the LED, the page), and is logged."""
        self.presses.record(button)
        try:
            self.table.handle(self.table.game.button(button))
        except Refusal as refusal:
            log.info("%s: %s", button, refusal.message)

    def close(self) -> None:
        if self.voice is not None:
            self.voice.close()
        self.controls.close()
        self.source.close()
        self.store.close()


class Configured:
    """The setup page's check and save at a real table: the check against the
    configuration as last saved (the page's Save button, `companion check --save`'s
    `save`, comments kept), the camera given by the running service."""

    def __init__(self, config: Config, path: Path) -> None:
        self.config = config
        self.path = path

    def check(self, frame: Any, game: Game) -> Report:
        return check_camera(frame, self.config, game)

    def save(self, report: Report) -> str:
        """Write `report`'s measures into the file; its path. Raises SaveError (the
        file then as it was) with what is wrong."""
        try:
            save(self.path, report, None)
            self.config = load(self.path)
        except (ConfigError, OSError) as error:
            raise SaveError(str(error)) from error
        return str(self.path)


def button_presses() -> Presses:
    """The presses of PASS and CONFIRM (held, UNDO: still CONFIRM) for the setup page."""
    return Presses((PASS, CONFIRM), {UNDO: CONFIRM})


def setup_tools(service: Service, path: Path) -> SetupTools:
    """What the setup page tries and saves at this table: the service's own pins, voice
    and configuration file."""
    configured = Configured(service.config, path)
    pins, table = service.config.gpio.pins, service.config.table
    return SetupTools(
        check=configured.check,
        save=configured.save,
        controls=service.controls,
        speaker=service.voice.speaker if service.voice is not None else None,
        presses=service.presses,
        pins={"led": pins["led"], "buzzer": pins["buzzer"]},
        box=BoxFolder(
            table.catalogue, TableLayout(table.width, table.height, table.marker_mm, table.inset_mm)
        ),
    )


def _voice(config: Config) -> TableVoice | None:
    """The table's voice when the configuration turns it on: it says what changes from
    now on (a resumed game is not told again); espeak-ng missing or failing is one line in
    the log, and the service goes on silent."""
    speech = config.speech
    if not speech.on:
        return None
    speaker = Speaker(speech.voice, speech.speed, speech.volume, speech.lang)
    return TableVoice(speaker, speech.lang)


def default_camera() -> Camera:
    """The default game's camera tool: `companion run` follows the table with it until a
    game says which it is (the default game, the Caboose design, has one)."""
    camera = default().camera
    assert camera is not None, "the default game has a camera"
    return camera


def _watchers(config: Config) -> Callable[[Game], Watcher | None]:
    """The camera over the configured table, for each game played at it, all made now: the
    default game's looking for the pieces of the configured edition until a game says
    which (the game's hint, every frame); another game's looking for its first option's
    pieces, or for its box taught into the enrolled folder (each game's camera reads what
    the folder holds of its own pieces, and its printed ones when it holds none); None (the
    page referees it, and the log says so) if the camera does not follow that game. A
    folder that is not one, or what it teaches a game and cannot be read, stops the
    service before it starts, naming the game; one still empty (the setup page teaches a
    box into it) is only logged."""
    table, tracker = config.table, config.tracker
    if table.catalogue is not None and not table.catalogue.is_dir():
        raise ConfigError(f"table.catalogue: {table.catalogue} is no folder: give the folder "
                          "`companion enroll` wrote the box into, or teach it there")  # fmt: skip
    if table.catalogue is not None and not any(table.catalogue.iterdir()):
        log.warning("table.catalogue: %s is empty: every game reads its printed pieces until "
                    "a box is taught into it (the setup page, or companion enroll)",
                    table.catalogue)  # fmt: skip
    setup = CameraSetup(
        layout=TableLayout(table.width, table.height, table.marker_mm, table.inset_mm),
        frame_size=config.camera.frame_size,
        catalogue=table.catalogue,
        still_frames=tracker.still_frames,
        card_mm=tracker.card_mm,
        die_mm=tracker.die_mm,
        zone=table.zone,
    )
    made: dict[str, Watcher | None] = {}
    for game in games().values():
        if game.camera is None:
            log.warning("camera: %s is refereed from the page alone", game.name)
            made[game.id] = None
            continue
        option = table.edition if game.id == default().id else game.options[0].id
        try:
            made[game.id] = game.camera.watcher(setup, option)
        except ValueError as error:  # what the enrolled folder teaches it cannot be read
            raise ConfigError(f"table.catalogue: {game.name}: {error}") from error
    return lambda played: made.get(played.id)


def serve_page(
    table: Table,
    host: str,
    port: int,
    pin: str | None,
    sights: Sights | None = None,
    tools: SetupTools | None = None,
) -> str:
    """The web page of the table, served from a daemon thread (the camera loop keeps the
    main one); returns the PIN. Raises `ServeError`. A camera follows the table, so every
    view carries the turn in progress (`session`: phase, what to do now, the problem, the
    camera's check of the computed move, a question about an unsure card, what the camera
    could not see), `GET /api/session` gives it alone, and `POST /api/session/answer`
    answers the question (the table's PIN needed, as for every POST). `sights`: the
    camera's latest frame, for the PIN holder's camera view (`GET /api/camera.jpg`);
    `tools`: what its setup page checks, tries and saves (`web.setup`)."""
    chosen = pin or new_pin()
    app = create_app(table, chosen, Settings(max_streams=MAX_STREAMS), sights, tools)
    serve_in_background(app, host, port)
    return chosen


def main(path: Path, frames: int | None = None, serve: bool = True) -> int:
    """Run the service from a configuration file; 2 with a message if it cannot start."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        config = load(path)
        pins = pin_factory(config.gpio.pin_factory)
    except (ConfigError, PinsError) as error:
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    try:
        source = open_source(config.camera.source, default_camera().scene)
    except FrameSourceError as error:
        print(f"companion run: camera: {error}", file=sys.stderr)
        return 2
    try:
        service = Service(config, source, pins)
    except (ConfigError, OSError) as error:
        source.close()
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    if service.store.restored is not None:  # a damaged store: said before anything else
        print(f"companion run: {service.store.restored}", file=sys.stderr)
    stop = service.stop
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if serve:
        try:
            web = config.web
            tools = setup_tools(service, path)
            pin = serve_page(service.table, web.host, web.port, web.pin, service.sight, tools)
        except OSError as error:
            service.close()
            print(f"companion run: {error}", file=sys.stderr)
            return 2
        opening = f'set host = "0.0.0.0" in the [web] section of {path}'
        say_where("Caboose Companion: ", config.web.host, config.web.port, opening)
        print(f"table PIN: {pin}")
        sys.stdout.flush()
    try:
        service.run(source, 1.0 / config.camera.fps, frames)
    finally:
        stop.set()
        service.close()
    return 0
