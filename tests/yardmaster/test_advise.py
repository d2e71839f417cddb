"""The private advisor's Yardmaster Express advice (companion/games/yardmaster/advise.py):
every way each typed card may be added, its score and longest cargo run before -> after as
the rules score the game once the mover really adds it, the best way and why, and a hand
that cannot be held refused by name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.protocol import Malformed
from companion.games.yardmaster import edition, rules
from companion.games.yardmaster.advise import advice
from companion.games.yardmaster.rules import Add
from companion.games.yardmaster.snapshot import Snapshot

EDITION = edition.load()


def game(seed: int = 5, turns: int = 4) -> Snapshot:
    """Three players, `turns` cards added (each the first legal face-up way, else face down)."""
    yard = rules.deal(EDITION, ["Ana", "Ben", "Cleo"], seed)
    adds = []
    for _ in range(turns):
        add = rules.legal_adds(yard)[0]
        adds.append(add)
        yard = rules.apply(yard, add)
    return Snapshot(EDITION, rules.deal(EDITION, ["Ana", "Ben", "Cleo"], seed), tuple(adds))


def played(snap: Snapshot, seat: int, add: Add) -> rules.Yard:
    """The game once `seat` adds `add` by the rules themselves: the seat made the mover,
    holding the card."""
    yard = snap.yard
    mover = replace(yard, turns=yard.turns - yard.turns % 3 + seat, hand=(add.card,), draw=("X",))
    return rules.apply(mover, add)


def test_every_way_is_scored_as_the_rules_score_it_once_added():
    snap = game()
    yard = snap.yard
    seat = yard.to_move
    hand = list(yard.in_hand)
    advised = advice(snap, seat, hand)
    expected = [
        (c, add) for c in dict.fromkeys(hand) for add in rules.ways(yard.trains[seat][-1], c)
    ]
    assert [(w["card"], w["laid"]) for w in advised["ways"]] == [(c, a.laid) for c, a in expected]
    now = rules.score(yard)[seat]
    for way, (_, add) in zip(advised["ways"], expected, strict=True):
        after = played(snap, seat, add)
        assert way["score"] == {"before": now.score, "after": rules.score(after)[seat].score}
        assert way["run"] == {
            "before": now.longest_run,
            "after": rules.longest_run(after.trains[seat]),
        }
    assert {w["way"] for w in advised["ways"]} >= {"printed", "face_down"}


def test_the_best_way_brings_the_most_points_and_says_why():
    snap = game()
    seat = snap.yard.to_move
    advised = advice(snap, seat, list(snap.yard.in_hand))
    best = next(w for w in advised["ways"] if w["best"])
    assert best["score"]["after"] == max(w["score"]["after"] for w in advised["ways"])
    assert advised["best"]["card"] == best["card"] and advised["best"]["way"] == best["way"]
    level = [w for w in advised["ways"] if w["score"]["after"] == best["score"]["after"]]
    runs = {w["run"]["after"] for w in level}
    assert advised["best"]["reason"] == ("longest_run" if len(runs) > 1 else "most_points")
    assert all(w["run"]["after"] <= best["run"]["after"] for w in level)
    tied = [[w["card"], w["way"]] for w in level if w is not best and w["run"] == best["run"]]
    assert advised["best"]["tied"] == tied


def test_face_down_alone_is_worth_nothing_more():
    snap = game()
    seat = snap.yard.to_move
    card = snap.yard.in_hand[0]
    down = next(w for w in advice(snap, seat, [card])["ways"] if w["way"] == "face_down")
    assert down["laid"] == "W"
    assert down["run"]["after"] == down["run"]["before"]


def test_another_seat_is_advised_on_its_own_train_now():
    snap = game()
    other = (snap.yard.to_move + 1) % 3
    advised = advice(snap, other, [snap.yard.in_hand[0]])
    assert advised["to_move"] is False and advised["name"] == snap.yard.players[other]
    assert advised["train"] == list(snap.yard.trains[other])


def test_cards_to_tap_are_the_deck_with_colours_named_in_the_language():
    snap = game()
    advised = advice(snap, 0, [], "es")
    assert advised["cards"] == [{"group": "railcars", "codes": list(dict.fromkeys(EDITION.deck))}]
    code = EDITION.deck[0]
    names = {r["name"] for r in advised["railcars"][code]}
    assert names & {"rojo", "azul", "amarillo", "verde", "morado", "Rojo", "Azul", "Amarillo"}


@pytest.mark.parametrize(
    ("hand", "key"),
    [
        (["R3"], "not_a_card"),
        (["Q1-Q1"], "not_in_edition"),
        ("R1-R1", "hand_list"),
    ],
)
def test_a_hand_that_cannot_be_held_is_refused_by_name(hand, key):
    with pytest.raises(Malformed) as refused:
        advice(game(), 0, hand)
    assert refused.value.key == key
    if key != "hand_list":
        assert refused.value.params["code"] == hand[0]


def test_a_card_already_in_a_train_or_too_many_cards_are_refused():
    snap = game()
    laid = snap.adds[0].card
    with pytest.raises(Malformed) as refused:
        advice(snap, 0, [laid])
    assert refused.value.key == "all_seen" and refused.value.params["code"] == laid
    unseen = [c for c in EDITION.deck if c not in {a.card for a in snap.adds}]
    with pytest.raises(Malformed) as refused:
        advice(snap, 0, unseen[:5])  # three players: a hand of three, four with the card drawn
    assert refused.value.key == "too_many" and refused.value.params["most"] == 4


def test_advice_changes_nothing():
    snap = game()
    before = repr(snap)
    advice(snap, snap.yard.to_move, list(snap.yard.in_hand))
    assert repr(snap) == before
