"""The Caboose game being played at the table: the one object the shared writer drives.

A match is the game's ledger (`ledger.Ledger`: the rules, the provisional deal, the
journal) and, when a camera follows the table, the turn flow as the players live it
(`follow.Following`: laid cards, dice, the check of the computed move, the buttons). Every
command reaches it through `handle`, from the page, a button or the camera alike, one at a
time under the table's lock (`companion.table.Table`): a page's command changes the ledger
and the flow follows in the same step, so the two never disagree and nothing has to catch
up afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.caboose import view
from companion.games.caboose.commands import (
    Act,
    Answer,
    CorrectRoll,
    Press,
    Reorder,
    Seen,
    Show,
    Stage,
    Undo,
    Unstage,
)
from companion.games.caboose.follow import Following, idle_status, same_camera
from companion.games.caboose.ledger import Ledger, TableError
from companion.games.caboose.record import from_json
from companion.games.caboose.tracker import CameraHint
from companion.games.protocol import Setting, Start
from companion.store import Store


class Match:
    """One Caboose game at the table (`companion.games.protocol.Match`)."""

    def __init__(self, ledger: Ledger, setting: Setting, resumed: bool = False) -> None:
        """`resumed`: the game was played before (a restart): a turn already applied is
        checked against the table again before the next CONFIRM."""
        self.ledger = ledger
        self.setting = setting
        self.following: Following | None = None  # the turn flow, when a camera follows
        if setting.camera is not None:
            self.following = Following(ledger, setting.camera, setting.outputs, resumed)
        self._handlers: dict[type, Callable[[Any], None]] = {
            Act: self._act,
            Stage: self._stage,
            Unstage: self._unstage,
            Undo: self._undo,
            Reorder: self._reorder,
            CorrectRoll: self._correct,
            Show: self._show,
            Answer: self._answer,
            Press: self._press,
            Seen: self._seen,
        }

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.ledger.state.over

    def handle(self, command: object) -> bool:
        """Apply one command (`commands.py`); whether anything a page shows changed. A
        refusal (`TableError`) leaves the ledger and the flow as they were."""
        handler = self._handlers.get(type(command))
        if handler is None:
            raise TableError("request", f"a Caboose table takes no {type(command).__name__}")
        revision = self.ledger.revision
        handler(command)
        announced = self.following.announce() if self.following is not None else False
        return announced or self.ledger.revision != revision

    @property
    def id(self) -> int:
        return self.ledger.id

    def view(self, lang: str) -> dict[str, Any]:
        """The view of the table (README, "The view"): the game, and the turn at the table
        when a camera follows it (its `version` is the table's to set)."""
        doc = view.build(self.ledger.snapshot(), lang)
        status = None if self.following is None else self.following.status()
        return doc | {"session": view.session(status, lang)}

    def record(self) -> Mapping[str, Any]:
        return self.ledger.export().as_json()

    def hand(self) -> dict[str, Any] | None:
        """The mover's hidden hand and its plays' odds (`view.hand`), for their phone alone."""
        return view.hand(self.ledger.snapshot())

    def hint(self) -> CameraHint:
        """What the camera must look for: the railway as the game has it, where its back
        card lay in the last still view the flow was told of, and its edition's card size."""
        still = self.following.view if self.following is not None else None
        state = self.ledger.state
        return CameraHint.of(state.railway, still, state.edition.card_mm)

    # --- the page's commands -------------------------------------------------------------

    def _act(self, command: Act) -> None:
        self.ledger.act(command.seat, command.action)
        if self.following is not None:
            self.following.page_acted(command.action)

    def _stage(self, command: Stage) -> None:
        self.ledger.stage(command.seat, command.cards, command.place)
        if self.following is not None:
            self.following.page_staged()

    def _unstage(self, command: Unstage) -> None:
        self.ledger.unstage()
        if self.following is not None:
            self.following.page_undid()

    def _undo(self, command: Undo) -> None:
        self.ledger.undo(command.turn)
        if self.following is not None:
            self.following.page_undid()

    def _reorder(self, command: Reorder) -> None:
        self.ledger.reorder(command.order, command.turn)
        if self.following is not None:
            self.following.page_corrected()

    def _correct(self, command: CorrectRoll) -> None:
        self.ledger.correct_roll(command.roll, command.confirm, command.turn)
        if self.following is not None:
            self.following.page_corrected()

    def _show(self, command: Show) -> None:
        self.ledger.show(command.cards)

    def _answer(self, command: Answer) -> None:
        self._following().answer(command.code if command.face is None else command.face)

    # --- the table's own inputs ----------------------------------------------------------

    def _press(self, command: Press) -> None:
        self._following().on_button(command.button)

    def _seen(self, command: Seen) -> None:
        following = self._following()
        following.seen_problems(command.problems)
        following.on_events(command.events)

    def _following(self) -> Following:
        if self.following is None:
            raise TableError(
                "session", "no camera follows this table: the turn at the table is not known"
            )
        return self.following


# --- the game's entries in its `Game` (game.py) ----------------------------------------------


def start(store: Store, wanted: Start, setting: Setting) -> Match:
    """A new game as the start form asks for it (its option is the edition)."""
    ledger = Ledger.start(
        store, wanted.option, wanted.names, wanted.variant, wanted.seed, setting.provisional
    )
    return Match(ledger, setting)


def load(store: Store, doc: Mapping[str, Any], setting: Setting) -> Match:
    """The game of a record continued (an import): every turn is checked first."""
    try:
        record = from_json(doc)
    except TypeError:  # cards.parse cannot hash a card given as a list or an object
        raise TableError("record", 'a card code must be a string such as "3" or "2x"') from None
    return Match(Ledger.load(store, record, setting.provisional), setting)


def resume(store: Store, game_id: int, setting: Setting) -> Match:
    """The store's game `game_id`, after a restart: back on the same turn."""
    return Match(Ledger(store, game_id, setting.provisional), setting, resumed=True)


class Lobby:
    """The table before any game is started (`companion.games.protocol.Match`): what the
    camera cannot see is shown already (the markers, the light: a table is set up before
    its first game), and every other command is refused, there being no game."""

    over = False
    id = 0

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.camera: tuple[Any, ...] = ()  # the camera's problems (vision/problems.py)

    def handle(self, command: object) -> bool:
        if isinstance(command, Seen):
            if self.setting.camera is None or same_camera(self.camera, command.problems):
                return False  # news for nobody
            self.camera = tuple(command.problems)
            return True
        raise TableError("game", "no game is being played: start one first", key="no_game_yet")

    def view(self, lang: str) -> dict[str, Any]:
        """`{"game": null}` and, when a camera follows the table, the turn at the table:
        a game to start, and what the camera cannot see."""
        status = None if self.setting.camera is None else idle_status(self.camera)
        return {"game": None, "session": view.session(status, lang)}

    def record(self) -> Mapping[str, Any]:
        raise TableError("game", "no game is being played: start one first", key="no_game_yet")

    def hint(self) -> None:
        """Nothing to look for but the table itself."""
        return None


def idle(setting: Setting) -> Lobby:
    """The table's match before its first game."""
    return Lobby(setting)


def hand(match: Match | Lobby, lang: str) -> dict[str, Any] | None:
    """The game's `hand` entry (`GET /api/hand`): the mover's hidden hand, None in the
    lobby. `lang` is unused: cards are codes in every language, the page words them."""
    del lang
    return match.hand() if isinstance(match, Match) else None
