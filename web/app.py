"""The table's web page: the Flask app factory, its guard, and its error answers.

Several phones share one table. Reading is open to anyone on the table's network; changing
the game needs the table's PIN, sent in the `X-Table-Pin` header. That header, together
with requiring `Content-Type: application/json`, is also the protection against
cross-site requests: a form on another site cannot set either, and a cross-site script
that tries must pass a CORS preflight this app never grants. No cookie carries authority.

Every error is JSON with the rule and a message a player can act on; an unexpected one is
logged here and answered with a generic 500, never a traceback.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    send_file,
)
from jinja2 import Template
from werkzeug.exceptions import HTTPException

from companion import games
from companion.games.protocol import Game, Malformed, RecordProblem, Refusal
from companion.games.requests import UnknownCommand
from companion.store import StorageFull
from companion.table import Table
from web.api import ApiError, Limiter, Streams, Views, api, declared, language
from web.board_teach import BoardLessons, FacesLearnt, colours_named, teach_board
from web.camera import Pictures, Sights, camera
from web.die_teach import teach_die
from web.history import history
from web.join import join
from web.pips_teach import teach_pips
from web.seats import Seats, seats
from web.setup import Checks, SetupTools, setup
from web.words import SHELL, advisor_says, advisor_words, page_words

log = logging.getLogger("companion.web")

PIN_HEADER = "X-Table-Pin"
# Requests that need no PIN: those that change nothing (watching a record replayed, the
# advisor), and a phone trading a seat's one-time code for its seat (the code is the proof).
OPEN_POSTS = {"api.replay", "api.advise", "seats.join_seat"}
# Reads that need the PIN: a hidden hand, and the camera's picture of a home (and what the
# setup check finds in it), go only to a phone that holds it.
PIN_READS = {
    "api.hand",
    "camera.picture",
    "setup.findings",
    "teach_board.picture",
    "teach_pips.picture",
    "teach_die.picture",
}
# Answers that name cards of a hidden hand or carry a seat's secret (their refusals too),
# and the camera's picture: kept by no cache.
PRIVATE = {
    "api.advise",
    "api.hand",
    "seats.seat_hand",
    "seats.invite",
    "seats.join_seat",
    "camera.picture",
    "setup.findings",
    "teach_board.picture",
    "teach_pips.picture",
    "teach_die.picture",
}
# A game's drawing of its advice on the advisor's page, in its page folder (a game with no
# hidden hand has none): its style and its script (web/static/advisor.js says the contract).
ADVISOR_FILES = ("advisor.css", "advisor.js")


@dataclass(frozen=True)
class Settings:
    """Limits that keep a small Pi answering: streams end and reconnect, uploads are small,
    and a PIN cannot be guessed by trying them all quickly."""

    heartbeat: float = 15.0  # seconds between SSE comments
    poll: float = 0.5  # seconds between checks that a streaming page is still there
    stream_seconds: float = 300.0  # an SSE stream's lifetime before the browser reconnects
    retry_ms: int = 1000  # how soon the browser reconnects
    max_streams: int = 12  # leave threads of waitress's pool free for the API
    stream_settle: float = 30.0  # a stream this old makes room for a new page (web.api.Streams)
    max_upload: int = 256 * 1024  # a record of a long game is a few tens of kB
    pin_failures: int = 10  # wrong PINs allowed per client and window…
    pin_window: float = 60.0  # …of this many seconds
    advise_rate: float = 4.0  # the advisor's questions a second per client…
    advise_burst: int = 8  # …and at once


class _PinGuard:
    """Counts wrong PINs per client (its network address): after `pin_failures` wrong
    ones within `pin_window` seconds that client is refused until its oldest wrong try
    leaves the window, so a 6-digit PIN cannot be brute-forced over the table's Wi-Fi.
    Per client, because a watcher's phone, or a child tapping wrong PINs, must never lock
    the PIN holder's phone out; a missing PIN is no guess and is not counted at all."""

    def __init__(self, pin: str, settings: Settings) -> None:
        self._pin = pin.encode()
        self._settings = settings
        self._lock = threading.Lock()
        self._failures: dict[str, list[float]] = {}  # client address -> wrong tries

    def check(self, client: str, given: str | None) -> None:
        if not given:
            raise ApiError(
                401,
                "pin",
                "changing the game needs the table's PIN: enter the PIN shown on the table's "
                "screen or log",
                key="pin_missing",
            )
        now = time.monotonic()
        window = self._settings.pin_window
        with self._lock:
            # Forget tries older than the window, and the clients left with none.
            self._failures = {
                who: kept
                for who, tries in self._failures.items()
                if (kept := [t for t in tries if now - t < window])
            }
            tries = self._failures.get(client, [])
            if len(tries) >= self._settings.pin_failures:
                wait = max(1, math.ceil(window - (now - tries[0])))
                raise ApiError(
                    429,
                    "pin",
                    f"too many wrong PINs from this device: wait {wait} s and retry",
                    retry_after=wait,
                )
            if not hmac.compare_digest(given.encode(), self._pin):
                self._failures[client] = [*tries, now]
                raise ApiError(
                    401,
                    "pin",
                    "wrong PIN: it is shown on the table's screen or log",
                    key="pin_wrong",
                )


