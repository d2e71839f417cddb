"""Whole games between bots, for `companion simulate --game yardmaster-express` and the
property that a record replays to the simulator's scores: `play` one game (or the
strategic variant's two) and keep its record."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.yardmaster import bots, record, rules
from companion.games.yardmaster.edition import Edition
from companion.games.yardmaster.rules import Add, Yard


@dataclass(frozen=True)
class Played:
    """One game: its record document and how it ended."""

    doc: dict[str, Any]
    end: Yard


def play_from(start: Yard, policies: Sequence[str], seed: int | str, variant=None) -> Played:
    """A game from `start` to its end, seat i playing `policies[i]`.

    The game goes on in plain lists, each train's runs kept card by card (`rules.Tail`), and
    one `Yard` is built at the end: the same turns as `bots.choose` and `rules.apply` turn
    by turn, several times faster (bench/bench_yardmaster.py). The bots choose only among
    `rules.ways`, so every addition is legal; the record replays through `rules.apply`
    (tests/yardmaster/test_record.py checks that it gives the same scores)."""
    rng = random.Random(f"bots:{seed}")
    players = len(start.players)
    hand, draw, drawn = list(start.hand), start.draw, 0
    trains = [list(train) for train in start.trains]
    tails = [rules.tail(train) for train in start.trains]
    adds: list[Add] = []
    for turn in range(start.turns, start.rounds * players):
        if drawn == len(draw):
            raise ValueError("no card can be added: the game is over or the deck is empty")
        seat = turn % players
        hand.append(draw[drawn])  # Y-6: the mover draws, adds one card, passes the rest on
        drawn += 1
        add = bots.choose_from(policies[seat], tails[seat], trains[seat][-1], hand, rng)
        hand.remove(add.card)
        laid = add.laid
        trains[seat].append(laid)
        tails[seat] = rules.tail_after(tails[seat], laid)
        adds.append(add)
    end = Yard(
        start.players,
        tuple(hand),
        draw[drawn:],
        tuple(tuple(train) for train in trains),
        start.caboose,
        start.turns + len(adds),
        start.carried,
    )
    return Played(record.to_json(start, adds, variant), end)


def play(
    edition: Edition,
    policies: Sequence[str],
    seed: int | str,
    with_caboose: bool = False,
    strategic: bool = False,
) -> list[Played]:
    """One game between bots named after their policies (`run-1`, `value-2`, …), or the
    strategic variant's two games (Y-11): the second starts with the first's lowest score,
    passes the other way, and carries the first's points."""
    names = [f"{policy}-{seat + 1}" for seat, policy in enumerate(policies)]
    by_name = dict(zip(names, policies, strict=True))
    first_start = rules.deal(edition, names, seed, with_caboose)
    first = play_from(first_start, [by_name[n] for n in first_start.players], seed)
    if not strategic:
        return [first]
    second_start = rules.deal_second(edition, first.end, f"{seed}:second")
    policies_second = [by_name[n] for n in second_start.players]
    second = play_from(second_start, policies_second, f"{seed}:second", record.STRATEGIC_SECOND)
    return [first, second]
