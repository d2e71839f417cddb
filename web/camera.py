"""What the camera sees, for the PIN holder's phone: `GET /api/camera.jpg`, the latest frame
with what the game read drawn on it (`Camera.draw`), in the request's language.

A camera in a home is private: the route needs the table's PIN (`web.app` guards it as it
guards the hidden hand), no cache keeps it, and the screen beside the table never asks for
it. Nothing is encoded while no page watches: a frame is drawn and encoded when a phone
asks, and the last encoding is kept per language with the frame's number and the table's
version (the question drawn is the view's), so two phones watching the same frame share one
encoding.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app

from companion import games
from companion.games.protocol import Sight
from companion.vision.annotate import encode_jpeg
from web.api import ApiError, language, table

camera = Blueprint("camera", __name__, url_prefix="/api")

# The latest frame and what was read of it (`FrameLoop.sight`), None before the first
Sights = Callable[[], Sight | None]


class Pictures:
    """The last JPEG encoded in each language, with what it shows: (frame number, game,
    table version). Thread-safe: the page's threads ask at once."""

    def __init__(self, sights: Sights | None) -> None:
        self.sights = sights  # None: no camera over this table (the page alone referees)
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[tuple[int, str, int], bytes]] = {}

    def jpeg(self, lang: str) -> bytes:
        """The latest frame drawn in `lang` as JPEG; ApiError when there is none to show."""
        if self.sights is None:
            raise ApiError(404, "camera", "no camera watches this table", key="camera_none")
        sight = self.sights()
        if sight is None:
            raise ApiError(
                503, "camera", "the camera has given no picture yet", key="camera_waiting"
            )
        the_table = table()
        shows = (sight.number, sight.game, the_table.version)
        with self._lock:  # one encoding of a frame at a time: a second phone waits for it
            kept = self._kept.get(lang)
            if kept is not None and kept[0] == shows:
                return kept[1]
            drawn = _drawn(sight, lang)
            data = encode_jpeg(drawn)
            self._kept[lang] = (shows, data)
        return data


def _drawn(sight: Sight, lang: str) -> object:
    """The frame with what the game read drawn on it (its `Camera.draw`), or as the camera
    gave it for a game that draws nothing (or whose watcher read nothing of it)."""
    game = games.games().get(sight.game)
    draw = game.camera.draw if game is not None and game.camera is not None else None
    if draw is None or sight.reading is None:
        return sight.frame
    the_table = table()
    view: dict[str, Any] = {}
    if the_table.game.id == sight.game:  # the view every page reads, built once a version
        view = json.loads(current_app.extensions["caboose.views"].text(the_table, lang)[1])
    return draw(sight.frame, sight.reading, view, lang)


@camera.get("/camera.jpg")
def picture() -> Response:
    """The latest camera frame with what the game read drawn on it (the PIN needed, never
    cached: `web.app`); 404 where no camera watches the table, 503 before its first frame,
    each with a key the page says in words."""
    pictures: Pictures = current_app.extensions["caboose.pictures"]
    return Response(pictures.jpeg(language()), mimetype="image/jpeg")
