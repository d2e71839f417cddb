"""The private advisor's Caboose advice (companion/games/caboose/advise.py): every play's
exact chance to derail and expected penalty, counted here independently by playing every
roll of the dice through the engine; passing, chaos cards, R-7's orders; the best move and
why; a hand that cannot be held refused by name, the state untouched."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from companion.games.caboose.advise import advice
from companion.games.caboose.rules import discard
from companion.games.caboose.rules.engine import apply, start
from companion.games.caboose.rules.state import DERAILED, TOOK, Chaos, GameState, Play
from companion.games.protocol import Malformed

DRAW = ("1", "2", "4", "1", "2", "3", "4", "1")


def table(
    edition: str = "rollecate",
    railway: tuple[str, ...] = ("2", "3", "4", "3x", "4", "3"),
    caboose: int = 2,
    hand: tuple[str, ...] = ("4", "4", "2x", "3"),
    pile: tuple[str, ...] = (),
) -> GameState:
    """Ana to move, holding `hand` (Ben holds two cards); the caboose `caboose` cards in."""
    state = start(edition, ["Ana", "Ben"], railway, caboose, [hand, ("1", "2")], DRAW)
    ana = replace(state.seats[0], pile=pile)
    return replace(state, seats=(ana, state.seats[1]))


def counted(state: GameState, hand: tuple[str, ...], played: tuple[str, ...]):
    """(chance to derail, expected penalty cards) of a play, by applying it with every
    roll of the dice: each face of each die equally likely."""
    faces = state.edition.die_faces
    dice = state.edition.dice_for(played)
    ana = replace(state.seats[0], hand=hand)
    mine = replace(state, seats=(ana, *state.seats[1:]))
    derailed = taken = rolls = 0
    for roll in product(faces, repeat=dice):
        events = apply(mine, Play(played, roll))[1]
        rolls += 1
        derailed += any(e.what == DERAILED for e in events)
        taken += sum(e.what == TOOK for e in events)
    return Fraction(derailed, rolls), Fraction(taken, rolls)


def fraction(doc) -> Fraction:
    return Fraction(doc["num"], doc["den"])


@pytest.mark.parametrize(
    ("edition", "railway", "caboose", "hand"),
    [
        ("rollecate", ("2", "3", "4", "3x", "4", "3"), 2, ("4", "4", "2x", "3")),
        ("loose-caboose", ("1", "2x", "3", "4"), 0, ("1", "2", "2", "3x")),
        ("loknroll", ("1", "2", "1", "2", "3"), 3, ("2", "2", "3", "4x")),
    ],
)
def test_every_play_has_the_chances_the_dice_give(edition, railway, caboose, hand):
    state = table(edition, railway, caboose, hand)
    advised = advice(state, 0, list(hand))
    assert advised["plays"], "the hand has plays onto this front"
    for play in advised["plays"]:
        played = tuple(play["cards"])
        if state.edition.dice_for(played) > 6:
            continue  # 6**7 rolls is too long to play one by one here
        derail, expected = counted(state, hand, played)
        assert fraction(play["p_derail"]) == derail, played
        assert fraction(play["expected"]) == expected, played
        assert play["p_derail"]["percent"] == round(float(derail) * 100, 1)


def test_plays_list_every_legal_group_and_none_the_front_forbids():
    # Rollecate's front 3: a 1 differs by 2 and is never offered.
    advised = advice(table(hand=("1", "4", "4", "2x")), 0, ["1", "4", "4", "2x"])
    assert sorted(tuple(p["cards"]) for p in advised["plays"]) == [("2x",), ("4",), ("4", "4")]


def test_the_best_play_is_the_one_with_the_least_penalty_expected():
    state = table()
    advised = advice(state, 0, ["4", "4", "2x", "3"])
    expected = {tuple(p["cards"]): fraction(p["expected"]) for p in advised["plays"]}
    best = advised["best"]
    assert best["kind"] == "play"
    assert expected[tuple(best["cards"])] == min(expected.values())
    assert best["reason"] == "least_penalty"
    assert [p["cards"] for p in advised["plays"] if p["best"]] == [best["cards"]]


def test_a_play_that_cannot_derail_nor_reach_a_broken_track_is_no_risk():
    # Four steps to the front, no broken track: a 2 or a 4 cannot derail, two 4s can.
    state = table(railway=("2", "3", "4", "3", "4", "3", "2", "1", "2", "3"), caboose=6)
    advised = advice(state, 0, ["2", "4", "4"])
    risky = next(p for p in advised["plays"] if p["cards"] == ["4", "4"])
    assert fraction(risky["p_derail"]) > 0
    assert advised["best"]["reason"] == "no_risk"
    assert advised["best"]["cards"] in (["2"], ["4"])
    assert advised["best"]["tied"] == [["4"] if advised["best"]["cards"] == ["2"] else ["2"]]


def test_among_equal_plays_the_most_cards_laid_is_best_and_the_others_tied():
    # Two 1s of either shape, seven steps to the front: one die or two, no risk either way.
    state = table(railway=("2", "3", "4", "3", "4", "3", "2", "1", "2"), caboose=1)
    advised = advice(state, 0, ["1/s", "1/c"])
    assert advised["best"] == {
        "kind": "play",
        "cards": ["1/c", "1/s"],
        "reason": "no_risk",
        "tied": [["1/c"], ["1/s"]],
    }


def test_one_play_is_the_only_play():
    advised = advice(table(), 0, ["2x"])
    assert advised["best"]["reason"] == "only_play"
    assert advised["best"]["cards"] == ["2x"]


def test_no_card_that_joins_the_front_means_passing():
    advised = advice(table(), 0, ["1", "1"])
    assert advised["plays"] == []
    assert advised["best"] == {"kind": "pass", "cards": [], "reason": "must_pass", "tied": []}
    assert advised["pass"]["best"] is True


def test_passing_is_best_when_every_play_is_expected_to_cost_more():
    # The caboose on the front card: a 4 rolls four dice, 2 in 3 showing a wheel each.
    state = table(railway=("2", "3", "4", "3", "4", "3"), caboose=5, hand=("4", "4"))
    advised = advice(state, 0, ["4", "4"])
    assert advised["pass"]["cards"] == 1
    assert all(fraction(p["expected"]) > 1 for p in advised["plays"])
    assert advised["best"]["kind"] == "pass"
    assert advised["best"]["reason"] == "pass_cheaper"


def test_passing_onto_a_broken_track_costs_two_cards_from_the_back():
    advised = advice(table(), 0, ["3"])
    assert advised["pass"] | {"best": False} == {
        "cards": 2,
        "broken": True,
        "taken": ["2", "3"],
        "pile": ["2", "3"],
        "points": 5,
        "best": False,
    }


def test_a_chaos_card_combines_with_an_equal_top_card():
    state = table("loknroll", ("1", "2", "1", "2", "3"), 3, ("C2", "C3"), pile=("1", "2"))
    chaos = {c["card"]: c for c in advice(state, 0, ["C2", "C3"])["chaos"]}
    assert chaos["C2"] == {"card": "C2", "combines": "2", "pile": ["1"], "points": 1, "change": -2}
    assert chaos["C3"]["combines"] is None
    assert chaos["C3"]["pile"] == ["1", "2", "C3"] and chaos["C3"]["change"] == 3


def test_every_chaos_card_at_once_goes_in_the_order_that_leaves_the_fewest_points():
    # Top card 3 under a 2: C2 combines with the 2, then C3 with the 3: an empty pile.
    state = table("loknroll", ("1", "2", "1", "2", "3"), 3, ("C3", "C2"), pile=("3", "2"))
    both = advice(state, 0, ["C3", "C2"])["chaos_all"]
    assert both == {"order": ["C2", "C3"], "pile": [], "points": 0, "change": -5}
    # Played as the engine plays a chaos turn in that order: the same pile.
    after = apply(state, Chaos(("C2", "C3")))[0]
    assert list(after.seats[0].pile) == both["pile"]
    assert advice(state, 0, ["C3"])["chaos_all"] is None


def test_penalty_cards_have_their_discard_orders_best_first():
    state = table(pile=("3",))
    advised = advice(state, 0, ["4", "4", "2x", "3"])
    play = next(p for p in advised["plays"] if p["cards"] == ["4", "4"])
    two = next(o for o in play["outcomes"] if o["cards"] == 2)
    assert two["taken"] == ["2", "3"]
    best_pile = discard.place(("3",), discard.best_order(("3",), ("2", "3")))[0]
    assert two["orders"][0]["pile"] == list(best_pile)
    points = [o["points"] for o in two["orders"]]
    assert points == sorted(points) and len(points) > 1
    chances = sum(fraction(o["chance"]) for o in play["outcomes"])
    assert chances == 1 - fraction(play["penalties"][0])


def test_loose_caboose_has_no_order_to_choose_nor_chaos_cards_to_tap():
    state = table("loose-caboose", ("1", "2x", "3", "4"), 0, ("1", "2", "2", "3x"))
    advised = advice(state, 0, ["2", "2"])
    assert advised["orders"] is False
    assert advised["cards"] == [
        {"group": "track", "codes": ["1", "2", "3", "4"]},
        {"group": "broken", "codes": ["1x", "2x", "3x", "4x"]},
    ]
    assert advice(table(), 0, [])["cards"][2] == {
        "group": "chaos",
        "codes": ["C1", "C2", "C3", "C4"],
    }
    assert all("orders" not in o for p in advised["plays"] for o in p["outcomes"])


def test_another_seat_is_advised_on_the_table_as_it_is_now():
    advised = advice(table(), 1, ["2"])
    assert advised["to_move"] is False and advised["mover"] == "Ana"
    assert advised["name"] == "Ben"
    assert [p["cards"] for p in advised["plays"]] == [["2"]]


@pytest.mark.parametrize(
    ("hand", "key", "code"),
    [
        (["5"], "not_a_card", "5"),
        ([3], "not_a_card", "3"),
        (["C2"], "not_in_edition", "C2"),  # Loose Caboose has no chaos cards
        (["2x"], "all_seen", "2x"),  # the only 2x lies on the railway
        (["1", "1", "1"], "too_many", None),  # Ben holds two cards
    ],
)
def test_a_hand_that_cannot_be_held_is_refused_by_name(hand, key, code):
    state = table("loose-caboose", ("1", "2x", "3", "4"), 0, ("1", "2", "2", "3x"))
    with pytest.raises(Malformed) as refused:
        advice(state, 1, hand)
    assert refused.value.key == key
    if code is not None:
        assert refused.value.params["code"] == code
        assert code in refused.value.message


def test_a_pile_in_sight_counts_against_the_hand_unless_the_deal_is_a_guess():
    state = table(pile=("1x",))
    with pytest.raises(Malformed) as refused:
        advice(state, 1, ["1x"])
    assert refused.value.key == "all_seen"
    assert advice(state, 1, ["1x"], provisional=True)["hand"] == ["1x"]


@pytest.mark.parametrize("seat", [2, -1, "0", True])
def test_a_seat_that_is_none_is_refused(seat):
    with pytest.raises(Malformed) as refused:
        advice(table(), seat, ["3"])
    assert refused.value.key == "seat"


def test_advice_leaves_the_state_as_it_was():
    state = table(pile=("3",))
    before = repr(state)
    advice(state, 0, ["4", "4", "2x", "3"])
    advice(state, 1, ["2"])
    assert repr(state) == before
