"""Every route of the JSON API and every way a request can be refused: the game is
unchanged after each refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.playing import match
from tests.web.conftest import HEADERS, PIN, record


def snapshot(client, table):
    """What must not move when a request is refused: the record, the journal, the version."""
    _, number, doc = table.record()
    return json.dumps(doc), len(table.store.journal(number)), table.version


def error_of(answer) -> dict:
    assert answer.is_json, answer.data[:200]
    return answer.json["error"]


# --- reading -------------------------------------------------------------------------------


def test_state_without_a_game(client):
    answer = client.get("/api/state")
    assert answer.status_code == 200
    assert answer.json["game"] is None


def test_state_shows_railway_players_and_choices(client, dealt):
    doc = client.get("/api/state").json
    assert [c["code"] for c in doc["railway"]["cards"]] == ["2", "3", "4", "3"]
    assert doc["railway"]["caboose"] == 2
    assert doc["railway"]["schematic"] is True  # no shapes in the record: poses unknown
    assert doc["draw"] == 7
    assert [p["hand_size"] for p in doc["players"]] == [2, 2]
    assert doc["players"][0]["to_move"] is True
    assert doc["choices"] == {"faces": [0, 1], "provisional": False}
    assert doc["undo"] == {"possible": False, "rule": "undo"}
    assert doc["boot"] == client.get("/api/state").json["boot"]  # one service run


def test_the_movers_hand_comes_with_the_pin_alone(client, dealt):
    answer = client.get("/api/hand", headers=HEADERS)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    doc = answer.json
    assert (doc["seat"], doc["name"], doc["turn"]) == (0, "Ana", 0)
    # Ana draws a 2: the only play by the values rule (a 1 may not join a 3).
    assert [c["code"] for c in doc["hand"]] == ["1", "C2", "2"]
    (play,) = doc["plays"]
    assert play["cards"] == ["2"] and play["dice"] == 2
    assert play["p_derail"] == {"num": 0, "den": 1, "percent": 0.0}
    assert doc["chaos"] == ["C2"]
    assert doc["boot"] == client.get("/api/state").json["boot"]
    for headers in ({}, {"X-Table-Pin": "000000"}):
        refused = client.get("/api/hand", headers=headers)
        assert refused.status_code == 401 and error_of(refused)["rule"] == "pin"
        assert "C2" not in refused.get_data(as_text=True)


def test_no_hidden_hand_in_the_public_view(client, dealt):
    """The view every page and the screen beside the table read, and its event stream,
    hold no card of the mover's hand and no odds of its plays."""
    for lang in ("en", "es"):
        doc = client.get(f"/api/state?lang={lang}").json
        assert set(doc["choices"]) == {"faces", "provisional"}
        assert "plays" not in json.dumps(doc) and "p_derail" not in json.dumps(doc)
        assert all(p["hand"] is None for p in doc["players"])
        stream = client.get(f"/api/events?lang={lang}").get_data(as_text=True)
        (state,) = [line for line in stream.splitlines() if line.startswith("data: ")]
        assert json.loads(state[len("data: ") :]) == doc


def test_no_hand_to_show_without_a_known_hand(client):
    refused = client.get("/api/hand", headers=HEADERS)
    assert refused.status_code == 409 and error_of(refused)["rule"] == "hand"


def test_editions_and_text(client):
    editions = client.get("/api/editions").json
    assert {e["id"] for e in editions} == {"loose-caboose", "rollecate", "loknroll"}
    assert "solo-laura" in next(e for e in editions if e["id"] == "loknroll")["variants"]
    assert client.get("/api/text", headers={"Accept-Language": "es"}).json["lang"] == "es"
    assert client.get("/api/text?lang=en", headers={"Accept-Language": "es"}).json["lang"] == "en"


def test_page_follows_the_browser_language_and_can_be_switched(client):
    page = client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert page.status_code == 200
    assert b'lang="es"' in page.data and b"Registro de la partida" in page.data
    switched = client.get("/?lang=en", headers={"Accept-Language": "es"})
    assert b'lang="en"' in switched.data
    assert "lang=en" in switched.headers["Set-Cookie"]
    # The cookie keeps the choice for the next visit.
    assert b'lang="en"' in client.get("/", headers={"Accept-Language": "es"}).data
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]


