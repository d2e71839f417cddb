"""The setup page's "teach your board" API (web/board_teach.py) for real: the synthetic
table's stand-in box under the camera, the board cut out and proposed, the family's
corrections checked as the board tool checks a file (refused in words, naming where) and
the taught box written to the configured folder, read back as `companion enroll` writes it."""

from __future__ import annotations

import copy
import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.games.protocol import Sight
from companion.games.switching import standin
from companion.games.switching.board import Lie
from companion.games.switching.vision.taught import TaughtBox
from companion.store import Store
from companion.synthetic import Camera, render
from companion.table import Table
from web.app import Settings, create_app
from web.board_teach import BoxFolder
from web.setup import Presses, SetupTools
from web.words import TEACH_BOARD

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}
SIZE = [560, 560]  # the stand-in board's, mm


@cache
def _frame() -> np.ndarray:
    return render(standin.teaching_table(0).scene, 900, Camera.easy())


@cache
def _panels_away() -> np.ndarray:
    """The stand-in box with its purple panel in the empty slot, not at home."""
    box = standin.board()
    lie = tuple(Lie("SE") if lie.slot == "NW" else lie for lie in box.home)
    shown = standin.teaching_table(0)
    scene = standin.table_scene(box, shown.pose, lie, shown.trains, None, np.random.default_rng(0))
    return render(scene, 900, Camera.easy())


def client(tmp_path: Path, folder: Path | None, frame: np.ndarray | None = None) -> FlaskClient:
    tools = SetupTools(check=lambda frame, game: None, presses=Presses(()),
                       box=BoxFolder(folder, standin.TABLE))  # fmt: skip
    shown = _frame() if frame is None else frame
    sights = lambda: Sight(shown, None, "switching", 1)  # noqa: E731
    table = Table(Store(tmp_path / "table.sqlite3"))
    return create_app(table, PIN, Settings(), sights, tools).test_client()


def looked(web: FlaskClient) -> dict:
    answer = web.post(
        "/api/setup/board?lang=en&game=switching", json={"size": SIZE}, headers=HEADERS
    )
    assert answer.status_code == 200, answer.json
    return answer.json


