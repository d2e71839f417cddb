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
from pathlib import Path

import numpy as np
from gpiozero import Factory

from companion.app.config import Config, ConfigError, load
from companion.app.service import FrameLoop, log
from companion.games import default
from companion.games.caboose.camera import Camera
from companion.games.caboose.match import Match
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.session import SessionConfig
from companion.games.caboose.tracker import Tracker, TrackerConfig
from companion.games.caboose.vision.catalogue import CatalogueError
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.protocol import Refusal, Setting
from companion.store import Store
from companion.table import Table
from companion.vision.table import TableLayout
from hw.controls import Controls, PinsError, pin_factory
from hw.frames import FrameSource, FrameSourceError, open_source
from web.app import Settings, create_app, new_pin
from web.serve import MAX_STREAMS, serve_in_background


class Service(FrameLoop):
    """The frame loop at a real table and everything it drives, built from a configuration:
    the store, the table, the buttons and the camera."""

    def __init__(self, config: Config, source: FrameSource, pins: Factory) -> None:
        self.config = config
        self.source = source
        self.store = Store(config.store)
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
            camera=SessionConfig(
                unsure_below=config.session.unsure_below,
                pip_wheels=config.session.pip_wheels,
                dice_per_roll=config.session.dice_per_roll,
            ),
            outputs=self.controls,
        )
        table = Table(self.store, setting)
        self.edition = _edition(table) or config.table.edition
        super().__init__(self._watcher(), table)

    def press(self, button: str) -> None:
        """A button, as a command to the table like the page's; a refusal is the game's to
        show (the LED, the page), and is logged."""
        try:
            self.table.handle(self.table.game.button(button))
        except Refusal as refusal:
            log.info("%s: %s", button, refusal.message)

    def _watcher(self) -> Camera:
        """Recognition for the card size of `edition` (the game at the table's, or the
        configured one before the first game)."""
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
        return Camera(vision, Tracker(settings))

    def step(self, frame: np.ndarray | None) -> list[object]:
        """One frame from the camera, recognised for the card size of the game at the
        table: a game of another edition may need another watcher."""
        edition = _edition(self.table)
        if edition is not None and edition != self.edition:
            changed = load_edition(edition).card_mm != load_edition(self.edition).card_mm
            self.edition = edition
            if changed:
                self.watcher = self._watcher()
        return super().step(frame)

    def close(self) -> None:
        self.controls.close()
        self.source.close()
        self.store.close()


def _edition(table: Table) -> str | None:
    """The edition of the Caboose game at the table, if one is being played."""
    match = table.match
    return match.ledger.game.record.edition if isinstance(match, Match) else None


def serve_page(table: Table, host: str, port: int, pin: str | None) -> str:
    """The web page of the table, served from a daemon thread (the camera loop keeps the
    main one); returns the PIN. Raises `ServeError`. A camera follows the table, so every
    view carries the turn in progress (`session`: phase, what to do now, the problem, the
    camera's check of the computed move, a question about an unsure card, what the camera
    could not see), `GET /api/session` gives it alone, and `POST /api/session/answer`
    answers the question (the table's PIN needed, as for every POST)."""
    chosen = pin or new_pin()
    app = create_app(table, chosen, Settings(max_streams=MAX_STREAMS))
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
            pin = serve_page(service.table, web.host, web.port, web.pin)
        except OSError as error:
            service.close()
            print(f"companion run: {error}", file=sys.stderr)
            return 2
        shown = "this Pi's address" if config.web.host in ("0.0.0.0", "::") else config.web.host
        print(f"Caboose Companion: open http://{shown}:{config.web.port}/  (table PIN {pin})")
        sys.stdout.flush()
    try:
        service.run(source, 1.0 / config.camera.fps, frames)
    finally:
        stop.set()
        service.close()
    return 0