def test_static_files_are_served(client):
    assert client.get("/static/shell.js").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_log_in_spanish(client, dealt):
    client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
    doc = client.get("/api/state?lang=es").json
    assert doc["log"][0]["text"].startswith("turno 1 Ana pasa")


def test_export_is_a_record(client, dealt):
    client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
    answer = client.get("/api/export")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["Content-Disposition"]
    doc = json.loads(answer.data)
    assert doc["format"] == "caboose-record/1" and doc["turns"] == [{"pass": True}]


def test_export_without_a_game_is_a_conflict(client):
    answer = client.get("/api/export")
    assert answer.status_code == 409 and error_of(answer)["rule"] == "game"


# --- the event stream ---------------------------------------------------------------------


def test_events_stream_the_state_then_heartbeats_then_end(client, dealt):
    answer = client.get("/api/events")
    assert answer.mimetype == "text/event-stream"
    text = answer.get_data(as_text=True)  # the stream ends after stream_seconds
    assert text.startswith("retry: ")
    assert "event: state\n" in text and ": heartbeat" in text
    data = next(line for line in text.splitlines() if line.startswith("data: "))
    assert json.loads(data[6:])["railway"]["caboose"] == 2


def test_events_without_a_game(client):
    text = client.get("/api/events").get_data(as_text=True)
    assert '"game": null' in text


def test_events_are_capped_and_released(table, settings):
    from dataclasses import replace

    from web.app import create_app

    app = create_app(table, PIN, replace(settings, max_streams=1))
    client = app.test_client()
    first = client.get("/api/events", buffered=False)
    refused = client.get("/api/events")
    assert refused.status_code == 503 and error_of(refused)["rule"] == "busy"
    first.close()
    again = client.get("/api/events")
    assert again.status_code == 200
    again.close()


# --- the PIN and cross-site requests ---------------------------------------------------------


def test_pin_check(client):
    assert client.post("/api/pin", json={}, headers=HEADERS).json == {"ok": True}
    wrong = client.post("/api/pin", json={}, headers={"X-Table-Pin": "000000"})
    assert wrong.status_code == 401 and error_of(wrong)["rule"] == "pin"
    missing = client.post("/api/pin", json={})
    assert missing.status_code == 401


def test_too_many_wrong_pins_lock_out_for_a_while(client):
    for _ in range(10):
        client.post("/api/pin", json={}, headers={"X-Table-Pin": "nope"})
    locked = client.post("/api/pin", json={}, headers=HEADERS)
    assert locked.status_code == 429


@pytest.mark.parametrize(
    "path",
    [
        "/api/game",
        "/api/import",
        "/api/stage",
        "/api/pass",
        "/api/play",
        "/api/undo",
        "/api/command/stage",
        "/api/command/pass",
        "/api/command/bogus",
    ],
)
def test_every_change_needs_the_pin(client, dealt, path):
    before = snapshot(client, dealt)
    answer = client.post(path, json={"seat": 0})
    assert answer.status_code == 401
    assert snapshot(client, dealt) == before


def test_too_many_wrong_pins_on_the_command_route_lock_out_its_old_paths_too(client, dealt):
    """One count of wrong PINs per phone, whichever path of a command it tries them on."""
    before = snapshot(client, dealt)
    for path in ("/api/command/pass", "/api/pass") * 5:
        wrong = client.post(path, json={"seat": 0}, headers={"X-Table-Pin": "nope"})
        assert wrong.status_code == 401
    for path in ("/api/command/pass", "/api/pass", "/api/pin"):
        assert client.post(path, json={"seat": 0}, headers=HEADERS).status_code == 429
    assert snapshot(client, dealt) == before


@pytest.mark.parametrize("path", ["/api/pass", "/api/command/pass"])
def test_a_cross_site_form_post_fails(client, dealt, path):
    before = snapshot(client, dealt)
    form = client.post(path, data={"seat": "0"}, headers=HEADERS)
    assert form.status_code == 415 and error_of(form)["rule"] == "csrf"
    other = client.post(path, json={"seat": 0}, headers=HEADERS | {"Origin": "http://evil.example"})
    assert other.status_code == 403
    fetched = client.post(
        path, json={"seat": 0}, headers=HEADERS | {"Sec-Fetch-Site": "cross-site"}
    )
    assert fetched.status_code == 403
    assert snapshot(client, dealt) == before
    same = client.post(path, json={"seat": 0}, headers=HEADERS | {"Origin": "http://localhost"})
    assert same.status_code == 200


