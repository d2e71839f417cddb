"""The Caboose game kept at the table: every accepted action checked and journaled.

A `Ledger` is the game half of the Caboose match (`match.py`): it checks every action with
the engine and writes it to the store before it returns, so nobody hears of an action the
store does not hold. It has no lock and wakes nobody: the shared writer
(`companion.table.Table`) calls it, through the match, under its one lock, and tells the
pages afterwards. A restarted service builds its ledger from the store and is back on the
same turn.

A table whose deal is provisional (a real table, its deck shuffled by hand) fixes the deal
from what it is shown (`deal.py`): cards laid from a hand, the first railway, the
hands shown at the end. Each fix is journaled like a turn.

Undo follows the table's etiquette: it goes back over passes and chaos discards, but never
past a dice roll, because a roll once seen is not undone. A mistyped roll is corrected
instead, which needs an explicit confirmation and stays in the journal for the log.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.deal import DealError, hold, lay_railway, take
from companion.games.caboose.record import (
    Record,
    RecordError,
    from_json,
    initial_state,
    record_of,
    summary,
    to_action,
    to_turn,
)
from companion.games.caboose.rules import engine, geometry
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.state import (
    TOOK,
    Action,
    Chaos,
    Event,
    GameState,
    Pass,
    Play,
    RuleError,
)
from companion.games.caboose.turn_log import turn_line
from companion.games.protocol import Refusal
from companion.store import Kept, Store

GAME_ID = "caboose"  # the registry's id of the Caboose design: the store keeps it per game
# The kinds of the Caboose journal's entries (`Store.append`): a turn, the last one taken
# back, the last one corrected (a mistyped roll, another discard order), a deal fixed by
# what the table showed (`deal.py`).
TURN, UNDO, CORRECT, DEAL = "turn", "undo", "correct", "deal"

# Rules that say "not now" rather than "not allowed": the table's state is in the way (the
# page answers 409 rather than 422).
CONFLICTS = frozenset({"turn", "game", "undo", "correct", "R-14", "session", "stale"})


class TableError(Refusal):
    """A command the Caboose table cannot take (not this player's turn, nothing to undo…):
    nothing was changed. `rule` names the rule when one is broken, as RuleError does, so
    every caller reports both alike; whether it is a conflict follows from the rule unless
    said."""

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        conflict: bool | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        if conflict is None:
            conflict = rule in CONFLICTS
        super().__init__(rule, message, conflict=conflict, key=key, params=params, **extra)


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

    @property
    def undo_refusal(self) -> TableError | None:
        """Why an undo would be refused at this instant (`undo_refusal`), or None."""
        return undo_refusal(self.record.turns, self.staged)


def undo_refusal(turns: Sequence[dict[str, Any]], staged: Staged | None) -> TableError | None:
    """Why an undo would be refused, or None: the one place the undo limit is decided (the
    page's UNDO, the held CONFIRM and the view's greyed button all ask here). Staged cards
    can always be taken back; a turn can, unless it rolled dice, because a roll once seen
    is not undone (a mistyped roll is corrected instead)."""
    if staged is not None:
        return None
    if not turns:
        return TableError(
            "undo", "there is nothing to undo: no turn has been played", key="undo_nothing"
        )
    if "roll" in turns[-1]:
        return TableError(
            "undo",
            "a dice roll once seen is not undone; if it was entered wrongly, "
            "correct the roll instead",
            key="undo_roll",
        )
    return None


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


class Ledger:
    """One Caboose game at the table, as the store keeps it. Called only by its match,
    under the shared table's lock: it needs no lock of its own, and wakes nobody."""

    def __init__(self, store: Store, game_id: int, provisional: bool = False) -> None:
        """The game `game_id` of the store, resumed. `provisional`: the companion does not
        know the deal (a real table); it is dealt at random and fixed from what the table
        shows."""
        self.store = store
        self.provisional = provisional
        self.staged: Staged | None = None
        self.revision = 0  # grows with every change a page shows: the match compares it
        self.game = self._fold(game_id)

    # --- starting ------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        store: Store,
        edition: str,
        names: Sequence[str],
        variant: str | None = None,
        seed: int | str | None = None,
        provisional: bool = False,
    ) -> Ledger:
        """A new game dealt from `seed` (a fresh random one when None), kept in the store."""
        if edition not in EDITIONS:
            raise TableError("setup", f"unknown edition {edition!r}: use one of {EDITIONS}")
        check_names(names)
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        try:
            state = engine.deal(edition, list(names), seed, variant)
        except RuleError as error:
            raise TableError(
                error.rule, error.message, key=error.key, params=error.params
            ) from None
        return cls(store, _begin(store, record_of(state)), provisional)

    @classmethod
    def load(cls, store: Store, record: Record, provisional: bool = False) -> Ledger:
        """Continue the game of a record (its names and every turn are checked first)."""
        check_names(record.players)
        _fold(record)  # raises RecordError, leaving the store as it was
        return cls(store, _begin(store, record), provisional)

    # --- reading -------------------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def state(self) -> GameState:
        return self.game.state

    def snapshot(self, version: int) -> Snapshot:
        """Everything a page shows, copied (the table's `version` is the page's)."""
        game = self.game
        return Snapshot(
            version=version,
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
        """The record so far, a copy (a page may save it while the next turn is played)."""
        return replace(self.game.record, turns=list(self.game.record.turns))

    def summary(self) -> dict[str, Any]:
        return summary(self.game.state, self.game.lines)

    def undo_refusal(self) -> TableError | None:
        """Why an undo now would be refused, or None (`undo_refusal`)."""
        return undo_refusal(self.game.record.turns, self.staged)

    # --- acting --------------------------------------------------------------------------

    def stage(self, seat: int, played: Sequence[str], place: Sequence | None = None) -> Staged:
        """Cards laid at the front before the dice: checked now, so the page can show the
        dice to roll and the odds; nothing is kept until the roll is entered."""
        self.check_seat(seat)
        poses = tuple(place) if place is not None else None
        self._reveal(seat, played)
        state = self.game.state
        trial = Play(tuple(played), (), place=poses)
        dice = 0 if state.player.laura else state.edition.dice_for(tuple(played))
        # Check everything but the roll by applying the play with a roll of blanks.
        blank = min(state.edition.die_faces)
        try:
            engine.apply(state, replace(trial, roll=(blank,) * dice))
        except RuleError as error:
            raise TableError(
                error.rule, error.message, key=error.key, params=error.params
            ) from None
        self.staged = Staged(seat, tuple(played), poses, dice)
        self.revision += 1
        return self.staged

    def unstage(self) -> None:
        if self.staged is not None:
            self.staged = None
            self.revision += 1

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply one whole turn for the player `seat` and keep it."""
        self.check_seat(seat)
        if isinstance(action, Play | Chaos):
            self._reveal(seat, action.cards)
        game = self.game
        name = game.state.player.name
        try:
            state, events = engine.apply(game.state, action)
        except RuleError as error:
            raise TableError(
                error.rule, error.message, key=error.key, params=error.params
            ) from None
        turn = to_turn(action, events)
        self.store.append(game.id, TURN, turn)  # on disk before anyone is told
        game.record.turns.append(turn)
        game.before = game.state
        game.state = state
        game.lines.append(turn_line(len(game.record.turns), name, events))
        game.events.append(events)
        self._finish_if_known()
        self.staged = None
        self.revision += 1
        return events

    def undo(self, turn: int | None = None) -> None:
        """Take back the staged cards, else the last turn, within `undo_refusal`'s limit.
        `turn`: the number of the last turn as the caller saw it; when another has been
        played or undone since, nothing happens (TableError `stale`), so twenty taps of a
        slow phone's UNDO take back one turn, not twenty. The buttons act on the table as
        it stands now and give none."""
        check_turn(len(self.game.record.turns), turn)
        refusal = self.undo_refusal()
        if refusal is not None:
            raise refusal
        if self.staged is not None:
            self.unstage()
            return
        self.store.append(self.game.id, UNDO)
        self._resume()

    def last_action(self, turn: int | None) -> Pass | Play | Chaos:
        """The last turn as an action, when it is the turn the caller meant (`check_turn`)."""
        check_turn(len(self.game.record.turns), turn)
        turns = self.game.record.turns
        if not turns:
            raise TableError("correct", "no turn has been played yet: there is nothing to change")
        return to_action(turns[-1], len(turns))

    def reorder(self, order: Sequence[str], turn: int | None = None) -> None:
        """Another discard order for the last turn, the same roll (no confirmation needed)."""
        last = self.last_action(turn)
        if isinstance(last, Chaos):
            raise TableError("R-7", "a chaos discard has no penalty cards to order", conflict=True)
        self.correct(replace(last, order=tuple(order)), turn=turn)

    def correct_roll(
        self, roll: Sequence[int], confirm: bool = False, turn: int | None = None
    ) -> None:
        """A mistyped roll of the last turn corrected (`correct` asks for the confirmation)."""
        last = self.last_action(turn)
        if not isinstance(last, Play):
            raise TableError("correct", "the last turn rolled no dice: there is no roll to correct")
        self.correct(replace(last, roll=tuple(roll), order=None, drawn=()), confirm, turn)

    def correct(self, action: Action, confirm: bool = False, turn: int | None = None) -> None:
        """Replace the last turn (a mistyped roll, another discard order). Changing a roll
        needs `confirm` (the one place the roll confirmation is decided: refused with
        `needs_confirm`, which the page answers by asking the players); the journal keeps
        what was corrected, and the log says it. `turn`: the number of the turn meant, as
        for `undo`; a correction meant for a turn that is no longer the last is refused
        (`stale`) rather than applied to the next one."""
        game = self.game
        check_turn(len(game.record.turns), turn)
        if not game.record.turns:
            raise TableError("correct", "there is no turn to correct yet")
        *kept, before = game.record.turns
        number = len(kept) + 1
        state = _fold(replace(game.record, turns=kept)).state
        try:
            _, events = engine.apply(state, action)
        except RuleError as error:
            raise TableError(
                error.rule, error.message, key=error.key, params=error.params
            ) from None
        new = to_turn(action, events)
        if before.get("roll") != new.get("roll") and not confirm:
            raise TableError(
                "correct",
                f"changing the roll from {before.get('roll')} to {new.get('roll')} must be "
                "confirmed",
                needs_confirm=True,
                key="confirm_roll",
                params={"before": str(before.get("roll")), "after": str(new.get("roll"))},
            )
        if before.get("roll") != new.get("roll"):
            note = f"turn {number}: roll corrected from {before.get('roll')} to {new['roll']}"
        elif before.get("order") != new.get("order"):
            note = f"turn {number}: discard order changed to {new.get('order')}"
        else:
            note = f"turn {number}: corrected"
        self.store.append(game.id, CORRECT, new, note)
        self._resume()

    def lay_first_railway(self, railway: Sequence[str]) -> None:
        """The first railway as the table shows it, back first (a provisional deal only,
        before the first turn)."""
        game = self.game
        if not self.provisional:
            raise TableError("deal", "this table knows its deal: its railway is dealt")
        if list(railway) == list(game.state.railway):
            return
        try:
            fixed = lay_railway(game.record, _checked(railway))
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        self._journal_deal(fixed.setup, game.shown, game.taken_shown)

    def reveal(self, seat: int, codes: Sequence[str]) -> None:
        """Cards the player to move is seen to hold (with the card they draw this turn),
        before they act: Laura's card turned up from the draw pile. Fixes a provisional
        deal; a known deal must already agree."""
        self.check_seat(seat)
        if not self.provisional:
            held = self.game.state.player.hand + self.game.state.draw[:1]
            if any(code not in held for code in codes):
                raise TableError("hand", f"{' '.join(codes)} is not what this player holds")
            return
        self._reveal(seat, codes)

    def to_show(self) -> tuple[str, int, int] | None:
        """What a provisional deal still needs to be shown, or None: `("taken", seat, n)`,
        the n cards the last turn's player took from the draw pile (Loose Caboose), or
        `("hand", seat, n)`, a hand at the end of the game."""
        game = self.game
        if not self.provisional or not game.record.turns:
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

    def show(self, codes: Sequence[str]) -> None:
        """The cards the deal waits to be shown (`to_show`), shown to the camera or
        entered on the page: those taken from the draw pile, or a hand at the end."""
        wanted = self.to_show()
        if wanted is None:
            raise TableError(
                "deal", "the table is not waiting for any cards to be shown", conflict=True
            )
        if wanted[0] == "taken":
            self.show_taken(codes)
        else:
            self.show_hand(wanted[1], codes)

    def show_taken(self, codes: Sequence[str]) -> None:
        """The cards the last turn took from the draw pile, as the player shows them (a
        provisional deal): the deal is fixed so that those were the cards taken."""
        game = self.game
        wanted = self.to_show()
        if wanted is None or wanted[0] != "taken":
            raise TableError("deal", "no card taken from the draw pile waits to be shown")
        try:
            fixed = take(game.record, _checked(codes))
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        taken = game.taken_shown | {len(game.record.turns)}
        self._journal_deal(fixed.setup, game.shown, taken)
        self._finish_if_known()

    def show_hand(self, seat: int, hand: Sequence[str]) -> None:
        """A hand shown at the end of a game with a provisional deal: the deal is fixed so
        that `seat` ends with exactly these cards, which then count in the score."""
        game = self.game
        state = game.state
        if not self.provisional:
            raise TableError("deal", "this table knows its deal: the hands are known")
        if not state.over:
            raise TableError("turn", "hands are shown once the game is over")
        if not 0 <= seat < len(state.seats):
            raise TableError("turn", f"there is no seat {seat}")
        held = state.seats[seat].hand
        if len(hand) != len(held):
            name = state.seats[seat].name
            raise TableError(
                "hand",
                f"{name} ends with {len(held)} cards, not {len(hand)}: show every card of the hand",
                key="hand_count",
                params={"name": name, "held": len(held), "shown": len(hand)},
            )
        try:
            codes = tuple(_checked(hand))
            keep = {other: shown for other, shown in game.shown.items() if other != seat}
            fixed = hold(game.record, seat, codes, drawing=False, keep=keep)
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        self._journal_deal(fixed.setup, {**game.shown, seat: codes}, game.taken_shown)
        self._finish_if_known()

    def check_seat(self, seat: int) -> None:
        """Refuse `seat` unless it is the player to move: the one place whose turn it is
        is decided, for the page's commands and the camera's alike."""
        state = self.game.state
        if state.over:
            raise TableError("R-14", "the game is over: start a new one", key="game_over_start")
        if not 0 <= seat < len(state.seats):
            raise TableError(
                "turn", f"there is no seat {seat}", key="no_seat", params={"seat": seat}
            )
        if seat != state.to_move:
            name, other = state.player.name, state.seats[seat].name
            raise TableError(
                "turn",
                f"it is {name}'s turn, not {other}'s",
                key="not_your_turn",
                params={"name": name, "other": other},
            )

    # --- helpers -------------------------------------------------------------------------

    def _fold(self, game_id: int) -> _Game:
        """The game `game_id` as the store has it: its record now, and its journal's
        deals and corrections."""
        kept = self.store.kept(game_id)
        game = _fold(record_now(kept))
        game.id = game_id
        game.notes = [e.note for e in kept.journal if e.kind == CORRECT and e.note]
        for entry in kept.journal:
            if entry.kind == DEAL:
                shown = entry.doc.get("shown", {})
                game.shown = {int(seat): tuple(hand) for seat, hand in shown.items()}
                game.taken_shown = set(entry.doc.get("taken", []))
        return game

    def _resume(self) -> None:
        """Read the game again after the journal changed it (an undo, a correction)."""
        self.game = self._fold(self.game.id)
        self.staged = None
        self.revision += 1

    def _reveal(self, seat: int, codes: Sequence[str]) -> None:
        """Cards laid by `seat` (with the card they draw this turn): on a provisional deal,
        the deal is fixed so that they held them. Nothing changes if they did already."""
        if not self.provisional:
            return
        game = self.game
        try:
            bare = _checked([code.rstrip("!") for code in codes])
            fixed = hold(game.record, seat, bare, drawing=True, keep=game.shown)
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        if fixed.setup != game.record.setup:
            self._journal_deal(fixed.setup, game.shown, game.taken_shown)

    def _finish_if_known(self) -> None:
        """A game over is finished in the store (a restart no longer resumes it) once
        nothing of it waits to be shown: on a provisional deal, the hands at the end."""
        if self.game.state.over and self.to_show() is None:
            self.store.finish(self.game.id)

    def _journal_deal(
        self, setup: dict[str, Any], shown: dict[int, tuple[str, ...]], taken: set[int]
    ) -> None:
        entry = {
            "setup": setup,
            "shown": {str(seat): list(hand) for seat, hand in shown.items()},
            "taken": sorted(taken),
        }
        self.store.append(self.game.id, DEAL, entry)  # on disk before anyone is told
        staged = self.staged
        self._resume()
        self.staged = staged


def _begin(store: Store, record: Record) -> int:
    """Keep a new game in the store (which finishes the one left unfinished): its record
    without turns, and each turn as a journal entry."""
    doc = record.as_json()
    turns = doc.pop("turns")
    return store.start(GAME_ID, doc, [(TURN, turn) for turn in turns])


def record_now(kept: Kept) -> Record:
    """A Caboose game's record now: its journal folded over the record it started from
    (a turn added, an undo taking the last one back, a correction replacing it, a deal
    fixing the setup). A game of another design, or an entry no Caboose game writes, is a
    RecordError."""
    if kept.game != GAME_ID:
        raise RecordError(
            0, "store", f"game {kept.number} is one of {kept.game!r}, not of the Caboose design"
        )
    doc = dict(kept.record)
    turns: list[dict[str, Any]] = []
    for entry in kept.journal:
        if entry.kind == TURN:
            turns.append(entry.doc)
        elif entry.kind == UNDO:
            turns.pop()
        elif entry.kind == CORRECT:
            turns[-1] = entry.doc
        elif entry.kind == DEAL:
            doc["setup"] = entry.doc["setup"]
        else:
            raise RecordError(0, "store", f"game {kept.number} holds an entry {entry.kind!r}")
    doc["turns"] = turns
    return from_json(doc)


def stored_record(store: Store, number: int) -> Record:
    """Game `number` of the store as its record now: what a restart resumes, what a
    killed demo left."""
    return record_now(store.kept(number))


def _deal_refused(error: DealError | cards.CardCodeError) -> TableError:
    """A deal the table cannot fix as shown, with a DealError's kind and parameters."""
    if isinstance(error, DealError):
        return TableError("deal", str(error), key=error.key, params=error.params)
    return TableError("deal", str(error))


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
        key="stale" if played else "stale_none",
        params={"turn": turn, "played": played},
    )


def _taken_from_draw(events: Sequence[Event]) -> list[str]:
    return [e.cards[0] for e in events if e.what == TOOK and e.detail.get("source") == "draw"]


def _checked(codes: Sequence[str]) -> list[str]:
    """The codes, each a card code (raises `cards.CardCodeError` naming one that is not)."""
    for code in codes:
        cards.parse(code)
    return list(codes)
