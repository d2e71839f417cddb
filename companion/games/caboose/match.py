"""The Caboose game being played at the table: the one object the shared writer drives.

A match is a `companion.games.match.KeptMatch`: the game at one instant (`snap`, a
`snapshot.Snapshot`) kept journal first by the Caboose `KEEPING` (snapshot.py), every
action checked with the engine and in the store before it returns, so nobody hears of an
action the store does not hold. When a camera follows the table, the turn at the table as
the players live it is its `follow.Following` (laid cards, dice, the check of the computed
move, the buttons). Every command reaches it through `handle`, from the page, a button or
the camera alike, one at a time under the table's lock (`companion.table.Table`), and the
flow goes one way: only the match keeps the game. A page's command is kept, then the turn
at the table is told of it once (`Following.kept`); a button, an answer or a frame goes to
the turn at the table, which hands back what it decides as commands for the match to keep
(`_drive`). So the two never disagree and nothing has to catch up afterwards.

A table whose deal is provisional (a real table, its deck shuffled by hand) fixes the deal
from what it is shown (`deal.py`): cards laid from a hand, the first railway, the hands
shown at the end. Each fix is journaled like a turn. Cards staged before the dice are
never journaled: nothing is kept until the roll is entered.

Undo follows the table's etiquette: it takes back staged cards first, goes back over
passes and chaos discards, but never past a dice roll, because a roll once seen is not
undone. A mistyped roll is corrected instead, which needs an explicit confirmation and
stays in the journal for the log.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games import match as base
from companion.games.caboose import cards, view
from companion.games.caboose.commands import (
    Act,
    Answer,
    CorrectRoll,
    LayRailway,
    Press,
    Reorder,
    Reveal,
    Seen,
    Show,
    Stage,
    Undo,
    Unstage,
)
from companion.games.caboose.deal import DealError, hold, lay_railway, take
from companion.games.caboose.follow import Following, Steps, idle_status, same_camera
from companion.games.caboose.names import check_names
from companion.games.caboose.record import Record, from_json, record_of, summary, to_action, to_turn
from companion.games.caboose.refusals import TableError, check_turn, undo_refusal
from companion.games.caboose.rules import engine
from companion.games.caboose.rules.dice import counted_alike
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.state import Action, Chaos, Event, Pass, Play, RuleError
from companion.games.caboose.snapshot import (
    CORRECT,
    DEAL,
    KEEPING,
    TURN,
    Snapshot,
    Staged,
    fold,
    with_turn,
)
from companion.games.caboose.tracker import CameraHint
from companion.games.caboose.words import card_words
from companion.games.lobby import Lobby
from companion.games.protocol import Setting, Start
from companion.store import Store

# The page's commands that change the game: kept, then told to the turn at the table.
PAGE_STEPS = (Act, Stage, Unstage, Undo, Reorder, CorrectRoll, Show)


class Match(base.KeptMatch[Snapshot]):
    """One Caboose game at the table (`companion.games.protocol.Match`)."""

    keeping = KEEPING
    press_command, undo_command = Press, Undo

    def __init__(
        self, store: Store, number: int, snap: Snapshot, setting: Setting, resumed: bool = False
    ) -> None:
        """`setting.provisional`: the companion does not know the deal (a real table); it
        is dealt at random and fixed from what the table shows. `resumed`: the game was
        played before (a restart): a turn already applied is checked against the table
        again before the next CONFIRM."""
        snap = replace(snap, id=number, provisional=setting.provisional)
        super().__init__(store, number, snap, setting)
        self.staged: Staged | None = None
        self.revision = 0  # grows with every change a page shows: `handle` compares it
        self.following: Following | None = None  # the turn at the table, when a camera follows
        if setting.camera is not None:
            self.following = Following(self, setting.camera, setting.outputs, resumed)

    @classmethod
    def resume(cls, store: Store, number: int, setting: Setting) -> Match:
        """The store's game `number`, after a restart: back on the same turn, which the
        camera checks against the table again."""
        return cls(store, number, KEEPING.fold(store.kept(number)), setting, resumed=True)

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Over by the rules (the store may still wait for hands shown at the end)."""
        return self.snap.state.over

    def handle(self, command: object) -> bool:
        """Apply one command (`commands.py`); whether anything a page shows changed. A
        refusal (`TableError`) leaves the game and the turn at the table as they were."""
        revision = self.revision
        if isinstance(command, Answer) and command.no_die:
            self._drive(self._following().no_die())
        elif isinstance(command, Answer):
            choice = command.code if command.face is None else command.face
            self._drive(self._following().answer(choice))
        elif isinstance(command, Press):
            self._drive(self._following().on_button(command.button))
        elif isinstance(command, Seen):
            following = self._following()
            following.seen_problems(command.problems)
            self._drive(following.on_events(command.events))
        elif isinstance(command, PAGE_STEPS):
            self._keep(command)
            if self.following is not None:
                self.following.kept(command)
        else:
            raise TableError("request", f"a Caboose table takes no {type(command).__name__}")
        announced = self.following.announce() if self.following is not None else False
        return announced or self.revision != revision

    def view(self, lang: str) -> dict[str, Any]:
        """The view of the table (README, "The view"): the game, and the turn at the table
        when a camera follows it (its `version` is the table's to set)."""
        status = None if self.following is None else self.following.status()
        return self.game_view(lang) | {"session": view.session(status, lang)}

    def game_view(self, lang: str) -> dict[str, Any]:
        return view.build(self.snapshot(), lang)

    def hand(self, seat: int | None = None) -> dict[str, Any] | None:
        """A seat's hidden hand (the mover's if None) and, on its turn, its plays' odds
        (`view.hand`), for that player's phone alone."""
        return view.hand(self.snapshot(), seat)

    def hint(self) -> CameraHint:  # type: ignore[override]
        """What the camera must look for: the railway as the game has it, where its back
        card lay in the last still view the turn at the table was told of, its edition's
        card size, and the pip faces the table's face map counts alike."""
        still = self.following.view if self.following is not None else None
        wheels = self.following.config.pip_wheels if self.following is not None else None
        alike = None if wheels is None else counted_alike(wheels)
        state = self.snap.state
        return CameraHint.of(state.railway, still, state.edition.card_mm, state.caboose, alike)

    def fresh(self, turn: int | None) -> None:
        """A command meant for the last turn as the page saw it (`check_turn`)."""
        check_turn(len(self.snap.record.turns), turn)

    # --- reading -------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The game as it stands, copied: everything a page shows."""
        return replace(self.snap, staged=self.staged)

    def export(self) -> Record:
        """The record so far (a page may save it while the next turn is played: a turn
        kept makes a new record, never changes this one)."""
        return self.snap.record

    def summary(self) -> dict[str, Any]:
        return summary(self.snap.state, self.snap.lines)

    def undo_refusal(self) -> TableError | None:
        """Why an undo now would be refused, or None (`undo_refusal`)."""
        return undo_refusal(self.snap.record.turns, self.staged is not None)

    # --- keeping -------------------------------------------------------------------------

    def actions(self) -> Mapping[type, Callable[[Any], Any]]:
        """The commands that change the game, each with what keeps it and what it answers
        (the turn at the table is sent it back)."""
        return {
            Act: lambda c: self.act(c.seat, c.action),
            Stage: lambda c: self.stage(c.seat, c.cards, c.place),
            Unstage: lambda c: self.unstage(),
            Undo: lambda c: self.undo(c.turn),
            Reorder: lambda c: self.reorder(c.order, c.turn),
            CorrectRoll: lambda c: self.correct_roll(c.roll, c.confirm, c.turn),
            Show: lambda c: self.show(c.cards),
            LayRailway: lambda c: self.lay_first_railway(c.cards),
            Reveal: lambda c: self.reveal(c.seat, c.cards),
        }

    def _keep(self, command: object) -> Any:
        """The one place the game changes: a command checked and journaled before it
        returns, and what keeping it answered."""
        action = self.actions().get(type(command))
        if action is None:
            raise TableError("request", f"a Caboose table takes no {type(command).__name__}")
        return action(command)

    def _drive(self, steps: Steps) -> None:
        """Keep, one at a time, the commands the turn at the table decides: what keeping
        one answered is sent back in, and a refusal is thrown back in (the turn at the
        table says it at the table, or lets it stand as the command's refusal)."""
        answer: Any = None
        refusal: TableError | None = None
        while True:
            try:
                command = steps.send(answer) if refusal is None else steps.throw(refusal)
            except StopIteration:
                return
            answer, refusal = None, None
            try:
                answer = self._keep(command)
            except TableError as error:
                refusal = error

    def _following(self) -> Following:
        if self.following is None:
            raise TableError(
                "session", "no camera follows this table: the turn at the table is not known"
            )
        return self.following

    def _journal(self, kind: str, doc: Any = None, note: str = "") -> None:
        """Keep an entry that changes the game as a whole (an undo, a correction, a deal
        fixed): the game it makes is folded as a restart folds it (`KEEPING`), so that the
        store is told in the same transaction whether the game is finished after it (an
        undo of the last turn opens a finished game again). Staged cards are kept only by a
        deal fixed."""
        read = json.loads(json.dumps(doc))  # as a restart reads it
        after = (
            KEEPING.undone(self.snap) if kind == base.UNDO else KEEPING.step(self.snap, kind, read)
        )
        if note:
            after = replace(after, notes=(*after.notes, note))
        self.keep(after, kind, doc, note)
        if kind != DEAL:
            self.staged = None
        self.revision += 1

    # --- the game's rules at the table ---------------------------------------------------

    def stage(self, seat: int, played: Sequence[str], place: Sequence | None = None) -> Staged:
        """Cards laid at the front before the dice: checked now, so the page can show the
        dice to roll and the odds; nothing is kept until the roll is entered."""
        self.check_seat(seat)
        poses = tuple(place) if place is not None else None
        self._reveal(seat, played)
        state = self.snap.state
        trial = Play(tuple(played), (), place=poses)
        dice = engine.dice_to_roll(state, played)
        # Check everything but the roll by applying the play with a roll of blanks.
        blank = min(state.edition.die_faces)
        try:
            engine.apply(state, replace(trial, roll=(blank,) * dice))
        except RuleError as error:
            raise _ruled(error) from None
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
        try:
            after, events = engine.apply(self.snap.state, action)
        except RuleError as error:
            raise _ruled(error) from None
        turn = to_turn(action, events)
        self.keep(with_turn(self.snap, turn, after, events), TURN, turn)  # on disk first
        self.staged = None
        self.revision += 1
        return events

    def undo(self, turn: int | None = None) -> None:
        """Take back the staged cards, else the last turn, within `undo_refusal`'s limit.
        `turn`: the number of the last turn as the caller saw it; when another has been
        played or undone since, nothing happens (TableError `stale`), so twenty taps of a
        slow phone's UNDO take back one turn, not twenty. The buttons act on the table as
        it stands now and give none."""
        self.fresh(turn)
        refusal = self.undo_refusal()
        if refusal is not None:
            raise refusal
        if self.staged is not None:
            self.unstage()
            return
        self._journal(base.UNDO)

    def last_action(self, turn: int | None) -> Pass | Play | Chaos:
        """The last turn as an action, when it is the turn the caller meant (`fresh`)."""
        self.fresh(turn)
        turns = self.snap.record.turns
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
        game = self.snap
        self.fresh(turn)
        if not game.record.turns:
            raise TableError("correct", "there is no turn to correct yet", key="correct_none")
        *kept, before = game.record.turns
        number = len(kept) + 1
        state = fold(replace(game.record, turns=kept)).state
        try:
            _, events = engine.apply(state, action)
        except RuleError as error:
            raise _ruled(error) from None
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
        game = self.snap
        if not self.snap.provisional:
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
        if not self.snap.provisional:
            held = self.snap.state.player.hand + self.snap.state.draw[:1]
            if any(code not in held for code in codes):
                raise TableError(
                    "hand",
                    f"{' '.join(codes)} is not what this player holds",
                    key="not_held",
                    params={"codes": " ".join(codes)},
                )
            return
        self._reveal(seat, codes)

    def show(self, codes: Sequence[str]) -> None:
        """The cards the deal waits to be shown (`to_show`), shown to the camera or
        entered on the page: those taken from the draw pile, or a hand at the end."""
        wanted = self.snap.to_show
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
        game = self.snap
        wanted = self.snap.to_show
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
        game = self.snap
        state = game.state
        if not self.snap.provisional:
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
        state = self.snap.state
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

    # --- the provisional deal ------------------------------------------------------------

    def _reveal(self, seat: int, codes: Sequence[str]) -> None:
        """Cards laid by `seat` (with the card they draw this turn): on a provisional deal,
        the deal is fixed so that they held them. Nothing changes if they did already."""
        if not self.snap.provisional:
            return
        game = self.snap
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


