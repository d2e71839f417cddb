"""Seats on phones (web/seats.py) and the page's address as a QR code (web/join.py): a
player's own phone joins their seat with a one-time code and alone sees that seat's hand;
every other answer carries no hidden hand; the PIN holder forgets a phone."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from tests.web.conftest import HEADERS
from web import network
from web.words import JOIN

LAN = "http://192.168.1.7:8000"  # the page as a phone of the table's network opens it
# Ana holds 1 and C2 and draws a 2; Ben holds two 3s (tests/tables.py): C2 is in no other
# place of the table, so an answer naming it names Ana's hand.
ANA_ONLY = "C2"


def invite(client, seat: int, base: str = LAN) -> str:
    """The one-time code of `seat`'s QR, as the PIN holder's page asks for it."""
    answer = client.post("/api/seats/invite", json={"seat": seat}, headers=HEADERS, base_url=base)
    assert answer.status_code == 200, answer.json
    assert answer.headers["Cache-Control"] == "no-store"
    url = answer.json["url"]
    assert url.startswith(f"{LAN}/#seat=") and answer.json["qr"].startswith("data:image/svg+xml")
    return url.split("#seat=", 1)[1]


def join(client, seat: int) -> str:
    """A phone scans `seat`'s code: its token."""
    answer = client.post("/api/seats/join", json={"invite": invite(client, seat)})
    assert answer.status_code == 200, answer.json
    assert answer.headers["Cache-Control"] == "no-store"
    return answer.json["token"]


def seat_hand(client, token: str, lang: str = "en"):
    return client.get(f"/api/seat/hand?lang={lang}", headers={"X-Seat-Token": token})


def hands_in(doc: Any) -> list[Any]:
    """Every non-empty `hand` anywhere in an answer."""
    if isinstance(doc, dict):
        found = [v for k, v in doc.items() if k == "hand" and v]
        return found + [h for v in doc.values() for h in hands_in(v)]
    if isinstance(doc, list):
        return [h for v in doc for h in hands_in(v)]
    return []


def test_a_seats_phone_alone_sees_its_hand(client, dealt):
    ana = join(client, 0)
    answer = seat_hand(client, ana)
    assert answer.headers["Cache-Control"] == "no-store"
    doc = answer.json
    assert (doc["seat"], doc["name"], doc["game"]) == (0, "Ana", 1)
    # Ana's turn: her hand with the card she draws, and the odds of her plays.
    assert [c["code"] for c in doc["shown"]["hand"]] == ["1", "C2", "2"]
    assert doc["shown"]["plays"][0]["cards"] == ["2"]
    # Ben's phone sees his own cards only, his odds to come on his turn.
    ben = join(client, 1)
    doc = seat_hand(client, ben).json
    assert [c["code"] for c in doc["shown"]["hand"]] == ["3", "3"]
    assert doc["shown"]["plays"] == [] and doc["shown"]["waiting"] is True
    assert ANA_ONLY not in json.dumps(doc)


def test_no_other_answer_carries_a_hidden_hand(client, dealt):
    """With seats joined, the view, the event stream, the seats' list, the join code and
    every refusal name no card of a hand: only the seat's own phone's answer does."""
    ana = join(client, 0)
    join(client, 1)
    answers = {
        "state": client.get("/api/state"),
        "events": client.get("/api/events"),
        "seats": client.get("/api/seats"),
        "join": client.get("/api/join", base_url=LAN),
        "join.svg": client.get("/api/join.svg", base_url=LAN),
        "no token": seat_hand(client, ""),
        "a wrong token": seat_hand(client, ana[:-2] + "xx"),
        "the PIN holder's": client.get("/api/hand", headers=HEADERS),
        "the page": client.get("/"),
        "the kiosk": client.get("/?view=table"),
    }
    for name, answer in answers.items():
        text = answer.get_data(as_text=True)
        assert ANA_ONLY not in text, name
        if answer.is_json:
            assert hands_in(answer.json) == [], name
        for line in text.splitlines():  # the event stream's views
            if line.startswith("data: "):
                assert hands_in(json.loads(line[len("data: ") :])) == [], name
    assert ANA_ONLY in seat_hand(client, ana).get_data(as_text=True)


