"""The flow of a turn at the table: what the camera saw, the buttons and the page, matched
against what the engine expects next.

The turn at the table (`Following`) is the one place that knows the order of a turn as
the players live it:

1. the player to move lays cards at the front (the camera sees them: they are staged, with
   their placement checked; an illegal placement is announced and buzzed, and nothing is
   applied until it is fixed), or shows chaos cards in the marked zone, or presses PASS;
2. the dice settle: their wheels are the roll (in batches of `dice_per_roll` when a play
   rolls more dice than the table has) and the whole turn goes to the match, which keeps
   it (`Match.act` journals it before anyone is told);
3. the page shows the computed move; the players move the caboose and take the penalty
   cards from the back; the camera checks that the table now shows what the engine
   computed, and says what is still wrong;
4. CONFIRM (accepted only once the camera agrees) closes the turn. Holding CONFIRM is UNDO,
   with the table's own limit: never past a dice roll.

What a camera cannot see comes from the engine's knowledge of the dealt game (the hands,
the card drawn) or from the page. The flow goes one way: every command goes into the match
(`match.py`), one at a time, and only the match keeps the game (journal first). The turn
at the table reads the game (`Kept`) and never writes it: what the camera and the
buttons decide it hands to the match as commands (its inputs are generators of `Steps`:
each command yielded is kept, and its result, or its refusal, comes back in); a page's
command the match keeps first and then tells it once (`kept`), so it never has to catch
up. Where the camera is unsure of a card (low confidence, or a code not in the hand) or of a
settled die, the turn at the table asks the players to choose instead of guessing
(`answer`); a die it asks about may be no die at all (a card's printed digit, a crumb), which
the players say (`no_die`), and the same thing is not asked about again while it lies there.

A restarted service has lost only this flow, never an accepted action: it resumes from the
table and checks the table again before the next CONFIRM.

Everything the turn at the table says is a `Message`, a key of `MESSAGES` and its
parameters, not a sentence (follow_messages.py): `status` gives the English (what the API
has always carried) and the key, so the page says it in its own language
(companion/games/caboose/words.py).

This module is the flow; what it leans on reads apart: follow_reading.py (the laid cards
and the dice read as the game's cards and wheels, or a question for the players),
placement.py (a laid card's pose in the engine's frame) and table_check.py (what the
table must show once a turn is applied).
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from companion.games.caboose import cards
from companion.games.caboose.commands import (
    Act,
    CorrectRoll,
    LayRailway,
    Reorder,
    Reveal,
    Show,
    Stage,
    Undo,
    Unstage,
)
from companion.games.caboose.follow_messages import Message, refusal, refused, show_words
from companion.games.caboose.follow_reading import (
    Question,
    answered,
    read_laid,
    same_cards,
    same_dice,
    unsure_die,
    wheels_of,
)
from companion.games.caboose.placement import engine_poses, to_engine
from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules.state import DERAILED, Chaos, GameState, Pass, Play
from companion.games.caboose.snapshot import Snapshot, Staged
from companion.games.caboose.table_check import alike, mismatch
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
from companion.games.protocol import LED_ERROR, LED_NEEDS_CONFIRMATION, LED_WAITING
from companion.pose import Pose

if TYPE_CHECKING:
    from companion.games.caboose.vision.observation import SeenCard, SeenDie
    from companion.games.caboose.vision.problems import Problem

# The buttons, as hw.controls names them (kept equal by a test, as the LED statuses of
# companion.games.protocol are; the core does not import hardware code).
PASS, CONFIRM, UNDO = "pass", "confirm", "undo"

# Phases of a turn.
WAITING = "waiting"  # for the player to move: lay cards, show chaos cards, or PASS
STAGED = "staged"  # cards laid and legal: waiting for the dice
ILLEGAL = "illegal"  # cards laid where they cannot go: waiting for them to be fixed
ASKING = "asking"  # the camera is unsure of a card or a die: the players choose
CHECKING = "checking"  # turn applied: waiting for the table to match it, then CONFIRM
OVER = "over"


# What the turn at the table asks the match to keep: each command yielded is kept by the
# match, and what keeping it returned is sent back in (a refusal is thrown in instead).
Steps = Generator[object, Any, None]

# A die the players said is no die (a card's printed digit, a crumb, a bead: the camera asked
# about something that lies still) is remembered by where it lay: an unsure die this close
# to such a spot (table mm: half a die, so a die lying over the spot is within it) is that
# same thing, and is not asked about again while it lies there.
NOT_A_DIE_MM = 8.0

# A share the camera gives in percent (how much of the table a hand covers) changes with
# every frame while a hand moves; only a change of this many points is news to the pages.
CAMERA_PERCENT_STEP = 10.0


class Kept(Protocol):
    """What the turn at the table reads of the game its match keeps (`match.Match`)."""

    snap: Snapshot  # the game as it stands (`provisional`: its deal is a guess)
    staged: Staged | None  # cards laid before the dice, not yet kept


class Outputs(Protocol):
    """What the turn at the table drives besides the page: hw.controls.Controls fits."""

    def show(self, status: str) -> None: ...

    def derailed(self) -> None: ...

    def illegal(self) -> None: ...


@dataclass(frozen=True)
class FollowConfig:
    """`unsure_below`: a card matched with less confidence is asked about, not guessed;
    `die_unsure_below`: the same for a settled die's face (the dice reader's confidence).
    `pip_wheels`: R-6, the wheels a standard pip die's face stands for (None: only the
    edition's own wheel dice are read). `dice_per_roll`: how many dice lie on the table;
    a play that rolls more is rolled again for the rest."""

    unsure_below: float = 0.25
    pip_wheels: Mapping[int, int] | None = None
    dice_per_roll: int = 4
    die_unsure_below: float = 0.5


def _said(message: Message | None) -> dict[str, Any] | None:
    return None if message is None else message.as_json()


def _text(message: Message | None) -> str | None:
    return None if message is None else message.text


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
    settled: tuple[SeenDie, ...] = ()  # the dice of the throw being read
    faces: dict[int, int] = field(default_factory=dict)  # answers, by settled die


def _turn_kind(turn: Mapping[str, Any]) -> str:
    return "play" if "play" in turn else "pass" if "pass" in turn else "chaos"


class Following:
    """One game's turn flow at a table a camera follows: the half of the Caboose match
    (`match.py`) that turns table events and buttons into commands for the match to keep,
    and follows what the page's commands did. The match calls it under the shared table's
    lock, one command at a time: it needs no lock of its own."""

    def __init__(
        self,
        match: Kept,
        config: FollowConfig | None = None,
        outputs: Outputs | None = None,
        resumed: bool = False,
    ) -> None:
        """`resumed`: the game was played before this flow began (a restarted service): a
        turn already applied is checked against the table again before the next CONFIRM."""
        self.match = match
        self.config = config or FollowConfig()
        self.outputs = outputs
        self.version = 0  # grows when what `status` shows changes
        self.phase = WAITING
        self.problem: Message | None = None  # announced, blocks what it names until fixed
        self.mismatch: Message | None = None  # CHECKING: what the table still shows wrongly
        self.question: Question | None = None
        # where the players said the camera's die was no die, while something still lies
        # there (`_still_there`): kept across turns, as the thing itself stays
        self.not_dice: tuple[tuple[float, float], ...] = ()
        self.camera: tuple[Problem, ...] = ()  # what the camera could not see just now
        self.view: TableView | None = None
        self._turn = _Turn()
        game = match.snap
        last = game.record.turns[-1] if game.record.turns else None
        if game.state.over and not resumed:
            self._reset(OVER)
        elif resumed and last is not None and _turn_kind(last) != "chaos":
            self._reset(CHECKING)  # the table is checked again before CONFIRM
        else:
            self._reset(WAITING)
        self._announced = self._showing()

    # --- inputs --------------------------------------------------------------------------

    def on_events(self, events: Sequence[TableEvent]) -> Steps:
        """Events of a table that has just become still (from the tracker)."""
        for event in events:
            self.view = event.view
            self._still_there(event.view)
            yield from self._on_event(event)

    def on_button(self, button: str) -> Steps:
        """PASS, CONFIRM or UNDO (held CONFIRM), debounced by hw.controls."""
        if button == PASS:
            yield from self._pass()
        elif button == CONFIRM:
            self._confirm()
        elif button == UNDO:
            yield from self._undo()
        else:
            raise TableError("button", f"unknown button {button!r}")

    def answer(self, choice: str | int) -> Steps:
        """The players' choice for the card (a code) or the die (a face) the camera was
        unsure of; anything but one of the question's options is refused."""
        question = self.question
        if self.phase != ASKING or question is None:
            raise TableError("session", "there is no question to answer", key="no_question")
        if choice not in question.options or isinstance(choice, bool):
            options = ", ".join(map(str, question.options))
            raise TableError(
                "answer", f"choose one of {options}", key="choose_one", params={"options": options}
            )
        self.question = None
        if question.die is not None:
            assert isinstance(choice, int)
            self._turn.faces[question.die] = choice
            self.phase = STAGED
            yield from self._dice(self._turn.settled)
            return
        assert question.card is not None and isinstance(choice, str)
        self._turn.chosen[question.card] = choice
        self.phase = WAITING
        yield from self._consider_laid(self._turn.laid)

    def no_die(self) -> Steps:
        """The players' answer that the die the camera asks about is no die at all (a card's
        printed digit, a crumb, a bead): it is dropped from the throw, which is read on as if
        the camera had never seen it, and its spot is remembered (`not_dice`), so the same
        thing lying still is not asked about again. Refused for a card's question: a card
        the camera saw is a card, and the players choose which."""
        question = self.question
        if self.phase != ASKING or question is None:
            raise TableError("session", "there is no question to answer", key="no_question")
        if question.die is None:
            options = ", ".join(map(str, question.options))
            raise TableError(
                "answer", f"the camera asks about a card, not a die: choose one of {options}",
                key="no_die_card", params={"options": options},
            )  # fmt: skip
        turn = self._turn
        gone = question.die
        self.not_dice += (turn.settled[gone].position,)
        # the answers given for the other dice stay with them, counted without this one
        turn.faces = {i - (i > gone): face for i, face in turn.faces.items() if i != gone}
        turn.settled = tuple(die for i, die in enumerate(turn.settled) if i != gone)
        self.question = None
        self.phase = STAGED
        yield from self._dice(turn.settled)

    def seen_problems(self, problems: Sequence[Problem]) -> None:
        """What the camera could not see in the last frame: shown, never acted on. Only news
        counts (`same_camera`): a hand moving over the table changes its share of it on
        every frame, and each change sends every open page a whole new view. Until then
        `camera` keeps the words last shown, so the pages and `status` agree."""
        problems = tuple(problems)
        if not same_camera(self.camera, problems):
            self.camera = problems

    # --- what the page's commands did (the match keeps one, then tells, once) ------------

    def kept(self, command: object) -> None:
        """A page's command the match has kept. A whole turn played: as after the camera's
        own, the table is checked against the computed move before CONFIRM, but for a chaos
        discard. Cards staged: the dice that settle next are theirs. Staged cards or a turn
        taken back: the player to move starts again. The last turn corrected: a move being
        checked is checked anew."""
        if isinstance(command, Act):
            if isinstance(command.action, Chaos):
                self._reset(OVER if self._state().over else WAITING)
            else:
                self._reset(CHECKING)
        elif isinstance(command, Stage):
            staged = self.match.staged
            if staged is not None:
                self._turn = _Turn(codes=staged.cards, place=staged.place, dice=staged.dice)
                self.phase = STAGED
                self.problem = None
        elif isinstance(command, Unstage | Undo):
            self._reset(OVER if self._state().over else WAITING)
        elif isinstance(command, Reorder | CorrectRoll) and self.phase == CHECKING:
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
                "die": self.question.die,
                "at": None if self.question.at is None else list(self.question.at),
                "kind": self.question.kind,
                "drawn": None
                if self.question.drawn is None
                else [list(place) for place in self.question.drawn],
                # a die's question may be answered that it is no die (`no_die`)
                "no_die": self.question.die is not None,
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
        return self.match.snap.state

    def _on_event(self, event: TableEvent) -> Steps:
        if event.what == CARDS_SHOWN and self.match.snap.to_show is not None:
            yield from self._shown(event.cards)  # what a provisional deal waits for, in any phase
            return
        if self.phase == CHECKING:
            self._check()
            return
        if self.phase == OVER:
            return
        if event.what in (TABLE_SEEN, CARDS_LAID, CARDS_LIFTED, RAILWAY_CHANGED) or (
            self.phase == ILLEGAL and event.what != DICE_SETTLED
        ):
            yield from self._railway_seen(event.view)
        elif event.what == DICE_SETTLED:
            yield from self._dice(event.dice)
        elif event.what == CARDS_SHOWN:
            yield from self._shown(event.cards)

    def _railway_seen(self, view: TableView) -> Steps:
        """The railway changed while the player is to move: cards beyond the engine's
        railway are the cards being laid."""
        state = self._state()
        seen = view.railway
        want = state.railway
        game = self.match.snap
        if self.match.snap.provisional and not game.record.turns:
            first = tuple(card.code for card in seen[: len(want)])
            if len(first) == len(want) and first != want:
                try:  # the first railway dealt at the table tells the companion its cards
                    yield LayRailway(first)
                except TableError as error:
                    self.problem = refused(error)
                    self._signal_illegal()
                    return
                state = self._state()
                want = state.railway
        if len(seen) < len(want) or not all(
            alike(w, s.code) for w, s in zip(want, seen, strict=False)
        ):
            self.problem = Message(
                "railway_differs", {"want": " ".join(want), "seen": " ".join(view.codes)}
            )
            self._signal_illegal()
            return
        if self.problem is not None and self.phase != ILLEGAL:
            self.problem = None
        yield from self._consider_laid(seen[len(want) :])

    def _consider_laid(self, laid: tuple[SeenCard, ...]) -> Steps:
        state = self._state()
        if not laid:
            yield Unstage()
            self._reset(WAITING)
            return
        if laid == self._turn.laid and self.question is not None and self.question.die is not None:
            return  # the same cards, and a die is being asked about: the answer is awaited
        if laid != self._turn.laid:
            kept = self._turn.chosen if same_cards(self._turn.laid, laid) else {}
            self._turn = _Turn(laid=laid, chosen=kept)
            self.question = None
        read = read_laid(
            laid, state, self._turn.chosen, self.config.unsure_below, self.match.snap.provisional
        )
        if isinstance(read, Question):
            self.question = read
            self.phase = ASKING
            return
        self._turn.codes = read
        yield from self._stage(state, laid)

    def _stage(self, state: GameState, laid: tuple[SeenCard, ...]) -> Steps:
        turn = self._turn
        place = engine_poses(state, self.view, laid) if self.view is not None else None
        try:
            staged = yield Stage(state.to_move, turn.codes, place)
        except TableError as error:
            yield Unstage()
            self.phase = ILLEGAL
            self.problem = Message(
                "cannot_play", {"cards": " ".join(turn.codes), "detail": refusal(error)}
            )
            self._signal_illegal()
            return
        self.problem = None
        turn.place = staged.place
        turn.dice = staged.dice
        turn.roll = []
        self.phase = STAGED
        if staged.dice == 0:  # Laura moves by her card's value: no dice to wait for
            yield from self._play()

    def _dice(self, dice: tuple[SeenDie, ...]) -> Steps:
        dice = self._dice_only(dice)
        if self.phase == ASKING and self.question is not None and self.question.die is not None:
            self.question = None  # thrown again while asked about: the new throw is read
            self.phase = STAGED
        if self.phase != STAGED or not dice:
            return  # nothing but what the players said is no die: as if no dice settled
        turn = self._turn
        if not same_dice(turn.settled, dice):
            turn.faces = {}
        turn.settled = dice
        faces = self._state().edition.die_faces
        question = unsure_die(dice, turn.faces, faces, self.config.die_unsure_below)
        if question is not None:  # never guessed into the game: the players say
            self.question = replace(question, drawn=self._drawn(dice))
            self.phase = ASKING
            return
        wheels = wheels_of(answered(dice, turn.faces), faces, self.config.pip_wheels)
        if isinstance(wheels, Message):
            self.problem = wheels
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
        turn.settled, turn.faces = (), {}
        if len(turn.roll) == turn.dice:
            yield from self._play()

    def _drawn(self, dice: tuple[SeenDie, ...]) -> tuple[tuple[float, float], ...] | None:
        """Where the page's railway drawing puts each of `dice` (the engine's frame)."""
        move = None if self.view is None else to_engine(self._state(), self.view)
        if move is None:
            return None
        return tuple(move(Pose(*die.position, 0.0))[:2] for die in dice)

    def _play(self) -> Steps:
        state = self._state()
        turn = self._turn
        action = Play(turn.codes, tuple(turn.roll), place=turn.place)
        yield from self._act(state, action)

    def _shown(self, shown: tuple[SeenCard, ...]) -> Steps:
        if self.match.snap.to_show is not None and shown:
            try:  # cards taken from the draw pile, or a hand at the end
                yield Show(tuple(card.code for card in shown))
            except TableError as error:
                self.problem = refused(error)
                self._signal_illegal()
                return
            self.problem = None
            return
        if self.phase != WAITING:
            return
        state = self._state()
        codes = tuple(card.code for card in shown)
        if state.player.laura and self.match.snap.provisional and len(codes) == 1:
            # Laura's card, turned up from the draw pile: on a provisional deal the table
            # learns it, and the rules then say whether she plays it or passes.
            try:
                yield Reveal(state.to_move, codes)
            except TableError as error:
                self.problem = refused(error)
                self._signal_illegal()
                return
            if cards.is_chaos(codes[0]):  # shown in the zone: discarded, as anyone's
                yield from self._act(self.match.snap.state, Chaos(codes))
            return
        if not codes or not all(cards.is_chaos(code) for code in codes):
            return  # a hand shown at the end, a card put down: nothing to act on
        yield from self._act(state, Chaos(codes))

    def _pass(self) -> Steps:
        state = self._state()
        if self.phase not in (WAITING, ILLEGAL):
            self.problem = Message(
                "pass_laid" if self.phase in (STAGED, ASKING) else "pass_not_now"
            )
            self._signal_illegal()
            return
        yield from self._act(state, Pass())

    def _act(self, state: GameState, action: Play | Pass | Chaos) -> Steps:
        try:
            events = yield Act(state.to_move, action)
        except TableError as error:
            self.problem = refused(error)
            self._turn.roll = []  # the dice are thrown again once it is fixed
            self._signal_illegal()
            return
        self.problem = None
        if any(event.what == DERAILED for event in events) and self.outputs is not None:
            self.outputs.derailed()
        if isinstance(action, Chaos):
            self._reset(OVER if self.match.snap.state.over else WAITING)
        else:
            self._reset(CHECKING)

    def _confirm(self) -> None:
        if self.phase != CHECKING:
            return  # nothing waits for a confirmation
        wanted = self.match.snap.to_show
        if wanted is not None and wanted[0] == "taken":
            why = show_words(self.match.snap.state, wanted)
            self.problem = Message("not_yet", {"why": why})
            self._signal_illegal()
            return
        self._check()
        if self.mismatch is not None:
            self.problem = Message("not_yet", {"why": self.mismatch})
            self._signal_illegal()
            return
        self._reset(OVER if self._state().over else WAITING)

    def _undo(self) -> Steps:
        try:
            yield Undo()
        except TableError as error:
            self.problem = self._undo_refused(error)
            self._signal_illegal()
            return
        self._reset(WAITING)

    def _undo_refused(self, error: TableError) -> Message:
        """Why UNDO was refused, in words the page can translate: held CONFIRM after a roll
        is the refusal players meet most, so it is not left in the table's English. The
        match decided it (`Match.undo_refusal`); its key names the words."""
        if error.key in ("undo_roll", "undo_nothing"):
            return Message(error.key)
        return refused(error)

    def _check(self) -> None:
        """CHECKING: does the table show what the engine computed?"""
        state = self._state()
        view = self.view
        if view is None:
            self.mismatch = Message("not_seen")
            return
        self.mismatch = mismatch(state, view)
        if self.mismatch is None and self.problem is not None and self.problem.key == "not_yet":
            self.problem = None

    # --- helpers -------------------------------------------------------------------------

    def _dice_only(self, dice: tuple[SeenDie, ...]) -> tuple[SeenDie, ...]:
        """The settled `dice` without the things the players said are no die: an unsure die
        where one of them lies (`not_dice`). A die read surely there is a die thrown onto
        the spot, and counts."""
        unsure = self.config.die_unsure_below
        return tuple(
            die
            for die in dice
            if die.confidence >= unsure or not any(_near(die, spot) for spot in self.not_dice)
        )

    def _still_there(self, view: TableView) -> None:
        """Forget each spot said to hold no die where this still view shows nothing any
        more: the crumb was brushed away, the card under the digit taken, so a die thrown
        there later is read and asked about as any other."""
        self.not_dice = tuple(
            spot for spot in self.not_dice if any(_near(die, spot) for die in view.dice)
        )

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
        wanted = self.match.snap.to_show
        if wanted is not None:
            return show_words(state, wanted)
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


def _near(die: SeenDie, spot: tuple[float, float]) -> bool:
    return math.dist(die.position, spot) <= NOT_A_DIE_MM


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
