"""The setup page's "teach your colour die" API (web/die_teach.py) for real: the synthetic
table's stand-in box taught into the configured folder, its colour die laid alone beside
the board with each colour up, each face learnt with the die's picture (the PIN's alone),
refused in words where the die is not seen or the board not taught, and saved into the box
as `companion enroll --colour-die` saves it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.games.protocol import Sight
from companion.games.switching import standin
from companion.games.switching.vision import taught
from companion.store import Store
from companion.synthetic import Camera, render
from companion.table import Table
from tests.web.test_board_teach import _frame, looked
from web.app import Settings, create_app
from web.board_teach import BoxFolder
from web.setup import Presses, SetupTools
from web.words import TEACH_BOARD

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}
FACES = ("purple", "cyan", "orange")


@cache
def _box() -> taught.TaughtBox:
    lesson = standin.teaching_table(0)
    return taught.teach(render(lesson.scene, 900, Camera.easy()), lesson.board, standin.TABLE)


@cache
def _die_frame(colour: str) -> np.ndarray:
    return render(standin.die_lesson(colour).scene, 901, Camera.easy())


class Lens:
    """The camera's latest frame, as the frame loop would hand it to the page: the family
    lays the die, the test changes it."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def __call__(self) -> Sight:
        return Sight(self.frame, None, "switching", 1)


def client(tmp_path: Path, folder: Path | None, lens: Lens) -> FlaskClient:
    tools = SetupTools(check=lambda frame, game: None, presses=Presses(()),
                       box=BoxFolder(folder, standin.TABLE))  # fmt: skip
    table = Table(Store(tmp_path / "table.sqlite3"))
    return create_app(table, PIN, Settings(), lens, tools).test_client()


def _taught_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    _box().save(folder)
    return folder


def _look(web: FlaskClient, face: str, lang: str = "en"):
    return web.post(f"/api/setup/die?lang={lang}&game=switching", json={"face": face},
                    headers=HEADERS)  # fmt: skip


def test_each_colour_learnt_beside_the_board_is_saved_into_the_box(tmp_path) -> None:
    folder = _taught_folder(tmp_path)
    lens = Lens(_die_frame(FACES[0]))
    web = client(tmp_path, folder, lens)
    for n, face in enumerate(FACES, 1):
        lens.frame = _die_frame(face)  # the family turns the die
        answer = _look(web, face)
        assert answer.status_code == 200, answer.json
        assert answer.json["learnt"] == sorted(FACES[:n])
        assert answer.json["said"] == f"Learnt: the die with the {face} up."
    picture = web.get("/api/setup/die/cyan.jpg?game=switching", headers=HEADERS)
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert "no-store" in picture.headers["Cache-Control"]
    assert web.get("/api/setup/die/cyan.jpg?game=switching").status_code == 401  # no PIN
    answer = web.post("/api/setup/die/save?lang=en&game=switching", json={}, headers=HEADERS)
    assert answer.status_code == 200, answer.json
    assert str(folder) in answer.json["said"]
    box = taught.TaughtBox.load(folder)
    assert set(box.dice) == set(FACES)  # read by these from the next start
    assert box.board.document() == _box().board.document()  # the board as it was taught


def test_before_the_board_is_taught_the_die_is_refused_in_words(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "empty", Lens(_die_frame("purple")))
    answer = _look(web, "purple", "es")
    assert answer.status_code == 409
    assert answer.json["error"]["said"] == TEACH_BOARD["es"]["die_no_box"]


def test_a_die_not_seen_beside_the_board_is_said_and_nothing_learnt(tmp_path) -> None:
    folder = _taught_folder(tmp_path)
    no_die = render(standin.teaching_table(0).scene, 901, Camera.easy())
    web = client(tmp_path, folder, Lens(no_die))
    answer = _look(web, "orange", "es")
    assert answer.status_code == 409
    said = answer.json["error"]["said"]
    assert said.startswith("La cámara no pudo aprender este color")
    assert "naranja" in said and "orange" not in said  # the colour in the page's words
    answer = web.post("/api/setup/die/save?lang=es&game=switching", json={}, headers=HEADERS)
    assert answer.status_code == 409
    assert answer.json["error"]["said"] == TEACH_BOARD["es"]["refusal_die_unfinished"].format(
        missing="morado, cian, naranja"
    )


def test_a_face_like_one_learnt_before_is_refused_naming_both_colours(tmp_path) -> None:
    folder = _taught_folder(tmp_path)
    lens = Lens(_die_frame("purple"))
    web = client(tmp_path, folder, lens)
    assert _look(web, "purple").status_code == 200
    answer = _look(web, "cyan")  # the die still shows purple
    assert answer.status_code == 409
    said = answer.json["error"]["said"]
    assert "with the cyan up looks too like it with the purple up" in said


@pytest.mark.parametrize("face", ["green", 3, None])
def test_a_face_that_is_no_colour_of_the_die_is_refused(tmp_path, face) -> None:
    web = client(tmp_path, _taught_folder(tmp_path), Lens(_die_frame("purple")))
    answer = _look(web, face)
    assert answer.status_code == 400
    assert answer.json["error"]["key"] == "die_face"


def test_every_word_of_teaching_the_die_is_said_and_every_word_said_is_there() -> None:
    """The step asks for its words by name (`t("die_…")`, `text.die_…`), the API and the
    game name its refusals' (`key="die_…"`, said as `refusal_<key>` or by `said`): each is
    in the page's words, in both languages, and none of the die's words is left unsaid."""
    root = Path(__file__).resolve().parents[2]
    named = {
        "web/static/teach_die.js": r'\bt\("(die_[a-z_]+)"',
        "web/templates/index.html": r"\btext\.(die_[a-z_]+)",
        "web/die_teach.py": r'teach_said\(\s*lang, "((?:refusal_)?die_[a-z_]+)"',
        "companion/games/switching/vision/enrolment.py": r'"(die_[a-z_]+)"',  # BoardProblem's
        "companion/games/switching/vision/taught.py": r'TeachError\(\s*"(die_[a-z_]+)"',
    }
    asked = {key for path, pattern in named.items()
             for key in re.findall(pattern, (root / path).read_text())}  # fmt: skip
    refused = re.findall(r'(?:key=|latest_frame\(|box_folder\()"(die_[a-z_]+)"',
                         (root / "web/die_teach.py").read_text())  # fmt: skip
    asked |= {f"refusal_{key}" for key in refused}
    die = ("die_", "refusal_die_")
    assert asked == {k for k in TEACH_BOARD["en"] if k.startswith(die)}
    assert asked == {k for k in TEACH_BOARD["es"] if k.startswith(die)}


def test_a_board_taught_anew_forgets_the_faces_learnt_beside_the_old_one(tmp_path) -> None:
    # the faces' colours are balanced by the board's light: learnt again beside the new one
    folder = _taught_folder(tmp_path)
    lens = Lens(_die_frame("purple"))
    web = client(tmp_path, folder, lens)
    assert _look(web, "purple").json["learnt"] == ["purple"]
    lens.frame = _frame()  # the box laid out to be taught again
    board = looked(web)["board"]
    saved = web.post("/api/setup/board/save?lang=en&game=switching", json={"board": board},
                     headers=HEADERS)  # fmt: skip
    assert saved.status_code == 200, saved.json
    lens.frame = _die_frame("cyan")
    assert _look(web, "cyan").json["learnt"] == ["cyan"]
