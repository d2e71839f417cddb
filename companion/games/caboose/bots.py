"""Bot players for `companion simulate` and the demo: a cautious one and a greedy one.

They decide what a player would do after drawing; the table (the simulator) rolls the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from companion.games.caboose import cards
from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.engine import laura_action
from companion.games.caboose.rules.odds import expected_penalties, plays_of_held
from companion.games.caboose.rules.penalties import beyond_the_railway
from companion.games.caboose.rules.state import Action, Chaos, GameState, Pass, Play, make_play
from companion.pose import Pose

# How much a cautious player values shedding one point of hand: hand cards count at the end.
SHED_WEIGHT = 0.35


def lay(state: GameState, played: Sequence[str]) -> tuple[tuple[str, ...], tuple[Pose, ...]]:
    """The longest prefix of `played` that fits on the table, with a pose for each card
    (the first legal placement); without known poses every card fits and poses are empty."""
    return _lay(state, played, {})


def _lay(
    state: GameState, played: Sequence[str], first: dict[str, list[Pose]]
) -> tuple[tuple[str, ...], tuple[Pose, ...]]:
    """`lay`, with `first` remembering the placements of a first card onto this state."""
    if not state.layout or state.layout[-1] is None:
        return tuple(played), ()
    poses: list[Pose] = []
    options = _first_placements(state, played[0], first) if played else []
    if options:
        poses.append(options[0])
    if options and len(played) > 1:
        poses += geometry.extend(
            state.edition, [*state.railway, played[0]], [*state.layout, options[0]], played[1:]
        )
    return tuple(played[: len(poses)]), tuple(poses)


def _first_placements(state: GameState, code: str, known: dict[str, list[Pose]]) -> list[Pose]:
    """The placements of `code` onto the state's front, worked out once per code a turn."""
    options = known.get(code)
    if options is None:
        options = known[code] = geometry.legal_placements(
            state.edition, state.railway, state.layout, code
        )
    return options


def _hand(state: GameState) -> tuple[str, ...]:
    return state.seats[state.to_move].hand + state.draw[:1]


Plays = tuple[tuple[str, ...], ...]


def _options(state: GameState, hand: Sequence[str]) -> tuple[Plays, tuple[int, ...], Plays]:
    """The legal plays of `hand` onto the state's front in `legal_plays`' order, the points
    each sheds, and the plays most points first (then by cards) as greedy tries them. They
    depend on the cards held alone, so they are worked out once per hand."""
    gap = state.edition.forbidden_difference
    return _weighed(gap, cards.value(state.railway[-1]), tuple(sorted(hand)))


@lru_cache(maxsize=1 << 14)
def _weighed(
    gap: int | None, front: int, held: tuple[str, ...]
) -> tuple[Plays, tuple[int, ...], Plays]:
    """`_options` by what it depends on."""
    plays = plays_of_held(gap, front, held)
    points = tuple(sum(map(cards.value, played)) for played in plays)
    by_points = sorted(zip(points, plays, strict=True), key=lambda option: (-option[0], option[1]))
    return plays, points, tuple(played for _, played in by_points)


_PASS = Pass()  # frozen: one serves every turn that passes


def _play(state: GameState, played: Sequence[str], known: dict[str, list[Pose]]) -> Play | None:
    """`played` as the table takes it (`lay`), or None when its first card fits nowhere:
    a play fits when its first card does."""
    fitted, poses = _lay(state, played, known)
    if not fitted:
        return None
    return make_play(fitted, (), None, poses or None, ())


def cautious(state: GameState) -> Action:
    """Weighs each play's expected penalty cards against the points it sheds from the hand;
    discards chaos cards rather than pass; passes when everything looks worse than a card.

    Every legal play is weighed by its odds alone; the table is asked where a card would
    lie only for the best plays, from the best down, until one fits (a play fits when its
    first card does), so a turn costs one or two placement questions, not one per play."""
    if state.seats[state.to_move].laura:
        return laura_action(state)
    hand = _hand(state)
    edition = state.edition
    extra = beyond_the_railway(edition, len(state.draw), len(state.discard))
    threshold, fallback = 1.0, _PASS
    chaos = tuple([code for code in hand if cards.is_chaos(code)])  # a list: no generator
    if chaos:
        threshold, fallback = -0.1, Chaos(chaos)
    plays, points, _ = _options(state, hand)
    penalties = expected_penalties(edition, state.railway, state.caboose, plays, extra)
    ranked = []
    for index, (played, shed, penalty) in enumerate(zip(plays, points, penalties, strict=True)):
        cost = penalty - SHED_WEIGHT * shed
        if cost < threshold:
            ranked.append((cost, index, played))
    # The cheapest play that fits; among equal costs the first, as a scan keeping only
    # strict improvements would choose.
    ranked.sort(key=lambda item: item[:2])
    known: dict[str, list[Pose]] = {}
    for _, _, played in ranked:
        action = _play(state, played, known)
        if action is not None:
            return action
    return fallback


def greedy(state: GameState) -> Action:
    """Sheds as many points as it can at once, whatever the dice may do."""
    if state.seats[state.to_move].laura:
        return laura_action(state)
    hand = _hand(state)
    known: dict[str, list[Pose]] = {}
    for played in _options(state, hand)[2]:
        action = _play(state, played, known)
        if action is not None:
            return action
    chaos = tuple(code for code in hand if cards.is_chaos(code))
    return Chaos(chaos) if chaos else _PASS


POLICIES: dict[str, Callable[[GameState], Action]] = {"cautious": cautious, "greedy": greedy}
