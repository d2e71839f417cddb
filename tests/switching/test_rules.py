"""The rules by ruling id (docs/RULINGS.md), on our board and, for the rulebook's three bump
diagrams, on a small board written here whose one long track is as the diagrams draw it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from companion.games.switching import board as boards
from companion.games.switching import rules
from companion.games.switching.board import Lie
from companion.games.switching.rules import (
    Bumped,
    Finished,
    MayRollAgain,
    Move,
    Moved,
    Pass,
    Position,
    RepairPlayed,
    RepairTaken,
    Roll,
    RuleError,
    Slid,
    StartedOver,
    Stayed,
    Stop,
    Train,
    TurnLost,
    Won,
)

OURS = boards.load("ours")


def game(*players: str, variant: str = "full", **changes: Any) -> Position:
    """A dealt game on our board with the trains, depots… given as `changes`."""
    position = rules.deal(OURS, players or ("red", "blue"), rules.VARIANTS[variant])
    if "trains" in changes:
        changes["trains"] = tuple(sorted(changes["trains"]))
    return replace(position, **changes)


def play(position: Position, train: str, white: int, black: int, colour: str = "purple"):
    """Move `train` with this roll (the colour die purple: on our board at home purple is
    diagonal to the empty slot, so nothing slides, S-6)."""
    return rules.apply(position, Move(Roll(colour, white, black), train))


def where(position: Position) -> dict[str, str]:
    return {t.space: t.owner for t in position.trains}


def refused(rule: str, key: str, position: Position, action: Any) -> RuleError:
    """The action is refused naming the ruling, and the position is as it was."""
    before = replace(position)
    with pytest.raises(RuleError) as caught:
        rules.apply(position, action)
    assert (caught.value.rule, caught.value.key) == (rule, key)
    assert position == before
    return caught.value


# --- a line of spaces as the rulebook's diagrams draw them ------------------------------

LINE = {
    "format": "switching-board/1",
    "id": "line",
    "size": [800, 300],
    "slots": {
        "size": [100, 100],
        "at": {"a": [0, 0], "b": [100, 0], "c": [0, 100], "d": [100, 100]},
    },
    "ports": {"w": [0, 50], "e": [100, 50]},
    "panels": {
        colour: {
            "home": slot,
            "pieces": [{"from": "w", "to": "e", "spaces": [[f"{colour}1", 50, 50]]}],
        }
        for colour, slot in (("purple", "a"), ("cyan", "b"), ("orange", "c"))
    },
    "tracks": [
        # T0 is the Start, "the space marked 1" of the diagrams is T1, and so on.
        {
            "id": "T",
            "from": "start",
            "to": "finish",
            "spaces": [[f"T{k}", 220 + 40 * k, 20] for k in range(14)],
        },
        {
            "id": "D",
            "from": "start",
            "to": "dead end",
            "spaces": [[f"D{k}", 220 + 40 * k, 250] for k in range(6)],
        },
    ],
}


def on_the_line(*trains: Train) -> Position:
    """The line board with these trains, the first train's owner to move."""
    board = boards.parse(LINE)
    players = ["red", "blue", "yellow"]
    position = rules.deal(board, players)
    return replace(position, trains=tuple(sorted(trains)), turn=players.index(trains[0].owner))


def test_diagram_1_red_moves_3_and_bumps_blue_4_more() -> None:
    """Rolled 7: red moves 3 spaces, bumps blue; blue finishes the roll: red on 3, blue on 7."""
    position = on_the_line(Train("T0", "red"), Train("T4", "blue"))
    after, events = play(position, "T0", 3, 4)
    assert where(after) == {"T3": "red", "T7": "blue"}
    assert events[1:] == (
        Moved("red", "T0", "T3", False, ("T1", "T2", "T3")),
        Bumped("blue", "T4", "T7", ("T5", "T6", "T7")),
    )


def test_diagram_2_the_chain_red_3_blue_1_yellow_3() -> None:
    """Rolled 7: red 3 then blue, blue 1 then yellow, yellow the rest: 3, 4 and 7."""
    position = on_the_line(Train("T0", "red"), Train("T4", "blue"), Train("T5", "yellow"))
    after, events = play(position, "T0", 3, 4)
    assert where(after) == {"T3": "red", "T4": "blue", "T7": "yellow"}
    assert [type(e).__name__ for e in events[1:]] == ["Moved", "Bumped"]  # blue did not move
    assert events[-1] == Bumped("yellow", "T5", "T7", ("T6", "T7"))