# --- one route for every game's commands, and the old paths of them --------------------------

MOVER, HELD = "<the mover>", "<a card the mover holds>"
# Each game's commands as its page sends them, and the others' and no game's: accepted,
# refused for their shape (400), by the rules (409, 422) or as no command of the game (404).
TAPS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "caboose": [
        ("stage", {"seat": 0, "cards": ["2"]}),
        ("unstage", {}),
        ("play", {"seat": 0, "cards": ["2"], "roll": [1, 0]}),
        ("order", {"order": ["4"], "turn": 1}),
        ("correct", {"roll": [1, 1], "turn": 1}),
        ("undo", {"turn": 1}),
        ("pass", {"seat": 0}),
        ("chaos", {"seat": 1, "cards": ["C1"]}),
        ("shown", {"cards": ["1"]}),
        ("play", {"seat": "1", "cards": ["3"]}),
        ("session/answer", {"code": "2"}),
        ("roll", {"colour": "purple", "dice": [1, 2], "turn": 0}),
        ("add", {}),
    ],
    "yardmaster-express": [
        ("add", {"seat": MOVER, "card": HELD, "turn": 0}),
        ("add", {"seat": MOVER, "face_down": True, "turn": 0}),
        ("undo", {"turn": 5}),
        ("undo", {"turn": 1}),
        ("next", {}),
        ("next", {"bogus": 1}),
        ("pass", {"seat": 0}),
    ],
    "switching": [
        ("roll", {"colour": "purple", "dice": [1, 2], "turn": 0}),
        ("play", {"from": "nowhere", "turn": 1}),
        ("pass", {"turn": 1}),
        ("undo", {"turn": 2}),
        ("roll", {"repair": "purple", "colour": "purple", "dice": [1, 2], "turn": 0}),
        ("stage", {"seat": 0}),
    ],
}


def twin(tmp_path, name: str, game: str):
    """A table with `game` dealt the same way as its twin's, and a client of it."""
    from companion.store import Store
    from companion.table import Table
    from web.app import create_app

    client = create_app(Table(Store(tmp_path / f"{name}.sqlite3")), PIN).test_client()
    if game == "caboose":
        answer = client.post("/api/import", json={"record": record()}, headers=HEADERS)
    else:
        body = {"game": game, "edition": EDITIONS[game], "names": ["Ana", "Ben"], "seed": 2}
        answer = client.post("/api/game", json=body, headers=HEADERS)
    assert answer.status_code == 200, answer.json
    return client


EDITIONS = {"yardmaster-express": "yardmaster-express", "switching": "ours"}


def without_boot(doc: dict[str, Any]) -> dict[str, Any]:
    """An answer of one table as its twin's gives it (each service run has its own boot)."""
    return {key: value for key, value in doc.items() if key != "boot"}


@pytest.mark.parametrize("game", TAPS)
def test_the_old_paths_of_the_commands_answer_as_the_command_route(tmp_path, game):
    """Two tables dealt alike, one tapped through `/api/command/<name>`, the other through
    the paths the page used before (`/api/<name>`): the same answers, tap after tap."""
    new, old = twin(tmp_path, "new", game), twin(tmp_path, "old", game)
    mover = new.get("/api/state").json.get("to_move")
    hand = new.get("/api/hand", headers=HEADERS).json.get("hand")
    held = hand[0]["card"] if game == "yardmaster-express" else None  # a railcar card
    statuses = set()
    for name, tap in TAPS[game]:
        chosen = {MOVER: mover, HELD: held}
        body = {key: chosen.get(value, value) if isinstance(value, str) else value
                for key, value in tap.items()}  # fmt: skip
        by_route = new.post(f"/api/command/{name}", json=body, headers=HEADERS)
        by_alias = old.post(f"/api/{name}", json=body, headers=HEADERS)
        said = f"{game} {name} {body}: {by_route.json} / {by_alias.json}"
        assert by_route.status_code == by_alias.status_code, said
        assert without_boot(by_route.json) == without_boot(by_alias.json), said
        statuses.add(by_route.status_code)
    assert {200, 400, 404} <= statuses and statuses & {409, 422}
    assert new.get("/api/export").data == old.get("/api/export").data


