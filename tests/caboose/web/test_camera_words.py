"""What the camera could not see, on the page in its language: recognition reports each
problem as a key and parameters, the page says it in English or Spanish, and the English
is what the API and the logs always said."""

from __future__ import annotations

import ast
from pathlib import Path
from string import Formatter

import numpy as np

from companion.games.caboose.vision import observe as recognition
from companion.games.caboose.vision.problems import PROBLEMS, Problem, counted
from companion.games.caboose.words import CAMERA, LANGUAGES, camera_words
from companion.store import Store
from tests.caboose.test_follow import see, start
from tests.web.conftest import PIN
from web.app import create_app


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def reported_keys() -> set[str]:
    """Every problem key recognition can report, read from the source of every module of
    its package (`observe` and its steps): `Problem("key", …)` as is, `counted("key", n, …)`
    in both its forms."""
    keys: set[str] = set()
    nodes = (
        node
        for source in Path(recognition.__file__).parent.glob("*.py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
    )
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if node.func.id == "Problem":
                keys.add(first.value)
            elif node.func.id == "counted":
                keys |= {first.value, f"{first.value}_one"}
    return keys


def test_every_problem_recognition_reports_has_words_in_every_language():
    reported = reported_keys()
    assert {"caboose_unseen", "covered", "markers_hidden_one", "frame_size"} <= reported
    for lang in LANGUAGES:
        assert set(CAMERA[lang]) == set(PROBLEMS) == reported, lang
        for key, english in PROBLEMS.items():
            assert fields(CAMERA[lang][key]) == fields(english), (lang, key)
    assert all(CAMERA["es"][key] != PROBLEMS[key] for key in PROBLEMS)


def test_counted_problems_say_one_thing_in_the_singular():
    assert (
        counted("cards_unread", 1).text() == "1 card could not be read: is something lying on it?"
    )
    assert camera_words(counted("cards_unread", 1).as_json(), "es").startswith("1 carta no se")
    assert camera_words(counted("cards_unread", 3).as_json(), "es").startswith("3 cartas no se")


def test_the_spanish_page_says_what_the_camera_cannot_see_in_spanish(tmp_path, settings):
    table, _, _, _ = start(Store(tmp_path / "table.sqlite3"))  # a table a camera follows
    client = create_app(table, PIN, settings).test_client()
    dark = recognition.observe(np.zeros((1088, 1456, 3), np.uint8)).problems
    see(table, problems=[*dark, Problem("covered", {"percent": 12})])
    english = client.get("/api/state?lang=en").json["session"]
    assert english["camera"] == [
        "the picture is almost black: is the light on and the lens uncovered?",
        "something covers 12% of the table (a hand?): what lies under it is not seen",
    ]
    spanish = client.get("/api/state", headers={"Accept-Language": "es"}).json["session"]
    assert spanish["camera"] == [
        "la imagen está casi negra: ¿hay luz y está destapado el objetivo?",
        "algo tapa el 12 % de la mesa (¿una mano?): no se ve lo que hay debajo",
    ]
    assert spanish["said"]["camera"] == [
        {"key": "too_dark", "params": {}},
        {"key": "covered", "params": {"percent": 12}},
    ]
    assert client.get("/api/session?lang=es").json["camera"] == spanish["camera"]
