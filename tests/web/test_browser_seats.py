"""Joining from phones in a real headless Chromium: the screen beside the table shows the
page's address as a QR code (large between games, small beside the log during one) and
no hand; the PIN holder's phone shows a seat's code; a second phone (its own browser
context) scans it and alone sees that seat's hand; a third phone sees none; the PIN
holder's page says where the hand is, and forgets the phone. English and Spanish, at a
phone's size (390x844) and the kiosk's (1920x1080); screenshots in tests/artifacts/.
"""

from __future__ import annotations

import json
from contextlib import suppress

import pytest

from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared
from tests.web.test_browser_kiosk import fits
from tests.web.test_seats import hands_in
from web import network
from web.words import JOIN

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

PHONE = (390, 844)
LAN = "192.168.1.20"
# Ana holds 1 and C2 and draws a 2 (tests/tables.py): no other place of the table has C2.
ANA_ONLY = "C2"


@pytest.fixture(autouse=True)
def on_a_network(monkeypatch):
    """The table's computer on a home network: the kiosk, opened on localhost, shows this
    address (the server runs in this process)."""
    monkeypatch.setattr(network, "machine_addresses", lambda: ["127.0.0.1", LAN])
    monkeypatch.setattr(network, "local_name", lambda: None)


def phone(browser, url: str, lang: str):
    page, errors = shared.open_page(browser, url, *PHONE, lang="es-ES" if lang == "es" else "en-GB")
    answers: list[str] = []

    def keep(response) -> None:
        if "/api/" in response.url and response.request.method in ("GET", "POST"):
            with suppress(Exception):  # an event stream still open has no body to read
                answers.append(response.text())

    page.on("response", keep)
    return page, errors, answers


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_kiosk_shows_the_join_code_and_no_hand(browser, server, lang):
    words = JOIN[lang]
    kiosk, errors = shared.open_page(browser, f"{server.url}/?view=table&lang={lang}")
    kiosk.wait_for_selector("main > #join-box.between img")
    port = server.url.rsplit(":", 1)[1]
    assert kiosk.inner_text("#join-url") == f"http://{LAN}:{port}/"
    assert words["join_title"] in kiosk.inner_text("#join-box")
    assert kiosk.eval_on_selector("#join-qr", "img => img.naturalWidth > 0 && img.width >= 300")
    fits(kiosk)
    shared.shot(kiosk, f"seats-kiosk-idle-{lang}")
    server.post("/api/import", {"record": ROLLECATE_TWO})
    kiosk.wait_for_selector("main > #join-box:not(.between) img")
    # Small, in the log's panel, clear of the game's drawing.
    code = kiosk.locator("#join-box").bounding_box()
    picture = kiosk.locator("#table-view").bounding_box()
    assert code["x"] >= picture["x"] + picture["width"]
    assert code["height"] < 0.35 * 1080
    assert kiosk.inner_text("#join-url") == f"http://{LAN}:{port}/"
    fits(kiosk)
    shared.shot(kiosk, f"seats-kiosk-game-{lang}")
    assert kiosk.locator(f"[data-code='{ANA_ONLY}']").count() == 0
    assert "✶2" not in kiosk.inner_text("body")
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_phone_joins_its_seat_and_alone_sees_its_hand(browser, server, lang):
    words = JOIN[lang]
    server.post("/api/import", {"record": ROLLECATE_TWO})
    holder, holder_errors, _ = phone(browser, f"{server.url}/?lang={lang}", lang)
    holder_pin(holder)
    holder.click("#hand-reveal")  # no seat has a phone: the PIN holder's phone shows it
    holder.wait_for_selector("#hand-hide")
    holder.click("#seats-details summary")
    holder.click(".seat-row[data-seat='0'] .seat-code")
    holder.wait_for_selector(".seat-row[data-seat='0'] .seat-invite img")
    assert words["seat_code_for"].format(name="Ana") in holder.inner_text("#seats-details")
    shared.shot(holder, f"seats-holder-code-{lang}")
    url = holder.evaluate("() => invites.get(0).url")
    assert url.startswith(f"http://{LAN}:")
    code = url.split("#", 1)[1]  # the phone opens the code's page (here on localhost)

    ana, ana_errors, ana_answers = phone(browser, f"{server.url}/?lang={lang}#{code}", lang)
    ana.wait_for_selector("#my-seat h2")
    assert ana.inner_text("#my-seat h2") == words["seat_yours"].format(name="Ana")
    assert "#" not in ana.url  # the code, used, leaves the address bar
    token = ana.evaluate("() => JSON.parse(localStorage.getItem('caboose.seat')).token")
    assert len(token) >= 32
    ana.click("#hand-reveal")  # no PIN on this phone: its seat's token is enough
    ana.wait_for_selector("#hand-hide")
    assert [c.get_attribute("data-code") for c in ana.locator("#hand .card").all()] == [
        "1",
        ANA_ONLY,
        "2",
    ]
    assert ana.locator("#move .play").count() >= 1  # the odds of her plays
    shared.shot(ana, f"seats-phone-hand-{lang}")
    # Her phone's advisor knows whose it is.
    advisor = ana.context.new_page()
    advisor.goto(f"{server.url}/advisor?lang={lang}")
    advisor.wait_for_selector("#seat option", state="attached")
    assert advisor.eval_on_selector("#seat", "s => [s.value, s.disabled]") == ["0", True]
    advisor.close()

    # Another phone, no seat: no hand anywhere in what it was sent or shows.
    other, other_errors, other_answers = phone(browser, f"{server.url}/?lang={lang}", lang)
    other.wait_for_selector("#live.on")
    other.wait_for_timeout(500)
    assert other.locator("#my-seat").count() == 0 and other.locator("#hand-hide").count() == 0
    assert other.locator(f"[data-code='{ANA_ONLY}']").count() == 0
    assert "✶2" not in other.inner_text("body")
    assert all(hands_in(json.loads(answer)) == [] for answer in other_answers if answer)
    assert any(hands_in(json.loads(answer)) for answer in ana_answers if answer)

    # The PIN holder's page says where the hand is, and offers it no more.
    holder.wait_for_selector("#hand-elsewhere")
    assert holder.inner_text("#hand-elsewhere") == words["seat_has_phone"].format(name="Ana")
    assert holder.locator("#hand-reveal").count() == 0
    assert holder.locator("#hand-hide").count() == 0  # the hand it showed is gone
    assert holder.locator(f"[data-code='{ANA_ONLY}']").count() == 0
    shared.shot(holder, f"seats-holder-elsewhere-{lang}")

    # Forgotten: Ana's phone is told to scan again; the PIN holder's phone has the hand back.
    holder.click(".seat-row[data-seat='0'] .seat-forget")
    holder.wait_for_selector("#hand-reveal")
    ana.reload()
    ana.wait_for_selector("#my-seat .problem")
    assert ana.inner_text("#my-seat .problem") == words["seat_forgotten"]
    assert ana.evaluate("() => localStorage.getItem('caboose.seat')") is None
    for errors in (holder_errors, ana_errors, other_errors):
        assert errors == []