def test_diagram_3_yellow_bumps_blue_into_a_dead_end() -> None:
    """Yellow stops behind blue and bumps it forward; blue hits the dead end, starts over."""
    position = on_the_line(Train("D1", "yellow"), Train("D3", "blue"))
    after, events = play(position, "D1", 2, 4)
    assert where(after) == {"D2": "yellow"}
    assert events[1:3] == (
        Moved("yellow", "D1", "D2", False, ("D2",)),
        Bumped("blue", "D3", "D5", ("D4", "D5")),
    )
    assert events[3] == StartedOver("blue", "D5", boards.DEAD_END)
    assert after.supply("blue") == 3


# --- by ruling --------------------------------------------------------------------------


def test_S_1_two_to_four_players_each_their_own_colour() -> None:
    assert rules.deal(OURS, ["green", "red", "blue", "yellow"]).players[0] == "green"
    for players, key in (
        (["red"], "players_count"),
        (["red", "blue", "yellow", "green", "red"], "players_count"),
        (["red", "pink"], "no_colour"),
        (["red", "red"], "same"),
    ):
        with pytest.raises(RuleError) as caught:
            rules.deal(OURS, players)
        assert (caught.value.rule, caught.value.key) == ("S-1", key)
    assert game().supply("red") == 3 and game().trains == ()


def test_S_2_the_first_player_begins_and_turns_go_round() -> None:
    position = game("yellow", "red", "blue")
    assert position.to_move == "yellow"
    for expected in ("red", "blue", "yellow"):
        position, _ = play(position, position.free_starts()[0], 1, 2)
        assert position.to_move == expected


def test_S_3_the_number_dice_add_and_must_be_dice() -> None:
    after, _ = play(game(), "D1", 2, 3)  # 5 spaces, the Start the first (S-8)
    assert where(after) == {"D5": "red"}
    position = game()
    refused("S-3", "bad_die", position, Move(Roll("purple", 0, 3), "D1"))
    refused("S-3", "bad_die", position, Move(Roll("purple", 3, 7), "D1"))
    refused("S-3", "bad_die", position, Move(Roll("purple", True, 3), "D1"))
    refused("S-3", "bad_colour", position, Move(Roll("green", 3, 3), "D1"))
    refused("S-3", "bad_colour", position, Move(Roll(None, 3, 3), "D1"))


def test_S_4_doubles_are_the_number_dice_alike() -> None:
    assert Roll("cyan", 4, 4).doubles and not Roll("cyan", 4, 3).doubles
    _, events = play(game(), "D1", 2, 2)
    assert events[-1] == MayRollAgain("red", "D4")
    _, events = play(game(), "D1", 1, 3)
    assert not any(isinstance(e, MayRollAgain) for e in events)


def test_S_5_panels_start_at_home_either_way_round() -> None:
    position = rules.deal(OURS, ["red", "blue"], turned={"cyan"})
    assert position.layout == (Lie("NW"), Lie("NE", True), Lie("SW"))
    assert position.empty_slot == "SE"
    with pytest.raises(RuleError, match="'pink' is no panel"):
        rules.deal(OURS, ["red", "blue"], turned={"pink"})


def test_S_6_the_colour_dies_panel_slides_into_the_empty_slot_if_next_to_it() -> None:
    position = game()
    after, events = play(position, "D1", 1, 2, colour="orange")
    assert events[0] == Slid("orange", "SW", "SE")
    assert after.layout == (Lie("NW"), Lie("NE"), Lie("SE"))
    turned = replace(position, layout=(Lie("NW"), Lie("NE", True), Lie("SW")))
    after, events = play(turned, "D1", 1, 2, colour="cyan")
    assert after.layout[1] == Lie("SE", True)  # slid, not flipped
    after, events = play(position, "D1", 1, 2, colour="purple")  # NW is diagonal to SE
    assert events[0] == Stayed("purple") and after.layout == position.layout


def test_S_7_trains_on_the_slid_panel_turn_to_face_finish() -> None:
    """Red on c2 faces w (-1) along cyan's w-s curve, towards an open end; cyan slides
    down into SE, where its s port meets G's track to Finish: red turns round."""
    position = game(trains=[Train("c2", "red", -1), Train("o2", "blue", -1)])
    position = replace(position, turn=1)  # blue moves; red rides
    after, events = play(position, "o2", 1, 2, colour="cyan")
    assert events[0] == Slid("cyan", "NE", "SE", ("c2",))
    assert after.train_at("c2") == Train("c2", "red", 1)


