"""A refused request in a real headless Chromium (see tests/web/test_browser.py): the toast
says the table's refusal in the page's language, or in the table's English when the page's
words do not know it."""

from __future__ import annotations

import pytest

from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server


def test_a_refused_tap_is_said_in_the_pages_language(browser, server):
    server.post("/api/import", {"record": ROLLECATE_TWO})  # Ana to move
    toasts = {}
    for lang, accepted in (("es-ES", "PIN aceptado"), ("en-GB", "PIN accepted")):
        page, errors = shared.open_page(browser, server.url, 390, 844, lang=lang)
        page.wait_for_selector("#railway-svg")
        page.fill("#pin", shared.PIN)
        page.click("#pin-form button")
        page.wait_for_selector(f"#pin-state:has-text('{accepted}')")
        page.evaluate("send('/api/pass', {seat: 1})")  # Ben taps PASS out of turn
        page.wait_for_selector("#error:not([hidden])")
        toasts[lang] = page.locator("#error").inner_text()
        page.evaluate("send('/api/pass', {seat: 7})")  # no such seat
        page.wait_for_selector("#error:has-text('7')")
        toasts[f"{lang} seat"] = page.locator("#error").inner_text()
        assert errors == []
        page.context.close()
    assert toasts == {
        "es-ES": "le toca a Ana, no a Ben",
        "es-ES seat": "no hay ningún asiento 7",
        "en-GB": "it is Ana's turn, not Ben's",
        "en-GB seat": "there is no seat 7",
    }
