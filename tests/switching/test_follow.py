"""A real table of the switching-track game followed through the camera: still boards and
still dice (as the camera reports them) compared with the game. A throw is taken once the
dice were lifted; the board showing a legal move's outcome is the move CONFIRM takes; a
board no legal move explains is said, and buzzed once; the panels' way round at setup is
read from the table. The LED and buzzer are stood in for by a recorder of the two calls
the match makes (hw.controls.Controls' `show` and `illegal`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.protocol import Refusal, Setting, Start
from companion.games.switching import match, rules
from companion.games.switching.board import Lie
from companion.games.switching.commands import Press, Seen
from companion.games.switching.follow import BoardSeen, compare, slide_only
from companion.store import Store
from tests.playing import Outputs


@pytest.fixture
def table(tmp_path: Path):
    store = Store(tmp_path / "table.sqlite3")
    outputs = Outputs()
    table = match.start(
        store, Start(("Ana", "Ben"), "ours", None), Setting(camera=object(), outputs=outputs)
    )
    table.outputs = outputs  # type: ignore[attr-defined]
    yield table
    store.close()


def shown(position: rules.Position) -> BoardSeen:
    """The board as a camera that reads everything reports `position`."""
    return BoardSeen(
        position.layout, frozenset((t.space, t.owner, t.facing) for t in position.trains)
    )


def see(table: match.Match, **news) -> dict:
    table.handle(Seen(**news))
    return table.view("en")["session"]


def lifted(table: match.Match) -> None:
    see(table, lifted=True)


def test_a_throw_is_taken_once_then_only_after_the_dice_are_lifted(table) -> None:
    start = table.snap.start
    session = see(table, board=shown(start), dice=("orange", (3, 4)))
    assert table.snap.roll == rules.Roll("orange", 3, 4) and session["awaiting"] == "move"
    table.handle(Press("undo"))  # the roll taken back: the dice lying there are not taken again
    see(table, board=shown(start), dice=("orange", (3, 4)))
    assert table.snap.roll is None
    lifted(table)
    see(table, dice=("cyan", (5, 5)))
    assert table.snap.roll == rules.Roll("cyan", 5, 5)


def test_the_board_showing_a_legal_move_is_taken_on_confirm(table) -> None:
    see(table, board=shown(table.snap.start), dice=("orange", (3, 4)))
    outcome = next(o for o in table.snap.moves if o.action.train == "C1")
    session = see(table, board=shown(outcome.position))
    assert session["awaiting"] == "confirm" and session["shown"] == {
        "from": "C1",
        "place": "the top Start",
    }
    assert table.outputs.led[-1] == "needs-confirmation"
    table.handle(Press("confirm"))
    assert table.snap.position == outcome.position and table.snap.phase == "roll"
    assert table.view("en")["session"]["mover"] == "Ben"
    assert table.outputs.led[-1] == "waiting" and table.outputs.buzzes == 0


def test_a_slid_panel_alone_is_a_move_under_way_not_a_problem(table) -> None:
    see(table, board=shown(table.snap.start), dice=("orange", (3, 4)))
    slid = slide_only(table.snap.position, table.snap.moves)
    assert slid is not None and slid.layout != table.snap.start.layout
    session = see(table, board=shown(slid))
    assert session["problem"] is None and session["waiting"] is None
    assert session["awaiting"] == "move"


def test_a_board_no_legal_move_explains_is_said_and_buzzed_on_confirm(table) -> None:
    see(table, board=shown(table.snap.start), dice=("orange", (3, 4)))
    slid = slide_only(table.snap.position, table.snap.moves)
    wrong = rules.Train("C3", "red")  # three spaces on: the roll was seven
    session = see(table, board=BoardSeen(slid.layout, frozenset({(wrong.space, "red", 1)})))
    assert session["waiting"]["key"] == "train_extra" and session["problem"] is None
    assert table.outputs.buzzes == 0  # a move may be under way: nothing buzzes yet
    table.handle(Press("confirm"))
    session = table.view("en")["session"]
    assert session["problem"]["key"] == "train_extra" and table.outputs.buzzes == 1
    assert table.outputs.led[-1] == "error" and table.snap.roll is not None  # nothing taken
    outcome = next(o for o in table.snap.moves if o.action.train == "C1")
    session = see(table, board=shown(outcome.position))  # put right: the problem goes
    assert session["problem"] is None and session["awaiting"] == "confirm"


def test_a_train_moved_before_the_dice_is_a_problem_buzzed_once(table) -> None:
    board = BoardSeen(table.snap.start.layout, frozenset({("A2", "red", 1)}))
    session = see(table, board=board)
    assert session["problem"]["key"] == "train_extra"
    see(table, board=board, lifted=True)
    assert table.outputs.buzzes == 1  # said once; the buzzer does not nag
    session = see(table, board=shown(table.snap.start))
    assert session["problem"] is None and table.outputs.led[-1] == "waiting"


def test_the_panels_way_round_at_setup_is_read_from_the_table(table) -> None:
    home = table.snap.start.layout
    turned = (Lie(home[0].slot, True), *home[1:])
    see(table, board=BoardSeen(turned, frozenset()))
    assert table.snap.start.layout == turned and table.snap.turn == 0
    resumed = match.resume(table.store, table.id, Setting(camera=object()))
    assert resumed.snap.start.layout == turned
    assert table.record()["setup"]["purple"] == "turned"


def test_pass_with_a_camera_passes_a_turn_only_when_no_move_is_possible(table) -> None:
    see(table, board=shown(table.snap.start), dice=("orange", (3, 4)))
    with pytest.raises(Refusal) as caught:
        table.handle(Press("pass"))
    assert caught.value.rule == "S-17"


def test_compare_prefers_the_position_then_a_move_and_says_what_differs() -> None:
    position = match.new_game(Start(("Ana", "Ben"), "ours", None)).start
    moves = rules.legal_moves(position, rules.Roll("orange", 3, 4))
    names = ("Ana", "Ben")
    assert compare(position, None, moves, shown(position), names).same
    reading = compare(position, None, moves, shown(moves[2].position), names)
    assert reading.outcome == moves[2]
    other = BoardSeen(position.layout, frozenset({("B2", "blue", 1)}))
    said = compare(position, None, moves, other, names).differs
    assert said is not None and said.params == (("colour", "blue"), ("space", "B2"))
