"""Every action the player to move may take, for a reader outside the engine (a generic
bot, an advisor, a property test): python-chess's `legal_moves`, with the dice aside.

A play is listed without its roll (the dice decide it when they settle) and without a
placement (any legal placement of its cards will do: `geometry.legal_placements`)."""

from __future__ import annotations

from itertools import combinations

from companion.games.caboose import cards
from companion.games.caboose.rules.engine import laura_action
from companion.games.caboose.rules.odds import legal_plays
from companion.games.caboose.rules.state import Action, Chaos, GameState, Pass, Play


def legal_actions(state: GameState) -> list[Action]:
    """Passing, every distinct legal play and every distinct set of chaos cards to discard,
    from the hand with the card drawn this turn; for Laura (R-10) the one action the rules
    make her take; nothing once the game is over."""
    if state.over:
        return []
    if state.player.laura:
        return [laura_action(state)]
    hand = state.player.hand + state.draw[:1]
    actions: list[Action] = [Pass()]
    actions += [Play(tuple(played), ()) for played in legal_plays(state.edition, state.front, hand)]
    chaos = sorted(code for code in hand if cards.is_chaos(code))
    for size in range(1, len(chaos) + 1):
        actions += [Chaos(discarded) for discarded in dict.fromkeys(combinations(chaos, size))]
    return actions
