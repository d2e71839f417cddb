"""What can be asked of a Yardmaster Express match, as commands, and the parsing of the
page's JSON into them.

As for the Caboose design (companion/games/caboose/commands.py), a route only names its
command: the shape of each request (unknown or missing fields, a card code that is none, a
seat that is not a number) is checked here, and a request of the wrong shape is refused
(`Malformed`, 400) before it reaches the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games import requests
from companion.games.protocol import Malformed
from companion.games.requests import fields
from companion.games.said import Said
from companion.games.yardmaster import cards
from companion.games.yardmaster.follow import TrainSeen


@dataclass(frozen=True)
class AddCard:
    """The player at `seat` added `card` (as printed) to their train, entered on the page:
    face up as printed, `turned` end for end, or `face_down`; at a real table a card added
    face down is not named (`card` None). `turn`: the cards added so far as the phone saw
    them, so a tap on a table that has moved on is refused rather than applied to another
    turn."""

    seat: int
    card: str | None
    turn: int
    turned: bool = False
    face_down: bool = False


@dataclass(frozen=True)
class Undo:
    """The last card added taken back; `turn` as the phone saw it (None: as the table has it
    now, a button's undo)."""

    turn: int | None = None


@dataclass(frozen=True)
class NextGame:
    """The strategic variant's second game dealt, once the first has ended (Y-11)."""


@dataclass(frozen=True)
class Seen:
    """What one camera frame brought: the trains of a table that has just become still
    (None: no news of them), and what the camera could not see in the frame."""

    trains: tuple[TrainSeen, ...] | None = None
    camera: tuple[Said, ...] = ()


@dataclass(frozen=True)
class Press:
    """A button: PASS, CONFIRM or UNDO (held CONFIRM), debounced by hw.controls."""

    button: str


def button(name: str) -> Press:
    """The command of a button of hw.controls."""
    return Press(name)


# --- parsing the page's JSON ----------------------------------------------------------------


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(
            "request", f"{name} must be a seat number, 0 for the first player",
            key="bad_seat", params={"field": name},
        )  # fmt: skip
    return value


def _turn(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(
            "request",
            f"{name} must be the number of cards added so far as the page shows it "
            "(the view's turn; 0 before the first)",
            key="bad_turn",
            params={"field": name},
        )
    return value


def _card(value: Any, name: str) -> str:
    """A railcar card as printed (`R3-B2`): the card in the hand, whichever way it is laid."""
    if isinstance(value, str):
        try:
            cards.railcars(value)
        except ValueError:
            pass
        else:
            return value
    raise Malformed(
        "request",
        f'{name} must be a railcar card\'s code as printed, such as "R3-B2"',
        key="bad_card",
        params={"field": name},
    )


def _add(data: Mapping[str, Any]) -> AddCard:
    got = fields(
        data,
        {
            "seat": _seat,
            "card": _card,
            "turned": requests.flag,
            "face_down": requests.flag,
            "turn": _turn,
        },
        ("seat", "turn"),
    )
    face_down = got.get("face_down", False)
    if "card" not in got and not face_down:
        raise Malformed(
            "request", "missing fields ['card']: name the card added (only a card added "
            "face down may go unnamed)", fields=["card"], key="missing_fields",
            params={"fields": "card"},
        )  # fmt: skip
    return AddCard(got["seat"], got.get("card"), got["turn"], got.get("turned", False), face_down)


def _undo(data: Mapping[str, Any]) -> Undo:
    return Undo(fields(data, {"turn": _turn}, ("turn",))["turn"])


def _next(data: Mapping[str, Any]) -> NextGame:
    fields(data, {})
    return NextGame()


# The page's requests (`POST /api/command/<name>`) and the commands they send.
ROUTES: requests.Routes = {
    "add": _add,
    "undo": _undo,
    "next": _next,
}


def parse(route: str, data: Mapping[str, Any]) -> object:
    """The command a route's JSON object asks for (`Malformed` if it is not one)."""
    return requests.command(ROUTES, route, data)
