"""Teaching a board game's own colour die from the PIN holder's phone: the setup page's
"teach your colour die" step, the page form of `companion enroll --colour-die`, once the
board is taught (web/board_teach.py: its `BoardLesson` names the die's faces,
`die_faces`). The game is `?game=` (the start form's choice), else the game at the table.

- `POST /api/setup/die` `{"face": COLOUR}`: the die lying alone beside the taught board in
  the camera's latest frame, showing that colour, learnt (told apart from the trains and
  the faces learnt before; a face shown again replaces the last). What is wrong (no board
  taught yet, the die not seen alone, a colour too like another) is said in words (the
  page's `TEACH_BOARD`) and nothing is learnt.
- `GET /api/setup/die/<COLOUR>.jpg`: the die as the camera saw it for that face (the PIN
  needed, never cached: a camera's picture of a home).
- `POST /api/setup/die/save` `{}`: once every face is learnt, added to the box in the
  configured catalogue folder (`table.catalogue`): the game's camera reads the die by them
  from its next frame.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify
from flask.typing import ResponseReturnValue

from companion import games
from companion.games.protocol import BoardLesson, BoardProblem
from companion.vision.annotate import encode_jpeg
from web.api import ApiError, _fields, data, language
from web.board_teach import box_folder, chosen_game, colours_named, latest_frame, problem_said
from web.words import teach_said

teach_die = Blueprint("teach_die", __name__, url_prefix="/api")


def _lesson() -> tuple[games.Game, BoardLesson]:
    """The game chosen and its board lesson, which names the die's faces."""
    game = chosen_game()
    lesson = game.teach_board
    if lesson is None or not lesson.die_faces:
        raise ApiError(404, "setup", f"{game.name} has no colour die to teach", key="die_no_game")
    return game, lesson


def _refused(game: games.Game, lang: str, problem: BoardProblem) -> ApiError:
    """The die's problem said in the page's words, a colour by its name."""
    if problem.key == "die_no_box":
        said = teach_said(lang, "die_no_box")
    else:
        said = problem_said(game, lang, problem)
    return ApiError(409, "setup", str(problem), key=problem.key, said=said)


@teach_die.post("/setup/die")
def look() -> ResponseReturnValue:
    """The die showing `face` read beside the taught board in the latest frame, and learnt."""
    doc = data()
    _fields(doc, ("face",))
    face = doc["face"]
    if not isinstance(face, str):
        raise ApiError(400, "request", "face is one of the die's colours", key="die_face",
                       fields=["face"])  # fmt: skip
    game, lesson = _lesson()
    if face not in lesson.die_faces:
        raise ApiError(400, "request", f"face is one of {', '.join(lesson.die_faces)}",
                       key="die_face", fields=["face"])  # fmt: skip
    box = box_folder("die_no_camera")
    lang = language()
    if box.folder is None:
        raise ApiError(409, "setup", "the configuration names no catalogue folder",
                       key="die_no_folder")  # fmt: skip
    lessons = current_app.extensions["caboose.die_lessons"]
    learnt = {f: hue for f, (hue, _) in lessons.learnt(game.id).items() if f != face}
    try:
        hue, picture = lesson.learn_die(latest_frame("die_waiting"), face, learnt, box.layout,
                                        box.folder)  # fmt: skip
    except BoardProblem as problem:
        raise _refused(game, lang, problem) from None
    faces = lessons.keep(game.id, face, hue, encode_jpeg(picture))
    colour = colours_named(game, lang, {"colour": face})
    return jsonify({"learnt": faces, "said": teach_said(lang, "die_learnt", **colour)})


@teach_die.get("/setup/die/<face>.jpg")
def picture(face: str) -> Response:
    """The die as the camera saw it for `face` (the PIN needed)."""
    game, _ = _lesson()
    learnt = current_app.extensions["caboose.die_lessons"].learnt(game.id)
    if face not in learnt:
        raise ApiError(404, "setup", f"the die has not been learnt showing {face}",
                       key="die_unfinished", params={"missing": face})  # fmt: skip
    return Response(learnt[face][1], mimetype="image/jpeg")


@teach_die.post("/setup/die/save")
def save() -> ResponseReturnValue:
    """Every face learnt, added to the box in the configured catalogue folder."""
    _fields(data(), ())
    lang = language()
    game, lesson = _lesson()
    box = box_folder("die_no_camera")
    learnt = current_app.extensions["caboose.die_lessons"].learnt(game.id)
    missing = [face for face in lesson.die_faces if face not in learnt]
    if missing:
        names = colours_named(game, lang, {face: face for face in missing})
        listed = ", ".join(names[face] for face in missing)
        raise ApiError(409, "setup", f"faces not learnt yet: {', '.join(missing)}",
                       key="die_unfinished", params={"missing": listed},
                       said=teach_said(lang, "refusal_die_unfinished", missing=listed))  # fmt: skip
    if box.folder is None:
        raise ApiError(409, "setup", "the configuration names no catalogue folder",
                       key="die_no_folder")  # fmt: skip
    try:
        lesson.save_dice({face: hue for face, (hue, _) in learnt.items()}, box.folder)
    except BoardProblem as problem:
        raise _refused(game, lang, problem) from None
    except OSError as error:
        said = teach_said(lang, "board_not_written", problem=error.strerror or str(error))
        raise ApiError(409, "setup", str(error), key="board_not_written", said=said) from None
    return jsonify({"said": teach_said(lang, "die_saved", folder=str(box.folder))})
