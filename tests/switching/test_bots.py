"""The bots: they play only legal moves, the greedy one races (finishes when it can, keeps
its trains out of dead ends, re-rolls only a train heading for Finish) and beats the random
one, as a family would expect of the two."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games.switching import board as boards
from companion.games.switching import bots, rules, simulate
from companion.games.switching.rules import Position, Reroll, Roll, Train

OURS = boards.load("ours")


def at_home(*trains: Train, variant: str = "full") -> Position:
    """Red and blue on our board, panels at home (SE empty: purple, diagonal to it, never
    slides), with these trains."""
    position = rules.deal(OURS, ("red", "blue"), rules.VARIANTS[variant])
    return replace(position, trains=tuple(sorted(trains)))


def greedy(position: Position, roll: Roll) -> str:
    outcomes = rules.legal_moves(position, roll)
    return bots.choose(position, outcomes, "greedy", random.Random(0)).action.train


def test_greedy_takes_a_train_home_rather_than_start_another() -> None:
    """E3 is two spaces from E5, the Finish: 1+1 takes it home (S-12)."""
    position = at_home(Train("E3", "red"), Train("D2", "red"), Train("C2", "blue"))
    assert greedy(position, Roll("purple", 1, 1)) == "E3"


def test_greedy_keeps_its_train_out_of_a_dead_end() -> None:
    """At home track A runs up orange's straight into purple's siding, a dead end (S-14):
    with 9 the train on A4 would crash there; greedy moves another."""
    position = at_home(Train("A4", "red"), Train("D2", "red"), Train("E3", "blue"))
    outcomes = {o.action.train: o for o in rules.legal_moves(position, Roll("purple", 5, 4))}
    assert [e.key for e in outcomes["A4"].events][-1] == "started_over"
    assert greedy(position, Roll("purple", 5, 4)) != "A4"


def test_greedy_bumps_a_rival_into_finish_to_send_it_back() -> None:
    """Blue's train on E4 is one space from Finish; red's on E2 with 3 reaches it on the
    second count and pushes it into Finish, where a bumped train starts over (S-13): worth
    more to red than moving its train on D2 three spaces on."""
    position = at_home(Train("E2", "red"), Train("D2", "red"), Train("E4", "blue"))
    outcome = next(
        o for o in rules.legal_moves(position, Roll("purple", 1, 2)) if o.action.train == "E2"
    )
    said = [(e.key, getattr(e, "player", "")) for e in outcome.events]
    assert ("started_over", "blue") in said
    assert greedy(position, Roll("purple", 1, 2)) == "E2"


def test_a_bot_chooses_only_among_the_legal_moves_it_is_given() -> None:
    position = at_home(Train("A4", "red"), Train("D2", "red"))
    outcomes = rules.legal_moves(position, Roll("cyan", 2, 5))
    rng = random.Random(3)
    for policy in bots.POLICIES:
        for _ in range(20):
            assert bots.choose(position, outcomes, policy, rng) in outcomes


def test_greedy_rerolls_a_train_heading_for_finish_not_one_heading_for_a_dead_end() -> None:
    rng = random.Random(0)
    heading_home = replace(at_home(Train("D3", "red")), reroll=Reroll("D3"))
    heading_astray = replace(at_home(Train("A3", "red")), reroll=Reroll("A3"))
    started_over = replace(at_home(), reroll=Reroll(None))
    assert bots.reroll(heading_home, "greedy", rng)
    assert not bots.reroll(heading_astray, "greedy", rng)
    assert bots.reroll(started_over, "greedy", rng)


def test_a_repair_tile_is_played_only_when_held_and_only_on_a_panel_that_can_slide() -> None:
    """S-20: a tile slides a panel next to the empty slot (at home: cyan or orange)."""
    rng = random.Random(5)
    without = at_home(Train("A3", "red"), variant="repair")
    assert bots.repair(without, "greedy", rng) is None
    assert bots.repair(without, "random", rng) is None
    holding = replace(without, repairs=(1, 0))
    chosen = {bots.repair(holding, "random", rng) for _ in range(40)}
    assert chosen == {None, "cyan", "orange"}
    assert bots.repair(holding, "greedy", rng) in (None, *rules.slidable(holding))


@pytest.mark.parametrize("variant", ["full", "repair"])
def test_greedy_beats_random(variant: str) -> None:
    """Forty seeded two-player games each way round: greedy wins most of them from either
    seat (measured: 75 of 80 without repair tiles, 79 with)."""
    wins = 0
    for seed in range(40):
        for policies in (["greedy", "random"], ["random", "greedy"]):
            played = simulate.play(OURS, policies, seed, variant)
            wins += played.names[played.end.players.index(played.end.winner)].startswith("greedy")
    assert wins >= 68
