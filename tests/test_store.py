"""The store keeps every accepted entry on disk and knows no game: it keeps which game each
is, its record document and its journal; a reopened store resumes the same game, and a
store made by an older companion opens and resumes exactly as before."""

import gc
import hashlib
import json
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.games.caboose.match import load
from companion.games.caboose.record import record_of
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.snapshot import CORRECT, TURN, stored_record
from companion.games.match import UNDO
from companion.games.protocol import Setting
from companion.store import Backups, Entry, StorageFull, Store, StoreError
from companion.table import Table
from tests.playing import act, match
from tests.web.test_games_api import last_turn


@pytest.fixture
def record():
    return record_of(deal("rollecate", ["Ana", "Ben"], 4))


def started(store: Store, record) -> int:
    """A Caboose game kept in the store, as its match keeps one."""
    return load(store, record.as_json(), Setting()).id


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
    before = match(played)
    for _ in range(3):
        before.act(before.snap.state.to_move, Pass())
    before.undo()
    before.act(before.snap.state.to_move, Pass())
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
    after = match(table)
    assert table.game.id == "caboose" and after.id == 2
    assert after.snap.state.turn == before.snap.state.turn == 3
    assert after.export() == before.export()
    assert after.snapshot().lines == before.snapshot().lines
    after.act(after.snap.state.to_move, Pass())
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


# --- a disk that fills up, a file that goes bad, and the way back --------------------------

QUIET = Backups(changes=10**6, seconds=3600)  # no copy but those a test asks for


def played(path, entries: int = 40, backups: Backups = QUIET) -> tuple[Store, int]:
    """A store holding a game of `entries` turns (several pages of journal)."""
    store = Store(path, backups)
    game = store.start("caboose", {"format": "caboose-record/1"})
    for turn in range(entries):
        store.append(game, TURN, {"pass": True, "turn": turn, "note": "x" * 200}, finished=False)
    return store, game


def damage(path) -> bytes:
    """One page of the file overwritten, as a failing SD card leaves it: its bytes now."""
    with open(path, "r+b") as file:
        file.seek(3 * 4096)
        file.write(b"\xff" * 512)
    return path.read_bytes()


def backups_of(path) -> list[str]:
    """The backups beside the store at `path` (not a copy in the making), oldest first."""
    made = [p.name for p in path.parent.glob(f"{path.name}.backup-*")]
    return sorted((n for n in made if n.rsplit("-", 1)[1].isdigit()), key=len)


def test_a_change_the_disk_has_no_room_for_is_refused_and_nothing_is_lost(tmp_path):
    """SQLite's page limit gives the error a full disk gives (SQLITE_FULL)."""
    path = tmp_path / "table.sqlite3"
    store, game = played(path, 3)
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    kept = store.journal(game)
    with pytest.raises(StorageFull) as full:
        for turn in range(500):  # the pages' free room runs out within a few entries
            store.append(game, TURN, {"pass": True, "more": "y" * 300}, finished=turn == 499)
            kept = store.journal(game)
    assert full.value.key == "storage_full" and "storage is full" in full.value.message
    assert store.journal(game) == kept and store.current() == game  # nothing of it kept
    with pytest.raises(StorageFull):
        store.start("caboose", {"format": "caboose-record/1", "setup": "z" * 9000})
    assert store.current() == game and len(store.games()) == 1
    store._db.execute(f"PRAGMA max_page_count = {pages * 100}")  # space freed
    store.append(game, UNDO, finished=False)
    assert Store(path).journal(game) == [*kept, Entry(UNDO, None, None)]


def test_a_damaged_page_without_a_backup_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "table.sqlite3"
    store, _ = played(path)
    store.close()
    for copy in path.parent.glob("*.backup-*"):  # a store of an older companion: no backup
        copy.unlink()
    damaged = damage(path)
    with pytest.raises(StoreError) as refused:
        Store(path)
    said = str(refused.value)
    assert str(path) in said and "is damaged" in said and "no good backup" in said
    assert "move it away" in said and "\n" not in said
    assert path.read_bytes() == damaged  # left as it was, for whoever can recover it


def test_a_store_cut_to_nothing_beside_its_log_is_refused_not_started_empty(tmp_path):
    """SQLite would open the empty file as a new store and throw its log away."""
    path, log = tmp_path / "table.sqlite3", tmp_path / "table.sqlite3-wal"
    store, _ = played(path, 5)
    written = log.read_bytes()  # the game, not yet copied into the file itself
    store.close()
    for copy in path.parent.glob("*.backup-*"):
        copy.unlink()
    path.write_bytes(b"")
    log.write_bytes(written)
    with pytest.raises(StoreError) as refused:
        Store(path)
    assert str(path) in str(refused.value) and "cut short" in str(refused.value)
    assert path.read_bytes() == b"" and log.read_bytes() == written


