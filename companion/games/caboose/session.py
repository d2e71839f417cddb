"""The flow of a turn at the table: what the camera saw, the buttons and the page, matched
against what the engine expects next.

The session is the one place that knows the order of a turn as the players live it:

1. the player to move lays cards at the front (the camera sees them: they are staged, with
   their placement checked; an illegal placement is announced and buzzed, and nothing is
   applied until it is fixed), or shows chaos cards in the marked zone, or presses PASS;
2. the dice settle: their wheels are the roll (in batches of `dice_per_roll` when a play
   rolls more dice than the table has) and the whole turn goes to `Ledger.act`, which
   journals it before anyone is told;
3. the page shows the computed move; the players move the caboose and take the penalty
   cards from the back; the camera checks that the table now shows what the engine
   computed, and says what is still wrong;
4. CONFIRM (accepted only once the camera agrees) closes the turn. Holding CONFIRM is UNDO,
   with the table's own limit: never past a dice roll.

What a camera cannot see comes from the engine's knowledge of the dealt game (the hands,
the card drawn) or from the page. The page's commands and the camera's go through the same
match (`match.py`), one at a time: after a page command changed the ledger, the match
tells the session in the same step (`page_acted`, `page_staged`…), so it never has to
catch up. Where the camera is unsure of a card (low confidence, or a code not
in the hand), the session asks the players to choose instead of guessing (`answer`).

A restarted service has lost only this flow, never an accepted action: it resumes from the
table and checks the table again before the next CONFIRM.

Everything the session says is a `Message`, a key of `MESSAGES` and its parameters, not a
sentence: `status` gives the English (what the API has always carried) and the key, so the
page says it in its own language (companion/games/caboose/words.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from companion.games.caboose import cards
from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.state import DERAILED, Chaos, GameState, Pass, Play
from companion.games.caboose.table import Ledger, TableError
from companion.games.caboose.tracker import (
    CARDS_LAID,
    CARDS_LIFTED,
    CARDS_SHOWN,
    DICE_SETTLED,
    RAILWAY_CHANGED,
    TABLE_SEEN,
    TableEvent,
    TableView,
)
from companion.pose import Pose

if TYPE_CHECKING:
    from companion.games.caboose.vision.observation import SeenCard, SeenDie
    from companion.games.caboose.vision.problems import Problem

# The buttons and the LED statuses, as hw.controls names them (kept equal by a test; the
# core does not import hardware code).
PASS, CONFIRM, UNDO = "pass", "confirm", "undo"
LED_WAITING, LED_NEEDS_CONFIRMATION, LED_ERROR = "waiting", "needs-confirmation", "error"

# Phases of a turn.
WAITING = "waiting"  # for the player to move: lay cards, show chaos cards, or PASS
STAGED = "staged"  # cards laid and legal: waiting for the dice
ILLEGAL = "illegal"  # cards laid where they cannot go: waiting for them to be fixed
ASKING = "asking"  # the camera is unsure of a card: the players choose
CHECKING = "checking"  # turn applied: waiting for the table to match it, then CONFIRM
OVER = "over"

# What the session says, in English. The page's other languages have the same keys in
# words.py (a test keeps them complete); a count that changes the words has a key of its
# own per form (`roll_one`, `roll`), as the page's own words do.
MESSAGES: dict[str, str] = {
    "no_game": "start a game on the page",
    "to_move": "{name} to move: lay cards at the front, show chaos cards, or press PASS",
    "roll_one": "{name}: roll 1 die",
    "roll": "{name}: roll {n} dice",
    "confirm": "the table shows the computed move: press CONFIRM",
    "over": "the game is over",
    "show_taken_one": "{name}: show the card taken from the draw pile in the marked zone",
    "show_taken": "{name}: show the {n} cards taken from the draw pile in the marked zone",
    "show_hand_one": "game over: {name}, show your hand (card) in the marked zone",
    "show_hand": "game over: {name}, show your hand ({n} cards) in the marked zone",
    "ask_unknown": "card {n} laid: the camera reads {code} but is not in the hand; "
    "which card is it?",
    "ask_unsure": "card {n} laid: the camera reads {code} but is unsure ({percent}%); "
    "which card is it?",
    "railway_differs": "the railway does not look as the game has it: it should read {want} "
    "from the back, the camera sees {seen}",
    "cannot_play": "{cards} cannot be played so: {detail}",
    "pip_dice": "a pip die was rolled but the table has no face map for pip dice "
    "(pip_wheels in the config): roll the game's own dice",
    "die_face": "a die shows {face} wheels: these dice show {faces}",
    "too_many_dice_one": "{n} dice were rolled but 1 is wanted: roll 1",
    "too_many_dice": "{n} dice were rolled but {left} are wanted: roll {left}",
    "pass_laid": "cards are laid at the front: take them back to pass",
    "pass_not_now": "PASS is for the player to move, before anything is laid",
    "not_yet": "not yet: {why}",
    "not_seen": "the camera has not seen the table still yet",
    "take_one": "take 1 more card from the back of the railway",
    "take": "take {n} more cards from the back of the railway",
    "railway_should": "the railway should read {want} from the back; the camera sees {seen}",
    "railway_unseen": "the railway should read {want} from the back; the camera sees none",
    "caboose_unseen": "the caboose belongs on card {n} from the back ({code}); "
    "the camera sees it nowhere",
    "caboose_elsewhere": "the caboose belongs on card {n} from the back ({code}); "
    "the camera sees it on card {seen}",
    "undo_nothing": "there is nothing to undo: no turn has been played",
    "undo_roll": "a dice roll once seen is not undone; if it was entered wrongly, "
    "correct the roll instead",
    "refused": "{detail}",
}

# A share the camera gives in percent (how much of the table a hand covers) changes with
# every frame while a hand moves; only a change of this many points is news to the pages.
CAMERA_PERCENT_STEP = 10.0


class Outputs(Protocol):
    """What the session drives besides the page: hw.controls.Controls fits."""

    def show(self, status: str) -> None: ...

    def derailed(self) -> None: ...

    def illegal(self) -> None: ...


@dataclass(frozen=True)
class SessionConfig:
    """`unsure_below`: a card matched with less confidence is asked about, not guessed.
    `pip_wheels`: R-6, the wheels a standard pip die's face stands for (None: only the
    edition's own wheel dice are read). `dice_per_roll`: how many dice lie on the table;
    a play that rolls more is rolled again for the rest."""

    unsure_below: float = 0.25
    pip_wheels: Mapping[int, int] | None = None
    dice_per_roll: int = 4


@dataclass(frozen=True)
class Message:
    """Something the session says, kept as its key in `MESSAGES` and its parameters rather
    than as English, so that each page can say it in its own language. A parameter may be a
    Message itself: a CONFIRM refused says why in the words of the mismatch."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        params = {
            name: value.as_json() if isinstance(value, Message) else value
            for name, value in self.params.items()
        }
        return {"key": self.key, "params": params}

    @property
    def text(self) -> str:
        """In English, as the API gives it."""
        return say(MESSAGES, self.as_json())


