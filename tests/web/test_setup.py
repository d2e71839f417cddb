"""The setup page's API (`web.setup`) at a real service (`companion.app.run.Service` on
gpiozero's mock pins, the synthetic camera's frames through its frame loop): the PIN
needed; what `companion check` says of the latest frame, in words; a press of the table's
own buttons shown; the LED, buzzer and speaker tried through the service's own outputs;
and Save writing the service's configuration file, its comments kept."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from companion.app.config import load
from companion.app.run import Service, setup_tools
from companion.store import Store
from companion.synthetic import Camera, Scene, camera_view, render
from companion.table import Table
from companion.vision.table import TableLayout
from hw.frames import SyntheticFrames
from hw.speaker import Speaker, phrases_written
from tests.playing import press
from web.app import Settings, create_app
from web.words import SETUP

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}
SMALL = replace(Camera.easy(), frame_size=(728, 544))
WRITTEN = """\
# our kitchen table
[camera]
source = "synthetic:3"  # the ribbon camera, one day
frame_size = [728, 544]

[gpio]
pin_factory = "mock"  # no Pi yet
pass = 5
confirm = 6
led = 13
buzzer = 19
debounce = 0.02
hold = 0.3
"""


def hidden_marker(frame: np.ndarray, marker: int) -> np.ndarray:
    """The frame with a table marker painted over, as a cup standing on it would hide it."""
    quad = camera_view(3, SMALL, TableLayout()).to_pixels(TableLayout().marker_corners()[marker])
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (60, 90, 120))
    return frame


@pytest.fixture
def service(tmp_path: Path):
    config = tmp_path / "companion.toml"
    config.write_text(WRITTEN + f"\n[store]\npath = '{tmp_path / 'table.sqlite3'}'\n")
    factory = MockFactory()
    service = Service(load(config), SyntheticFrames(3), factory)
    yield service, factory, config
    time.sleep(0.1)  # a button's callback may still be lighting the LED on its timer thread
    service.close()


def client_of(service: Service, config: Path) -> FlaskClient:
    tools = setup_tools(service, config)
    return create_app(service.table, PIN, Settings(), service.sight, tools).test_client()


def test_the_setup_needs_the_pin_and_is_never_cached(service) -> None:
    service, _, config = service
    client = client_of(service, config)
    for answer in (
        client.get("/api/setup"),
        client.post("/api/setup/led", json={}),
        client.post("/api/setup/save", json={}),
    ):
        assert answer.status_code == 401
        assert answer.get_json()["error"]["rule"] == "pin"
    assert client.get("/api/setup").headers["Cache-Control"] == "no-store"
    assert client.get("/api/setup", headers=HEADERS).headers["Cache-Control"] == "no-store"


def test_a_hidden_marker_is_named_first_in_the_page_s_language(service) -> None:
    service, _, config = service
    client = client_of(service, config)
    waiting = client.get("/api/setup", headers=HEADERS).get_json()
    assert waiting["camera"] == "waiting" and waiting["report"] is None
    service.step(hidden_marker(render(Scene(), 3, SMALL), 3))
    answer = client.get("/api/setup?lang=en", headers=HEADERS).get_json()
    assert answer["camera"] == "seen"
    report = answer["report"]
    assert not report["ready"]
    assert report["first_fix"]["said"] == "Marker 3 (bottom left) is missing."
    assert report["first_fix"]["fix"].startswith("Move the camera so the marker at the bottom left")
    said = [finding["said"] for finding in report["findings"]]
    assert "Camera found: 728 x 544 pixels." in said
    assert "Marker 2 (bottom right) found." in said
    spanish = client.get("/api/setup?lang=es", headers=HEADERS).get_json()["report"]
    assert spanish["first_fix"]["said"] == "Falta el marcador 3 (abajo a la izquierda)."
    assert answer["buttons"] == [
        {"button": "pass", "presses": 0, "ago": None},
        {"button": "confirm", "presses": 0, "ago": None},
    ]
    assert answer["save"] is True and answer["speaker"] is False


def test_between_games_the_play_area_checked_is_the_chosen_game_s(service) -> None:
    """A family sets the table up for the game they are about to deal: an empty table has
    the Caboose play area in view, but no switching board to place."""
    service, _, config = service
    client = client_of(service, config)
    service.step(render(Scene(), 3, SMALL))

    def area(query: str) -> dict:
        report = client.get(f"/api/setup?lang=en{query}", headers=HEADERS).get_json()["report"]
        return next(f for f in report["findings"] if f["key"].startswith("area"))

    assert area("")["ok"] and area("&game=caboose")["ok"]
    board = area("&game=switching")
    assert board["key"] == "area_unplaced" and not board["ok"]
    assert "board" in board["fix"]
    refused = client.get("/api/setup?game=chess", headers=HEADERS)
    assert refused.status_code == 400
    assert refused.get_json()["error"]["fields"] == ["game"]
    assert "switching" in refused.get_json()["error"]["message"]


def test_a_press_of_the_table_s_button_shows_on_the_page(service) -> None:
    service, factory, config = service
    client = client_of(service, config)
    press(factory, 5)  # PASS, on the pins the service holds
    deadline = time.monotonic() + 3
    while True:
        passed, confirmed = client.get("/api/setup", headers=HEADERS).get_json()["buttons"]
        if passed["presses"] or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert passed["button"] == "pass" and passed["presses"] == 1 and passed["ago"] < 3
    assert confirmed == {"button": "confirm", "presses": 0, "ago": None}
    press(factory, 6, seconds=0.45)  # CONFIRM held (the table's UNDO): still CONFIRM
    while not confirmed["presses"] and time.monotonic() < deadline + 3:
        confirmed = client.get("/api/setup", headers=HEADERS).get_json()["buttons"][1]
        time.sleep(0.02)
    assert confirmed["button"] == "confirm" and confirmed["presses"] == 1


def test_the_led_buzzer_and_speaker_are_the_service_s_own(service) -> None:
    service, _, config = service
    client = client_of(service, config)
    led = client.post("/api/setup/led?lang=es", json={}, headers=HEADERS)
    assert led.status_code == 200
    assert led.get_json()["said"].startswith("El LED parpadeó tres veces (GPIO 13)")
    # the LED blinks again as it did, saying what the table waits for
    assert service.controls.status == "waiting" and service.controls.led._blink_thread is not None
    buzzer = client.post("/api/setup/buzzer", json={}, headers=HEADERS)
    assert buzzer.get_json()["said"].startswith("The buzzer beeped twice (GPIO 19)")
    silent = client.post("/api/setup/speaker", json={}, headers=HEADERS)
    assert silent.status_code == 409
    assert silent.get_json()["error"]["key"] == "setup_no_voice"


def test_save_writes_what_was_measured_and_keeps_the_comments(service) -> None:
    service, _, config = service
    client = client_of(service, config)
    refused = client.post("/api/setup/save", json={}, headers=HEADERS)
    assert refused.status_code == 409
    assert refused.get_json()["error"]["key"] == "setup_no_picture"
    laid = TableLayout(width=900.0, height=700.0)
    service.step(render(Scene(layout=laid), 3, SMALL))
    before = client.get("/api/setup", headers=HEADERS).get_json()["report"]
    assert "but the configuration says 840 x 630 mm" in before["first_fix"]["said"]
    assert before["first_fix"]["fix"].startswith("Press “Save as the configuration”")
    saved = client.post("/api/setup/save", json={}, headers=HEADERS)
    assert saved.status_code == 200
    assert saved.get_json()["said"] == (
        f"Saved to {config}. The companion uses it from its next start."
    )
    text = config.read_text()
    assert text.startswith("# our kitchen table\n[camera]\n")
    assert 'source = "synthetic:3"  # the ribbon camera, one day' in text
    assert 'pin_factory = "mock"  # no Pi yet' in text
    written = load(config)
    assert abs(written.table.width - 900) <= 12 and abs(written.table.height - 700) <= 12
    time.sleep(1.1)  # the next check, against the configuration as saved
    service.step(render(Scene(layout=laid), 4, SMALL))
    after = client.get("/api/setup", headers=HEADERS).get_json()["report"]
    assert after["ready"], after["first_fix"]


def test_without_a_camera_or_a_file_the_page_is_told_why(tmp_path) -> None:
    table = Table(Store(tmp_path / "table.sqlite3"))
    client = create_app(table, PIN, Settings()).test_client()
    answer = client.get("/api/setup?lang=es", headers=HEADERS).get_json()
    assert answer == {
        "camera": "none",
        "report": None,
        "buttons": None,
        "speaker": False,
        "save": False,
    }
    led = client.post("/api/setup/led", json={}, headers=HEADERS)
    assert led.status_code == 404 and led.get_json()["error"]["key"] == "setup_none"


@pytest.fixture
def demo_table(tmp_path):
    """`companion demo`'s synthetic table (its mock pins, its camera's frames), before play."""
    from companion.app.demo import Filming, SyntheticTable
    from companion.games import default
    from companion.games.caboose.demo import ScriptedGame
    from companion.games.caboose.players import DemoOptions

    store = Store(tmp_path / "table.sqlite3")
    players = ScriptedGame(DemoOptions(edition="loose-caboose", players=2, seed="setup"))
    hands = SyntheticTable(default(), players, store, Filming())
    yield hands
    hands.close()
    store.close()


def test_the_demo_s_setup_tries_its_mock_pins_and_has_no_file_to_save_to(demo_table) -> None:
    """`companion demo`'s page sets up its synthetic table: its camera's frames checked,
    the presses of its mock buttons shown, nothing to save (it has no configuration
    file), said in words."""
    hands = demo_table
    app = create_app(hands.table, PIN, Settings(), hands.sight, hands.setup_tools(None))
    client = app.test_client()
    assert client.get("/api/setup", headers=HEADERS).get_json()["camera"] == "waiting"
    hands.press("pass", lambda: True)
    hands.step(render(Scene(), 3, replace(Camera.easy(), frame_size=(960, 720))))
    answer = client.get("/api/setup", headers=HEADERS).get_json()
    assert answer["camera"] == "seen"
    said = [finding["said"] for finding in answer["report"]["findings"]]
    assert "Camera found: 960 x 720 pixels." in said
    passed = answer["buttons"][0]
    assert passed["button"] == "pass" and passed["presses"] == 1
    assert answer["save"] is False
    saved = client.post("/api/setup/save?lang=es", json={}, headers=HEADERS)
    assert saved.status_code == 409 and saved.get_json()["error"]["key"] == "setup_no_file"
    led = client.post("/api/setup/led", json={}, headers=HEADERS)
    assert led.status_code == 200 and "GPIO" in led.get_json()["said"]


def test_the_speaker_says_its_sentence_in_the_page_s_language(demo_table, tmp_path) -> None:
    """The demo's voice (`--speak-to`: its phrases as WAV files) says the setup's sentence
    in the page's language; a table without espeak-ng says how to install it."""
    hands = demo_table
    speaker = Speaker(lang="es", out_dir=tmp_path / "said")
    mute = Speaker(program="no-such-espeak", on_problem=lambda _: None)
    try:
        client = create_app(hands.table, PIN, Settings(), hands.sight, hands.setup_tools(speaker))
        said = client.test_client().post("/api/setup/speaker?lang=es", json={}, headers=HEADERS)
        assert said.get_json()["said"] == "El altavoz dijo: Hola, soy el acompañante de la mesa."
        assert speaker.wait_idle(30)
        assert [text for _, _, text in phrases_written(tmp_path / "said")] == [
            "Hola, soy el acompañante de la mesa."
        ]
        client = create_app(hands.table, PIN, Settings(), hands.sight, hands.setup_tools(mute))
        silent = client.test_client().post("/api/setup/speaker", json={}, headers=HEADERS)
        assert silent.status_code == 409
        assert silent.get_json()["error"]["said"] == (
            "The speaker cannot talk: espeak-ng is missing. "
            "Install it: sudo apt-get install espeak-ng."
        )
    finally:
        speaker.close()
        mute.close()


