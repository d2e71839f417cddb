"""Seats on phones: a player's own phone becomes their seat's, and alone sees that seat's
hidden hand.

The PIN holder's page asks for a seat's code (`POST /api/seats/invite`, with the PIN): a
QR code of the page's address for a phone (`web.join`) carrying a one-time invite after
`#seat=`. A fragment never reaches the server in a request line, so the invite is in
no log; the phone's page reads it, drops it from the address bar and trades it
(`POST /api/seats/join`, no PIN) for the seat's token, which it keeps in its localStorage and
sends as `X-Seat-Token` to read its hand (`GET /api/seat/hand`). A used invite, or one older
than `INVITE_SECONDS`, is worth nothing: a photo of the code taken later opens no seat.

A token is that phone's secret: random (`secrets.token_urlsafe`), compared in constant
time, never logged, never in any view; a seat has at most one (a second phone joining
replaces the first), and the PIN holder can forget it (`POST /api/seats/forget`),
after which the old token is refused (401) with words saying to scan again.

Tokens belong to one game (its number in the store): seats are indexes into that game's
players, which a new game may order differently, so a new game needs its seats joined
again. They are kept in memory only: a restarted service forgets them and the phones scan
again, which is simpler and safer than keeping phones' secrets on the table's disk.

Once a seat has a phone, the PIN holder's `GET /api/hand` no longer gives that seat's hand
(`holds`): it is said to be on that phone instead.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from web.api import ApiError, Views, _fields, data, language, table
from web.join import no_phone, phone_base, qr_data
from web.words import join_words

SEAT_HEADER = "X-Seat-Token"
INVITE_SECONDS = 600.0  # a seat's code stays good this long, once

seats = Blueprint("seats", __name__, url_prefix="/api")


@dataclass(frozen=True)
class Invite:
    game: int
    seat: int
    until: float  # time.monotonic() after which it is worth nothing


class Seats:
    """The phones that hold a seat of the game being played, by their tokens, and the
    invites not yet used. Thread-safe: waitress serves several phones at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._phones: dict[tuple[int, int], str] = {}  # (game, seat) -> token
        self._invites: dict[str, Invite] = {}

    def invite(self, game: int, seat: int) -> str:
        """A new one-time invite to `seat` of `game` (an older invite to that seat, and
        anything of another game, is dropped)."""
        code = secrets.token_urlsafe(16)
        now = time.monotonic()
        with self._lock:
            self._invites = {
                c: i
                for c, i in self._invites.items()
                if i.game == game and i.seat != seat and i.until > now
            }
            self._invites[code] = Invite(game, seat, now + INVITE_SECONDS)
            self._phones = {key: token for key, token in self._phones.items() if key[0] == game}
        return code

    def join(self, code: str, game: int) -> tuple[int, str] | None:
        """(seat, new token) for a good invite of `game`, used up here; the seat's former
        phone, if any, no longer holds it. None for an unknown, used or old invite."""
        now = time.monotonic()
        with self._lock:
            found = next(
                (c for c in self._invites if hmac.compare_digest(c.encode(), code.encode())), None
            )
            invite = self._invites.pop(found) if found is not None else None
            if invite is None or invite.game != game or invite.until <= now:
                return None
            token = secrets.token_urlsafe(24)
            self._phones[(game, invite.seat)] = token
            return invite.seat, token

    def seat_of(self, token: str, game: int) -> int | None:
        """The seat of `game` whose phone holds `token`, else None; every token is compared,
        in constant time, so the answer's time tells nothing of a near miss."""
        found = None
        with self._lock:
            for (held_game, seat), held in self._phones.items():
                if hmac.compare_digest(held.encode(), token.encode()) and held_game == game:
                    found = seat
        return found

    def forget(self, game: int, seat: int) -> None:
        with self._lock:
            self._phones.pop((game, seat), None)
            self._invites = {
                c: i for c, i in self._invites.items() if (i.game, i.seat) != (game, seat)
            }

    def holds(self, game: int) -> set[int]:
        """The seats of `game` that have a phone."""
        with self._lock:
            return {seat for held_game, seat in self._phones if held_game == game}


def registry() -> Seats:
    return current_app.extensions["caboose.seats"]


