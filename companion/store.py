"""The game kept on disk: every accepted action is in SQLite before anyone is told of it.

Append-only: a game is its record's setup and a journal of entries (a turn, an undo, a
corrected turn, a deal fixed by what the table showed: `companion.games.caboose.deal`). The current
record is the fold of the journal, so a power cut at any
moment leaves either the whole entry or none of it, and the journal keeps every correction
for the log. WAL with `synchronous=FULL` makes each commit durable before `append` returns.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.caboose.record import Record, from_json

TURN, UNDO, CORRECT, DEAL = "turn", "undo", "correct", "deal"
KINDS = (TURN, UNDO, CORRECT, DEAL)

_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    record TEXT NOT NULL,            -- the caboose-record/1 without turns
    finished INTEGER NOT NULL DEFAULT 0
)"""
_JOURNAL = """
CREATE TABLE IF NOT EXISTS journal (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('turn', 'undo', 'correct', 'deal')),
    turn TEXT,                       -- the record turn (turn, correct); the deal (deal)
    note TEXT,                       -- why, in words, for the log (correct)
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game, seq)
)"""


@dataclass(frozen=True)
class Entry:
    kind: str
    turn: dict[str, Any] | None
    note: str | None


class StoreError(OSError):
    """The store's file cannot be opened as a table's store; the message names the file,
    what is wrong with it and what to do. An OSError, as a folder that cannot be written is:
    the commands already turn those into one line and exit status 2."""


class Store:
    """One SQLite file of games. Safe to share between threads of one process."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StoreError(
                f"a file stands where the folder {self.path.parent} of the table's store "
                "should be: give a path in a folder"
            ) from None
        except OSError as error:
            raise StoreError(
                f"cannot make the folder {self.path.parent} for the table's store "
                f"({error.strerror or error}): give a file in a folder you can write"
            ) from None
        if self.path.is_dir():
            raise StoreError(
                f"{self.path} is a folder, not a store: give a file in it, such as "
                f"{self.path / 'table.sqlite3'}"
            )
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(self._refusal(error)) from None
        try:
            self._open()
        except sqlite3.Error as error:
            self._db.close()
            raise StoreError(self._refusal(error)) from None

    def _open(self) -> None:
        """Check that the file is a store (or empty) before changing anything in it, then
        make its tables."""
        tables = {
            name
            for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if tables and "games" not in tables:
            raise sqlite3.DatabaseError("an SQLite file of another program")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute(_GAMES)
        self._db.execute(_JOURNAL)
        self._allow_deal_entries()

    def _refusal(self, error: sqlite3.Error) -> str:
        """Why the file is no store, in words, and what to do."""
        if isinstance(error, sqlite3.OperationalError):
            return (
                f"cannot open or write the table's store {self.path} ({error}): give a file "
                "in a folder you can write"
            )
        return (
            f"{self.path} is not a table's store ({error}): give another file, or move this "
            "one away to start a new store there"
        )

    def _allow_deal_entries(self) -> None:
        """A file made before deal entries existed refuses them (its CHECK lists the old
        kinds): copy its journal into a table that takes them, in one transaction."""
        (sql,) = self._db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'journal'"
        ).fetchone()
        if f"'{DEAL}'" in sql:
            return
        with self._write() as db:
            db.execute("ALTER TABLE journal RENAME TO journal_before_deal")
            db.execute(_JOURNAL)
            db.execute("INSERT INTO journal SELECT * FROM journal_before_deal")
            db.execute("DROP TABLE journal_before_deal")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def start(self, record: Record) -> int:
        """A new game from a record's setup (its turns, if any, are journaled too)."""
        doc = record.as_json()
        turns = doc.pop("turns")
        with self._write() as db:
            game = db.execute("INSERT INTO games (record) VALUES (?)", (json.dumps(doc),))
            game_id = int(game.lastrowid)
            for seq, turn in enumerate(turns, 1):
                db.execute(
                    "INSERT INTO journal (game, seq, kind, turn) VALUES (?, ?, ?, ?)",
                    (game_id, seq, TURN, json.dumps(turn)),
                )
        return game_id

    def append(
        self, game: int, kind: str, turn: dict[str, Any] | None = None, note: str = ""
    ) -> None:
        """Journal one accepted entry; returns only once it is on disk."""
        if kind not in KINDS:
            raise ValueError(f"unknown journal entry {kind!r}")
        with self._write() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE game = ?", (game,)
            ).fetchone()
            db.execute(
                "INSERT INTO journal (game, seq, kind, turn, note) VALUES (?, ?, ?, ?, ?)",
                (
                    game,
                    last + 1,
                    kind,
                    json.dumps(turn) if turn is not None else None,
                    note or None,
                ),
            )

    def finish(self, game: int) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET finished = 1 WHERE id = ?", (game,))

    def journal(self, game: int) -> list[Entry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT kind, turn, note FROM journal WHERE game = ? ORDER BY seq", (game,)
            ).fetchall()
        return [Entry(kind, json.loads(turn) if turn else None, note) for kind, turn, note in rows]

    def record(self, game: int) -> Record:
        """The game's record now: the journal folded over its setup."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game} in {self.path}")
        doc = json.loads(row[0])
        turns: list[dict[str, Any]] = []
        for entry in self.journal(game):
            if entry.kind == TURN:
                turns.append(entry.turn)
            elif entry.kind == UNDO:
                turns.pop()
            elif entry.kind == DEAL:
                doc["setup"] = entry.turn["setup"]
            else:
                turns[-1] = entry.turn
        doc["turns"] = turns
        return from_json(doc)

    def current(self) -> int | None:
        """The newest unfinished game: what a restarted service resumes."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return int(row[0]) if row else None

    def games(self) -> list[tuple[int, str, bool]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, started, finished FROM games ORDER BY id"
            ).fetchall()
        return [(int(i), started, bool(done)) for i, started, done in rows]
