"""Every game played at the table, remembered: the history and the players' standings.

Reading is open, as the page's is (`GET /api/history`, paged newest first, one game with
its record, the CSV export, `GET /api/players`); deleting a game and renaming or merging
players need the table's PIN (web.app's guard), and go through the table
(`companion.table.Table.delete`, `rename`, `merge`), under its lock, as every change does.
The store keeps the rows (`companion.store.Store.history`), the games decide what a result
is (`Game.result`); this module only names them in the request's language (the game, its
option and variant, in the words the start form uses) and answers bad input with a
message saying what was wrong, changing nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion import games
from companion.games.names import name_problem
from companion.games.protocol import RecordProblem, Setting
from web.api import ApiError, _fields, data, language, table
from web.words import named_game

history = Blueprint("history", __name__, url_prefix="/api")

PAGE = 20  # games in a page of the history, unless asked for another count
MOST = 100  # the most a page holds


def _number(value: str | None, name: str, *, least: int = 1, most: int | None = None) -> int:
    """A whole number of a request (a game's, a player's, a count), or a 400 naming it."""
    if value is None or not value.isdigit() or not least <= int(value) <= (most or 2**62):
        limits = f"{least} to {most}" if most else f"{least} or more"
        raise ApiError(400, "request", f"{name} must be a whole number, {limits}", fields=[name])
    return int(value)


def _named(entry: Mapping[str, Any], lang: str, setting: Setting) -> dict[str, Any]:
    """A history row with its game, option and variant in words (as the start form of a
    table set up as `setting` names them, `named_game`, in `lang`: a box taught there, its
    board), and its winners by name: what a person reads beside the ids. A game this
    companion no longer referees keeps its ids: they are all it has."""
    listed = _listed(entry["game"], lang, setting)
    option = next((o for o in listed["options"] if o["id"] == entry["option"]), None)
    variants = option["variants"] if option is not None else []
    variant = next((v for v in variants if v["id"] == entry["variant"]), None)
    return dict(entry) | {
        "game_name": listed["name"],
        "option_name": option["name"] if option is not None else entry["option"],
        "variant_name": variant["name"] if variant is not None else entry["variant"],
        "winner_names": [entry["players"][seat]["name"] for seat in entry["winners"]],
    }


def _listed(game_id: str, lang: str, setting: Setting) -> dict[str, Any]:
    """A game as the start form lists it in `lang`, or its id alone if it is not known."""
    try:
        return named_game(games.game(game_id), lang, setting)
    except KeyError:
        return {"id": game_id, "name": game_id, "options": []}


@history.get("/history")
def history_page() -> Response:
    """A page of the history, newest first: `count` games (20 unless asked) older than game
    `before` (the newest unless given); `next` is the `before` of the page after it."""
    before = request.args.get("before")
    start = None if before is None else _number(before, "before")
    count = _number(request.args.get("count", str(PAGE)), "count", most=MOST)
    store = table().store
    rows = store.history(start, count + 1)  # one more: whether a page follows
    lang = language()
    shown = [_named(row, lang, table().setting) for row in rows[:count]]
    following = shown[-1]["id"] if len(rows) > count else None
    return jsonify({"games": shown, "next": following, "total": store.history_size()})


def _entry(number: int) -> dict[str, Any]:
    try:
        return table().store.history_entry(number)
    except KeyError:
        raise ApiError(
            404, "history", f"game {number} is not in the history: list it with GET /api/history"
        ) from None


def _record(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A game's record as it ended, folded from the store by its game."""
    store = table().store
    try:
        game = games.game(entry["game"])
        return game.resume(store, entry["id"], Setting()).record()
    except (KeyError, RecordProblem) as problem:
        raise ApiError(
            422, "history", f"game {entry['id']}'s record cannot be read: {problem}"
        ) from None


@history.get("/history/<number>")
def history_game(number: str) -> Response:
    """One game of the history: its result and its record (for the record watcher)."""
    entry = _entry(_number(number, "game"))
    return jsonify(_named(entry, language(), table().setting) | {"record": _record(entry)})


