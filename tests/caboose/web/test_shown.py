"""A real table's deal is learnt from what it shows: the page takes the cards the camera
could not read (those taken from the draw pile, the hands at the end)."""

from __future__ import annotations

from companion.games.caboose.rules.state import Pass
from companion.games.protocol import Setting
from companion.store import Store
from companion.table import Table
from tests.playing import act, match, new_game
from tests.web.conftest import HEADERS, PIN
from web.app import create_app


def test_hands_at_the_end_are_entered_on_the_page(tmp_path, settings):
    table = Table(Store(tmp_path / "t.sqlite3"), Setting(provisional=True))
    client = create_app(table, PIN, settings).test_client()
    new_game(table, "rollecate", ["Ana", "Ben"], seed=2)
    refused = client.post("/api/shown", json={"cards": ["1"]}, headers=HEADERS)
    assert refused.status_code == 409 and refused.json["error"]["rule"] == "deal"
    while not match(table).snap.state.over:
        act(table, match(table).snap.state.to_move, Pass())
    view = client.get("/api/state").json
    # The guessed hands are not shown, nor counted, nor ranked, until the table shows them.
    assert [player["hand"] for player in view["players"]] == [None, None]
    assert view["ranking"] is None
    ana = list(match(table).snap.state.seats[0].hand)
    assert view["to_show"] == {"what": "hand", "seat": 0, "name": "Ana", "count": len(ana)}
    version = table.version
    short = client.post("/api/shown", json={"cards": ana[:-1]}, headers=HEADERS)
    assert short.status_code == 422 and "show every card" in short.json["error"]["message"]
    assert table.version == version  # nothing changed
    bad = client.post("/api/shown", json={"cards": ["9"]}, headers=HEADERS)
    assert bad.status_code == 400
    assert client.post("/api/shown", json={"cards": ana}).status_code == 401  # no PIN
    done = client.post("/api/shown", json={"cards": ana}, headers=HEADERS)
    assert done.status_code == 200
    assert done.json["to_show"]["name"] == "Ben"
    assert sorted(done.json["players"][0]["hand"]) == sorted(ana)
    assert done.json["players"][1]["hand"] is None and done.json["ranking"] is None
    ben = list(match(table).snap.state.seats[1].hand)
    last = client.post("/api/shown", json={"cards": ben}, headers=HEADERS).json
    assert last["to_show"] is None and last["ranking"]["winners"]
    assert sorted(last["players"][1]["hand"]) == sorted(ben)
