"""`legal_actions`, the engine's legal moves for a reader outside it: every action it lists
is one the engine takes (whatever the dice show), and every action a bot chooses is listed
(its roll and placement aside), over whole games of every edition and variant."""

from __future__ import annotations

import random

import pytest

from companion.games.caboose.bots import POLICIES
from companion.games.caboose.rules.actions import legal_actions
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.state import Chaos, Pass, Play, RuleError
from companion.games.caboose.simulate import turns

GAMES = [
    ("loose-caboose", ["Ana", "Ben", "Cleo"], None),
    ("rollecate", ["Ana", "Ben"], None),
    ("loknroll", ["Ana", "Ben", "Cleo", "Dan"], None),
    ("loknroll", ["Ana"], "solo-laura"),
]


def _bare(action):
    """An action as `legal_actions` lists it: a play without its roll and placement."""
    if isinstance(action, Play):
        return Play(action.cards, ())
    if isinstance(action, Pass):
        return Pass()
    return Chaos(tuple(sorted(action.cards)))


@pytest.mark.parametrize(("edition", "names", "variant"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_listed_action_is_taken_and_every_chosen_one_is_listed(edition, names, variant, seed):
    state = deal(edition, names, seed, variant)
    dice = random.Random(seed)
    policies = [POLICIES["cautious"], POLICIES["greedy"]]
    checked = 0
    for after, action, _ in turns(state, policies, seed):
        listed = legal_actions(state)
        assert _bare(action) in [_bare(a) for a in listed]
        for candidate in listed:
            if isinstance(candidate, Play) and not state.player.laura:
                count = state.edition.dice_for(candidate.cards)
                roll = tuple(dice.choice(state.edition.die_faces) for _ in range(count))
                candidate = Play(candidate.cards, roll)
            try:
                apply(state, candidate)
            except RuleError as error:
                pytest.fail(f"turn {state.turn}: {candidate} listed but refused: {error}")
            checked += 1
        state = after
    assert state.over and legal_actions(state) == []
    assert checked > len(names)  # the game lasted more than one round of listings
