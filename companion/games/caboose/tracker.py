"""From a stream of camera observations to the few things that happened on the table.

A camera sees a table in motion: hands reaching over the cards, dice tumbling, a card held
half-way. Acting on any single frame would turn a passing hand into a move. So the tracker
acts only on a *still* table: the same view (cards, caboose, dice, the marked zone) in
`still_frames` consecutive clean frames. A frame with any problem (a hand covering part of
the table, a hidden marker, a card that cannot be read) is not clean and restarts the
count, and a view that is the same as the last still one says nothing new; so a hand that
hides cards and takes itself away again triggers nothing.

When the table settles on a new view, the tracker compares it with the last still view and
names what changed, in the game's words: cards laid at the front, cards taken from the
back (or lifted from the front), the caboose moved, dice settled, cards shown in the
marked zone. It knows nothing of turns or rules: that is the turn at the table's
job (follow.py).

`FrameReader` ties it to the vision: it recognises a frame only when it differs from the last
(`ChangeGate`), hands each observation the calibration and what the game tells the camera
(`CameraHint`: the railway as the game has it, where its back card lay), and feeds the
tracker; an unchanged frame counts as the same view again without being recognised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.games.caboose import cards

if TYPE_CHECKING:  # recognition pulls in OpenCV: only the FrameReader needs it, when it runs
    import numpy as np

    from companion.games.caboose.vision.observation import (
        Observation,
        SeenCard,
        SeenDie,
        VisionConfig,
    )
    from companion.vision.dice import Alike
    from companion.vision.frame_checks import ChangeGate

# What a still table can tell, one name per concept (the turn at the table matches on these).
TABLE_SEEN = "table-seen"  # the first still view: nothing to compare it with
CARDS_LAID = "cards-laid"  # cards: new cards at the front, back to front
CARDS_TAKEN = "cards-taken"  # cards: cards gone from the back
CARDS_LIFTED = "cards-lifted"  # cards: cards gone from the front (a play taken back)
CABOOSE_MOVED = "caboose-moved"  # caboose: its railway index in the new view
DICE_SETTLED = "dice-settled"  # dice: every die lying still, off the cards
CARDS_SHOWN = "cards-shown"  # cards: the cards lying in the marked zone, left to right
RAILWAY_CHANGED = "railway-changed"  # the railway changed in no way a turn explains

Zone = tuple[float, float, float, float]  # left, top, right, bottom in table mm


@dataclass(frozen=True)
class TrackerConfig:
    """How still is still. `still_frames` clean frames must agree; a card may seem to move
    `card_mm` between frames (recognition noise) and still be the same card, a die
    `die_mm`. `zone` is the marked rectangle where players show cards to the camera
    (chaos cards discarded, hands at the end); None when the table has none."""

    still_frames: int = 3
    card_mm: float = 8.0
    die_mm: float = 10.0
    zone: Zone | None = None

    def __post_init__(self) -> None:
        if self.still_frames < 1:
            raise ValueError("still_frames must be at least 1")
        if self.card_mm <= 0 or self.die_mm <= 0:
            raise ValueError("card_mm and die_mm must be positive")
        if self.zone is not None:
            left, top, right, bottom = self.zone
            if right <= left or bottom <= top:
                raise ValueError(f"the zone {self.zone} is empty: give left, top, right, bottom")


@dataclass(frozen=True)
class TableView:
    """One still table: the railway back to front, the caboose's index in it, the dice off
    the cards, and the cards in the marked zone."""

    railway: tuple[SeenCard, ...] = ()
    caboose: int | None = None
    dice: tuple[SeenDie, ...] = ()
    shown: tuple[SeenCard, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.railway)


@dataclass(frozen=True)
class CameraHint:
    """What the game tells the camera, one value handed to each `FrameReader.see`: `railway`,
    the railway back to front as the game has it (before any still view it settles which
    end of the cards is the back), `back`, where the railway's back card lay in the
    last still view the game was told of (table mm; recognition reads the railway from the
    end nearest it), `card_mm`, the size of the game's cards (its edition's; None: the
    size the camera looks for already), `caboose`, the caboose's card as the game has
    it (what settles a railway that reads the same both ways, before any still view), and
    `alike`, the pip faces the table's face map counts alike (R-6; None: pip dice are not
    played, or every face counts apart), so that a pip die is asked about only when what it
    counts for is in doubt. The game knows them; the camera keeps no copy."""

    railway: tuple[str, ...] = ()
    back: tuple[float, float] | None = None
    card_mm: tuple[float, float] | None = None
    caboose: int | None = None
    alike: Alike | None = None

    @classmethod
    def of(
        cls,
        railway: Sequence[str],
        still: TableView | None,
        card_mm: tuple[float, float] | None = None,
        caboose: int | None = None,
        alike: Alike | None = None,
    ) -> CameraHint:
        """The hint of a game whose railway is `railway` with the caboose on its card
        `caboose` and whose last still view of the table was `still` (None: not seen still
        yet), played with cards of `card_mm` and pip dice counted `alike`."""
        back = None
        if still is not None and still.railway:
            pose = still.railway[0].pose
            back = pose.x, pose.y
        return cls(tuple(railway), back, card_mm, caboose, alike)


@dataclass(frozen=True)
class TableEvent:
    """Something that changed between two still views; `view` is the new one."""

    what: str
    view: TableView
    cards: tuple[SeenCard, ...] = ()
    dice: tuple[SeenDie, ...] = ()
    caboose: int | None = None


def view_of(observation: Observation, zone: Zone | None = None) -> TableView:
    """The table an observation shows, in the tracker's terms."""
    railway = tuple(observation.cards[i] for i in observation.railway)
    on_railway = set(observation.railway)
    shown: tuple[SeenCard, ...] = ()
    if zone is not None:
        left, top, right, bottom = zone
        inside = (
            card
            for i, card in enumerate(observation.cards)
            if i not in on_railway and left <= card.pose.x <= right and top <= card.pose.y <= bottom
        )
        shown = tuple(sorted(inside, key=lambda card: card.pose.x))  # the pile's order
    dice = tuple(sorted(observation.dice, key=lambda d: (d.position[1], d.position[0])))
    return TableView(railway, observation.caboose, dice, shown)


