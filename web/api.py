"""The JSON API: everything a player can do on the page, and what the buttons and the
camera will call later. Each route checks the shape of its request here (unknown fields,
card codes, rolls, poses) and leaves the rules to the table, so the game is never touched
by a request that fails.

Reading is open; every POST needs the table's PIN (see `web.app`). Errors are JSON:
`{"error": {"rule": ..., "message": ...}}`.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.games import for_record, games
from companion.games.caboose import cards, view
from companion.games.caboose.record import Record, from_json
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.state import Chaos, Pass, Play
from companion.games.caboose.table import (
    Table,
    TableError,
    check_names,
    check_turn,
    name_problem,
)
from companion.games.caboose.words import TEXT, pick
from companion.pose import Pose

if TYPE_CHECKING:
    from companion.games.caboose.session import Session

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


def attached_session() -> Session | None:
    """The turn in progress when a camera follows the table (`companion run`, the demo:
    `companion.app.run.attach_session`); None when the page is the table's only input."""
    return current_app.extensions.get("caboose.session")


class Views:
    """The view of the table's latest version in each language, built once however many
    phones ask for it (each open page's stream and every refresh would otherwise redo the
    odds and placements of every play). A session's every visible change wakes the table
    (`Table.touch`), so its status can be kept in the view of a table version too."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[int, str]] = {}
        # Versions count from 1 again when the service restarts: pages compare versions only
        # within one `boot`, or they would ignore every state after a restart.
        self.boot = secrets.token_hex(4)

    def text(self, the_table: Table, lang: str, session: Session | None = None) -> tuple[int, str]:
        """(version, JSON text) of the table now, with the session's status when one follows
        the table. The status is read after the table's version, outside the table's lock:
        it is then at least as new as that version (a session changes, then wakes the table,
        both under its own lock), and the session's lock is never taken inside the table's."""
        if the_table.game is None:
            version = the_table.version
            doc = {"version": version, "boot": self.boot, "game": None}
            return version, json.dumps(doc | {"session": _status(session, lang)})
        snap = the_table.snapshot()
        with self._lock:
            kept = self._kept.get(lang)
        if kept is not None and kept[0] == snap.version:
            return kept
        doc = view.build(snap, lang) | {"boot": self.boot, "session": _status(session, lang)}
        made = (snap.version, json.dumps(doc))
        with self._lock:
            self._kept[lang] = made
        return made


def _status(session: Session | None, lang: str) -> dict[str, Any] | None:
    return None if session is None else view.session(session.status(), lang)


def _view_response() -> Response:
    views: Views = current_app.extensions["caboose.views"]
    text = views.text(table(), language(), attached_session())[1]
    return Response(text, mimetype="application/json")


def language() -> str:
    accept = request.accept_languages.best_match(["en", "es"])
    return pick(request.args.get("lang") or request.cookies.get("lang"), accept)


# --- request checking ----------------------------------------------------------------------


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "request", f"{name} must be a seat number (0 for the first player)")
    return value


def _code(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ApiError(400, "card", f"{name} must be a card code")
    try:
        cards.parse(value)
    except cards.CardCodeError as error:
        raise ApiError(400, "card", f"{name}: {error}") from None
    return value


def _codes(value: Any, name: str, marks: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise ApiError(400, "card", f"{name} must be a list of card codes")
    for code in value:
        _code(code.removesuffix("!") if marks else code, name)
    return tuple(value)


def _cards(value: Any, name: str) -> tuple[str, ...]:
    return _codes(value, name)


def _order(value: Any, name: str) -> tuple[str, ...]:
    return _codes(value, name, marks=True)


def _roll(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) for w in value
    ):
        raise ApiError(400, "dice", f"{name} must list the wheels shown by each die")
    return tuple(value)


def _place(value: Any, name: str) -> tuple[Pose, ...]:
    if not isinstance(value, list):
        raise ApiError(400, "placement", f"{name} must be a list of [x, y, rotation]")
    try:
        return tuple(Pose.from_list(pose) for pose in value)
    except ValueError as error:
        raise ApiError(400, "placement", f"{name}: {error}") from None


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ApiError(400, "request", f"{name} must be true or false")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise ApiError(400, "request", f"{name} must be a short text")
    return value


def _optional_text(value: Any, name: str) -> str | None:
    return None if value is None else _text(value, name)


def _names(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise ApiError(400, "request", f"{name} must list 1 to 4 players' names")
    for seat, player in enumerate(value):
        problem = name_problem(player)
        if problem is not None:
            raise ApiError(400, "request", f"{name}: player {seat + 1}'s name {problem}")
    return value


def _seed(value: Any, name: str) -> int | str | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return _text(value, name)


def _game(value: Any, name: str) -> str:
    """One of the games `GET /api/games` lists (today the table deals only the default)."""
    if value not in games():
        raise ApiError(422, "request", f"{name} must be one of {', '.join(games())}")
    return value


def _document(value: Any, name: str) -> Any:
    if not isinstance(value, dict):
        raise ApiError(400, "record", f"{name} must be a caboose-record/1 object")
    return value


def _turn_number(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(400, "request", f"{name} must be a turn number, 0 for the setup")
    return value


def _last_turn(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(
            400,
            "request",
            f"{name} must be the number of the last turn as the page shows it "
            "(the view's last.number; 0 before the first turn)",
        )
    return value


Check = Callable[[Any, str], Any]


def body(fields: dict[str, Check], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, every field checked; unknown or missing fields are a 400
    naming them, so a typo never passes silently as a default."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw) if raw else {}
    except (ValueError, RecursionError) as error:  # bad JSON, bad UTF-8, absurd numbers or depth
        raise ApiError(400, "request", f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "request", "the body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ApiError(
            400,
            "request",
            f"unknown fields {unknown}: this request takes {sorted(fields)}",
            fields=unknown,
        )
    missing = [name for name in required if name not in data]
    if missing:
        raise ApiError(400, "request", f"missing fields {missing}", fields=missing)
    return {name: fields[name](value, name) for name, value in data.items()}


def _record(doc: dict[str, Any]) -> Record:
    """A record from its JSON, its players' names checked as a new game's are (a record
    watched shows them too). `cards.parse` raises TypeError, not CardCodeError, for a
    card that is a list or an object (its cache cannot hash it): still the record's fault."""
    try:
        record = from_json(doc)
    except TypeError:
        raise ApiError(422, "record", 'a card code must be a string such as "3" or "2x"') from None
    check_names(record.players)
    return record