def test_S_7_the_nearer_finish_when_both_ways_lead_to_one() -> None:
    """Purple turned in NW, cyan in SW, orange in SE; red on p1 faces +1 (11 spaces to a
    Finish); purple slides into NE, where the other way reaches one in 5: red turns."""
    layout = (Lie("NW", True), Lie("SW"), Lie("SE"))
    position = game(layout=layout, trains=[Train("p1", "red", 1), Train("D2", "blue")], turn=1)
    after, events = play(position, "D2", 1, 2, colour="purple")
    assert events[0] == Slid("purple", "NW", "NE", ("p1",))
    assert after.train_at("p1") == Train("p1", "red", -1)


def test_S_7_no_way_to_finish_leaves_the_train_as_it_was_and_others_never_turn() -> None:
    """Orange into SE at home: its straight then joins nothing at either end."""
    position = game(trains=[Train("o2", "red", -1), Train("c2", "blue", -1), Train("D2", "blue")])
    after, events = play(replace(position, turn=1), "D2", 1, 2, colour="orange")
    assert events[0] == Slid("orange", "SW", "SE", ())
    assert after.train_at("o2") == Train("o2", "red", -1)
    assert after.train_at("c2") == Train("c2", "blue", -1)


def test_S_8_the_start_counts_as_one_space_and_a_new_train_faces_finish() -> None:
    after, events = play(game(), "C1", 3, 4)
    assert events[1] == Moved("red", "C1", "c5", True, ("C2", "C3", "C4", "C5", "c4", "c5"))
    assert after.train_at("c5") == Train("c5", "red", 1)


def test_S_9_move_a_train_on_the_board_or_enter_one_at_a_free_start() -> None:
    position = game(trains=[Train("D3", "red"), Train("C2", "blue")])
    moves = {o.action.train for o in rules.legal_moves(position, Roll("purple", 1, 2))}
    assert moves == {"D3", "A1", "B1", "C1", "D1"}
    refused("S-9", "not_yours", position, Move(Roll("purple", 1, 2), "C2"))
    refused("S-9", "no_train", position, Move(Roll("purple", 1, 2), "D4"))
    refused("S-9", "no_space", position, Move(Roll("purple", 1, 2), "Z9"))
    refused("S-9", "no_space", position, Move(Roll("purple", 1, 2), ["D3"]))  # a bad record
    full = replace(position, depots=(2, 0))  # one on the board, two at Finish
    refused("S-9", "none_to_enter", full, Move(Roll("purple", 1, 2), "A1"))
    assert {o.action.train for o in rules.legal_moves(full, Roll("purple", 1, 2))} == {"D3"}


def test_S_9_a_train_may_always_move_even_into_an_accident() -> None:
    position = game(trains=[Train("B3", "red")])
    (outcome,) = [
        o for o in rules.legal_moves(position, Roll("purple", 5, 6)) if o.action.train == "B3"
    ]
    assert outcome.events[-1] == StartedOver("red", "B5", boards.OFF_TRACK)


def test_S_10_a_train_reached_on_the_last_count_is_not_pushed() -> None:
    position = on_the_line(Train("T0", "red"), Train("T4", "blue"))
    after, events = play(position, "T0", 1, 3)
    assert where(after) == {"T3": "red", "T4": "blue"}
    assert events[1:] == (Moved("red", "T0", "T3", False, ("T1", "T2", "T3")),)


def test_S_10_own_trains_are_bumped_too() -> None:
    position = on_the_line(Train("T0", "red"), Train("T2", "red"))
    after, _ = play(position, "T0", 1, 3)
    assert where(after) == {"T1": "red", "T4": "red"}


def test_S_11_a_pushed_train_goes_the_movers_way_and_then_faces_it() -> None:
    position = on_the_line(Train("T0", "red"), Train("T3", "blue", -1), Train("T9", "yellow", -1))
    after, _ = play(position, "T0", 2, 4)
    assert after.train_at("T6") == Train("T6", "blue", 1)
    assert after.train_at("T9") == Train("T9", "yellow", -1)  # not reached: as it was


def test_S_12_a_train_reaching_finish_goes_to_the_depot_with_steps_to_spare() -> None:
    position = game(trains=[Train("E3", "red")])
    after, events = play(position, "E3", 5, 6)
    assert events[1:] == (
        Moved("red", "E3", "E5", False, ("E4", "E5")),
        Finished("red", "E5"),
    )
    assert after.trains == () and after.depots == (1, 0) and after.supply("red") == 2


