"""Teaching the family's own pip dice from the PIN holder's phone: the setup page's "teach
your own dice" step, the page form of `companion enroll --codes pips` for a game whose
camera reads them (its `Game.teach_pips`, a `PipLesson`). The game is `?game=` (the start
form's choice between games), else the game at the table.

- `POST /api/setup/pips` `{"pips": N}`: the one die lying alone on the table in the
  camera's latest frame, showing N pips, learnt (a face shown again replaces the last).
  What is wrong (no die, more than one, the markers unseen) is said in words (the page's
  `TEACH_PIPS`) and nothing is learnt.
- `GET /api/setup/pips/<N>.jpg`: the die as it was cut out for face N (the PIN needed,
  never cached: a camera's picture of a home).
- `POST /api/setup/pips/save` `{}`: once every face from 1 to 6 is learnt, written as
  `companion enroll --codes pips FOLDER` writes them (`pips.json`) into the configured
  catalogue folder (`table.catalogue`), beside whatever else is taught there: the game's
  camera reads them from its next frame.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flask import Blueprint, Response, current_app, jsonify
from flask.typing import ResponseReturnValue

from companion.games.protocol import PipLesson
from companion.vision.annotate import encode_jpeg
from web.api import ApiError, _fields, data, language
from web.board_teach import BoxFolder, box_folder, chosen_game, latest_frame
from web.words import pips_said

teach_pips = Blueprint("teach_pips", __name__, url_prefix="/api")

FACES = range(1, 7)


def _lesson() -> tuple[str, PipLesson]:
    """The game chosen and its pip lesson."""
    game = chosen_game()
    if game.teach_pips is None:
        raise ApiError(404, "setup", f"{game.name} reads no pip dice", key="pips_no_game")
    return game.id, game.teach_pips


def _box() -> BoxFolder:
    return box_folder("pips_no_camera")


def _face(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in FACES:
        raise ApiError(400, "request", "pips is a face's pips, 1 to 6", key="pips_face",
                       fields=["pips"])  # fmt: skip
    return raw


@teach_pips.post("/setup/pips")
def look() -> ResponseReturnValue:
    """The die showing `pips` cut out of the latest frame, and learnt."""
    doc = data()
    _fields(doc, ("pips",))
    pips = _face(doc["pips"])
    game, lesson = _lesson()
    box = _box()
    picture, problem = lesson.learn(latest_frame("pips_waiting"), box.layout)
    lang = language()
    if problem is not None:
        params = dict(problem.params)
        raise ApiError(409, "setup", problem.text, key=problem.key, params=params,
                       said=pips_said(lang, f"refusal_{problem.key}", **params))  # fmt: skip
    jpeg = encode_jpeg(np.ascontiguousarray(picture[..., :3]))
    learnt = current_app.extensions["caboose.pip_lessons"].keep(game, pips, picture, jpeg)
    return jsonify({"learnt": learnt, "said": pips_said(lang, "pips_learnt", n=pips)})


@teach_pips.get("/setup/pips/<int:pips>.jpg")
def picture(pips: int) -> Response:
    """The die as it was cut out for face `pips` (the PIN needed)."""
    game, _ = _lesson()
    learnt = current_app.extensions["caboose.pip_lessons"].learnt(game)
    if pips not in learnt:
        raise ApiError(404, "setup", f"no die has been learnt showing {pips} pips",
                       key="pips_unfinished", params={"missing": pips})  # fmt: skip
    return Response(learnt[pips][1], mimetype="image/jpeg")


@teach_pips.post("/setup/pips/save")
def save() -> ResponseReturnValue:
    """Every face learnt, written into the configured catalogue folder."""
    _fields(data(), ())
    lang = language()
    game, lesson = _lesson()
    box = _box()
    learnt = current_app.extensions["caboose.pip_lessons"].learnt(game)
    missing = [n for n in FACES if n not in learnt]
    if missing:
        listed = ", ".join(str(n) for n in missing)
        raise ApiError(409, "setup", f"faces not learnt yet: {listed}", key="pips_unfinished",
                       params={"missing": listed})  # fmt: skip
    if box.folder is None:
        raise ApiError(409, "setup", "the configuration names no catalogue folder",
                       key="pips_no_folder")  # fmt: skip
    try:
        lesson.save({n: picture for n, (picture, _) in learnt.items()}, box.folder)
    except OSError as error:
        said = pips_said(lang, "pips_not_written", problem=error.strerror or str(error))
        raise ApiError(409, "setup", str(error), key="pips_not_written", said=said) from None
    return jsonify({"said": pips_said(lang, "pips_saved", folder=str(box.folder))})