@pytest.mark.parametrize("path", ["/api/command/roll", "/api/roll", "/api/command/nothing"])
@pytest.mark.parametrize(
    ("lang", "start"), [("en", "there is no command"), ("es", "este juego no tiene la orden")]
)
def test_a_command_the_game_has_not_is_a_404_naming_its_commands(client, dealt, path, lang, start):
    """In the page's language as its other refusals are: the sentence the page shows
    (the game's words of it, else its `refusal_<key>` as shell.js's `refusal` says it)
    names the commands of the game at the table."""
    from companion.games import games
    from companion.games.caboose.commands import ROUTES
    from web.words import page_words

    before = snapshot(client, dealt)
    answer = client.post(f"{path}?lang={lang}", json={}, headers=HEADERS)
    error = error_of(answer)
    assert answer.status_code == 404 and error["key"] == "unknown_command", error
    assert error["params"] == {"name": path.split("/")[-1], "commands": ", ".join(ROUTES)}
    words = page_words(games()["caboose"], lang)["refusal_unknown_command"]
    said = error.get("said") or words.format(message=error["message"], **error["params"])
    assert said.startswith(start) and all(name in said for name in ROUTES), said
    assert snapshot(client, dealt) == before


def test_only_the_games_commands_have_old_paths(client, dealt):
    """A path no game's command names stays a plain 404, a read route refuses a POST as it
    did, and a command's old path refuses another method."""
    assert client.post("/api/nothing", json={}, headers=HEADERS).status_code == 404
    assert client.post("/api/state", json={}, headers=HEADERS).status_code == 405
    assert client.get("/api/pass").status_code == 405
    assert client.get("/api/command/pass").status_code == 405


# --- starting and importing -----------------------------------------------------------------


def test_new_game(client):
    answer = client.post(
        "/api/game",
        json={"edition": "loose-caboose", "names": ["Ana", "Ben", "Cleo"], "seed": 5},
        headers=HEADERS,
    )
    assert answer.status_code == 200
    doc = answer.json
    assert doc["edition"]["id"] == "loose-caboose" and len(doc["players"]) == 3
    assert doc["railway"]["schematic"] is False  # dealt cards have shapes: poses known
    plays = client.get("/api/hand", headers=HEADERS).json["plays"]
    assert all(p["placements"] for p in plays if p["placements"] is not None)


def test_new_solo_game_against_laura(client):
    answer = client.post(
        "/api/game",
        json={"edition": "loknroll", "variant": "solo-laura", "names": ["Ana"], "seed": "x"},
        headers=HEADERS,
    )
    assert answer.status_code == 200
    assert answer.json["players"][0]["name"] == "Laura"
    assert answer.json["choices"]["laura"]["kind"] in ("play", "pass", "chaos")
    # The companion plays Laura: no phone is shown her hand.
    refused = client.get("/api/hand", headers=HEADERS)
    assert refused.status_code == 409 and error_of(refused)["rule"] == "hand"


@pytest.mark.parametrize(
    ("body", "status", "rule"),
    [
        ({"edition": "monopoly", "names": ["Ana", "Ben"]}, 422, "setup"),
        ({"edition": "rollecate", "names": ["Ana"]}, 422, "setup"),
        ({"edition": "rollecate", "names": "Ana"}, 400, "request"),
        ({"edition": "rollecate", "names": ["Ana", "Ben"], "colour": "red"}, 400, "request"),
        ({"names": ["Ana", "Ben"]}, 400, "request"),
        ({"edition": "rollecate", "names": ["Ana", "Ben"], "seed": [1]}, 400, "request"),
        ({"edition": "rollecate", "names": ["Ana", "Ben"], "variant": "solo"}, 422, "setup"),
    ],
)
def test_bad_new_games_are_refused(client, dealt, body, status, rule):
    before = snapshot(client, dealt)
    answer = client.post("/api/game", json=body, headers=HEADERS)
    assert answer.status_code == status, answer.json
    assert error_of(answer)["rule"] == rule
    assert snapshot(client, dealt) == before


def test_unknown_fields_are_named(client, dealt):
    answer = client.post("/api/pass", json={"seat": 0, "sit": 1, "x": 2}, headers=HEADERS)
    assert answer.status_code == 400
    assert error_of(answer)["fields"] == ["sit", "x"]
    assert "sit" in error_of(answer)["message"]