# --- the game's entries in its `Game` (game.py) ----------------------------------------------


def start(store: Store, wanted: Start, setting: Setting) -> Match:
    """A new game as the start form asks for it (its option is the edition), dealt from
    its seed (a fresh random one when None)."""
    edition = wanted.option
    if edition not in EDITIONS:
        raise TableError(
            "setup",
            f"unknown edition {edition!r}: use one of {EDITIONS}",
            key="unknown_edition",
            params={"edition": str(edition), "editions": ", ".join(EDITIONS)},
        )
    check_names(wanted.names)
    seed = random.SystemRandom().randrange(10**9) if wanted.seed is None else wanted.seed
    try:
        state = engine.deal(edition, list(wanted.names), seed, wanted.variant)
    except RuleError as error:
        raise _ruled(error) from None
    return Match.kept(store, fold(record_of(state)), setting)


def load(store: Store, doc: Mapping[str, Any], setting: Setting) -> Match:
    """The game of a record continued (an import): its names and every turn are checked
    first, leaving the store as it was."""
    try:
        record = from_json(doc)
    except TypeError:  # cards.parse cannot hash a card given as a list or an object
        raise TableError("record", 'a card code must be a string such as "3" or "2x"') from None
    check_names(record.players)
    played = fold(record)  # raises RecordError
    steps = [(TURN, turn) for turn in record.turns]
    return Match.kept(store, played, setting, fold(replace(record, turns=[])), steps)


