"""What can be asked of a Caboose match, as commands: one frozen dataclass per thing a
page, a button or the camera may ask, and the parsing of the page's JSON into them.

Every change to a game at the table is one of these, handed to the match
(`match.Match.handle`) by the shared writer (`companion.table.Table`), one at a time. A
route of the page only names its command and passes its JSON here (`parse`): the shape of
each request (unknown or missing fields, card codes, rolls, poses) is checked here, and a
request of the wrong shape is refused (`Malformed`, 400) before it reaches the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games import requests
from companion.games.caboose import cards
from companion.games.caboose.rules.state import Chaos, Pass, Play
from companion.games.caboose.tracker import TableEvent
from companion.games.protocol import Malformed
from companion.games.requests import fields
from companion.pose import Pose

# --- the page's commands --------------------------------------------------------------------


@dataclass(frozen=True)
class Act:
    """A whole turn entered on the page for the player `seat` (a play, a pass, a chaos
    discard)."""

    seat: int
    action: Play | Pass | Chaos


@dataclass(frozen=True)
class Stage:
    """Cards laid at the front before the dice, so the page shows their dice and odds."""

    seat: int
    cards: tuple[str, ...]
    place: tuple[Pose, ...] | None = None


@dataclass(frozen=True)
class Unstage:
    """The staged cards taken back."""


@dataclass(frozen=True)
class Undo:
    """Staged cards, else the last turn, taken back; `turn`: the last turn as the phone
    saw it (None: as the table has it now)."""

    turn: int | None = None


@dataclass(frozen=True)
class Reorder:
    """Another discard order for the last turn, `turn`."""

    order: tuple[str, ...]
    turn: int | None = None


@dataclass(frozen=True)
class CorrectRoll:
    """A mistyped roll of the last turn, `turn`, corrected (`confirm`: the players agreed)."""

    roll: tuple[int, ...]
    confirm: bool = False
    turn: int | None = None


@dataclass(frozen=True)
class Show:
    """The cards a provisional deal waits to be shown, entered on the page."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    """The players' choice for the card (`code`) or the die (`face`) the camera was unsure
    of, or their word that the die it asks about is no die at all (`no_die`)."""

    code: str | None = None
    face: int | None = None
    no_die: bool = False


# --- the table's own inputs -----------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A button: PASS, CONFIRM or UNDO (held CONFIRM), debounced by hw.controls."""

    button: str


@dataclass(frozen=True)
class Seen:
    """What one camera frame brought: the events of a table that has just become still
    (from the tracker), and what the camera could not see in it."""

    events: tuple[TableEvent, ...] = ()
    problems: tuple[Any, ...] = ()  # the camera's problems (vision/problems.py)


# --- what the turn at the table asks the match to keep, besides the page's commands -----


