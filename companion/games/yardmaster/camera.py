"""The camera's side of Yardmaster Express as the frame loop sees it
(`companion.games.protocol.Watcher`): frames in, `Seen` commands out.

Every frame is read (vision/reader.py: every train, engine first, each card as it lies);
the trains count once they lie still, the same cards in the same places for
`CameraSetup.still_frames` frames in a row, so a card on its way down or a hand passing over
is never taken for a move. A still view that differs from the last one goes to the match,
which compares it with the game (follow.py). What the camera cannot see (the markers
hidden, the light) goes with every frame: the page shows it until it is fixed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.games.protocol import CameraSetup, teaches_others
from companion.games.said import Said
from companion.games.yardmaster.commands import Seen
from companion.games.yardmaster.drawing import Reading
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.follow import TrainSeen
from companion.games.yardmaster.vision.reader import (
    UNSURE,
    Problem,
    ReaderConfig,
    SeenTrain,
    read_yard,
)
from companion.games.yardmaster.vision.taught import FORMAT, Catalogue, read_taught
from companion.vision.frame_checks import ChangeGate


def _said(problem: Problem) -> Said:
    return Said(problem.key, problem.text(), tuple(problem.params.items()))


def trains_seen(trains: Sequence[SeenTrain]) -> tuple[TrainSeen, ...]:
    """The reader's trains as the game's comparison takes them: where each engine lies and
    its cards as they lie, None for a card not read surely."""
    return tuple(
        TrainSeen(
            (train.cards[0].pose.x, train.cards[0].pose.y),
            tuple(c.code if c.sure and c.code != UNSURE else None for c in train.cards[1:]),
        )
        for train in trains
    )


def _same(a: Sequence[TrainSeen], b: Sequence[TrainSeen], tolerance: float) -> bool:
    """Two readings of a table where nothing moved: the same trains' cards, each engine
    within `tolerance` mm of where it was (the trains in any order)."""
    if len(a) != len(b):
        return False
    left = list(b)
    for train in a:
        match = next(
            (
                other
                for other in left
                if other.cards == train.cards and math.dist(other.engine, train.engine) <= tolerance
            ),
            None,
        )
        if match is None:
            return False
        left.remove(match)
    return True


class Camera:
    """The reader over one table and the stillness of what it reads."""

    def __init__(
        self,
        setup: CameraSetup,
        edition: str,
        deck: Sequence[str],
        catalogue: Catalogue | None = None,
    ) -> None:
        """`edition`'s `deck`; `catalogue`: a box printed in another design, taught by
        `companion enroll` (None: our printable cards)."""
        self.setup = setup
        self.edition = edition
        self.config = ReaderConfig(layout=setup.layout, deck=tuple(deck))
        self.catalogue = catalogue
        self.gate = ChangeGate()  # a frame in which nothing moved is not read again
        self.calibration: Any = None  # the markers found last: a still camera keeps them
        self.recent: list[tuple[TrainSeen, ...]] = []  # the last readings, newest last
        self.still: tuple[TrainSeen, ...] | None = None  # the last still view told
        # the last frame read: its trains, what the camera could not see, whether it was clear
        self.last: tuple[tuple[TrainSeen, ...], tuple[Said, ...], bool] | None = None
        self.reading: Reading | None = None  # all the reader read of it: the camera's picture

    @classmethod
    def over(cls, setup: CameraSetup, edition: str) -> Camera:
        """The camera over a table set up as `setup` says, looking for `edition`'s deck:
        our printable design, or the box taught into `setup.catalogue`, which must hold
        every face of the deck (a face never taught would be read as the taught face most
        like it); a ValueError says what is missing and how to teach it."""
        deck = load_edition(edition).deck
        if setup.catalogue is None or teaches_others(setup.catalogue, (FORMAT,)):
            return cls(setup, edition, deck)  # no box taught, or another game's
        return cls(setup, edition, deck, Catalogue.load(Path(setup.catalogue), deck=deck))

    def see(self, frame: Any, hint: object) -> list[Seen]:
        """One frame (None: the same picture as before, which counts as one more frame in
        which nothing moved): a `Seen` with what the camera could not see and, when the
        trains have just become still in a view other than the last one told, that view."""
        if frame is not None and (self.gate.changed(frame) or self.last is None):
            self.last = self._read(frame)  # a frame the gate finds unchanged: as None
        elif self.last is None:
            return []
        view, camera, clear = self.last
        self.recent = [*self.recent, view][-self.setup.still_frames :]
        tolerance = self.setup.card_mm
        steady = len(self.recent) == self.setup.still_frames and all(
            _same(seen, view, tolerance) for seen in self.recent
        )
        news = None
        if steady and clear and (self.still is None or not _same(view, self.still, tolerance)):
            self.still = news = view
        return [Seen(news, camera)]

    def _read(self, frame: Any) -> tuple[tuple[TrainSeen, ...], tuple[Said, ...], bool]:
        """One frame's trains, what the camera could not see in it, and whether it saw the
        whole table clearly (no problem, no card lying apart from the trains)."""
        if self.catalogue is None:
            yard = read_yard(frame, self.config, calibration=self.calibration)
        else:
            yard = read_taught(frame, self.catalogue, self.config, self.calibration)
        if yard.calibration is not None:
            self.calibration = yard.calibration
        self.reading = Reading(yard, self.config.layout, self.edition)
        camera = tuple(_said(p) for p in yard.problems)
        if yard.loose:
            n = len(yard.loose)
            camera += (
                Said(
                    "loose_cards",
                    f"{n} card{'s' if n != 1 else ''} lie apart from every train: lay each card "
                    "against the end of its train",
                    (("n", n),),
                ),
            )
        return trains_seen(yard.trains), camera, not camera


def follow(session: Mapping[str, Any]) -> bool:
    """How the turn flow follows a table through the camera, from the configuration's
    [session] keys: Yardmaster Express has none of its own (they are the Caboose dice's);
    a camera follows the table."""
    return True
