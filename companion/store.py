"""The games kept on disk: every accepted action is in SQLite before anyone is told of it.

The store knows no game: it keeps, for each game played at the table, which game it is (the
registry's `Game.id`, companion/games/__init__.py), the record document it started from and
an append-only journal of entries, each a kind and a JSON document the game names and
reads. Folding the journal into the game as it stands now is the game's (for the Caboose
design: `KEEPING` in companion/games/caboose/snapshot.py). A power cut at any moment leaves
either the whole entry or none of it, and the journal keeps every correction for the log.
WAL with `synchronous=FULL` makes each commit durable before `append` returns.

Stores already on tables in families' homes open as before: a file made before entries
of any kind (its journal CHECKs the Caboose kinds) or before game ids (it kept Caboose games
only) is migrated in place, in one transaction, when it is opened.

The history (every game played at the table: how it stood when it ended or was left, who
sat where, who won) is kept beside the journal, one row per finished game, so a page of it
is one indexed read however many games were played. The row is the game's `Result`
(companion/games/protocol.py), which only the game can work out: the table writes it
(`remember`) as a game ends, and `companion.table.catch_up` writes the rows a store lacks
(a store made before the history, a power cut between the game's last entry and its row).
Players are people, not seats: every name a person played under (`aliases`, compared
without case or extra spaces) leads to one `players` row, renamed or merged with the PIN.

An SD card goes bad, fills up or loses power mid-write, and the evening's game must
survive it. So the store keeps a rolling backup beside its file (`Backups`: SQLite's online
backup API, from a connection of its own, in a thread of its own, so a move never waits for
it), checks its file when it is opened (`PRAGMA quick_check`, and a file cut to nothing
beside its write-ahead log), and resumes a damaged file from its newest good backup, the
damaged one kept aside, renamed (`restored` says so). A change the disk has no room for is
refused (`StorageFull`) and changes nothing: the next one after space is freed is kept.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.protocol import Refusal

log = logging.getLogger("companion.store")

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


_RESULTS = """
CREATE TABLE IF NOT EXISTS results (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    ended TEXT NOT NULL,             -- its last entry's time
    over INTEGER NOT NULL,           -- played to its end (else left for a new game)
    fewest_win INTEGER NOT NULL,     -- its scores are penalty points
    doc TEXT NOT NULL                -- how it stood: the game's `Result` (JSON)
)"""
_PLAYERS = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL               -- as the history shows them now
)"""
_ALIASES = """
CREATE TABLE IF NOT EXISTS aliases (
    key TEXT PRIMARY KEY,            -- a name they played under, `name_key`ed
    player INTEGER NOT NULL REFERENCES players(id)
)"""
_SEATS = """
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL REFERENCES results(game),
    seat INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id),
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
)"""
_SEATS_BY_PLAYER = "CREATE INDEX IF NOT EXISTS seats_by_player ON seats (player, game)"


def name_key(name: str) -> str:
    """What makes two names one person's: the same letters, whatever their case and
    spacing ("Ana", " ana  " and "ANA" are one player)."""
    return " ".join(name.split()).casefold()


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


class StorageFull(Refusal):
    """A change the disk holding the store has no room for: refused, nothing changed (the
    transaction is rolled back), and the same change is kept once space is freed."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            "storage",
            "the table's storage is full: nothing was changed; free some space on the "
            "table's computer (its SD card), then try again",
            conflict=True,
            key="storage_full",
        )
        self.path = path


@dataclass(frozen=True)
class Backups:
    """The store's rolling backup: a copy beside its file after a game is finished, after
    `changes` entries, or `seconds` after an entry not yet copied; the newest `keep` copies
    are kept (`table.sqlite3.backup-7`, numbered, the highest the newest)."""

    changes: int = 10
    seconds: float = 60.0
    keep: int = 3


# How a copy in the making and a damaged file kept aside are named after the store's file
# (`table.sqlite3.backup-7.partial`, `table.sqlite3.damaged-20261127-183000`).
_PARTIAL, _DAMAGED = ".partial", ".damaged-"


class _Due:
    """When the store's next backup is due, shared by the store and its backup thread (which
    holds the store itself only while it copies it: a store nobody closes is let go)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.unsaved = 0  # entries kept since the last copy
        self.now = False  # a copy is due now (a game finished, enough entries)
        self.closing = False


