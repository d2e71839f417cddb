"""The table: the one writer. Every change is a command handed to `Table.handle`, applied
by the game's match, kept on disk, and only then announced; a refusal changes nothing."""

from __future__ import annotations

import threading
import time

import pytest

from companion.games.caboose.commands import CorrectRoll, Reorder, Stage, Undo, Unstage
from companion.games.caboose.match import load
from companion.games.caboose.record import from_json, record_of
from companion.games.caboose.refusals import TableError
from companion.games.caboose.rules.state import Chaos, Pass, Play
from companion.games.caboose.snapshot import snapshot_of, stored_record
from companion.games.caboose.words import REFUSALS
from companion.games.protocol import RecordProblem, Refusal, Setting, Start
from companion.store import Store
from companion.table import Table
from tests.caboose.rules.conftest import table as dealt_table
from tests.playing import act, match, new_game
from tests.tables import ROLLECATE_TWO

RECORD = ROLLECATE_TWO


@pytest.fixture
def table(tmp_path) -> Table:
    table = Table(Store(tmp_path / "table.sqlite3"))
    table.load(RECORD)
    return table


def journal_and_state(table: Table):
    game = match(table).snap
    return table.store.journal(game.id), game.state, list(game.record.turns)


def test_a_second_table_on_the_same_store_resumes_the_same_game(tmp_path):
    path = tmp_path / "table.sqlite3"
    first = Table(Store(path))
    new_game(first, "rollecate", ["Ana", "Ben"], seed=7)
    act(first, 0, Pass())
    act(first, 1, Pass())
    again = Table(Store(path))
    assert match(again).snap.state == match(first).snap.state
    assert match(again).snap.lines == match(first).snap.lines
    assert again.record()[2]["turns"] == [{"pass": True}, {"pass": True}]


