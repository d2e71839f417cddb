"""A Caboose game folded from its record, and the game at one instant: a `Snapshot` is
what the view draws (the record, the state, the log, what waits at the table), as each
game's `Snapshot` is; taken under the table's lock, a page renders from it while other
threads go on acting, so it never shows a half-applied turn. `snapshot_of` is a record
watched turn by turn, without touching the game being played.

`KEEPING` is how the store keeps a Caboose game (`companion.games.match.Keeping`), as pure
functions of its `Snapshot`: its record without turns, then one journal entry per turn
(`TURN`), the last one taken back (`UNDO`), the last one corrected (`CORRECT`: a mistyped
roll, another discard order, its note for the log), a provisional deal fixed by what the
table showed (`DEAL`, `deal.py`). Its journal has no setting entry: the record says how
the table plays, so the stores kept before the shared skeleton resume as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games import match as base
from companion.games.caboose import cards
from companion.games.caboose.record import (
    Record,
    RecordError,
    from_json,
    initial_state,
    to_action,
)
from companion.games.caboose.refusals import TableError, undo_refusal
from companion.games.caboose.rules import engine, geometry
from companion.games.caboose.rules.state import TOOK, Event, GameState, RuleError
from companion.games.caboose.turn_log import turn_line
from companion.store import Store


@dataclass(frozen=True)
class Staged:
    """Cards laid at the front but not yet rolled for: the page shows their dice and odds."""

    seat: int
    cards: tuple[str, ...]
    place: tuple[geometry.Pose, ...] | None
    dice: int


@dataclass(frozen=True)
class Snapshot:
    """The game at one instant, as its record folds (`fold`) and the store keeps it
    (`KEEPING`): its state, log lines and events, what a provisional deal has been shown;
    and, in the copy a page shows (`Match.snapshot`), the cards staged. `id`: its number in
    the store, 0 for a record that is not kept."""

    id: int
    record: Record
    state: GameState
    before: GameState | None = None  # the state before the last turn: its pile and odds
    lines: tuple[str, ...] = ()
    events: tuple[tuple[Event, ...], ...] = ()  # one tuple per turn
    notes: tuple[str, ...] = ()  # corrections, for the log
    staged: Staged | None = None
    provisional: bool = False  # the deal is a guess, fixed from what the table shows
    shown: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # hands at the end
    taken_shown: frozenset[int] = frozenset()  # turns whose draw-pile cards were shown

    @property
    def undo_refusal(self) -> TableError | None:
        """Why an undo would be refused at this instant (`undo_refusal`), or None."""
        return undo_refusal(self.record.turns, self.staged is not None)

    @property
    def hands_shown(self) -> tuple[int, ...]:
        """The seats whose hand at the end was shown."""
        return tuple(sorted(self.shown))

    @property
    def to_show(self) -> tuple[str, int, int] | None:
        """What a provisional deal still needs to be shown, or None: `("taken", seat, n)`,
        the n cards the last turn's player took from the draw pile (Loose Caboose), or
        `("hand", seat, n)`, a hand at the end of the game."""
        if not self.provisional or not self.record.turns:
            return None
        taken = [
            e.cards[0]
            for e in self.events[-1]
            if e.what == TOOK and e.detail.get("source") == "draw"
        ]
        if taken and len(self.record.turns) not in self.taken_shown:
            return ("taken", (self.before or self.state).to_move, len(taken))
        if self.state.over:
            for seat, player in enumerate(self.state.seats):
                if player.hand and seat not in self.shown:
                    return ("hand", seat, len(player.hand))
        return None


def _with_layout(state: GameState) -> GameState:
    """A record does not keep where the setup cards lie; the table lays them as `deal` did,
    so that placements chosen before a restart still join the railway after it."""
    layout = geometry.first_railway_layout(state.edition, state.railway)
    return replace(state, layout=layout) if layout else state


def fold(record: Record) -> Snapshot:
    """The game a record describes (id 0 until the store gives it one)."""
    game = Snapshot(0, replace(record, turns=[]), _with_layout(initial_state(record)))
    for turn in record.turns:
        game = turned(game, turn)
    return game


def turned(game: Snapshot, turn: dict[str, Any]) -> Snapshot:
    """The game after one more turn of its record, checked by the engine (a `RecordError`
    naming the turn that breaks a rule)."""
    number = len(game.record.turns) + 1
    try:
        after, happened = engine.apply(game.state, to_action(turn, number))
    except (RuleError, cards.CardCodeError) as error:
        raise RecordError(number, getattr(error, "rule", "hand"), str(error)) from None
    return with_turn(game, turn, after, happened)


def with_turn(
    game: Snapshot, turn: dict[str, Any], after: GameState, happened: tuple[Event, ...]
) -> Snapshot:
    """The game with `turn` added to its record, the engine having applied it (`after`,
    what `happened`): a turn folded from the journal (`turned`) and a turn the match has
    just applied are one game, the engine run once for each."""
    number = len(game.record.turns) + 1
    return replace(
        game,
        record=replace(game.record, turns=[*game.record.turns, turn]),
        state=after,
        before=game.state,
        lines=(*game.lines, turn_line(number, game.state.player.name, happened)),
        events=(*game.events, happened),
    )


# --- the store's side: `KEEPING` -------------------------------------------------------------

TURN, CORRECT, DEAL = "turn", "correct", "deal"  # and `base.UNDO`, every game's
GAME_ID = "caboose"  # the registry's id of the Caboose design: the store keeps it per game


def _refolded(
    game: Snapshot, setup: Mapping[str, Any], turns: Sequence[dict[str, Any]]
) -> Snapshot:
    """The game with its setup and turns replaced (an undo, a correction, a deal fixed),
    folded again; what the table was shown and the log's notes kept."""
    record = from_json(game.record.as_json() | {"setup": setup, "turns": list(turns)})
    again = fold(record)
    return replace(
        again,
        id=game.id,
        notes=game.notes,
        shown=game.shown,
        taken_shown=game.taken_shown,
        provisional=game.provisional,
    )


