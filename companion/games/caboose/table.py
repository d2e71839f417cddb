"""The game at the table: the one place where actions are accepted, kept and announced.

The web page, the buttons and the camera all act through a `Table`. It checks every action
with the engine, writes it to the store before anyone hears of it, and then wakes every
listener (the page's Server-Sent Events). A restarted service builds its `Table` from the
store and is back on the same turn.

A table whose deal is provisional (a real table, its deck shuffled by hand) fixes the deal
from what it is shown (`deal.py`): cards laid from a hand, the first railway, the
hands shown at the end. Each fix is journaled like a turn.

Undo follows the table's etiquette: it goes back over passes and chaos discards, but never
past a dice roll, because a roll once seen is not undone. A mistyped roll is corrected
instead, which needs an explicit confirmation and stays in the journal for the log.
"""

from __future__ import annotations

import random
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.deal import DealError, hold, lay_railway, take
from companion.games.caboose.record import (
    Record,
    RecordError,
    initial_state,
    record_of,
    summary,
    to_action,
    to_turn,
)
from companion.games.caboose.rules import engine, geometry
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.log import turn_line
from companion.games.caboose.rules.state import (
    TOOK,
    Action,
    Chaos,
    Event,
    GameState,
    Play,
    RuleError,
)
from companion.store import CORRECT, DEAL, TURN, UNDO, Store


class TableError(ValueError):
    """A request the table cannot take (no game yet, nothing to undo…). `rule` names the
    rule when one is broken, as RuleError does, so every caller reports both alike."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


MAX_NAME = 200  # characters in a player's name: a name, not a document
# Letters that draw nothing although Unicode calls them letters or symbols (Hangul fillers,
# the blank Braille pattern): a name of these alone is as invisible as one of spaces.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


def name_problem(name: object) -> str | None:
    """What is wrong with a player's name, or None. One rule wherever a name enters (a new
    game, a record imported or watched): at most MAX_NAME characters, no control
    characters, and at least one letter, digit, punctuation mark or symbol that shows, so
    that spaces, zero-width spaces or direction marks alone cannot name a player nobody
    can see, and every game's export can be imported again."""
    if not isinstance(name, str):
        return "must be a text"
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long: a name has at most {MAX_NAME}"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "holds a control character (a line break, a tab…): type the name on one line"
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name):
        return "shows nothing (only spaces or invisible characters): type a name people can read"
    return None


def check_names(names: Sequence[object]) -> None:
    """Every player's name as `name_problem` wants it, or a TableError naming the player."""
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            raise TableError("setup", f"player {seat + 1}'s name {problem}")


@dataclass(frozen=True)
class Staged:
    """Cards laid at the front but not yet rolled for: the page shows their dice and odds."""

    seat: int
    cards: tuple[str, ...]
    place: tuple[geometry.Pose, ...] | None
    dice: int


@dataclass
class _Game:
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
    """One consistent view of the table, taken under its lock: a page renders from this
    while other threads go on acting, so it never shows a half-applied turn."""

    version: int
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


def _with_layout(state: GameState) -> GameState:
    """A record does not keep where the setup cards lie; the table lays them as `deal` did,
    so that placements chosen before a restart still join the railway after it."""
    layout = geometry.first_railway_layout(state.edition, state.railway)
    return replace(state, layout=layout) if layout else state


def _fold(record: Record) -> _Game:
    """The game a record describes (id 0 until the store gives it one)."""
    state = _with_layout(initial_state(record))
    game = _Game(0, record, state)
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
    game = _fold(replace(record, turns=record.turns[:turns]))
    return Snapshot(
        version=0,
        game_id=0,
        record=game.record,
        state=game.state,
        before=game.before,
        lines=tuple(game.lines),
        events=tuple(game.events),
        notes=(),
        staged=None,
    )


