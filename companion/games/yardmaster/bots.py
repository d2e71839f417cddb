"""Scripted players for `simulate` and the demo: two policies a family would recognise.

`run` drafts for the longest cargo run (the bonus, Y-9), `value` for the railcars' points.
Both look one card ahead only, from the rules' own `legal_adds`, so a bot is never wrong
about what is legal; ties go to a seeded random choice, so games differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games.yardmaster import cards, rules
from companion.games.yardmaster.rules import Add, Yard


def _value_first(train: tuple[str, ...], laid: str) -> tuple[int, int]:
    return cards.value_of(laid), rules.longest_run_with(train, laid)


def _run_first(train: tuple[str, ...], laid: str) -> tuple[int, int]:
    return rules.longest_run_with(train, laid), cards.value_of(laid)


# policy -> how it rates adding a card, as it would lie, to the end of its train (higher wins)
POLICIES: dict[str, Callable[[tuple[str, ...], str], tuple[int, int]]] = {
    "run": _run_first,
    "value": _value_first,
}


def choose(yard: Yard, policy: str, rng: random.Random) -> Add:
    """The bot's addition: the best of the legal ones by its policy; a card it must lay
    face down is its least valuable one, so it gives away the least."""
    legal = rules.legal_adds(yard)
    if not legal:
        raise ValueError("no card can be added: the game is over or the deck is empty")
    rate = POLICIES[policy]
    face_up = [add for add in legal if not add.face_down]
    if face_up:
        train = yard.trains[yard.to_move]
        rated = [(rate(train, add.laid), add) for add in face_up]
        best = max(r for r, _ in rated)
        return rng.choice([add for r, add in rated if r == best])
    cheapest = min(cards.value_of(add.card) for add in legal)
    return rng.choice([add for add in legal if cards.value_of(add.card) == cheapest])
