"""The frame loop that `companion run` and `companion demo` share: each camera frame goes
through the game's watcher, and the commands it brings go to the table, one frame at a time.

One loop for both, so the demo on the synthetic table tests the very path a real table
takes: what the camera could not see is told to the table on every frame, and the table
events of a still table become moves, all through the table's one writer
(`companion.table.Table.handle`), as the page's and the buttons' commands are. The
watcher is the game's (`Game.camera.watcher`): it looks for what the game's hint says, another
edition's cards included. Only what belongs to the demo is left to it: its players answer
the camera's questions with the truth and count how the camera did.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.games.protocol import Game, Refusal, Sight, Watcher
from companion.table import Table
from hw.frames import FrameSource

# The service's name in its journal (`journalctl -u caboose-companion`), as it always was.
log = logging.getLogger("companion.run")
# A source that gives this many frames in a row no more has run dry (a recording's end).
DRY_FRAMES = 50


class FrameLoop:
    """The table and the camera's watcher of the game played at it, stepped one camera
    frame at a time."""

    def __init__(self, table: Table, watcher_of: Callable[[Game], Watcher | None]) -> None:
        """`watcher_of` gives a game's watcher, asked once per game the first time a game of
        it is played; None for a game the camera does not follow (its frames are only
        counted: the page referees it)."""
        self.table = table
        self._watcher_of = watcher_of
        self._watchers: dict[str, Watcher | None] = {}
        self.frames = 0  # frames stepped, dropped ones included
        self.stop = threading.Event()  # set, it ends the loop after the frame in hand
        # the latest frame and what was read of it: replaced whole, one reference a frame
        # (no copy), so a page thread reading it meanwhile sees the old one or the new one
        self._sight: Sight | None = None

    def step(self, frame: Any) -> list[object]:
        """One frame (None: a dropped frame, the same picture as before), looked at for
        what the game tells the camera to look for (`Table.hint`); the commands it brings
        are handed to the table. A command the game refuses is logged: the camera's
        commands say what was seen, and the game answers on the page and the LED."""
        watcher = self.watcher()
        self.frames += 1
        if watcher is None:
            self._keep(frame, None)
            return []
        commands = list(watcher.see(frame, self.table.hint()))
        self._keep(frame, watcher)
        for command in commands:
            try:
                self.table.handle(command)
            except Refusal as refusal:
                log.info("camera: %s", refusal.message)
        return commands

    def sight(self) -> Sight | None:
        """The latest frame and what the watcher read of it (None before the first frame):
        what the page's camera view draws, in the page's thread, when a phone asks."""
        return self._sight

    def _keep(self, frame: Any, watcher: Watcher | None) -> None:
        """Keep `frame` (None, a dropped frame: the one kept stays) with the watcher's
        reading of it, when the game draws what it read (`Camera.draw`)."""
        if frame is None:
            return
        game = self.table.game
        draws = watcher is not None and game.camera is not None and game.camera.draw is not None
        reading = getattr(watcher, "reading", None) if draws else None
        self._sight = Sight(frame, reading, game.id, self.frames)

    def watcher(self) -> Watcher | None:
        """The watcher of the game being played (of the default game before any)."""
        game = self.table.game
        if game.id not in self._watchers:
            self._watchers[game.id] = self._watcher_of(game)
        return self._watchers[game.id]

    def run(self, source: FrameSource, period: float = 0.0, frames: int | None = None) -> None:
        """Step the frames `source` reads, one every `period` seconds at most, until `stop`
        is set (or until `frames` have been read); a source that runs dry (a recording)
        ends the loop."""
        read = dry = 0
        while not self.stop.is_set() and (frames is None or read < frames):
            started = time.monotonic()
            frame = source.read()
            read += 1
            dry = dry + 1 if frame is None else 0
            if dry > DRY_FRAMES:
                log.warning("the camera gives no more frames: stopping")
                return
            self.step(frame)
            self.stop.wait(max(0.0, period - (time.monotonic() - started)))
