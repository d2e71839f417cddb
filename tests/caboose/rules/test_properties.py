"""Properties over random whole games of every edition and player count."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.caboose import cards
from companion.games.caboose.bots import POLICIES
from companion.games.caboose.record import parse, replay, summary
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.scoring import counted, score
from companion.games.caboose.rules.state import Play
from companion.games.caboose.simulate import play_game, turns

games = st.sampled_from(
    [
        ("loose-caboose", 2, None),
        ("loose-caboose", 3, None),
        ("loose-caboose", 4, None),
        ("rollecate", 2, None),
        ("rollecate", 3, None),
        ("rollecate", 4, None),
        ("loknroll", 2, None),
        ("loknroll", 4, None),
        ("loknroll", 1, "solo"),
        ("loknroll", 1, "solo-hard"),
        ("loknroll", 1, "solo-laura"),
    ]
)
policy_mixes = st.sampled_from(
    [("cautious",), ("greedy",), ("cautious", "greedy"), ("greedy", "cautious")]
)


def everywhere(state):
    places = [state.railway, state.draw, state.discard, state.out]
    for seat in state.seats:
        places += [seat.hand, seat.pile, seat.banked]
    return Counter(code for place in places for code in place)


@settings(max_examples=60, deadline=None)
@given(games, policy_mixes, st.integers(0, 10**6))
def test_every_card_is_always_in_exactly_one_place(game, mix, seed):
    edition, players, variant = game
    names = [f"P{i}" for i in range(players)]
    state = deal(edition, names, seed, variant)
    deck = Counter(state.edition.deck)
    assert everywhere(state) == deck
    for after, _, _ in turns(state, [POLICIES[p] for p in mix], seed):
        assert everywhere(after) == deck
    assert after.over


@settings(max_examples=40, deadline=None)
@given(games, policy_mixes, st.integers(0, 10**6))
def test_scores_equal_a_recount_and_replay_reproduces_the_game(game, mix, seed):
    edition, players, variant = game
    names = [f"P{i}" for i in range(players)]
    result = play_game(edition, names, seed, [POLICIES[p] for p in mix], variant)
    state = result.state
    for seat in state.seats:
        held = counted(seat, True)
        recount = len(held) if seat.laura else sum(cards.value(c) for c in held)
        assert score(seat, True) == recount
    replayed = replay(parse(result.record.dumps()))
    assert replayed.error is None
    assert summary(replayed.state, []) == summary(state, [])


@settings(max_examples=30, deadline=None)
@given(games, policy_mixes, st.integers(0, 10**6))
def test_a_turn_laid_by_the_rules_is_the_turn_the_table_check_accepts(game, mix, seed):
    """Simulated games skip the placement check (`laid_by_rules`): every bot play passes it
    anyway, and the turn comes out the same either way."""
    edition, players, variant = game
    state = deal(edition, [f"P{i}" for i in range(players)], seed, variant)
    plays = 0
    for after, action, events in turns(state, [POLICIES[p] for p in mix], seed):
        assert apply(state, action) == (after, events)
        plays += isinstance(action, Play) and action.place is not None
        state = after
    assert plays