@pytest.mark.parametrize(
    "raw",
    [
        b"{not json",
        b"[1, 2]",
        b'"text"',
        b"\xff\xfe",
        b'{"seat": ' + b"9" * 5000 + b"}",
        b"[" * 50_000,
    ],
)
def test_malformed_bodies(client, dealt, raw):
    before = snapshot(client, dealt)
    answer = client.post(
        "/api/pass", data=raw, headers=HEADERS | {"Content-Type": "application/json"}
    )
    assert answer.status_code == 400 and error_of(answer)["rule"] == "request"
    assert snapshot(client, dealt) == before


def test_import_continues_a_record(client):
    doc = record(turns=[{"pass": True}])
    answer = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert answer.status_code == 200
    assert answer.json["turn"] == 1 and answer.json["to_move"] == 1


@pytest.mark.parametrize(
    ("doc", "rule", "turn"),
    [
        (record(format="caboose-record/2"), "record", 0),
        (record(edition="chess"), "record", 0),
        (record(turns=[{"play": ["4"], "roll": [1, 1, 1, 1]}]), "hand", 1),
        (record(turns=[{"play": ["2"], "roll": [1]}]), "dice", 1),
        (record(turns=[{"pass": True, "jump": 1}]), "record", 1),
        (
            record(setup={"railway": ["9"], "caboose": 0, "hands": [[], []], "draw": []}),
            "record",
            0,
        ),
    ],
)
def test_malformed_records_are_refused(client, dealt, doc, rule, turn):
    before = snapshot(client, dealt)
    answer = client.post("/api/import", json={"record": doc}, headers=HEADERS)
    assert answer.status_code == 422, answer.json
    assert error_of(answer)["rule"] == rule and error_of(answer).get("turn") == turn
    assert snapshot(client, dealt) == before


def test_a_record_that_is_not_an_object(client, dealt):
    answer = client.post("/api/import", json={"record": [1]}, headers=HEADERS)
    assert answer.status_code == 400 and error_of(answer)["rule"] == "record"


def test_a_huge_upload_is_refused(client, dealt):
    before = snapshot(client, dealt)
    huge = record(players=["Ana", "Ben"], turns=[{"pass": True}] * 20_000)
    answer = client.post("/api/import", json={"record": huge}, headers=HEADERS)
    assert answer.status_code == 413 and error_of(answer)["rule"] == "http"
    assert snapshot(client, dealt) == before


# --- playing ------------------------------------------------------------------------------


def test_stage_shows_the_dice_and_odds_then_unstage(client, dealt):
    answer = client.post("/api/stage", json={"seat": 0, "cards": ["2"]}, headers=HEADERS)
    assert answer.status_code == 200
    staged = answer.json["staged"]
    assert staged["dice"] == 2 and staged["odds"]["p_derail"]["percent"] == 0.0
    assert answer.json["undo"]["possible"] is True
    assert match(dealt).snap.record.turns == []
    answer = client.post("/api/unstage", json={}, headers=HEADERS)
    assert answer.json["staged"] is None


def test_play_then_the_computed_move(client, dealt):
    answer = client.post(
        "/api/play", json={"seat": 0, "cards": ["2"], "roll": [1, 0]}, headers=HEADERS
    )
    assert answer.status_code == 200
    last = answer.json["last"]
    assert last["played"] == ["2"] and last["roll"] == [1, 0]
    assert last["moved"] == {"from": 2, "to": 3} and last["derailed"] == 0
    assert last["took"] == []
    assert answer.json["to_move"] == 1


def test_pass_takes_a_card_from_the_back(client, dealt):
    last = client.post("/api/pass", json={"seat": 0}, headers=HEADERS).json["last"]
    assert last["kind"] == "pass"
    assert last["took"] == [{"card": "2", "source": "railway", "cause": "pass"}]
    assert last["order"] == ["2"]


def test_chaos_discard(client, dealt):
    answer = client.post("/api/chaos", json={"seat": 0, "cards": ["C2"]}, headers=HEADERS)
    assert answer.status_code == 200
    assert answer.json["players"][0]["pile"] == ["C2"]
    assert answer.json["last"]["kind"] == "chaos"


