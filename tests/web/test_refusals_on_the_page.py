"""Why the table refused what it saw, on the page in its language: the engine's refusal
keeps its English (what the API always gave) and carries a key and parameters the Spanish
page says in Spanish."""

from __future__ import annotations

from companion.games.caboose.tracker import CARDS_LAID
from companion.pose import Pose
from companion.store import Store
from tests.test_session import event, see, start, view_of
from tests.web.conftest import HEADERS, PIN
from web.app import create_app


def test_a_card_laid_apart_is_refused_in_the_pages_language(tmp_path, settings):
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    client = create_app(table, PIN, settings).test_client()
    front = play.place[0]
    apart = Pose(front.x + 40.0, front.y + 40.0, front.rotation)  # off the open end
    see(table, event(CARDS_LAID, view_of(table, [(play.cards[0], apart)])))
    code = play.cards[0]
    english = client.get("/api/state?lang=en").json["session"]
    assert english["problem"] == (
        f"{code} cannot be played so: card 1 played ({code}) does not join the open end of "
        "the front card: put one of its track ends against it"
    )
    assert english["problem"] == session.problem.text
    spanish = client.get("/api/state?lang=es").json["session"]
    assert spanish["problem"] == (
        f"{code} no se puede jugar así: la carta 1 jugada ({code}) no se une al extremo "
        "abierto de la carta del frente: pon uno de sus extremos de vía contra él"
    )
    detail = spanish["said"]["problem"]["params"]["detail"]
    assert detail["key"] == "placement_apart"
    assert detail["params"]["number"] == 1 and detail["params"]["code"] == code
    assert detail["params"]["message"] == english["problem"].split("so: ", 1)[1]  # its English


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
    shown = client.post("/api/shown", json={"cards": ["2"]}, headers=HEADERS).json["error"]
    assert "key" not in shown  # no key: the table's English, said as it is
    assert said_by_the_page(shown, words(client, "es")) == shown["message"]


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
