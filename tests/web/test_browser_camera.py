"""The Camera view in a real headless Chromium: the PIN holder's phone opens it and sees the
picture, refreshed while open (at most twice a second) and no more once closed; without a
camera it says so in words; the screen beside the table has none and never asks."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from companion.app.service import FrameLoop
from companion.games import game
from companion.games.protocol import CameraSetup
from companion.store import Store
from companion.synthetic import camera as synthetic
from companion.table import Table
from tests.pictures import CAMERA, SIZE
from tests.web import test_browser as shared
from tests.web.test_browser import browser  # noqa: F401 - the module's Chromium
from web.app import Settings, create_app

pytestmark = pytest.mark.browser

SEED = 7


@contextmanager
def serving(tmp_path, camera: bool = True) -> Iterator[str]:
    """The page of a table a camera films (one frame of the synthetic table through the
    frame loop), or of a table without a camera; its address."""
    table = Table(Store(tmp_path / "table.sqlite3"))
    sights = None
    if camera:
        caboose = game("caboose")
        scene = caboose.camera.scene(SEED)
        watcher = caboose.camera.watcher(CameraSetup(scene.layout, SIZE), caboose.options[0].id)
        loop = FrameLoop(table, lambda g: watcher)
        loop.step(synthetic.render(scene, SEED, CAMERA))
        sights = loop.sight
    app = create_app(table, shared.PIN, Settings(heartbeat=1.0, stream_seconds=60.0), sights)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


def _asked(page) -> list[float]:
    """When the page asks for the camera's picture (seconds, monotonic)."""
    times: list[float] = []
    page.on(
        "request",
        lambda request: (
            times.append(time.monotonic()) if "/api/camera.jpg" in request.url else None
        ),
    )
    return times


def test_the_pin_holder_sees_what_the_camera_sees(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        asked = _asked(page)
        assert page.locator("#camera-open").is_hidden(), "no PIN yet: no camera"
        shared.enter_pin(page)
        page.click("#camera-open")
        page.wait_for_function(
            "() => document.getElementById('camera-picture').naturalWidth === 960"
        )
        picture = page.locator("#camera-picture")
        assert picture.is_visible()
        assert page.evaluate("() => document.getElementById('camera-picture').naturalHeight") == 720
        assert picture.get_attribute("src").startswith("blob:")
        assert page.locator("#camera-legend").is_visible()
        assert page.locator("#camera-state").text_content() == ""
        page.wait_for_timeout(2000)  # events are taken while Playwright waits, not in a sleep
        open_for = time.monotonic() - asked[0]
        assert 3 <= len(asked) <= 2 * open_for + 1, "refreshed while open, twice a second at most"
        page.screenshot(path=str(_artifacts() / "camera-phone-en.png"), full_page=True)
        width = "() => document.getElementById('camera-picture').getBoundingClientRect().width"
        assert page.evaluate(width) < 390
        picture.click()  # the camera's own size, to read the labels
        assert page.evaluate(width) == 960
        picture.click()
        assert page.evaluate(width) < 390
        page.click("#camera-close")
        assert page.locator("#camera").is_hidden()
        closed = len(asked)
        page.wait_for_timeout(1200)
        assert len(asked) <= closed + 1, "no more pictures asked for once closed"
        assert not errors


def test_without_a_camera_the_page_offers_no_camera_or_setup_view(browser, tmp_path):  # noqa: F811
    """`companion serve`: the page alone referees, so the PIN holder is offered neither a
    camera's picture nor a table to set up (a button opening "no camera" says nothing)."""
    with serving(tmp_path, camera=False) as url:
        for lang, locale in (("en", "en-GB"), ("es", "es-ES")):
            page, errors = shared.open_page(browser, f"{url}/?lang={lang}", 390, 844, locale)
            page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
            page.reload()
            page.wait_for_selector("#start-details", state="visible")
            assert page.locator("#camera-open, #camera, #setup-open, #setup-view").count() == 0
            assert not errors
            page.close()


def test_the_screen_beside_the_table_has_no_camera(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?view=table")
        asked = _asked(page)
        page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
        page.reload()
        page.wait_for_selector("#kiosk-idle", state="attached")
        page.wait_for_timeout(1000)
        assert page.locator("#camera-open").count() == 0
        assert page.locator("#camera").count() == 0
        assert asked == []
        assert not errors


def _artifacts():
    shared.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return shared.ARTIFACTS


def test_a_wrong_pin_sees_no_picture(browser, tmp_path):  # noqa: F811
    """A phone keeping a PIN the table refuses is told so, and the camera closes."""
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        page.evaluate("() => localStorage.setItem('caboose-pin', '0000')")
        page.reload()
        page.click("#camera-open")
        page.wait_for_selector("#camera-open", state="hidden")
        assert page.locator("#camera").is_hidden()
        assert page.locator("#camera-picture").get_attribute("src") is None
        assert "wrong" in page.locator("#pin-state").inner_text().lower()
        assert not errors