@pytest.mark.parametrize(
    ("path", "body", "status", "rule"),
    [
        ("/api/play", {"seat": 0, "cards": ["9"], "roll": [1, 1]}, 400, "card"),
        ("/api/play", {"seat": 0, "cards": "2", "roll": [1, 1]}, 400, "card"),
        ("/api/play", {"seat": 0, "cards": ["4"], "roll": [1, 1, 1, 1]}, 422, "hand"),
        ("/api/play", {"seat": 0, "cards": ["2"], "roll": [1, 1, 1]}, 422, "dice"),
        ("/api/play", {"seat": 0, "cards": ["2"], "roll": [2, 1]}, 422, "dice"),
        ("/api/play", {"seat": 0, "cards": ["2"], "roll": [True, 1]}, 400, "dice"),
        ("/api/play", {"seat": 0, "cards": ["1"], "roll": [1]}, 422, "R-11"),
        ("/api/play", {"seat": 0, "cards": ["2"]}, 400, "request"),
        (
            "/api/play",
            {"seat": 0, "cards": ["2"], "roll": [1, 1], "place": [[0, 0]]},
            400,
            "placement",
        ),
        (
            "/api/play",
            {"seat": 0, "cards": ["2"], "roll": [1, 1], "place": "here"},
            400,
            "placement",
        ),
        ("/api/play", {"seat": 1, "cards": ["3"], "roll": [1, 1, 1]}, 409, "turn"),
        ("/api/play", {"seat": "0", "cards": ["2"], "roll": [1, 1]}, 400, "request"),
        ("/api/pass", {"seat": 7}, 409, "turn"),
        ("/api/pass", {"seat": 0, "order": ["2", "3"]}, 422, "R-7"),
        ("/api/chaos", {"seat": 0, "cards": ["C3"]}, 422, "hand"),
        ("/api/chaos", {"seat": 0, "cards": ["1"]}, 422, "hand"),
        ("/api/stage", {"seat": 0, "cards": ["4"]}, 422, "hand"),
        ("/api/stage", {"seat": 0, "cards": ["Z"]}, 400, "card"),
    ],
)
def test_bad_turns_leave_the_game_unchanged(client, dealt, path, body, status, rule):
    before = snapshot(client, dealt)
    answer = client.post(path, json=body, headers=HEADERS)
    assert answer.status_code == status, answer.json
    assert error_of(answer)["rule"] == rule
    assert error_of(answer)["message"]
    assert snapshot(client, dealt) == before


def derail_ben(client):
    """Ana passes; Ben plays his two 3s and rolls 4 wheels with 2 cards of room: he derails
    2 short and takes a 3 and a 4 from the back."""
    client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
    answer = client.post(
        "/api/play",
        json={"seat": 1, "cards": ["3", "3"], "roll": [1, 1, 1, 1, 0, 0]},
        headers=HEADERS,
    )
    assert answer.status_code == 200, answer.json
    return answer.json


def test_derailment_with_the_proposed_order_and_the_others(client, dealt):
    last = derail_ben(client)["last"]
    assert last["derailed"] == 2
    assert [t["card"] for t in last["took"]] == ["3", "4"]
    assert {t["cause"] for t in last["took"]} == {"derail"}
    assert last["order"] == ["3", "4"]  # the high card on top
    assert [o["pile"] for o in last["order_options"]] == [["3", "4"], ["4", "3"]]
    assert [o["chosen"] for o in last["order_options"]] == [True, False]


def test_another_discard_order(client, dealt):
    derail_ben(client)
    answer = client.post("/api/order", json={"order": ["4", "3"], "turn": 2}, headers=HEADERS)
    assert answer.status_code == 200
    assert answer.json["players"][1]["pile"] == ["4", "3"]
    assert answer.json["last"]["order"] == ["4", "3"]
    assert answer.json["log"][0]["correction"] is True


def test_a_wrong_order_is_refused(client, dealt):
    derail_ben(client)
    before = snapshot(client, dealt)
    answer = client.post("/api/order", json={"order": ["4", "4"], "turn": 2}, headers=HEADERS)
    assert answer.status_code == 422 and error_of(answer)["rule"] == "R-7"
    assert snapshot(client, dealt) == before