def test_a_new_game_finishes_the_old_one(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    old = new_game(table, "rollecate", ["Ana", "Ben"], seed=1).id
    new = new_game(table, "loose-caboose", ["Ana", "Ben"], seed=1).id
    assert new != old and table.store.current() == new


def test_no_game_yet_is_a_conflict(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    assert table.view("en")["game"] is None
    with pytest.raises(Refusal) as error:
        act(table, 0, Pass())
    assert error.value.rule == "game" and error.value.conflict
    assert table.version == 0


def test_unknown_game_edition_and_bad_players_are_refused(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    with pytest.raises(Refusal):
        table.start("monopoly", Start(("Ana", "Ben"), "rollecate"))
    with pytest.raises(TableError):
        new_game(table, "monopoly", ["Ana", "Ben"])
    with pytest.raises(TableError):
        new_game(table, "rollecate", ["Ana"])
    assert table.view("en")["game"] is None and table.store.current() is None


def test_undo_goes_back_over_passes_and_chaos_but_not_a_roll(table):
    act(table, 0, Chaos(("C2",)))
    act(table, 1, Pass())
    table.handle(Undo())
    table.handle(Undo())
    assert match(table).snap.record.turns == []
    with pytest.raises(TableError) as error:
        table.handle(Undo())
    assert error.value.rule == "undo" and error.value.conflict
    act(table, 0, Play(("2",), (1, 1)))
    with pytest.raises(TableError) as error:
        table.handle(Undo())
    assert "not undone" in error.value.message
    assert len(match(table).snap.record.turns) == 1


def test_undo_first_takes_back_staged_cards(table):
    table.handle(Stage(0, ("2",)))
    assert match(table).staged is not None and match(table).staged.dice == 2
    table.handle(Undo())
    assert match(table).staged is None


def test_correcting_a_roll_needs_confirmation_and_is_noted(table):
    act(table, 0, Play(("2",), (1, 1)))
    with pytest.raises(TableError) as error:
        table.handle(CorrectRoll((0, 1)))
    assert "confirmed" in error.value.message and error.value.extra == {"needs_confirm": True}
    assert match(table).snap.record.turns[-1]["roll"] == [1, 1]
    table.handle(CorrectRoll((0, 1), confirm=True))
    assert match(table).snap.record.turns[-1]["roll"] == [0, 1]
    assert list(match(table).snap.notes) == ["turn 1: roll corrected from [1, 1] to [0, 1]"]
    # The correction is journaled: a restarted table says it too.
    again = Table(table.store)
    assert match(again).snap.notes == match(table).snap.notes


def test_the_same_roll_again_needs_no_confirmation(table):
    act(table, 0, Play(("2",), (1, 1)))
    table.handle(CorrectRoll((1, 1)))
    assert list(match(table).snap.notes) == ["turn 1: corrected"]


def test_another_discard_order_needs_no_confirmation(table):
    act(table, 0, Pass())  # Ana passes: 1 penalty card from the back
    taken = [e.cards[0] for e in match(table).snap.events[-1] if e.what == "took"]
    assert taken == ["2"]
    table.handle(Reorder(("2!",)))
    assert match(table).snap.notes[-1].startswith("turn 1: discard order")


def test_a_chaos_discard_has_no_order_and_a_pass_no_roll(table):
    act(table, 0, Chaos(("C2",)))
    with pytest.raises(TableError) as error:
        table.handle(Reorder(("2",)))
    assert error.value.rule == "R-7" and error.value.conflict
    with pytest.raises(TableError) as error:
        table.handle(CorrectRoll((1, 1)))
    assert error.value.rule == "correct"


def test_an_illegal_action_leaves_state_journal_and_version_unchanged(table):
    before = journal_and_state(table)
    version = table.version
    for seat, action in [
        (0, Play(("4",), (1,) * 4)),  # not in the hand
        (0, Play(("2",), (1,))),  # 2 dice for a 2, one result
        (0, Play(("2",), (3, 1))),  # no die shows 3 wheels
        (1, Pass()),  # not Ben's turn
        (0, Chaos(("1",))),  # not a chaos card
        (5, Pass()),  # no such seat
    ]:
        with pytest.raises(TableError):
            act(table, seat, action)
    assert journal_and_state(table) == before
    assert table.version == version


def test_stage_checks_the_play_but_keeps_nothing(table):
    with pytest.raises(TableError):
        table.handle(Stage(0, ("4",)))
    table.handle(Stage(0, ("2",)))
    assert match(table).staged.dice == 2
    assert match(table).snap.record.turns == []
    table.handle(Unstage())
    assert match(table).staged is None


def test_unstaging_nothing_wakes_nobody(table):
    version = table.version
    table.handle(Unstage())
    assert table.version == version


def test_a_woken_page_finds_the_command_already_on_disk(table):
    """The match journals before it returns, and the table wakes pages only then: whoever
    is woken reads a store that already holds the turn."""
    version = table.version
    seen: list[int] = []

    def page() -> None:
        table.wait(version, 5)
        seen.append(len(stored_record(Store(table.store.path), match(table).id).turns))

    waiter = threading.Thread(target=page)
    waiter.start()
    time.sleep(0.05)
    started = time.monotonic()
    act(table, 0, Pass())
    waiter.join(2)
    assert seen == [1] and time.monotonic() - started < 1


def test_wait_times_out_without_a_change(table):
    assert table.wait(table.version, 0.05) == table.version


def test_loading_a_bad_record_keeps_the_current_game(table):
    act(table, 0, Pass())
    version = table.version
    with pytest.raises(ValueError):
        table.load(RECORD | {"turns": [{"play": ["4"], "roll": [1, 1, 1, 1]}]})
    assert match(table).snap.record.turns == [{"pass": True}]
    assert table.version == version


def test_snapshot_of_a_record_stops_at_the_turn_asked():
    record = from_json(RECORD | {"turns": [{"pass": True}, {"pass": True}]})
    snap = snapshot_of(record, 1)
    assert len(snap.events) == 1 and snap.before is not None
    assert snap.state.turn == 1


def test_the_view_is_of_one_version(table):
    act(table, 0, Pass())
    doc = table.view("en")
    assert doc["version"] == table.version
    assert doc["turn"] == match(table).snap.state.turn == 1
    assert doc["session"] is None  # no camera follows this table


def test_twenty_undos_meant_for_one_turn_take_back_one_turn(table):
    act(table, 0, Pass())
    act(table, 1, Pass())
    act(table, 0, Pass())
    refused: list[str] = []

    def tap() -> None:
        try:
            table.handle(Undo(turn=3))
        except TableError as error:
            refused.append(error.rule)

    taps = [threading.Thread(target=tap) for _ in range(20)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert len(match(table).snap.record.turns) == 2
    assert refused == ["stale"] * 19


def test_a_late_correction_meant_for_an_earlier_turn_changes_nothing(table):
    act(table, 0, Play(("2",), (1, 1)))
    act(table, 1, Pass())
    before = journal_and_state(table)
    with pytest.raises(TableError) as error:
        table.handle(CorrectRoll((0, 1), confirm=True, turn=1))
    assert error.value.rule == "stale" and "turn 2" in error.value.message
    assert journal_and_state(table) == before


@pytest.mark.parametrize("name", ["\u200b", "  ", "\u200e", "A" * 201, "Ana\nBen"])
def test_a_name_nobody_can_read_starts_no_game_and_loads_no_record(tmp_path, name):
    table = Table(Store(tmp_path / "table.sqlite3"))
    with pytest.raises(TableError) as error:
        new_game(table, "rollecate", ["Ana", name], seed=1)
    assert error.value.rule == "setup" and "player 2's name" in error.value.message
    with pytest.raises(RecordProblem) as refused:  # the record's reader refuses it first
        table.load(RECORD | {"players": ["Ana", name]})
    assert refused.value.rule == "setup" and "player 2's name" in str(refused.value)
    assert table.view("en")["game"] is None


def test_a_hand_of_one_card_shown_short_is_said_as_one_card():
    """A provisional deal's hand shown short counts what is held as `n`, so the page (its
    `_one` form when `n` is 1, as shell.js's `t`) says "1 carta", not "1 cartas"."""
    state = dealt_table("rollecate", ["2"], 0, [["2", "3"], []], draw=["1", "1"])
    ended = load(Store(":memory:"), record_of(state).as_json(), Setting(provisional=True))
    while not ended.snap.state.over:
        ended.act(ended.snap.state.to_move, Pass())
    assert ended.snap.state.seats[1].hand == ("1",)  # Ben drew one card and holds it
    with pytest.raises(TableError) as refused:
        ended.show_hand(1, ["1", "2"])
    error = refused.value
    assert error.message == "Ben ends with 1 cards, not 2: show every card of the hand"
    assert (error.key, error.params["n"]) == ("hand_count", 1)
    words = REFUSALS["es"][f"{error.key}_one"].format_map(error.params)
    assert words == "Ben acaba con 1 carta, no 2: enseña todas las cartas de la mano"
    assert ended.snap.shown == {}  # nothing was shown
