"""Whole games between bots, for `companion simulate --game switching` and the property
that a record replays to the simulator's final state: `play` one game and keep its record.

The dice come from a generator seeded by the game's seed and the bots' choices from
another, so a seed names one game for good (the setup's panels too)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.switching import bots, record, rules
from companion.games.switching.board import PANEL_COLOURS, Board
from companion.games.switching.rules import Action, Event, Position, Roll, Stop

# Actions after which a game between bots is called off: far beyond any game seen (a
# game of four players takes a few hundred), so only a game that cannot end meets it.
MOST_ACTIONS = 5000


@dataclass(frozen=True)
class Played:
    """One game: its record document, how it ended, its bots' names by colour."""

    doc: dict[str, Any]
    end: Position
    names: tuple[str, ...]


def play(board: Board, policies: Sequence[str], seed: int | str, variant: str = "full") -> Played:
    """A game between bots named after their policies (`greedy-1`, `random-2`, …), seat i
    playing `policies[i]` with the i-th train colour, each panel lying the way the seed
    says (S-5). ValueError if it has not ended after MOST_ACTIONS actions."""
    dice = random.Random(f"dice:{seed}")
    choices = random.Random(f"bots:{seed}")
    names = tuple(f"{policy}-{seat + 1}" for seat, policy in enumerate(policies))
    turned = [panel for panel in PANEL_COLOURS if dice.random() < 0.5]
    colours = rules.COLOURS[: len(policies)]
    start = rules.deal(board, colours, rules.VARIANTS[variant], turned)
    position = start
    played: list[tuple[Action, Sequence[Event]]] = []
    while not position.over:
        if len(played) == MOST_ACTIONS:
            raise ValueError(f"seed {seed!r}: no winner after {MOST_ACTIONS} actions")
        policy = policies[position.turn]
        if position.reroll is not None and not bots.reroll(position, policy, choices):
            position, events = rules.apply(position, Stop())
            played.append((Stop(), events))
            continue
        panel = bots.repair(position, policy, choices)
        colour = None if panel is not None else dice.choice(PANEL_COLOURS)
        roll = Roll(colour, dice.randint(1, 6), dice.randint(1, 6))
        outcome = bots.choose(position, rules.legal_moves(position, roll, panel), policy, choices)
        position = outcome.position
        played.append((outcome.action, outcome.events))
    return Played(record.to_json(start, names, played), position, names)
