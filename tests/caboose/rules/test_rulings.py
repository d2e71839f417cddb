"""Every ruling of the Caboose package's docs/RULINGS.md (a copy of shared/RULINGS.md), by
its id."""

from collections import Counter
from pathlib import Path

import pytest

import companion
from companion.games import caboose
from companion.games.caboose.rules import dice
from companion.games.caboose.rules.edition import EDITIONS, load
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.state import (
    BANKED,
    BROKEN_TRACK,
    FORGIVEN,
    LOST,
    RESHUFFLED,
    TOOK,
    Pass,
    Play,
    RuleError,
)


def test_R1_a_card_cancels_at_most_once(make_table):
    """Three 2s in a row: the second cancels the first, the third stays."""
    state = make_table("loose-caboose", ["2", "2", "3"], 2, [["1"], ["1"]], piles=[["2"], []])
    after, _ = apply(state, Play(("1",), (2,)))  # 2 wheels, 1 step: 1 short, takes the 2
    # The pile's 2 and the taken 2 cancel; nothing cancels twice.
    assert after.seats[0].pile == ()
    state = make_table("loose-caboose", ["2", "2", "3"], 2, [["2"], ["1"]], piles=[["2"], []])
    after, _ = apply(state, Play(("2",), (2, 2)))  # 4 wheels, 1 step: takes 2, 2, 3
    assert after.seats[0].pile == ("2", "3")
    assert Counter(after.discard) == Counter({"2": 2})


def test_R2_taking_penalties_shortens_the_railway_and_the_caboose_keeps_its_card(make_table):
    state = make_table("rollecate", ["1", "2", "1", "2"], 3, [["3"], ["1"]])
    after, _ = apply(state, Play(("3",), (1, 1, 1)))
    assert after.railway == ("1", "2", "3") and after.caboose == 2
    assert after.railway[after.caboose] == "3"


def test_R3_draw_pile_then_reshuffled_discard_then_forgiven(make_table):
    # Cancelled cards come in pairs; drawn oldest first, none of these cancel.
    discard = ["2", "4", "2", "4"]
    state = make_table("loose-caboose", ["3"], 0, [["4"], ["1"]], draw=["2", "1"], discard=discard)
    # Ana draws 2 (the draw pile keeps the 1), plays the 4: 4 dice, 8 wheels, 7 short.
    after, events = apply(state, Play(("4",), (2, 2, 2, 2)))
    sources = [e.detail["source"] for e in events if e.what == TOOK]
    assert sources == ["railway", "draw", "reshuffled", "reshuffled", "reshuffled", "reshuffled"]
    assert [e.number for e in events if e.what == RESHUFFLED] == [4]
    assert [e.number for e in events if e.what == FORGIVEN] == [1]
    assert after.over  # the draw pile ran out in this turn


def test_R3_the_record_says_which_cards_came_from_the_reshuffle(make_table):
    discard = ["4", "1", "4", "1"]
    state = make_table("loose-caboose", ["3"], 0, [["2"], ["1"]], draw=["1"], discard=discard)
    _after, events = apply(state, Play(("2",), (2, 2), drawn=("1",)))
    took = [e.cards[0] for e in events if e.what == TOOK]
    assert took == ["3", "1", "4"]  # the railway's 3, the 1 named by `drawn`, then the 4
    with pytest.raises(RuleError) as error:
        apply(state, Play(("2",), (2, 2), drawn=("2",)))
    assert error.value.rule == "R-3"


@pytest.mark.parametrize("edition", EDITIONS)
def test_R4_broken_track_counts_on_a_pass_but_not_the_starting_card(make_table, edition):
    state = make_table(edition, ["1", "2x", "1x"], 1, [["4"], ["1"]])
    _after, events = apply(state, Pass())
    assert [e.cards for e in events if e.what == BROKEN_TRACK] == [("1x",)]
    assert len([e for e in events if e.what == TOOK]) == 2  # the broken track's, the pass's


@pytest.mark.parametrize("edition", EDITIONS)
def test_R5_derailing_still_pays_for_broken_tracks_crossed(make_table, edition):
    state = make_table(edition, ["1", "2", "3x", "4"], 1, [["4"], ["1"]], draw=["1"])
    roll = (2, 2, 2, 2) if edition == "loose-caboose" else (1, 1, 1, 1)
    after, events = apply(state, Play(("4",), roll))
    steps = sum(roll)
    assert after.caboose == len(after.railway) - 1
    owed = 1 + steps - 3  # the 3x, then the steps it could not take
    assert len([e for e in events if e.what == TOOK]) == min(owed, 4)


def test_R6_standard_dice_stand_in_through_a_face_map():
    rollecate = load("rollecate")
    face_map = dice.face_map_for(rollecate)
    assert dice.wheels_from_pips([1, 4, 5, 6], face_map) == (1, 1, 0, 0)
    with pytest.raises(ValueError, match="wheels"):
        dice.face_map_for(rollecate, {1: 2, 2: 2, 3: 1, 4: 1, 5: 0, 6: 0})
    with pytest.raises(ValueError, match="1 to 6"):
        dice.wheels_from_pips([7], face_map)


