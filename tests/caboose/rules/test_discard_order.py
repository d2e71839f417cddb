"""RULINGS.md R-7: the engine's proposed order is exact, not greedy."""

from itertools import permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.caboose import cards
from companion.games.caboose.rules.discard import NO_COMBINE, best_order, pile_key, place


def outcome(pile, order):
    return pile_key([cards.value(c) for c in place(pile, order)[0]])


def every_order(pile, taken):
    """All orders, each card combining or not where it could: the brute force."""
    for perm in set(permutations(taken)):
        for marks in product((False, True), repeat=len(perm)):
            yield [c + NO_COMBINE if m else c for c, m in zip(perm, marks, strict=True)]


def high_first_greedy(pile, taken):
    """Combine when a card matches the top, else put the highest card down."""
    stack, rest, order = list(pile), list(taken), []
    while rest:
        top = cards.value(stack[-1]) if stack else None
        match = [c for c in rest if cards.value(c) == top]
        card = match[0] if match else max(rest, key=cards.value)
        rest.remove(card)
        order.append(card)
        stack = list(place(stack, [card])[0])
    return order


def test_R7_a_case_where_greedy_is_worse():
    """Pile 3 (top), cards 1 and 2 taken: nothing combines; greedy puts the 2 down first and
    leaves a 1 on top, the exact order leaves the 2 on top, the better target later."""
    pile, taken = ("3",), ("1", "2")
    greedy = place(pile, high_first_greedy(pile, taken))[0]
    best = place(pile, best_order(pile, taken))[0]
    assert greedy == ("3", "2", "1")
    assert best == ("3", "1", "2")
    assert outcome(pile, best_order(pile, taken)) < outcome(pile, high_first_greedy(pile, taken))


def test_R7_fewest_points_first():
    pile, taken = ("2", "1"), ("1", "2", "1")
    order = best_order(pile, taken)
    assert place(pile, order)[0] == ("1",)


def test_R7_combining_digs_into_the_pile():
    pile, taken = ("1", "4"), ("4",)
    assert place(pile, best_order(pile, taken))[0] == ("1",)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from("1234"), max_size=6),
    st.lists(st.sampled_from(["1", "2", "3", "4", "2x", "C3"]), min_size=1, max_size=5),
)
def test_R7_no_order_beats_the_proposed_one(pile, taken):
    proposed = best_order(tuple(pile), tuple(taken))
    assert sorted(c.rstrip(NO_COMBINE) for c in proposed) == sorted(taken)
    best = outcome(pile, proposed)
    assert all(best <= outcome(pile, order) for order in every_order(pile, taken))
