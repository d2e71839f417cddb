"""A game of the switching-track board game at the table, as the page and the camera are
shown it.

The match (match.py) keeps the game as the store does: how it was set up and the steps
taken since. A step is a roll (the three dice as thrown, or the number dice after a repair
tile) or an action of the rules (a move, a lost turn, a re-roll declined). A roll is a step
of its own because at the table the dice are thrown, and read, before anyone touches a
train: the page then lists every legal move for it with its outcome, and a restarted
service must not forget it. A `Snapshot` is the game at one instant; nothing in it changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.switching import rules
from companion.games.switching.board import Board
from companion.games.switching.rules import Action, Event, Outcome, Position, Roll


@dataclass(frozen=True)
class Played:
    """One action applied: what happened, and the position after it."""

    action: Action
    events: tuple[Event, ...]
    position: Position


@dataclass(frozen=True)
class Snapshot:
    """The game at one instant. `names` by seat (seat i plays the train colour
    `start.players[i]`); `history` every action applied, in order; `roll` the mover's dice
    taken but not yet played (`repair`: the panel a repair tile slides for it, S-20);
    `undone` each step taken back, as the log says it: the step number it had, a key of the
    game's words and its parameters."""

    names: tuple[str, ...]
    start: Position
    history: tuple[Played, ...] = ()
    roll: Roll | None = None
    repair: str | None = None
    undone: tuple[tuple[int, str, dict[str, Any]], ...] = ()
    variant: str = "full"

    @property
    def position(self) -> Position:
        """The game after every action (each was checked when it was taken)."""
        return self.history[-1].position if self.history else self.start

    @property
    def board(self) -> Board:
        return self.start.board

    @cached_property
    def moves(self) -> tuple[Outcome, ...]:
        """Every legal action for the roll taken, with its full outcome (none before the
        dice are thrown)."""
        if self.roll is None:
            return ()
        return rules.legal_moves(self.position, self.roll, self.repair)

    @property
    def turn(self) -> int:
        """Steps taken so far (each roll and each action is one): the number a page sends
        back, so a tap on a table that has moved on is refused."""
        rolls = sum(1 for played in self.history if not isinstance(played.action, rules.Stop))
        return rolls + len(self.history) + (self.roll is not None)

    def name(self, colour: str) -> str:
        """The name of the player whose trains are `colour`."""
        return self.names[self.start.players.index(colour)]

    @property
    def phase(self) -> str:
        """What the table waits for: "over", "move" (the dice are read), "reroll" (doubles:
        the mover may throw again, or stop) or "roll"."""
        if self.position.over:
            return "over"
        if self.roll is not None:
            return "move"
        return "reroll" if self.position.reroll is not None else "roll"
