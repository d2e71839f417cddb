"""The camera's side of the Caboose game as the frame loop sees it
(`companion.games.protocol.Watcher`): frames in, commands out.

The tracker's `FrameReader` recognises a frame and turns still views into table events; here
each frame becomes one `Seen` command, its events and what the camera could not see, for
the shared frame loop to hand to the table like any other command. The cards' size is the
edition's: the camera looks for the size the game's hint says (an edition of other cards
needs other recognition, and a tracker that starts afresh), and before any game for the
size of the edition the table is set up for.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games.caboose.commands import Seen
from companion.games.caboose.drawing import Reading
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.tracker import CameraHint, FrameReader, Tracker, TrackerConfig
from companion.games.caboose.vision.caboose_token import TOKEN_FORMAT
from companion.games.caboose.vision.catalogue import FORMAT as CATALOGUE_FORMAT
from companion.games.caboose.vision.observation import Observation, VisionConfig
from companion.games.protocol import CameraSetup, teaches_others
from companion.vision import taught_dice, taught_pips

# What `companion enroll` writes for this game: a folder holding none of it teaches another
# game's box, and our printed pieces are read
_TAUGHT_FORMATS = (CATALOGUE_FORMAT, TOKEN_FORMAT, taught_dice.FORMAT, taught_pips.FORMAT)

# The service's name in its journal (`journalctl -u caboose-companion`), as it always was.
log = logging.getLogger("companion.run")


class Camera:
    """Recognition and tracker for one card size, giving commands; made again for another
    card size when the game's hint asks for one."""

    def __init__(self, vision: VisionConfig, tracker: Tracker | None = None) -> None:
        self.reader = FrameReader(vision, tracker)
        self.setup: CameraSetup | None = None  # the table's camera, to look for other cards
        self.pips_stamp: int | None = None  # the taught pip dice's file as last read

    @classmethod
    def over(cls, setup: CameraSetup, edition: str) -> Camera:
        """The camera over a table set up as `setup` says, looking for `edition`'s cards
        until a game's hint says which (what was enrolled, if anything, is read now: a
        broken deck, dice or token is a ValueError before the first frame; a folder that
        teaches another game's box only leaves our printed pieces read)."""
        folder = setup.catalogue
        if folder is not None and teaches_others(folder, _TAUGHT_FORMATS):
            folder = None
        vision = VisionConfig.for_edition(
            edition, folder, layout=setup.layout, frame_size=setup.frame_size
        )
        camera = cls(vision, _tracker(setup))
        camera.setup = setup
        camera.pips_stamp = _stamp(setup.catalogue)
        return camera

    @property
    def last(self) -> Observation | None:
        """The last frame recognised (None before the first)."""
        return self.reader.last

    @property
    def reading(self) -> Reading | None:
        """What the last frame showed, for the camera's picture (drawing.py)."""
        last = self.reader.last
        if last is None:
            return None
        vision = self.reader.vision
        return Reading(last, vision.layout, vision.card_mm)

    def see(self, frame: Any, hint: CameraHint | None) -> list[Seen]:
        """One frame (None: the same picture as before): its table events, and what the
        camera could not see in it (told on every frame: the page shows it until fixed)."""
        self._look_for(hint)
        self._pips_taught()
        events = self.reader.see(frame, hint)
        if events:
            log.info("table: %s", ", ".join(event.what for event in events))
        last = self.reader.last
        return [Seen(tuple(events), tuple(last.problems) if last is not None else ())]

    def _look_for(self, hint: CameraHint | None) -> None:
        """Recognition for the card size the hint asks for, if the camera knows its table."""
        vision = self.reader.vision
        if self.setup is None or hint is None or hint.card_mm in (None, vision.card_mm):
            return
        self.reader = FrameReader(replace(vision, card_mm=hint.card_mm), _tracker(self.setup))

    def _pips_taught(self) -> None:
        """The family's own pip dice as the table's folder holds them now: the setup page
        teaches them while the companion runs, and the next throw is read by them (one
        `stat` a frame; a file that cannot be read leaves the dice read as before, logged)."""
        folder = self.setup.catalogue if self.setup is not None else None
        stamp = _stamp(folder)
        if folder is None or stamp == self.pips_stamp:
            return
        self.pips_stamp = stamp
        try:
            pips = taught_pips.TaughtPips.load(folder)
        except ValueError as error:
            log.warning("camera: the taught pip dice cannot be read: %s", error)
            return
        self.reader.vision = replace(self.reader.vision, pips=pips)
        log.info("camera: pip dice taught in %s read from now on", folder)


def _stamp(folder: Path | None) -> int | None:
    """When the taught pip dice's file in `folder` last changed; None when there is none."""
    try:
        return None if folder is None else (folder / taught_pips.PIPS_INDEX).stat().st_mtime_ns
    except OSError:
        return None


def _tracker(setup: CameraSetup) -> Tracker:
    return Tracker(TrackerConfig(setup.still_frames, setup.card_mm, setup.die_mm, setup.zone))


def follow(session: Mapping[str, Any]) -> FollowConfig:
    """How the turn flow follows a table through the camera, from the configuration's
    [session] keys (`unsure_below`, `pip_wheels`, `dice_per_roll`; a key left out keeps
    its default)."""
    return FollowConfig(**session)