def say(words: Mapping[str, str], said: Mapping[str, Any]) -> str:
    """A message in JSON (`Message.as_json`) in the language of `words`, a table with every
    key of `MESSAGES`: a message among the parameters is said first, in the same words. A
    refusal among them (`_refusal`) whose key the words do not know is said in the English
    of its `message`."""
    params = {
        name: say(words, value) if isinstance(value, Mapping) else value
        for name, value in said["params"].items()
    }
    template = words.get(said["key"])
    if template is None and "message" in params:
        return params["message"]
    return words[said["key"]].format_map(params)


def _said(message: Message | None) -> dict[str, Any] | None:
    return None if message is None else message.as_json()


def _text(message: Message | None) -> str | None:
    return None if message is None else message.text


def _refused(error: TableError) -> Message:
    """A refusal by the table or the engine, after a lead-in in the page's language."""
    return Message("refused", {"detail": _refusal(error)})


def _refusal(error: TableError) -> Message | str:
    """The words of a refusal: its key and parameters when it has them, with its English
    `message`, what the page says when its words do not know the key (words.REFUSALS); the
    English alone when it has no key."""
    if error.key is None:
        return error.message
    return Message(error.key, {**error.params, "message": error.message})


@dataclass(frozen=True)
class Question:
    """A card the camera is unsure of: the players pick what it is among `options`."""

    prompt: Message
    options: tuple[str, ...]
    card: int  # which laid card (0: the first laid)


