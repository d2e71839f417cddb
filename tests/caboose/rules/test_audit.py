"""The independent rules audit (issue 10): impossible turns and tables the engine accepted, or
refused for the wrong reason. Each test names the Caboose ruling (docs/RULINGS.md) it holds to."""

from __future__ import annotations

import pytest

from companion.games.caboose.rules.edition import load
from companion.games.caboose.rules.engine import apply, start
from companion.games.caboose.rules.scoring import counted, score
from companion.games.caboose.rules.state import TOOK, Pass, Play, RuleError, Seat
from tests.caboose.rules.conftest import laura_table


def refused(state, action) -> RuleError:
    """The RuleError `apply` raises for an illegal action (the state is never changed)."""
    with pytest.raises(RuleError) as error:
        apply(state, action)
    return error.value


# --- Laura never holds a hand ----------------------------------------------------


def test_R10_a_setup_that_gives_laura_cards_is_refused():
    with pytest.raises(RuleError) as error:
        start(
            "loknroll",
            ["Laura", "Ana"],
            ["1", "2", "1", "2"],
            2,
            [["4", "4"], ["2", "3"]],
            ["1", "1"],
            variant="solo-laura",
        )
    assert error.value.rule == "R-10"
    assert "Laura" in error.value.message and "4, 4" in error.value.message


def test_R10_laura_scores_the_cards_on_her_pile_and_nothing_else():
    """Even a seat that somehow held cards (a table built by hand) scores her pile alone."""
    laura = Seat("Laura", hand=("4", "3"), pile=("1", "2"), laura=True)
    assert counted(laura, True) == ("1", "2")
    assert score(laura, True) == 2


# --- `order` where no player chooses one ------------------------------------------------


def test_R13_a_loose_caboose_pass_with_an_order_is_refused_for_having_no_order(make_table):
    state = make_table("loose-caboose", ["1", "2", "3"], 1, [["4"], ["1"]])
    error = refused(state, Pass(order=("1",)))
    assert error.rule == "R-13"
    assert "Loose Caboose has no discard order" in error.message
    assert "no penalty cards were taken" not in error.message  # it took one: the 1


def test_R13_a_loose_caboose_derailment_with_an_order_is_refused_the_same_way(make_table):
    state = make_table("loose-caboose", ["1", "2", "3"], 1, [["1"], ["1"]])
    error = refused(state, Play(("1",), (2,), order=("1",)))
    assert error.rule == "R-13" and "no discard order" in error.message


def test_R10_a_laura_derailment_with_an_order_is_refused_because_she_never_chooses():
    state = laura_table(["1", "2", "1", "3"], 3, ["4", "1"], pile=["1"])
    assert len([e for e in apply(state, Play(("4",), ()))[1] if e.what == TOOK]) == 1
    error = refused(state, Play(("4",), (), order=("1",)))
    assert error.rule == "R-10"
    assert "at once" in error.message and "always combines" in error.message


def test_R7_an_order_in_rollecate_is_still_the_players_choice(make_table):
    state = make_table("rollecate", ["1", "2", "1", "2"], 2, [["4"], ["1"]], piles=[["1"], []])
    after, _ = apply(state, Pass(order=("1!",)))  # the pass's 1, kept beside the pile's 1
    assert after.seats[0].pile == ("1", "1")
    assert refused(state, Play(("1",), (0,), order=("1",))).rule == "R-7"  # none taken


# --- `drawn` names cards drawn from a reshuffled discard pile -----------------------


def test_R3_drawn_in_a_turn_that_reshuffled_nothing_is_refused(make_table):
    # The pass's penalty card comes from the back of the railway: nothing is reshuffled.
    state = make_table("loose-caboose", ["1", "2", "3"], 1, [["4"], ["1"]], discard=["2", "2"])
    error = refused(state, Pass(drawn=("2",)))
    assert error.rule == "R-3"
    assert "no card was drawn from a reshuffled discard pile" in error.message


