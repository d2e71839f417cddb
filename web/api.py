"""The JSON API: everything a player can do on the page. A game's commands all go through
one route, `POST /api/command/<name>`, which only turns its JSON into the command (the
game's `parse`, which knows its commands by name and checks the request's shape: unknown
fields, card codes, rolls, poses) and hands it to the table (`companion.table.Table.handle`), the
one writer, which leaves the rules to the game; a refusal becomes its HTTP status
(`web.app`), so the game is never touched by a request that fails.

Reading is open but for the mover's hidden hand (`GET /api/hand`); it and every POST need
the table's PIN (see `web.app`). Errors are JSON:
`{"error": {"rule": ..., "message": ...}}`.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.games import default, for_record, games, requests
from companion.games.protocol import LANGUAGES, Game, Malformed, Refusal
from companion.games.requests import UnknownCommand
from companion.table import Table
from web.words import advisor_says, join_words, named_game, page_words, pick

api = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    """A request the API refuses before it reaches the table; `status` is its HTTP code."""

    def __init__(self, status: int, rule: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.rule = rule
        self.message = message
        self.extra = extra


def table() -> Table:
    return current_app.extensions["caboose.table"]


class Views:
    """The view of the table's latest version in each language, built once however many
    phones ask for it (each open page's stream and every refresh would otherwise redo the
    odds and placements of every play). Every change a page shows, the turn at the table
    included, is a new version of the table, so a view is kept per version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[int, str]] = {}
        # Versions count from 1 again when the service restarts: pages compare versions only
        # within one `boot`, or they would ignore every state after a restart.
        self.boot = secrets.token_hex(4)

    def text(self, the_table: Table, lang: str) -> tuple[int, str]:
        """(version, JSON text) of the table now."""
        version = the_table.version
        with self._lock:
            kept = self._kept.get(lang)
        if kept is not None and kept[0] == version:
            return kept
        doc = the_table.view(lang)  # at one version, maybe newer than the one read above
        made = (doc["version"], json.dumps(doc | {"boot": self.boot}))
        with self._lock:
            self._kept[lang] = made
        return made


def _view_response() -> Response:
    views: Views = current_app.extensions["caboose.views"]
    text = views.text(table(), language())[1]
    return Response(text, mimetype="application/json")


def language() -> str:
    accept = request.accept_languages.best_match(LANGUAGES)
    return pick(request.args.get("lang") or request.cookies.get("lang"), accept)


# --- request checking ----------------------------------------------------------------------


def data() -> dict[str, Any]:
    """The request's JSON object (its fields are the command's to check)."""
    raw = request.get_data(cache=True)
    try:
        doc = json.loads(raw) if raw else {}
    except (ValueError, RecursionError) as error:  # bad JSON, bad UTF-8, absurd numbers or depth
        raise ApiError(400, "request", f"the body is not valid JSON: {error}") from None
    if not isinstance(doc, dict):
        raise ApiError(400, "request", "the body must be a JSON object")
    return doc


def _fields(doc: dict[str, Any], names: tuple[str, ...]) -> None:
    """The fields of a request the shared routes read themselves: none unknown, all there."""
    unknown = sorted(set(doc) - set(names))
    if unknown:
        raise ApiError(
            400,
            "request",
            f"unknown fields {unknown}: this request takes {sorted(names)}",
            fields=unknown,
        )
    missing = [name for name in names if name not in doc]
    if missing:
        raise ApiError(400, "request", f"missing fields {missing}", fields=missing)


# Each check of a field the shared routes read themselves names it (`fields`), as the
# games' checks do (`companion.games.requests.fields`): a value of the wrong JSON type is a
# 400, whatever it is, before anything looks it up.