@dataclass
class _Turn:
    """The scratch of the turn in progress (lost on a restart, by design: nothing in it
    has been accepted yet)."""

    laid: tuple[SeenCard, ...] = ()
    codes: tuple[str, ...] = ()  # the laid cards' codes as decided (camera or players)
    chosen: dict[int, str] = field(default_factory=dict)  # answers, by laid card
    place: tuple[Pose, ...] | None = None
    dice: int = 0
    roll: list[int] = field(default_factory=list)


def _turn_kind(turn: Mapping[str, Any]) -> str:
    return "play" if "play" in turn else "pass" if "pass" in turn else "chaos"


class Session:
    """One game's turn flow at a table a camera follows: the half of the Caboose match
    (`match.py`) that turns table events and buttons into actions on its ledger, and
    follows what the page did to the ledger. The match calls it under the shared table's
    lock, one command at a time: it needs no lock of its own."""

    def __init__(
        self,
        ledger: Ledger,
        config: SessionConfig | None = None,
        outputs: Outputs | None = None,
        resumed: bool = False,
    ) -> None:
        """`resumed`: the game was played before this flow began (a restarted service): a
        turn already applied is checked against the table again before the next CONFIRM."""
        self.ledger = ledger
        self.config = config or SessionConfig()
        self.outputs = outputs
        self.version = 0  # grows when what `status` shows changes
        self.phase = WAITING
        self.problem: Message | None = None  # announced, blocks what it names until fixed
        self.mismatch: Message | None = None  # CHECKING: what the table still shows wrongly
        self.question: Question | None = None
        self.camera: tuple[Problem, ...] = ()  # what the camera could not see just now
        self.view: TableView | None = None
        self._turn = _Turn()
        game = ledger.game
        last = game.record.turns[-1] if game.record.turns else None
        if game.state.over and not resumed:
            self._reset(OVER)
        elif resumed and last is not None and _turn_kind(last) != "chaos":
            self._reset(CHECKING)  # the table is checked again before CONFIRM
        else:
            self._reset(WAITING)
        self._announced = self._showing()

    # --- inputs --------------------------------------------------------------------------

    def on_events(self, events: Sequence[TableEvent]) -> None:
        """Events of a table that has just become still (from the tracker)."""
        for event in events:
            self.view = event.view
            self._on_event(event)

    def on_button(self, button: str) -> None:
        """PASS, CONFIRM or UNDO (held CONFIRM), debounced by hw.controls."""
        if button == PASS:
            self._pass()
        elif button == CONFIRM:
            self._confirm()
        elif button == UNDO:
            self._undo()
        else:
            raise TableError("button", f"unknown button {button!r}")

    def answer(self, code: str) -> None:
        """The players' choice for the card the camera was unsure of."""
        question = self.question
        if self.phase != ASKING or question is None:
            raise TableError("session", "there is no question to answer", key="no_question")
        if code not in question.options:
            options = ", ".join(question.options)
            raise TableError(
                "answer", f"choose one of {options}", key="choose_one", params={"options": options}
            )
        self._turn.chosen[question.card] = code
        self.question = None
        self.phase = WAITING
        self._consider_laid(self._turn.laid)

    def seen_problems(self, problems: Sequence[Problem]) -> None:
        """What the camera could not see in the last frame: shown, never acted on. Only news
        counts (`same_camera`): a hand moving over the table changes its share of it on
        every frame, and each change sends every open page a whole new view. Until then
        `camera` keeps the words last shown, so the pages and `status` agree."""
        problems = tuple(problems)
        if not same_camera(self.camera, problems):
            self.camera = problems

    # --- what the page did to the ledger (the match tells, in the same command) ----------

    def page_acted(self, action: Play | Pass | Chaos) -> None:
        """The page played a whole turn: as after the camera's own, the table is checked
        against the computed move before CONFIRM, but for a chaos discard."""
        if isinstance(action, Chaos):
            self._reset(OVER if self._state().over else WAITING)
        else:
            self._reset(CHECKING)

    def page_staged(self) -> None:
        """The page staged cards: the dice that settle next are theirs."""
        staged = self.ledger.staged
        if staged is not None:
            self._turn = _Turn(codes=staged.cards, place=staged.place, dice=staged.dice)
            self.phase = STAGED
            self.problem = None

    def page_undid(self) -> None:
        """The page took back staged cards or a turn: the player to move starts again."""
        self._reset(OVER if self._state().over else WAITING)

    def page_corrected(self) -> None:
        """The page corrected the last turn: a move being checked is checked anew."""
        if self.phase == CHECKING:
            self._check()

    # --- reading -------------------------------------------------------------------------

    def announce(self) -> bool:
        """Light the LED (each time: hw.controls keeps a status it already shows), and say
        whether what `status` shows changed since it was last announced; if so `version`
        grows, and the table wakes the pages."""
        if self.outputs is not None:
            self.outputs.show(self.led())
        showing = self._showing()
        if showing == self._announced:
            return False
        self._announced = showing
        self.version += 1
        return True

    def led(self) -> str:
        """The status LED: an error while a problem stands, needs-confirmation while a
        move or a question waits for the players, else waiting."""
        if self.problem is not None:
            return LED_ERROR
        if self.phase in (CHECKING, ASKING):
            return LED_NEEDS_CONFIRMATION
        return LED_WAITING

    def status(self) -> dict[str, Any]:
        """What the page shows of the turn in progress, as JSON."""
        return self._showing() | {"version": self.version}

    def _showing(self) -> dict[str, Any]:
        """`status` but its version: what an announcement compares with the last one."""
        turn = self._turn
        message = self._message()
        prompt = None if self.question is None else self.question.prompt
        return {
            "phase": self.phase,
            "led": self.led(),
            "message": message.text,
            "problem": _text(self.problem),
            "mismatch": _text(self.mismatch),
            "question": None
            if self.question is None
            else {
                "prompt": self.question.prompt.text,
                "options": list(self.question.options),
                "card": self.question.card,
            },
            "laid": list(turn.codes),
            "roll": {"needed": turn.dice, "seen": list(turn.roll)}
            if self.phase == STAGED
            else None,
            "camera": [problem.text() for problem in self.camera],
            # the same words as keys and parameters, for the page to say in its language
            "said": {
                "message": message.as_json(),
                "problem": _said(self.problem),
                "mismatch": _said(self.mismatch),
                "prompt": _said(prompt),
                "camera": [problem.as_json() for problem in self.camera],
            },
        }

    # --- the turn ------------------------------------------------------------------------

    def _state(self) -> GameState:
        return self.ledger.state

    def _on_event(self, event: TableEvent) -> None:
        if event.what == CARDS_SHOWN and self.ledger.to_show() is not None:
            self._shown(event.cards)  # what a provisional deal waits for, in any phase
            return
        if self.phase == CHECKING:
            self._check()
            return
        if self.phase == OVER:
            return
        if event.what in (TABLE_SEEN, CARDS_LAID, CARDS_LIFTED, RAILWAY_CHANGED) or (
            self.phase == ILLEGAL and event.what != DICE_SETTLED
        ):
            self._railway_seen(event.view)
        elif event.what == DICE_SETTLED:
            self._dice(event.dice)
        elif event.what == CARDS_SHOWN:
            self._shown(event.cards)

    def _railway_seen(self, view: TableView) -> None:
        """The railway changed while the player is to move: cards beyond the engine's
        railway are the cards being laid."""
        state = self._state()
        seen = view.railway
        want = state.railway
        game = self.ledger.game
        if self.ledger.provisional and not game.record.turns:
            first = tuple(card.code for card in seen[: len(want)])
            if len(first) == len(want) and first != want:
                try:  # the first railway dealt at the table tells the companion its cards
                    self.ledger.lay_first_railway(first)
                except TableError as error:
                    self.problem = _refused(error)
                    self._signal_illegal()
                    return
                state = self._state()
                want = state.railway
        if len(seen) < len(want) or not all(
            _alike(w, s.code) for w, s in zip(want, seen, strict=False)
        ):
            self.problem = Message(
                "railway_differs", {"want": " ".join(want), "seen": " ".join(view.codes)}
            )
            self._signal_illegal()
            return
        if self.problem is not None and self.phase != ILLEGAL:
            self.problem = None
        self._consider_laid(seen[len(want) :])

    def _consider_laid(self, laid: tuple[SeenCard, ...]) -> None:
        state = self._state()
        if not laid:
            self.ledger.unstage()
            self._reset(WAITING)
            return
        if laid != self._turn.laid:
            self._turn = _Turn(laid=laid, chosen=self._turn.chosen if self._same(laid) else {})
        provisional = self.ledger.provisional
        hand = list(state.player.hand + state.draw[:1])
        if provisional:
            # The deal is not known: what is laid is what the player held (the table fixes
            # its deal on staging), any card of the deck, as often as it is laid; only a
            # card the camera is unsure of is asked about.
            hand = sorted({code for code in state.edition.deck if not cards.is_chaos(code)})
        codes: list[str] = []
        for index, card in enumerate(laid):
            code = self._turn.chosen.get(index)
            if code is None:
                held = next((h for h in hand if _alike(h, card.code)), None)
                if held is None or card.confidence < self.config.unsure_below:
                    self._ask(index, card, hand, held is None)
                    return
                code = held
            if code in hand and not provisional:
                hand.remove(code)
            codes.append(code)
        self._turn.codes = tuple(codes)
        self._stage(state, laid)

    def _same(self, laid: tuple[SeenCard, ...]) -> bool:
        """Whether the laid cards are the ones asked about (answers stay with them)."""
        before = self._turn.laid
        return len(before) == len(laid) and all(
            math.dist(a.pose[:2], b.pose[:2]) < 10.0 for a, b in zip(before, laid, strict=True)
        )

    def _ask(self, index: int, card: SeenCard, hand: list[str], unknown: bool) -> None:
        options = tuple(dict.fromkeys(c for c in hand if not cards.is_chaos(c)))
        said = {"n": index + 1, "code": card.code}
        if unknown:
            prompt = Message("ask_unknown", said)
        else:
            prompt = Message("ask_unsure", said | {"percent": round(card.confidence * 100)})
        self.question = Question(prompt, options, index)
        self.phase = ASKING

    def _stage(self, state: GameState, laid: tuple[SeenCard, ...]) -> None:
        turn = self._turn
        place = _engine_poses(state, self.view, laid) if self.view is not None else None
        try:
            staged = self.ledger.stage(state.to_move, turn.codes, place)
        except TableError as error:
            self.ledger.unstage()
            self.phase = ILLEGAL
            self.problem = Message(
                "cannot_play", {"cards": " ".join(turn.codes), "detail": _refusal(error)}
            )
            self._signal_illegal()
            return
        self.problem = None
        turn.place = staged.place
        turn.dice = staged.dice
        turn.roll = []
        self.phase = STAGED
        if staged.dice == 0:  # Laura moves by her card's value: no dice to wait for
            self._play()

    def _dice(self, dice: tuple[SeenDie, ...]) -> None:
        if self.phase != STAGED:
            return
        turn = self._turn
        wheels: list[int] = []
        state = self._state()
        faces = set(state.edition.die_faces)
        for die in dice:
            if die.kind == "pips":
                if self.config.pip_wheels is None or die.face not in self.config.pip_wheels:
                    self.problem = Message("pip_dice")
                    self._signal_illegal()
                    return
                wheels.append(self.config.pip_wheels[die.face])
            elif die.face in faces:
                wheels.append(die.face)
            else:
                self.problem = Message("die_face", {"face": die.face, "faces": sorted(faces)})
                self._signal_illegal()
                return
        left = turn.dice - len(turn.roll)
        if len(wheels) > left:
            key = "too_many_dice_one" if left == 1 else "too_many_dice"
            self.problem = Message(key, {"n": len(wheels), "left": left})
            self._signal_illegal()
            return
        self.problem = None
        turn.roll += wheels
        if len(turn.roll) == turn.dice:
            self._play()

    def _play(self) -> None:
        state = self._state()
        turn = self._turn
        action = Play(turn.codes, tuple(turn.roll), place=turn.place)
        self._act(state, action)

    def _shown(self, shown: tuple[SeenCard, ...]) -> None:
        wanted = self.ledger.to_show()
        if wanted is not None and shown:
            codes = [card.code for card in shown]
            try:  # cards taken from the draw pile, or a hand at the end
                if wanted[0] == "taken":
                    self.ledger.show_taken(codes)
                else:
                    self.ledger.show_hand(wanted[1], codes)
            except TableError as error:
                self.problem = _refused(error)
                self._signal_illegal()
                return
            self.problem = None
            return
        if self.phase != WAITING:
            return
        state = self._state()
        codes = tuple(card.code for card in shown)
        if state.player.laura and self.ledger.provisional and len(codes) == 1:
            # Laura's card, turned up from the draw pile: on a provisional deal the table
            # learns it, and the rules then say whether she plays it or passes.
            try:
                self.ledger.reveal(state.to_move, codes)
            except TableError as error:
                self.problem = _refused(error)
                self._signal_illegal()
                return
            if cards.is_chaos(codes[0]):  # shown in the zone: discarded, as anyone's
                self._act(self.ledger.game.state, Chaos(codes))
            return
        if not codes or not all(cards.is_chaos(code) for code in codes):
            return  # a hand shown at the end, a card put down: nothing to act on
        self._act(state, Chaos(codes))

    def _pass(self) -> None:
        state = self._state()
        if self.phase not in (WAITING, ILLEGAL):
            self.problem = Message(
                "pass_laid" if self.phase in (STAGED, ASKING) else "pass_not_now"
            )
            self._signal_illegal()
            return
        self._act(state, Pass())

    def _act(self, state: GameState, action: Play | Pass | Chaos) -> None:
        try:
            events = self.ledger.act(state.to_move, action)
        except TableError as error:
            self.problem = _refused(error)
            self._turn.roll = []  # the dice are thrown again once it is fixed
            self._signal_illegal()
            return
        self.problem = None
        if any(event.what == DERAILED for event in events) and self.outputs is not None:
            self.outputs.derailed()
        if isinstance(action, Chaos):
            self._reset(OVER if self.ledger.game.state.over else WAITING)
        else:
            self._reset(CHECKING)

    def _confirm(self) -> None:
        if self.phase != CHECKING:
            return  # nothing waits for a confirmation
        wanted = self.ledger.to_show()
        if wanted is not None and wanted[0] == "taken":
            why = _show_words(self.ledger.game.state, wanted)
            self.problem = Message("not_yet", {"why": why})
            self._signal_illegal()
            return
        self._check()
        if self.mismatch is not None:
            self.problem = Message("not_yet", {"why": self.mismatch})
            self._signal_illegal()
            return
        self._reset(OVER if self._state().over else WAITING)

    def _undo(self) -> None:
        try:
            self.ledger.undo()
        except TableError as error:
            self.problem = self._undo_refused(error)
            self._signal_illegal()
            return
        self._reset(WAITING)

    def _undo_refused(self, error: TableError) -> Message:
        """Why UNDO was refused, in words the page can translate: held CONFIRM after a roll
        is the refusal players meet most, so it is not left in the table's English. The
        ledger decided it (`Ledger.undo_refusal`); its key names the words."""
        if error.key in ("undo_roll", "undo_nothing"):
            return Message(error.key)
        return _refused(error)

    def _check(self) -> None:
        """CHECKING: does the table show what the engine computed?"""
        state = self._state()
        view = self.view
        if view is None:
            self.mismatch = Message("not_seen")
            return
        self.mismatch = _mismatch(state, view)
        if self.mismatch is None and self.problem is not None and self.problem.key == "not_yet":
            self.problem = None

    # --- helpers -------------------------------------------------------------------------

    def _reset(self, phase: str) -> None:
        self.phase = phase
        self._turn = _Turn()
        self.question = None
        self.mismatch = None
        if phase == CHECKING:
            self._check()
        if phase in (WAITING, CHECKING, OVER):
            self.problem = None

    def _signal_illegal(self) -> None:
        if self.outputs is not None:
            self.outputs.illegal()

    def _message(self) -> Message:
        state = self._state()
        if self.question is not None:
            return self.question.prompt
        if self.problem is not None:
            return self.problem
        wanted = self.ledger.to_show()
        if wanted is not None:
            return _show_words(state, wanted)
        name = state.player.name
        if self.phase == STAGED:
            left = self._turn.dice - len(self._turn.roll)
            return Message("roll_one" if left == 1 else "roll", {"name": name, "n": left})
        if self.phase == CHECKING:
            if self.mismatch is not None:
                return self.mismatch
            return Message("confirm")
        if self.phase == OVER:
            return Message("over")
        return Message("to_move", {"name": name})


