"""The turn at the table on the page: every view carries the session's status, each change
of it wakes the open pages (their event stream waits on the table), and the question of an
unsure card is answered through the API. The session is driven as in tests/caboose/test_follow.py:
by the camera's events, built by hand from the engine's railway, handed to the table as the
frame loop hands them; the page's commands go to the same table."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from companion.games.caboose.commands import Press
from companion.games.caboose.follow import ASKING, CHECKING, CONFIRM, STAGED, WAITING
from companion.games.caboose.tracker import CABOOSE_MOVED, CARDS_LAID, DICE_SETTLED
from companion.games.caboose.vision.problems import Problem
from companion.games.caboose.words import session_words
from companion.pose import Pose
from companion.store import Store
from tests.caboose.test_follow import event, followed, lay, see, start, view_of
from tests.playing import match
from tests.web.conftest import HEADERS, PIN
from web.app import create_app


@pytest.fixture
def seated(tmp_path, settings):
    """A table a camera follows, dealt for a first play, its session having seen it, and the
    page's app (as `companion run` serves it)."""
    table, session, outputs, play = start(Store(tmp_path / "table.sqlite3"))
    app = create_app(table, PIN, replace(settings, stream_seconds=5.0))
    return SimpleNamespace(
        table=table, session=session, outputs=outputs, play=play, client=app.test_client()
    )


def asked(seated) -> dict:
    """The laid cards seen with too little confidence: the session asks which they are."""
    lay(seated.table, seated.play, confidence=0.1)
    assert seated.session.phase == ASKING
    status = seated.session.status()
    # as the page gets it: the card the camera read said in words ("4"), never "4/s"
    return status["question"] | {"prompt": session_words(status["said"]["prompt"], "en")}


def state(seated) -> dict:
    return seated.client.get("/api/state").json


def test_the_view_carries_the_turn_at_the_table(seated):
    doc = state(seated)
    assert doc["session"] == seated.session.status()
    assert doc["session"]["phase"] == WAITING and "to move" in doc["session"]["message"]
    assert seated.client.get("/api/session").json == doc["session"]
    question = asked(seated)
    doc = state(seated)
    assert doc["session"]["question"] == question
    assert doc["session"]["message"] == question["prompt"]
    assert doc["session"]["led"] == "needs-confirmation"


def test_the_view_without_a_game_carries_it_too(tmp_path, settings):
    table = followed(Store(tmp_path / "table.sqlite3"))
    app = create_app(table, PIN, settings)
    doc = app.test_client().get("/api/state").json
    assert doc["game"] is None
    assert doc["session"]["message"] == "start a game on the page"


def test_without_a_camera_there_is_no_session(client, dealt):
    assert client.get("/api/state").json["session"] is None
    text = client.get("/api/events").get_data(as_text=True)
    data = next(line for line in text.splitlines() if line.startswith("data: "))
    assert json.loads(data[6:])["session"] is None
    missing = client.get("/api/session")
    assert missing.status_code == 404 and missing.json["error"]["rule"] == "session"
    answer = client.post("/api/session/answer", json={"code": "2"}, headers=HEADERS)
    assert answer.status_code == 404 and answer.json["error"]["rule"] == "session"


def test_a_change_of_the_session_wakes_the_pages(seated):
    table = seated.table
    version = table.version
    woke: list[int] = []
    waiter = threading.Thread(target=lambda: woke.append(table.wait(version, 5)))
    waiter.start()
    see(table, problems=[Problem("caboose_unseen")])  # not the game: only what is shown
    waiter.join(5)
    assert woke and woke[0] > version
    assert not match(table).snap.record.turns
    assert state(seated)["session"]["camera"] == ["the caboose is not seen"]
    # the same problems again change nothing shown: no page is woken
    version = table.version
    see(table, problems=[Problem("caboose_unseen")])
    assert table.version == version


def test_an_open_event_stream_gets_the_new_status(seated):
    stream = seated.client.get("/api/events", buffered=False)
    try:
        chunks = iter(stream.response)

        def next_state() -> dict:
            for chunk in chunks:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                if text.startswith("id: "):
                    return json.loads(text.split("data: ", 1)[1])
            raise AssertionError("the stream ended")

        assert next_state()["session"]["question"] is None
        question = asked(seated)
        assert next_state()["session"]["question"] == question
    finally:
        stream.close()


