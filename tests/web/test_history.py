"""Issue 31: every game played at the table remembered, through the API. Each of the three
games and a package game (the dice race) played to its end lands in the history with its
scores and winners; a game left for a new one is there as abandoned; a page of it is
newest first; a player is a person across games (renamed, merged with the PIN); a game is
deleted with the PIN; bad input is answered with a message and changes nothing; and after a
restart the last game finished stays on the page until a new game starts."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.store import Store
from companion.table import Table
from tests.test_seam import RACE, registered  # noqa: F401
from tests.web.conftest import HEADERS, PIN
from tests.web.test_games_api import GAMES, last_turn, played
from web.app import Settings, create_app


def opened(path: Path) -> FlaskClient:
    """The page of a service started (again) on the store at `path`."""
    return create_app(Table(Store(path)), PIN, Settings()).test_client()


def race(client: FlaskClient, names: list[str], rolls: list[int]) -> dict[str, Any]:
    """A dice race started and rolled through the API; the view after the last roll."""
    assert (
        client.post("/api/game", json=RACE | {"names": names}, headers=HEADERS).status_code == 200
    )
    for turn, die in enumerate(rolls):
        answer = client.post("/api/roll", json={"die": die, "turn": turn}, headers=HEADERS)
        assert answer.status_code == 200, answer.json
    return client.get("/api/state").json


def listed(client: FlaskClient, query: str = "") -> list[dict[str, Any]]:
    answer = client.get(f"/api/history{query}")
    assert answer.status_code == 200, answer.json
    return answer.json["games"]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_played_to_its_end_is_in_the_history_with_its_scores(tmp_path, game):
    client = opened(tmp_path / "table.sqlite3")
    doc, last = last_turn(game)
    assert client.post("/api/import", json={"record": doc}, headers=HEADERS).status_code == 200
    assert listed(client) == []  # in progress: not history yet
    end = played(client, last)
    assert end["over"]
    (entry,) = listed(client, "?lang=es")
    assert entry["game"] == game and entry["over"] is True
    names = [p if isinstance(p, str) else p["name"] for p in doc["players"]]
    assert [p["name"] for p in entry["players"]] == names
    assert len(entry["scores"]) == len(entry["players"]) and entry["winners"]
    assert entry["winner_names"] == [entry["players"][s]["name"] for s in entry["winners"]]
    assert entry["turns"] == len(doc["turns"]) + 1
    spanish = {g["id"]: g["name"] for g in client.get("/api/games?lang=es").json}
    assert entry["game_name"] == spanish[game]  # words, not the id
    assert entry["started"] <= entry["finished"] and entry["finished"].endswith("Z")
    one = client.get(f"/api/history/{entry['id']}").json
    assert one["record"] == client.get("/api/export").json  # the record as it ended
    exported = client.get(f"/api/history/{entry['id']}/record")
    assert exported.json == one["record"]
    assert f"{game}-game-{entry['id']}.json" in exported.headers["Content-Disposition"]
    watched = client.post("/api/replay", json={"record": one["record"], "turn": 1})
    assert watched.status_code == 200 and watched.json["game_kind"] == game  # the watcher


def test_the_caboose_counts_penalty_points_where_the_fewest_win(tmp_path):
    client = opened(tmp_path / "table.sqlite3")
    doc, last = last_turn("caboose")
    client.post("/api/import", json={"record": doc}, headers=HEADERS)
    played(client, last)
    (entry,) = listed(client)
    assert entry["fewest_win"] is True
    best = min(entry["scores"])
    assert all(entry["scores"][s] == best for s in entry["winners"])


def test_a_package_game_is_remembered_and_a_game_left_is_abandoned(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])  # Ana reaches 12 and wins
    race(client, ["Ana", "Cleo"], [3])  # left after one roll for a new race
    race(client, ["Ben", "Ana"], [])
    games = listed(client)
    assert [(g["over"], g["winner_names"]) for g in games] == [(False, []), (True, ["Ana"])]
    assert games[0]["scores"] == [3, 0] and games[1]["scores"] == [12, 1]
    assert games[1]["option_name"] == "short track (12 spaces)"


def test_a_last_turn_taken_back_leaves_the_history_until_played_again(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])
    assert len(listed(client)) == 1
    assert client.post("/api/undo", json={"turn": 3}, headers=HEADERS).status_code == 200
    assert listed(client) == []
    assert opened(tmp_path / "table.sqlite3").get("/api/history").json["games"] == []
    client.post("/api/roll", json={"die": 6, "turn": 2}, headers=HEADERS)
    assert [g["over"] for g in listed(client)] == [True]


def test_the_history_is_paged_newest_first(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    for _ in range(5):
        race(client, ["Ana", "Ben"], [6, 1, 6])
    first = client.get("/api/history?count=2").json
    assert [g["id"] for g in first["games"]] == [5, 4] and first["total"] == 5
    second = client.get(f"/api/history?count=2&before={first['next']}").json
    assert [g["id"] for g in second["games"]] == [3, 2]
    third = client.get(f"/api/history?count=2&before={second['next']}").json
    assert [g["id"] for g in third["games"]] == [1] and third["next"] is None


@pytest.mark.parametrize(
    "query", ["?count=0", "?count=101", "?count=x", "?before=-1", "?before=1.5", "?count="]
)
def test_a_bad_page_is_refused_with_what_to_ask(registered, tmp_path, query):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    answer = client.get(f"/api/history{query}")
    assert answer.status_code == 400
    assert "must be a whole number" in answer.json["error"]["message"]


def test_a_game_is_deleted_with_the_pin_and_bad_requests_change_nothing(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])
    race(client, ["Ana", "Cleo"], [6, 1, 6])
    race(client, ["Ben", "Cleo"], [2])  # in progress
    before = client.get("/api/history").json
    assert client.delete("/api/history/1").status_code == 401  # no PIN
    elsewhere = HEADERS | {"Origin": "http://evil.example"}
    assert client.delete("/api/history/1", headers=elsewhere).status_code == 403  # another site
    assert client.delete("/api/history/9", headers=HEADERS).status_code == 404
    assert client.delete("/api/history/x", headers=HEADERS).status_code == 400
    playing = client.delete("/api/history/3", headers=HEADERS)
    assert playing.status_code == 404  # not in the history: being played
    assert client.get("/api/history").json == before
    assert client.delete("/api/history/1", headers=HEADERS).status_code == 200
    assert [g["id"] for g in listed(client)] == [2]
    assert client.get("/api/history/1").status_code == 404
    assert client.get("/api/state").json["turn"] == 1  # the game in progress untouched
    names = {p["name"] for p in client.get("/api/players").json["players"]}
    assert names == {"Ana", "Cleo"}  # Ben played only the deleted game (and the one in play)


def test_the_game_finished_on_the_table_is_deleted_and_the_table_is_then_free(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])
    assert client.delete("/api/history/1", headers=HEADERS).status_code == 200
    assert client.get("/api/state").json["game"] is None
    assert opened(tmp_path / "table.sqlite3").get("/api/state").json["game"] is None


def test_players_are_people_across_games_with_their_standings(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])  # Ana 12 wins, Ben 1
    race(client, [" ana ", "Ben"], [1, 6, 1, 6])  # Ben 12 wins, ana 2
    race(client, ["ANA", "Ben"], [6, 1, 6])  # Ana wins
    answer = client.get("/api/players?lang=es").json
    people = {p["name"]: p for p in answer["players"]}
    assert set(people) == {"Ana", "Ben"}  # one Ana, however she was typed
    chart = client.get(f"/api/players/{people['Ana']['id']}").json
    assert [(r["id"], r["score"], r["won"]) for r in chart["results"]] == [
        (1, 12, True),
        (2, 2, False),
        (3, 12, True),
    ]
    assert client.get("/api/players/99").status_code == 404
    assert client.get("/api/players/x").status_code == 400
    ana = next(s for s in answer["standings"] if s["name"] == "Ana")
    assert (ana["played"], ana["wins"], ana["best"]) == (3, 2, {"id": 1, "score": 12})
    assert ana["average"] == round((12 + 2 + 12) / 3, 2)
    assert ana["game_name"] == "Carrera de dados"


def test_a_player_is_renamed_and_two_are_merged_with_the_pin(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["Ana", "Ben"], [6, 1, 6])
    race(client, ["Anita", "Ben"], [6, 1, 6])
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    rename = f"/api/players/{ids['Ben']}/rename"
    assert client.post(rename, json={"name": "Benjamín"}).status_code == 401
    taken = client.post(rename, json={"name": "anita"}, headers=HEADERS)
    assert taken.status_code == 409 and "merge" in taken.json["error"]["message"]
    for bad in ({"name": ""}, {"name": "a\nb"}, {"name": 3}, {"nom": "x"}, {}):
        assert client.post(rename, json=bad, headers=HEADERS).status_code == 400, bad
    before = client.get("/api/players").json
    assert (
        client.post(
            f"/api/players/{ids['Anita']}/merge", json={"into": 99}, headers=HEADERS
        ).status_code
        == 404
    )
    assert (
        client.post(
            f"/api/players/{ids['Anita']}/merge", json={"into": "1"}, headers=HEADERS
        ).status_code
        == 400
    )
    assert client.get("/api/players").json == before  # nothing changed
    assert client.post(rename, json={"name": "Benjamín"}, headers=HEADERS).status_code == 200
    merged = client.post(
        f"/api/players/{ids['Anita']}/merge", json={"into": ids["Ana"]}, headers=HEADERS
    )
    assert merged.status_code == 200
    games = listed(client)
    assert [[p["name"] for p in g["players"]] for g in games] == [["Ana", "Benjamín"]] * 2
    race(client, ["anita", "ben"], [6, 1, 6])  # their old names: the same people
    people = client.get("/api/players").json["players"]
    assert [(p["name"], p["games"]) for p in people] == [("Ana", 3), ("Benjamín", 3)]


def test_the_history_is_exported_as_csv_without_formulas(registered, tmp_path):  # noqa: F811
    client = opened(tmp_path / "table.sqlite3")
    race(client, ["=SUM(A1)", "Ben"], [6, 1, 6])
    race(client, ["Ana", "Ben"], [2])
    race(client, ["Ana", "Ben"], [])
    answer = client.get("/api/history.csv?lang=es")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert [r["id"] for r in rows] == ["2", "1"]
    assert rows[1]["players"] == "'=SUM(A1); Ben" and rows[1]["winners"] == "'=SUM(A1)"
    assert rows[1]["scores"] == "12; 1" and rows[0]["over"] == "no"
    assert rows[0]["game"] == "Carrera de dados"


def test_after_a_restart_the_last_result_stays_until_a_new_game(registered, tmp_path):  # noqa: F811
    """Point 3: a finished game's result is on the page after a restart, not an empty
    table; a new game replaces it."""
    path = tmp_path / "table.sqlite3"
    end = race(opened(path), ["Ana", "Ben"], [6, 1, 6])
    after = opened(path).get("/api/state").json
    assert after["game_kind"] == "dice-race" and after["winner"] == end["winner"] is not None
    assert after["players"] == end["players"]
    client = opened(path)
    race(client, ["Cleo", "Ben"], [])
    assert client.get("/api/state").json["players"][0]["name"] == "Cleo"
    assert [g["over"] for g in listed(client)] == [True]  # the new game is no history yet


def test_after_a_restart_the_abandoned_game_is_not_shown(registered, tmp_path):  # noqa: F811
    path = tmp_path / "table.sqlite3"
    client = opened(path)
    race(client, ["Ana", "Ben"], [6, 1, 6])
    race(client, ["Ana", "Ben"], [3])
    assert opened(path).get("/api/state").json["turn"] == 1  # the game in progress resumed
