"""The page's and the API's defences, as a family meets them: a watcher's phone without
the PIN, a guesser, a stale tap on a slow phone, a name no one can read or an export that
cannot come back in. Each keeps the game as it was and says why."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.store import Store
from companion.table import Table
from tests.web.conftest import HEADERS, PIN, record, served
from tests.web.test_api import derail_ben, snapshot
from web.app import Settings, create_app
from web.serve import deal_demo

HOLDER = {"REMOTE_ADDR": "192.168.1.20"}  # the phone of the player who knows the PIN
WATCHER = {"REMOTE_ADDR": "192.168.1.31"}  # a phone that only watches, or guesses


def error_of(answer) -> dict:
    assert answer.is_json, answer.data[:200]
    return answer.json["error"]


# --- the PIN: a watcher never locks the table out -------------------------------------------


def test_taps_without_a_pin_never_lock_out_the_pin_holder(client, dealt):
    before = snapshot(client, dealt)
    for _ in range(15):  # the page of a phone without the PIN sends an empty header
        empty = client.post("/api/pass", json={"seat": 0}, headers={"X-Table-Pin": ""})
        assert empty.status_code == 401 and "needs the table's PIN" in error_of(empty)["message"]
        missing = client.post("/api/pass", json={"seat": 0})
        assert missing.status_code == 401
    assert snapshot(client, dealt) == before
    assert client.post("/api/pin", json={}, headers=HEADERS).status_code == 200


def test_a_guesser_locks_out_only_its_own_phone(client, dealt):
    for _ in range(10):
        guess = client.post(
            "/api/pin", json={}, headers={"X-Table-Pin": "000000"}, environ_base=WATCHER
        )
        assert guess.status_code == 401
    before = snapshot(client, dealt)
    locked = client.post("/api/pass", json={"seat": 0}, headers=HEADERS, environ_base=WATCHER)
    assert locked.status_code == 429
    wait = error_of(locked)["retry_after"]
    assert 1 <= wait <= 60 and locked.headers["Retry-After"] == str(wait)
    assert f"wait {wait} s" in error_of(locked)["message"]
    assert snapshot(client, dealt) == before
    # The PIN holder's phone is not locked: its wrong tries are counted apart, and its
    # right PIN always works.
    typo = client.post("/api/pin", json={}, headers={"X-Table-Pin": "1"}, environ_base=HOLDER)
    assert typo.status_code == 401
    played = client.post("/api/pass", json={"seat": 0}, headers=HEADERS, environ_base=HOLDER)
    assert played.status_code == 200 and played.json["turn"] == 1


def test_a_locked_phone_may_try_again_once_the_window_has_passed(table):
    client: FlaskClient = create_app(table, PIN, Settings(pin_window=0.3)).test_client()
    for _ in range(10):
        client.post("/api/pin", json={}, headers={"X-Table-Pin": "9"}, environ_base=WATCHER)
    assert client.post("/api/pin", json={}, headers=HEADERS, environ_base=WATCHER).status_code == (
        429
    )
    time.sleep(0.35)
    assert client.post("/api/pin", json={}, headers=HEADERS, environ_base=WATCHER).status_code == (
        200
    )


# --- cross-site requests: the scheme is part of the origin ------------------------------------


@pytest.mark.parametrize(
    "origin", ["https://localhost", "http://localhost.evil.example", "null", "ftp://localhost"]
)
def test_another_origin_of_the_same_host_is_refused(client, dealt, origin):
    before = snapshot(client, dealt)
    answer = client.post("/api/pass", json={"seat": 0}, headers=HEADERS | {"Origin": origin})
    assert answer.status_code == 403 and error_of(answer)["rule"] == "csrf"
    assert snapshot(client, dealt) == before


def test_the_page_s_own_origin_is_accepted(client, dealt):
    answer = client.post(
        "/api/pass", json={"seat": 0}, headers=HEADERS | {"Origin": "http://localhost"}
    )
    assert answer.status_code == 200


# --- commands say which turn they mean --------------------------------------------------------


def test_twenty_parallel_undos_for_one_turn_undo_one_turn(app, dealt):
    client = app.test_client()
    for seat in (0, 1, 0):
        assert client.post("/api/pass", json={"seat": seat}, headers=HEADERS).status_code == 200
    answers: list[tuple[int, str | None]] = []

    def tap() -> None:
        answer = app.test_client().post("/api/undo", json={"turn": 3}, headers=HEADERS)
        rule = None if answer.status_code == 200 else answer.json["error"]["rule"]
        answers.append((answer.status_code, rule))

    taps = [threading.Thread(target=tap) for _ in range(20)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert sorted(answers, key=str) == [(200, None)] + [(409, "stale")] * 19
    assert client.get("/api/state").json["turn"] == 2


def test_a_late_correction_meant_for_turn_two_does_not_change_turn_three(client, dealt):
    derail_ben(client)  # turn 2: Ben's roll
    assert client.post("/api/pass", json={"seat": 0}, headers=HEADERS).status_code == 200
    before = snapshot(client, dealt)
    late = {"roll": [1, 1, 0, 0, 0, 0], "confirm": True, "turn": 2}
    answer = client.post("/api/correct", json=late, headers=HEADERS)
    assert answer.status_code == 409 and error_of(answer)["rule"] == "stale"
    assert "turn 3" in error_of(answer)["message"]
    order = client.post("/api/order", json={"order": ["4", "3"], "turn": 2}, headers=HEADERS)
    assert order.status_code == 409 and error_of(order)["rule"] == "stale"
    assert snapshot(client, dealt) == before


@pytest.mark.parametrize("path", ["/api/undo", "/api/correct", "/api/order"])
def test_a_command_without_its_turn_is_refused(client, dealt, path):
    derail_ben(client)
    before = snapshot(client, dealt)
    body = {"/api/undo": {}, "/api/correct": {"roll": [1]}, "/api/order": {"order": ["4"]}}
    answer = client.post(path, json=body[path], headers=HEADERS)
    assert answer.status_code == 400 and error_of(answer)["fields"] == ["turn"]
    assert snapshot(client, dealt) == before


# --- the event stream: a page that goes frees its slot at once ---------------------------------


def stream_status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/api/events")
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_closed_page_frees_its_stream_slot_within_a_second(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    deal_demo(table, turns=1)
    # Heartbeats a minute apart: only noticing the closed connection can free the slot.
    settings = Settings(heartbeat=60, stream_seconds=120, max_streams=1)
    with served(create_app(table, "1111", settings)) as port:
        page = socket.create_connection(("127.0.0.1", port), timeout=5)
        page.sendall(b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
        received = b""
        while b"event: state" not in received:
            received += page.recv(65536)
        assert received.startswith(b"HTTP/1.1 200")
        assert stream_status(port) == 503  # the one slot is the page's
        page.close()  # the phone goes away
        closed = time.monotonic()
        while stream_status(port) != 200:
            assert time.monotonic() - closed < 3, "the closed page still holds its slot"
            time.sleep(0.05)
        assert time.monotonic() - closed < 1.5


# --- names: one rule wherever a name enters, and every export imports again -----------------

INVISIBLE = ["\u200b", " \u200b ", "\u200e\u200f", "\ufeff", "\u3164", "\u2800", "\u00a0", " "]
UNREADABLE = [*INVISIBLE, "A" * 201, "Ana\nBen", "Ana\x00"]
READABLE = ["Ana", "محمد", "李雷", "👩‍👧", "O'Neil", "Zoë ", "x" * 200, "\u200bBen"]


@pytest.mark.parametrize("name", UNREADABLE)
def test_a_name_nobody_can_read_is_refused_everywhere_it_enters(client, dealt, name):
    before = snapshot(client, dealt)
    started = client.post(
        "/api/game", json={"edition": "rollecate", "names": ["Ana", name]}, headers=HEADERS
    )
    assert started.status_code == 400 and "player 2's name" in error_of(started)["message"]
    doc = record(players=["Ana", name])
    imported = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert imported.status_code == 422 and "player 2's name" in error_of(imported)["message"]
    watched = client.post("/api/replay", json={"record": doc, "turn": 0})
    assert watched.status_code == 422 and error_of(watched)["rule"] == "setup"
    assert snapshot(client, dealt) == before


def test_a_name_of_two_hundred_thousand_characters_is_refused_on_import(client, dealt):
    before = snapshot(client, dealt)
    doc = record(players=["Ana", "B" * 200_000])
    answer = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert answer.status_code in (413, 422)  # too long a name, or too large an upload
    assert snapshot(client, dealt) == before
    # Under the upload limit, the name itself is what is refused.
    long = record(players=["Ana", "B" * 20_000])
    answer = client.post("/api/import", json={"record": long}, headers=HEADERS)
    assert answer.status_code == 422
    assert "at most 200" in error_of(answer)["message"]
    assert snapshot(client, dealt) == before


@pytest.mark.parametrize("name", READABLE)
def test_readable_names_of_any_script_are_welcome(client, name):
    body = {"edition": "rollecate", "names": [name, "Ben"], "seed": 1}
    answer = client.post("/api/game", json=body, headers=HEADERS)
    assert answer.status_code == 200, answer.json
    assert answer.json["players"][0]["name"] == name.strip()


names = st.one_of(
    st.text(max_size=40),
    # Long names of accented letters: small as UTF-8, six times larger once the export
    # escapes them (\u00e9), so an export could outgrow the upload limit.
    st.builds(lambda letter, n: letter * n, st.sampled_from("éжاß"), st.integers(150, 20_000)),
)


def post_utf8(client: FlaskClient, path: str, doc: dict):
    """A body as a phone sends it: UTF-8, not the test client's escaped ASCII."""
    data = json.dumps(doc, ensure_ascii=False).encode()
    return client.post(path, data=data, headers=HEADERS | {"Content-Type": "application/json"})


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(players=st.lists(names, min_size=2, max_size=2))
@example(players=["Ana", "é" * 15_000])
def test_every_record_the_api_accepts_is_exported_so_it_imports_again(client, players):
    """Whatever the API lets in, its export file can be sent back in (upload limit included)."""
    first = post_utf8(client, "/api/import", {"record": record(players=players)})
    assert first.status_code in (200, 413, 422), first.json
    if first.status_code != 200:
        return
    for _ in range(3):  # a few turns, so the record holds more than its setup
        client.post(
            "/api/pass", json={"seat": client.get("/api/state").json["to_move"]}, headers=HEADERS
        )
    # The export file as downloaded (its names escaped, \u00e9), sent back as it is.
    exported = client.get("/api/export").get_data()
    again = client.post(
        "/api/import",
        data=b'{"record": ' + exported + b"}",
        headers=HEADERS | {"Content-Type": "application/json"},
    )
    assert again.status_code == 200, again.json
    assert [p["name"] for p in again.json["players"]] == [p["name"] for p in first.json["players"]]