def _same_card(a: SeenCard, b: SeenCard, tolerance: float) -> bool:
    if a.code != b.code or math.dist(a.pose[:2], b.pose[:2]) > tolerance:
        return False
    turn = abs(a.pose.rotation - b.pose.rotation) % 360.0
    return min(turn, 360.0 - turn) <= 20.0


def _same_cards(a: Sequence[SeenCard], b: Sequence[SeenCard], tolerance: float) -> bool:
    return len(a) == len(b) and all(_same_card(x, y, tolerance) for x, y in zip(a, b, strict=True))


def _same_dice(a: Sequence[SeenDie], b: Sequence[SeenDie], tolerance: float) -> bool:
    """Same dice, faces and places, in any order (each die of `a` matched once in `b`)."""
    if len(a) != len(b):
        return False
    left = list(b)
    for die in a:
        for index, other in enumerate(left):
            if (
                die.kind == other.kind
                and die.face == other.face
                and math.dist(die.position, other.position) <= tolerance
            ):
                del left[index]
                break
        else:
            return False
    return True


@dataclass
class Tracker:
    """Feed it observations; it answers with the events of each newly still view."""

    config: TrackerConfig = field(default_factory=TrackerConfig)
    still: TableView | None = None  # the last still view
    _candidate: TableView | None = None
    _count: int = 0

    def same(self, a: TableView, b: TableView) -> bool:
        """Whether two views show one table (within the recognition's noise)."""
        c = self.config
        return (
            _same_cards(a.railway, b.railway, c.card_mm)
            and a.caboose == b.caboose
            and _same_dice(a.dice, b.dice, c.die_mm)
            and _same_cards(a.shown, b.shown, c.card_mm)
        )

    def feed(
        self,
        observation: Observation,
        expected: Sequence[str] | None = None,
        caboose: int | None = None,
    ) -> list[TableEvent]:
        """One frame's observation; the events if the table has just become still on a
        new view, else none. `expected` is the railway as the game has it (back to front)
        and `caboose` its caboose's card: before any still view they settle which end of
        the cards is the back."""
        if observation.problems:
            self._candidate, self._count = None, 0  # a hand, a hidden card: not still
            return []
        view = self._oriented(view_of(observation, self.config.zone), expected, caboose)
        if self._candidate is not None and self.same(view, self._candidate):
            self._count += 1
        else:
            self._candidate, self._count = view, 1
        if self._count != self.config.still_frames:
            return []
        before, self.still = self.still, view
        if before is None:
            return [TableEvent(TABLE_SEEN, view, caboose=view.caboose)]
        if self.same(before, view):
            return []
        return self._changes(before, view)

    def _oriented(
        self, view: TableView, expected: Sequence[str] | None, caboose: int | None = None
    ) -> TableView:
        """The view with its railway read the right way round. Recognition reads it from
        the end nearest the last back it was told of; when cards leave the back, or the
        players slide the whole railway, that can be the wrong end. The reading that
        keeps more of the last still railway in place wins; when neither explains it
        (the first view, a slid railway), the one that reads as the game's railway
        (`expected`) does; a railway slid as a whole is read as it lay. A railway that
        reads the same both ways (3 4 4 3) seen first after a restart, when nothing says
        where its back lay, is read with the caboose where the game has it (`caboose`):
        nothing on the table tells its ends apart, and reading it the other way would
        say the caboose stands on a card it does not."""
        if len(view.railway) < 2:
            return view
        flipped = replace(
            view,
            railway=view.railway[::-1],
            caboose=None if view.caboose is None else len(view.railway) - 1 - view.caboose,
        )
        if self.still is not None:
            as_read, turned = self._kept(view), self._kept(flipped)
            if as_read >= 0 or turned >= 0:
                return flipped if turned > as_read else view
            if _slid(self.still, flipped, self.config.card_mm) and not _slid(
                self.still, view, self.config.card_mm
            ):
                return flipped
        if expected and _reads(flipped, expected) and not _reads(view, expected):
            return flipped
        if (
            self.still is None
            and expected
            and caboose is not None
            and _reads(view, expected)
            and _reads(flipped, expected)
            and view.caboose != caboose
            and flipped.caboose == caboose
        ):
            return flipped
        return view

    def _kept(self, view: TableView) -> int:
        """How many cards of the last still railway a reading keeps in place; -1 when it
        does not explain the change, or needs cards both taken and laid at once (one still
        table never shows both: the penalty cards are taken before the next play)."""
        assert self.still is not None
        changes = _railway_changes(self.still, view, self.config.card_mm)
        kinds = {e.what for e in changes}
        if RAILWAY_CHANGED in kinds or {CARDS_TAKEN, CARDS_LAID} <= kinds:
            return -1
        laid = sum(len(e.cards) for e in changes if e.what == CARDS_LAID)
        return len(view.railway) - laid

    def _changes(self, before: TableView, after: TableView) -> list[TableEvent]:
        events = _railway_changes(before, after, self.config.card_mm)
        if not any(e.what == RAILWAY_CHANGED for e in events):
            tolerance = self.config.card_mm
            moved = after.caboose is not None and (
                before.caboose is None
                or not _same_card(
                    before.railway[before.caboose], after.railway[after.caboose], tolerance
                )
            )
            if moved:
                events.append(TableEvent(CABOOSE_MOVED, after, caboose=after.caboose))
        if after.dice and not _same_dice(before.dice, after.dice, self.config.die_mm):
            events.append(TableEvent(DICE_SETTLED, after, dice=after.dice))
        if after.shown and not _same_cards(before.shown, after.shown, self.config.card_mm):
            events.append(TableEvent(CARDS_SHOWN, after, cards=after.shown))
        return events