def idle_status(camera: Sequence[Problem] = ()) -> dict[str, Any]:
    """What a table a camera follows shows of the turn before any game is started."""
    message = Message("no_game")
    return {
        "phase": WAITING,
        "led": LED_WAITING,
        "message": message.text,
        "problem": None,
        "mismatch": None,
        "question": None,
        "laid": [],
        "roll": None,
        "camera": [problem.text() for problem in camera],
        "said": {
            "message": message.as_json(),
            "problem": None,
            "mismatch": None,
            "prompt": None,
            "camera": [problem.as_json() for problem in camera],
        },
        "version": 0,
    }


def _show_words(state: GameState, wanted: tuple[str, int, int]) -> Message:
    """What to show the camera in the marked zone (or enter on the page)."""
    what, seat, count = wanted
    name = state.seats[seat].name
    key = "show_taken" if what == "taken" else "show_hand"
    return Message(key + "_one" if count == 1 else key, {"name": name, "n": count})


def _alike(a: str, b: str) -> bool:
    """Two codes for one card, when one of them may not name the shape."""
    return cards.matches(a, b) or cards.matches(b, a)


def _mismatch(state: GameState, view: TableView) -> Message | None:
    """What the table still shows otherwise than the engine computed; None when the railway
    and the caboose are as computed."""
    want, seen = state.railway, view.codes
    same = len(want) == len(seen) and all(_alike(w, s) for w, s in zip(want, seen, strict=True))
    if not same:
        extra = len(seen) - len(want)
        tail = seen[extra:] if extra > 0 else ()
        if extra > 0 and all(_alike(w, s) for w, s in zip(want, tail, strict=True)):
            return Message("take_one" if extra == 1 else "take", {"n": extra})
        if not seen:
            return Message("railway_unseen", {"want": " ".join(want)})
        return Message("railway_should", {"want": " ".join(want), "seen": " ".join(seen)})
    if view.caboose != state.caboose:
        where = {"n": state.caboose + 1, "code": want[state.caboose]}
        if view.caboose is None:
            return Message("caboose_unseen", where)
        return Message("caboose_elsewhere", where | {"seen": view.caboose + 1})
    return None