def test_S_13_a_train_bumped_into_finish_starts_over_even_by_its_own() -> None:
    for owner in ("blue", "red"):
        position = game(trains=[Train("E1", "red"), Train("E4", owner)])
        after, events = play(position, "E1", 2, 3)
        assert where(after) == {"E3": "red"}
        assert events[-1] == StartedOver(owner, "E5", boards.FINISH)
        assert after.depots == (0, 0)


def test_S_14_a_dead_end_and_running_off_the_track_start_a_train_over() -> None:
    after, events = play(game(), "A1", 6, 6)  # A1…A5, o1…o4, p4, p5: the 12th is the buffer
    assert StartedOver("red", "p5", boards.DEAD_END) in events
    assert after.trains == () and after.supply("red") == 3
    _, events = play(game(), "B1", 3, 4)  # into the empty slot
    assert events[-1] == StartedOver("red", "B5", boards.OFF_TRACK)
    _, events = play(game(trains=[Train("A2", "red", -1)]), "A2", 1, 2)  # back past a Start
    assert events[-1] == StartedOver("red", "A1", boards.OFF_TRACK)


def test_S_14_a_train_bumped_off_a_panel_edge_starts_over() -> None:
    """Cyan's w-s curve ends at the empty SE: red on c1 bumps blue off c3's edge."""
    position = game(trains=[Train("c1", "red"), Train("c3", "blue")])
    after, events = play(position, "c1", 2, 3)
    assert where(after) == {"c2": "red"}
    assert events[-1] == StartedOver("blue", "c3", boards.OFF_TRACK)


def test_S_15_a_train_on_a_start_blocks_it() -> None:
    position = game(trains=[Train("D1", "blue")])
    moves = {o.action.train for o in rules.legal_moves(position, Roll("purple", 1, 2))}
    assert moves == {"A1", "B1", "C1"}
    refused("S-9", "not_yours", position, Move(Roll("purple", 1, 2), "D1"))


def test_S_16_doubles_then_one_re_roll_with_the_same_train() -> None:
    position = game(trains=[Train("D3", "red")])
    after, events = play(position, "C1", 2, 2)
    assert after.to_move == "red" and after.reroll == rules.Reroll("C4")
    refused("S-16", "reroll_same_train", after, Move(Roll("purple", 1, 2), "D3"))
    assert [o.action.train for o in rules.legal_moves(after, Roll("purple", 1, 2))] == ["C4"]
    again, events = play(after, "C4", 3, 3)  # doubles again: no third roll
    assert again.to_move == "blue" and again.reroll is None
    assert not any(isinstance(e, MayRollAgain) for e in events)


def test_S_16_declining_the_re_roll() -> None:
    after, _ = play(game(), "C1", 2, 2)
    ended, events = rules.apply(after, Stop())
    assert ended.to_move == "blue" and ended.reroll is None and events == ()
    refused("S-16", "no_reroll", ended, Stop())


def test_S_16_a_train_that_started_over_on_doubles_enters_again_anywhere_free() -> None:
    after, events = play(game(), "B1", 3, 3)  # runs into the empty slot
    assert events[-1] == MayRollAgain("red", None) and after.reroll == rules.Reroll(None)
    moves = {o.action.train for o in rules.legal_moves(after, Roll("purple", 1, 2))}
    assert moves == {"A1", "B1", "C1", "D1"}


def test_S_16_a_train_that_finished_on_doubles_gives_no_re_roll() -> None:
    after, events = play(game(trains=[Train("E3", "red")]), "E3", 4, 4)
    assert isinstance(events[-1], Finished) and after.to_move == "blue"


def test_S_17_no_move_means_the_panel_slides_and_the_turn_is_lost() -> None:
    blocked = [
        Train("A1", "blue"),
        Train("B1", "blue"),
        Train("C1", "yellow"),
        Train("D1", "yellow"),
    ]
    position = game("red", "blue", "yellow", trains=blocked)
    roll = Roll("orange", 2, 2)
    (outcome,) = rules.legal_moves(position, roll)
    assert outcome.action == Pass(roll)
    assert outcome.events == (Slid("orange", "SW", "SE"), TurnLost("red"))
    assert outcome.position.to_move == "blue" and outcome.position.reroll is None
    assert rules.apply(position, Pass(roll)) == (outcome.position, outcome.events)
    refused("S-17", "may_move", game(), Pass(roll))


