"""The setup view in a real headless Chromium, at a real service (gpiozero's mock pins, the
synthetic camera's frames through its frame loop): the PIN holder's phone sees what the
check says beside the camera's picture, a press of the table's button as the companion
gets it, the LED tried, and Save keeping what was measured; a laptop shows the findings
beside the picture; without a camera the view says so; the screen beside the table has
no setup. Screenshots at phone and laptop size, English and Spanish."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from werkzeug.serving import make_server

from companion.app.config import load
from companion.app.run import Service, setup_tools
from companion.store import Store
from companion.synthetic import Scene, render
from companion.table import Table
from hw.frames import SyntheticFrames
from tests.playing import press
from tests.web import test_browser as shared
from tests.web.test_browser import browser  # noqa: F401 - the module's Chromium
from tests.web.test_setup import SMALL, WRITTEN, hidden_marker
from web.app import Settings, create_app

pytestmark = pytest.mark.browser


@contextmanager
def serving(
    tmp_path: Path, camera: bool = True
) -> Iterator[tuple[str, Service | None, MockFactory]]:
    """The page of a service whose camera shows the synthetic table with marker 3 hidden
    (or of a table without a camera); its address, the service and its pins."""
    factory = MockFactory()
    service = None
    if camera:
        config = tmp_path / "companion.toml"
        config.write_text(WRITTEN + f"\n[store]\npath = '{tmp_path / 'table.sqlite3'}'\n")
        service = Service(load(config), SyntheticFrames(3), factory)
        service.step(hidden_marker(render(Scene(), 3, SMALL), 3))
        tools = setup_tools(service, config)
        table, sights = service.table, service.sight
    else:
        table, sights, tools = Table(Store(tmp_path / "table.sqlite3")), None, None
    settings = Settings(heartbeat=1.0, stream_seconds=60.0)
    app = create_app(table, shared.PIN, settings, sights, tools)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", service, factory
    finally:
        server.shutdown()
        thread.join(5)
        if service is not None:
            time.sleep(0.1)  # a button's timer thread may still be lighting the LED
            service.close()


def _shot(page, name: str) -> None:
    shared.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shared.ARTIFACTS / f"{name}.png"), full_page=True)


def _open_setup(page) -> None:
    """The PIN holder opens the setup view; returns once the picture and findings show."""
    page.click("#setup-open")
    page.wait_for_function("() => document.getElementById('camera-picture').naturalWidth === 728")
    page.wait_for_selector(".setup-findings li")


def test_the_pin_holder_sets_the_table_up_from_a_phone(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as (url, _, factory):
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        assert page.locator("#setup-open").is_hidden(), "no PIN yet: no setup"
        shared.enter_pin(page)
        assert page.locator("#setup-open").text_content() == "Set up the table"
        asked: list[float] = []
        page.on(
            "request", lambda r: asked.append(time.monotonic()) if "/api/setup?" in r.url else None
        )
        _open_setup(page)
        verdict = page.locator(".setup-verdict")
        assert [line for line in verdict.inner_text().splitlines() if line] == [
            "First fix this:",
            "Marker 3 (bottom left) is missing.",
            "Move the camera so the marker at the bottom left is in view, and check that "
            "nothing covers it.",
        ]
        findings = page.locator(".setup-findings").inner_text()
        assert "Camera found: 728 x 544 pixels." in findings
        assert "Marker 2 (bottom right) found." in findings
        assert page.locator("#camera-picture").is_visible()
        picture = page.locator("#camera-picture").bounding_box()
        said = page.locator("#setup-view").bounding_box()
        assert said["y"] >= picture["y"] + picture["height"], "on a phone: under the picture"
        pass_line = page.locator("#setup-buttons li[data-button=pass]")
        assert pass_line.inner_text().endswith("Press PASS on the table: it shows here when "
                                               "the companion gets it.")  # fmt: skip
        press(factory, 5)  # PASS, on the pins the service holds
        page.wait_for_selector("#setup-buttons li[data-button=pass].ok")
        assert "PASS: pressed" in pass_line.inner_text()
        assert "It works." in pass_line.inner_text()
        assert (
            "Press CONFIRM" in page.locator("#setup-buttons li[data-button=confirm]").inner_text()
        )
        page.click("#setup-led")
        page.wait_for_selector("#setup-tried:has-text('GPIO 13')")
        assert page.locator("#setup-tried").inner_text().startswith("The LED blinked three times")
        assert page.locator("#setup-speaker").is_disabled()
        assert page.locator("#setup-voice").inner_text().startswith("The table's voice is off")
        lines = page.locator("#setup-buttons li").all_inner_texts()
        assert "PASS" in lines[0] and "CONFIRM" in lines[1], "as on the table: PASS first"
        _shot(page, "setup-phone-en")
        page.locator("#look").scroll_into_view_if_needed()
        page.evaluate("() => document.getElementById('look').scrollIntoView({block: 'start'})")
        page.screenshot(path=str(shared.ARTIFACTS / "setup-phone-en-screen.png"))  # as seen
        page.click("#setup-save")
        page.wait_for_selector("#setup-saved:has-text('Saved to')")
        assert "frame_size = [728, 544]" in (tmp_path / "companion.toml").read_text()
        assert "# our kitchen table" in (tmp_path / "companion.toml").read_text()
        open_for = time.monotonic() - asked[0]
        # once on opening, then once a second (a timer's tick may come a little early)
        assert 2 <= len(asked) <= open_for + 2, "asked again while open, once a second at most"
        page.click("#setup-close")
        assert page.locator("#setup-view").is_hidden() and page.locator("#camera").is_hidden()
        closed = len(asked)
        page.wait_for_timeout(1500)
        assert len(asked) <= closed + 1, "no more checks asked for once closed"
        assert not errors


def test_between_games_the_setup_checks_the_game_chosen_on_the_start_form(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as (url, _, _):
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        shared.enter_pin(page)
        _open_setup(page)
        findings = page.locator(".setup-findings")
        assert "The whole play area of Loose Caboose" in findings.inner_text()
        page.select_option("#game", "switching")
        page.wait_for_function(
            "() => document.querySelector('.setup-findings').innerText.includes('board')"
        )
        assert "The whole play area of Loose Caboose" not in findings.inner_text()
        assert not errors


def test_a_laptop_shows_the_findings_beside_the_picture_in_spanish(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as (url, _, _):
        page, errors = shared.open_page(browser, f"{url}/?lang=es", 1280, 800, "es-ES")
        page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
        page.reload()
        assert page.locator("#setup-open").text_content() == "Preparar la mesa"
        _open_setup(page)
        assert (
            "Falta el marcador 3 (abajo a la izquierda)."
            in page.locator(".setup-verdict").inner_text()
        )
        picture = page.locator("#camera-picture").bounding_box()
        said = page.locator("#setup-view").bounding_box()
        assert said["x"] >= picture["x"] + picture["width"], "beside the picture"
        assert said["y"] < picture["y"] + picture["height"]
        assert page.locator(".setup-playing").count() == 0, "no game yet"
        game = {"game": "caboose", "edition": "loose-caboose", "names": ["Ana", "Ben"]}
        started = page.request.post(
            f"{url}/api/game", data=game, headers={"X-Table-Pin": shared.PIN}
        )
        assert started.ok, started.text()
        page.wait_for_selector(".setup-playing")
        assert page.locator(".setup-playing").inner_text() == (
            "Hay una partida en juego: pulsar un botón también es una jugada en ella."
        )
        _shot(page, "setup-laptop-es")
        assert not errors


def test_screenshots_in_the_other_language(browser, tmp_path):  # noqa: F811
    """The phone in Spanish and the laptop in English, for the eye (the README's pictures)."""
    with serving(tmp_path) as (url, _, _):
        for lang, locale, width, height, name in (
            ("es", "es-ES", 390, 844, "setup-phone-es"),
            ("en", "en-GB", 1280, 800, "setup-laptop-en"),
        ):
            page, errors = shared.open_page(browser, f"{url}/?lang={lang}", width, height, locale)
            page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
            page.goto(f"{url}/?lang={lang}&view=setup")  # a bookmark of the setup view
            page.wait_for_function(
                "() => document.getElementById('camera-picture').naturalWidth === 728"
            )
            page.wait_for_selector(".setup-findings li")
            _shot(page, name)
            page.screenshot(path=str(shared.ARTIFACTS / f"{name}-screen.png"))  # as seen
            assert not errors


def test_the_screen_beside_the_table_has_no_setup(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as (url, _, _):
        page, errors = shared.open_page(browser, f"{url}/?view=table")
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
        page.goto(f"{url}/?view=table")
        page.wait_for_selector("#kiosk-idle", state="attached")
        page.wait_for_timeout(1000)
        assert page.locator("#setup-open").count() == 0
        assert page.locator("#setup-view").count() == 0
        assert not [u for u in asked if "/api/setup" in u or "setup.js" in u]
        assert not errors
