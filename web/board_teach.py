"""Teaching a game's own board from the PIN holder's phone: the setup page's "teach your
board" step, the page form of `companion enroll` for a game whose box's board the camera
learns (its `Game.teach_board`, a `BoardLesson`). The game is `?game=` (the start form's
choice between games), else the game at the table.

- `POST /api/setup/board` `{"size": [W, H]}` (the board's mm): the camera's latest frame
  is kept, the board lying square among the table's markers cut out of it and its board
  file proposed by the game.
- `GET /api/setup/board.jpg`: that cut-out picture (the PIN needed, never cached: a
  camera's picture of a home).
- `POST /api/setup/board/save` `{"board": {...}}`: the board file as the family corrected
  it, checked, taught from the kept frame and written as `companion enroll --game GAME
  FOLDER` writes FOLDER, into the configured catalogue folder (`table.catalogue`, which
  `companion run` reads at its next start: each game's camera reads its own there, so a
  deck of another game taught into it before stays read). What is wrong is said in words (the
  page's `TEACH_BOARD`), with the spaces and tracks to highlight.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from flask import Blueprint, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion import games
from companion.games.protocol import BoardLesson, BoardProblem
from companion.vision.annotate import encode_jpeg
from companion.vision.table import TableLayout
from web.api import ApiError, _fields, data, language, table
from web.words import teach_said

teach_board = Blueprint("teach_board", __name__, url_prefix="/api")

_SIZES = (100.0, 3000.0)  # a board's side in mm, as `companion enroll --size` takes it


@dataclass(frozen=True)
class BoxFolder:
    """Where the setup page writes a taught box: the configured catalogue folder (None:
    the configuration names none) and the table's markers' layout."""

    folder: Path | None
    layout: TableLayout


@dataclass(frozen=True)
class _Looked:
    """The frame the family marks the board on, for the game it was cut out for."""

    game: str
    frame: np.ndarray
    jpeg: bytes


class BoardLessons:
    """The board being marked, shared by the PIN holder's phones."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._looked: _Looked | None = None

    def keep(self, looked: _Looked) -> None:
        with self._lock:
            self._looked = looked

    def looked(self) -> _Looked:
        with self._lock:
            looked = self._looked
        if looked is None:
            raise ApiError(409, "setup", "no board has been looked at yet", key="board_none")
        return looked


