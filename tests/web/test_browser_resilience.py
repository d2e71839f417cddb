"""The page in a real headless Chromium when things go wrong: a refused tap on a phone
scrolled far down, a phone locked out for a while by wrong PINs, an event stream refused
because too many pages are open. The page must say it where the user looks, keep the
right PIN, and come back by itself.

Served by waitress as `companion serve` binds it (`web.serve.listen`), so a closed stream
frees its slot as it does on the Pi. Debian's chromium must be installed (see
tests/web/test_browser.py).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest

from companion.games.caboose.rules.state import Pass
from companion.store import Store
from companion.table import Table
from tests.playing import act, match, new_game
from tests.web.conftest import served
from tests.web.test_browser import PIN, browser, enter_pin, open_page, shot  # noqa: F401
from web.app import Settings, create_app

pytestmark = pytest.mark.browser


@contextmanager
def serving(table: Table, settings: Settings) -> Iterator[str]:
    """The table's page as `companion serve` binds it, on a free port of localhost; its
    address."""
    with served(create_app(table, PIN, settings)) as port:
        yield f"http://127.0.0.1:{port}"


def post(url: str, path: str, body: dict, pin: str = PIN) -> int:
    request = urllib.request.Request(
        f"{url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Table-Pin": pin},
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def dealt(tmp_path) -> Table:
    table = Table(Store(tmp_path / "table.sqlite3"))
    new_game(table, "rollecate", ["Ana", "Ben", "Cleo"], seed=3)
    return table


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """selector => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }""",
        selector,
    )


def test_a_refused_tap_far_down_a_phone_is_said_in_view(browser, tmp_path):  # noqa: F811
    with serving(dealt(tmp_path), Settings()) as url:
        page, errors = open_page(browser, url, 390, 844)
        page.wait_for_selector("#railway-svg")
        enter_pin(page)
        page.on("dialog", lambda dialog: dialog.accept())  # "a game is being played: new?"
        # Far down the page, at the start form: five players are one too many.
        page.click("#start-details summary")
        page.fill("#names", "Ana\nBen\nCleo\nDan\nEve")
        page.locator("#start-form button[type=submit]").scroll_into_view_if_needed()
        page.click("#start-form button[type=submit]")
        page.wait_for_selector("#error:not([hidden])")
        assert page.evaluate("() => window.scrollY") > 844  # the user is far down the page
        assert "1 to 4 players" in page.locator("#error").inner_text()
        assert in_view(page, "#error")
        assert page.get_attribute("#error", "aria-live") == "assertive"
        shot(page, "12-refused-tap-toast-phone")
        time.sleep(2)  # long enough to be read
        assert page.is_visible("#error") and in_view(page, "#error")
        assert errors == []


def test_a_phone_locked_out_keeps_its_pin_and_says_how_long_to_wait(browser, tmp_path):  # noqa: F811
    table = dealt(tmp_path)
    with serving(table, Settings(pin_window=4)) as url:
        page, errors = open_page(browser, url, 390, 844)
        page.wait_for_selector("#railway-svg")
        enter_pin(page)
        for _ in range(10):  # wrong PINs from this phone's address (someone else's taps)
            assert post(url, "/api/pin", {}, pin="000000") == 401
        page.click("#pass")
        page.wait_for_selector("#error:not([hidden])")
        said = page.locator("#error").inner_text()
        assert said.startswith("Too many tries from this phone: wait ") and said.endswith(
            " s, then try again"
        )
        assert "Too many tries" in page.locator("#pin-state").inner_text()
        assert page.evaluate("() => localStorage.getItem('caboose-pin')") == PIN
        assert match(table).snap.state.turn == 0
        time.sleep(4.2)  # the wrong tries leave the window: the kept PIN works again
        page.click("#pass")
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
        assert match(table).snap.state.turn == 1
        assert errors == []


def test_a_page_refused_its_stream_comes_back_by_itself(browser, tmp_path):  # noqa: F811
    table = dealt(tmp_path)
    with serving(table, Settings(max_streams=1)) as url:
        port = int(url.rsplit(":", 1)[1])
        # Another page holds the only stream slot: this one's stream is refused (503).
        other = socket.create_connection(("127.0.0.1", port), timeout=5)
        other.sendall(b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
        assert other.recv(4096).startswith(b"HTTP/1.1 200")
        page, errors = open_page(browser, url, 390, 844)
        refused: list[int] = []
        page.on(
            "response",
            lambda r: refused.append(r.status) if "/api/events" in r.url and r.status == 503 else 0,
        )
        page.wait_for_selector("#railway-svg")
        deadline = time.monotonic() + 10
        while len(refused) < 2:  # refused, and tried again by itself
            assert time.monotonic() < deadline, f"the page did not retry its stream: {refused}"
            page.wait_for_timeout(100)
        assert page.locator("#live").get_attribute("class") == "badge off"
        # The game goes on meanwhile; then the other page closes and frees the slot.
        act(table, 0, Pass())
        other.close()
        page.wait_for_selector("#live.badge.on", timeout=20_000)
        page.wait_for_function(
            "() => document.querySelectorAll('#log li').length === 1", timeout=5_000
        )
        assert "Ben" in page.locator("#to-move").inner_text()
        # Live again: the next turn arrives by the stream, without a reload.
        act(table, 1, Pass())
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 2")
        assert errors == []


def test_a_tap_the_table_never_answers_is_said(browser, tmp_path):  # noqa: F811
    with socket.socket() as probe:  # a free port for the service
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--pin", PIN, "--demo"]
    service = subprocess.Popen(
        [sys.executable, "-m", "companion", *args, "--db", str(tmp_path / "t.sqlite3")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            with suppress(OSError), urllib.request.urlopen(f"{url}/api/state") as answer:
                if answer.status == 200:
                    break
            assert time.monotonic() < deadline, "companion serve did not start"
            time.sleep(0.2)
        page, errors = open_page(browser, url, 390, 844)
        page.wait_for_selector("#railway-svg")
        enter_pin(page)
    finally:
        service.kill()  # the service dies (kill -9, a power cut): nothing will answer
        service.wait(10)
    page.click("#pass")
    page.wait_for_selector("#error:not([hidden])")
    assert "The table did not answer" in page.locator("#error").inner_text()
    assert in_view(page, "#error")
    assert errors == []