def test_S_18_a_third_train_at_finish_wins_and_ends_the_game() -> None:
    position = game(trains=[Train("E3", "red")], depots=(2, 0))
    after, events = play(position, "E3", 5, 5)
    assert events[-1] == Won("red") and after.winner == "red" and after.to_move is None
    assert after.reroll is None  # doubles, but the game is over
    refused("S-18", "over", after, Move(Roll("purple", 1, 2), "A1"))


def test_S_19_repair_tiles_for_crashes_whoever_moved_but_not_for_finish() -> None:
    position = game(variant="repair", trains=[Train("c1", "red"), Train("c3", "blue")])
    after, events = play(position, "c1", 2, 3)  # blue bumped off cyan's edge
    assert events[-1] == RepairTaken("blue") and after.repairs == (0, 1)
    after, events = play(game(variant="repair"), "B1", 3, 4)  # red runs off
    assert after.repairs == (1, 0)
    position = game(variant="repair", trains=[Train("E1", "red"), Train("E4", "blue")])
    after, _ = play(position, "E1", 2, 3)  # bumped into Finish: no tile
    assert after.repairs == (0, 0)
    after, events = play(game(), "B1", 3, 4)  # the basic game has no tiles
    assert not any(isinstance(e, RepairTaken) for e in events)


def test_S_20_a_repair_tile_slides_any_panel_next_to_the_empty_slot() -> None:
    position = game(variant="repair", repairs=(1, 0))
    roll = Roll(None, 1, 2)
    after, events = rules.apply(position, Move(roll, "D1", repair="cyan"))
    assert events[:2] == (RepairPlayed("red", "cyan"), Slid("cyan", "NE", "SE"))
    assert after.repairs == (0, 0)
    refused("S-20", "repair_not_slidable", position, Move(roll, "D1", repair="purple"))
    refused("S-20", "repair_and_colour", position, Move(Roll("cyan", 1, 2), "D1", "cyan"))
    refused("S-20", "no_repair_tile", after, Move(roll, "D2", repair="orange"))
    refused("S-19", "no_repairs", game(repairs=(1, 0)), Move(roll, "D1", repair="cyan"))
    assert rules.slidable(position) == ("cyan", "orange")


def test_S_21_the_short_game_is_won_with_two_trains() -> None:
    position = game(variant="short", trains=[Train("E3", "red")], depots=(1, 0))
    after, events = play(position, "E3", 1, 2)
    assert events[-1] == Won("red") and after.winner == "red"


def test_S_22_a_train_that_starts_over_goes_back_to_the_supply() -> None:
    position = game(trains=[Train("B3", "red"), Train("D2", "red")])
    assert position.supply("red") == 1
    after, _ = play(position, "B3", 3, 4)
    assert after.supply("red") == 2 and len(after.free_starts()) == 4


def test_every_legal_move_is_what_apply_does_in_random_games() -> None:
    """Random games to the end: apply gives each listed outcome exactly, no two trains
    share a space, nobody stands on Finish, and every player's three trains are on the
    board, in the supply or in the depot."""
    rng = random.Random(14)
    for number in range(40):
        players = ["red", "blue", "yellow", "green"][: rng.randint(2, 4)]
        variant = rules.VARIANTS[rng.choice(sorted(rules.VARIANTS))]
        position = rules.deal(OURS, players, variant, turned={"cyan"} if number % 2 else ())
        for _ in range(3000):
            if position.over:
                break
            if position.reroll is not None and rng.random() < 0.3:
                position, _ = rules.apply(position, Stop())
                continue
            repair = None
            if position.repairs[position.turn] and rng.random() < 0.5:
                repair = rng.choice(rules.slidable(position))
            colour = None if repair else rng.choice(boards.PANEL_COLOURS)
            roll = Roll(colour, rng.randint(1, 6), rng.randint(1, 6))
            outcome = rng.choice(rules.legal_moves(position, roll, repair))
            assert rules.apply(position, outcome.action) == (outcome.position, outcome.events)
            position = outcome.position
            spaces = [t.space for t in position.trains]
            assert len(spaces) == len(set(spaces))
            assert not set(spaces) & set(OURS.finishes)
            for seat, colour_ in enumerate(players):
                on = len(position.on_board(colour_))
                assert position.supply(colour_) >= 0
                assert on + position.supply(colour_) + position.depots[seat] == rules.TRAINS
        assert position.over, f"game {number} did not end"
        assert position.depots[players.index(position.winner)] == variant.to_win
