"""The games the table referees, as the page and other tools ask for them: `GET /api/games`
lists each game with the options a new game may choose, and a new game names its game."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import games
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.simulate import play_game
from companion.games.protocol import Setting
from companion.games.switching import simulate as switching_simulate
from companion.games.switching import standin
from companion.games.switching.board import load as load_board
from companion.games.yardmaster import simulate as yardmaster_simulate
from companion.games.yardmaster.edition import load as yardmaster_edition
from companion.store import Store
from companion.table import Table
from tests.web.conftest import HEADERS, PIN, record
from tests.web.test_browser import browser, enter_pin, open_page, server  # noqa: F401
from tests.words_checks import codes_in
from web.app import Settings, create_app


def test_api_games_lists_every_game_with_its_editions_and_variants(client):
    listed = client.get("/api/games").json
    assert [g["id"] for g in listed] == list(games()) and listed[0]["id"] == "caboose"
    caboose = listed[0]
    assert caboose["record_format"] == "caboose-record/1"
    assert [o["id"] for o in caboose["options"]] == list(EDITIONS)
    loknroll = next(o for o in caboose["options"] if o["id"] == "loknroll")
    assert loknroll["players"] == [load_edition("loknroll").min_players, 4]
    laura = next(v for v in loknroll["variants"] if v["id"] == "solo-laura")
    assert laura["players"] == [1, 1]


def test_a_new_game_of_a_game_the_table_does_not_know_is_refused_and_changes_nothing(client, table):
    answer = client.post(
        "/api/game",
        json={"game": "chess", "edition": "rollecate", "names": ["Ana", "Ben"]},
        headers=HEADERS,
    )
    assert answer.status_code == 422
    assert "caboose" in answer.json["error"]["message"]
    assert table.view("en")["game"] is None


def test_a_new_game_naming_its_game_is_dealt(client):
    answer = client.post(
        "/api/game",
        json={"game": "caboose", "edition": "rollecate", "names": ["Ana", "Ben"]},
        headers=HEADERS,
    )
    assert answer.status_code == 200 and answer.json["edition"]["id"] == "rollecate"


@pytest.mark.browser
def test_the_start_form_offers_the_games_and_their_editions(browser, server):  # noqa: F811
    page, errors = open_page(browser, server.url)
    page.wait_for_selector("#start-form")
    enter_pin(page)
    assert page.locator("#game option").all_inner_texts() == [g.name for g in games().values()]
    names = [load_edition(e).name for e in EDITIONS]
    assert page.locator("#edition option").all_inner_texts() == names
    page.select_option("#edition", "loknroll")
    assert "solo-laura" in page.locator("#variant option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    page.fill("#names", "Ana\nBen")
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#railway-svg")
    assert server.state()["edition"]["id"] == "loknroll"
    assert errors == []


def test_a_record_of_no_known_game_is_refused_when_watched(client):
    answer = client.post("/api/replay", json={"record": {"format": "chess-pgn/1"}, "turn": 0})
    assert answer.status_code == 422
    error = answer.json["error"]
    assert error["rule"] == "record" and "caboose-record/1" in error["message"]


def test_a_caboose_record_is_watched_through_its_game(client):
    answer = client.post("/api/replay", json={"record": record(), "turn": 0})
    assert answer.status_code == 200 and answer.json["turns"] == len(record()["turns"])


# --- the last turn of a game taken back ---------------------------------------------------


# A request the page makes from the view it shows: (route, body).
Step = Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]
GAMES = ("caboose", "yardmaster-express", "switching")


def last_turn(game: str) -> tuple[dict[str, Any], list[Step]]:
    """A game one turn from its end (a record to import) and its last turn as the page
    sends it: requests made from the view the table shows before each."""
    if game == "caboose":
        done = play_game("loose-caboose", ["Ana", "Ben"], 1, [lambda state: Pass()] * 2)
        doc = done.record.as_json()
        return doc | {"turns": doc["turns"][:-1]}, [
            lambda view: ("pass", {"seat": view["to_move"]})
        ]
    if game == "yardmaster-express":
        doc = yardmaster_simulate.play(yardmaster_edition(), ["run", "run"], 3)[0].doc
        card = doc["turns"][-1]["add"]
        return doc | {"turns": doc["turns"][:-1]}, [
            lambda view: ("add", {"seat": view["to_move"], "card": card, "turn": view["turn"]})
        ]
    doc = switching_simulate.play(load_board("ours"), ("greedy", "greedy"), "finish", "short").doc
    last = doc["turns"][-1]
    dice = {"colour": last["colour"], "dice": last["dice"]}
    return doc | {"turns": doc["turns"][:-1]}, [
        lambda view: ("roll", dice | {"turn": view["turn"]}),
        lambda view: ("play", {"from": last.get("move") or last["enter"], "turn": view["turn"]}),
    ]


def played(client: FlaskClient, steps: list[Step]) -> dict[str, Any]:
    """Each step posted on the view before it, accepted; the view after the last."""
    for step in steps:
        route, body = step(client.get("/api/state").json)
        answer = client.post(f"/api/{route}", json=body, headers=HEADERS)
        assert answer.status_code == 200, answer.json
    return client.get("/api/state").json


def restarted(path: Path) -> FlaskClient:
    """The page of a service started again on the store at `path`."""
    return create_app(Table(Store(path)), PIN, Settings()).test_client()


@pytest.mark.parametrize("game", GAMES)
def test_the_last_turn_of_a_game_is_taken_back_and_the_store_agrees(tmp_path, game):
    """A family that pressed the wrong thing on the last turn takes it back: the game goes
    on, a restart resumes it on the same turn with every action made since, and the turn
    played again ends it for good (a restart then shows it ended, no game in progress)."""
    path = tmp_path / "table.sqlite3"
    client = restarted(path)
    doc, last = last_turn(game)
    assert client.post("/api/import", json={"record": doc}, headers=HEADERS).status_code == 200
    assert played(client, last)["over"]
    turn = client.get("/api/state").json["turn"]
    undo = client.post("/api/undo", json={"turn": turn}, headers=HEADERS)
    assert undo.status_code == 200, undo.json
    now = client.get("/api/state").json
    assert not now["over"]
    again = restarted(path)
    assert again.get("/api/state").json["game_kind"] == game
    assert again.get("/api/export").json == client.get("/api/export").json
    remaining = last[1:] if game == "switching" else last  # a move undone: its roll waits
    assert played(again, remaining)["over"]
    shown = restarted(path).get("/api/state").json  # its result stays on the page (issue 31)
    assert shown["game_kind"] == game and shown["over"]
    assert Store(path).current_game() is None  # over for good: no game in progress


def test_the_games_are_named_in_the_requests_language(client):
    """Issue 27: the Spanish start form lists every game, board and variant in Spanish,
    whichever game the table plays; an edition's own name (a product's) stays as it is."""
    spanish = {g["id"]: g for g in client.get("/api/games?lang=es").json}
    english = {g["id"]: g for g in client.get("/api/games?lang=en").json}
    board = spanish["switching"]["options"][0]
    assert spanish["switching"]["name"] == "Cambio de vías"
    assert board["name"].startswith("Nuestro tablero")
    assert board["variants"][0]["name"] == "Partida corta: gana quien lleve dos trenes"
    yard = spanish["yardmaster-express"]["options"][0]["variants"]
    yard_en = english["yardmaster-express"]["options"][0]["variants"]
    assert all(es["name"] != en["name"] for es, en in zip(yard, yard_en, strict=True))
    loknroll = next(o for o in spanish["caboose"]["options"] if o["id"] == "loknroll")
    assert loknroll["name"] == "LOK'n'ROLL" and loknroll["variants"][0]["name"] == "En solitario"


def test_a_change_without_the_pin_is_refused_in_words_the_page_says(client):
    """Issue 27: no header name in the message; a key the page says in its language."""
    answer = client.post("/api/pass", json={"seat": 0})
    error = answer.json["error"]
    assert answer.status_code == 401 and error["key"] == "pin_missing"
    assert "X-Table-Pin" not in error["message"]


def test_a_refusal_names_its_cards_in_words_beside_the_codes_it_keeps(client):
    """Issue 27: a Yardmaster card that does not join, tapped on a Spanish page: the answer
    keeps its key, parameters and English message (codes), and says it in `said` with the
    cards in words, as the page's toast shows it."""
    body = {"game": "yardmaster-express", "edition": "yardmaster-express",
            "names": ["Ana", "Ben"], "seed": 2}  # fmt: skip
    client.post("/api/game", json=body, headers=HEADERS)
    while True:  # cards added as they join, until one of the mover's would not
        doc = client.get("/api/hand?lang=es", headers=HEADERS).json  # the mover's phone
        seat, turn = doc["seat"], doc["turn"]
        ways = [(entry, way) for entry in doc["hand"] for way in entry["ways"]
                if way["way"] != "face_down"]  # fmt: skip
        greyed = [(entry, way) for entry, way in ways if not way["legal"]]
        if greyed:
            break
        entry, way = ways[0]
        add = {"seat": seat, "card": entry["card"], "turned": way["way"] == "turned"}
        assert (
            client.post("/api/add", json=add | {"turn": turn}, headers=HEADERS).status_code == 200
        )
    entry, way = greyed[0]
    add = {"seat": seat, "card": entry["card"], "turned": way["way"] == "turned", "turn": turn}
    answer = client.post("/api/add?lang=es", json=add, headers=HEADERS)
    error = answer.json["error"]
    assert answer.status_code == 422 and error["key"] == "no_join"
    assert error["params"]["card"] == way["laid"]  # the data keeps the code
    said = " · ".join(f"{r['name']} {r['value']}" for r in way["railcars"])
    assert error["said"].startswith(f"{said} no encaja con ") and codes_in(error["said"]) == []


