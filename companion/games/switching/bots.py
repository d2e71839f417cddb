"""Scripted players for `simulate` and the demo: two policies a family would recognise.

`random` picks any legal move (and re-rolls, plays repair tiles, on a coin's toss): the
baseline. `greedy` rates each move's full outcome (`rules.legal_moves`) by the race: its
trains the fewer spaces from Finish the better, the others' trains the more the better (so
bumping a rival back, or into a dead end, pays), a train heading into a dead end or off the
track worth little, a train at Finish most. Both choose only among the rules' own legal
moves, so a bot is never wrong about what is legal; ties go to a seeded random choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache

from companion.games.switching.board import FINISH, PANEL_COLOURS, Board, Layout, network
from companion.games.switching.rules import Outcome, Position, Roll, legal_moves, slidable

POLICIES = ("greedy", "random")

_AT_FINISH = 100  # a train in the depot: worth much more than any train still on the way
_ON_THE_WAY = 40  # a train heading for Finish: this, less its spaces from Finish
_ASTRAY = 3  # a train heading into a dead end or off the track: barely better than none
_TILE = 4  # a repair tile held (the bonus level)
_TYPICAL = (3, 4)  # the number dice a greedy bot weighs a repair tile with (the mean roll)


@cache
def _to_finish(board: Board, layout: Layout) -> Mapping[tuple[str, int], int]:
    """Spaces from each (space, facing) to a Finish along the tracks as they lie, trains
    ignored; a way that ends in a dead end or off the track is missing."""
    ahead = network(board, layout).ahead
    limit = len(board.spaces)
    found: dict[tuple[str, int], int] = {}
    for here in ahead:
        state, steps = here, 0
        while steps < limit:
            step = ahead[state]
            if isinstance(step, str):
                break
            steps += 1
            if board.spaces[step.space].kind == FINISH:
                found[here] = steps
                break
            state = (step.space, step.facing)
    return found


def rating(position: Position, colour: str) -> float:
    """How well the race stands for `colour`: its trains' worth less the mean of its
    rivals' (a win is best of all)."""
    if position.winner is not None:
        return float("inf") if position.winner == colour else float("-inf")
    distance = _to_finish(position.board, position.layout)
    worth = dict.fromkeys(position.players, 0.0)
    for train in position.trains:
        steps = distance.get((train.space, train.facing))
        worth[train.owner] += _ASTRAY if steps is None else _ON_THE_WAY - steps
    for seat, colour_of in enumerate(position.players):
        worth[colour_of] += _AT_FINISH * position.depots[seat]
        if position.variant.repair_tiles:
            worth[colour_of] += _TILE * position.repairs[seat]
    rivals = [worth[c] for c in position.players if c != colour]
    return worth[colour] - sum(rivals) / len(rivals)


def choose(
    position: Position, outcomes: Sequence[Outcome], policy: str, rng: random.Random
) -> Outcome:
    """The bot's move among the legal ones for its roll (`rules.legal_moves`)."""
    if policy == "random":
        return rng.choice(outcomes)
    mover = position.players[position.turn]
    rated = [(rating(o.position, mover), o) for o in outcomes]
    best = max(r for r, _ in rated)
    return rng.choice([o for r, o in rated if r == best])


def reroll(position: Position, policy: str, rng: random.Random) -> bool:
    """After doubles (`position.reroll`): roll again (True) or stop. Greedy rolls again
    when the same train is heading for Finish or started over (it enters again anew);
    a train heading into a dead end had better not be pushed on."""
    assert position.reroll is not None
    if policy == "random":
        return rng.random() < 0.5
    space = position.reroll.train
    train = None if space is None else position.train_at(space)
    if train is None:
        return True
    return (train.space, train.facing) in _to_finish(position.board, position.layout)


def repair(position: Position, policy: str, rng: random.Random) -> str | None:
    """The panel to slide with a repair tile before rolling (S-20), or None to roll the
    colour die. Greedy plays a tile when, for a roll of 7, its best move after sliding that
    panel, less the tile spent, beats its best move after the colour die's on average."""
    seat = position.turn
    if not position.variant.repair_tiles or position.repairs[seat] == 0:
        return None
    panels = slidable(position)
    if not panels:
        return None
    if policy == "random":
        return rng.choice(panels) if rng.random() < 0.5 else None
    mover = position.players[seat]
    # A tile slides a panel as the colour die showing it would, and is spent: each panel's
    # best move for a roll of 7 is weighed once, the tile's worth taken off for the tile.
    best = {
        colour: max(
            rating(o.position, mover) for o in legal_moves(position, Roll(colour, *_TYPICAL))
        )
        for colour in PANEL_COLOURS
    }
    by_die = sum(best.values()) / len(best)
    chosen = max(panels, key=best.__getitem__)
    return chosen if best[chosen] - _TILE > by_die else None
