"""The registry: every game the table can referee, found by its id or by its records'
format. It is the one module outside a game's package that names the package; everything
else asks here for a `Game` (companion/games/protocol.py).

Games load on first use, not when this package is imported: a game's own modules import
`companion.games.protocol`, which runs this file first.

More games: the environment variable `COMPANION_GAMES` lists packages outside this one,
separated by commas (`COMPANION_GAMES=mygames.dice_race companion serve`), each on Python's
path with a `game` module holding its `GAME`, as the three games here have; they come after
these three (the first game stays the default). tests/fixtures/dice_race/ is the smallest.
"""

from __future__ import annotations

import os
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
# The environment variable listing more games' packages, comma-separated.
EXTRA = "COMPANION_GAMES"


def packages() -> tuple[str, ...]:
    """The games' packages: this one's, then those `COMPANION_GAMES` lists."""
    extra = (name.strip() for name in os.environ.get(EXTRA, "").split(","))
    return PACKAGES + tuple(name for name in extra if name and name not in PACKAGES)


@cache
def games() -> dict[str, Game]:
    """Every game by id, the default first. A package `COMPANION_GAMES` names that cannot
    be imported stops the command with its name: a misspelt game is said, not skipped."""
    found = []
    for package in packages():
        try:
            found.append(import_module(f"{package}.game").GAME)
        except ImportError as error:
            raise SystemExit(
                f"{EXTRA}: cannot load the game package {package!r} ({error}): give a "
                "package on Python's path whose `game` module holds its GAME"
            ) from None
    return {game.id: game for game in found}


def default() -> Game:
    return next(iter(games().values()))


def game(game_id: str) -> Game:
    """The game with this id; a `KeyError` whose message lists the known ones."""
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"there is no game {game_id!r}: use {', '.join(games())}") from None


# The tools a game may leave out (`Game`'s optional fields), as the command line names them.
TOOLS = {
    "demo": "demo",
    "enroll": "enroll",
    "eval_vision": "eval-vision",
    "printables": "print",
    "simulate": "simulate",
}


def offering(tool: str) -> list[str]:
    """The ids of the games that offer `tool` (a `Game` field's name)."""
    return [g.id for g in games().values() if getattr(g, tool) is not None]


def not_offered(chosen: Game, tool: str) -> str | None:
    """None if `chosen` offers `tool`, else why not in one line, naming the games that do."""
    if getattr(chosen, tool) is not None:
        return None
    others = offering(tool)
    instead = f"use --game {' or '.join(others)}" if others else "no game here offers it"
    return f"{chosen.name} offers no {TOOLS.get(tool, tool)}: {instead}"


def for_record(doc: Any) -> Game:
    """The game whose records have this document's `format`, or `RecordProblem` saying
    which formats the companion reads."""
    if not isinstance(doc, Mapping):
        raise RecordProblem(0, "record", "a record is a JSON object", key="not_a_record")
    formats = {g.record_format: g for g in games().values()}
    found = formats.get(doc.get("format"))
    if found is None:
        *others, last = (repr(f) for f in formats)
        known = f"{', '.join(others)} or {last}" if others else last
        given = reprlib.repr(doc.get("format"))  # cut short: one readable line
        raise RecordProblem(0, "record", f"the format must be {known}, not {given}",
                            key="record_of_no_game", params={"given": given})  # fmt: skip
    return found


def read_record(path: str | Path) -> tuple[Game, Mapping[str, Any]]:
    """A record file and the game that reads it."""
    doc = read_document(path)
    return for_record(doc), doc