class _OldCommandPaths:
    """The paths the page sent the games' commands to before one route took them all
    (`/api/<name>`), kept as aliases of `/api/command/<name>`: a path naming a
    command some game declares, and none of the app's own routes, is that route's from
    routing on, guard, checks and answer alike (another method than POST is refused
    there, 405, as it was)."""

    def __init__(self, app: Callable[[dict[str, Any], Any], Any], own: set[str]) -> None:
        self._app = app
        self._own = own  # the app's own paths, never taken for a command

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path: str = environ.get("PATH_INFO", "")
        name = path.removeprefix("/api/")
        old = name != path and not name.startswith("command/")  # the route itself: as it is
        if old and path not in self._own and declared(name):
            environ["PATH_INFO"] = f"/api/command/{name}"
        return self._app(environ, start_response)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def create_app(
    table: Table,
    pin: str | None = None,
    settings: Settings | None = None,
    sights: Sights | None = None,
    setup_tools: SetupTools | None = None,
) -> Flask:
    """The web app for one table. Without a PIN a fresh one is made and logged. `sights`
    gives the camera's latest frame (`FrameLoop.sight`); None: no camera watches the table.
    `setup_tools`: the service's own check, configuration file, pins and voice, for the
    setup page (`web.setup`); None: no camera or hardware to set up (the page alone)."""
    settings = settings or Settings()
    if not pin:
        pin = new_pin()
        log.warning("the table's PIN is %s", pin)
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=settings.max_upload, JSON_SORT_KEYS=False, DEBUG=False)
    app.extensions["caboose.table"] = table
    app.extensions["caboose.settings"] = settings
    app.extensions["caboose.pin"] = pin
    app.extensions["caboose.views"] = Views()
    app.extensions["caboose.advise_limit"] = Limiter(settings.advise_rate, settings.advise_burst)
    app.extensions["caboose.streams"] = Streams(settings.max_streams, settings.stream_settle)
    app.extensions["caboose.seats"] = Seats()
    guard = _PinGuard(pin, settings)
    app.extensions["caboose.pictures"] = Pictures(sights)
    app.extensions["caboose.setup"] = Checks(setup_tools, app.extensions["caboose.pictures"])
    app.register_blueprint(api)
    app.register_blueprint(join)
    app.register_blueprint(seats)
    app.register_blueprint(camera)
    app.register_blueprint(setup)
    app.register_blueprint(teach_board)
    app.extensions["caboose.board_lessons"] = BoardLessons()
    app.register_blueprint(teach_pips)
    app.extensions["caboose.pip_lessons"] = FacesLearnt()
    app.register_blueprint(teach_die)
    app.extensions["caboose.die_lessons"] = FacesLearnt()
    app.register_blueprint(history)
    own = {rule.rule for rule in app.url_map.iter_rules()}
    app.wsgi_app = _OldCommandPaths(app.wsgi_app, own)  # type: ignore[method-assign]

    @app.before_request
    def protect() -> None:
        if request.endpoint in PIN_READS:
            guard.check(request.remote_addr or "", request.headers.get(PIN_HEADER))
            return
        if request.method not in ("POST", "DELETE") or request.endpoint is None:
            return  # reading is open; an unknown path is a plain 404
        if request.method == "POST" and request.mimetype != "application/json":
            if request.endpoint == "api.advise":  # a phone's page: said in its language
                raise ApiError(400, "request", advisor_says(table.game, language(), "request"))
            raise ApiError(415, "csrf", "changes are sent as JSON (Content-Type: application/json)")
        origin = request.headers.get("Origin")
        # Scheme and host both: http://table and https://table are different origins.
        if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
            raise ApiError(403, "csrf", "requests from another site are refused")
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            raise ApiError(403, "csrf", "requests from another site are refused")
        if request.endpoint not in OPEN_POSTS:
            guard.check(request.remote_addr or "", request.headers.get(PIN_HEADER))

    @app.after_request
    def headers(response: Response) -> Response:
        # blob: images: the camera's picture, fetched with the PIN, shown from an object URL
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            "script-src 'self'; frame-ancestors 'none'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        if request.endpoint in PRIVATE:
            # Here, after every route and error handler has answered: the refusals too.
            response.headers["Cache-Control"] = "no-store"
        return response

    def watched_game(number: str | None) -> Game | None:
        """The game of the history's game `number` (`/?watch=ID`, history.js), whose page
        alone can draw its record; None for anything else (the table's game's page then,
        which says it cannot find that game)."""
        if number is None or not number.isdigit():
            return None
        try:
            return games.game(table.store.history_entry(int(number))["game"])
        except KeyError:  # no such game in the history, or a game no longer refereed here
            return None

    @cache
    def fragment(game_id: str) -> Template:
        """A game's markup (its page folder's table.html), compiled once."""
        markup = (games.game(game_id).page / "table.html").read_text(encoding="utf-8")
        return app.jinja_env.from_string(markup)

    @app.get("/")
    def page() -> Response:
        """The shell with the page of the game being played (the default one before any)."""
        lang = language()
        game = watched_game(request.args.get("watch")) or table.game or games.default()
        words = page_words(game, lang)
        response = Response(
            render_template(
                "index.html",
                lang=lang,
                other="es" if lang == "en" else "en",
                text=words,
                text_json=json.dumps(words),
                game=game.id,
                game_page=fragment(game.id),
                advises=game.advise is not None,  # the advisor's link where it has advice
                # the screen beside the table: drawn as a kiosk from the first frame (the
                # shell's script, deferred, would show the PIN and start forms for one)
                kiosk=request.args.get("view") == "table",
                # the camera's view and the setup view, where a camera watches the table
                watched=sights is not None,
                settable=sights is not None and setup_tools is not None,
                # the games whose own board is taught on the setup page (static/teach.js)
                board_games=" ".join(g.id for g in games.games().values() if g.teach_board),
                pip_games=" ".join(g.id for g in games.games().values() if g.teach_pips),
                # each game's colour die's faces, by their names (static/teach_die.js)
                die_faces=json.dumps(_die_faces(lang)),
            )
        )
        if request.args.get("lang") == lang:  # a language the page speaks, asked for
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
        return response

    @app.get("/advisor")
    def advisor() -> Response:
        """The private advisor, one phone's own page: its player's hand stays on it (its
        script keeps it in the tab's sessionStorage and sends it only to ask)."""
        lang = language()
        game = table.game
        words = advisor_words(game, lang)
        response = Response(
            render_template(
                "advisor.html",
                lang=lang,
                other="es" if lang == "en" else "en",
                language=SHELL[lang]["language"],
                text=words,
                text_json=json.dumps(words),
                game=game.id,
                # the game's drawing of its advice, where it has a hidden hand to advise on
                drawing=[name for name in ADVISOR_FILES if (game.page / name).is_file()],
            )
        )
        response.headers["Cache-Control"] = "no-store"
        if request.args.get("lang") == lang:  # as the table's page keeps the choice
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
        return response

    @app.get("/games/<game_id>/<name>")
    def game_file(game_id: str, name: str) -> Response:
        """A file of a game's page folder (its script, its style), cached as /static's are;
        a name the folder does not hold, or a game there is not, is a 404."""
        try:
            folder = games.game(game_id).page
        except KeyError:
            abort(404)
        held = {file.name: file for file in folder.iterdir() if file.is_file()}
        if name not in held:
            abort(404)
        content = held[name].read_bytes()
        return send_file(
            io.BytesIO(content),
            download_name=name,
            etag=hashlib.sha256(content).hexdigest()[:32],
            max_age=app.get_send_file_max_age(name),
        )

    @app.errorhandler(Exception)
    def error(exc: Exception) -> tuple[Response, int]:
        return _error_answer(exc)

    return app