class FacesLearnt:
    """A die's faces learnt so far on the setup page (web/pips_teach.py's pip dice,
    web/die_teach.py's colour die), for the game they were learnt for, shared by the PIN
    holder's phones: each face's lesson as the game keeps it, and its picture as the page
    shows it (JPEG)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game: str | None = None
        self._learnt: dict[Any, tuple[Any, bytes]] = {}

    def keep(self, game: str, face: Any, lesson: Any, jpeg: bytes) -> list[Any]:
        """Face `face` learnt for `game` (another game's faces are forgotten); every face
        learnt now."""
        with self._lock:
            if game != self._game:
                self._game, self._learnt = game, {}
            self._learnt[face] = (lesson, jpeg)
            return sorted(self._learnt)

    def learnt(self, game: str) -> dict[Any, tuple[Any, bytes]]:
        with self._lock:
            return dict(self._learnt) if game == self._game else {}

    def forget(self) -> None:
        """Every face learnt (a board taught anew lights the colour die anew: its faces'
        colours are white-balanced as the box's pieces are)."""
        with self._lock:
            self._game, self._learnt = None, {}


def chosen_game() -> games.Game:
    """The game the table is set up for: `?game=` (the start form's choice between games),
    else the table's."""
    wanted = request.args.get("game") or table().game.id
    try:
        return games.game(wanted)
    except KeyError as error:
        raise ApiError(400, "request", error.args[0], fields=["game"]) from None


def box_folder(no_camera: str) -> BoxFolder:
    """Where a taught box goes at this table; refused with the key `no_camera` (the
    step's own words) where no camera watches it."""
    tools = current_app.extensions["caboose.setup"].tools
    box: BoxFolder | None = None if tools is None else tools.box
    if box is None:
        raise ApiError(404, "setup", "no camera watches this table", key=no_camera)
    return box


def latest_frame(waiting: str) -> np.ndarray:
    """A copy of the camera's latest frame (the frame loop's is never written to); refused
    with the key `waiting` (the step's own words) before the camera has given one."""
    sights = current_app.extensions["caboose.pictures"].sights
    sight = None if sights is None else sights()
    if sight is None:
        raise ApiError(503, "camera", "the camera has given no picture yet", key=waiting)
    return np.array(sight.frame)


def colours_named(game: games.Game, lang: str, params: Mapping[str, str]) -> dict[str, str]:
    """Each colour among `params` by its name in `game`'s words in `lang`."""
    words = game.words(lang)
    return {name: words.get(f"colour_{value}", value) for name, value in params.items()}


def problem_said(game: games.Game, lang: str, problem: BoardProblem) -> str:
    """What is wrong with a board or its pieces in the page's words: its key's sentence,
    with the detail (`why`) said in the page's words too, each colour by its name."""
    detail = str(problem)
    if problem.why is not None:
        key, params = problem.why
        detail = teach_said(lang, key, **colours_named(game, lang, params))
    return teach_said(lang, problem.key, problem=detail)


def _lesson() -> tuple[str, BoardLesson]:
    """The game chosen and its board lesson."""
    game = chosen_game()
    if game.teach_board is None:
        raise ApiError(404, "setup", f"{game.name} has no board to teach", key="board_no_game")
    return game.id, game.teach_board


def _box() -> BoxFolder:
    return box_folder("board_no_camera")


def _size(raw: Any) -> tuple[float, float]:
    ok = (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
        and all(_SIZES[0] <= v <= _SIZES[1] for v in raw)
    )
    if not ok:
        raise ApiError(400, "request", "the board's size is [width, height] in mm, 100 to 3000",
                       key="board_size", fields=["size"])  # fmt: skip
    return float(raw[0]), float(raw[1])


@teach_board.post("/setup/board")
def look() -> ResponseReturnValue:
    """The board cut out of the latest frame, and the board file proposed for it."""
    doc = data()
    _fields(doc, ("size",))
    size = _size(doc["size"])
    game, lesson = _lesson()
    box = _box()
    frame = latest_frame("board_waiting")
    seen = lesson.look(frame, size, box.layout)
    if seen is None:
        raise ApiError(409, "setup", "the board's outline is not seen", key="board_unseen")
    picture, board, fitted = seen
    current_app.extensions["caboose.board_lessons"].keep(_Looked(game, frame, encode_jpeg(picture)))
    said = teach_said(language(), "board_fitted" if fitted else "board_unfitted")
    return jsonify({"board": board, "fitted": fitted, "said": said})


@teach_board.get("/setup/board.jpg")
def picture() -> Response:
    """The board as it was cut out of the frame being marked (the PIN needed)."""
    return Response(current_app.extensions["caboose.board_lessons"].looked().jpeg,
                    mimetype="image/jpeg")  # fmt: skip


@teach_board.post("/setup/board/save")
def save() -> ResponseReturnValue:
    """The corrected board file checked, the box taught with it and written."""
    doc = data()
    _fields(doc, ("board",))
    if not isinstance(doc["board"], dict):
        raise ApiError(400, "request", "the board is a board file's JSON object",
                       key="board_object", fields=["board"])  # fmt: skip
    lang = language()
    game, lesson = _lesson()
    box = _box()
    looked = current_app.extensions["caboose.board_lessons"].looked()
    if looked.game != game:
        raise ApiError(409, "setup", "the board looked at is another game's", key="board_none")
    if box.folder is None:
        raise ApiError(409, "setup", "the configuration names no catalogue folder",
                       key="board_no_folder")  # fmt: skip
    folder = box.folder
    try:
        lesson.save(looked.frame, doc["board"], box.layout, folder)
    except BoardProblem as problem:
        said = problem_said(games.game(game), lang, problem)
        raise ApiError(409, "board", str(problem), key=problem.key, said=said,
                       marks=list(problem.marks)) from None  # fmt: skip
    except OSError as error:
        said = teach_said(lang, "board_not_written", problem=error.strerror or str(error))
        raise ApiError(409, "setup", str(error), key="board_not_written", said=said) from None
    current_app.extensions["caboose.die_lessons"].forget()  # learnt beside the board before
    return jsonify({"said": teach_said(lang, "board_saved", folder=str(folder))})