def test_no_order_for_a_chaos_discard(client, dealt):
    client.post("/api/chaos", json={"seat": 0, "cards": ["C2"]}, headers=HEADERS)
    answer = client.post("/api/order", json={"order": ["C2"], "turn": 1}, headers=HEADERS)
    assert answer.status_code == 409


def test_order_and_correct_need_a_turn(client, dealt):
    order = client.post("/api/order", json={"order": ["2"], "turn": 0}, headers=HEADERS)
    assert order.status_code == 409
    correct = client.post("/api/correct", json={"roll": [1], "turn": 0}, headers=HEADERS)
    assert correct.status_code == 409


def test_correcting_a_roll_asks_for_confirmation(client, dealt):
    derail_ben(client)
    before = snapshot(client, dealt)
    body = {"roll": [1, 1, 0, 0, 0, 0], "turn": 2}
    asked = client.post("/api/correct", json=body, headers=HEADERS)
    assert asked.status_code == 409 and error_of(asked)["needs_confirm"] is True
    assert snapshot(client, dealt) == before
    done = client.post("/api/correct", json=body | {"confirm": True}, headers=HEADERS)
    assert done.status_code == 200
    assert done.json["last"]["derailed"] == 0 and done.json["last"]["took"] == []
    assert "roll corrected" in done.json["log"][0]["text"]


def test_an_impossible_corrected_roll_is_refused(client, dealt):
    derail_ben(client)
    before = snapshot(client, dealt)
    body = {"roll": [1, 1], "confirm": True, "turn": 2}
    answer = client.post("/api/correct", json=body, headers=HEADERS)
    assert answer.status_code == 422 and error_of(answer)["rule"] == "dice"
    assert snapshot(client, dealt) == before


def test_a_pass_has_no_roll_to_correct(client, dealt):
    client.post("/api/pass", json={"seat": 0}, headers=HEADERS)
    body = {"roll": [1], "confirm": True, "turn": 1}
    answer = client.post("/api/correct", json=body, headers=HEADERS)
    assert answer.status_code == 409


def test_undo_goes_back_to_the_last_roll(client, dealt):
    derail_ben(client)
    client.post("/api/chaos", json={"seat": 0, "cards": ["C2"]}, headers=HEADERS)
    undone = client.post("/api/undo", json={"turn": 3}, headers=HEADERS)
    assert undone.status_code == 200 and undone.json["turn"] == 2
    refused = client.post("/api/undo", json={"turn": 2}, headers=HEADERS)
    assert refused.status_code == 409 and error_of(refused)["rule"] == "undo"
    assert client.get("/api/state").json["undo"] == {"possible": False, "rule": "roll"}


