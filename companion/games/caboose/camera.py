"""The camera's side of the Caboose game as the frame loop sees it
(`companion.games.protocol.Watcher`): frames in, commands out.

The tracker's `Watcher` recognises a frame and turns still views into table events; here
each frame becomes one `Seen` command, its events and what the camera could not see, for
the shared frame loop to hand to the table like any other command.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.games.caboose.commands import Seen
from companion.games.caboose.tracker import CameraHint, Tracker, Watcher
from companion.games.caboose.vision.observation import Observation, VisionConfig

# The service's name in its journal (`journalctl -u caboose-companion`), as it always was.
log = logging.getLogger("companion.run")


class Camera:
    """Recognition and tracker for one card size, giving commands."""

    def __init__(self, vision: VisionConfig, tracker: Tracker | None = None) -> None:
        self.watcher = Watcher(vision, tracker)

    @property
    def last(self) -> Observation | None:
        """The last frame recognised (None before the first)."""
        return self.watcher.last

    def see(self, frame: Any, hint: CameraHint | None) -> list[Seen]:
        """One frame (None: the same picture as before): its table events, and what the
        camera could not see in it (told on every frame: the page shows it until fixed)."""
        events = self.watcher.see(frame, hint)
        if events:
            log.info("table: %s", ", ".join(event.what for event in events))
        last = self.watcher.last
        return [Seen(tuple(events), tuple(last.problems) if last is not None else ())]