def _begin(record: Mapping[str, Any], setting: Mapping[str, Any]) -> Snapshot:
    """A kept game before its first entry: its record without turns (no setting entry)."""
    del setting
    return fold(from_json({**record, "turns": []}))


def _step(game: Snapshot, kind: str, doc: Any) -> Snapshot:
    """One Caboose journal entry folded over the game (a KeyError for another kind)."""
    turns = game.record.turns
    if kind == TURN:
        return turned(game, doc)
    if kind == CORRECT:
        return _refolded(game, game.record.setup, [*_but_last(turns), doc])
    if kind == DEAL:
        shown = {int(seat): tuple(hand) for seat, hand in doc.get("shown", {}).items()}
        fixed = _refolded(game, doc["setup"], turns)
        return replace(fixed, shown=shown, taken_shown=frozenset(doc.get("taken", [])))
    raise KeyError(kind)


def _undone(game: Snapshot) -> Snapshot:
    """The last turn taken back (an IndexError when there is none)."""
    return _refolded(game, game.record.setup, _but_last(game.record.turns))


def _but_last(turns: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turns but the last, which an undo or a correction replaces (an IndexError when
    no turn has been played)."""
    if not turns:
        raise IndexError("no turn has been played")
    return list(turns[:-1])


def _noted(game: Snapshot, note: str) -> Snapshot:
    return replace(game, notes=(*game.notes, note))


def _opening(game: Snapshot) -> dict[str, Any]:
    """The record a new game is kept with: its turns are the journal's entries."""
    doc = game.record.as_json()
    del doc["turns"]
    return doc


KEEPING: base.Keeping[Snapshot] = base.Keeping(
    game=GAME_ID,
    setting=None,
    begin=_begin,
    step=_step,
    undone=_undone,
    undo_doc=None,
    turn=lambda game: len(game.record.turns),
    over=lambda game: game.state.over and game.to_show is None,
    record=lambda game: game.record.as_json(),
    noted=_noted,
    opening=_opening,
)


def snapshot_of(record: Record, turns: int) -> Snapshot:
    """The table as it stood after the first `turns` turns of a record: watching a record
    replayed turn by turn, without touching the game being played."""
    return fold(replace(record, turns=record.turns[:turns]))


def stored_record(store: Store, number: int) -> Record:
    """Game `number` of the store as its record now, its journal's entries taken as they
    are, unchecked (a turn added, an undo taking the last one back, a correction replacing
    it, a deal fixing the setup): what a killed demo left. A game of another design, or an
    entry no Caboose game writes, is a RecordError."""
    kept = store.kept(number)
    if kept.game != GAME_ID:
        raise RecordError(
            0, "store", f"game {number} is one of {kept.game!r}, not of the Caboose design"
        )
    doc = dict(kept.record)
    turns: list[dict[str, Any]] = []
    for entry in kept.journal:
        if entry.kind == TURN:
            turns.append(entry.doc)
        elif entry.kind == base.UNDO:
            turns.pop()
        elif entry.kind == CORRECT:
            turns[-1] = entry.doc
        elif entry.kind == DEAL:
            doc["setup"] = entry.doc["setup"]
        else:
            raise RecordError(0, "store", f"game {number} holds an entry {entry.kind!r}")
    return from_json(doc | {"turns": turns})
