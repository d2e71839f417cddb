"""One writer: the page, the buttons and the camera change the game only through
`Table.handle`, one command at a time, and each rule is decided in one place. The camera
is driven as in tests/caboose/test_follow.py, the page through its API."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from companion.games.caboose.commands import CorrectRoll, Press, Undo
from companion.games.caboose.follow import CHECKING, PASS, STAGED, UNDO, WAITING
from companion.games.caboose.refusals import TableError
from companion.games.caboose.tracker import CARDS_LAID, DICE_SETTLED
from companion.store import Store
from tests.caboose.test_follow import event, lay, roll, see, start, view_of
from tests.playing import match
from tests.web.conftest import HEADERS, PIN
from web.app import create_app


@pytest.fixture
def seated(tmp_path, settings):
    """A table a camera follows, dealt for a first play, and the page's client."""
    table, session, outputs, play = start(Store(tmp_path / "table.sqlite3"))
    client = create_app(table, PIN, settings).test_client()
    return table, session, outputs, play, client


def test_a_page_undo_while_the_camera_staged_cards_leaves_the_session_consistent(seated):
    table, session, _, play, client = seated
    lay(table, play)
    assert session.phase == STAGED and match(table).staged is not None
    answer = client.post("/api/undo", json={"turn": 0}, headers=HEADERS)
    assert answer.status_code == 200
    # the answer to the POST itself shows the game and the turn at the table agreeing
    assert answer.json["staged"] is None and answer.json["session"]["phase"] == WAITING
    assert session.phase == WAITING and match(table).staged is None
    assert answer.json["version"] == table.version


def test_cards_staged_on_the_page_are_rolled_for_at_the_table(seated):
    table, session, _, play, client = seated
    body = {"seat": 0, "cards": list(play.cards), "place": [list(p) for p in play.place]}
    answer = client.post("/api/stage", json=body, headers=HEADERS)
    assert answer.status_code == 200 and answer.json["session"]["phase"] == STAGED
    dice = match(table).staged.dice
    assert answer.json["session"]["roll"] == {"needed": dice, "seen": []}
    view = view_of(table, list(zip(play.cards, play.place, strict=True)))
    roll(table, view, [0] * dice)  # the dice settle under the camera
    turns = match(table).snap.record.turns
    assert turns == [{"play": list(play.cards), "roll": [0] * dice} | _place(turns[0])]
    assert session.phase == CHECKING


def _place(turn: dict) -> dict:
    """The placement the record keeps of a play (as laid: not what this test is about)."""
    return {key: turn[key] for key in turn if key not in ("play", "roll")}


def test_the_undo_limit_is_one_decision_for_page_button_and_view(seated):
    table, session, outputs, play, client = seated
    view = lay(table, play)
    roll(table, view, [0] * match(table).staged.dice)
    kept = list(match(table).snap.record.turns)
    version = table.version

    page = client.post("/api/undo", json={"turn": 1}, headers=HEADERS)
    assert page.status_code == 409 and page.json["error"]["rule"] == "undo"
    assert "dice roll once seen is not undone" in page.json["error"]["message"]
    assert table.version == version  # refused: nothing changed, nobody woken
    with pytest.raises(TableError) as refused:
        table.handle(Undo())
    assert refused.value.key == "undo_roll"

    table.handle(Press(UNDO))  # held CONFIRM: refused the same, said on the LED and page
    assert session.problem.key == "undo_roll" and outputs.buzzes[-1] == "illegal"
    doc = client.get("/api/state").json
    assert doc["undo"] == {"possible": False, "rule": "roll"}
    assert doc["session"]["said"]["problem"]["key"] == "undo_roll"
    assert match(table).snap.record.turns == kept


def test_after_a_pass_page_button_and_view_all_allow_the_undo(seated):
    table, session, _, _, client = seated
    table.handle(Press(PASS))
    assert client.get("/api/state").json["undo"] == {"possible": True}
    table.handle(Press(UNDO))
    assert match(table).snap.record.turns == [] and session.phase == WAITING
    assert client.get("/api/state").json["undo"] == {"possible": False, "rule": "undo"}
    page = client.post("/api/undo", json={"turn": 0}, headers=HEADERS)
    assert page.status_code == 409 and "nothing to undo" in page.json["error"]["message"]


def test_the_roll_confirmation_is_decided_by_the_game_not_the_route(seated):
    table, _, _, play, client = seated
    view = lay(table, play)
    dice = match(table).staged.dice
    roll(table, view, [0] * dice)
    asked = client.post("/api/correct", json={"roll": [1] * dice, "turn": 1}, headers=HEADERS)
    assert asked.status_code == 409 and asked.json["error"]["needs_confirm"] is True
    with pytest.raises(TableError) as refused:  # the same command, not through the page
        table.handle(CorrectRoll((1,) * dice, turn=1))
    assert refused.value.message == asked.json["error"]["message"]
    assert refused.value.extra == {"needs_confirm": True}
    body = {"roll": [1] * dice, "turn": 1, "confirm": True}
    assert client.post("/api/correct", json=body, headers=HEADERS).status_code == 200
    assert match(table).snap.record.turns[-1]["roll"] == [1] * dice


def test_page_and_buttons_passing_at_once_pass_once(seated):
    """Twenty PASS presses and twenty of the page's passes for Ana, all at once: the table
    takes them one at a time, so Ana passes once; every other is refused (the session
    now checks the move; it is no longer Ana's turn) and changes nothing."""
    table, session, _, _, client = seated
    statuses: list[int] = []

    def press() -> None:
        table.handle(Press(PASS))

    def tap() -> None:
        answer = client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=f) for _ in range(20) for f in (press, tap)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert match(table).snap.record.turns == [{"pass": True}]
    assert session.phase == CHECKING
    assert set(statuses) <= {200, 409} and statuses.count(200) <= 1
    assert len(Store(table.store.path).journal(match(table).id)) == 1


def test_a_camera_frame_with_no_news_wakes_nobody(seated):
    table, _, _, play, _ = seated
    laid = view_of(table, list(zip(play.cards, play.place, strict=True)))
    see(table, event(CARDS_LAID, laid))
    version = table.version
    see(table)  # a frame that changes nothing
    see(table, event(DICE_SETTLED, replace(laid, dice=()), dice=()))  # no dice after all
    assert table.version == version