def _die_faces(lang: str) -> dict[str, list[list[str]]]:
    """Each game whose box's colour die is taught on the setup page: its faces, each with
    its name in the game's words in `lang`."""
    faces: dict[str, list[list[str]]] = {}
    for game in games.games().values():
        if game.teach_board is not None and game.teach_board.die_faces:
            names = colours_named(game, lang, {face: face for face in game.teach_board.die_faces})
            faces[game.id] = [[face, names[face]] for face in game.teach_board.die_faces]
    return faces


def _refusal_said(key: str, params: Mapping[str, Any], message: str) -> str | None:
    """A refusal in the request's language as the game at the table says it, the pieces it
    names in words (`Game.refusal_words`); None where the game leaves it to the page."""
    the_table = current_app.extensions["caboose.table"]
    game = the_table.game
    if game.refusal_words is None:
        return None
    return game.refusal_words(the_table.match, key, params, message, language())


def _error_answer(exc: Exception) -> tuple[Response, int]:
    """Every failure as `{"error": {"rule", "message", …}}` with a fitting 4xx, or 500."""
    extra: dict[str, Any] = {}
    if isinstance(exc, ApiError):
        status, rule, message, extra = exc.status, exc.rule, exc.message, exc.extra
    elif isinstance(exc, Refusal):
        # the request's shape; "not now" (the table's state is in the way); "not allowed";
        # no room on the table's disk (507 Insufficient Storage: the server's, not the rules')
        status = 400 if isinstance(exc, Malformed) else 409 if exc.conflict else 422
        if isinstance(exc, UnknownCommand):  # no such command in this game: no such page
            status = 404
        if isinstance(exc, StorageFull):
            status = 507
        rule, message, extra = exc.rule, exc.message, exc.extra
        if exc.key is not None:  # for a page to say it in its language (`refusal_<key>`)
            extra = {**extra, "key": exc.key, "params": exc.params}
            # the shell's own refusals (a full disk) are said by the page's words, not a game
            shells = f"refusal_{exc.key}" in SHELL["en"]
            said = None if shells else _refusal_said(exc.key, exc.params, message)
            if said is not None:  # its cards and spaces in words, as the page says it
                extra["said"] = said
    elif isinstance(exc, RecordProblem):
        status, rule, message, extra = 422, exc.rule, exc.message, {"turn": exc.turn}
        if exc.key is not None:  # as a refusal's: the page says it in its language
            extra = {**extra, "key": exc.key, "params": exc.params}
    elif isinstance(exc, HTTPException):
        status, rule = exc.code or 500, "http"
        message = exc.description or exc.name
        if status == 413:
            message = "the upload is too large: a record is at most a few hundred kB"
    else:
        log.exception("unexpected error on %s %s", request.method, request.path)
        status, rule, message = 500, "internal", "something went wrong on the table's computer"
    answer = jsonify({"error": {"rule": rule, "message": message, **extra}})
    if "retry_after" in extra:
        answer.headers["Retry-After"] = str(extra["retry_after"])
    return answer, status
