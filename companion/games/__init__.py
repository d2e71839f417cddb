"""The registry: every game the table can referee, found by its id or by its records'
format. It is the one module outside a game's package that names the package; everything
else asks here for a `Game` (companion/games/protocol.py).

Games load on first use, not when this package is imported: a game's own modules import
`companion.games.protocol`, which runs this file first.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.games.protocol import Game, RecordProblem
from companion.games.records import read_document

# Each package's `game` module holds its `GAME`; the first is the default game.
PACKAGES = ("companion.games.caboose", "companion.games.yardmaster", "companion.games.switching")


@cache
def games() -> dict[str, Game]:
    """Every game by id, the default first."""
    found = (import_module(f"{package}.game").GAME for package in PACKAGES)
    return {game.id: game for game in found}


def default() -> Game:
    return next(iter(games().values()))


def game(game_id: str) -> Game:
    """The game with this id; a `KeyError` whose message lists the known ones."""
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"there is no game {game_id!r}: use {', '.join(games())}") from None


def for_record(doc: Any) -> Game:
    """The game whose records have this document's `format`, or `RecordProblem` saying
    which formats the companion reads."""
    if not isinstance(doc, Mapping):
        raise RecordProblem(0, "record", "a record is a JSON object")
    formats = {g.record_format: g for g in games().values()}
    found = formats.get(doc.get("format"))
    if found is None:
        *others, last = (repr(f) for f in formats)
        known = f"{', '.join(others)} or {last}" if others else last
        given = reprlib.repr(doc.get("format"))  # cut short: one readable line
        raise RecordProblem(0, "record", f"the format must be {known}, not {given}")
    return found


def read_record(path: str | Path) -> tuple[Game, Mapping[str, Any]]:
    """A record file and the game that reads it."""
    doc = read_document(path)
    return for_record(doc), doc
