"""The setup page's "teach your own dice" API (web/pips_teach.py) for real: a red pip die
laid alone on the synthetic table showing each face in turn, cut out as the table's dice
reader finds it, what is wrong said in words, and the six faces written into the configured
folder as `companion enroll --codes pips` writes them, read back by the Caboose camera."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from flask.testing import FlaskClient

from companion.games.caboose.scenes import Scene, render
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.protocol import Sight
from companion.store import Store
from companion.synthetic import Camera, PlacedDie
from companion.table import Table
from companion.vision.table import TableLayout
from web.app import Settings, create_app
from web.board_teach import BoxFolder
from web.setup import Presses, SetupTools
from web.words import TEACH_PIPS

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}


@cache
def die_showing(pips: int, dice: int = 1) -> np.ndarray:
    """The table with `dice` red pip dice lying apart, each showing `pips`."""
    laid = tuple(PlacedDie("pips", pips, 400.0 + 60 * i, 300.0, 17.0 * pips, colour="red")
                 for i in range(dice))  # fmt: skip
    return render(Scene(cards=(), railway=(), dice=laid), 70 + pips, Camera.easy())


class Lens:
    """The camera's latest frame, as the frame loop would hand it to the page."""

    def __init__(self) -> None:
        self.frame = die_showing(1)

    def __call__(self) -> Sight:
        return Sight(self.frame, None, "caboose", 1)


def client(tmp_path: Path, folder: Path | None, lens: Lens) -> FlaskClient:
    tools = SetupTools(check=lambda frame, game: None, presses=Presses(()),
                       box=BoxFolder(folder, TableLayout()))  # fmt: skip
    table = Table(Store(tmp_path / "table.sqlite3"))
    return create_app(table, PIN, Settings(), lens, tools).test_client()


def show(web: FlaskClient, lens: Lens, pips: int, lang: str = "en"):
    lens.frame = die_showing(pips)
    return web.post(f"/api/setup/pips?lang={lang}&game=caboose", json={"pips": pips},
                    headers=HEADERS)  # fmt: skip


def test_six_faces_shown_are_taught_and_read_back_by_the_camera(tmp_path) -> None:
    lens = Lens()
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "board.json").write_text("{}")  # a board of another game taught there before
    web = client(tmp_path, folder, lens)
    for pips in range(1, 7):
        answer = show(web, lens, pips)
        assert answer.status_code == 200, answer.json
        assert answer.json["learnt"] == list(range(1, pips + 1))
    assert answer.json["said"] == "Learnt: the die showing 6 pips."
    assert show(web, lens, 1, "es").json["said"] == "Aprendido: el dado mostrando 1 punto."
    picture = web.get("/api/setup/pips/3.jpg?game=caboose", headers=HEADERS)
    assert picture.status_code == 200 and picture.headers["Cache-Control"] == "no-store"
    die = cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR)
    assert die is not None and die.shape[0] == die.shape[1]  # the die's square crop
    saved = web.post("/api/setup/pips/save?lang=en&game=caboose", json={}, headers=HEADERS)
    assert saved.status_code == 200, saved.json
    assert saved.json["said"] == TEACH_PIPS["en"]["pips_saved"].format(folder=folder)
    config = VisionConfig.for_edition("rollecate", folder)
    assert config.pips is not None
    assert sorted(die.pips for die in config.pips.dice) == [1, 2, 3, 4, 5, 6]
    assert (folder / "board.json").read_text() == "{}"  # left as it was


def test_what_keeps_a_face_from_being_learnt_is_said_in_words(tmp_path) -> None:
    lens = Lens()
    web = client(tmp_path, tmp_path / "box", lens)
    lens.frame = die_showing(4, dice=2)
    answer = web.post("/api/setup/pips?lang=es&game=caboose", json={"pips": 4}, headers=HEADERS)
    assert answer.status_code == 409
    assert answer.json["error"]["said"] == TEACH_PIPS["es"]["refusal_pips_many"].format(n=2)
    lens.frame = render(Scene(cards=(), railway=()), 1, Camera.easy())
    answer = web.post("/api/setup/pips?lang=en&game=caboose", json={"pips": 4}, headers=HEADERS)
    assert answer.json["error"]["said"] == TEACH_PIPS["en"]["refusal_pips_none"]
    for face in (0, 7, "3", True, None):
        answer = web.post("/api/setup/pips?game=caboose", json={"pips": face}, headers=HEADERS)
        assert answer.status_code == 400 and answer.json["error"]["key"] == "pips_face"
    show(web, lens, 2)
    saved = web.post("/api/setup/pips/save?game=caboose", json={}, headers=HEADERS)
    assert saved.status_code == 409 and saved.json["error"]["key"] == "pips_unfinished"
    assert saved.json["error"]["params"]["missing"] == "1, 3, 4, 5, 6"
    assert not (tmp_path / "box").exists()  # nothing written


def test_the_dice_need_the_pin_and_a_game_that_reads_them(tmp_path) -> None:
    lens = Lens()
    web = client(tmp_path, tmp_path / "box", lens)
    assert web.post("/api/setup/pips?game=caboose", json={"pips": 1}).status_code == 401
    show(web, lens, 1)
    assert web.get("/api/setup/pips/1.jpg?game=caboose").status_code == 401
    answer = web.post("/api/setup/pips?game=switching", json={"pips": 1}, headers=HEADERS)
    assert answer.status_code == 404 and answer.json["error"]["key"] == "pips_no_game"


def test_without_a_catalogue_folder_nothing_is_written_and_the_page_says_why(tmp_path) -> None:
    lens = Lens()
    web = client(tmp_path, None, lens)
    for pips in range(1, 7):
        show(web, lens, pips)
    saved = web.post("/api/setup/pips/save?game=caboose", json={}, headers=HEADERS)
    assert saved.status_code == 409 and saved.json["error"]["key"] == "pips_no_folder"


def test_every_word_of_teaching_dice_is_said_and_every_word_said_is_there() -> None:
    """The step asks for its words by name (`t("pips_…")`, `text.pips_…`), the API names
    its refusals (`key="pips_…"` and the game's reasons, said as `refusal_<key>`) and what
    it says itself (`pips_said(lang, "pips_…")`): each is in the block, in both languages,
    and nothing in it is left unsaid."""
    root = Path(__file__).resolve().parents[2]
    script = (root / "web/static/teach_pips.js").read_text()
    asked = set(re.findall(r'\bt\("(pips_[a-z_]+)"', script))
    asked |= set(
        re.findall(r"\btext\.(pips_[a-z_]+)", (root / "web/templates/index.html").read_text())
    )
    api = (root / "web/pips_teach.py").read_text()
    asked |= set(re.findall(r'pips_said\(lang, "(pips_[a-z_]+)"', api))
    reasons = (root / "companion/games/caboose/vision/enrolment.py").read_text()
    refused = re.findall(r'(?:key=|box_folder\(|latest_frame\()"(pips_[a-z_]+)"', api)
    refused += re.findall(r'Said\("(pips_[a-z_]+)"', reasons)
    asked |= {f"refusal_{key}" for key in refused if key != "pips_not_written"}  # its `said`
    asked |= {f"{key}_one" for key in asked if f"{key}_one" in TEACH_PIPS["en"]}  # one pip
    assert asked == set(TEACH_PIPS["en"]) == set(TEACH_PIPS["es"])
