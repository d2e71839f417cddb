"""Playing a Caboose game through the shared table, as the page, the buttons and the camera
do: every change a command handed to `Table.handle` (companion/table.py); and what any
game's match drives besides the page, recorded (`Outputs`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from gpiozero.pins.mock import MockFactory

from companion.games.caboose.commands import Act
from companion.games.caboose.match import Match
from companion.games.caboose.rules.state import Chaos, Pass, Play
from companion.games.protocol import Start
from companion.table import Table


def new_game(
    table: Table,
    edition: str,
    names: Sequence[str],
    variant: str | None = None,
    seed: int | str | None = None,
) -> Match:
    """A new Caboose game at the table, as the start form asks for it; its match."""
    table.start("caboose", Start(tuple(names), edition, variant, seed))
    return match(table)


def act(table: Table, seat: int, action: Pass | Play | Chaos) -> None:
    """A whole turn entered on the page."""
    table.handle(Act(seat, action))


def match(table: Table) -> Match:
    """The Caboose game at the table (there must be one)."""
    assert isinstance(table.match, Match), "no Caboose game at the table"
    return table.match


def press(factory: MockFactory, pin: int, seconds: float = 0.06) -> None:
    """A player's press of the button on `pin`: held `seconds` (the table's hold is longer,
    so the default is a short press)."""
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()


class Outputs:
    """The LED and buzzer as a match drives them (hw.controls.Controls' two methods),
    recorded: the LED's states in order, and how often the buzzer sounded."""

    def __init__(self) -> None:
        self.led: list[str] = []
        self.buzzes = 0

    def show(self, status: str) -> None:
        self.led.append(status)

    def illegal(self) -> None:
        self.buzzes += 1