@history.get("/history/<number>/record")
def history_record(number: str) -> Response:
    """One game's record as a file, as `GET /api/export` gives the game being played."""
    entry = _entry(_number(number, "game"))
    response = Response(json.dumps(_record(entry), indent=1) + "\n", mimetype="application/json")
    name = f"{entry['game']}-game-{entry['id']}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@history.delete("/history/<number>")
def delete_game(number: str) -> Response:
    """Delete one game, its record and its row (the PIN): a game being played is refused."""
    game = _number(number, "game")
    _entry(game)  # a game the history lists: a 404 otherwise, nothing deleted
    table().delete(game)
    return jsonify({"deleted": game})


@history.get("/players")
def standings() -> Response:
    """The standings per game (games played to the end, wins, average and best score) and
    every player, with how many games of the history they sat at."""
    store = table().store
    lang = language()
    found = store.standings()
    setting = table().setting
    names = {
        game: _listed(game, lang, setting)["name"] for game in {line["game"] for line in found}
    }
    lines = [line | {"game_name": names[line["game"]]} for line in found]
    return jsonify({"standings": lines, "players": store.players()})


@history.get("/players/<number>")
def player_results(number: str) -> Response:
    """One player's games played to their end, in the order played: the page's chart."""
    player = _number(number, "player")
    store = table().store
    results = _known(store.results, player)
    name = next(p["name"] for p in store.players() if p["id"] == player)
    return jsonify({"id": player, "name": name, "results": results})


def _player(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2**62:
        raise ApiError(400, "request", f"{name} must be a player's id", fields=[name])
    return value


def _known(action: Callable[..., Any], *args: Any) -> Any:
    """What `action` on the players answers, or a 404 naming a player the history lacks."""
    try:
        return action(*args)
    except KeyError as missing:
        raise ApiError(
            404, "player", f"{missing.args[0]}: list the players with GET /api/players"
        ) from None


@history.post("/players/<number>/rename")
def rename(number: str) -> Response:
    """A player shown under another name from now on (the PIN); `{"name": "..."}`."""
    player = _number(number, "player")
    doc = data()
    _fields(doc, ("name",))
    problem = name_problem(doc["name"])
    if problem is not None:
        raise ApiError(400, "request", f"the name {problem.text}", fields=["name"], key=problem.key)
    _known(table().rename, player, " ".join(doc["name"].split()))
    return jsonify({"renamed": player, "name": " ".join(doc["name"].split())})


@history.post("/players/<number>/merge")
def merge(number: str) -> Response:
    """Two players found to be one person (the PIN); `{"into": the player kept}`."""
    player = _number(number, "player")
    doc = data()
    _fields(doc, ("into",))
    into = _player(doc["into"], "into")
    _known(table().merge, player, into)
    return jsonify({"merged": player, "into": into})


# A cell a spreadsheet would take for a formula (CSV injection): said as text.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA) else text


@history.get("/history.csv")
def history_csv() -> Response:
    """The whole history as CSV, newest first, one game a line, for a spreadsheet."""
    store, setting = table().store, table().setting
    lang = language()

    def lines() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            ["id", "game", "option", "variant", "started", "finished", "over", "turns",
             "players", "scores", "winners"]
        )  # fmt: skip
        before = None
        while True:
            rows = store.history(before, 500)
            for row in rows:
                named = _named(row, lang, setting)
                writer.writerow(
                    _cell(v)
                    for v in (
                        row["id"], named["game_name"], named["option_name"],
                        named["variant_name"], row["started"], row["finished"],
                        "yes" if row["over"] else "no", row["turns"],
                        "; ".join(p["name"] for p in row["players"]),
                        "; ".join(str(s) for s in row["scores"]),
                        "; ".join(named["winner_names"]),
                    )
                )  # fmt: skip
            yield out.getvalue()
            out.seek(0)
            out.truncate()
            if len(rows) < 500:
                return
            before = rows[-1]["id"]

    response = Response(lines(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="history.csv"'
    return response