def same_camera(shown: Sequence[Problem], seen: Sequence[Problem]) -> bool:
    """Whether the camera's problems `seen` are no news beside those `shown`: the same
    problems with the same parameters, but for a `percent` less than CAMERA_PERCENT_STEP
    points from the shown one. Measured from what was shown, not rounded to steps, so a
    share wavering about a step's edge does not announce each crossing."""
    if len(shown) != len(seen):
        return False
    for before, now in zip(shown, seen, strict=True):
        if before.key != now.key or before.params.keys() != now.params.keys():
            return False
        for name, value in before.params.items():
            if name == "percent":
                if abs(value - now.params[name]) >= CAMERA_PERCENT_STEP:
                    return False
            elif value != now.params[name]:
                return False
    return True


def _engine_poses(
    state: GameState, view: TableView, laid: tuple[SeenCard, ...]
) -> tuple[Pose, ...] | None:
    """The laid cards' poses in the engine's frame. The engine lays its first railway from
    its own origin, the table lies wherever it lies: the two frames are matched on the
    front card (its centre and its open rail end), so a placement is judged against the
    railway as the engine knows it. None when the engine knows no poses (a record's setup)."""
    count = len(state.railway)
    seen = view.railway[:count]
    if not state.layout or state.layout[-1] is None or len(seen) < count:
        return None
    size = state.edition.card_mm
    engine_ends = geometry.open_ends(state.railway, state.layout, size)
    table_ends = geometry.open_ends([c.code for c in seen], [c.pose for c in seen], size)
    if not engine_ends or not table_ends:
        return None
    to_engine = _matching(seen[-1].pose, table_ends[0], state.layout[-1], engine_ends[0])
    return tuple(to_engine(card.pose) for card in laid)


def _matching(
    table_front: Pose,
    table_end: tuple[float, float],
    engine_front: Pose,
    engine_end: tuple[float, float],
) -> Callable[[Pose], Pose]:
    """The rigid motion (a quarter-turn rotation and a shift) that takes the table's front
    card and its open end onto the engine's."""
    a_table = math.atan2(table_end[1] - table_front.y, table_end[0] - table_front.x)
    a_engine = math.atan2(engine_end[1] - engine_front.y, engine_end[0] - engine_front.x)
    turn = (round(math.degrees(a_engine - a_table) / 90.0) * 90) % 360
    c, s = round(math.cos(math.radians(turn))), round(math.sin(math.radians(turn)))

    def to_engine(pose: Pose) -> Pose:
        dx, dy = pose.x - table_front.x, pose.y - table_front.y
        return Pose(
            round(engine_front.x + dx * c - dy * s, 2),
            round(engine_front.y + dx * s + dy * c, 2),
            round((pose.rotation + turn) % 360.0, 2),
        )

    return to_engine
