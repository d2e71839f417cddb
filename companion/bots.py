"""Bot players for `companion simulate` and the demo: a cautious one and a greedy one.

They decide what a player would do after drawing; the table (the simulator) rolls the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion import cards
from companion.rules import geometry
from companion.rules.engine import laura_action
from companion.rules.geometry import Pose
from companion.rules.odds import legal_plays, play_odds
from companion.rules.state import Action, Chaos, GameState, Pass, Play

# How much a cautious player values shedding one point of hand: hand cards count at the end.
SHED_WEIGHT = 0.35


def lay(state: GameState, played: Sequence[str]) -> tuple[tuple[str, ...], tuple[Pose, ...]]:
    """The longest prefix of `played` that fits on the table, with a pose for each card
    (the first legal placement); without known poses every card fits and poses are empty."""
    if not state.layout or state.layout[-1] is None:
        return tuple(played), ()
    railway = list(state.railway)
    layout = list(state.layout)
    poses: list[Pose] = []
    for code in played:
        options = geometry.legal_placements(state.edition, railway, layout, code)
        if not options:
            break
        poses.append(options[0])
        railway.append(code)
        layout.append(options[0])
    return tuple(played[: len(poses)]), tuple(poses)


def _hand(state: GameState) -> tuple[str, ...]:
    return state.player.hand + state.draw[:1]


def _play(state: GameState, played: Sequence[str]) -> Play | None:
    fitted, poses = lay(state, played)
    if not fitted:
        return None
    return Play(fitted, (), place=poses or None)


def cautious(state: GameState) -> Action:
    """Weighs each play's expected penalty cards against the points it sheds from the hand;
    discards chaos cards rather than pass; passes when everything looks worse than a card."""
    if state.player.laura:
        return laura_action(state)
    hand = _hand(state)
    edition = state.edition
    extra = len(state.draw) + len(state.discard) if edition.penalties_from_draw else 0
    best: tuple[float, Action] = (1.0, Pass())
    chaos = tuple(code for code in hand if cards.is_chaos(code))
    if chaos:
        best = (-0.1, Chaos(chaos))
    for played in legal_plays(edition, state.front, hand):
        odds = play_odds(edition, state.railway, state.caboose, played, extra)
        cost = odds.penalty_total / odds.outcomes - SHED_WEIGHT * sum(map(cards.value, played))
        if cost < best[0]:
            action = _play(state, played)
            if action is not None:
                best = (cost, action)
    return best[1]


def greedy(state: GameState) -> Action:
    """Sheds as many points as it can at once, whatever the dice may do."""
    if state.player.laura:
        return laura_action(state)
    hand = _hand(state)
    options = legal_plays(state.edition, state.front, hand)
    for played in sorted(options, key=lambda p: (-sum(map(cards.value, p)), p)):
        action = _play(state, played)
        if action is not None:
            return action
    chaos = tuple(code for code in hand if cards.is_chaos(code))
    return Chaos(chaos) if chaos else Pass()


POLICIES: dict[str, Callable[[GameState], Action]] = {"cautious": cautious, "greedy": greedy}
