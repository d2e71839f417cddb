"""The seam, proved by a game the companion was not written for: the dice race
(tests/fixtures/dice_race/), registered with `Game`'s required core alone from outside
`companion/games/`, as a user's own package is (`COMPANION_GAMES`). Its start form, its
API (commands through the PIN-guarded route, a refusal, the tools it does not offer),
its store (a real `companion serve` killed with SIGKILL and started again), `companion
replay` of its record, the command line's tools it lacks, and its page in Chromium."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from companion.app import cli
from companion.app.config import load
from companion.app.run import Service
from companion.games import EXTRA, game, games
from companion.games.protocol import Game, Start
from companion.store import Store
from companion.table import Table
from hw.frames import SyntheticFrames
from tests.test_demo import COMPANION
from tests.test_kill import call, serving
from tests.web.conftest import HEADERS, PIN
from tests.web.test_browser import Server, browser, enter_pin, open_page  # noqa: F401
from web.app import Settings, create_app

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tests.fixtures.dice_race"
FIXTURE = ROOT / "tests" / "fixtures" / "dice_race"
RACE = {"game": "dice-race", "edition": "short", "names": ["Ana", "Ben"]}


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """The dice race among the games, as `COMPANION_GAMES` adds it for a user."""
    monkeypatch.setenv(EXTRA, PACKAGE)
    games.cache_clear()
    yield game("dice-race")
    monkeypatch.delenv(EXTRA)
    games.cache_clear()


@pytest.fixture
def client(registered: Game, tmp_path: Path) -> FlaskClient:
    table = Table(Store(tmp_path / "table.sqlite3"))
    return create_app(table, PIN, Settings()).test_client()


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    """`companion ARGV` with the dice race registered, as a user runs it."""
    env = os.environ | {EXTRA: PACKAGE}
    return subprocess.run(
        [*COMPANION, *argv], capture_output=True, text=True, timeout=120, cwd=ROOT, env=env
    )


def test_the_dice_race_registers_with_the_required_core_alone(registered):
    optional = [f.name for f in dataclasses.fields(Game) if f.default is not dataclasses.MISSING]
    assert len(dataclasses.fields(Game)) - len(optional) <= 13
    assert all(getattr(registered, name) in (None, "dice-race-record/1") for name in optional)
    assert registered.record_format == "dice-race-record/1"
    files = [p for p in FIXTURE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) <= 9
    assert list(games())[:3] == ["caboose", "yardmaster-express", "switching"]  # default first


def test_a_package_that_cannot_be_loaded_is_named_in_one_line(monkeypatch):
    monkeypatch.setenv(EXTRA, "tests.fixtures.no_such_game")
    games.cache_clear()
    try:
        with pytest.raises(SystemExit) as stopped:
            games()
    finally:
        monkeypatch.delenv(EXTRA)
        games.cache_clear()
    assert "tests.fixtures.no_such_game" in str(stopped.value) and EXTRA in str(stopped.value)


def test_the_start_form_lists_the_dice_race_and_deals_it(client):
    listed = {g["id"]: g for g in client.get("/api/games?lang=es").json}
    race = listed["dice-race"]
    assert race["name"] == "Carrera de dados" and race["record_format"] == "dice-race-record/1"
    assert [(o["id"], o["players"]) for o in race["options"]] == [
        ("short", [2, 2]),
        ("long", [2, 2]),
    ]
    three = client.post("/api/game", json=RACE | {"names": ["A", "B", "C"]}, headers=HEADERS)
    assert three.status_code == 400 and "1 to 2 players" in three.json["error"]["message"]
    one = client.post("/api/game", json=RACE | {"names": ["Ana"]}, headers=HEADERS)
    assert one.status_code == 422 and one.json["error"]["rule"] == "D-1"
    dealt = client.post("/api/game", json=RACE, headers=HEADERS)
    assert dealt.status_code == 200, dealt.json
    assert dealt.json["game_kind"] == "dice-race" and dealt.json["track"] == 12


def test_its_commands_go_through_the_pin_guarded_route_and_a_refusal_changes_nothing(client):
    client.post("/api/game", json=RACE, headers=HEADERS)
    assert client.post("/api/roll", json={"die": 4, "turn": 0}).status_code == 401  # no PIN
    moved = client.post("/api/roll", json={"die": 4, "turn": 0}, headers=HEADERS)
    assert moved.status_code == 200 and moved.json["players"][0]["at"] == 4
    refused = client.post("/api/roll?lang=es", json={"die": 7, "turn": 1}, headers=HEADERS)
    assert refused.status_code == 422
    assert refused.json["error"]["rule"] == "D-2" and refused.json["error"]["key"] == "bad_die"
    stale = client.post("/api/roll", json={"die": 2, "turn": 0}, headers=HEADERS)
    assert stale.status_code == 409
    assert client.get("/api/state").json["turn"] == 1
    undone = client.post("/api/undo", json={"turn": 1}, headers=HEADERS)
    assert undone.status_code == 200 and undone.json["players"][0]["at"] == 0


def test_the_tools_it_does_not_offer_answer_as_for_any_game_without_them(client):
    client.post("/api/game", json=RACE, headers=HEADERS)
    advice = client.post("/api/advise", json={"seat": 0, "hand": []})
    assert advice.status_code == 200 and advice.json["no_hidden_hand"] is True
    assert client.get("/api/hand", headers=HEADERS).status_code == 409


def test_a_race_on_a_killed_service_resumes_on_the_same_turn(registered, tmp_path, monkeypatch):
    store = tmp_path / "table.sqlite3"
    monkeypatch.setenv(EXTRA, PACKAGE)  # `companion serve` inherits it
    with serving(store) as (address, _):
        assert call(address, "game", RACE)[0] == 200
        for turn, die in enumerate((5, 6, 3)):
            assert call(address, "roll", {"die": die, "turn": turn})[0] == 200
        before = call(address, "state")[1]
    with serving(store) as (address, _):
        status, after = call(address, "state")
        assert status == 200 and after["game_kind"] == "dice-race"
        assert (after["turn"], after["players"]) == (3, before["players"])
        assert call(address, "roll", {"die": 1, "turn": 3})[0] == 200  # played on


def test_companion_replay_reads_its_record(registered, tmp_path):
    doc = {"format": "dice-race-record/1", "track": "short", "players": ["Ana", "Ben"]}
    won = tmp_path / "won.json"
    won.write_text(json.dumps(doc | {"rolls": [6, 1, 6]}))
    done = run("replay", str(won))
    assert done.returncode == 0 and done.stdout == "Ana on 12, Ben on 1 of 12: Ana won\n"
    as_json = json.loads(run("replay", str(won), "--json").stdout)
    assert as_json == {"players": ["Ana", "Ben"], "at": [12, 1], "winner": 0}
    bounced = tmp_path / "bounced.json"
    bounced.write_text(json.dumps(doc | {"rolls": [6, 1, 5, 2, 4]}))  # 11, then 15 -> 9
    assert run("replay", str(bounced)).stdout == "Ana on 9, Ben on 3 of 12: not over\n"
    after_the_end = tmp_path / "after.json"
    after_the_end.write_text(json.dumps(doc | {"rolls": [6, 1, 6, 2]}))
    refused = run("replay", str(after_the_end))
    assert refused.returncode == 2 and refused.stderr == "error in turn 4 (D-5): the race is over\n"


@pytest.mark.parametrize("tool", ["simulate", "demo", "eval-vision", "enroll"])
def test_a_command_of_a_tool_it_lacks_is_one_plain_line_and_exit_2(registered, tool):
    argv = [tool, "deck"] if tool == "enroll" else [tool]
    done = run(*argv, "--game", "dice-race")
    assert done.returncode == 2 and done.stdout == ""
    offered = "caboose or yardmaster-express" if tool == "enroll" else "caboose or"
    assert done.stderr.startswith(f"companion {tool}: Dice race offers no {tool}: use --game")
    assert offered in done.stderr and len(done.stderr.splitlines()) == 1


def test_it_has_nothing_to_print_and_print_says_so_in_one_line(registered, tmp_path, capsys):
    assert cli.main(["print", "dice-race", str(tmp_path / "race.pdf")]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err == (
        "companion print: Dice race offers no print: use companion print caboose or "
        "yardmaster-express or switching\n"
    )
    assert not (tmp_path / "race.pdf").exists()


def test_the_help_names_the_games_and_their_formats(registered):
    assert "Dice race" in run("--help").stdout and EXTRA in run("--help").stdout
    assert "dice-race-record/1" in run("replay", "--help").stdout
    simulate = " ".join(run("simulate", "--help").stdout.split())
    assert "offered by caboose, yardmaster-express, switching)" in simulate


@pytest.mark.browser
def test_the_race_is_drawn_and_played_by_clicking_in_chromium(registered, browser, tmp_path):  # noqa: F811
    server = Server(Table(Store(tmp_path / "table.sqlite3")))
    try:
        page, errors = open_page(browser, server.url, width=390, height=844)
        enter_pin(page)
        page.select_option("#game", "dice-race")
        page.select_option("#edition", "short")
        page.click("#start-form button[type=submit]")  # Ana and Ben, the form's own names
        page.wait_for_selector("#dr-track svg .dr-token")  # the page of its game, reloaded
        assert page.locator(".dr-space").count() == 13
        assert page.inner_text("#dr-status") == "Ana to move: enter the die"
        page.click("#dr-controls button[data-die='4']")
        page.wait_for_selector(".dr-seat-0[data-at='4']")
        assert page.inner_text("#dr-status") == "Ben to move: enter the die"
        assert "Ana rolled 4: space 4" in page.inner_text("#log")
        assert server.state()["players"][0]["at"] == 4 and not errors
    finally:
        server.close()


def test_at_a_real_table_the_race_is_refereed_from_the_page_and_undone_by_its_button(
    registered, tmp_path
):
    """`companion run` (synthetic camera, mock pins) with a dice race started: a game with
    no camera is left to the page (no watcher, the frames change nothing) and its buttons
    still reach it: holding CONFIRM (UNDO) takes the last roll back."""
    config = tmp_path / "companion.toml"
    config.write_text(
        "[camera]\nsource = 'synthetic:3'\n"
        "[gpio]\npin_factory = 'mock'\npass = 5\nconfirm = 6\nled = 13\nbuzzer = 19\n"
        "debounce = 0.02\nhold = 0.3\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n"
    )
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    try:
        service.table.start("dice-race", Start(("Ana", "Ben"), "short"))
        service.table.handle(registered.parse("roll", {"die": 3, "turn": 0}))
        assert service.step(None) == [] and service.watcher() is None
        factory.pin(6).drive_low()  # CONFIRM held: UNDO
        deadline = time.monotonic() + 5
        while service.table.view("en")["turn"] and time.monotonic() < deadline:
            time.sleep(0.02)
        factory.pin(6).drive_high()
        assert service.table.view("en")["players"][0]["at"] == 0
    finally:
        service.close()