def holder_pin(page) -> None:
    """The PIN given, in either language (`shared.enter_pin` waits for English words)."""
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_function("() => pin && localStorage.getItem('caboose-pin')")


def test_the_join_code_is_the_pages_address_in_json_too(server):
    """What the page draws comes from `GET /api/join`: the kiosk on localhost gets the
    network address, never localhost."""
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/api/join") as answer:
        doc = json.load(answer)
    assert doc["url"].startswith(f"http://{LAN}:") and "127.0.0.1" not in doc["url"]


def test_yardmasters_hand_goes_to_the_movers_phone(browser, server):
    """Yardmaster Express has one hand, the mover's: the mover's seat phone shows it with
    its ways on its turn, the other seat's phone has none to show."""
    body = {"game": "yardmaster-express", "edition": "yardmaster-express", "names": ["Ana", "Ben"]}
    view = server.post("/api/game", body)
    mover = view["to_move"]
    holder, holder_errors, _ = phone(browser, f"{server.url}/", "en")
    holder_pin(holder)
    pages = []
    holder.click("#seats-details summary")
    for seat in (mover, 1 - mover):
        holder.click(f".seat-row[data-seat='{seat}'] .seat-code")
        holder.wait_for_selector(f".seat-row[data-seat='{seat}'] .seat-invite img")
        code = holder.evaluate(f"() => invites.get({seat}).url").split("#", 1)[1]
        page, errors, _ = phone(browser, f"{server.url}/#{code}", "en")
        page.wait_for_selector("#my-seat h2")
        pages.append((page, errors))
    (movers, movers_errors), (others, others_errors) = pages
    movers.click("#hand-reveal")
    movers.wait_for_selector("#hand-hide")
    assert movers.locator("[data-card]:not([data-card=''])").count() > 0
    assert others.inner_text("#my-seat").count(JOIN["en"]["seat_none"]) == 1
    assert others.locator("[data-card]:not([data-card=''])").count() == 0
    holder.wait_for_selector("#hand-elsewhere")
    for errors in (holder_errors, movers_errors, others_errors):
        assert errors == []