def test_the_board_s_picture_needs_the_pin_and_is_never_cached(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "box")
    assert web.post("/api/setup/board?game=switching", json={"size": SIZE}).status_code == 401
    looked(web)
    assert web.get("/api/setup/board.jpg").status_code == 401
    answer = web.get("/api/setup/board.jpg", headers=HEADERS)
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg"
    assert answer.headers["Cache-Control"] == "no-store"
    picture = cv2.imdecode(np.frombuffer(answer.data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (560, 560)  # the board cut out at 1 px/mm


def test_the_proposal_is_fitted_to_the_board_seen_and_said_in_words(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "box")
    answer = looked(web)
    assert answer["fitted"] and answer["said"] == TEACH_BOARD["en"]["board_fitted"]
    truth = standin.board()
    for space in ("A1", "C3"):  # where the stand-in box's board has them, within 4 mm
        proposed = next(s for t in answer["board"]["tracks"] for s in t["spaces"] if s[0] == space)
        assert np.hypot(*(np.array(proposed[1:]) - truth.spaces[space].at)) < 4.0


def _space(doc: dict, name: str) -> list:
    return next(s for t in doc["tracks"] for s in t["spaces"] if s[0] == name)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_space_moved_off_the_board_is_refused_in_words_and_highlighted(tmp_path, lang) -> None:
    folder = tmp_path / "box"
    web = client(tmp_path, folder)
    doc = copy.deepcopy(looked(web)["board"])
    _space(doc, "B2")[1] = 900.0  # tapped past the board's edge
    answer = web.post(
        f"/api/setup/board/save?lang={lang}&game=switching", json={"board": doc}, headers=HEADERS
    )
    assert answer.status_code == 409
    error = answer.json["error"]
    assert error["said"] == TEACH_BOARD[lang]["board_off"]
    assert "B2" in error["marks"] and "B" in error["marks"]
    assert not folder.exists()  # nothing written


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("move", "key", "marks"),
    [
        ({"SE": [500.0, 500.0]}, "board_slot_off", ["SE"]),  # past the board's corner
        ({"SE": None}, "board_slots_overlap", ["NW", "SE"]),  # onto the top left slot
    ],
)
def test_a_slot_off_the_board_or_over_another_is_refused_in_words(
    tmp_path, lang, move, key, marks
) -> None:
    folder = tmp_path / "box"
    web = client(tmp_path, folder)
    doc = copy.deepcopy(looked(web)["board"])
    at = doc["slots"]["at"]
    at["SE"] = move["SE"] or [v - 10.0 for v in at["NW"]]
    answer = web.post(
        f"/api/setup/board/save?lang={lang}&game=switching", json={"board": doc}, headers=HEADERS
    )
    assert answer.status_code == 409
    error = answer.json["error"]
    assert error["key"] == key and error["said"] == TEACH_BOARD[lang][key]
    assert sorted(error["marks"]) == marks
    assert not folder.exists()  # nothing written


def test_a_board_without_a_start_says_what_to_mark(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "box")
    doc = copy.deepcopy(looked(web)["board"])
    for track in doc["tracks"]:
        if track["from"] == "start":
            track["from"] = "dead end"
    answer = web.post(
        "/api/setup/board/save?lang=es&game=switching", json={"board": doc}, headers=HEADERS
    )
    assert answer.status_code == 409
    assert answer.json["error"]["said"] == TEACH_BOARD["es"]["board_no_start"]


def test_the_corrected_board_is_taught_and_written_where_the_configuration_says(tmp_path) -> None:
    catalogue = tmp_path / "box"
    (catalogue / "catalogue.json").parent.mkdir()
    (catalogue / "catalogue.json").write_text("{}")  # a Caboose deck taught there before
    folder = catalogue  # beside the deck: each game's camera reads its own there
    web = client(tmp_path, catalogue)
    doc = copy.deepcopy(looked(web)["board"])
    _space(doc, "A3")[1] += 3.0  # the family nudged a space onto their board's
    answer = web.post(
        "/api/setup/board/save?lang=en&game=switching", json={"board": doc}, headers=HEADERS
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["said"] == TEACH_BOARD["en"]["board_saved"].format(folder=folder)
    box = TaughtBox.load(folder)
    assert box.board.document() == doc
    assert (folder / "preview-switching.png").is_file()
    assert (catalogue / "catalogue.json").read_text() == "{}"  # the deck left as it was


def test_without_a_catalogue_folder_nothing_is_written_and_the_page_says_why(tmp_path) -> None:
    web = client(tmp_path, None)
    doc = looked(web)["board"]
    answer = web.post("/api/setup/board/save?game=switching", json={"board": doc}, headers=HEADERS)
    assert answer.status_code == 409 and answer.json["error"]["key"] == "board_no_folder"
    assert (
        "refusal_board_no_folder" in TEACH_BOARD["en"]
        and "refusal_board_no_folder" in TEACH_BOARD["es"]
    )


def test_a_size_that_is_no_board_is_refused(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "box")
    for size in ([0, 560], "560x560", [560]):
        answer = web.post("/api/setup/board?game=switching", json={"size": size}, headers=HEADERS)
        assert answer.status_code == 400 and answer.json["error"]["key"] == "board_size"


def test_a_game_without_a_board_to_teach_is_refused_in_words(tmp_path) -> None:
    web = client(tmp_path, tmp_path / "box")
    answer = web.post("/api/setup/board?game=caboose", json={"size": SIZE}, headers=HEADERS)
    assert answer.status_code == 404 and answer.json["error"]["key"] == "board_no_game"


def test_every_word_of_teaching_a_board_is_said_and_every_word_said_is_there() -> None:
    """The step asks for its words by name (`t("board_…")`, `text.board_…`), the API and
    the game name the refusals' (`key="board_…"`, said as `refusal_<key>` or by `said`):
    each is in the block, in both languages, and nothing in it is left unsaid."""
    root = Path(__file__).resolve().parents[2]
    named = {  # where each word is asked for, and how
        "web/static/teach.js": (r'\bt\("(board_[a-z_]+)"', r'boardSay\("(board_[a-z_]+)"'),
        "web/templates/index.html": (r"\btext\.(board_[a-z_]+)",),
        "web/board_teach.py": (r'teach_said\(\s*lang, "(board_[a-z_]+)"', r'"(board_\w*fitted)"'),
        # the game's BoardProblem keys, and the check's problems it names
        "companion/games/switching/vision/enrolment.py": (
            r'"(board_[a-z_]+)"\)',
            r'BoardProblem\([^"]*"(board_[a-z_]+)"',
            r'^    \("[^"]+", "(board_[a-z_]+)"\)',
        ),
        # why the camera could not learn the box, said inside board_not_taught
        "companion/games/switching/vision/taught.py": (r'TeachError\(\s*"(board_[a-z_]+)"',),
    }
    asked = {"board_wrong"}  # what the check says of a problem the game does not name
    for path, patterns in named.items():
        text = (root / path).read_text()
        asked |= {key for pattern in patterns for key in re.findall(pattern, text, re.M)}
    refused = re.findall(r'(?:key=|latest_frame\(|box_folder\()"(board_[a-z_]+)"',
                         (root / "web/board_teach.py").read_text())  # fmt: skip
    asked |= {f"refusal_{key}" for key in refused if key != "board_not_written"}  # its `said`
    board = {key for key in TEACH_BOARD["en"] if not key.startswith(DIE_WORDS)}
    assert asked == board == {k for k in TEACH_BOARD["es"] if not k.startswith(DIE_WORDS)}


DIE_WORDS = ("die_", "refusal_die_")  # the colour die's step's (tests/web/test_die_teach.py)


def test_panels_not_where_our_layout_puts_them_still_show_the_board_to_mark(tmp_path) -> None:
    """The board is cut out all the same and our layout proposed at its size, for the family
    to move onto theirs; saving it as it lies says in words that the box was not learnt."""
    web = client(tmp_path, tmp_path / "box", _panels_away())
    answer = looked(web)
    assert not answer["fitted"] and answer["said"] == TEACH_BOARD["en"]["board_unfitted"]
    assert answer["board"]["size"] == SIZE
    picture = web.get("/api/setup/board.jpg", headers=HEADERS)
    assert cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (
        560,
        560,
    )
    saved = web.post(
        "/api/setup/board/save?lang=es&game=switching",
        json={"board": answer["board"]},
        headers=HEADERS,
    )
    assert saved.status_code == 409 and saved.json["error"]["key"] == "board_not_taught"
    assert saved.json["error"]["said"].startswith("El tablero pasa la comprobación")
    assert not (tmp_path / "box").exists()


def test_a_box_the_camera_cannot_learn_says_why_in_the_page_s_words(tmp_path) -> None:
    """The red train is not on its Start: the page says so in Spanish, the train's colour by
    its Spanish name, and rings that Start; nothing is written."""
    box = standin.board()
    shown = standin.teaching_table(0)
    trains = tuple(t for t in shown.trains if t.colour != "red")
    rng = np.random.default_rng(0)
    scene = standin.table_scene(box, shown.pose, box.home, trains, None, rng)
    web = client(tmp_path, tmp_path / "box", render(scene, 900, Camera.easy()))
    doc = looked(web)["board"]
    answer = web.post(
        "/api/setup/board/save?lang=es&game=switching", json={"board": doc}, headers=HEADERS
    )
    assert answer.status_code == 409, answer.json
    error = answer.json["error"]
    why = TEACH_BOARD["es"]["board_teach_train"].format(colour="rojo")
    assert error["said"] == TEACH_BOARD["es"]["board_not_taught"].format(problem=why)
    assert error["marks"] == [box.starts[0]]
    assert not (tmp_path / "box").exists()
