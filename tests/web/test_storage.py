"""The table's storage as the page meets it: a change the disk has no room for is refused
as "the table's storage is full" (507, in the page's language), changes nothing, and the
same change is kept once space is freed."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.table import Table
from tests.web.conftest import HEADERS


def room(table: Table, pages: int | None) -> None:
    """The disk's room as SQLite's page limit (what a full disk gives: SQLITE_FULL): no
    page more than the store has (None: plenty)."""
    db = table.store._db
    (now,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages or now * 100}")


def test_a_full_disk_is_refused_as_storage_full_and_changes_nothing(client: FlaskClient, table):
    started = {"game": "caboose", "edition": "rollecate", "names": ["Ana", "Ben"], "seed": 1}
    assert client.post("/api/game", json=started, headers=HEADERS).status_code == 200
    room(table, 1)
    for step in range(400):  # a pass, taken back, played again: entries until no room is left
        before, kept = client.get("/api/state").json, client.get("/api/export").json
        route, body = (
            ("pass", {"seat": before["to_move"]})
            if step % 2 == 0
            else ("undo", {"turn": before["turn"]})
        )
        answer = client.post(f"/api/{route}", json=body, headers=HEADERS)
        if answer.status_code == 507:
            break
        assert answer.status_code == 200, answer.json
    else:
        raise AssertionError("the store never ran out of room")
    refused = answer.json["error"]
    assert refused["key"] == "storage_full" and "storage is full" in refused["message"]
    assert client.get("/api/state").json == before  # nothing changed, nobody woken
    assert client.get("/api/export").json == kept
    spanish = client.get("/api/text?lang=es").json["text"]["refusal_storage_full"]
    assert spanish.startswith("El almacenamiento de la mesa está lleno: no se cambió nada")
    room(table, None)  # space freed: the same change is kept
    assert client.post(f"/api/{route}", json=body, headers=HEADERS).status_code == 200
    assert client.get("/api/state").json["version"] == before["version"] + 1
