"""Simulated games of the switching-track game: a seed names one game for good, every game
ends with a winner holding the variant's trains at Finish, and the bots play the whole
game (re-rolls, repair tiles, the panels' setup)."""

from __future__ import annotations

import pytest

from companion.games.switching import board as boards
from companion.games.switching import record, rules, simulate

OURS = boards.load("ours")


def test_a_seed_names_one_game_and_another_seed_another() -> None:
    first, again, other = (simulate.play(OURS, ["greedy", "random"], s) for s in (7, 7, 8))
    assert first.doc == again.doc and first.end == again.end
    assert other.doc["turns"] != first.doc["turns"]


@pytest.mark.parametrize(
    ("policies", "variant"),
    [
        (["greedy", "random"], "full"),
        (["random", "random", "greedy"], "short"),
        (["greedy", "greedy", "random", "random"], "repair"),
        (["random", "greedy", "random", "greedy"], "short-repair"),
    ],
)
def test_every_game_ends_with_a_winner_holding_the_variants_trains(policies, variant) -> None:
    to_win = rules.VARIANTS[variant].to_win
    for seed in range(15):
        played = simulate.play(OURS, policies, seed, variant)
        end = played.end
        assert end.over and end.depots[end.players.index(end.winner)] == to_win
        assert all(
            depot < to_win
            for c, depot in zip(end.players, end.depots, strict=True)
            if c != end.winner
        )
        seats = [
            {"name": f"{p}-{n + 1}", "colour": rules.COLOURS[n]} for n, p in enumerate(policies)
        ]
        assert played.doc["players"] == seats and played.doc["variant"] == variant


def test_the_bots_play_the_whole_game_re_rolls_stops_and_repair_tiles() -> None:
    turns = [
        turn
        for seed in range(20)
        for turn in simulate.play(OURS, ["greedy", "random"], seed, "repair").doc["turns"]
    ]
    kinds = {key for turn in turns for key in turn if key in ("enter", "move", "stop")}
    assert kinds == {"enter", "move", "stop"}
    assert any(turn.get("reroll") for turn in turns)
    assert any("repair" in turn for turn in turns)
    colours = {turn["colour"] for turn in turns if "colour" in turn}
    assert colours == {"purple", "cyan", "orange"}
    assert {n for turn in turns if "dice" in turn for n in turn["dice"]} == set(range(1, 7))


def test_the_seed_lays_each_panel_either_way_round_at_setup() -> None:
    """S-5: a table may lay each panel either way; the simulator's seeds try both."""
    setups = [simulate.play(OURS, ["random", "random"], s, "short").doc["setup"] for s in range(12)]
    for panel in ("purple", "cyan", "orange"):
        assert {setup[panel] for setup in setups} == {record.UPRIGHT, record.TURNED}
