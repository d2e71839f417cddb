"""The games kept on disk: every accepted action is in SQLite before anyone is told of it.

The store knows no game: it keeps, for each game played at the table, which game it is (the
registry's `Game.id`, companion/games/__init__.py), the record document it started from and
an append-only journal of entries, each a kind and a JSON document the game names and
reads. Folding the journal into the game as it stands now is the game's (for the Caboose
design: its ledger, companion/games/caboose/journal.py). A power cut at any moment leaves
either the whole entry or none of it, and the journal keeps every correction for the log.
WAL with `synchronous=FULL` makes each commit durable before `append` returns.

Stores already on tables in families' homes open as before: a file made before entries
of any kind (its journal CHECKs the Caboose kinds) or before game ids (it kept Caboose games
only) is migrated in place, in one transaction, when it is opened.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Every game a store kept before it said which game each was: the Caboose design's.
BEFORE_GAME_IDS = "caboose"
# An entry's kind is a word the game chose ("turn", "undo"): the log and the tests read it.
_KIND = re.compile(r"[a-z][a-z_]*")

_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    record TEXT NOT NULL,            -- the record document it started from (JSON)
    finished INTEGER NOT NULL DEFAULT 0,
    game TEXT NOT NULL               -- which game: the registry's Game.id
)"""
_JOURNAL = """
CREATE TABLE IF NOT EXISTS journal (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- the game's name for the entry (turn, undo, deal...)
    doc TEXT,                        -- its document (JSON), if any
    note TEXT,                       -- why, in words, for the log (a correction)
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game, seq)
)"""


@dataclass(frozen=True)
class Entry:
    """One journal entry, as the game that wrote it named it."""

    kind: str
    doc: Any  # its JSON document, None if it has none
    note: str | None


@dataclass(frozen=True)
class Kept:
    """One game as the store keeps it, read at one instant: the game's to fold."""

    number: int  # its number in the store
    game: str  # which game (the registry's `Game.id`)
    record: dict[str, Any]  # the record document it started from
    journal: list[Entry]


class StoreError(OSError):
    """The store's file cannot be opened as a table's store, or holds what this companion
    cannot resume; the message names the file, what is wrong with it and what to do. An
    OSError, as a folder that cannot be written is: the commands already turn those into
    one line and exit status 2."""


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
        make its tables, or bring an older store's up to date."""
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
        self._name_the_games()
        self._journal_any_kind()

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

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}

    def _name_the_games(self) -> None:
        """A file made before games had ids kept Caboose games only: say so of each."""
        if "game" in self._columns("games"):
            return
        with self._write() as db:
            db.execute(
                f"ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT '{BEFORE_GAME_IDS}'"
            )

    def _journal_any_kind(self) -> None:
        """A file made before the store knew no game lists the Caboose kinds in a CHECK
        (the first ones even without deals) and calls an entry's document `turn`: copy its
        journal into a table that takes any game's entries, in one transaction."""
        if "doc" in self._columns("journal"):
            return
        with self._write() as db:
            db.execute("ALTER TABLE journal RENAME TO journal_before_any_game")
            db.execute(_JOURNAL)
            db.execute(
                "INSERT INTO journal (game, seq, kind, doc, note, at) "
                "SELECT game, seq, kind, turn, note, at FROM journal_before_any_game"
            )
            db.execute("DROP TABLE journal_before_any_game")

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

    def start(
        self,
        game: str,
        record: Mapping[str, Any],
        entries: Iterable[tuple[str, Any]] = (),
    ) -> int:
        """A new game of `game` (the registry's id) from its record document and its first
        journal entries (kind, document), all in one transaction; its number. The game
        left unfinished before is finished: a restart resumes the newest unfinished game,
        now this one."""
        entries = [(_checked(kind), doc) for kind, doc in entries]
        with self._write() as db:
            db.execute("UPDATE games SET finished = 1 WHERE finished = 0")
            started = db.execute(
                "INSERT INTO games (game, record) VALUES (?, ?)", (game, json.dumps(record))
            )
            number = int(started.lastrowid)
            for seq, (kind, doc) in enumerate(entries, 1):
                db.execute(
                    "INSERT INTO journal (game, seq, kind, doc) VALUES (?, ?, ?, ?)",
                    (number, seq, kind, json.dumps(doc) if doc is not None else None),
                )
        return number

    def append(
        self, number: int, kind: str, doc: Any = None, note: str = "", *, finished: bool
    ) -> None:
        """Journal one accepted entry of game `number` and whether the game is finished
        after it, in one transaction; returns only once both are on disk. `finished` is
        the game's to say after every entry: an entry may end the game (a restart no longer
        resumes it), and one that takes its last turn back opens it again (a restart
        resumes it), so the store and the game never disagree, whenever the power goes."""
        _checked(kind)
        with self._write() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE game = ?", (number,)
            ).fetchone()
            db.execute(
                "INSERT INTO journal (game, seq, kind, doc, note) VALUES (?, ?, ?, ?, ?)",
                (
                    number,
                    last + 1,
                    kind,
                    json.dumps(doc) if doc is not None else None,
                    note or None,
                ),
            )
            db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), number))

    def journal(self, number: int) -> list[Entry]:
        with self._lock:
            return self._journal(number)

    def kept(self, number: int) -> Kept:
        """Game `number` as kept: which game, its record document and its journal, read
        at one instant; a `KeyError` for a number the store does not hold."""
        with self._lock:
            row = self._db.execute(
                "SELECT game, record FROM games WHERE id = ?", (number,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no game {number} in {self.path}")
            return Kept(number, row[0], json.loads(row[1]), self._journal(number))

    def current(self) -> int | None:
        """The newest unfinished game: what a restarted service resumes."""
        found = self.current_game()
        return found[0] if found else None

    def current_game(self) -> tuple[int, str] | None:
        """The newest unfinished game's number and which game it is, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, game FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return (int(row[0]), row[1]) if row else None

    def games(self) -> list[tuple[int, str, bool]]:
        """Every game kept: its number, when it started, whether it is finished."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, started, finished FROM games ORDER BY id"
            ).fetchall()
        return [(int(i), started, bool(done)) for i, started, done in rows]

    def _journal(self, number: int) -> list[Entry]:
        rows = self._db.execute(
            "SELECT kind, doc, note FROM journal WHERE game = ? ORDER BY seq", (number,)
        ).fetchall()
        return [Entry(kind, json.loads(doc) if doc else None, note) for kind, doc, note in rows]


def _checked(kind: object) -> str:
    """An entry's kind, a word (`_KIND`), or a ValueError: nothing is written."""
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise ValueError(f"an entry's kind is a lower-case word, not {kind!r}")
    return kind