def _turn_number(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(
            400, "request", f"{name} must be a turn number, 0 for the setup", fields=[name]
        )
    return value


def _document(value: Any, name: str) -> dict[str, Any]:
    """A record as a JSON object: refused in the format of the game at the table, whose
    page sent it (the record's own format then says which game reads it)."""
    if not isinstance(value, dict):
        wanted = table().game.record_format
        raise ApiError(400, "record", f"{name} must be a {wanted} object", fields=[name],
                       key="not_a_record")  # fmt: skip
    return value


def _game(value: Any, name: str) -> Game:
    """One of the games `GET /api/games` lists, by its id: another text is a game the
    table does not referee (422), anything else no game's id at all (400)."""
    known = ", ".join(games())
    if not isinstance(value, str):
        raise ApiError(400, "request", f"{name} must be a game's id: one of {known}", fields=[name])
    if value not in games():
        raise ApiError(422, "request", f"{name} must be one of {known}", fields=[name])
    return games()[value]


# --- reading -------------------------------------------------------------------------------


@api.get("/state")
def state() -> Response:
    return _view_response()


@api.get("/editions")
def editions() -> Response:
    """The default game's options (its editions and variants, say)."""
    return jsonify(
        [
            {"id": o.id, "name": o.name, "variants": [v.id for v in o.variants]}
            for o in default().options
        ]
    )


@api.get("/games")
def games_list() -> Response:
    """Every game the table referees, with the options a new game of it may choose (its
    editions and their variants, say), the default game first; the
    names in the request's language (`?lang=`), as the start form shows them."""
    lang = language()
    setting = table().setting
    return jsonify([named_game(g, lang, setting) for g in games().values()])


@api.get("/text")
def text() -> Response:
    """The page's words in the request's language: the shell's and the game being
    played's (the default game's before any)."""
    lang = language()
    return jsonify({"lang": lang, "text": page_words(table().game, lang)})


@api.get("/export")
def export() -> Response:
    game, number, record = table().record()  # one copy: another phone may play meanwhile
    response = Response(json.dumps(record, indent=1) + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{game}-game-{number}.json"'
    return response


class Slot:
    """One open page's event stream: when it began, and whether a newer page has asked it
    to end (`Streams.open`)."""

    def __init__(self, since: float) -> None:
        self.since = since
        self.ending = False


class Streams:
    """The open pages' event streams, at most `most` at once. Each holds one of waitress's
    worker threads for as long as it runs (`web.serve`), so they are capped below the pool
    and the API always has threads left for the PIN holder's taps.

    A full house must not keep a page out for long: phones asleep with the page open, tabs
    forgotten, or a page whose network went (its writes only fill a buffer) would hold every
    slot for their whole `stream_seconds`. So when all are taken, a new page's stream ends
    the oldest one that has run `settle` seconds, and is itself refused this once (503: the
    page retries by itself within a few seconds, web/static/shell.js, by which time the
    ended stream has freed its thread: never more than `most` threads stream). The ended
    page's browser reconnects by itself if it is still there, and is refused while every
    other stream is younger than `settle`: each slot changes hands at most once every
    `settle` seconds however many pages are open, so the churn is bounded too."""

    def __init__(self, most: int, settle: float) -> None:
        self._most = most
        self._settle = settle
        self._lock = threading.Lock()
        self._open: list[Slot] = []  # oldest first

    def open(self) -> Slot | None:
        """A slot for a new stream, or None (a full house; the oldest settled stream is
        asked to end)."""
        now = time.monotonic()
        with self._lock:
            if len(self._open) < self._most:
                slot = Slot(now)
                self._open.append(slot)
                return slot
            oldest = next((slot for slot in self._open if not slot.ending), None)
            if oldest is not None and now - oldest.since >= self._settle:
                oldest.ending = True
            return None

    def close(self, slot: Slot) -> None:
        with self._lock:
            self._open.remove(slot)


@api.get("/events")
def events() -> Response:
    """Server-Sent Events: the whole view each time the table changes, a comment every
    `heartbeat` seconds so a dead connection is noticed, and an end after `stream_seconds`
    so no server thread is held forever (the browser's EventSource reconnects by itself).
    Every `poll` seconds the stream also asks the server whether the page is still there
    (waitress notices a closed connection: `web.serve.listen`), so a closed page frees its
    slot at once rather than at the next heartbeat's failed write, and whether a newer page
    asked it to make room (`Streams`)."""
    settings = current_app.extensions["caboose.settings"]
    streams: Streams = current_app.extensions["caboose.streams"]
    lang = language()
    the_table = table()  # the stream runs outside the app's context
    views: Views = current_app.extensions["caboose.views"]
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected", _never)
    slot = streams.open()  # last: nothing between here and `call_on_close` below can fail
    if slot is None:
        raise ApiError(503, "busy", "too many open pages: close one and retry")

    def stream() -> Iterator[str]:
        yield f"retry: {settings.retry_ms}\n\n"
        now = time.monotonic()
        deadline = now + settings.stream_seconds
        beat = now + settings.heartbeat
        seen = -1
        while (now := time.monotonic()) < deadline and not gone() and not slot.ending:
            if now >= beat:
                yield ": heartbeat\n\n"  # a write to a closed connection ends the stream
                beat = now + settings.heartbeat
            version = the_table.wait(seen, min(settings.poll, beat - now, deadline - now))
            if version != seen:
                seen, text = views.text(the_table, lang)
                yield f"id: {seen}\nevent: state\ndata: {text}\n\n"

    response = Response(
        stream(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    # The server closes the response however the stream ends, even if it never started.
    response.call_on_close(lambda: streams.close(slot))
    return response


def _never() -> bool:
    """A server that cannot tell when a page goes: the heartbeat's failed write says it."""
    return False


@api.post("/replay")
def replay() -> Response:
    """One frame of a record being watched, turn by turn, drawn by the game whose record it
    is (`game_kind`, its id: another game's page cannot draw it); the game at the table is
    not touched, so watching needs no PIN."""
    doc = data()
    _fields(doc, ("record", "turn"))
    record, turn = _document(doc["record"], "record"), _turn_number(doc["turn"], "turn")
    game = for_record(record)
    return jsonify(game.watch(record, turn, language()) | {"game_kind": game.id})


# --- the private advisor (no PIN: it changes nothing) ---------------------------------------


class Limiter:
    """How often each client (its network address) may ask the advisor: `rate` questions a
    second, `burst` at once (a token bucket). Each question recounts the odds of every play,
    so one phone tapping fast, or a script, must not keep a small Pi from the table's own
    pages; a phone asking again as the table changes stays far below it."""

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = burst
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)

    def wait(self, client: str) -> float:
        """0 and one question counted if `client` may ask now, else the seconds to wait."""
        now = time.monotonic()
        with self._lock:
            full = self._burst / self._rate  # a bucket idle this long is full: forget it
            self._buckets = {
                who: kept for who, kept in self._buckets.items() if now - kept[1] < full
            }
            tokens, when = self._buckets.get(client, (self._burst, now))
            tokens = min(self._burst, tokens + (now - when) * self._rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return (1 - tokens) / self._rate
            self._buckets[client] = (tokens - 1, now)
            return 0.0


ADVISE_FIELDS = ("seat", "hand", "lang")


def _advise_fields(doc: dict[str, Any], lang: str) -> None:
    """The shape of a question to the advisor, the same whatever the game (a game without a
    hidden hand reads neither seat nor hand, but a page sending it strange values has a
    fault to hear of): each refusal names its field and is said in `lang`."""

    def refuse(key: str, *names: str) -> ApiError:
        return ApiError(400, "request", advisor_says(table().game, lang, key), fields=list(names))

    unknown = sorted(set(doc) - set(ADVISE_FIELDS))
    if unknown:
        raise refuse("request", *unknown)
    missing = [name for name in ADVISE_FIELDS[:2] if name not in doc]
    if missing:
        raise refuse("request", *missing)
    seat, hand = doc["seat"], doc["hand"]
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise refuse("seat", "seat")
    if not isinstance(hand, list) or not all(isinstance(code, str) for code in hand):
        raise refuse("hand_list", "hand")
    if "lang" in doc and doc["lang"] not in LANGUAGES:
        raise refuse("request", "lang")


@api.post("/advise")
def advise() -> Response:
    """What each move would do for the hand a player says they hold (`Table.advise`): read
    only, no PIN, a few questions a second per phone. The hand is answered and forgotten: it
    is never kept, logged, streamed or shown to another page, and a refusal names the card
    in the page's language (`lang`, else the page's choice)."""
    try:
        doc = data()
    except ApiError:
        raise ApiError(400, "request", advisor_says(table().game, language(), "request")) from None
    lang = doc["lang"] if doc.get("lang") in LANGUAGES else language()
    wait = current_app.extensions["caboose.advise_limit"].wait(request.remote_addr or "")
    if wait:
        seconds = math.ceil(wait)
        raise ApiError(
            429, "slow", advisor_says(table().game, lang, "slow", n=seconds), retry_after=seconds
        )
    _advise_fields(doc, lang)
    try:
        answer = table().advise(doc["seat"], doc["hand"], lang)
    except Refusal as refusal:
        status = 400 if isinstance(refusal, Malformed) else 409
        key = refusal.key or "request"
        said = advisor_says(table().game, lang, key, **refusal.params)
        fields = refusal.extra.get("fields")  # the games' checks name the field they refuse
        raise ApiError(
            status, refusal.rule, said, **({"fields": fields} if fields else {})
        ) from None
    # `boot` as the views carry it: versions count from 1 again after a restart (no-store, as
    # on every private answer, is set by `web.app`)
    return jsonify(answer | {"boot": current_app.extensions["caboose.views"].boot})


# --- the mover's hand (PIN needed: see web.app) ----------------------------------------------


@api.get("/hand")
def hand() -> Response:
    """The hidden hand of the player to move and the odds of each play it makes
    (`Table.hand`): never in the view, which every page and the screen beside the table
    read, but asked for by the mover's phone, with the PIN, when its player taps to see it.
    No cache keeps it; 409 when the companion holds no hand to show (a real table's deal,
    a player who holds none, no game or the game over) or when the mover's seat has a phone
    of its own (`web.seats`): the hand is on that phone then, not on the PIN holder's."""
    found = table().hand(language())
    if found is None:
        raise ApiError(409, "hand", "no hand to show: the companion does not hold this one")
    if found["seat"] in current_app.extensions["caboose.seats"].holds(found["number"]):
        said = join_words(language())["hand_on_phone"].format(name=found["name"])
        raise ApiError(409, "hand", said, key="hand_on_phone", params={"name": found["name"]})
    # no-store, as on every private answer, is set by `web.app`
    return jsonify(found | {"boot": current_app.extensions["caboose.views"].boot})


# --- acting (PIN needed: see web.app) --------------------------------------------------------


@api.post("/pin")
def pin() -> Response:
    """Only checks the PIN (the guard did already): the page asks once and remembers it."""
    _fields(data(), ())
    return jsonify({"ok": True})


@api.post("/game")
def new_game() -> Response:
    """A new game: of the default game unless the request names its `game`."""
    doc = data()
    game = _game(doc["game"], "game") if "game" in doc else default()
    table().start(game.id, requests.start(doc, game.most_players()))
    return _view_response()


@api.post("/import")
def import_record() -> Response:
    doc = data()
    _fields(doc, ("record",))
    table().load(_document(doc["record"], "record"))
    return _view_response()


@api.post("/command/<path:name>")
def command(name: str) -> Response:
    """One of the commands the game at the table declares (its `parse` reads the JSON by
    the command's name; a name it has not is a 404 naming those it has), handed to the
    table and answered with the new view, so the phone that acted redraws at once,
    without waiting for its own event to come back. The commands of the turn at the
    table (`session/<name>`) need a camera following it, as `GET /api/session` does."""
    if name.startswith("session/"):
        _followed()
    table().handle(table().game.parse(name, data()))
    return _view_response()


def declared(name: str) -> bool:
    """Whether some game has the command `name` (its `parse` does not call it unknown;
    asked without its fields, it refuses their absence or takes none): the page's old
    path of it, `POST /api/<name>`, is then `POST /api/command/<name>` (`web.app`)."""
    for game in games().values():
        try:
            game.parse(name, {})
        except UnknownCommand:
            continue
        except Refusal:
            pass  # its fields missing: a command all the same
        return True
    return False


# --- the turn at the table (when a camera follows it) --------------------------------------


def _followed() -> None:
    if table().setting.camera is None:
        raise ApiError(
            404, "session", "no camera follows this table: the turn at the table is not known"
        )


@api.get("/session")
def session_status() -> Response:
    """The turn in progress at the table, alone (every view carries it too), in the
    request's language as the view says it."""
    _followed()
    return jsonify(table().view(language())["session"])
