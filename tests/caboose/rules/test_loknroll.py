"""LOK'n'ROLL (Tranjis 2020): setup, the solo modes and Laura (R-10)."""

from collections import Counter

import pytest

from companion.games.caboose import cards
from companion.games.caboose.rules.engine import apply, deal, laura_action
from companion.games.caboose.rules.scoring import final_ranking, score
from companion.games.caboose.rules.state import (
    DERAILED,
    LEFT_GAME,
    TOOK,
    Chaos,
    Pass,
    Play,
    RuleError,
)
from tests.caboose.rules.conftest import laura_table


@pytest.mark.parametrize(("players", "removed"), [(2, 11), (3, 9), (4, 7)])
def test_setup_first_railway_removed_cards_and_hands(players, removed):
    for seed in range(30):
        state = deal("loknroll", [f"P{i}" for i in range(players)], seed)
        assert len(state.railway) == 4 and state.caboose == 2  # train on the third card
        assert not any(cards.is_chaos(c) for c in state.railway)
        for a, b in zip(state.railway, state.railway[1:], strict=False):
            assert abs(cards.value(a) - cards.value(b)) != 2
        assert len(state.out) == removed
        assert all(len(seat.hand) == 2 for seat in state.seats)
        everything = list(state.railway) + list(state.draw) + list(state.out)
        everything += [c for seat in state.seats for c in seat.hand]
        assert Counter(everything) == Counter(state.edition.deck)


def test_cards_set_aside_at_setup_are_shuffled_back():
    """Chaos or unplaceable cards drawn for the first railway go back into the deck."""
    seeds = [s for s in range(200) if _first_four_need_setting_aside(s)]
    assert seeds, "some shuffle must draw a chaos card early"
    state = deal("loknroll", ["Ana", "Ben"], seeds[0])
    chaos_left = [c for c in state.draw + state.out if cards.is_chaos(c)]
    chaos_left += [c for seat in state.seats for c in seat.hand if cards.is_chaos(c)]
    assert len(chaos_left) == 5


def _first_four_need_setting_aside(seed):
    import random

    from companion.games.caboose.rules.edition import load

    deck = list(load("loknroll").deck)
    random.Random(seed).shuffle(deck)
    return any(cards.is_chaos(c) for c in deck[:4])


def test_solo_record_is_set_up_as_for_two_players():
    state = deal("loknroll", ["Ana"], 1, "solo")
    assert len(state.seats) == 1 and len(state.out) == 11
    with pytest.raises(RuleError):
        deal("loknroll", ["Ana", "Ben"], 1, "solo")
    with pytest.raises(RuleError):
        deal("rollecate", ["Ana"], 1, "solo")


def test_laura_moves_first_and_moves_by_the_value_of_her_card():
    state = deal("loknroll", ["Ana"], 5, "solo-laura")
    assert state.seats[0].laura and state.seats[0].hand == () and state.to_move == 0
    state = laura_table(["1", "2", "1", "2", "1", "2"], 0, ["3", "1"])
    assert laura_action(state) == Play(("3",), ())
    after, events = apply(state, Play(("3",), ()))
    assert after.caboose == 3 and not any(e.what == DERAILED for e in events)


def test_laura_takes_exactly_one_card_when_she_derails_and_always_combines():
    state = laura_table(["1", "2", "1", "3"], 3, ["4", "1"], pile=["1"])
    after, events = apply(state, Play(("4",), ()))  # 4 steps, 1 possible: derails 3 short
    assert [e.number for e in events if e.what == DERAILED] == [3]
    assert len([e for e in events if e.what == TOOK]) == 1
    assert after.seats[0].pile == ()  # the 1 taken combined with her 1 at once


def test_laura_discards_a_chaos_card_she_draws():
    state = laura_table(["1", "2"], 0, ["C3", "1"], pile=["3"])
    assert laura_action(state) == Chaos(("C3",))
    after, _ = apply(state, Chaos(("C3",)))
    assert after.seats[0].pile == ()


def test_laura_passes_when_she_cannot_play_and_the_card_leaves_the_game():
    state = laura_table(["1", "2", "1", "4"], 1, ["2", "1"])
    assert laura_action(state) == Pass()  # a 2 cannot join a 4
    after, events = apply(state, Pass())
    assert [e.cards for e in events if e.what == LEFT_GAME] == [("2",)]
    assert "2" in after.out and after.seats[0].hand == ()
    assert after.caboose == 1 and len(after.seats[0].pile) == 1


def test_laura_must_do_what_the_rules_say():
    state = laura_table(["1", "2"], 0, ["3", "1"])
    with pytest.raises(RuleError) as error:
        apply(state, Pass())
    assert error.value.rule == "R-10"
    with pytest.raises(RuleError) as error:
        apply(state, Play(("3",), (1, 1, 1)))
    assert error.value.rule == "R-10"


def test_laura_scores_the_number_of_cards_on_her_pile():
    state = laura_table(["1", "2"], 0, ["1"], pile=["4", "3"])
    after, _ = apply(state, Play(("1",), ()))
    assert after.over
    laura, ana = after.seats
    assert score(laura, True) == 2  # two cards, whatever their values
    assert score(ana, True) == 5
    assert final_ranking(after).winners == ["Laura"]


def test_laura_may_pass_when_the_railway_was_not_all_seen():
    """R-10 with R-12: a shaped card that fits by value may still have had no room on the
    table; where the setup's poses are unknown, her recorded pass stands."""
    state = laura_table(["1/s", "2/s"], 0, ["3/s", "1/s"])
    after, _ = apply(state, Pass())
    assert after.to_move == 1
    with pytest.raises(RuleError):
        apply(state, Chaos(("3/s",)))