def _slid(before: TableView, after: TableView, tolerance: float) -> bool:
    """Whether `after` is the railway of `before` slid across the table as a whole: the
    same cards in the same order, each where the shift of the first card puts it."""
    old, new = before.railway, after.railway
    if len(old) != len(new) or not old:
        return False
    dx, dy = new[0].pose.x - old[0].pose.x, new[0].pose.y - old[0].pose.y
    return all(
        _same_card(replace(a, pose=a.pose._replace(x=a.pose.x + dx, y=a.pose.y + dy)), b, tolerance)
        for a, b in zip(old, new, strict=True)
    )


def _reads(view: TableView, railway: Sequence[str]) -> bool:
    """Whether a view's railway begins with these cards (a code without a shape names
    any card of its value and kind)."""
    seen = view.codes
    return len(seen) >= len(railway) and all(
        cards.matches(want, got) or cards.matches(got, want)
        for want, got in zip(railway, seen, strict=False)
    )


def _railway_changes(before: TableView, after: TableView, tolerance: float) -> list[TableEvent]:
    """Cards taken from the back, lifted from the front and laid at the front, from how the
    new railway lines up with the old one; RAILWAY_CHANGED when it does not line up."""
    old, new = before.railway, after.railway
    if old == new or _same_cards(old, new, tolerance):
        return []
    start = next(
        (i for i, card in enumerate(old) if new and _same_card(card, new[0], tolerance)), None
    )
    if start is None:
        return [TableEvent(RAILWAY_CHANGED, after, cards=new)]
    kept = old[start:]
    common = min(len(kept), len(new))
    if not _same_cards(kept[:common], new[:common], tolerance):
        return [TableEvent(RAILWAY_CHANGED, after, cards=new)]
    events = []
    if start:
        events.append(TableEvent(CARDS_TAKEN, after, cards=old[:start]))
    if len(kept) > common:
        events.append(TableEvent(CARDS_LIFTED, after, cards=kept[common:]))
    if len(new) > common:
        events.append(TableEvent(CARDS_LAID, after, cards=new[common:]))
    return events


