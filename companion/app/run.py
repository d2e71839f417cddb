"""`companion run --config FILE`: the companion at a real table.

One process owns the camera, the GPIO pins, the store and the web page: frames are read at
the configured rate, recognised only when something moved, and fed through the tracker to
the session; the buttons speak to the same session; the page acts on the same table. A
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
import threading
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero import Factory

from companion.app.config import Config, ConfigError, load
from companion.app.service import FrameLoop
from companion.games import default
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.session import Session, SessionConfig
from companion.games.caboose.table import Table
from companion.games.caboose.tracker import TableEvent, Tracker, TrackerConfig, Watcher
from companion.games.caboose.vision.catalogue import CatalogueError
from companion.games.caboose.vision.observe import VisionConfig
from companion.store import Store
from companion.vision.table import TableLayout
from hw.controls import Controls, PinsError, pin_factory
from hw.frames import FrameSource, FrameSourceError, open_source
from web.app import Settings, create_app, new_pin
from web.serve import MAX_STREAMS, serve_in_background


class Service(FrameLoop):
    """The frame loop at a real table and everything it drives, built from a configuration:
    the store, the table, the session, the buttons and the camera."""

    def __init__(self, config: Config, source: FrameSource, pins: Factory) -> None:
        self.config = config
        self.source = source
        self.store = Store(config.store)
        # A real table's deck is shuffled by hand: the deal is fixed from what it shows.
        self.table = Table(self.store, provisional=True)
        self.session = Session(
            self.table,
            SessionConfig(
                unsure_below=config.session.unsure_below,
                pip_wheels=config.session.pip_wheels,
                dice_per_roll=config.session.dice_per_roll,
            ),
        )
        self.controls = Controls(
            self.session.on_button,
            config.gpio.pins,
            debounce=config.gpio.debounce,
            hold=config.gpio.hold,
            pin_factory=pins,
        )
        self.session.outputs = self.controls
        self.edition = ""
        super().__init__(self._watcher(), self.session)

    def _watcher(self) -> Watcher:
        """Recognition for the card size of the game at the table (or of the configured
        edition before the first game); a new edition gets a new watcher."""
        game = self.table.game
        self.edition = game.record.edition if game is not None else self.config.table.edition
        table = self.config.table
        try:
            vision = VisionConfig.for_edition(
                self.edition,
                table.catalogue,
                layout=TableLayout(table.width, table.height, table.marker_mm, table.inset_mm),
                frame_size=self.config.camera.frame_size,
            )
        except CatalogueError as error:
            raise ConfigError(f"table.catalogue: {error}") from error
        tracker = self.config.tracker
        settings = TrackerConfig(tracker.still_frames, tracker.card_mm, tracker.die_mm, table.zone)
        return Watcher(vision, Tracker(settings))

    def step(self, frame: np.ndarray | None) -> list[TableEvent]:
        """One frame from the camera, recognised for the card size of the game at the
        table: a game of another edition may need another watcher."""
        game = self.table.game
        if game is not None and game.record.edition != self.edition:
            if load_edition(game.record.edition).card_mm != load_edition(self.edition).card_mm:
                self.watcher = self._watcher()
            self.edition = game.record.edition
        return super().step(frame)

    def follow_page(self, stop: threading.Event) -> None:
        """Keep the session (and so the LED) with the table when the page acts on it. The
        session wakes the table in turn only when what it shows changed, so this settles."""
        version = self.table.version
        while not stop.is_set():
            version = self.table.wait(version, 1.0)
            self.session.on_events(())

    def close(self) -> None:
        self.controls.close()
        self.source.close()
        self.store.close()


def attach_session(app: Any, session: Session) -> None:
    """Put the turn in progress on the page (`web.api`): every view of the table carries
    `Session.status()` (phase, what to do now, the problem, the camera's check of the
    computed move, a question about an unsure card, what the camera could not see),
    `GET /api/session` gives it alone, and `POST /api/session/answer` with `{"code": …}`
    answers the question (the table's PIN needed, as for every POST). The session then
    wakes open pages through the table at each change; one touch now tells pages already
    open, and drops views kept without it."""
    app.extensions["caboose.session"] = session
    session.table.touch()


def serve_page(table: Table, session: Session, host: str, port: int, pin: str | None) -> str:
    """The web page of a table followed by a session, served from a daemon thread (the
    camera loop keeps the main one); returns the PIN. Raises `ServeError`."""
    chosen = pin or new_pin()
    app = create_app(table, chosen, Settings(max_streams=MAX_STREAMS))
    attach_session(app, session)
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
        source = open_source(config.camera.source, default().scene)
    except FrameSourceError as error:
        print(f"companion run: camera: {error}", file=sys.stderr)
        return 2
    try:
        service = Service(config, source, pins)
    except (ConfigError, OSError) as error:
        source.close()
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    stop = service.stop
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if serve:
        try:
            web = config.web
            pin = serve_page(service.table, service.session, web.host, web.port, web.pin)
        except OSError as error:
            service.close()
            print(f"companion run: {error}", file=sys.stderr)
            return 2
        shown = "this Pi's address" if config.web.host in ("0.0.0.0", "::") else config.web.host
        print(f"Caboose Companion: open http://{shown}:{config.web.port}/  (table PIN {pin})")
        sys.stdout.flush()
    threading.Thread(target=service.follow_page, args=(stop,), daemon=True).start()
    try:
        service.run(source, 1.0 / config.camera.fps, frames)
    finally:
        stop.set()
        service.close()
    return 0
