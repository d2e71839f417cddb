"""What can be asked of a switching-track match, as commands, and the parsing of the page's
JSON into them.

As for the other games, a route only names its command: the shape of each request (unknown
or missing fields, dice that are not 1 to 6, a turn that is not a number) is checked here
and a request of the wrong shape is refused (`Malformed`, 400) before it reaches the game;
whether a colour is one of the board's panels or a space one of its spaces is the match's
to say, since it knows the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games import requests
from companion.games.protocol import Malformed
from companion.games.requests import fields
from companion.games.said import Said
from companion.games.switching.follow import BoardSeen


@dataclass(frozen=True)
class Throw:
    """The dice as thrown: the colour die's colour, or `repair`, the panel a repair tile
    slides instead of it (S-20), and the two number dice. `turn`: the steps taken as the
    phone saw them (None: as the table has it now, what the camera read)."""

    colour: str | None
    dice: tuple[int, int]
    turn: int | None
    repair: str | None = None


@dataclass(frozen=True)
class Play:
    """The move: the mover's train on `space` goes, or a new train enters at the Start
    `space`."""

    space: str
    turn: int | None


@dataclass(frozen=True)
class PassTurn:
    """No move is possible for the roll (the turn is lost), or the doubles' re-roll is
    declined: whichever the game is waiting for."""

    turn: int | None


@dataclass(frozen=True)
class Undo:
    """The last step taken back (a move: back to its roll; a roll: back to before it)."""

    turn: int | None = None


@dataclass(frozen=True)
class Press:
    """A button: PASS, CONFIRM or UNDO (held CONFIRM), debounced by hw.controls."""

    button: str


@dataclass(frozen=True)
class Seen:
    """What one camera frame brought: the board as it lies still (None: no news of it), the
    dice as they lie still and read surely (the colour die's colour, None when none lies
    there, and the two number dice; None: no such dice), whether the dice were off the
    table or unread in this frame (lifted for a new throw), and what the camera could not
    see in the frame."""

    board: BoardSeen | None = None
    dice: tuple[str | None, tuple[int, int]] | None = None
    lifted: bool = False
    camera: tuple[Said, ...] = ()


def button(name: str) -> Press:
    """The command of a button of hw.controls."""
    return Press(name)


# --- parsing the page's JSON ----------------------------------------------------------------


def _turn(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(
            "request",
            f"{name} must be the number of steps taken so far as the page shows it "
            "(the view's turn; 0 before the first roll)",
            key="bad_turn",
            params={"field": name},
        )
    return value


def _dice(value: Any, name: str) -> tuple[int, int]:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)
    ):
        return value[0], value[1]
    raise Malformed(
        "request",
        f"{name} must list the two number dice, each 1 to 6, such as [3, 4]",
        key="bad_dice",
        params={"field": name},
    )


def _throw(data: Mapping[str, Any]) -> Throw:
    got = fields(
        data,
        {"colour": requests.text, "repair": requests.text, "dice": _dice, "turn": _turn},
        ("dice", "turn"),
    )
    if ("colour" in got) == ("repair" in got):
        raise Malformed(
            "request", "give the colour die's colour, or the panel a repair tile slides "
            "instead (repair), not both", key="colour_or_repair",
        )  # fmt: skip
    return Throw(got.get("colour"), got["dice"], got["turn"], got.get("repair"))


def _play(data: Mapping[str, Any]) -> Play:
    got = fields(data, {"from": requests.text, "turn": _turn}, ("from", "turn"))
    return Play(got["from"], got["turn"])


def _pass(data: Mapping[str, Any]) -> PassTurn:
    return PassTurn(fields(data, {"turn": _turn}, ("turn",))["turn"])


def _undo(data: Mapping[str, Any]) -> Undo:
    return Undo(fields(data, {"turn": _turn}, ("turn",))["turn"])


# The page's requests (`POST /api/command/<name>`) and the commands they send.
ROUTES: requests.Routes = {
    "roll": _throw,
    "play": _play,
    "pass": _pass,
    "undo": _undo,
}


def parse(route: str, data: Mapping[str, Any]) -> object:
    """The command a route's JSON object asks for (`Malformed` if it is not one)."""
    return requests.command(ROUTES, route, data)