def test_R9_edition_facts_live_in_data_with_their_assumptions():
    for edition_id in EDITIONS:
        edition = load(edition_id)
        assert edition.assumptions, edition_id
        assert len(edition.deck) == (50 if edition_id == "loose-caboose" else 55)
        assert Counter(c for c in edition.deck if "x" in c).total() == 4


def test_R11_adjacent_means_joined_to_the_front_or_the_card_before(make_table):
    state = make_table("loknroll", ["4", "3"], 0, [["3", "3"], ["1"]])
    after, _ = apply(state, Play(("3", "3"), (0, 0, 0, 0, 0, 0)))
    assert after.railway[-2:] == ("3", "3")
    state = make_table("loknroll", ["4", "3"], 0, [["1"], ["1"]])
    with pytest.raises(RuleError) as error:
        apply(state, Play(("1",), (0,)))
    assert error.value.rule == "R-11"


def test_R12_a_setup_railway_is_taken_as_it_stands(make_table):
    state = make_table("rollecate", ["1", "3", "1"], 0, [["2"], ["1"]])
    assert state.railway == ("1", "3", "1")


def test_R13_loose_caboose_banks_the_broken_tracks_card_first(make_table):
    state = make_table("loose-caboose", ["2", "4", "3x"], 1, [["1"], ["1"]])
    after, events = apply(state, Play(("1",), (2,)))  # over the 3x onto the 1 just played
    banked = [e.cards for e in events if e.what == BANKED]
    assert banked == [("2",)]  # the first card from the back pays for the broken track
    assert after.seats[0].banked == ("2",)


def test_R13_broken_then_derailment_order(make_table):
    state = make_table("loose-caboose", ["2", "4", "1", "3x"], 2, [["2"], ["1"]])
    after, events = apply(state, Play(("2",), (2, 2)))  # 3x, the 2, then 2 short
    causes = [(e.cards[0], e.detail["cause"]) for e in events if e.what == TOOK]
    assert causes == [("2", "broken"), ("4", "derail"), ("1", "derail")]
    assert after.seats[0].banked == ("2",) and after.seats[0].pile == ("4", "1")


def test_R14_the_game_ends_after_the_turn_even_if_the_draw_pile_was_refilled(make_table):
    state = make_table(
        "loose-caboose", ["3"], 0, [["2"], ["1"]], draw=["1"], discard=["4", "1", "4", "1"]
    )
    after, _ = apply(state, Play(("2",), (2, 2)))
    assert after.draw  # refilled from the discard pile
    assert after.over
    with pytest.raises(RuleError) as error:
        apply(after, Pass())
    assert error.value.rule == "R-14"


def test_illegal_actions_leave_the_state_untouched(make_table):
    state = make_table("rollecate", ["1", "2", "1", "2"], 3, [["3"], ["1"]])
    snapshot = repr(state)
    for action in (Play(("4",), (1,)), Play(("3",), (1,)), Play(("3",), (1, 1, 9))):
        with pytest.raises(RuleError):
            apply(state, action)
    assert repr(state) == snapshot


def test_hard_solo_loses_on_the_fourth_derailment_and_broken_tracks_do_not_count(make_table):
    state = make_table(
        "loknroll",
        ["1", "2", "1", "1"],
        3,
        [["2x"]],
        draw=["2"] * 10,
        names=["Ana"],
        variant="solo-hard",
    )
    state, events = apply(state, Play(("2x",), (1, 0)))  # onto the broken track: no derailment
    assert any(e.what == BROKEN_TRACK for e in events) and state.seats[0].derailments == 0
    for _ in range(3):
        state, _ = apply(state, Play(("2",), (1, 1)))
    assert state.seats[0].derailments == 3 and not state.over
    state, events = apply(state, Play(("2",), (1, 1)))
    assert state.over and state.lost
    assert any(e.what == LOST for e in events)
    assert events[-1].detail["winners"] == []


def test_deal_is_a_seeded_shuffle():
    a = deal("loknroll", ["Ana", "Ben"], 7)
    b = deal("loknroll", ["Ana", "Ben"], 7)
    c = deal("loknroll", ["Ana", "Ben"], 8)
    assert a == b and a != c


RULINGS = Path(caboose.__file__).parent / "docs" / "RULINGS.md"
SHARED_RULINGS = Path(companion.__file__).resolve().parents[1].parent / "shared" / "RULINGS.md"


@pytest.mark.skipif(not SHARED_RULINGS.is_file(), reason="shared/RULINGS.md is not beside the code")
def test_the_packages_rulings_are_the_shared_rulings_word_for_word():
    """The repository stands alone with its own copy of the rulings; while the shared file
    is beside it, the copy under its note of where it comes from is that file unchanged."""
    note, _, copy = RULINGS.read_text(encoding="utf-8").partition("\n\n")
    assert note.startswith("> ") and "`shared/RULINGS.md`" in note
    assert copy == SHARED_RULINGS.read_text(encoding="utf-8")