class Table:
    """One game at a time, shared by every thread of the service (a lock guards it)."""

    def __init__(self, store: Store, provisional: bool = False) -> None:
        """`provisional`: the companion does not know the deal (a real table); every game
        is dealt at random and fixed from what the table shows."""
        self.store = store
        self.provisional = provisional
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.version = 0
        self._game: _Game | None = None
        self.staged: Staged | None = None
        game_id = store.current()
        if game_id is not None:
            self._resume(game_id)

    # --- reading -------------------------------------------------------------------------

    @property
    def game(self) -> _Game | None:
        return self._game

    def require(self) -> _Game:
        if self._game is None:
            raise TableError("game", "no game is being played: start one first")
        return self._game

    def wait(self, version: int, timeout: float) -> int:
        """Block until the table changes past `version` (or the timeout); the new version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def snapshot(self) -> Snapshot:
        """Everything a page shows, copied at one instant."""
        with self._lock:
            game = self.require()
            return Snapshot(
                version=self.version,
                game_id=game.id,
                record=replace(game.record, turns=list(game.record.turns)),
                state=game.state,
                before=game.before,
                lines=tuple(game.lines),
                events=tuple(game.events),
                notes=tuple(game.notes),
                staged=self.staged,
                provisional=self.provisional,
                to_show=self.to_show(),
                hands_shown=tuple(sorted(game.shown)),
            )

    def export(self) -> Record:
        return self.require().record

    def summary(self) -> dict[str, Any]:
        game = self.require()
        return summary(game.state, game.lines)

    # --- starting ------------------------------------------------------------------------

    def new_game(
        self,
        edition: str,
        names: Sequence[str],
        variant: str | None = None,
        seed: int | str | None = None,
    ) -> _Game:
        """A new game dealt from `seed` (a fresh random one when None)."""
        if edition not in EDITIONS:
            raise TableError("setup", f"unknown edition {edition!r}: use one of {EDITIONS}")
        check_names(names)
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        try:
            state = engine.deal(edition, list(names), seed, variant)
        except RuleError as error:
            raise TableError(error.rule, error.message) from None
        return self._begin(record_of(state))

    def load(self, record: Record) -> _Game:
        """Continue the game of a record (its names and every turn are checked first)."""
        check_names(record.players)
        _fold(record)  # raises RecordError, leaving the current game as it was
        return self._begin(record)

    def _begin(self, record: Record) -> _Game:
        with self._lock:
            if self._game is not None:
                self.store.finish(self._game.id)
            game_id = self.store.start(record)
            self._resume(game_id)
            return self.require()

    def _resume(self, game_id: int) -> None:
        game = _fold(self.store.record(game_id))
        game.id = game_id
        journal = self.store.journal(game_id)
        game.notes = [e.note for e in journal if e.kind == CORRECT and e.note]
        for entry in journal:
            if entry.kind == DEAL:
                shown = entry.turn.get("shown", {})
                game.shown = {int(seat): tuple(hand) for seat, hand in shown.items()}
                game.taken_shown = set(entry.turn.get("taken", []))
        self._game = game
        self.staged = None
        self._bump()

    # --- acting --------------------------------------------------------------------------

    def stage(self, seat: int, played: Sequence[str], place: Sequence | None = None) -> Staged:
        """Cards laid at the front before the dice: checked now, so the page can show the
        dice to roll and the odds; nothing is kept until the roll is entered."""
        with self._lock:
            game = self.require()
            state = game.state
            self._check_seat(state, seat)
            poses = tuple(place) if place is not None else None
            self._reveal(seat, played)
            state = self.require().state
            trial = Play(tuple(played), (), place=poses)
            dice = 0 if state.player.laura else state.edition.dice_for(tuple(played))
            # Check everything but the roll by applying the play with a roll of blanks.
            faces = state.edition.die_faces
            blank = min(faces)
            try:
                engine.apply(state, replace(trial, roll=(blank,) * dice))
            except RuleError as error:
                raise TableError(error.rule, error.message) from None
            self.staged = Staged(seat, tuple(played), poses, dice)
            self._bump()
            return self.staged

    def unstage(self) -> None:
        with self._lock:
            if self.staged is not None:
                self.staged = None
                self._bump()

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply one whole turn for the player `seat`, keep it, then announce it."""
        with self._lock:
            game = self.require()
            self._check_seat(game.state, seat)
            if isinstance(action, Play | Chaos):
                self._reveal(seat, action.cards)
                game = self.require()
            name = game.state.player.name
            try:
                state, events = engine.apply(game.state, action)
            except RuleError as error:
                raise TableError(error.rule, error.message) from None
            turn = to_turn(action, events)
            self.store.append(game.id, TURN, turn)  # on disk before anyone is told
            game.record.turns.append(turn)
            game.before = game.state
            game.state = state
            game.lines.append(turn_line(len(game.record.turns), name, events))
            game.events.append(events)
            self._finish_if_known()
            self.staged = None
            self._bump()
            return events

    def undo(self, turn: int | None = None) -> None:
        """Take back the last turn if it rolled no dice (R: a roll once seen stands).
        `turn`: the number of the last turn as the caller saw it; when another has been
        played or undone since, nothing happens (TableError `stale`), so twenty taps of a
        slow phone's UNDO take back one turn, not twenty. The buttons act on the table as
        it stands now and give none."""
        with self._lock:
            game = self.require()
            check_turn(len(game.record.turns), turn)
            if self.staged is not None:
                self.staged = None
                self._bump()
                return
            if not game.record.turns:
                raise TableError("undo", "there is nothing to undo: no turn has been played")
            last = game.record.turns[-1]
            if "roll" in last:
                raise TableError(
                    "undo",
                    "a dice roll once seen is not undone; if it was entered wrongly, "
                    "correct the roll instead",
                )
            self.store.append(game.id, UNDO)
            self._resume(game.id)

    def correct(self, action: Action, confirm: bool = False, turn: int | None = None) -> None:
        """Replace the last turn (a mistyped roll, another discard order). Changing a roll
        needs `confirm`; the journal keeps what was corrected, and the log says it. `turn`:
        the number of the turn meant, as for `undo`; a correction meant for a turn that is
        no longer the last is refused (`stale`) rather than applied to the next one."""
        with self._lock:
            game = self.require()
            check_turn(len(game.record.turns), turn)
            if not game.record.turns:
                raise TableError("correct", "there is no turn to correct yet")
            *kept, before = game.record.turns
            state = _fold(replace(game.record, turns=kept)).state
            try:
                _, events = engine.apply(state, action)
            except RuleError as error:
                raise TableError(error.rule, error.message) from None
            turn = to_turn(action, events)
            number = len(kept) + 1
            if before.get("roll") != turn.get("roll"):
                if not confirm:
                    raise TableError(
                        "correct",
                        f"changing the roll of turn {number} from {before.get('roll')} to "
                        f"{turn.get('roll')} must be confirmed",
                    )
                note = f"turn {number}: roll corrected from {before.get('roll')} to {turn['roll']}"
            elif before.get("order") != turn.get("order"):
                note = f"turn {number}: discard order changed to {turn.get('order')}"
            else:
                note = f"turn {number}: corrected"
            self.store.append(game.id, CORRECT, turn, note)
            self._resume(game.id)

    def lay_first_railway(self, railway: Sequence[str]) -> None:
        """The first railway as the table shows it, back first (a provisional deal only,
        before the first turn)."""
        with self._lock:
            game = self.require()
            if not self.provisional:
                raise TableError("deal", "this table knows its deal: its railway is dealt")
            if list(railway) == list(game.state.railway):
                return
            try:
                fixed = lay_railway(game.record, _checked(railway))
            except (DealError, cards.CardCodeError) as error:
                raise TableError("deal", str(error)) from None
            self._journal_deal(fixed.setup, game.shown, game.taken_shown)

    def reveal(self, seat: int, codes: Sequence[str]) -> None:
        """Cards the player to move is seen to hold (with the card they draw this turn),
        before they act: Laura's card turned up from the draw pile. Fixes a provisional
        deal; a known deal must already agree."""
        with self._lock:
            game = self.require()
            self._check_seat(game.state, seat)
            if not self.provisional:
                held = game.state.player.hand + game.state.draw[:1]
                if any(code not in held for code in codes):
                    raise TableError("hand", f"{' '.join(codes)} is not what this player holds")
                return
            self._reveal(seat, codes)

    def to_show(self) -> tuple[str, int, int] | None:
        """What a provisional deal still needs to be shown, or None: `("taken", seat, n)`,
        the n cards the last turn's player took from the draw pile (Loose Caboose), or
        `("hand", seat, n)`, a hand at the end of the game."""
        game = self._game
        if not self.provisional or game is None or not game.record.turns:
            return None
        number = len(game.record.turns)
        taken = _taken_from_draw(game.events[-1])
        if taken and number not in game.taken_shown:
            seat = (game.before or game.state).to_move
            return ("taken", seat, len(taken))
        if game.state.over:
            for seat, player in enumerate(game.state.seats):
                if player.hand and seat not in game.shown:
                    return ("hand", seat, len(player.hand))
        return None

    def show_taken(self, codes: Sequence[str]) -> None:
        """The cards the last turn took from the draw pile, as the player shows them (a
        provisional deal): the deal is fixed so that those were the cards taken."""
        with self._lock:
            game = self.require()
            wanted = self.to_show()
            if wanted is None or wanted[0] != "taken":
                raise TableError("deal", "no card taken from the draw pile waits to be shown")
            try:
                fixed = take(game.record, _checked(codes))
            except (DealError, cards.CardCodeError) as error:
                raise TableError("deal", str(error)) from None
            taken = game.taken_shown | {len(game.record.turns)}
            self._journal_deal(fixed.setup, game.shown, taken)
            self._finish_if_known()

    def show_hand(self, seat: int, hand: Sequence[str]) -> None:
        """A hand shown at the end of a game with a provisional deal: the deal is fixed so
        that `seat` ends with exactly these cards, which then count in the score."""
        with self._lock:
            game = self.require()
            state = game.state
            if not self.provisional:
                raise TableError("deal", "this table knows its deal: the hands are known")
            if not state.over:
                raise TableError("turn", "hands are shown once the game is over")
            if not 0 <= seat < len(state.seats):
                raise TableError("turn", f"there is no seat {seat}")
            held = state.seats[seat].hand
            if len(hand) != len(held):
                raise TableError(
                    "hand",
                    f"{state.seats[seat].name} ends with {len(held)} cards, "
                    f"not {len(hand)}: show every card of the hand",
                )
            try:
                codes = tuple(_checked(hand))
                keep = {other: shown for other, shown in game.shown.items() if other != seat}
                fixed = hold(game.record, seat, codes, drawing=False, keep=keep)
            except (DealError, cards.CardCodeError) as error:
                raise TableError("deal", str(error)) from None
            self._journal_deal(fixed.setup, {**game.shown, seat: codes}, game.taken_shown)
            self._finish_if_known()

    def touch(self) -> None:
        """Something the page shows besides the game changed (the turn in progress as the
        camera follows it: `Session`): every open page is woken as by a change of the game,
        so one stream of events carries both. The game itself is not touched."""
        self._bump()

    # --- helpers -------------------------------------------------------------------------

    def _reveal(self, seat: int, codes: Sequence[str]) -> None:
        """Cards laid by `seat` (with the card they draw this turn): on a provisional deal,
        the deal is fixed so that they held them. Nothing changes if they did already."""
        game = self.require()
        if not self.provisional:
            return
        try:
            bare = _checked([code.rstrip("!") for code in codes])
            fixed = hold(game.record, seat, bare, drawing=True, keep=game.shown)
        except (DealError, cards.CardCodeError) as error:
            raise TableError("deal", str(error)) from None
        if fixed.setup != game.record.setup:
            self._journal_deal(fixed.setup, game.shown, game.taken_shown)

    def _finish_if_known(self) -> None:
        """A game over is finished in the store (a restart no longer resumes it) once
        nothing of it waits to be shown: on a provisional deal, the hands at the end."""
        game = self.require()
        if game.state.over and self.to_show() is None:
            self.store.finish(game.id)

    def _journal_deal(
        self, setup: dict[str, Any], shown: dict[int, tuple[str, ...]], taken: set[int]
    ) -> None:
        game = self.require()
        entry = {
            "setup": setup,
            "shown": {str(seat): list(hand) for seat, hand in shown.items()},
            "taken": sorted(taken),
        }
        self.store.append(game.id, DEAL, entry)  # on disk before anyone is told
        staged = self.staged
        self._resume(game.id)
        self.staged = staged

    @staticmethod
    def _check_seat(state: GameState, seat: int) -> None:
        if state.over:
            raise TableError("R-14", "the game is over: start a new one")
        if not 0 <= seat < len(state.seats):
            raise TableError("turn", f"there is no seat {seat}")
        if seat != state.to_move:
            raise TableError(
                "turn", f"it is {state.player.name}'s turn, not {state.seats[seat].name}'s"
            )

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()


def check_turn(played: int, turn: int | None) -> None:
    """Refuse a command meant for another last turn than the table's, `played` turns in
    (None: whatever the table's last turn is)."""
    if turn is None or turn == played:
        return
    now = f"the last turn is now turn {played}" if played else "no turn has been played now"
    raise TableError(
        "stale",
        f"this was meant for turn {turn}, but {now}: nothing was changed; "
        "look at the table again and retry if it is still wanted",
    )


def _taken_from_draw(events: Sequence[Event]) -> list[str]:
    return [e.cards[0] for e in events if e.what == TOOK and e.detail.get("source") == "draw"]


def _checked(codes: Sequence[str]) -> list[str]:
    """The codes, each a card code (raises `cards.CardCodeError` naming one that is not)."""
    for code in codes:
        cards.parse(code)
    return list(codes)
