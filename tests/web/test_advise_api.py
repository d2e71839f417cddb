"""`POST /api/advise`, the private advisor's route: read only and without a PIN, limited per
phone, refusals in the page's language naming the card, and the hand never kept: not in
the table's version, not in the store's files, not in any log record."""

from __future__ import annotations

import inspect
import json
import logging
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import games, protocol
from companion.games.caboose import advise as caboose_advise
from companion.games.protocol import Setting
from companion.games.yardmaster import advise as yard_advise
from companion.store import Store
from companion.table import Table
from tests.web.conftest import HEADERS, PIN
from tests.words_checks import codes_in
from web.app import Settings, create_app
from web.words import advisor_words

# Ana's hand in an order no record holds, so the store or a log holding it is seen.
HAND = ["2", "C2", "1"]
HAND_TEXTS = (json.dumps(HAND), json.dumps(HAND, separators=(",", ":")))


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def test_advice_needs_no_pin_and_changes_nothing(client, dealt, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    version, stored = dealt.version, files_of(tmp_path)
    view = client.get("/api/state").get_data()
    answer = client.post("/api/advise", json={"seat": 0, "hand": HAND})
    assert answer.status_code == 200, answer.json
    advice = answer.json
    assert advice["game_kind"] == "caboose" and advice["version"] == version
    assert advice["boot"] == client.get("/api/state").json["boot"]
    assert advice["hand"] == HAND and advice["name"] == "Ana" and advice["to_move"] is True
    # Rollecate's front 3: the 1 differs by 2; the 2 is the only play.
    assert [p["cards"] for p in advice["plays"]] == [["2"]]
    assert advice["best"]["reason"] == "only_play"
    assert answer.headers["Cache-Control"] == "no-store"
    assert dealt.version == version
    assert files_of(tmp_path) == stored
    assert client.get("/api/state").get_data() == view
    for record in caplog.records:
        said = record.getMessage() + repr(record.args)
        assert not any(text in said for text in HAND_TEXTS)


def test_the_hand_is_never_written_to_the_store(client, dealt, tmp_path):
    for _ in range(3):
        assert client.post("/api/advise", json={"seat": 0, "hand": HAND}).status_code == 200
    for name, content in files_of(tmp_path).items():
        for text in HAND_TEXTS:
            assert text.encode() not in content, name


@pytest.mark.parametrize(
    ("hand", "english", "spanish"),
    [
        (["9"], "9 is not a card", "9 no es una carta"),
        (["1", "1", "2", "2"], "holds at most 3 cards", "tiene como mucho 3 cartas"),
        (["C1", "C1"], "chaos card 1: the box has 1", "carta de caos 1: la caja tiene 1"),
        ("2 C2", "must be a list of cards", "debe ser una lista de cartas"),
    ],
)
def test_a_bad_hand_is_a_400_in_the_pages_language(client, dealt, hand, english, spanish):
    version = dealt.version
    for lang, words in (("en", english), ("es", spanish)):
        answer = client.post("/api/advise", json={"seat": 0, "hand": hand, "lang": lang})
        assert answer.status_code == 400
        assert words in answer.json["error"]["message"]
        # the refusal names a card of the hand: no cache on the way may keep it either
        assert answer.headers["Cache-Control"] == "no-store"
    assert dealt.version == version


@pytest.mark.parametrize(
    ("body", "english", "spanish"),
    [
        ({"seat": 5, "hand": []}, "Pick who you are", "Elige quién eres"),
        ({"seat": 0}, "not understood", "No se entendió"),
        ({"seat": 0, "hand": [], "pin": PIN}, "not understood", "No se entendió"),
    ],
)
def test_a_bad_request_is_a_400_in_the_pages_language(client, dealt, body, english, spanish):
    for lang, words in (("en", english), ("es", spanish)):
        answer = client.post(f"/api/advise?lang={lang}", json=body)
        assert answer.status_code == 400
        assert words in answer.json["error"]["message"]


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
def test_a_body_that_is_not_json_is_a_400_in_the_pages_language(client, dealt, content_type):
    answer = client.post(
        "/api/advise?lang=es", data="{seat", headers={"Content-Type": content_type}
    )
    assert answer.status_code == 400
    assert "No se entendió" in answer.json["error"]["message"]
    assert answer.headers["Cache-Control"] == "no-store"


def test_no_game_yet_is_said(client):
    answer = client.post("/api/advise", json={"seat": 0, "hand": [], "lang": "es"})
    assert answer.status_code == 409
    assert "No hay partida" in answer.json["error"]["message"]


def test_too_many_questions_from_one_phone_are_a_429_saying_to_wait(table, dealt):
    app = create_app(table, PIN, Settings(advise_rate=0.5, advise_burst=2))
    phone, other = app.test_client(), app.test_client()
    body = {"seat": 1, "hand": ["3"], "lang": "en"}
    assert [phone.post("/api/advise", json=body).status_code for _ in range(2)] == [200, 200]
    refused = phone.post("/api/advise", json=body)
    assert refused.status_code == 429
    assert "wait 2 s" in refused.json["error"]["message"]
    assert refused.headers["Retry-After"] == "2"
    assert refused.headers["Cache-Control"] == "no-store"
    spanish = phone.post("/api/advise", json=body | {"lang": "es"})
    assert "espera" in spanish.json["error"]["message"]
    # Another phone (another address) is not held up by the first one.
    elsewhere = other.post("/api/advise", json=body, environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
    assert elsewhere.status_code == 200


def test_the_advisor_page_speaks_the_chosen_language(client, dealt):
    english = client.get("/advisor").get_data(as_text=True)
    assert "Who are you?" in english and "advisor.js" in english
    spanish = client.get("/advisor?lang=es")
    assert "¿Quién eres?" in spanish.get_data(as_text=True)
    assert spanish.headers["Cache-Control"] == "no-store"


def test_a_game_without_a_hidden_hand_says_so(client):
    started = client.post(
        "/api/game",
        json={"game": "switching", "edition": "ours", "names": ["Ana", "Ben"], "seed": 1},
        headers=HEADERS,
    )
    assert started.status_code == 200, started.json
    answer = client.post("/api/advise", json={"seat": 0, "hand": []})
    assert answer.status_code == 200
    assert answer.json["no_hidden_hand"] is True and answer.json["game_kind"] == "switching"


def test_at_a_real_table_the_advisor_knows_what_the_page_cannot(tmp_path):
    """A provisional deal (a deck shuffled by hand): the page shows no hand nor plays, the
    advisor answers for the hand a player types, checked against the railway in sight."""
    real = Table(Store(tmp_path / "real.sqlite3"), Setting(provisional=True))
    client = create_app(real, PIN, Settings()).test_client()
    game = {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 4}
    assert client.post("/api/game", json=game, headers=HEADERS).status_code == 200
    view = client.get("/api/state").json
    assert view["choices"]["provisional"] is True
    assert client.get("/api/hand", headers=HEADERS).status_code == 409  # no hand known
    front = view["railway"]["cards"][-1]["code"]
    hand = [code for code in ("1", "2", "3", "4") if abs(int(code) - int(front[0])) != 2][:2]
    answer = client.post("/api/advise", json={"seat": 0, "hand": hand})
    assert answer.status_code == 200, answer.json
    assert {p["cards"][0] for p in answer.json["plays"]} == set(hand)
    assert answer.json["version"] == view["version"]


def test_every_refusal_of_the_advisor_has_words_in_both_languages():
    """Each key the games' advice and the seam's checks refuse with is said by the route in
    English and Spanish, not as the generic "not understood"."""
    shared = [inspect.getsource(protocol.advised_seat), inspect.getsource(protocol.check_held)]
    every: set[str] = set()
    for game, advise in (("caboose", caboose_advise), ("yardmaster-express", yard_advise)):
        sources = [inspect.getsource(advise), *shared]
        keys = {key for source in sources for key in re.findall(r'key="(\w+)"', source)}
        every |= keys
        for lang in ("en", "es"):
            words = advisor_words(games()[game], lang)  # the shell's and the game's
            for key in keys:
                assert f"error_{key}" in words, (game, lang, key)
    assert {"not_a_card", "all_seen", "too_many", "seat", "no_game", "over", "laura"} <= every


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("game", "hand", "said"),
    [
        ({"edition": "loose-caboose"}, ["C2"], {"en": "chaos card 2", "es": "carta de caos 2"}),
        ({"edition": "loose-caboose"}, ["4x", "4x"], {"en": "broken 4", "es": "4 rota"}),
        ({"game": "yardmaster-express", "edition": "yardmaster-express"}, ["Q1-Q1"], {}),
    ],
)
def test_a_card_the_hand_cannot_hold_is_named_in_words(tmp_path, game, hand, said, lang):
    """Issue 27: the advisor said "La caja tiene 1 de la carta C1": a card it refuses is
    named in the phone's words (a code that is no card of any colour stays as typed)."""
    client = create_app(Table(Store(tmp_path / "t.sqlite3")), PIN, Settings()).test_client()
    body = game | {"names": ["Ana", "Ben"], "seed": 1}
    assert client.post("/api/game", json=body, headers=HEADERS).status_code == 200
    answer = client.post("/api/advise", json={"seat": 0, "hand": hand, "lang": lang})
    message = answer.json["error"]["message"]
    assert answer.status_code == 400 and not codes_in(message.replace("Q1-Q1", "")), message
    assert said.get(lang, "Q1-Q1") in message


cards_or_not = st.sampled_from(["1", "2x", "C3", "4/s", "3!", "", "x", "R1-R1", "W"]) | st.none()
questions = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=2),
        "hand": st.lists(cards_or_not | st.integers(0, 5), max_size=6) | cards_or_not,
        "lang": st.sampled_from(["en", "es", "fr", ""]) | st.integers(),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=questions)
def test_strange_questions_are_answered_or_refused_cleanly(table, dealt, body):
    # A limit no test reaches: each question here must be answered or refused for itself.
    client = create_app(table, PIN, Settings(advise_rate=1000.0, advise_burst=1000)).test_client()
    version = dealt.version
    answer = client.post("/api/advise", json=body)
    assert answer.status_code in (200, 400), answer.json
    assert answer.headers["Cache-Control"] == "no-store"  # answered or refused: not kept
    if answer.status_code == 400:
        assert answer.json["error"]["message"]
    assert dealt.version == version