class FrameReader:
    """Frames in, table events out (the game's `Watcher` is camera.py's `Camera`, which
    turns these events into commands). Recognises a frame
    only when it differs from the last one recognised; keeps the calibration between
    frames, hands recognition the last frame's reading (what did not change stands:
    vision/unchanged.py) and the game's hint (where the railway's back is)."""

    def __init__(
        self, vision: VisionConfig, tracker: Tracker | None = None, gate: ChangeGate | None = None
    ) -> None:
        from companion.vision.frame_checks import ChangeGate

        self.vision = vision
        self.tracker = tracker or Tracker()
        self.gate = gate or ChangeGate()
        self.last: Observation | None = None

    def see(self, frame: np.ndarray | None, hint: CameraHint | None = None) -> list[TableEvent]:
        """One camera frame; None (or a frame the gate finds unchanged) stands for the same
        picture as before, which counts towards stillness without being recognised again.
        `hint` is what the game tells the camera now (None: nothing, as before any game):
        its `back` orders the railway recognition reads, its `railway` which end is the
        back until the table has been seen still once, its `alike` how sure a pip die is."""
        from companion.games.caboose.vision.observe import observe

        hint = hint or CameraHint()
        if hint.alike != self.vision.alike:  # a new game's face map: read by it from now on
            self.vision = replace(self.vision, alike=hint.alike)
        if frame is not None and (self.gate.changed(frame) or self.last is None):
            self.last = observe(
                frame,
                self.vision,
                calibration=self.last.calibration if self.last else None,
                back=hint.back,
                apart=self.tracker.config.zone,
                previous=self.last,
            )
        if self.last is None:
            return []
        return self.tracker.feed(self.last, hint.railway, hint.caboose)
