"""Rollecate and LOK'n'ROLL share their rules: each test runs on both editions."""

import pytest

from companion.games.caboose.rules.engine import apply
from companion.games.caboose.rules.scoring import final_ranking, score
from companion.games.caboose.rules.state import CANCELLED, DERAILED, Chaos, Pass, Play, RuleError

both = pytest.mark.parametrize("edition", ["rollecate", "loknroll"])


@both
def test_two_twos_roll_four_dice(make_table, edition):
    """Example: two track cards of value 2 added, roll 2 + 2 = 4 dice."""
    state = make_table(edition, ["1", "2", "1", "2"], 0, [["2", "2"], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play(("2", "2"), (1, 1)))
    assert error.value.rule == "dice"
    after, _ = apply(state, Play(("2", "2"), (1, 0, 1, 0)))
    assert after.caboose == 2


@both
def test_more_than_four_dice_roll_again(make_table, edition):
    """Two 4s: 8 dice, rolled in two throws; the record lists all eight."""
    state = make_table(edition, ["3", "4", "3", "4"], 0, [["4", "4"], ["1"]], draw=["1"] * 9)
    after, _ = apply(state, Play(("4", "4"), (0, 0, 1, 0, 0, 0, 0, 1)))
    assert after.caboose == 2


@both
def test_three_wheels_one_card_ahead_derails_to_the_last_card_and_takes_two(make_table, edition):
    """Example: 3 wheels with one card ahead: on the last card (value 3), 2 penalty cards."""
    state = make_table(edition, ["1", "2", "1", "2"], 3, [["3"], ["1"]])
    after, events = apply(state, Play(("3",), (1, 1, 1)))
    assert after.railway == ("1", "2", "3")
    assert after.railway[after.caboose] == "3"
    assert [e.number for e in events if e.what == DERAILED] == [2]
    assert sorted(after.seats[0].pile) == ["1", "2"]


@both
@pytest.mark.parametrize(("front", "card"), [("3", "1"), ("1", "3"), ("4", "2"), ("2", "4")])
def test_adjacent_values_never_differ_by_two(make_table, edition, front, card):
    state = make_table(edition, ["4", front], 0, [[card], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play((card,), (0,) * int(card)))
    assert error.value.rule == "R-11"
    assert state.railway == ("4", front)  # untouched


@both
def test_a_one_and_a_four_may_be_neighbours(make_table, edition):
    state = make_table(edition, ["3", "4"], 0, [["1"], ["1"]])
    after, _ = apply(state, Play(("1",), (0,)))
    assert after.railway == ("3", "4", "1")


@both
def test_a_three_and_a_four_cannot_be_played_together(make_table, edition):
    state = make_table(edition, ["3", "4"], 0, [["3", "4"], ["1"]])
    with pytest.raises(RuleError, match="same value"):
        apply(state, Play(("3", "4"), (0,) * 7))


@both
def test_penalties_come_from_the_start_and_stop_at_the_trains_card(make_table, edition):
    state = make_table(edition, ["3"], 0, [["2"], ["1"]])
    after, events = apply(state, Pass())
    assert after.railway == ("3",) and after.seats[0].pile == ()
    assert not any(e.what == DERAILED for e in events)


@both
def test_pass_moves_one_card_if_possible_never_derails_and_takes_one(make_table, edition):
    state = make_table(edition, ["2", "1", "2"], 1, [["4"], ["1"]])
    after, _ = apply(state, Pass())
    assert after.railway == ("1", "2") and after.caboose == 1
    assert after.seats[0].pile == ("2",)
    again, events = apply(after, Pass())  # Ben: already on the last card
    assert not any(e.what == DERAILED for e in events)
    assert again.seats[1].pile == ("1",)


@both
@pytest.mark.parametrize(
    ("order", "pile"),
    [
        (None, ()),  # 1 combines with the top 1, then 2 with the 2 below it
        (("2", "1"), ("2", "1", "2", "1")),
        (("1!", "2"), ("2", "1", "1", "2")),  # `!`: the 1 does not combine although it could
    ],
)
def test_penalty_cards_go_on_at_the_end_of_the_turn_in_any_order(make_table, edition, order, pile):
    """Combining: a card equal to the top card may combine, both leave the game; several
    combinations in one turn, each card once."""
    state = make_table(edition, ["1", "2", "1", "2"], 3, [["3"], ["1"]], piles=[["2", "1"], []])
    after, _events = apply(state, Play(("3",), (1, 1, 1), order=order))
    assert after.seats[0].pile == pile
    assert len(after.discard) == 4 - len(pile)


@both
def test_a_card_discarded_this_turn_can_be_combined_with(make_table, edition):
    state = make_table(edition, ["2", "2", "1", "2"], 3, [["3"], ["1"]])
    after, events = apply(state, Play(("3",), (1, 1, 1)))
    assert after.seats[0].pile == ()
    assert [e.cards for e in events if e.what == CANCELLED] == [("2", "2")]


@both
def test_chosen_order_must_list_the_cards_taken(make_table, edition):
    state = make_table(edition, ["1", "2", "1", "2"], 3, [["3"], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play(("3",), (1, 1, 1), order=("4", "4")))
    assert error.value.rule == "R-7"


@both
@pytest.mark.parametrize(
    ("cards", "pile"), [(("C3", "C2"), ("C2",)), (("C3!", "C2"), ("3", "C3", "C2"))]
)
def test_chaos_cards_go_onto_the_pile_in_order_no_move_no_penalty(make_table, edition, cards, pile):
    state = make_table(edition, ["2", "1", "2"], 1, [["C2", "C3", "4"], ["1"]], piles=[["3"], []])
    after, _ = apply(state, Chaos(cards))
    assert after.seats[0].pile == pile
    assert after.railway == state.railway and after.caboose == state.caboose
    assert after.seats[0].hand == ("4", "1")


@both
def test_chaos_action_takes_only_chaos_cards(make_table, edition):
    state = make_table(edition, ["2", "1", "2"], 1, [["C2", "4"], ["1"]])
    with pytest.raises(RuleError, match="only chaos cards"):
        apply(state, Chaos(("4",)))


@pytest.mark.parametrize(
    ("edition", "winners", "decided_by"),
    [
        ("rollecate", ["Ben"], "4s"),
        ("loknroll", ["Ben"], "4s"),
        ("loose-caboose", ["Ana", "Ben"], "shared"),
    ],
)
def test_equal_points_and_cards_go_to_fewest_fours_except_in_loose_caboose(
    make_table, edition, winners, decided_by
):
    state = make_table(edition, ["2", "1", "2"], 2, [["4", "1"], ["3", "2"]], draw=["1"])
    state, _ = apply(state, Play(("1",), (0,)))  # Ana draws the last card, plays a 1
    assert state.over
    assert [score(seat, True) for seat in state.seats] == [5, 5]
    ranking = final_ranking(state)
    assert (ranking.winners, ranking.decided_by) == (winners, decided_by)


@both
def test_two_cards_of_value_one_may_both_be_added(make_table, edition):
    """Example: with two 1s in hand you may add both (and roll 1 + 1 = 2 dice)."""
    state = make_table(edition, ["3", "4", "2"], 0, [["1", "1"], ["3"]])
    after, _ = apply(state, Play(("1", "1"), (1, 1)))
    assert after.railway == ("3", "4", "2", "1", "1") and after.caboose == 2