# The store's game after a restart, back on the same turn.
resume = Match.resume


class SettingUp(Lobby):
    """The table before any game is started, while it is set up (the shared `Lobby`): what
    the camera cannot see is shown already (the markers, the light: a table is set up
    before its first game), and every other command is refused, there being no game."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.camera: tuple[Any, ...] = ()  # the camera's problems (vision/problems.py)

    def handle(self, command: object) -> bool:
        if isinstance(command, Seen):
            if self.setting.camera is None or same_camera(self.camera, command.problems):
                return False  # news for nobody
            self.camera = tuple(command.problems)
            return True
        raise _no_game()

    def view(self, lang: str) -> dict[str, Any]:
        """`{"game": null}` and, when a camera follows the table, the turn at the table:
        a game to start, and what the camera cannot see."""
        status = None if self.setting.camera is None else idle_status(self.camera)
        return {"game": None, "session": view.session(status, lang)}

    def record(self) -> Mapping[str, Any]:
        raise _no_game()


def _no_game() -> TableError:
    """The lobby's refusal as a Caboose table says it: a conflict (409), the table not yet
    in a game."""
    return TableError("game", "no game is being played: start one first", key="no_game_yet")


def idle(setting: Setting) -> SettingUp:
    """The table's match before its first game."""
    return SettingUp(setting)


def hand(match: Match | SettingUp, lang: str, seat: int | None = None) -> dict[str, Any] | None:
    """The game's `hand` entry (`GET /api/hand`, `GET /api/seat/hand`): `seat`'s hidden
    hand (the mover's if None), each card said in `lang` too (a seat's phone lists them
    between its turns), None in the lobby."""
    found = match.hand(seat) if isinstance(match, Match) else None
    if found is None:
        return None
    return found | {"hand": [c | {"said": card_words(c["code"], lang)} for c in found["hand"]]}


def _ruled(error: RuleError) -> TableError:
    """A move the rules refuse, as the table says it."""
    return TableError(error.rule, error.message, key=error.key, params=error.params)


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
