"""Scripted players for `simulate` and the demo: two policies a family would recognise.

`run` drafts for the longest cargo run (the bonus, Y-9), `value` for the railcars' points.
Both look one card ahead only, from the rules' own ways of adding a card (`rules.ways`, what
`legal_adds` lists), so a bot is never wrong about what is legal; ties go to a seeded random
choice, so games differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from companion.games.yardmaster import cards, rules
from companion.games.yardmaster.rules import Add, Tail, Yard


def _value_first(train: Tail, laid: str) -> tuple[int, int]:
    return cards.value_of(laid), rules.tail_after(train, laid).longest


def _run_first(train: Tail, laid: str) -> tuple[int, int]:
    return rules.tail_after(train, laid).longest, cards.value_of(laid)


# policy -> how it rates adding a card, as it would lie, to the end of a train seen by its
# `Tail` (higher wins)
POLICIES: dict[str, Callable[[Tail, str], tuple[int, int]]] = {
    "run": _run_first,
    "value": _value_first,
}


def choose(yard: Yard, policy: str, rng: random.Random) -> Add:
    """The bot's addition: the best of the legal ones by its policy; a card it must lay
    face down is its least valuable one, so it gives away the least."""
    if yard.over or not yard.draw:
        raise ValueError("no card can be added: the game is over or the deck is empty")
    train = yard.trains[yard.to_move]
    return choose_from(policy, rules.tail(train), train[-1], yard.in_hand, rng)


def choose_from(
    policy: str, train: Tail, last: str, hand: Sequence[str], rng: random.Random
) -> Add:
    """`choose` from what the choice depends on: the mover's train (its `Tail` and its last
    card) and the hand once drawn. The simulator keeps these as the game goes instead of
    building a `Yard` each turn; the same arguments and generator give the same addition."""
    offers = _offers(policy, train, last)
    best: tuple[int, ...] = ()  # below every rating: no card joins face up yet
    chosen: list[Add] = []  # the best-rated face-up additions, in `legal_adds`' order
    for card in dict.fromkeys(hand):
        offer = offers[card]
        if offer.rating > best:
            best, chosen = offer.rating, [*offer.best]
        elif offer.rating == best and best:
            chosen += offer.best
    if chosen:
        return rng.choice(chosen)
    cheapest = min(offers[card].value for card in hand)
    return rng.choice(
        [offers[card].face_down for card in dict.fromkeys(hand) if offers[card].value == cheapest]
    )


class _Offer(NamedTuple):
    """One card of the hand as a bot weighs it: the policy's best rating of its face-up
    additions (() when it joins neither way), the additions so rated (in `rules.ways`'
    order), its face-down addition and the card's value."""

    rating: tuple[int, ...]
    best: tuple[Add, ...]
    face_down: Add
    value: int


class _Offers(dict[str, _Offer]):
    """Every card's `_Offer` after one train end, for one policy, weighed when first asked
    for: a game meets few train ends, and weighing cards was most of its time."""

    def __init__(self, policy: str, train: Tail, last: str) -> None:
        super().__init__()
        self.rate, self.train, self.last = POLICIES[policy], train, last

    def __missing__(self, card: str) -> _Offer:
        *face_up, face_down = rules.ways(self.last, card)
        rated = [(self.rate(self.train, add.laid), add) for add in face_up]
        rating = max((r for r, _ in rated), default=())
        best = tuple(add for r, add in rated if r == rating)
        offer = self[card] = _Offer(rating, best, face_down, cards.value_of(card))
        return offer


@lru_cache(maxsize=1 << 14)
def _offers(policy: str, train: Tail, last: str) -> _Offers:
    return _Offers(policy, train, last)
