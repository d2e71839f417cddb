"""The Caboose game being played at the table: the one object the shared writer drives.

A match is the game's ledger (`ledger.Ledger`: the rules, the provisional deal, the
journal) and, when a camera follows the table, the turn at the table as the players live
it (`follow.Following`: laid cards, dice, the check of the computed move, the buttons).
Every command reaches it through `handle`, from the page, a button or the camera alike,
one at a time under the table's lock (`companion.table.Table`), and the flow goes one way:
only the match keeps the game (`_keep`, through the ledger, journal first). A page's
command is kept, then the turn at the table is told of it once (`Following.kept`); a
button, an answer or a frame goes to the turn at the table, which hands back what it
decides as commands for the match to keep (`_drive`). So the two never disagree and
nothing has to catch up afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.caboose import view
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
from companion.games.caboose.follow import Following, Steps, idle_status, same_camera
from companion.games.caboose.ledger import Ledger, TableError
from companion.games.caboose.record import from_json
from companion.games.caboose.tracker import CameraHint
from companion.games.lobby import Lobby
from companion.games.protocol import Setting, Start
from companion.store import Store

# The page's commands that change the game: kept, then told to the turn at the table.
PAGE_STEPS = (Act, Stage, Unstage, Undo, Reorder, CorrectRoll, Show)


class Match:
    """One Caboose game at the table (`companion.games.protocol.Match`)."""

    def __init__(self, ledger: Ledger, setting: Setting, resumed: bool = False) -> None:
        """`resumed`: the game was played before (a restart): a turn already applied is
        checked against the table again before the next CONFIRM."""
        self.ledger = ledger
        self.setting = setting
        self.following: Following | None = None  # the turn at the table, when a camera follows
        if setting.camera is not None:
            self.following = Following(ledger, setting.camera, setting.outputs, resumed)

    # --- the protocol --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.ledger.state.over

    def handle(self, command: object) -> bool:
        """Apply one command (`commands.py`); whether anything a page shows changed. A
        refusal (`TableError`) leaves the ledger and the turn at the table as they were."""
        revision = self.ledger.revision
        if isinstance(command, Answer):
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
        card lay in the last still view the turn at the table was told of, and its
        edition's card size."""
        still = self.following.view if self.following is not None else None
        state = self.ledger.state
        return CameraHint.of(state.railway, still, state.edition.card_mm)

    # --- keeping -------------------------------------------------------------------------

    def _keep(self, command: object) -> Any:
        """The one place the game changes: a command kept through the ledger (which checks
        it and journals it before it returns), and what the ledger answered."""
        ledger = self.ledger
        match command:
            case Act(seat=seat, action=action):
                return ledger.act(seat, action)
            case Stage(seat=seat, cards=cards, place=place):
                return ledger.stage(seat, cards, place)
            case Unstage():
                return ledger.unstage()
            case Undo(turn=turn):
                return ledger.undo(turn)
            case Reorder(order=order, turn=turn):
                return ledger.reorder(order, turn)
            case CorrectRoll(roll=roll, confirm=confirm, turn=turn):
                return ledger.correct_roll(roll, confirm, turn)
            case Show(cards=cards):
                return ledger.show(cards)
            case LayRailway(cards=cards):
                return ledger.lay_first_railway(cards)
            case Reveal(seat=seat, cards=cards):
                return ledger.reveal(seat, cards)
        raise TableError("request", f"a Caboose table takes no {type(command).__name__}")

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


def hand(match: Match | SettingUp, lang: str) -> dict[str, Any] | None:
    """The game's `hand` entry (`GET /api/hand`): the mover's hidden hand, None in the
    lobby. `lang` is unused: cards are codes in every language, the page words them."""
    del lang
    return match.hand() if isinstance(match, Match) else None