@pytest.mark.parametrize("how", ["page", "cut"])
def test_a_damaged_store_is_resumed_from_its_newest_good_backup(tmp_path, how):
    path = tmp_path / "table.sqlite3"
    store, game = played(path, 10)
    store.backup()
    store.append(game, TURN, {"pass": True}, finished=False)
    good = store.backup()  # the newest good one
    journal = store.journal(game)
    store.append(game, TURN, {"pass": True}, finished=False)
    newest = store.backup()
    store.close()
    assert backups_of(path) == [f"{path.name}.backup-{n}" for n in (1, 2, 3)]
    damage(newest)  # the card fails under the newest backup too
    if how == "page":
        damaged = damage(path)
    else:
        damaged = b""
        path.write_bytes(damaged)
        path.with_name(path.name + "-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 4092)
    again = Store(path)
    assert again.journal(game) == journal and again.current() == game
    said = again.restored
    assert said is not None and str(path) in said and "damaged" in said
    assert good.name in said and "resumed" in said
    (aside,) = path.parent.glob(f"{path.name}.damaged-*[0-9]")
    assert aside.name in said and aside.read_bytes() == damaged  # kept, not deleted


def soon(condition) -> bool:
    """Whether `condition` holds within ten seconds (the backup thread makes the copies)."""
    for _ in range(500):
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_the_backup_is_made_as_the_game_goes_and_only_the_newest_are_kept(tmp_path):
    path = tmp_path / "table.sqlite3"
    store, game = played(path, 5, Backups(changes=3, seconds=3600, keep=2))
    assert soon(lambda: len(backups_of(path)) == 2)  # every 3 entries, the oldest let go
    numbers = [int(name.rsplit("-", 1)[1]) for name in backups_of(path)]
    assert numbers == [numbers[0], numbers[0] + 1]
    store.append(game, TURN, {"pass": True}, finished=True)  # the game ends: a copy now
    newest = lambda: sqlite3.connect(path.with_name(backups_of(path)[-1]))  # noqa: E731
    assert soon(lambda: newest().execute("SELECT finished FROM games").fetchall() == [(1,)])
    store.close()
    quiet = tmp_path / "quiet.sqlite3"
    store = Store(quiet, Backups(changes=100, seconds=0.2))
    store.start("caboose", {"format": "caboose-record/1"})
    assert soon(lambda: len(backups_of(quiet)) == 1)  # a few entries: copied within the time
    store.close()


def test_a_store_nobody_closes_is_let_go_with_its_backup_thread(tmp_path):
    """The backup thread holds the store only while it copies it: a store a tool opened
    and dropped does not keep its file open for the life of the process."""
    store = Store(tmp_path / "table.sqlite3", Backups(changes=100, seconds=0.05))
    store.start("caboose", {"format": "caboose-record/1"})
    saver = store._saver
    assert saver is not None and soon(lambda: len(backups_of(tmp_path / "table.sqlite3")) == 1)
    del store
    gc.collect()
    assert soon(lambda: not saver.is_alive())


# The schema of the stores made before the history (issue 31): games and their journal.
BEFORE_HISTORY = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    record TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    game TEXT NOT NULL
);
CREATE TABLE journal (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    doc TEXT,
    note TEXT,
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game, seq)
);
"""


def test_a_store_made_before_the_history_has_its_games_remembered_in_place(tmp_path):
    """Issue 31: a file of the previous companion (a Caboose game played to its end, one
    left for a new one, one in progress), copied row by row into the previous schema:
    opened, its finished games are in the history with their scores and winners, the game
    in progress is resumed and is no history yet, and opening it again changes nothing."""
    doc, _ = last_turn("caboose")
    played = Table(Store(tmp_path / "played.sqlite3"))
    played.load(doc)
    act(played, match(played).snap.state.to_move, Pass())
    assert played.match.over
    for _ in range(2):  # the first left after one turn, the second in progress
        played.load(record_of(deal("rollecate", ["Cleo", "Ana"], 4)).as_json())
        act(played, match(played).snap.state.to_move, Pass())
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(BEFORE_HISTORY)
    for number, _, finished in played.store.games():
        kept = played.store.kept(number)
        old.execute(
            "INSERT INTO games (id, record, finished, game) VALUES (?, ?, ?, ?)",
            (number, json.dumps(kept.record), int(finished), kept.game),
        )
        old.executemany(
            "INSERT INTO journal (game, seq, kind, doc, note) VALUES (?, ?, ?, ?, ?)",
            [
                (number, seq, e.kind, json.dumps(e.doc) if e.doc is not None else None, e.note)
                for seq, e in enumerate(kept.journal, 1)
            ],
        )
    old.commit()
    old.close()

    table = Table(Store(path))
    assert table.match.id == 3 and not table.match.over  # the game in progress, resumed
    history = table.store.history()
    assert [(g["id"], g["over"]) for g in history] == [(2, False), (1, True)]
    ended = history[1]
    assert [p["name"] for p in ended["players"]] == doc["players"]
    assert ended["scores"] == played.store.history()[1]["scores"] and ended["winners"]
    assert ended["option"] == doc["edition"] and ended["fewest_win"] is True
    again = Store(path)
    assert again.unremembered() == [] and again.history() == history