def test_both_languages_have_the_same_setup_words() -> None:
    assert SETUP["en"].keys() == SETUP["es"].keys()
    for key, english in SETUP["en"].items():
        assert set(re.findall(r"{(\w+)}", english)) == set(re.findall(r"{(\w+)}", SETUP["es"][key]))


def test_every_setup_word_is_said_and_every_word_said_is_there() -> None:
    """The setup view asks for its words by name (`t("setup_…")`, `text.setup_…`), the
    API names its refusals' (`key="setup_…"`, said as `refusal_<key>`): each is in the
    block, and nothing in the block is left unsaid."""
    root = Path(__file__).resolve().parents[2]
    script = (root / "web/static/setup.js").read_text()
    markup = (root / "web/templates/index.html").read_text()
    api = (root / "web/setup.py").read_text()
    asked = set(re.findall(r'\bt\("(setup_[a-z_]+)"', script))
    asked |= set(re.findall(r"\btext\.(setup_[a-z_]+)", markup))
    asked |= set(re.findall(r'setup_said\(lang, "(setup_[a-z_]+)"', api))
    asked |= set(re.findall(r"setup_said\(lang, '(setup_[a-z_]+)'", api))
    asked |= {f"refusal_{key}" for key in re.findall(r'key="(setup_[a-z_]+)"', api)}
    asked -= {"refusal_setup_mute"}  # said by the speaker's own finding (`said`)
    assert asked == set(SETUP["en"])
