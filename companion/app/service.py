"""The frame loop that `companion run` and `companion demo` share: the camera's frames go
through the watcher (recognition and tracker) to the session, one frame at a time.

One loop for both, so the demo on the synthetic table tests the very path a real table
takes: what the camera could not see is told to the session on every frame, and the table
events of a still table become moves. Only what belongs to one of them is left to it: the
service rebuilds its watcher for another edition's card size; the demo answers the
camera's questions with the truth and counts how the camera did.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np

from companion.games.caboose.session import Session
from companion.games.caboose.tracker import TableEvent, Watcher
from hw.frames import FrameSource

# The service's name in its journal (`journalctl -u caboose-companion`), as it always was.
log = logging.getLogger("companion.run")
# A source that gives this many frames in a row no more has run dry (a recording's end).
DRY_FRAMES = 50


class FrameLoop:
    """A watcher and the session it reports to, stepped one camera frame at a time."""

    def __init__(self, watcher: Watcher, session: Session) -> None:
        self.watcher = watcher
        self.session = session
        self.frames = 0  # frames stepped, dropped ones included
        self.stop = threading.Event()  # set, it ends the loop after the frame in hand

    def step(self, frame: np.ndarray | None) -> list[TableEvent]:
        """One frame (None: a dropped frame, the same picture as before): what the camera
        could not see goes to the session, and so do the table events it brings."""
        game = self.session.table.game
        events = self.watcher.see(frame, game.state.railway if game is not None else None)
        self.frames += 1
        last = self.watcher.last
        self.session.seen_problems(last.problems if last is not None else ())
        if events:
            log.info("table: %s", ", ".join(event.what for event in events))
            self.session.on_events(events)
        return events

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