def test_a_table_with_a_taught_switching_box_offers_its_board_and_plays_on_it(tmp_path):
    """Issue 33: the box named by the configuration (`Setting.catalogue`) adds its board to
    the start form's boards, and a game started on it from the page is played on it."""
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "board.json").write_text(json.dumps(standin.board_document()), encoding="utf-8")
    (folder / "box.json").write_text('{"format": "switching-box/1"}', encoding="utf-8")
    table = Table(Store(tmp_path / "table.sqlite3"), Setting(catalogue=folder))
    client = create_app(table, PIN, Settings()).test_client()
    listed = {g["id"]: g for g in client.get("/api/games?lang=es").json}
    boards = [o["id"] for o in listed["switching"]["options"]]
    assert boards == ["ours", "standin"]
    assert listed["switching"]["options"][1]["variants"][0]["name"].startswith("Partida corta")
    answer = client.post(
        "/api/game",
        json={"game": "switching", "edition": "standin", "names": ["Ana", "Ben"]},
        headers=HEADERS,
    )
    assert answer.status_code == 200, answer.json
    assert client.get("/api/export").json["board"]["id"] == "standin"
    # left for a game on ours, it is in the history named by its board's name, not its id
    ours = {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"]}
    assert client.post("/api/game", json=ours, headers=HEADERS).status_code == 200
    (left,) = client.get("/api/history").json["games"]
    assert left["option"] == "standin" and left["option_name"] == standin.board().name
    # a table without the box offers ours alone
    plain = create_app(Table(Store(tmp_path / "plain.sqlite3")), PIN, Settings()).test_client()
    plain_boards = [g for g in plain.get("/api/games").json if g["id"] == "switching"]
    assert [o["id"] for o in plain_boards[0]["options"]] == ["ours"]
