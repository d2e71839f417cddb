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

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.deal import DealError, hold, lay_railway, take
from companion.games.caboose.names import check_names
from companion.games.caboose.record import Record, record_of, summary, to_action, to_turn
from companion.games.caboose.refusals import TableError, check_turn, undo_refusal
from companion.games.caboose.rules import engine
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.state import (
    Action,
    Chaos,
    Event,
    GameState,
    Pass,
    Play,
    RuleError,
)
from companion.games.caboose.snapshot import (
    CORRECT,
    DEAL,
    KEEPING,
    TURN,
    Snapshot,
    Staged,
    fold,
    to_show,
)
from companion.games.caboose.turn_log import turn_line
from companion.games.match import UNDO
from companion.store import Store

__all__ = ["Ledger", "TableError"]  # the ledger's refusals, where its readers expect them


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
        self.game = replace(KEEPING.fold(store.kept(game_id)), id=game_id, provisional=provisional)

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
            raise TableError(
                "setup",
                f"unknown edition {edition!r}: use one of {EDITIONS}",
                key="unknown_edition",
                params={"edition": str(edition), "editions": ", ".join(EDITIONS)},
            )
        check_names(names)
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        try:
            state = engine.deal(edition, list(names), seed, variant)
        except RuleError as error:
            raise TableError(
                error.rule, error.message, key=error.key, params=error.params
            ) from None
        return cls(store, KEEPING.keep(store, fold(record_of(state))), provisional)

    @classmethod
    def load(cls, store: Store, record: Record, provisional: bool = False) -> Ledger:
        """Continue the game of a record (its names and every turn are checked first)."""
        check_names(record.players)
        fold(record)  # raises RecordError, leaving the store as it was
        opening = fold(replace(record, turns=[]))
        return cls(
            store, KEEPING.keep(store, opening, [(TURN, t) for t in record.turns]), provisional
        )

    # --- reading -------------------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def state(self) -> GameState:
        return self.game.state

    def snapshot(self) -> Snapshot:
        """The game as it stands, copied: everything a page shows."""
        game = self.game
        return Snapshot(
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
        return undo_refusal(self.game.record.turns, self.staged is not None)

    # --- acting --------------------------------------------------------------------------

    def stage(self, seat: int, played: Sequence[str], place: Sequence | None = None) -> Staged:
        """Cards laid at the front before the dice: checked now, so the page can show the
        dice to roll and the odds; nothing is kept until the roll is entered."""
        self.check_seat(seat)
        poses = tuple(place) if place is not None else None
        self._reveal(seat, played)
        state = self.game.state
        trial = Play(tuple(played), (), place=poses)
        dice = engine.dice_to_roll(state, played)
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
        turns = [*game.record.turns, turn]
        after = replace(
            game,
            record=replace(game.record, turns=turns),
            before=game.state,
            state=state,
            lines=[*game.lines, turn_line(len(turns), name, events)],
            events=[*game.events, events],
        )
        # on disk before anyone is told
        self.store.append(game.id, TURN, turn, finished=KEEPING.over(after))
        self.game = after
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
        self._journal(UNDO)

    def last_action(self, turn: int | None) -> Pass | Play | Chaos:
        """The last turn as an action, when it is the turn the caller meant (`check_turn`)."""
        check_turn(len(self.game.record.turns), turn)
        turns = self.game.record.turns
        if not turns:
            raise TableError(
                "correct",
                "no turn has been played yet: there is nothing to change",
                key="correct_nothing",
            )
        return to_action(turns[-1], len(turns))

    def reorder(self, order: Sequence[str], turn: int | None = None) -> None:
        """Another discard order for the last turn, the same roll (no confirmation needed)."""
        last = self.last_action(turn)
        if isinstance(last, Chaos):
            raise TableError(
                "R-7",
                "a chaos discard has no penalty cards to order",
                conflict=True,
                key="chaos_no_order",
            )
        self.correct(replace(last, order=tuple(order)), turn=turn)

    def correct_roll(
        self, roll: Sequence[int], confirm: bool = False, turn: int | None = None
    ) -> None:
        """A mistyped roll of the last turn corrected (`correct` asks for the confirmation)."""
        last = self.last_action(turn)
        if not isinstance(last, Play):
            raise TableError(
                "correct",
                "the last turn rolled no dice: there is no roll to correct",
                key="correct_no_roll",
            )
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
            raise TableError("correct", "there is no turn to correct yet", key="correct_none")
        *kept, before = game.record.turns
        number = len(kept) + 1
        state = fold(replace(game.record, turns=kept)).state
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
        self._journal(CORRECT, new, note)

    def lay_first_railway(self, railway: Sequence[str]) -> None:
        """The first railway as the table shows it, back first (a provisional deal only,
        before the first turn)."""
        game = self.game
        if not self.provisional:
            raise TableError(
                "deal", "this table knows its deal: its railway is dealt", key="deal_known_railway"
            )
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
                raise TableError(
                    "hand",
                    f"{' '.join(codes)} is not what this player holds",
                    key="not_held",
                    params={"codes": " ".join(codes)},
                )
            return
        self._reveal(seat, codes)

    def to_show(self) -> tuple[str, int, int] | None:
        """What the provisional deal still needs to be shown (`snapshot.to_show`)."""
        return to_show(self.game)

    def show(self, codes: Sequence[str]) -> None:
        """The cards the deal waits to be shown (`to_show`), shown to the camera or
        entered on the page: those taken from the draw pile, or a hand at the end."""
        wanted = self.to_show()
        if wanted is None:
            raise TableError(
                "deal",
                "the table is not waiting for any cards to be shown",
                conflict=True,
                key="show_nothing",
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
            raise TableError(
                "deal", "no card taken from the draw pile waits to be shown", key="show_no_taken"
            )
        try:
            fixed = take(game.record, _checked(codes))
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        taken = game.taken_shown | {len(game.record.turns)}
        self._journal_deal(fixed.setup, game.shown, taken)

    def show_hand(self, seat: int, hand: Sequence[str]) -> None:
        """A hand shown at the end of a game with a provisional deal: the deal is fixed so
        that `seat` ends with exactly these cards, which then count in the score."""
        game = self.game
        state = game.state
        if not self.provisional:
            raise TableError(
                "deal", "this table knows its deal: the hands are known", key="deal_known_hands"
            )
        if not state.over:
            raise TableError(
                "turn", "hands are shown once the game is over", key="hands_after_game"
            )
        if not 0 <= seat < len(state.seats):
            raise TableError(
                "turn", f"there is no seat {seat}", key="no_seat", params={"seat": seat}
            )
        held = state.seats[seat].hand
        if len(hand) != len(held):
            name = state.seats[seat].name
            raise TableError(
                "hand",
                f"{name} ends with {len(held)} cards, not {len(hand)}: show every card of the hand",
                key="hand_count",
                # `n`: the page says "1 carta" with the word's `_one` form
                params={"name": name, "held": len(held), "shown": len(hand), "n": len(held)},
            )
        try:
            codes = tuple(_checked(hand))
            keep = {other: shown for other, shown in game.shown.items() if other != seat}
            fixed = hold(game.record, seat, codes, drawing=False, keep=keep)
        except (DealError, cards.CardCodeError) as error:
            raise _deal_refused(error) from None
        self._journal_deal(fixed.setup, {**game.shown, seat: codes}, game.taken_shown)

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

    def _journal(self, kind: str, doc: Any = None, note: str = "") -> None:
        """Keep an entry that changes the game as a whole (an undo, a correction, a deal
        fixed): the game it makes is folded first, from the store's journal and this entry,
        so that the store is told in the same transaction whether the game is finished
        after it (an undo of the last turn opens a finished game again); then it is the
        ledger's. Staged cards are kept only by a deal fixed."""
        read = json.loads(json.dumps(doc))  # as a restart reads it
        after = KEEPING.undone(self.game) if kind == UNDO else KEEPING.step(self.game, kind, read)
        if note:
            after = replace(after, notes=[*after.notes, note])
        self.store.append(self.game.id, kind, doc, note, finished=KEEPING.over(after))
        self.game = after
        if kind != DEAL:
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

    def _journal_deal(
        self, setup: dict[str, Any], shown: dict[int, tuple[str, ...]], taken: set[int]
    ) -> None:
        entry = {
            "setup": setup,
            "shown": {str(seat): list(hand) for seat, hand in shown.items()},
            "taken": sorted(taken),
        }
        self._journal(DEAL, entry)  # on disk before anyone is told


def _deal_refused(error: DealError | cards.CardCodeError) -> TableError:
    """A deal the table cannot fix as shown, with a DealError's kind and parameters."""
    if isinstance(error, DealError):
        return TableError("deal", str(error), key=error.key, params=error.params)
    return TableError("deal", str(error))


def _checked(codes: Sequence[str]) -> list[str]:
    """The codes, each a card code (raises `cards.CardCodeError` naming one that is not)."""
    for code in codes:
        cards.parse(code)
    return list(codes)
