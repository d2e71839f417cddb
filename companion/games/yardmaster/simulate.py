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
    """A game from `start` to its end, seat i playing `policies[i]`."""
    rng = random.Random(f"bots:{seed}")
    yard, adds = start, []
    while not yard.over:
        add: Add = bots.choose(yard, policies[yard.to_move], rng)
        adds.append(add)
        yard = rules.apply(yard, add)
    return Played(record.to_json(start, adds, variant), yard)


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
