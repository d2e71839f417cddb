"""The store keeps every accepted turn on disk; a reopened store resumes the same game."""

import sqlite3

import pytest

from companion.games.caboose.record import record_of
from companion.games.caboose.rules.engine import deal
from companion.store import CORRECT, TURN, UNDO, Store


@pytest.fixture
def record():
    return record_of(deal("rollecate", ["Ana", "Ben"], 4))


def test_turns_survive_reopening(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    game = store.start(record)
    store.append(game, TURN, {"pass": True})
    store.append(game, TURN, {"chaos": ["C2"]})
    store.close()
    again = Store(tmp_path / "table.sqlite3")
    assert again.current() == game
    assert again.record(game).turns == [{"pass": True}, {"chaos": ["C2"]}]
    assert again.record(game).setup == record.setup


def test_undo_and_correction_are_journaled_not_erased(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    game = store.start(record)
    store.append(game, TURN, {"play": ["2"], "roll": [1, 1]})
    store.append(game, TURN, {"pass": True})
    store.append(game, UNDO)
    store.append(game, CORRECT, {"play": ["2"], "roll": [1, 0]}, note="roll was 1 wheel")
    assert store.record(game).turns == [{"play": ["2"], "roll": [1, 0]}]
    kinds = [entry.kind for entry in store.journal(game)]
    assert kinds == [TURN, TURN, UNDO, CORRECT]
    assert store.journal(game)[-1].note == "roll was 1 wheel"


def test_a_finished_game_is_not_resumed(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    first = store.start(record)
    store.finish(first)
    assert store.current() is None
    second = store.start(record)
    assert store.current() == second
    assert [g[0] for g in store.games()] == [first, second]


def test_the_database_is_in_wal_mode_with_full_sync(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    store.start(record)
    db = sqlite3.connect(tmp_path / "table.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_unknown_entry_is_refused_and_nothing_is_written(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    game = store.start(record)
    with pytest.raises(ValueError):
        store.append(game, "shuffle")
    assert store.journal(game) == []