def _players() -> tuple[int | None, list[dict[str, Any]]]:
    """The game's number in the store (None before any game, or in a game with no hidden
    hand, where a seat's phone would have nothing of its own to show) and its seats a
    person plays (the companion's own, Laura, has no phone), read from the view every page
    reads."""
    views: Views = current_app.extensions["caboose.views"]
    doc = json.loads(views.text(table(), "en")[1])
    if doc.get("game") is None or table().game.hand is None:
        return None, []
    players = [p for p in doc.get("players") or [] if not p.get("laura")]
    return table().match.id, players


def _seat(seat: Any) -> tuple[int, dict[str, Any]]:
    """The game and the player of `seat` (a request's field), or a refusal saying why
    there is none: not a seat's number (400), no game with hidden hands (409), nobody there
    (422)."""
    words = join_words(language())
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise ApiError(400, "request", words["seat_unknown"], key="seat_unknown", fields=["seat"])
    game, players = _players()
    if game is None:
        key = "seat_no_hand" if table().game.hand is None else "seat_no_game"
        raise ApiError(409, "seat", words[key], key=key)
    player = next((p for p in players if p.get("seat") == seat), None)
    if player is None:
        raise ApiError(422, "seat", words["seat_unknown"], key="seat_unknown", fields=["seat"])
    return game, player


def _seat_asked() -> tuple[int, int, dict[str, Any]]:
    """The seat a request's body names (`{"seat": n}`, nothing else): its number, the game
    and its player."""
    doc = data()
    _fields(doc, ("seat",))
    game, player = _seat(doc["seat"])
    return doc["seat"], game, player


@seats.get("/seats")
def list_seats() -> Response:
    """Each seat a person plays and whether a phone holds it (no token: open to every page)."""
    game, players = _players()
    held = registry().holds(game) if game is not None else set()
    return jsonify(
        {
            "game": game,
            "seats": [
                {"seat": p["seat"], "name": p["name"], "phone": p["seat"] in held} for p in players
            ],
        }
    )


@seats.post("/seats/invite")
def invite() -> Response:
    """A seat's one-time code, for its player's phone to scan (PIN needed: `web.app`)."""
    seat, game, player = _seat_asked()
    base = phone_base(request.host)
    if base is None:
        raise ApiError(409, "seat", join_words(language())[no_phone()], key=no_phone())
    url = f"{base}#seat={registry().invite(game, seat)}"
    # kept by no cache: web.app.PRIVATE
    return jsonify({"seat": seat, "name": player["name"], "url": url, "qr": qr_data(url)})


@seats.post("/seats/forget")
def forget() -> Response:
    """The seat's phone forgotten (PIN needed: `web.app`): its token is refused from now."""
    seat, game, _ = _seat_asked()
    registry().forget(game, seat)
    return list_seats()


@seats.post("/seats/join")
def join_seat() -> Response:
    """An invite traded for the seat's token (no PIN: the invite is the proof)."""
    doc = data()
    _fields(doc, ("invite",))
    code = doc["invite"]
    words = join_words(language())
    if not isinstance(code, str):
        raise ApiError(400, "request", words["seat_code_used"], fields=["invite"])
    game, _ = _players()
    joined = registry().join(code, game) if game is not None else None
    if joined is None:
        raise ApiError(403, "seat", words["seat_code_used"], key="seat_code_used")
    seat, token = joined
    _, player = _seat(seat)
    # kept by no cache: web.app.PRIVATE
    return jsonify({"seat": seat, "name": player["name"], "game": game, "token": token})


@seats.get("/seat/hand")
def seat_hand() -> Response:
    """The hand of the seat this phone holds (`X-Seat-Token`): `shown` None while the
    companion has none of it to show (a real table's deal, another's turn in a game with
    one hand); 401 with words to scan again when the token is no seat's (forgotten, or
    of another game)."""
    lang = language()
    words = join_words(lang)
    token = request.headers.get(SEAT_HEADER, "")
    game, players = _players()
    seat = registry().seat_of(token, game) if token and game is not None else None
    # (a seat of no player read: a new game began between the two reads)
    player = next((p for p in players if p["seat"] == seat), None)
    if seat is None or player is None:
        raise ApiError(401, "seat", words["seat_forgotten"], key="seat_forgotten")
    shown = table().hand(lang, seat)
    if shown is not None and shown.get("number") != game:
        shown = None  # another game began between the two reads
    boot = current_app.extensions["caboose.views"].boot
    # kept by no cache: web.app.PRIVATE
    return jsonify(
        {"seat": seat, "name": player["name"], "game": game, "shown": shown, "boot": boot}
    )