def _keep_backing_up(store: weakref.ref[Store], due: _Due, seconds: float) -> None:
    """The backup thread: a copy when one is due, or `seconds` after an entry not yet
    copied; it ends when the store is closed, or let go."""
    while True:
        with due.changed:
            due.changed.wait_for(lambda: due.closing or due.now, seconds)
            if due.closing:
                return
            due.now = False
            copy = due.unsaved > 0
        kept = store()
        if kept is None:
            return
        if copy:
            kept.backup()
        del kept


class _Damaged(Exception):
    """The file is a store no more (its message says so, naming it): resumed from a backup
    if one is good, else refused."""


class Store:
    """One SQLite file of games. Safe to share between threads of one process."""

    def __init__(self, path: str | Path, backups: Backups | None = None) -> None:
        """The store in the file `path` (made if there is none). `backups`: how its rolling
        backup is kept (None: `Backups()`)."""
        self.path = Path(path)
        self.backups = backups or Backups()
        # Why the file was resumed from a backup, in words, or None: the service says it.
        self.restored: str | None = None
        self._lock = threading.Lock()
        self._copying = threading.Lock()  # one backup at a time
        self._due = _Due()
        self._saver: threading.Thread | None = None
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
            self._db = self._connect()
        except _Damaged as damage:
            self._db = self._restore(str(damage))

    def _connect(self) -> sqlite3.Connection:
        """The file opened as a store, checked first: `_Damaged` if it is damaged, a
        `StoreError` if it cannot be opened or is another program's."""
        wal = self.path.with_name(self.path.name + "-wal")
        if _size(self.path) == 0 and _size(wal):
            raise _Damaged(
                f"the table's store {self.path} is damaged (it is empty, but its write-ahead "
                f"log {wal.name} beside it is not: the file was cut short)"
            )
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(self._refusal(error)) from None
        try:
            found = _damage(db)
            if found is not None:
                raise _Damaged(self._damaged(found))
            self._open(db)
        except sqlite3.Error as error:
            db.close()
            raise StoreError(self._refusal(error)) from None
        except StorageFull:  # no room to make its tables
            db.close()
            raise StoreError(self._full()) from None
        except _Damaged:
            db.close()
            raise
        return db

    def _damaged(self, found: str) -> str:
        """What `PRAGMA quick_check` found, said of the file."""
        if found == "file is not a database":
            return f"{self.path} is not a table's store, or its first page is damaged ({found})"
        return f"the table's store {self.path} is damaged (SQLite finds: {found})"

    def _restore(self, why: str) -> sqlite3.Connection:
        """A damaged file resumed from its newest good backup, the damaged one (with its
        write-ahead log) kept aside under a new name, and `restored` saying so; or a
        `StoreError` naming the file and what to do when no backup is good."""
        backup = next((b for b in reversed(self._backups()) if _good(b)), None)
        if backup is None:
            raise StoreError(
                f"{why}, and no good backup of it lies beside it: move it away, with its -wal "
                "and -shm files, to start a new store there (sqlite3's .recover may save some "
                "of its games), or give another file"
            )
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}{_DAMAGED}{stamp}")
        for again in range(2, 100):  # never over a file kept aside before
            if not aside.exists():
                break
            aside = self.path.with_name(f"{self.path.name}{_DAMAGED}{stamp}-{again}")
        try:
            for suffix in ("", "-wal", "-shm"):
                kept = self.path.with_name(self.path.name + suffix)
                if kept.exists():
                    kept.rename(aside.with_name(aside.name + suffix))
            _copy(backup, self.path)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(
                f"{why}; its backup {backup.name} could not take its place ({error}): "
                "free some space or fix the folder's permissions, then start again"
            ) from None
        made = time.strftime("%Y-%m-%d %H:%M", time.localtime(backup.stat().st_mtime))
        self.restored = (
            f"{why}: it is kept aside as {aside.name}, and the games were resumed from its "
            f"backup {backup.name}, made {made}; anything played after that is not in it"
        )
        return self._connect()

    def _open(self, db: sqlite3.Connection) -> None:
        """Check that the file is a store (or empty) before changing anything in it, then
        make its tables, or bring an older store's up to date."""
        self._db = db
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
        for made in (_RESULTS, _PLAYERS, _ALIASES, _SEATS, _SEATS_BY_PLAYER):
            self._db.execute(made)  # a store made before the history: its rows caught up
        self._name_the_games()
        self._journal_any_kind()

    def _refusal(self, error: sqlite3.Error) -> str:
        """Why the file is no store, in words, and what to do."""
        if _code(error) == sqlite3.SQLITE_FULL:
            return self._full()
        if isinstance(error, sqlite3.OperationalError):
            return (
                f"cannot open or write the table's store {self.path} ({error}): give a file "
                "in a folder you can write"
            )
        return (
            f"{self.path} is not a table's store ({error}): give another file, or move this "
            "one away to start a new store there"
        )

    def _full(self) -> str:
        return (
            f"the disk holding the table's store {self.path} is full: free some space on it, "
            "then start again"
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
        due = self._due
        with due.changed:
            due.closing = True
            due.changed.notify_all()
        if self._saver is not None:
            self._saver.join()
            if due.unsaved:  # what was played since the last copy: copied on the way out
                self.backup()
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, all of it kept or none: a disk with no room for it is a
        `StorageFull`, the transaction rolled back (SQLite may have done so already)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                if _code(error) != sqlite3.SQLITE_FULL:
                    raise
                log.warning("the table's store %s: the disk is full (%s)", self.path, error)
                raise StorageFull(self.path) from None

    # --- the rolling backup ------------------------------------------------------------

    def backup(self) -> Path | None:
        """Copy the store now, beside its file, through SQLite's online backup API from a
        connection of its own (in WAL mode a reader never holds up a move); the copy is
        checked before it counts, then only the newest `Backups.keep` are kept. The copy,
        or None when none could be made (a full disk: logged, the older copies kept)."""
        due = self._due
        with self._copying:
            with due.changed:
                copied = due.unsaved  # the entries this copy holds (more may come)
            numbers = [_number(b) for b in self._backups()]
            final = self.path.with_name(f"{self.path.name}.backup-{max(numbers, default=0) + 1}")
            partial = final.with_name(final.name + _PARTIAL)
            try:
                _copy(self.path, partial)
                if not _good(partial):
                    raise sqlite3.DatabaseError("the copy is damaged")
                with open(partial, "rb") as written:
                    os.fsync(written.fileno())
                partial.replace(final)
            except (sqlite3.Error, OSError) as error:
                log.warning("the table's store %s could not be copied: %s", self.path, error)
                with suppress(OSError):
                    partial.unlink()
                return None
            with due.changed:
                due.unsaved -= copied
            for old in self._backups()[: -self.backups.keep]:
                with suppress(OSError):
                    old.unlink()
            return final

    def _backups(self) -> list[Path]:
        """The store's backups beside it, the oldest first."""
        prefix = f"{self.path.name}.backup-"
        found = [
            p
            for p in self.path.parent.iterdir()
            if p.name.startswith(prefix) and p.name[len(prefix) :].isdigit()
        ]
        return sorted(found, key=_number)

    def _changed(self, finished: bool) -> None:
        """An entry was kept: a backup is due now after a finished game or enough entries,
        else within `Backups.seconds` (the backup thread starts with the first entry)."""
        due = self._due
        with due.changed:
            due.unsaved += 1
            if finished or due.unsaved >= self.backups.changes:
                due.now = True
                due.changed.notify_all()
            if self._saver is None:
                self._saver = threading.Thread(
                    target=_keep_backing_up,
                    args=(weakref.ref(self), due, self.backups.seconds),
                    daemon=True,
                    name="store-backup",
                )
                self._saver.start()

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
        self._changed(finished=False)
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
        self._changed(finished)

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

    def finished(self, number: int) -> bool:
        """Whether game `number` is finished (ended, or left for a new one)."""
        with self._lock:
            row = self._db.execute("SELECT finished FROM games WHERE id = ?", (number,)).fetchone()
        return bool(row and row[0])

    def last_game(self) -> tuple[int, str, bool] | None:
        """The newest game's number, which game it is and whether it is finished, or None:
        after a restart, a finished one stays on the table until a new game starts."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, finished FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return (int(row[0]), row[1], bool(row[2])) if row else None

    # --- the history -------------------------------------------------------------------

    def unremembered(self) -> list[int]:
        """The finished games with no history row (a store made before the history, or a
        power cut between a game's last entry and its row), oldest first; the rows of
        games opened again since (their last turn taken back) are let go. Written only
        when there is something to let go: a store on a full disk still opens."""
        reopened = (
            "SELECT game FROM results WHERE game IN (SELECT id FROM games WHERE finished = 0)"
        )
        with self._lock:
            stale = [int(n) for (n,) in self._db.execute(reopened).fetchall()]
            missing = self._db.execute(
                "SELECT id FROM games WHERE finished = 1 AND id NOT IN "
                "(SELECT game FROM results) ORDER BY id"
            ).fetchall()
        for number in stale:
            self.forget_result(number)
        return [int(number) for (number,) in missing]

    def remember(self, number: int, result: Mapping[str, Any]) -> None:
        """Keep game `number`'s history row: `result` is its `Result.as_json()`, each seat's
        name leading to a player (a new one for a name never seen); replaces the row it had."""
        with self._write() as db:
            self._forget_result(db, number)
            db.execute(
                "INSERT INTO results (game, ended, over, fewest_win, doc) VALUES (?, COALESCE("
                "(SELECT MAX(at) FROM journal WHERE game = ?), datetime('now')), ?, ?, ?)",
                (
                    number,
                    number,
                    int(result["over"]),
                    int(result["fewest_win"]),
                    json.dumps(result),
                ),
            )
            winners = set(result["winners"])
            for seat, (name, score) in enumerate(
                zip(result["names"], result["scores"], strict=True)
            ):
                db.execute(
                    "INSERT INTO seats (game, seat, player, score, won) VALUES (?, ?, ?, ?, ?)",
                    (number, seat, self._player(db, name), score, int(seat in winners)),
                )
        self._changed(finished=False)

    def forget_result(self, number: int) -> None:
        """Let go of game `number`'s history row: its last turn was taken back."""
        with self._write() as db:
            self._forget_result(db, number)
        self._changed(finished=False)

    @staticmethod
    def _forget_result(db: sqlite3.Connection, number: int) -> None:
        db.execute("DELETE FROM seats WHERE game = ?", (number,))
        db.execute("DELETE FROM results WHERE game = ?", (number,))

    @staticmethod
    def _player(db: sqlite3.Connection, name: str) -> int:
        """The player who plays under `name`, made (with that name) if none does."""
        key = name_key(name)
        found = db.execute("SELECT player FROM aliases WHERE key = ?", (key,)).fetchone()
        if found is not None:
            return int(found[0])
        made = int(db.execute("INSERT INTO players (name) VALUES (?)", (name,)).lastrowid)
        db.execute("INSERT INTO aliases (key, player) VALUES (?, ?)", (key, made))
        return made

    def history(self, before: int | None = None, count: int = 20) -> list[dict[str, Any]]:
        """Up to `count` games of the history, newest first, older than game `before` (None:
        from the newest): a page is one read of the rows' index, however long the history."""
        with self._lock:
            rows = self._db.execute(
                "SELECT r.game, g.game, g.started, r.ended, r.doc "
                "FROM results r JOIN games g ON g.id = r.game "
                "WHERE r.game < ? ORDER BY r.game DESC LIMIT ?",
                (before if before is not None else 2**63 - 1, count),
            ).fetchall()
            return [self._entry(row) for row in rows]

    def history_entry(self, number: int) -> dict[str, Any]:
        """Game `number`'s history row; a `KeyError` when it has none."""
        with self._lock:
            row = self._db.execute(
                "SELECT r.game, g.game, g.started, r.ended, r.doc "
                "FROM results r JOIN games g ON g.id = r.game WHERE r.game = ?",
                (number,),
            ).fetchone()
            if row is None:
                raise KeyError(f"no game {number} in the history")
            return self._entry(row)

    def _entry(self, row: tuple[Any, ...]) -> dict[str, Any]:
        """A history row as the API gives it: the players by their names now."""
        number, game, started, ended, doc = row
        result = json.loads(doc)
        seats = self._db.execute(
            "SELECT s.player, p.name FROM seats s JOIN players p ON p.id = s.player "
            "WHERE s.game = ? ORDER BY s.seat",
            (number,),
        ).fetchall()
        return {
            "id": int(number),
            "game": game,
            "option": result["option"],
            "variant": result["variant"],
            "players": [{"id": int(player), "name": name} for player, name in seats],
            "scores": result["scores"],
            "winners": result["winners"],
            "fewest_win": result["fewest_win"],
            "over": result["over"],
            "turns": result["turns"],
            "started": _iso(started),
            "finished": _iso(ended),
        }

    def history_size(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM results").fetchone()
        return int(count)

    def standings(self) -> list[dict[str, Any]]:
        """Per game and player, over the games played to their end: games played, wins,
        the average score and the best game (the fewest points where the fewest win), the
        most wins first; worked out by SQLite in one pass over the seats."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.game, s.player, p.name, COUNT(*), SUM(s.won), AVG(s.score), "
                "CASE WHEN r.fewest_win THEN MIN(s.score) ELSE MAX(s.score) END, r.fewest_win "
                "FROM seats s JOIN results r ON r.game = s.game JOIN games g ON g.id = s.game "
                "JOIN players p ON p.id = s.player WHERE r.over = 1 "
                "GROUP BY g.game, s.player ORDER BY g.game, SUM(s.won) DESC, p.name"
            ).fetchall()
            standings = []
            for game, player, name, played, wins, average, best, fewest in rows:
                (first,) = self._db.execute(
                    "SELECT MIN(s.game) FROM seats s JOIN games g ON g.id = s.game "
                    "JOIN results r ON r.game = s.game "
                    "WHERE s.player = ? AND g.game = ? AND s.score = ? AND r.over = 1",
                    (player, game, best),
                ).fetchone()
                standings.append(
                    {"game": game, "player": player, "name": name, "played": played,
                     "wins": wins, "average": round(average, 2),
                     "best": {"id": first, "score": best}, "fewest_win": bool(fewest)}
                )  # fmt: skip
        return standings

    def players(self) -> list[dict[str, Any]]:
        """Every player, with how many games of the history they sat at."""
        with self._lock:
            rows = self._db.execute(
                "SELECT p.id, p.name, COUNT(s.game) FROM players p "
                "LEFT JOIN seats s ON s.player = p.id GROUP BY p.id ORDER BY p.id"
            ).fetchall()
        return [{"id": int(i), "name": name, "games": count} for i, name, count in rows]

    def results(self, player: int) -> list[dict[str, Any]]:
        """A player's games played to their end, in the order played (what the page's chart
        draws); a `KeyError` for no such player."""
        with self._lock:
            self._known(self._db, player)
            rows = self._db.execute(
                "SELECT s.game, g.game, r.ended, s.score, s.won, r.fewest_win FROM seats s "
                "JOIN results r ON r.game = s.game JOIN games g ON g.id = s.game "
                "WHERE s.player = ? AND r.over = 1 ORDER BY s.game",
                (player,),
            ).fetchall()
        return [
            {"id": number, "game": game, "finished": _iso(ended), "score": score,
             "won": bool(won), "fewest_win": bool(fewest)}
            for number, game, ended, score, won, fewest in rows
        ]  # fmt: skip

    def rename(self, player: int, name: str) -> None:
        """Player `player` shown as `name` from now on, and found under it in games to come;
        a `KeyError` for no such player, a `Refusal` if the name is another player's."""
        key = name_key(name)
        with self._write() as db:
            self._known(db, player)
            found = db.execute("SELECT player FROM aliases WHERE key = ?", (key,)).fetchone()
            if found is not None and int(found[0]) != player:
                raise Refusal(
                    "player",
                    f"{name} is another player's name: merge the two players instead",
                    conflict=True,
                    key="player_taken",
                    params={"name": name},
                )
            db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player))
            db.execute("INSERT OR IGNORE INTO aliases (key, player) VALUES (?, ?)", (key, player))
        self._changed(finished=False)

    def merge(self, player: int, into: int) -> None:
        """Player `player` is the same person as `into`: their games, and the names they
        played under, are `into`'s from now on; a `KeyError` for no such player."""
        if player == into:
            raise Refusal("player", "a player is merged into another player", key="merge_self")
        with self._write() as db:
            self._known(db, player)
            self._known(db, into)
            db.execute("UPDATE seats SET player = ? WHERE player = ?", (into, player))
            db.execute("UPDATE aliases SET player = ? WHERE player = ?", (into, player))
            db.execute("DELETE FROM players WHERE id = ?", (player,))
        self._changed(finished=False)

    @staticmethod
    def _known(db: sqlite3.Connection, player: int) -> None:
        if db.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone() is None:
            raise KeyError(f"no player {player}")

    def delete(self, number: int) -> None:
        """Game `number` gone from the store, its journal and history row with it, and any
        player who played no other game; a `KeyError` for a number the store does not
        hold. The table's game in progress is the table's to refuse (`Table.delete`)."""
        with self._write() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (number,)).fetchone() is None:
                raise KeyError(f"no game {number}")
            self._forget_result(db, number)
            db.execute("DELETE FROM journal WHERE game = ?", (number,))
            db.execute("DELETE FROM games WHERE id = ?", (number,))
            gone = "SELECT id FROM players WHERE id NOT IN (SELECT player FROM seats)"
            db.execute(f"DELETE FROM aliases WHERE player IN ({gone})")
            db.execute(f"DELETE FROM players WHERE id IN ({gone})")
        self._changed(finished=False)

    def _journal(self, number: int) -> list[Entry]:
        rows = self._db.execute(
            "SELECT kind, doc, note FROM journal WHERE game = ? ORDER BY seq", (number,)
        ).fetchall()
        return [Entry(kind, json.loads(doc) if doc else None, note) for kind, doc, note in rows]


