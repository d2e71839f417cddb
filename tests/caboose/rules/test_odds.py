"""`derail_odds`: exact chances from the edition's dice faces."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from companion.games.caboose.rules.edition import load
from companion.games.caboose.rules.engine import apply
from companion.games.caboose.rules.odds import derail_odds, legal_plays, wheel_counts
from companion.games.caboose.rules.state import TOOK, Play


def test_wheel_counts_are_exact():
    # Rollecate die: 4 wheel faces, 2 blank. Two dice: 0 wheels 4/36, 1: 16/36, 2: 16/36.
    assert wheel_counts((1, 1, 1, 1, 0, 0), 2) == (4, 16, 16)
    assert sum(wheel_counts((0, 0, 1, 1, 2, 2), 3)) == 6**3


def test_one_card_ahead_two_dice(make_table):
    """Rollecate, caboose on the front, a 2 played: derails only if both dice show a wheel."""
    state = make_table("rollecate", ["1", "2", "1", "2"], 3, [["2"], ["1"]], draw=["C1", "1"])
    (odds,) = derail_odds(state)
    assert odds.cards == ("2",) and odds.dice == 2 and odds.steps_to_front == 1
    assert odds.p_derail == Fraction(16, 36)
    assert odds.expected_penalty == Fraction(16, 36)
    assert odds.penalties == (Fraction(20, 36), Fraction(16, 36))


def test_broken_track_ahead_counts_in_expected_penalty(make_table):
    state = make_table("loose-caboose", ["1", "2x"], 0, [["1"], ["1"]], draw=["3", "1"])
    odds = {o.cards: o for o in derail_odds(state)}
    one = odds[("1",)]  # 1 die: 0 wheels 1/3 (no move), 1 wheel 1/3 (onto 2x), 2 wheels 1/3
    assert one.p_derail == 0
    assert one.expected_penalty == Fraction(2, 3)
    three = odds[("3",)]
    assert three.dice == 3 and three.p_derail > 0


def test_every_distinct_legal_play_is_listed_once():
    edition = load("loknroll")
    found = legal_plays(edition, "2", ["3", "3x", "3", "4", "1", "C2"])
    assert ("4",) not in found  # 2 and 4 differ by 2
    assert ("3", "3", "3x") in found and ("3", "3x") in found and ("3",) in found
    # 1; 3; 3x; 3 3; 3 3x; 3 3 3x: broken tracks laid last
    assert len(found) == len(set(found)) == 6


def test_legal_plays_are_the_same_in_any_order_of_the_hand_and_each_answer_is_the_callers():
    """They are cached by the cards held: the order of the hand changes nothing, and a
    caller that changes its list does not change the next answer."""
    edition = load("rollecate")
    hand = ["3/s", "1", "3x/c", "C2", "3/c", "4", "1x"]
    first = legal_plays(edition, "2", hand)
    for shuffled in (hand[::-1], sorted(hand), hand[3:] + hand[:3]):
        assert legal_plays(edition, "2", shuffled) == first
    first.clear()
    again = legal_plays(edition, "2", hand)
    assert ("3/c", "3/s", "3x/c") in again and ("4",) not in again
    assert legal_plays(load("loose-caboose"), "2", hand) != again  # no forbidden gap there


# Tables where every rule of a derailment's cost is at work: broken tracks ahead and among
# the cards played, rolls past the front, too few cards behind the caboose
# the others stop at its card), Loose Caboose's draw and discard piles.
AGREEING_TABLES = [
    ("rollecate", ["1", "2", "1", "2x", "3"], 1, ["2", "1", "1x"], ["3", "1"], []),
    ("loknroll", ["2", "3"], 0, ["3", "4", "2x"], ["1"], []),
    ("loose-caboose", ["1", "2x", "3"], 0, ["2", "1", "1x", "3"], ["4", "4"], ["2", "2"]),
    ("loose-caboose", ["3"], 0, ["2", "1"], ["1"], []),
]


@pytest.mark.parametrize(
    ("edition", "railway", "caboose", "hand", "draw", "discard"), AGREEING_TABLES
)
def test_the_odds_count_roll_by_roll_the_penalty_cards_the_engine_takes(
    make_table, edition, railway, caboose, hand, draw, discard
):
    """For every play of up to three dice and every roll of its dice, the number of penalty
    cards the odds count is the number the engine takes playing it."""
    state = make_table(edition, railway, caboose, [hand, ["1"]], draw=draw, discard=discard)
    checked = 0
    for odds in derail_odds(state):
        if odds.dice > 3:
            continue
        taken: Counter[int] = Counter()
        for roll in product(state.edition.die_faces, repeat=odds.dice):
            _, events = apply(state, Play(odds.cards, roll))
            taken[sum(event.what == TOOK for event in events)] += 1
        assert tuple(taken[k] for k in range(len(odds.by_penalty))) == odds.by_penalty, odds
        assert sum(taken.values()) == odds.outcomes
        checked += 1
    assert checked
