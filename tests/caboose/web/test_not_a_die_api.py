"""`POST /api/command/session/answer` with `{"no_die": true}`: the die the camera asks about
is no die at all (a card's digit, a crumb); the throw is read on without it and the turn
goes on with the true roll. A bad answer is refused in words, in the page's language, and
changes nothing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.games.caboose.follow import ASKING, CHECKING, FollowConfig
from companion.store import Store
from tests.caboose.test_follow import lay, start
from tests.caboose.test_not_a_die import PHANTOM, true_dice
from tests.caboose.test_unsure_dice import FACE_MAP, throw
from tests.caboose.web.test_refusals_on_the_page import said_by_the_page, words
from tests.playing import match
from tests.web.conftest import HEADERS, PIN
from web.app import create_app

ANSWER = "/api/command/session/answer"


@pytest.fixture
def asked(tmp_path, settings):
    """A table whose camera asks about a phantom die beside the true roll, and its page."""
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    session.config = FollowConfig(pip_wheels=FACE_MAP)
    view = lay(table, play)
    faces = [5, 2, 6, 3][: match(table).staged.dice]
    throw(table, view, (PHANTOM, *true_dice(faces)))
    assert session.phase == ASKING
    client = create_app(table, PIN, settings).test_client()
    return SimpleNamespace(table=table, session=session, client=client, faces=faces)


def test_no_die_drops_the_phantom_and_the_turn_goes_on_with_the_true_roll(asked):
    before = asked.client.get("/api/state").json
    assert before["session"]["question"]["no_die"] is True
    answer = asked.client.post(ANSWER, json={"no_die": True}, headers=HEADERS)
    assert answer.status_code == 200, answer.json
    doc = answer.json  # the new view
    assert doc["session"]["phase"] == CHECKING and doc["session"]["question"] is None
    assert doc["last"]["roll"] == [FACE_MAP[f] for f in asked.faces]


@pytest.mark.parametrize(
    ("body", "says", "spanish"),
    [
        ({"no_die": True, "face": 6}, "not more", "una respuesta es una sola cosa"),
        ({"no_die": False}, "no_die must be true", "no_die debe ser true"),
        ({"no_die": "yes"}, "no_die must be true", "no_die debe ser true"),
    ],
)
def test_a_bad_no_die_answer_is_refused_in_words_and_changes_nothing(asked, body, says, spanish):
    before = (asked.session.status(), asked.table.version)
    answer = asked.client.post(ANSWER, json=body, headers=HEADERS)
    assert answer.status_code == 400, answer.json
    error = answer.json["error"]
    assert says in error["message"]
    assert said_by_the_page(error, words(asked.client, "es")).startswith(spanish)
    assert (asked.session.status(), asked.table.version) == before


def test_no_die_for_a_card_is_refused_in_the_pages_language(tmp_path, settings):
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    lay(table, play, confidence=0.1)  # the camera asks which card was laid
    client = create_app(table, PIN, settings).test_client()
    before = (session.status(), table.version)
    answer = client.post(ANSWER, json={"no_die": True}, headers=HEADERS)
    assert answer.status_code == 422
    error = answer.json["error"]
    assert error["rule"] == "answer" and error["key"] == "no_die_card"
    assert error["message"].startswith("the camera asks about a card, not a die: choose one of")
    assert said_by_the_page(error, words(client, "es")).startswith(
        "la cámara pregunta por una carta, no por un dado: elige una de estas:"
    )
    assert (session.status(), table.version) == before