def test_a_seat_with_a_phone_is_not_shown_to_the_pin_holder(client, dealt):
    # No phone yet: the PIN holder's phone, passed around, shows the mover's hand.
    assert client.get("/api/hand", headers=HEADERS).status_code == 200
    assert client.get("/api/seats").json["seats"][0]["phone"] is False
    join(client, 0)
    assert client.get("/api/seats").json["seats"][0] == {"seat": 0, "name": "Ana", "phone": True}
    for lang in ("en", "es"):
        refused = client.get(f"/api/hand?lang={lang}", headers=HEADERS)
        assert refused.status_code == 409
        error = refused.json["error"]
        assert error["key"] == "hand_on_phone"
        assert error["message"] == JOIN[lang]["hand_on_phone"].format(name="Ana")
    assert error["message"].startswith("La mano de Ana está en el teléfono de Ana")


def test_the_pin_holder_forgets_a_phone(client, dealt):
    ana = join(client, 0)
    refused = client.post("/api/seats/forget", json={"seat": 0})
    assert refused.status_code == 401  # the PIN is needed
    assert seat_hand(client, ana).status_code == 200
    answer = client.post("/api/seats/forget", json={"seat": 0}, headers=HEADERS)
    assert answer.status_code == 200 and answer.json["seats"][0]["phone"] is False
    for lang in ("en", "es"):
        gone = seat_hand(client, ana, lang)
        assert gone.status_code == 401
        assert gone.json["error"]["message"] == JOIN[lang]["seat_forgotten"]
        assert ANA_ONLY not in gone.get_data(as_text=True)
    # The PIN holder's phone shows Ana's hand again.
    assert client.get("/api/hand", headers=HEADERS).status_code == 200


def test_a_code_opens_its_seat_once_and_a_second_phone_takes_the_seat(client, dealt):
    code = invite(client, 0)
    first = client.post("/api/seats/join", json={"invite": code})
    assert first.status_code == 200
    again = client.post("/api/seats/join", json={"invite": code})
    assert again.status_code == 403
    assert again.json["error"]["message"] == JOIN["en"]["seat_code_used"]
    assert "token" not in again.json
    # A newer code for the seat: the phone that scans it holds the seat, the first none.
    second = join(client, 0)
    assert seat_hand(client, second).status_code == 200
    assert seat_hand(client, first.json["token"]).status_code == 401


def test_tokens_are_random_and_of_one_game(client, dealt):
    tokens = {join(client, 0) for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 32 for t in tokens)
    ana = join(client, 0)
    # A new game: its seats are joined again (seats are indexes into its players).
    body = {"edition": "rollecate", "names": ["Ben", "Ana"], "seed": 3}
    assert client.post("/api/game", json=body, headers=HEADERS).status_code == 200
    assert seat_hand(client, ana).status_code == 401
    assert client.get("/api/seats").json["seats"][1] == {"seat": 1, "name": "Ana", "phone": False}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"invite": ""}, 403),
        ({"invite": "x" * 5000}, 403),
        ({"invite": 3}, 400),
        ({"invite": ["a"]}, 400),
        ({}, 400),
        ({"invite": "x", "seat": 0}, 400),
    ],
)
def test_a_bad_code_is_refused_in_words(client, dealt, body, status):
    before = client.get("/api/seats").json
    answer = client.post("/api/seats/join", json=body)
    assert answer.status_code == status
    assert answer.json["error"]["message"]
    if status == 403:
        assert answer.json["error"]["message"] == JOIN["en"]["seat_code_used"]
    else:
        assert answer.json["error"]["fields"] in (["invite"], ["seat"])
    assert client.get("/api/seats").json == before


def test_seats_before_a_game_and_past_the_players(client):
    words = JOIN["en"]
    refused = client.post("/api/seats/invite", json={"seat": 0}, headers=HEADERS, base_url=LAN)
    assert refused.status_code == 409 and refused.json["error"]["message"] == words["seat_no_game"]
    assert client.get("/api/seats").json == {"game": None, "seats": []}
    client.post(
        "/api/game", json={"edition": "rollecate", "names": ["Ana", "Ben"]}, headers=HEADERS
    )
    refused = client.post("/api/seats/invite", json={"seat": 2}, headers=HEADERS, base_url=LAN)
    assert refused.status_code == 422 and refused.json["error"]["message"] == words["seat_unknown"]


