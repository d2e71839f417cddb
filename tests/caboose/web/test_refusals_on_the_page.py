"""Why the table refused what it saw, on the page in its language: the engine's refusal
keeps its English (what the API always gave) and carries a key and parameters the Spanish
page says in Spanish."""

from __future__ import annotations

import pytest

from companion.games.caboose.tracker import CARDS_LAID
from companion.games.caboose.words import card_words
from companion.pose import Pose
from companion.store import Store
from tests.caboose.test_follow import event, see, start, view_of
from tests.web.conftest import HEADERS, PIN, record
from web.app import create_app


def test_a_card_laid_apart_is_refused_in_the_pages_language(tmp_path, settings):
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    client = create_app(table, PIN, settings).test_client()
    front = play.place[0]
    apart = Pose(front.x + 40.0, front.y + 40.0, front.rotation)  # off the open end
    see(table, event(CARDS_LAID, view_of(table, [(play.cards[0], apart)])))
    code = play.cards[0]
    english = client.get("/api/state?lang=en").json["session"]
    said = card_words(code, "en")  # the camera's reading in words ("4"), never "4/s"
    assert english["problem"] == (
        f"{said} cannot be played so: card 1 played ({said}) does not join the open end of "
        "the front card: put one of its track ends against it"
    )
    assert session.problem.text == english["problem"].replace(said, code)  # the data's
    spanish = client.get("/api/state?lang=es").json["session"]
    dicho = card_words(code, "es")
    assert spanish["problem"] == (
        f"{dicho} no se puede jugar así: la carta 1 jugada ({dicho}) no se une al extremo "
        "abierto de la carta del frente: pon uno de sus extremos de vía contra él"
    )
    detail = spanish["said"]["problem"]["params"]["detail"]
    assert detail["key"] == "placement_apart"
    assert detail["params"]["number"] == 1 and detail["params"]["code"] == code
    assert detail["params"]["message"] == session.problem.text.split("so: ", 1)[1]  # English


def words(client, lang: str) -> dict:
    return client.get(f"/api/text?lang={lang}").json["text"]


def said_by_the_page(error: dict, text: dict) -> str:
    """What the page's toast says of a refusal, as the shell does: `refusal_<key>` of its
    words with the refusal's parameters and English message, else that English."""
    template = text.get(f"refusal_{error.get('key')}")
    return (
        error["message"]
        if template is None
        else template.format(**error["params"], message=error["message"])
    )


def test_a_request_out_of_turn_or_stale_is_refused_in_the_pages_language(client, dealt):
    late = client.post("/api/pass?lang=es", json={"seat": 1}, headers=HEADERS)
    assert late.status_code == 409
    error = late.json["error"]
    assert (error["rule"], error["message"]) == ("turn", "it is Ana's turn, not Ben's")
    assert (error["key"], error["params"]) == ("not_your_turn", {"name": "Ana", "other": "Ben"})
    assert said_by_the_page(error, words(client, "es")) == "le toca a Ana, no a Ben"
    assert said_by_the_page(error, words(client, "en")) == "it is Ana's turn, not Ben's"
    stale = client.post("/api/undo", json={"turn": 3}, headers=HEADERS).json["error"]
    assert stale["rule"] == "stale" and stale["message"].startswith("this was meant for turn 3")
    assert said_by_the_page(stale, words(client, "es")).startswith(
        "esto era para el turno 3, pero ahora no se ha jugado ningún turno: no se ha cambiado"
    )
    assert said_by_the_page(stale, words(client, "en")) == stale["message"]


def test_a_seat_refused_in_spanish_and_a_refusal_without_a_key_in_english(client, dealt):
    bad = client.post("/api/pass", json={"seat": 7}, headers=HEADERS).json["error"]
    assert bad["message"] == "there is no seat 7" and bad["key"] == "no_seat"
    assert said_by_the_page(bad, words(client, "es")) == "no hay ningún asiento 7"
    answer = client.post("/api/session/answer", json={"code": "2"}, headers=HEADERS)
    unfollowed = answer.json["error"]  # no camera follows this table
    assert "key" not in unfollowed  # no key: the table's English, said as it is
    assert said_by_the_page(unfollowed, words(client, "es")) == unfollowed["message"]


def test_a_tap_before_any_game_is_refused_in_the_pages_language(client):
    error = client.post("/api/pass", json={"seat": 0}, headers=HEADERS).json["error"]
    assert (error["rule"], error["message"]) == ("game", "no game is being played: start one first")
    assert said_by_the_page(error, words(client, "es")) == (
        "no se está jugando ninguna partida: empieza una primero"
    )


def test_an_answer_with_no_question_is_refused_in_the_pages_language(tmp_path, settings):
    table, _, _, _ = start(Store(tmp_path / "table.sqlite3"))  # a table a camera follows
    client = create_app(table, PIN, settings).test_client()
    answer = client.post("/api/session/answer", json={"code": "2"}, headers=HEADERS)
    error = answer.json["error"]
    assert (answer.status_code, error["message"]) == (409, "there is no question to answer")
    assert said_by_the_page(error, words(client, "es")) == "no hay ninguna pregunta que contestar"


