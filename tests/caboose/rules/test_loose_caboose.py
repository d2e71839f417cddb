"""Loose Caboose (Gamewright 2022): the rulebook's examples and rules, one test each."""

import pytest

from companion.games.caboose.rules.engine import apply
from companion.games.caboose.rules.scoring import final_ranking, score
from companion.games.caboose.rules.state import DERAILED, Pass, Play, RuleError

LC = "loose-caboose"


def test_three_wheels_with_one_card_ahead_moves_to_front_and_costs_two_from_the_back(make_table):
    """Rulebook example: 3 wheels, only 1 card ahead: caboose to the front, 2 penalty cards."""
    state = make_table(LC, ["2", "4", "1"], 2, [["3"], ["1"]])
    after, events = apply(state, Play(("3",), (1, 1, 1)))
    assert after.railway == ("1", "3")
    assert after.caboose == 1 and after.railway[after.caboose] == "3"
    assert after.seats[0].pile == ("2", "4")
    assert [e.number for e in events if e.what == DERAILED] == [2]
    assert after.seats[0].derailments == 1


def test_two_threes_roll_three_dice(make_table):
    """Rulebook example: two 3s played, roll three dice (the value, not the sum)."""
    state = make_table(LC, ["2", "4", "1"], 0, [["3", "3"], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play(("3", "3"), (1, 1, 1, 1, 1, 1)))
    assert error.value.rule == "dice"
    after, _ = apply(state, Play(("3", "3"), (0, 1, 0)))
    assert after.railway == ("2", "4", "1", "3", "3") and after.caboose == 1


def test_dice_faces_are_blank_one_or_two_wheels(make_table):
    state = make_table(LC, ["2", "4", "1"], 0, [["1"], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play(("1",), (3,)))
    assert error.value.rule == "dice"


def test_penalty_cards_cancel_at_once_and_each_only_once(make_table):
    """Cancelling: a card equal to the top card cancels it at once; both go to the discard
    pile; each card cancels only one other (R-1); cards taken this turn cancel each other."""
    state = make_table(LC, ["2", "2", "2", "4", "1"], 4, [["3"], ["1"]])
    after, _ = apply(state, Play(("3",), (2, 2, 2)))  # 6 wheels, 1 step: 5 penalty cards
    # Taken one by one from the back: 2, 2 (cancels), 2, 4, 1 -> pile 2, 4, 1.
    assert after.seats[0].pile == ("2", "4", "1")
    assert sorted(after.discard) == ["2", "2"]
    assert after.railway == ("3",) and after.caboose == 0


def test_broken_tracks_passed_are_banked_and_never_cancel(make_table):
    """Broken Tracks: bank one penalty card face down for each broken track passed or
    stopped on; banked cards never cancel but count."""
    state = make_table(LC, ["3", "1", "2x", "4", "3x"], 1, [["4"], ["1"]])
    after, _ = apply(state, Play(("4",), (1, 1, 1, 0)))  # 3 steps: over 2x, 4, stops on 3x
    seat = after.seats[0]
    assert seat.banked == ("3", "1")
    assert seat.pile == ()
    assert after.caboose == 2  # two cards were taken from behind it
    assert after.railway[after.caboose] == "3x"
    assert score(seat, over=False) == 4


def test_pass_moves_one_card_and_takes_one_penalty(make_table):
    state = make_table(LC, ["4", "2", "3"], 1, [["1"], ["1"]])
    after, _ = apply(state, Pass())
    assert after.railway == ("2", "3") and after.caboose == 1
    assert after.seats[0].pile == ("4",)
    assert after.seats[0].hand == ("1", "1")  # the turn's draw stays in hand


def test_pass_at_the_end_of_the_railway_just_takes_one_card(make_table):
    state = make_table(LC, ["4", "2", "3"], 2, [["1"], ["1"]])
    after, events = apply(state, Pass())
    assert after.railway == ("2", "3") and after.caboose == 1
    assert not any(e.what == DERAILED for e in events)


def test_with_only_the_caboose_card_left_penalties_come_from_the_draw_pile(make_table):
    """Note in Taking Penalty Cards: the caboose on the last available card, draw the
    remaining penalty cards from the top of the draw pile."""
    state = make_table(LC, ["3"], 0, [["2"], ["1"]], draw=["1", "4", "2", "3"])
    after, _ = apply(state, Play(("2",), (2, 2)))  # 4 wheels, 1 step: 3 short
    assert after.railway == ("2",)
    assert after.seats[0].pile == ("3", "4", "2")
    assert after.draw == ("3",)


def test_game_ends_when_the_draw_pile_is_empty_after_that_turn(make_table):
    state = make_table(LC, ["3", "1", "4"], 1, [["4", "2"], ["3"]], draw=["1", "2"])
    state, _ = apply(state, Pass())
    assert not state.over
    state, events = apply(state, Pass())  # Ben draws the last card and finishes his turn
    assert state.over
    assert events[-1].what == "game-over"


def test_hand_cards_join_the_pile_without_cancelling_and_lowest_score_wins(make_table):
    state = make_table(LC, ["3", "1", "4"], 2, [["4", "4"], ["2"]], draw=["1"])
    state, _ = apply(state, Pass())  # Ana draws the last card, takes the 3
    assert state.over
    ana, ben = state.seats
    assert ana.hand == ("4", "4", "1") and ana.pile == ("3",)
    assert score(ana, True) == 12  # 4 + 4 do not cancel each other in the hand
    assert score(ben, True) == 2
    ranking = final_ranking(state)
    assert ranking.winners == ["Ben"] and ranking.decided_by == "score"


def test_tie_on_points_goes_to_fewest_cards(make_table):
    state = make_table(LC, ["2", "1", "4"], 2, [["4"], []], draw=["1", "2"])
    state, _ = apply(state, Play(("1",), (0,)))  # Ana keeps a 4: 4 points, 1 card
    state, _ = apply(state, Pass())  # Ben draws the last card (2) and takes the 2
    ana, ben = state.seats
    assert (score(ana, True), score(ben, True)) == (4, 4)
    ranking = final_ranking(state)
    assert ranking.winners == ["Ana"] and ranking.decided_by == "cards"


def test_equal_score_and_cards_share_the_victory(make_table):
    state = make_table(LC, ["2", "1", "4"], 2, [["3"], ["3"]], draw=["1", "1"])
    state, _ = apply(state, Play(("1",), (0,)))
    state, _ = apply(state, Play(("1",), (0,)))
    ranking = final_ranking(state)
    assert state.over and ranking.winners == ["Ana", "Ben"] and ranking.decided_by == "shared"


def test_loose_caboose_has_no_chaos_action(make_table):
    from companion.games.caboose.rules.state import Chaos

    state = make_table(LC, ["2", "1", "4"], 2, [["3"], ["3"]])
    with pytest.raises(RuleError) as error:
        apply(state, Chaos(("C1",)))
    assert error.value.rule == "hand"


def test_cards_played_together_must_share_a_value(make_table):
    state = make_table(LC, ["2", "1", "4"], 0, [["3", "4"], ["3"]])
    with pytest.raises(RuleError, match="same value"):
        apply(state, Play(("3", "4"), (0, 0, 0)))