def _changed() -> Response:
    """Every accepted action answers with the new view, so the phone that acted redraws at
    once, without waiting for its own event to come back."""
    return _view_response()


# --- reading -------------------------------------------------------------------------------


@api.get("/state")
def state() -> Response:
    return _view_response()


@api.get("/editions")
def editions() -> Response:
    return jsonify(
        [
            {"id": e, "name": load_edition(e).name, "variants": list(load_edition(e).variants)}
            for e in EDITIONS
        ]
    )


@api.get("/games")
def games_list() -> Response:
    """Every game the table referees, with the options a new game of it may choose (for
    the Caboose design: its editions and their variants), the default game first."""
    return jsonify(
        [
            {
                "id": g.id,
                "name": g.name,
                "record_format": g.record_format,
                "options": [option.as_json() for option in g.options],
            }
            for g in games().values()
        ]
    )


@api.get("/text")
def text() -> Response:
    lang = language()
    return jsonify({"lang": lang, "text": TEXT[lang]})


@api.get("/export")
def export() -> Response:
    snap = table().snapshot()  # a copy: another phone may play a turn meanwhile
    response = Response(snap.record.dumps() + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="caboose-game-{snap.game_id}.json"'
    )
    return response


@api.get("/events")
def events() -> Response:
    """Server-Sent Events: the whole view each time the table changes, a comment every
    `heartbeat` seconds so a dead connection is noticed, and an end after `stream_seconds`
    so no server thread is held forever (the browser's EventSource reconnects by itself).
    Every `poll` seconds the stream also asks the server whether the page is still there
    (waitress notices a closed connection: `web.serve.listen`), so a closed page frees its
    slot at once rather than at the next heartbeat's failed write."""
    settings = current_app.extensions["caboose.settings"]
    streams = current_app.extensions["caboose.streams"]
    if not streams.acquire(blocking=False):
        raise ApiError(503, "busy", "too many open pages: close one and retry")
    lang = language()
    the_table = table()
    session = attached_session()  # the stream runs outside the app's context
    views: Views = current_app.extensions["caboose.views"]
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected", _never)

    def stream() -> Iterator[str]:
        yield f"retry: {settings.retry_ms}\n\n"
        now = time.monotonic()
        deadline = now + settings.stream_seconds
        beat = now + settings.heartbeat
        seen = -1
        while (now := time.monotonic()) < deadline and not gone():
            if now >= beat:
                yield ": heartbeat\n\n"  # a write to a closed connection ends the stream
                beat = now + settings.heartbeat
            version = the_table.wait(seen, min(settings.poll, beat - now, deadline - now))
            if version != seen:
                seen, text = views.text(the_table, lang, session)
                yield f"id: {seen}\nevent: state\ndata: {text}\n\n"

    response = Response(
        stream(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    # The server closes the response however the stream ends, even if it never started.
    response.call_on_close(streams.release)
    return response


def _never() -> bool:
    """A server that cannot tell when a page goes: the heartbeat's failed write says it."""
    return False


@api.post("/replay")
def replay() -> Response:
    """One frame of a record being watched, turn by turn, drawn by the game whose record it
    is; the game at the table is not touched, so watching needs no PIN."""
    data = body({"record": _document, "turn": _turn_number}, required=("record", "turn"))
    game = for_record(data["record"])
    return jsonify(game.watch(data["record"], data["turn"], language()))


# --- acting (PIN needed: see web.app) --------------------------------------------------------


@api.post("/pin")
def pin() -> Response:
    """Only checks the PIN (the guard did already): the page asks once and remembers it."""
    body({})
    return jsonify({"ok": True})


@api.post("/game")
def new_game() -> Response:
    data = body(
        {
            "game": _game,
            "edition": _text,
            "variant": _optional_text,
            "names": _names,
            "seed": _seed,
        },
        required=("edition", "names"),
    )
    table().new_game(data["edition"], data["names"], data.get("variant"), data.get("seed"))
    return _changed()


@api.post("/import")
def import_record() -> Response:
    data = body({"record": _document}, required=("record",))
    table().load(_record(data["record"]))
    return _changed()


@api.post("/stage")
def stage() -> Response:
    data = body({"seat": _seat, "cards": _cards, "place": _place}, required=("seat", "cards"))
    table().stage(data["seat"], data["cards"], data.get("place"))
    return _changed()


@api.post("/unstage")
def unstage() -> Response:
    body({})
    table().unstage()
    return _changed()


@api.post("/pass")
def pass_turn() -> Response:
    data = body({"seat": _seat, "order": _order}, required=("seat",))
    table().act(data["seat"], Pass(order=data.get("order")))
    return _changed()


@api.post("/play")
def play() -> Response:
    data = body(
        {"seat": _seat, "cards": _cards, "roll": _roll, "place": _place, "order": _order},
        required=("seat", "cards", "roll"),
    )
    action = Play(data["cards"], data["roll"], order=data.get("order"), place=data.get("place"))
    table().act(data["seat"], action)
    return _changed()


@api.post("/chaos")
def chaos() -> Response:
    data = body({"seat": _seat, "cards": _order}, required=("seat", "cards"))
    table().act(data["seat"], Chaos(data["cards"]))
    return _changed()


@api.post("/order")
def order() -> Response:
    """Another discard order for the last turn, the same roll (no confirmation needed)."""
    data = body({"order": _order, "turn": _last_turn}, required=("order", "turn"))
    last = _last_action(data["turn"])
    if isinstance(last, Chaos):
        raise ApiError(409, "R-7", "a chaos discard has no penalty cards to order")
    table().correct(replace(last, order=data["order"]), turn=data["turn"])
    return _changed()


@api.post("/correct")
def correct() -> Response:
    """A mistyped roll of the last turn corrected; without `confirm` the API answers 409
    with `needs_confirm`, and the page asks the players before sending it again."""
    data = body({"roll": _roll, "confirm": _flag, "turn": _last_turn}, required=("roll", "turn"))
    last = _last_action(data["turn"])
    if not isinstance(last, Play):
        raise ApiError(409, "correct", "the last turn rolled no dice: there is no roll to correct")
    confirm = data.get("confirm", False)
    if data["roll"] != last.roll and not confirm:
        raise ApiError(
            409,
            "correct",
            f"changing the roll from {list(last.roll)} to {list(data['roll'])} must be confirmed",
            needs_confirm=True,
        )
    table().correct(replace(last, roll=data["roll"], order=None, drawn=()), confirm, data["turn"])
    return _changed()


@api.post("/shown")
def shown() -> Response:
    """The cards a provisional deal waits for (the view's `to_show`), entered on the page
    rather than shown to the camera: those taken from the draw pile, or a hand at the end."""
    data = body({"cards": _cards}, required=("cards",))
    wanted = table().to_show()
    if wanted is None:
        raise ApiError(409, "deal", "the table is not waiting for any cards to be shown")
    if wanted[0] == "taken":
        table().show_taken(data["cards"])
    else:
        table().show_hand(wanted[1], data["cards"])
    return _changed()


@api.post("/undo")
def undo() -> Response:
    """Staged cards taken back, else the last turn; `turn` says which last turn the phone
    saw, so repeated or crossing taps take back one turn only (`Table.undo`)."""
    data = body({"turn": _last_turn}, required=("turn",))
    table().undo(data["turn"])
    return _changed()


def _last_action(turn: int) -> Pass | Play | Chaos:
    """The last turn as an action, when it is the turn the phone meant: a late tap meant
    for an earlier turn is refused here before its checks, and by the table under its lock
    (another phone may play in between)."""
    snap = table().snapshot()
    check_turn(len(snap.record.turns), turn)
    if not snap.record.turns:
        raise TableError("correct", "no turn has been played yet: there is nothing to change")
    return view.last_action(snap)


# --- the turn at the table (when a camera follows it) --------------------------------------


def _session() -> Session:
    session = attached_session()
    if session is None:
        raise ApiError(
            404, "session", "no camera follows this table: the turn at the table is not known"
        )
    return session


@api.get("/session")
def session_status() -> Response:
    """The turn in progress at the table, alone (every view carries it too), in the
    request's language as the view says it."""
    return jsonify(view.session(_session().status(), language()))


@api.post("/session/answer")
def session_answer() -> Response:
    """The players' choice for a card the camera was unsure of, among the question's
    options; answered with the new view, as every change is."""
    session = _session()
    data = body({"code": _code}, required=("code",))
    session.answer(data["code"])
    return _changed()
