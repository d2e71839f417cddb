"""A Caboose game in progress to look at (`companion serve --demo`): a Rollecate game where
bots have played a few turns, so the page opens with a railway, piles and a log."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.caboose.bots import cautious, greedy
from companion.games.caboose.commands import Act
from companion.games.caboose.match import Match
from companion.games.caboose.rules.engine import dice_to_roll
from companion.games.caboose.rules.state import Play
from companion.games.protocol import Start
from companion.table import Table


def sample(table: Table, turns: int = 6, seed: str = "demo") -> None:
    """Deal the game at `table` and let the bots play `turns` turns through it, as the
    page would, the dice rolled from `seed`."""
    table.start("caboose", Start(("Ana", "Ben", "Cleo"), "rollecate", seed=seed))
    dice = random.Random(seed)
    policies = (cautious, greedy)
    for number in range(turns):
        match = table.match
        assert isinstance(match, Match)
        state = match.snap.state
        if state.over:
            return
        action = policies[number % 2](state)
        if isinstance(action, Play):
            count = dice_to_roll(state, action.cards)
            faces = state.edition.die_faces
            action = replace(action, roll=tuple(dice.choice(faces) for _ in range(count)))
        table.handle(Act(state.to_move, action))
