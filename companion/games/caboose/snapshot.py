"""A Caboose game folded from its record, and the game at one instant: a `Snapshot` is
what the view draws (the record, the state, the log, what waits at the table), as each
game's `Snapshot` is; taken under the table's lock, a page renders from it while other
threads go on acting, so it never shows a half-applied turn. `snapshot_of` is a record
watched turn by turn, without touching the game being played.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.games.caboose import cards
from companion.games.caboose.record import Record, RecordError, initial_state, to_action
from companion.games.caboose.refusals import TableError, undo_refusal
from companion.games.caboose.rules import engine, geometry
from companion.games.caboose.rules.state import Event, GameState, RuleError
from companion.games.caboose.turn_log import turn_line


@dataclass(frozen=True)
class Staged:
    """Cards laid at the front but not yet rolled for: the page shows their dice and odds."""

    seat: int
    cards: tuple[str, ...]
    place: tuple[geometry.Pose, ...] | None
    dice: int


@dataclass
class FoldedGame:
    """A game as its record folds: its state, log lines and events, and what a provisional
    deal has been shown."""

    id: int
    record: Record
    state: GameState
    lines: list[str] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=list)  # one tuple per turn
    notes: list[str] = field(default_factory=list)  # corrections, for the log
    before: GameState | None = None  # the state before the last turn: its pile and odds
    shown: dict[int, tuple[str, ...]] = field(default_factory=dict)  # hands shown at the end
    taken_shown: set[int] = field(default_factory=set)  # turns whose draw-pile cards were shown


@dataclass(frozen=True)
class Snapshot:
    """The game at one instant: what a page shows of it, copied whole (`game_id`: its
    number in the store, 0 for a record that is not kept)."""

    game_id: int
    record: Record
    state: GameState
    before: GameState | None
    lines: tuple[str, ...]
    events: tuple[tuple[Event, ...], ...]
    notes: tuple[str, ...]
    staged: Staged | None
    provisional: bool = False  # the deal is a guess: hands are not shown
    to_show: tuple[str, int, int] | None = None  # what the guess waits to be shown
    hands_shown: tuple[int, ...] = ()  # seats whose hand at the end was shown

    @property
    def undo_refusal(self) -> TableError | None:
        """Why an undo would be refused at this instant (`undo_refusal`), or None."""
        return undo_refusal(self.record.turns, self.staged is not None)


def _with_layout(state: GameState) -> GameState:
    """A record does not keep where the setup cards lie; the table lays them as `deal` did,
    so that placements chosen before a restart still join the railway after it."""
    layout = geometry.first_railway_layout(state.edition, state.railway)
    return replace(state, layout=layout) if layout else state


def fold(record: Record) -> FoldedGame:
    """The game a record describes (id 0 until the store gives it one)."""
    state = _with_layout(initial_state(record))
    game = FoldedGame(0, record, state)
    for number, turn in enumerate(record.turns, 1):
        name = state.player.name
        try:
            game.before = state
            state, happened = engine.apply(state, to_action(turn, number))
        except (RuleError, cards.CardCodeError) as error:
            raise RecordError(number, getattr(error, "rule", "hand"), str(error)) from None
        game.lines.append(turn_line(number, name, happened))
        game.events.append(happened)
    game.state = state
    return game


def snapshot_of(record: Record, turns: int) -> Snapshot:
    """The table as it stood after the first `turns` turns of a record: watching a record
    replayed turn by turn, without touching the game being played."""
    game = fold(replace(record, turns=record.turns[:turns]))
    return Snapshot(
        game_id=0,
        record=game.record,
        state=game.state,
        before=game.before,
        lines=tuple(game.lines),
        events=tuple(game.events),
        notes=(),
        staged=None,
    )
