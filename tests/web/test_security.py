"""The page's and the API's defences, as a family meets them: a watcher's phone without
the PIN, a guesser, a stale tap on a slow phone, a name no one can read or an export that
cannot come back in. Each keeps the game as it was and says why."""

from __future__ import annotations

import time

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import HEADERS, PIN
from tests.web.test_api import snapshot
from web.app import Settings, create_app

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