def test_answering_through_the_page(seated):
    question = asked(seated)
    before = state(seated)
    right = seated.play.cards[question["card"]]
    answer = seated.client.post("/api/session/answer", json={"code": right}, headers=HEADERS)
    assert answer.status_code == 200
    doc = answer.json  # the new view, as every change answers
    assert doc["version"] > before["version"] and doc["session"] == seated.session.status()
    assert doc["session"]["phase"] in (STAGED, ASKING)
    while seated.session.phase == ASKING:  # one question per unsure card
        code = seated.play.cards[seated.session.question.card]
        seated.client.post("/api/session/answer", json={"code": code}, headers=HEADERS)
    doc = state(seated)
    assert doc["session"]["phase"] == STAGED and doc["session"]["question"] is None
    assert doc["session"]["laid"] == list(seated.play.cards)
    assert doc["staged"]["cards"] == list(seated.play.cards)  # the table has the cards too
    late = seated.client.post("/api/session/answer", json={"code": right}, headers=HEADERS)
    assert late.status_code == 409
    assert late.json["error"] == {
        "rule": "session",
        "message": "there is no question to answer",
        "key": "no_question",  # for the page to say it in its language
        "params": {},
        "said": "there is no question to answer",  # as the game says it, in the page's words
    }


@pytest.mark.parametrize(
    ("body", "status", "rule", "says"),
    [
        ({"code": "C2"}, 422, "answer", "choose one of"),  # a card, but not an option
        ({"code": "7q"}, 400, "card", "code"),
        ({"code": 3}, 400, "card", "must be a card code"),
        ({"code": "2", "seat": 0}, 400, "request", "unknown fields ['seat']"),
        ({}, 400, "request", "missing fields ['code']"),
    ],
)
def test_a_bad_answer_is_refused_and_changes_nothing(seated, body, status, rule, says):
    asked(seated)
    table = seated.table
    before = (seated.session.status(), table.version, match(table).staged)
    answer = seated.client.post("/api/session/answer", json=body, headers=HEADERS)
    assert answer.status_code == status, answer.json
    assert answer.json["error"]["rule"] == rule and says in answer.json["error"]["message"]
    assert (seated.session.status(), table.version, match(table).staged) == before


def test_answering_needs_the_pin(seated):
    question = asked(seated)
    code = seated.play.cards[question["card"]]
    refused = seated.client.post("/api/session/answer", json={"code": code})
    assert refused.status_code == 401 and seated.session.phase == ASKING


def test_nothing_new_announces_nothing(seated):
    table, session, outputs = seated.table, seated.session, seated.outputs
    see(table)
    version, own, lit = table.version, session.version, len(outputs.led)
    see(table)
    see(table)
    assert (table.version, session.version) == (version, own)
    assert len(outputs.led) == lit + 2  # the LED is still told each time


def test_the_session_follows_the_page_in_the_same_step(seated):
    """One writer: the page's pass reaches the session in the command that applies it, so
    the answer to the POST already shows the move being checked, and nothing follows
    afterwards (no thread catching up, no further versions)."""
    table = seated.table
    answer = seated.client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
    assert answer.status_code == 200
    assert answer.json["session"]["phase"] == CHECKING and seated.session.phase == CHECKING
    settled = table.version
    assert answer.json["version"] == settled
    time.sleep(0.3)
    assert table.version == settled
    assert state(seated)["session"]["phase"] == CHECKING


def test_the_mismatch_and_an_illegal_placement_are_in_the_view(seated):
    table, session, play = seated.table, seated.session, seated.play
    wrong = Pose(play.place[0].x + 40.0, play.place[0].y + 40.0, play.place[0].rotation)
    see(table, event(CARDS_LAID, view_of(table, [(play.cards[0], wrong)])))
    doc = state(seated)["session"]
    assert doc["led"] == "error" and "cannot be played" in doc["problem"]
    view = lay(table, play)
    dice = match(table).staged.dice
    rolled = replace(view, dice=view_of(table, dice=[0] * dice).dice)
    see(table, event(DICE_SETTLED, rolled, dice=rolled.dice))
    assert session.phase == CHECKING
    see(table, event(CABOOSE_MOVED, replace(rolled, caboose=None)))
    doc = state(seated)["session"]
    assert "caboose" in doc["mismatch"]
    table.handle(Press(CONFIRM))
    assert state(seated)["session"]["problem"].startswith("not yet")


def test_pages_read_while_the_session_acts_without_deadlock(seated):
    """The camera's commands and the pages' reads take the table's one lock: many of both
    at once must all finish, every page reading a whole view."""
    table, play = seated.table, seated.play
    failures: list[BaseException] = []

    def act() -> None:
        try:
            for index in range(40):
                lay(table, play, confidence=0.1 if index % 2 else 0.9)
                see(
                    table,
                    problems=[Problem(("caboose_unseen", "caboose_off", "no_table")[index % 3])],
                )
        except Exception as error:  # reported below, in the test's own thread
            failures.append(error)

    def read() -> None:
        try:
            for _ in range(40):
                assert seated.client.get("/api/state").json["session"] is not None
        except Exception as error:
            failures.append(error)

    threads = [threading.Thread(target=act)] + [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert not any(thread.is_alive() for thread in threads), "deadlocked"
    assert failures == []