def test_R3_drawn_in_rollecate_which_never_reshuffles_is_refused(make_table):
    state = make_table("rollecate", ["1", "2", "1", "2"], 2, [["4"], ["1"]], discard=["3", "3"])
    assert refused(state, Pass(drawn=("3",))).rule == "R-3"


def test_R3_drawn_listing_more_cards_than_the_reshuffle_gave_is_refused(make_table):
    # Ana draws the last 1 and plays her 2 with three wheels: two steps short. The first
    # penalty card is the railway's 3; the second, with only the caboose's card left and
    # the draw pile empty, comes from the reshuffled discard pile.
    state = make_table(
        "loose-caboose", ["3"], 0, [["2"], ["1"]], draw=["1"], discard=["4", "1", "4", "1"]
    )
    _after, events = apply(state, Play(("2",), (2, 1), drawn=("1",)))
    assert [e.detail["source"] for e in events if e.what == TOOK] == ["railway", "reshuffled"]
    error = refused(state, Play(("2",), (2, 1), drawn=("1", "4")))
    assert error.rule == "R-3" and "only 1 came from the reshuffled discard pile" in error.message


# --- setup: a table that cannot be -------------------------------------------------------


def test_setup_a_chaos_card_on_the_railway_is_refused():
    with pytest.raises(RuleError, match="chaos cards are never track"):
        start("rollecate", ["Ana", "Ben"], ["1", "2", "C2", "2"], 2, [["1"], ["2"]], ["1"])


def test_setup_more_cards_of_one_shape_than_the_box_holds_is_refused():
    # The box has six straight 3s (editions/rollecate.json); seven cannot be shown,
    # though seven 3s of any shape could.
    with pytest.raises(RuleError, match="7 of card 3/s"):
        start("rollecate", ["Ana", "Ben"], ["3/s"] * 7, 2, [["1"], ["2"]], ["1"])
    start("rollecate", ["Ana", "Ben"], ["3/s"] * 6 + ["3"], 2, [["1"], ["2"]], ["1"])


def test_setup_a_code_that_is_not_a_card_is_a_rule_error_not_a_crash():
    with pytest.raises(RuleError, match="not a card code"):
        start("rollecate", ["Ana", "Ben"], ["1", "2!"], 1, [["1"], ["2"]], ["1"])


def test_R14_a_setup_with_nothing_left_to_draw_is_refused():
    with pytest.raises(RuleError) as error:
        start("rollecate", ["Ana", "Ben"], ["1", "2"], 1, [["1"], ["2"]], [])
    assert error.value.rule == "R-14" and "draw pile is empty" in error.value.message


def test_R1_a_setup_discard_pile_that_is_not_pairs_is_refused():
    """Cards are discarded only two of one value at a time, a card and the top card it
    cancelled or combined with."""
    with pytest.raises(RuleError) as error:
        start("loose-caboose", ["Ana", "Ben"], ["1"], 0, [["1"], ["2"]], ["3"], ["4", "4", "2"])
    assert error.value.rule == "R-1" and "odd number of 2s" in error.value.message
    start("loose-caboose", ["Ana", "Ben"], ["1"], 0, [["1"], ["2"]], ["3"], ["2", "4", "4", "2"])


def test_setup_more_cards_than_are_left_in_play_after_the_removal_is_refused():
    """Rollecate for two removes 11 of its 55 cards at setup: a table shows at most 44."""
    deck = list(load("rollecate").deck)  # tracks first, the chaos cards last
    railway, hands, draw = deck[:4], [deck[4:24], deck[24:44]], deck[44:45]
    with pytest.raises(RuleError, match=r"shows 45 cards.* has 44 in play: 11 of the 55"):
        start("rollecate", ["Ana", "Ben"], railway, 2, hands, draw)
    start("rollecate", ["Ana", "Ben"], railway, 2, [deck[4:24], deck[24:43]], draw)
