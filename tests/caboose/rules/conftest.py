"""Small tables built by hand, as the rulebooks' examples describe them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.caboose.rules.engine import start
from companion.games.caboose.rules.state import GameState


def table(
    edition: str,
    railway: list[str],
    caboose: int,
    hands: list[list[str]],
    draw: list[str] | None = None,
    discard: list[str] | None = None,
    names: list[str] | None = None,
    variant: str | None = None,
    piles: list[list[str]] | None = None,
) -> GameState:
    names = names or ["Ana", "Ben", "Cleo", "Dan"][: len(hands)]
    draw = ["1", "1", "1", "1", "1", "1"] if draw is None else draw
    state = start(edition, names, railway, caboose, hands, draw, discard or [], variant)
    if piles:
        seats = tuple(replace(s, pile=tuple(p)) for s, p in zip(state.seats, piles, strict=True))
        state = replace(state, seats=seats)
    return state


def laura_table(
    railway: list[str], caboose: int, draw: list[str], pile: tuple[str, ...] | list[str] = ()
) -> GameState:
    """Solo against Laura: Laura (seat 0, to move) and Ana holding a 2 and a 3."""
    return table(
        "loknroll",
        railway,
        caboose,
        [[], ["2", "3"]],
        draw=draw,
        names=["Laura", "Ana"],
        variant="solo-laura",
        piles=[list(pile), []],
    )


@pytest.fixture
def make_table():
    return table
