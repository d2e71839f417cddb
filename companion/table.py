"""The table: the one writer of the game being played, whatever the game.

Every change goes through `Table.handle` (or `start` and `load`, which begin a game),
whether it comes from a phone's page, a button or the camera: under one lock, in the order
the commands arrive, the table hands each to the game's match (`Match.handle`,
companion/games/protocol.py), which journals it in the store before it returns; only then
does the table count a new version and wake the pages waiting for one (`wait`: the page's
event stream). A refusal (`Refusal`) changed nothing and wakes nobody. Reading (`view`,
`record`, `hint`) takes the same lock, so nobody ever sees half a command.

The table knows no game: it finds them in the registry (`companion.games`).

The table also keeps the history (`Store.remember`): when the store says a game is finished,
the game's own `Game.result` of its record is kept as its row, and a game opened again (its
last turn taken back) loses it. A game left for a new one, and a store made before the
history or cut off by a power cut between a game's last entry and its row, are caught up
(`catch_up`) when the table is made and when a game begins. After a restart, the last game
finished stays on the table, its result on the page, until a new game starts.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from companion import games
from companion.games.lobby import before_any_game
from companion.games.protocol import Game, Match, RecordProblem, Refusal, Setting, Start
from companion.store import Store, StoreError

log = logging.getLogger("companion.table")


class Table:
    """The game at one table, shared by every thread of the service."""

    def __init__(self, store: Store, setting: Setting | None = None) -> None:
        """A table keeping its games in `store`, played as `setting` says (a real table's
        provisional deal, a camera following it, its LED and buzzer). The store's game in
        progress, if any, is resumed: a restarted service is back on the same turn."""
        self.store = store
        self.setting = setting or Setting()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.version = 0
        # The default game's idle match until a game starts: it refuses commands, no game
        # being played, but shows what the camera sees while the table is set up.
        self.game: Game = games.default()
        self.match: Match = before_any_game(self.game, self.setting)
        self.playing = False  # a game (not the idle match) is on the table
        current = store.current_game()
        if current is not None:  # resumed by the game it is a game of
            number, game_id = current
            game = _stored_game(store, number, game_id)
            try:
                match = game.resume(store, number, self.setting)
            except RecordProblem as problem:  # a journal this companion cannot fold
                raise StoreError(
                    f"{store.path} holds a game in progress (number {number}) that cannot be "
                    f"resumed: {problem.message}; give another store file (this one is left "
                    "as it is)"
                ) from None
            self._begin(game, match)
        else:
            self._last_finished()
        catch_up(store)

    # --- changing ------------------------------------------------------------------------

    def handle(self, command: object) -> None:
        """Apply one command to the game being played; raises `Refusal` (nothing changed)."""
        with self._lock:
            was_over, number = self.match.over, self.match.id
            if self.match.handle(command):
                if self.playing and (was_over or self.match.over or self.match.id != number):
                    self._remember(number)
                self._bump()

    def start(self, game_id: str, wanted: Start) -> None:
        """A new game of `game_id` (the registry's id); the one in progress is finished."""
        try:
            game = games.game(game_id)
        except KeyError as error:
            raise Refusal("request", str(error.args[0])) from None
        with self._lock:
            self._begin(game, game.start(self.store, wanted, self.setting))
            catch_up(self.store)  # the game left for this one

    def load(self, doc: Mapping[str, Any]) -> None:
        """Continue the game of a record, of whichever game reads it (its every turn is
        checked first: a bad record leaves the game in progress as it was)."""
        game = games.for_record(doc)
        with self._lock:
            self._begin(game, game.load(self.store, doc, self.setting))
            catch_up(self.store)

    def delete(self, number: int) -> None:
        """Game `number` gone from the store and its history (the PIN holder's choice); the
        game on the table too once it is over (the table is then before any game). A
        `Refusal` for the game in progress; a `KeyError` for no such game."""
        with self._lock:
            on_table = self.playing and self.match.id == number
            if on_table and not self.match.over:
                raise Refusal(
                    "history",
                    f"game {number} is being played: it can be deleted once it is over or "
                    "another game has started",
                    conflict=True,
                    key="delete_playing",
                )
            self.store.delete(number)
            if on_table:
                self.match, self.playing = before_any_game(self.game, self.setting), False
            self._bump()

    def rename(self, player: int, name: str) -> None:
        """A player of the history shown as `name` from now on (`Store.rename`)."""
        with self._lock:
            self.store.rename(player, name)
            self._bump()

    def merge(self, player: int, into: int) -> None:
        """Two players of the history found to be one person (`Store.merge`)."""
        with self._lock:
            self.store.merge(player, into)
            self._bump()

    # --- reading -------------------------------------------------------------------------

    def wait(self, version: int, timeout: float) -> int:
        """Block until the table changes past `version` (or the timeout); the new version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def view(self, lang: str) -> dict[str, Any]:
        """Everything a page shows, at one version, in `lang` (`"game": None` before any
        game), and `game_kind`, the id of the game being played (the default game's
        before any): the page whose script draws it."""
        with self._lock:
            return self.match.view(lang) | {"version": self.version, "game_kind": self.game.id}

    def record(self) -> tuple[str, int, Mapping[str, Any]]:
        """The game so far as its record: (the game's id, its number in the store, the
        record document); a refusal before any game."""
        with self._lock:
            return self.game.id, self.match.id, self.match.record()

    def advise(self, seat: Any, hand: Any, lang: str) -> dict[str, Any]:
        """The private advisor's answer for `seat` holding `hand` (`Game.advise`), read at
        one version under the lock: nothing is journaled, counted or kept, so no page learns
        that a hand was asked about. A game without a hidden hand says so."""
        with self._lock:
            if self.game.advise is None:
                answer: dict[str, Any] = {"no_hidden_hand": True}
            else:
                answer = self.game.advise(self.match, seat, hand, lang)
            return answer | {"version": self.version, "game_kind": self.game.id}

    def hand(self, lang: str, seat: int | None = None) -> dict[str, Any] | None:
        """The hidden hand of `seat`, the player to move's if None (`Game.hand`), at one
        version, or None when there is none to show; read under the lock, changing
        nothing."""
        with self._lock:
            game = self.game
            found = None if game.hand is None else game.hand(self.match, lang, seat)
            if found is None:
                return None
            # `number`: the game's in the store, so a phone never takes another game's hand
            # for the one it was shown
            return found | {
                "version": self.version,
                "game_kind": self.game.id,
                "number": self.match.id,
            }

    def hint(self) -> object:
        """What the camera must look for now."""
        with self._lock:
            return self.match.hint()

    # --- helpers -------------------------------------------------------------------------

    def _begin(self, game: Game, match: Match) -> None:
        self.game, self.match, self.playing = game, match, True
        self._bump()

    def _last_finished(self) -> None:
        """The store's newest game, if finished, back on the table as it ended: its result
        stays on the page after a restart until a new game starts. One this companion
        cannot resume leaves the table before any game (the history keeps what it can)."""
        last = self.store.last_game()
        if last is None or not last[2]:
            return
        number, game_id, _ = last
        try:
            game = games.game(game_id)
            match = game.resume(self.store, number, self.setting)
        except (KeyError, TypeError, ValueError) as problem:  # RecordProblem among them
            log.warning("the last game finished (number %s) is not shown: %s", number, problem)
            return
        if match.over:
            self._begin(game, match)

    def _remember(self, number: int) -> None:
        """The history after a command changed a game that is, or was, over: its row kept
        once the store says it is finished, let go if it was opened again. The command is
        already kept: a history row that cannot be written now (a full disk) is caught up
        at the next start, never refused as the command."""
        try:
            if self.match.id != number:  # the game went on as a new one (a second game)
                catch_up(self.store)
            elif self.store.finished(number):
                self.store.remember(number, self.game.result(self.match.record()).as_json())
            else:
                self.store.forget_result(number)
        except (Refusal, RecordProblem) as problem:
            log.warning("the history of game %s is caught up later: %s", number, problem)

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()


def catch_up(store: Store) -> int:
    """Write the history rows the store lacks: each finished game without one is folded by
    its game and its `Game.result` kept (a store made before the history, a game left for
    a new one, a power cut between a game's last entry and its row). A game this companion
    does not know, or cannot fold, is logged and left for later. How many were written."""
    written = 0
    try:
        missing = store.unremembered()
    except Refusal as problem:  # a full disk: the history waits, the table opens
        log.warning("the history is caught up later: %s", problem)
        return 0
    for number in missing:
        try:
            game = games.game(store.kept(number).game)
            match = game.resume(store, number, Setting())
            store.remember(number, game.result(match.record()).as_json())
        except (KeyError, TypeError, ValueError) as problem:  # RecordProblem, a full disk
            log.warning("game %s is not in the history: %s", number, problem)
            continue
        written += 1
    return written


def _stored_game(store: Store, number: int, game_id: str) -> Game:
    """The game a stored game in progress is one of, or a StoreError saying that this
    companion does not referee it (a store from a newer companion): it is never resumed
    as another game."""
    try:
        return games.game(game_id)
    except KeyError:
        known = ", ".join(games.games())
        raise StoreError(
            f"{store.path} holds a game in progress (number {number}) of {game_id!r}, a game "
            f"this companion does not referee (it knows {known}): update the companion, or "
            "give another store file"
        ) from None
