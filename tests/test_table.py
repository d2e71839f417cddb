"""The table: the one place where actions are accepted, kept on disk and announced."""

from __future__ import annotations

import threading
import time

import pytest

from companion.games.caboose.record import from_json
from companion.games.caboose.rules.state import Chaos, Pass, Play
from companion.games.caboose.table import Table, TableError, snapshot_of
from companion.store import Store
from tests.tables import ROLLECATE_TWO

RECORD = ROLLECATE_TWO


@pytest.fixture
def table(tmp_path) -> Table:
    table = Table(Store(tmp_path / "table.sqlite3"))
    table.load(from_json(RECORD))
    return table


def journal_and_state(table: Table):
    game = table.require()
    return table.store.journal(game.id), game.state, list(game.record.turns)


def test_a_second_table_on_the_same_store_resumes_the_same_game(tmp_path):
    path = tmp_path / "table.sqlite3"
    first = Table(Store(path))
    first.new_game("rollecate", ["Ana", "Ben"], seed=7)
    first.act(0, Pass())
    first.act(1, Pass())
    again = Table(Store(path))
    assert again.require().state == first.require().state
    assert again.require().lines == first.require().lines
    assert again.export().turns == [{"pass": True}, {"pass": True}]


def test_a_new_game_finishes_the_old_one(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    old = table.new_game("rollecate", ["Ana", "Ben"], seed=1).id
    new = table.new_game("loose-caboose", ["Ana", "Ben"], seed=1).id
    assert new != old and table.store.current() == new


def test_no_game_yet_is_a_table_error(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    assert table.game is None
    with pytest.raises(TableError) as error:
        table.act(0, Pass())
    assert error.value.rule == "game"


def test_unknown_edition_and_bad_players_are_refused(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    with pytest.raises(TableError):
        table.new_game("monopoly", ["Ana", "Ben"])
    with pytest.raises(TableError):
        table.new_game("rollecate", ["Ana"])


def test_undo_goes_back_over_passes_and_chaos_but_not_a_roll(table):
    table.act(0, Chaos(("C2",)))
    table.act(1, Pass())
    table.undo()
    table.undo()
    assert table.require().record.turns == []
    with pytest.raises(TableError) as error:
        table.undo()
    assert error.value.rule == "undo"
    table.act(0, Play(("2",), (1, 1)))
    with pytest.raises(TableError) as error:
        table.undo()
    assert "not undone" in error.value.message
    assert len(table.require().record.turns) == 1


def test_undo_first_takes_back_staged_cards(table):
    table.stage(0, ["2"])
    assert table.staged is not None and table.staged.dice == 2
    table.undo()
    assert table.staged is None


def test_correcting_a_roll_needs_confirmation_and_is_noted(table):
    table.act(0, Play(("2",), (1, 1)))
    with pytest.raises(TableError) as error:
        table.correct(Play(("2",), (0, 1)))
    assert "confirmed" in error.value.message
    assert table.require().record.turns[-1]["roll"] == [1, 1]
    table.correct(Play(("2",), (0, 1)), confirm=True)
    assert table.require().record.turns[-1]["roll"] == [0, 1]
    assert table.require().notes == ["turn 1: roll corrected from [1, 1] to [0, 1]"]
    # The correction is journaled: a restarted table says it too.
    again = Table(table.store)
    assert again.require().notes == table.require().notes


def test_another_discard_order_needs_no_confirmation(table):
    table.act(0, Pass())  # Ana passes: 1 penalty card from the back
    taken = [e.cards[0] for e in table.require().events[-1] if e.what == "took"]
    assert taken == ["2"]
    table.correct(Pass(order=("2!",)))
    assert table.require().notes[-1].startswith("turn 1: discard order")


def test_an_illegal_action_leaves_state_and_journal_unchanged(table):
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
            table.act(seat, action)
    assert journal_and_state(table) == before
    assert table.version == version


def test_stage_checks_the_play_but_keeps_nothing(table):
    with pytest.raises(TableError):
        table.stage(0, ["4"])
    staged = table.stage(0, ["2"])
    assert staged.dice == 2
    assert table.require().record.turns == []
    table.unstage()
    assert table.staged is None


def test_wait_wakes_on_a_change(table):
    version = table.version
    woke: list[int] = []
    waiter = threading.Thread(target=lambda: woke.append(table.wait(version, 5)))
    waiter.start()
    time.sleep(0.05)
    started = time.monotonic()
    table.act(0, Pass())
    waiter.join(2)
    assert woke == [table.version] and time.monotonic() - started < 1


def test_wait_times_out_without_a_change(table):
    assert table.wait(table.version, 0.05) == table.version


def test_loading_a_bad_record_keeps_the_current_game(table):
    table.act(0, Pass())
    bad = from_json(RECORD | {"turns": [{"play": ["4"], "roll": [1, 1, 1, 1]}]})
    with pytest.raises(ValueError):
        table.load(bad)
    assert table.require().record.turns == [{"pass": True}]


def test_snapshot_of_a_record_stops_at_the_turn_asked(table):
    record = from_json(RECORD | {"turns": [{"pass": True}, {"pass": True}]})
    snap = snapshot_of(record, 1)
    assert len(snap.events) == 1 and snap.before is not None
    assert snap.state.turn == 1


def test_snapshot_is_consistent(table):
    table.act(0, Pass())
    snap = table.snapshot()
    assert snap.version == table.version
    assert snap.state == table.require().state
    assert snap.before is not None and snap.before.turn == 0


def test_twenty_undos_meant_for_one_turn_take_back_one_turn(table):
    table.act(0, Pass())
    table.act(1, Pass())
    table.act(0, Pass())
    refused: list[str] = []

    def tap() -> None:
        try:
            table.undo(turn=3)
        except TableError as error:
            refused.append(error.rule)

    taps = [threading.Thread(target=tap) for _ in range(20)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert len(table.require().record.turns) == 2
    assert refused == ["stale"] * 19


def test_a_late_correction_meant_for_an_earlier_turn_changes_nothing(table):
    table.act(0, Play(("2",), (1, 1)))
    table.act(1, Pass())
    before = journal_and_state(table)
    with pytest.raises(TableError) as error:
        table.correct(Play(("2",), (0, 1)), confirm=True, turn=1)
    assert error.value.rule == "stale" and "turn 2" in error.value.message
    assert journal_and_state(table) == before


@pytest.mark.parametrize("name", ["\u200b", "  ", "\u200e", "A" * 201, "Ana\nBen"])
def test_a_name_nobody_can_read_starts_no_game_and_loads_no_record(tmp_path, name):
    table = Table(Store(tmp_path / "table.sqlite3"))
    with pytest.raises(TableError) as error:
        table.new_game("rollecate", ["Ana", name], seed=1)
    assert error.value.rule == "setup" and "player 2's name" in error.value.message
    with pytest.raises(TableError):
        table.load(from_json(RECORD | {"players": ["Ana", name]}))
    assert table.game is None
