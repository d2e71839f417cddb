"""The store keeps every accepted entry on disk and knows no game: it keeps which game each
is, its record document and its journal; a reopened store resumes the same game, and a
store made by an older companion opens and resumes exactly as before."""

import hashlib
import json
import sqlite3
import subprocess
import sys

import pytest

from companion.games.caboose.journal import CORRECT, TURN, UNDO, stored_record
from companion.games.caboose.ledger import Ledger
from companion.games.caboose.record import record_of
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import Pass
from companion.store import Store, StoreError
from companion.table import Table
from tests.playing import ledger


@pytest.fixture
def record():
    return record_of(deal("rollecate", ["Ana", "Ben"], 4))


def started(store: Store, record) -> int:
    """A Caboose game kept in the store, as its ledger keeps one."""
    return Ledger.load(store, record).id


def test_turns_survive_reopening(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    game = started(store, record)
    store.append(game, TURN, {"pass": True}, finished=False)
    store.append(game, TURN, {"chaos": ["C2"]}, finished=False)
    store.close()
    again = Store(tmp_path / "table.sqlite3")
    assert again.current_game() == (game, "caboose")
    assert stored_record(again, game).turns == [{"pass": True}, {"chaos": ["C2"]}]
    assert stored_record(again, game).setup == record.setup


def test_undo_and_correction_are_journaled_not_erased(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    game = started(store, record)
    store.append(game, TURN, {"play": ["2"], "roll": [1, 1]}, finished=False)
    store.append(game, TURN, {"pass": True}, finished=False)
    store.append(game, UNDO, finished=False)
    store.append(
        game, CORRECT, {"play": ["2"], "roll": [1, 0]}, note="roll was 1 wheel", finished=False
    )
    assert stored_record(store, game).turns == [{"play": ["2"], "roll": [1, 0]}]
    kinds = [entry.kind for entry in store.journal(game)]
    assert kinds == [TURN, TURN, UNDO, CORRECT]
    assert store.journal(game)[-1].note == "roll was 1 wheel"


def test_any_games_record_and_entries_are_kept_as_given(tmp_path):
    """Another game's record and entries, of kinds no Caboose game writes, kept and read
    back as they were given: the fold is the game's, not the store's."""
    store = Store(tmp_path / "table.sqlite3")
    doc = {"format": "yardmaster-record/1", "players": ["Ana", "Ben"], "seed": 7}
    number = store.start("yardmaster", doc, [("draft", {"car": "tanker"})])
    store.append(
        number, "couple", {"cars": ["tanker", "boxcar"]}, note="first train", finished=False
    )
    store.close()
    kept = Store(tmp_path / "table.sqlite3").kept(number)
    assert (kept.game, kept.record) == ("yardmaster", doc)
    assert [(e.kind, e.doc, e.note) for e in kept.journal] == [
        ("draft", {"car": "tanker"}, None),
        ("couple", {"cars": ["tanker", "boxcar"]}, "first train"),
    ]


def test_a_new_game_finishes_the_unfinished_one(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    first = started(store, record)
    second = store.start("yardmaster", {"format": "yardmaster-record/1"})
    assert store.current_game() == (second, "yardmaster")
    assert [(g[0], g[2]) for g in store.games()] == [(first, True), (second, False)]


def test_a_finished_game_is_not_resumed_until_an_entry_opens_it_again(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    first = started(store, record)
    store.append(first, TURN, {"pass": True}, finished=True)  # the turn that ends it
    assert store.current() is None and store.current_game() is None
    store.append(first, UNDO, finished=False)  # taken back: the game goes on
    assert Store(tmp_path / "table.sqlite3").current() == first
    store.append(first, TURN, {"pass": True}, finished=True)
    second = started(store, record)
    assert store.current() == second
    assert [g[0] for g in store.games()] == [first, second]


def test_the_database_is_in_wal_mode_with_full_sync(tmp_path, record):
    store = Store(tmp_path / "table.sqlite3")
    started(store, record)
    db = sqlite3.connect(tmp_path / "table.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("kind", ["", "Shuffle!", "two words", None])
def test_an_entry_kind_that_is_no_word_is_refused_and_nothing_is_written(tmp_path, record, kind):
    store = Store(tmp_path / "table.sqlite3")
    game = started(store, record)
    with pytest.raises(ValueError):
        store.append(game, kind, finished=False)
    with pytest.raises(ValueError):
        store.start("caboose", {}, [(kind, None)])
    assert store.journal(game) == [] and store.current() == game


# The schema of every store before the store knew games (its journal CHECKs the Caboose
# kinds: the first stores even without deals), as tables in families' homes hold it.
OLD_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    record TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE journal (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ({kinds})),
    turn TEXT,
    note TEXT,
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game, seq)
);
"""


@pytest.mark.parametrize(
    "kinds", ["'turn', 'undo', 'correct'", "'turn', 'undo', 'correct', 'deal'"]
)
def test_a_store_of_an_older_companion_resumes_the_same_game_on_the_same_turn(tmp_path, kinds):
    """A game played on a table, copied row by row into a file of the old schema (a game
    over first, then the one in progress): the table opened on it is back on the same turn
    of the same Caboose game, with the same log, and takes the next turn."""
    played = Table(Store(tmp_path / "played.sqlite3"))
    played.load(record_of(deal("rollecate", ["Ana", "Ben"], 4)).as_json())
    before = ledger(played)
    for _ in range(3):
        before.act(before.state.to_move, Pass())
    before.undo()
    before.act(before.state.to_move, Pass())
    kept = played.store.kept(before.id)

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA.format(kinds=kinds))
    old.execute("INSERT INTO games (record, finished) VALUES ('{}', 1)")  # a game long over
    old.execute("INSERT INTO games (record) VALUES (?)", (json.dumps(kept.record),))
    old.executemany(
        "INSERT INTO journal (game, seq, kind, turn, note) VALUES (2, ?, ?, ?, ?)",
        [
            (seq, e.kind, json.dumps(e.doc) if e.doc is not None else None, e.note)
            for seq, e in enumerate(kept.journal, 1)
        ],
    )
    old.commit()
    old.close()

    table = Table(Store(path))
    after = ledger(table)
    assert table.game.id == "caboose" and after.id == 2
    assert after.state.turn == before.state.turn == 3
    assert after.export() == before.export()
    assert after.snapshot(0).lines == before.snapshot(0).lines
    after.act(after.state.to_move, Pass())
    assert [e.kind for e in Store(path).journal(2)] == [TURN, TURN, TURN, UNDO, TURN, TURN]
    assert Store(path).current_game() == (2, "caboose")


def test_a_game_of_a_game_this_companion_does_not_know_is_refused_by_name(tmp_path, record):
    """A store from a newer companion, its game in progress of another game: opening a
    table on it says so (StoreError, one line for the command), never resumes it as a
    Caboose game, and leaves the store as it was."""
    store = Store(tmp_path / "table.sqlite3")
    finished = started(store, record)
    number = store.start("switching-track", {"format": "switching-record/1"}, [("move", {})])
    games = store.games()
    with pytest.raises(StoreError, match=r"'switching-track', a game this companion does not"):
        Table(store)
    assert store.games() == games and games[0][0] == finished
    assert store.current_game() == (number, "switching-track")
    assert [e.kind for e in store.journal(number)] == ["move"]


def test_companion_serve_on_a_store_of_an_unknown_game_says_so_in_one_line(tmp_path):
    """`companion serve` on such a store: the refusal in one line and exit 2 before it would
    serve (the port is never bound), and nothing written."""
    path = tmp_path / "newer.sqlite3"
    store = Store(path)
    store.start("switching-track", {"format": "switching-record/1"})
    store.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = _serve(path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"companion serve: {path} holds a game in progress (number 1) of 'switching-track', a "
        "game this companion does not referee (it knows caboose, yardmaster-express, "
        "switching): update the companion, or give another store file"
    ]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_companion_serve_on_a_store_whose_game_cannot_be_resumed_says_so_in_one_line(tmp_path):
    """A Caboose game whose journal holds an entry no Caboose game writes (a store edited by
    hand, or by a newer companion): `companion serve` says which game and why in one line,
    exit 2, before it would serve, and the file is left as it was."""
    path = tmp_path / "odd.sqlite3"
    store = Store(path)
    doc = record_of(deal("rollecate", ["Ana", "Ben"], seed=1)).as_json()
    store.start("caboose", doc, [("teleport", {"to": 3})])
    store.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = _serve(path)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"companion serve: {path} holds a game in progress (number 1) that")
    assert "teleport" in line
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def _serve(path) -> subprocess.CompletedProcess:
    """`companion serve --db path` as a family runs it (it must refuse before it listens)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--db", str(path), "--port", "8741"],
        capture_output=True,
        text=True,
        timeout=60,
    )