def test_a_whole_game_to_the_ranking(client):
    client.post(
        "/api/game",
        json={"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 1},
        headers=HEADERS,
    )
    doc = client.get("/api/state").json
    while not doc["over"]:
        doc = client.post("/api/pass", json={"seat": doc["to_move"]}, headers=HEADERS).json
    assert doc["choices"] is None
    ranking = doc["ranking"]
    assert ranking["winners"] and ranking["decided_by"] in ("score", "cards", "4s", "shared")
    assert [r["place"] for r in ranking["rows"]] == [1, 2]
    late = client.post("/api/pass", json={"seat": doc["to_move"]}, headers=HEADERS)
    assert late.status_code == 409 and error_of(late)["rule"] == "R-14"


# --- watching a record ----------------------------------------------------------------------


def test_replay_frames_turn_by_turn_without_touching_the_game(client, dealt):
    before = snapshot(client, dealt)
    doc = record(turns=[{"pass": True}, {"play": ["3", "3"], "roll": [1, 1, 1, 1, 0, 0]}])
    frames = [client.post("/api/replay", json={"record": doc, "turn": n}).json for n in range(4)]
    assert [f["turn"] for f in frames] == [0, 1, 2, 2]
    assert frames[0]["last"] is None and frames[2]["last"]["derailed"] == 2
    assert all(f["turns"] == 2 and f["choices"] is None for f in frames)
    assert snapshot(client, dealt) == before


@pytest.mark.parametrize("game", ["caboose", "yardmaster-express", "switching"])
def test_a_record_that_is_no_object_is_refused_in_the_format_of_the_game_at_the_table(
    tmp_path, game
):
    from companion.games import games

    client = twin(tmp_path, "table", game)
    wanted = games()[game].record_format
    for path, body in (("/api/import", {}), ("/api/replay", {"turn": 0})):
        answer = client.post(path, json=body | {"record": "a record"}, headers=HEADERS)
        assert answer.status_code == 400 and error_of(answer)["fields"] == ["record"]
        assert error_of(answer)["message"] == f"record must be a {wanted} object"


def test_replay_of_a_bad_record(client):
    answer = client.post(
        "/api/replay", json={"record": record(turns=[{"chaos": ["C4"]}]), "turn": 1}
    )
    assert answer.status_code == 422 and error_of(answer)["turn"] == 1
    answer = client.post("/api/replay", json={"record": record(), "turn": -1})
    assert answer.status_code == 400


# --- errors of the server itself --------------------------------------------------------------


def test_unknown_paths_and_methods_are_json(client):
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and error_of(missing)["rule"] == "http"
    posted = client.post("/api/nothing", json={})
    assert posted.status_code == 404
    wrong = client.get("/api/pass")
    assert wrong.status_code == 405 and error_of(wrong)["rule"] == "http"


def test_an_unexpected_error_is_a_generic_500_without_a_trace(client, dealt, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("web.api.Views.text", broken)
    answer = client.get("/api/state")
    assert answer.status_code == 500
    assert error_of(answer)["rule"] == "internal"
    assert b"secret" not in answer.data and b"Traceback" not in answer.data
    assert "secret internals" in caplog.text


def test_a_pin_is_made_when_none_is_given(table, caplog):
    from web.app import create_app

    app = create_app(table)
    pin = app.extensions["caboose.pin"]
    assert len(pin) == 6 and pin.isdigit()
    assert pin in caplog.text


# --- the table's geometry and Loose Caboose ---------------------------------------------------


def test_a_play_at_a_legal_placement_and_one_that_is_not(client):
    doc = client.post(
        "/api/game",
        json={"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 3},
        headers=HEADERS,
    ).json
    assert "plays" not in doc["choices"]
    plays = client.get("/api/hand", headers=HEADERS).json["plays"]
    play = next(p for p in plays if p["placements"])
    body = {"seat": 0, "cards": play["cards"], "roll": [0] * play["dice"]}
    before = client.get("/api/state").json["version"]
    far = client.post("/api/play", json=body | {"place": [[900, 900, 0]]}, headers=HEADERS)
    assert far.status_code == 422 and error_of(far)["rule"] == "placement"
    assert client.get("/api/state").json["version"] == before
    done = client.post("/api/play", json=body | {"place": play["placements"][0]}, headers=HEADERS)
    assert done.status_code == 200
    assert done.json["railway"]["cards"][-1]["pose"] == play["placements"][0][0]
    assert done.json["railway"]["schematic"] is False


def test_loose_caboose_banks_the_broken_track_card(client):
    client.post(
        "/api/game",
        json={"edition": "loose-caboose", "names": ["Ana", "Ben"], "seed": 2},
        headers=HEADERS,
    )
    doc = client.post("/api/pass", json={"seat": 0}, headers=HEADERS).json
    last = doc["last"]
    assert last["broken"] and last["banked"]
    assert [t["cause"] for t in last["took"]] == ["broken", "pass"]
    assert doc["players"][0]["banked"] == last["banked"]
    assert last["order"] is None  # Loose Caboose cancels at once: no order to choose
    assert doc["players"][0]["score"] == sum(
        int(c[0]) for c in doc["players"][0]["pile"] + doc["players"][0]["banked"]
    )


def test_laura_plays_what_the_rules_make_her_play(client):
    doc = client.post(
        "/api/game",
        json={"edition": "loknroll", "variant": "solo-laura", "names": ["Ana"], "seed": 4},
        headers=HEADERS,
    ).json
    for _ in range(4):
        if doc["over"] or doc["players"][doc["to_move"]]["name"] != "Laura":
            doc = client.post("/api/pass", json={"seat": doc["to_move"]}, headers=HEADERS).json
            continue
        action = doc["choices"]["laura"]
        kind = action.pop("kind")
        answer = client.post(f"/api/{kind}", json={"seat": 0, **action}, headers=HEADERS)
        assert answer.status_code == 200, answer.json
        doc = answer.json
    assert doc["turn"] == 4