@pytest.mark.parametrize(
    ("name", "english", "spanish"),
    [
        ("\u200b", "shows nothing (only spaces or invisible characters): type a name people "
         "can read", "el nombre del jugador 2 no muestra nada (solo espacios o caracteres "
         "invisibles): escribe un nombre que se pueda leer"),
        ("A" * 201, "is 201 characters long: a name has at most 200",
         "el nombre del jugador 2 tiene 201 caracteres: un nombre tiene como mucho 200"),
        ("Ana\nBen", "holds a control character (a line break, a tab…): type the name on one "
         "line", "el nombre del jugador 2 tiene un carácter de control (un salto de línea, un "
         "tabulador…): escribe el nombre en una sola línea"),
        ("\u001b[2J", "holds a control character (a line break, a tab…): type the name on "
         "one line", "el nombre del jugador 2 tiene un carácter de control (un salto de "
         "línea, un tabulador…): escribe el nombre en una sola línea"),
        ("A\ud800", "must be a text: it holds half of a character (a lone surrogate)",
         "el nombre del jugador 2 debe ser un texto"),
    ],
)  # fmt: skip
def test_a_name_nobody_can_read_is_refused_in_the_pages_language(client, name, english, spanish):
    for route, body, status, prefix in [
        ("/api/game", {"edition": "rollecate", "names": ["Ana", name]}, 400, "names: "),
        ("/api/import", {"record": record(players=["Ana", name])}, 422, ""),
    ]:
        answer = client.post(route, json=body, headers=HEADERS)
        error = answer.json["error"]
        assert answer.status_code == status
        assert error["message"] == f"{prefix}player 2's name {english}"  # as it always was
        assert said_by_the_page(error, words(client, "es")) == spanish
        assert said_by_the_page(error, words(client, "en")) == error["message"]


def test_a_malformed_request_is_refused_in_the_pages_language(client, dealt):
    es = words(client, "es")
    roll = client.post("/api/correct", json={"roll": "six", "turn": 0}, headers=HEADERS)
    error = roll.json["error"]
    assert (roll.status_code, error["message"]) == (
        400,
        "roll must list the wheels shown by each die",
    )
    assert (
        said_by_the_page(error, es) == "roll debe ser la lista de las ruedas que muestra cada dado"
    )
    typo = client.post("/api/pass", json={"seat": 0, "sear": 1}, headers=HEADERS).json["error"]
    assert typo["message"] == "unknown fields ['sear']: this request takes ['order', 'seat']"
    assert said_by_the_page(typo, es) == (
        "campos desconocidos: sear; esta petición admite order, seat"
    )
    missing = client.post("/api/correct", json={"roll": [1]}, headers=HEADERS).json["error"]
    assert missing["message"] == "missing fields ['turn']"
    assert said_by_the_page(missing, es) == "faltan campos: turn"
    card = client.post("/api/play", json={"seat": 0, "cards": ["9z"], "roll": []}, headers=HEADERS)
    assert card.status_code == 400
    assert said_by_the_page(card.json["error"], es) == "cards: 9z no es un código de carta"
    assert client.get("/api/export").json["turns"] == []  # nothing changed


def test_a_correction_with_nothing_to_correct_is_refused_in_the_pages_language(client, dealt):
    es = words(client, "es")
    early = client.post("/api/correct", json={"roll": [1, 1], "turn": 0}, headers=HEADERS)
    error = early.json["error"]
    assert (early.status_code, error["message"]) == (
        409,
        "no turn has been played yet: there is nothing to change",
    )
    assert said_by_the_page(error, es) == (
        "todavía no se ha jugado ningún turno: no hay nada que cambiar"
    )
    assert client.post("/api/pass", json={"seat": 0}, headers=HEADERS).status_code == 200
    passed = client.post("/api/correct", json={"roll": [1], "turn": 1}, headers=HEADERS)
    error = passed.json["error"]
    assert error["message"] == "the last turn rolled no dice: there is no roll to correct"
    assert said_by_the_page(error, es) == (
        "el último turno no tiró dados: no hay ninguna tirada que corregir"
    )


def test_a_record_refused_on_import_in_the_pages_language(client, dealt):
    before = client.get("/api/export").json
    answer = client.post("/api/import", json={"record": record(turns={})}, headers=HEADERS)
    error = answer.json["error"]
    assert (answer.status_code, error["message"], error["turn"]) == (422, "turns must be a list", 0)
    assert said_by_the_page(error, words(client, "es")) == "turns debe ser una lista"
    assert said_by_the_page(error, words(client, "en")) == "turns must be a list"
    assert client.get("/api/export").json == before  # the game being played is untouched