def test_laura_has_no_seat_to_join(client):
    body = {"edition": "loknroll", "variant": "solo-laura", "names": ["Ana"], "seed": "x"}
    client.post("/api/game", json=body, headers=HEADERS)
    seats = client.get("/api/seats").json["seats"]
    assert [s["name"] for s in seats] == ["Ana"]


def test_yardmasters_one_hand_goes_to_the_movers_phone_alone(client):
    body = {"game": "yardmaster-express", "edition": "yardmaster-express", "names": ["Ana", "Ben"]}
    view = client.post("/api/game", json=body, headers=HEADERS).json
    mover = view["to_move"]
    movers, others = join(client, mover), join(client, 1 - mover)
    held = seat_hand(client, movers).json["shown"]["hand"]
    assert held and all(entry["card"] for entry in held)
    assert seat_hand(client, others).json["shown"] is None
    assert client.get("/api/hand", headers=HEADERS).status_code == 409


def test_the_token_is_never_logged(client, dealt, caplog):
    caplog.set_level(logging.DEBUG)
    token = join(client, 0)
    seat_hand(client, token)
    seat_hand(client, token + "x")
    assert token not in caplog.text


# --- the page's address as a QR code -------------------------------------------------------


def test_the_join_code_names_the_address_the_phone_opened(client):
    doc = client.get("/api/join", base_url=LAN).json
    assert doc["url"] == f"{LAN}/" and doc["said"] == JOIN["en"]["join_scan"]
    image = client.get("/api/join.svg", base_url=LAN)
    assert image.mimetype == "image/svg+xml" and b"<svg" in image.data


@pytest.mark.parametrize(
    "here", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"]
)
def test_the_kiosk_on_this_machine_shows_a_network_address(client, monkeypatch, here):
    """The kiosk's browser opens the page on localhost: its code is this machine's network
    address (a phone would take "localhost" for itself)."""
    monkeypatch.setattr(network, "machine_addresses", lambda: ["127.0.0.1", "192.168.1.7"])
    monkeypatch.setattr(network, "local_name", lambda: None)
    assert client.get("/api/join", base_url=here).json["url"] == f"{LAN}/"
    monkeypatch.setattr(network, "machine_addresses", lambda: ["127.0.0.1"])
    for lang in ("en", "es"):
        doc = client.get(f"/api/join?lang={lang}", base_url=here).json
        assert doc["url"] is None and doc["said"] == JOIN[lang]["join_no_network"]
    assert client.get("/api/join.svg", base_url=here).status_code == 404


def test_a_page_listening_on_this_machine_alone_offers_phones_no_code(client):
    """`companion demo` listens on 127.0.0.1 unless told otherwise: a code of any address
    would open nothing on a phone, so the page says how to open it to them instead."""
    client.application.config["LISTENING_ON"] = "127.0.0.1"
    for lang in ("en", "es"):
        doc = client.get(f"/api/join?lang={lang}", base_url=LAN).json
        assert doc["url"] is None and doc["said"] == JOIN[lang]["join_only_here"]
        assert "--host 0.0.0.0" in doc["said"]
    assert client.get("/api/join.svg", base_url=LAN).status_code == 404
    body = {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 2}
    assert client.post("/api/game", json=body, headers=HEADERS).status_code == 200
    refused = client.post("/api/seats/invite", json={"seat": 0}, headers=HEADERS, base_url=LAN)
    assert refused.status_code == 409 and refused.json["error"]["key"] == "join_only_here"
    client.application.config["LISTENING_ON"] = "0.0.0.0"
    assert client.get("/api/join", base_url=LAN).json["url"] == f"{LAN}/"


def test_a_game_without_a_hidden_hand_has_no_seats_to_join(client):
    body = {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"], "seed": 2}
    assert client.post("/api/game", json=body, headers=HEADERS).status_code == 200
    assert client.get("/api/seats").json == {"game": None, "seats": []}
    refused = client.post("/api/seats/invite", json={"seat": 0}, headers=HEADERS, base_url=LAN)
    assert refused.status_code == 409
    assert refused.json["error"]["message"] == JOIN["en"]["seat_no_hand"]
