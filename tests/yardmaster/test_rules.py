"""Yardmaster Express rules, by ruling id (../shared/RULINGS-yardmaster.md, Y-1…Y-13)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.yardmaster import cards, edition, rules
from companion.games.yardmaster.edition import Caboose
from companion.games.yardmaster.rules import Add, RuleError

EDITION = edition.load()
# A deck long enough for any table, every card distinct in value so tests can name them.
DRAW = tuple(f"R{v}-B{v}" for v in range(10, 40))


def game(players=("Ana", "Ben", "Cleo"), hand=None, caboose=None, carried=None):
    n = len(players)
    return rules.start(players, hand or DRAW[:n], DRAW[n:], caboose, carried)


def with_trains(yard: rules.Yard, *trains: tuple[str, ...]) -> rules.Yard:
    """The game with these trains lying (engine first), as at the end of a game."""
    return replace(yard, trains=tuple(trains), turns=yard.rounds * len(yard.players))


def test_y1_two_players_put_every_purple_card_back() -> None:
    two, three = EDITION.deck_for(2), EDITION.deck_for(3)
    assert len(three) == 32 and len(two) == 24
    assert not any("P" in cards.colours_of(c) for c in two)
    dealt = rules.deal(EDITION, ["Ana", "Ben"], seed=4)
    assert not any("P" in cards.colours_of(c) for c in (*dealt.hand, *dealt.draw))


def test_y1_the_edition_file_lists_its_assumptions_and_twelve_cabooses() -> None:
    assert len(EDITION.cabooses) == 12 and EDITION.assumptions
    assert all(cards.railcars(card) for card in EDITION.deck)


def test_y2_a_face_down_card_is_wild_worth_nothing_and_breaks_a_run() -> None:
    assert rules.joins("R1-B4", "W") and rules.joins("W", "G3-Y2")
    assert rules.train_value(("E", "R3-B2", "W")) == 5
    assert rules.runs(("E", "Y1-Y1", "W", "Y2-Y3")) == (("Y", 2), ("Y", 2))
    yard = game(hand=("G4-G4", "R1-R1", "B2-B2"))
    after = rules.apply(yard, Add("G4-G4", face_down=True))
    assert after.trains[0] == ("E", "W")


def test_y3_any_card_joins_the_engine() -> None:
    assert all(rules.joins(cards.ENGINE, card) for card in EDITION.deck)
    yard = game(hand=("G4-P1", "R1-R1", "B2-B2"))
    assert {a for a in rules.legal_adds(yard) if not a.face_down} >= {
        Add("G4-P1"),
        Add("G4-P1", turned=True),
    }


def test_y4_a_turned_card_lies_end_for_end_and_is_legal() -> None:
    yard = game(hand=("G4-R1", "R1-R1", "B2-B2"))
    yard = rules.apply(yard, Add("G4-R1", turned=True))
    assert yard.trains[0] == ("E", "R1-G4")
    with pytest.raises(RuleError) as refused:
        rules.check(yard, Add("R1-R1", face_down=True, turned=True))
    assert refused.value.rule == "Y-4"


def test_y5_a_face_up_card_joins_by_colour_or_value_or_is_refused() -> None:
    assert rules.joins("R3-B2", "B4-Y1")  # blue and blue
    assert rules.joins("R3-B2", "G2-Y1")  # 2 and 2
    assert not rules.joins("R3-B2", "G3-B2")  # green 3 after blue 2
    yard = game(players=("Ana", "Ben"), hand=("R3-B2", "G3-B2"))
    yard = rules.apply(yard, Add("R3-B2"))  # Ana
    yard = rules.apply(yard, Add(yard.in_hand[-1], face_down=True))  # Ben keeps it going
    assert "G3-B2" in yard.in_hand
    with pytest.raises(RuleError) as refused:
        rules.apply(yard, Add("G3-B2"))
    assert refused.value.rule == "Y-5" and "turn it" in refused.value.message
    assert Add("G3-B2", turned=True) in rules.legal_adds(yard)  # B2 shows left: joins


def test_y6_the_mover_draws_adds_one_and_passes_the_rest_on() -> None:
    yard = game()
    assert yard.in_hand == (*DRAW[:3], DRAW[3])
    after = rules.apply(yard, Add(DRAW[1]))
    assert after.to_move == 1 and after.hand == (DRAW[0], DRAW[2], DRAW[3])
    assert after.draw == DRAW[4:] and after.trains[0] == ("E", DRAW[1])
    with pytest.raises(RuleError) as refused:
        rules.apply(after, Add(DRAW[1]))  # already in Ana's train
    assert refused.value.rule == "Y-6"
    dealt = rules.deal(EDITION, ["Ana", "Ben", "Cleo", "Dan"], seed=1)
    assert len(dealt.hand) == 4 and sorted(dealt.players) == ["Ana", "Ben", "Cleo", "Dan"]


@pytest.mark.parametrize(("players", "rounds"), [(2, 7), (3, 6), (4, 5), (5, 4)])
def test_y7_the_game_ends_after_its_rounds(players: int, rounds: int) -> None:
    names = [f"P{i}" for i in range(players)]
    yard = rules.deal(EDITION, names, seed=players)
    played = 0
    while not yard.over:
        yard = rules.apply(yard, rules.legal_adds(yard)[-1])
        played += 1
    assert played == rounds * players and yard.round == rounds and yard.to_move is None
    assert all(len(train) == rounds + 1 for train in yard.trains)
    with pytest.raises(RuleError) as refused:
        rules.apply(yard, Add(yard.in_hand[0] if yard.in_hand else "R1-R1"))
    assert refused.value.rule == "Y-7" and rules.legal_adds(yard) == []


def test_y7_a_table_of_six_is_refused() -> None:
    with pytest.raises(RuleError, match="2 to 5 players"):
        rules.deal(EDITION, [f"P{i}" for i in range(6)], seed=0)
    with pytest.raises(RuleError, match="2 to 5 players"):
        rules.start(["Ana"], DRAW[:1], DRAW[1:])


def test_y6_a_turn_with_nothing_left_to_draw_is_refused() -> None:
    yard = rules.start(["Ana", "Ben"], DRAW[:2], DRAW[2:3])  # a record lists what was drawn
    yard = rules.apply(yard, Add(DRAW[0]))
    assert rules.legal_adds(yard) == []
    with pytest.raises(RuleError) as refused:
        rules.apply(yard, Add(DRAW[1]))
    assert refused.value.rule == "Y-6" and "draw deck is empty" in refused.value.message


def test_y8_runs_cross_card_boundaries_and_wild_cards_end_them() -> None:
    assert rules.runs(("E", "R1-Y2", "Y3-Y1", "Y4-B2")) == (("R", 1), ("Y", 4), ("B", 1))
    # The rulebook's example: a wild card breaks the yellow oil run.
    assert rules.longest_run(("E", "R1-Y2", "W", "Y3-Y1")) == 2
    assert rules.longest_run(("E",)) == 0


@given(
    train=st.lists(st.sampled_from([*EDITION.deck, "W"]), max_size=8),
    laid=st.sampled_from([*EDITION.deck, "W"]),
)
def test_y8_the_longest_run_with_one_more_card_is_counted_from_the_end(train, laid) -> None:
    lying = ("E", *train)
    assert rules.longest_run_with(lying, laid) == rules.longest_run((*lying, laid))
    kept = rules.tail(("E",))  # the simulator's count, kept card by card
    for card in (*train, laid):
        kept = rules.tail_after(kept, card)
    assert kept == rules.tail((*lying, laid))
    assert kept.longest == rules.longest_run((*lying, laid))


def test_y9_every_player_with_the_longest_run_gains_its_length_once() -> None:
    yard = with_trains(
        game(),
        ("E", "R1-R2", "R3-B1", "G1-G2", "G3-G4"),  # runs of 3 and 4 (green)
        ("E", "B1-B2", "B3-B4", "W"),  # a run of 4
        ("E", "Y1-Y2", "W"),
    )
    bonus = [s.run_bonus for s in rules.score(yard)]
    assert bonus == [4, 4, 0]
    bare = with_trains(game(), ("E", "W"), ("E", "W"), ("E",))
    assert [s.run_bonus for s in rules.score(bare)] == [0, 0, 0]


def test_y10_a_tie_goes_to_the_tied_player_who_moves_latest() -> None:
    yard = with_trains(game(), ("E", "R4-B1"), ("E", "G2-Y3"), ("E", "Y1-Y1"))
    scores = [s.score for s in rules.score(yard)]
    assert scores[0] == scores[1] > scores[2]
    assert rules.ranking(yard) == (["Ben"], "seat")
    clear = with_trains(game(), ("E", "R4-B4"), ("E", "G2-Y3"), ("E", "Y1-Y1"))
    assert rules.ranking(clear) == (["Ana"], "score")


def test_y11_the_second_game_starts_with_the_lowest_and_goes_the_other_way() -> None:
    order = ["Ana", "Ben", "Cleo", "Dan"]
    assert rules.second_game_order(order, [20, 12, 15, 30]) == ["Ben", "Ana", "Dan", "Cleo"]
    # a tie for lowest: the one nearer the first game's start player
    assert rules.second_game_order(order, [20, 12, 15, 12]) == ["Ben", "Ana", "Dan", "Cleo"]
    second = with_trains(game(carried=(10, 0, 5)), ("E", "R1-B1"), ("E", "W"), ("E", "W"))
    assert [s.score for s in rules.score(second)] == [13, 0, 5]  # 2 + a run of 1 + 10


def test_y11_the_second_game_is_dealt_in_that_order_with_the_first_games_points() -> None:
    first = with_trains(
        game(caboose=EDITION.cabooses[0]), ("E", "R4-B4"), ("E", "W"), ("E", "G1-Y1")
    )
    points = {s.name: s.score for s in rules.score(first)}
    second = rules.deal_second(EDITION, first, seed=3)
    assert second.players == ("Ben", "Ana", "Cleo") and second.turns == 0
    assert second.carried == tuple(points[name] for name in second.players)
    assert len(second.hand) == 3 and second.caboose is not None


CONDITIONS = [
    ({"kind": "run", "colour": "Y", "length": 3}, ("E", "Y1-Y2", "Y3-B1"), ("E", "Y1-B2")),
    ({"kind": "run", "length": 4}, ("E", "B1-B2", "B3-B4"), ("E", "B1-B2", "W", "B3-B4")),
    ({"kind": "colours", "count": 3}, ("E", "R1-B1", "G1-G1"), ("E", "R1-B1", "W")),
    ({"kind": "cargo", "colour": "R", "count": 3}, ("E", "R1-B1", "W", "R2-R2"), ("E", "R1-R1")),
    ({"kind": "face_down", "max": 0}, ("E", "R1-B1"), ("E", "R1-B1", "W")),
    ({"kind": "face_down", "min": 2}, ("E", "W", "W"), ("E", "W", "R1-B1")),
    ({"kind": "value", "min": 10}, ("E", "R4-B4", "G1-G1"), ("E", "R4-B4", "W")),
]


@pytest.mark.parametrize(("condition", "meets", "misses"), CONDITIONS)
def test_y12_a_caboose_card_pays_every_player_who_meets_it(condition, meets, misses) -> None:
    caboose = Caboose("test", 4, condition)
    yard = with_trains(game(players=("Ana", "Ben"), caboose=caboose), meets, misses)
    assert [s.caboose_bonus for s in rules.score(yard)] == [4, 0]


def test_y12_a_caboose_card_that_says_nothing_clear_is_refused() -> None:
    colours = EDITION.colours
    with pytest.raises(ValueError, match="kind must be one of"):
        edition.caboose({"name": "x", "points": 2, "condition": {"kind": "speed"}}, colours)
    with pytest.raises(ValueError, match="not a colour"):
        edition.caboose(
            {"name": "x", "points": 2, "condition": {"kind": "cargo", "colour": "Q", "count": 2}},
            colours,
        )
    with pytest.raises(ValueError, match="'max' or 'min'"):
        edition.caboose({"name": "x", "points": 2, "condition": {"kind": "face_down"}}, colours)


def test_y13_a_setup_may_hold_cards_not_in_the_deck_but_not_codes_that_are_no_card() -> None:
    yard = rules.start(["Ana", "Ben"], ["R9-R9", "B7-G8"], DRAW)
    assert rules.apply(yard, Add("R9-R9")).trains[0] == ("E", "R9-R9")
    with pytest.raises(cards.CardCodeError, match="is not a railcar card"):
        rules.start(["Ana", "Ben"], ["R9", "B7-G8"], DRAW)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), caboose=st.booleans())
def test_any_legal_game_ends_and_scores_its_parts(seed: int, players: int, caboose: bool) -> None:
    """Random legal games: every legal add applies, an illegal one changes nothing, and a
    score is always its parts."""
    names = [f"P{i}" for i in range(players)]
    yard = rules.deal(EDITION, names, seed, with_caboose=caboose)
    chooser = random.Random(seed)
    while not yard.over:
        legal = rules.legal_adds(yard)
        last = yard.trains[yard.to_move][-1]
        for card in yard.in_hand:
            if not rules.joins(last, card):
                with pytest.raises(RuleError):
                    rules.apply(yard, Add(card))
        yard = rules.apply(yard, chooser.choice(legal))
    for s in rules.score(yard):
        assert s.score == s.train_value + s.run_bonus + s.caboose_bonus + s.carried
        assert s.train_value == sum(cards.value_of(laid) for laid in s.train)
    winners, _ = rules.ranking(yard)
    assert len(winners) == 1