@dataclass(frozen=True)
class LayRailway:
    """The first railway as the camera sees it dealt, back first (a provisional deal)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Reveal:
    """Cards the player `seat` is seen to hold before they act (Laura's card turned up)."""

    seat: int
    cards: tuple[str, ...]


def button(name: str) -> Press:
    """The command of a button of hw.controls."""
    return Press(name)


# --- parsing the page's JSON ----------------------------------------------------------------


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(
            "request",
            f"{name} must be a seat number (0 for the first player)",
            key="bad_seat",
            params={"field": name},
        )
    return value


def _code(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise Malformed(
            "card", f"{name} must be a card code", key="bad_card", params={"field": name}
        )
    try:
        cards.parse(value)
    except cards.CardCodeError as error:
        raise Malformed(
            "card", f"{name}: {error}", key="bad_card_code", params={"field": name, "code": value}
        ) from None
    return value


def _codes(value: Any, name: str, marks: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise Malformed(
            "card", f"{name} must be a list of card codes", key="bad_cards", params={"field": name}
        )
    for code in value:
        _code(code.removesuffix("!") if marks else code, name)
    return tuple(value)


def _cards(value: Any, name: str) -> tuple[str, ...]:
    return _codes(value, name)


def _order(value: Any, name: str) -> tuple[str, ...]:
    return _codes(value, name, marks=True)


def _roll(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) for w in value
    ):
        raise Malformed(
            "dice",
            f"{name} must list the wheels shown by each die",
            key="bad_roll",
            params={"field": name},
        )
    return tuple(value)


def _place(value: Any, name: str) -> tuple[Pose, ...]:
    if not isinstance(value, list):
        raise Malformed(
            "placement",
            f"{name} must be a list of [x, y, rotation]",
            key="bad_place",
            params={"field": name},
        )
    try:
        return tuple(Pose.from_list(pose) for pose in value)
    except ValueError as error:
        raise Malformed("placement", f"{name}: {error}") from None


def _last_turn(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(
            "request",
            f"{name} must be the number of the last turn as the page shows it "
            "(the view's last.number; 0 before the first turn)",
            key="bad_last_turn",
            params={"field": name},
        )
    return value


def _pass(data: Mapping[str, Any]) -> Act:
    got = fields(data, {"seat": _seat, "order": _order}, ("seat",))
    return Act(got["seat"], Pass(order=got.get("order")))


def _play(data: Mapping[str, Any]) -> Act:
    got = fields(
        data,
        {"seat": _seat, "cards": _cards, "roll": _roll, "place": _place, "order": _order},
        ("seat", "cards", "roll"),
    )
    play = Play(got["cards"], got["roll"], order=got.get("order"), place=got.get("place"))
    return Act(got["seat"], play)


def _chaos(data: Mapping[str, Any]) -> Act:
    got = fields(data, {"seat": _seat, "cards": _order}, ("seat", "cards"))
    return Act(got["seat"], Chaos(got["cards"]))


def _stage(data: Mapping[str, Any]) -> Stage:
    got = fields(data, {"seat": _seat, "cards": _cards, "place": _place}, ("seat", "cards"))
    return Stage(got["seat"], got["cards"], got.get("place"))


def _unstage(data: Mapping[str, Any]) -> Unstage:
    fields(data, {})
    return Unstage()


def _undo(data: Mapping[str, Any]) -> Undo:
    return Undo(fields(data, {"turn": _last_turn}, ("turn",))["turn"])


def _reorder(data: Mapping[str, Any]) -> Reorder:
    got = fields(data, {"order": _order, "turn": _last_turn}, ("order", "turn"))
    return Reorder(got["order"], got["turn"])


def _correct(data: Mapping[str, Any]) -> CorrectRoll:
    got = fields(
        data, {"roll": _roll, "confirm": requests.flag, "turn": _last_turn}, ("roll", "turn")
    )
    return CorrectRoll(got["roll"], got.get("confirm", False), got["turn"])


def _show(data: Mapping[str, Any]) -> Show:
    return Show(fields(data, {"cards": _cards}, ("cards",))["cards"])


def _face(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
        raise Malformed(
            "dice", f"{name} must be a die's face, 0 to 6", key="bad_face", params={"field": name}
        )
    return value


def _no_die(value: Any, name: str) -> bool:
    if value is not True:
        raise Malformed(
            "request", f"{name} must be true: it says the camera's die is no die (leave it out "
            "to choose a face)", key="bad_no_die", params={"field": name},
        )  # fmt: skip
    return True


def _answer(data: Mapping[str, Any]) -> Answer:
    """A card's code, a die's face, or that the die asked about is no die: one of the
    three."""
    got = fields(data, {"code": _code, "face": _face, "no_die": _no_die})
    if not got:
        raise Malformed(
            "request", "missing fields ['code'] (a card's), ['face'] (a die's) or ['no_die']",
            fields=["code"], key="missing_fields", params={"fields": "code, face, no_die"},
        )  # fmt: skip
    if len(got) > 1:
        raise Malformed(
            "request", "an answer is one of a card's code, a die's face or no_die, not more",
            fields=sorted(got), key="answer_both",
        )  # fmt: skip
    return Answer(got.get("code"), got.get("face"), got.get("no_die", False))


# The page's requests (`POST /api/command/<name>`) and the commands they send.
ROUTES: requests.Routes = {
    "pass": _pass,
    "play": _play,
    "chaos": _chaos,
    "stage": _stage,
    "unstage": _unstage,
    "undo": _undo,
    "order": _reorder,
    "correct": _correct,
    "shown": _show,
    "session/answer": _answer,
}


def parse(route: str, data: Mapping[str, Any]) -> object:
    """The command a route's JSON object asks for (`Malformed` if it is not one)."""
    return requests.command(ROUTES, route, data)