def _iso(at: str) -> str:
    """SQLite's `datetime('now')` (UTC) as ISO 8601 with its zone, as the API gives times."""
    return at.replace(" ", "T") + "Z"


def _code(error: sqlite3.Error) -> int:
    """An SQLite error's primary result code (SQLITE_FULL, SQLITE_CORRUPT...), or 0."""
    return (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF


def _size(path: Path) -> int | None:
    """A file's size, or None when there is none."""
    try:
        return path.stat().st_size
    except OSError:
        return None


def _damage(db: sqlite3.Connection) -> str | None:
    """What SQLite finds damaged in an open file (`PRAGMA quick_check`: every page read
    once, a fraction of a second for a table's store), or None."""
    try:
        found = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as error:
        if isinstance(error, sqlite3.OperationalError):
            raise  # a file it cannot read at all: not known to be damaged
        return str(error)
    if found == ["ok"]:
        return None
    said = " ".join(" ".join(found[:3]).replace("*** in database main ***", "").split())
    return said or "damaged"


def _copy(source: Path, target: Path) -> None:
    """The store in `source` copied into `target` through SQLite's online backup API, as
    one whole file (a rollback journal's, not a write-ahead log's)."""
    with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(target)) as copy:
        reading.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")


def _good(copy: Path) -> bool:
    """Whether a backup is a whole store: undamaged, with its games table."""
    try:
        with closing(sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)) as db:
            if _damage(db) is not None:
                return False
            return (
                db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone()
                is not None
            )
    except sqlite3.Error:
        return False


def _number(backup: Path) -> int:
    return int(backup.name.rsplit("-", 1)[1])


def _checked(kind: object) -> str:
    """An entry's kind, a word (`_KIND`), or a ValueError: nothing is written."""
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise ValueError(f"an entry's kind is a lower-case word, not {kind!r}")
    return kind
