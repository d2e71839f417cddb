"""`companion history`: the games played at a table, newest first, from its store (the file
`companion serve --db` and `companion run` keep the games in), for a terminal or a script:
when each ended, the game and its option, the players' points, the winners, and whether it
was finished or abandoned. A store made before the history has its games' rows written
first (`companion.table.catch_up`), as the service does when it starts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion import games
from companion.arguments import CommandLine
from companion.store import Store, StoreError
from companion.table import catch_up
from web.serve import DEFAULT_DB  # where `companion serve` keeps the games unless told


def count(text: str) -> int:
    """How many games to list: 1 to 1000."""
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games from 1 to 1000")
    return int(text)


def line(entry: dict[str, Any]) -> str:
    """One game of the history in a line of English."""
    try:
        game = games.game(entry["game"])
    except KeyError:
        name, options = entry["game"], {}
    else:
        name, options = game.name, {o.id: o.name for o in game.options}
    option = options.get(entry["option"], entry["option"])
    unit = "penalty points" if entry["fewest_win"] else "points"
    players = ", ".join(
        f"{p['name']} {score}" + (" (won)" if seat in entry["winners"] else "")
        for seat, (p, score) in enumerate(zip(entry["players"], entry["scores"], strict=True))
    )
    how = "finished" if entry["over"] else "abandoned"
    variant = f", {entry['variant']}" if entry["variant"] else ""
    ended = entry["finished"].replace("T", " ").removesuffix("Z")
    return (
        f"game {entry['id']}, ended {ended} UTC: {name} ({option}{variant}), {how} after "
        f"{entry['turns']} turns: {players} {unit}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion history",
        description="List the games played at a table, newest first: when each ended, the "
        "game, the players' points, the winners, finished or abandoned.",
    )
    parser.add_argument(
        "--db", type=Path, default=DEFAULT_DB, help=f"the table's store (default {DEFAULT_DB})"
    )
    parser.add_argument("--count", type=count, default=20, help="how many games (default 20)")
    parser.add_argument("--json", action="store_true", help="print the games as GET /api/history")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        print(
            f"companion history: there is no table's store at {args.db}: give it with --db",
            file=sys.stderr,
        )
        return 2
    try:
        store = Store(args.db)
    except StoreError as error:
        print(f"companion history: {error}", file=sys.stderr)
        return 2
    try:
        catch_up(store)
        found = store.history(None, args.count)
    finally:
        store.close()
    if args.json:
        print(json.dumps(found))
    else:
        print("\n".join(line(entry) for entry in found) or "no game has ended at this table yet")
    return 0
