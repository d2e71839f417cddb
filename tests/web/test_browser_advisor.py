"""The private advisor in a real headless Chromium, on a phone-sized screen: a player picks
who they are, taps their hand and sees every play with its chance and the best marked; a
move made elsewhere updates the advice without a reload; and the table's own page, open
at the same time, never receives the typed hand in any response or event."""

from __future__ import annotations

import json

import pytest

from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

PHONE = (360, 740)
# A hand Ana might type (an order nothing on the table lists), as the advisor sends it.
HAND = ["4", "C2", "3"]
HAND_TEXTS = (json.dumps(HAND), json.dumps(HAND, separators=(",", ":")))


def advisor(browser, url: str, lang: str = "en-GB"):
    page, errors = shared.open_page(browser, f"{url}/advisor", *PHONE, lang=lang)
    page.wait_for_selector("#seat option", state="attached")
    return page, errors


def tap(page, codes) -> None:
    for code in codes:
        page.click(f"#buttons button[data-code='{code}']")


def test_the_advisor_follows_the_table_and_the_table_never_sees_the_hand(browser, server):
    server.post("/api/import", {"record": ROLLECATE_TWO})

    # The table's page, open meanwhile: every response it gets and every event it hears.
    table_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    responses, table_errors = [], []
    table_page.on("response", lambda response: responses.append(response))
    table_page.on("pageerror", lambda error: table_errors.append(str(error)))
    table_page.goto(server.url)
    table_page.wait_for_selector("#railway-svg")
    link = table_page.locator("#advisor-link")  # how a player finds the advisor
    assert link.is_visible() and link.get_attribute("href") == "/advisor"
    table_page.evaluate(
        """() => {
            window.heard = [];
            const source = new EventSource('/api/events');
            source.addEventListener('state', (event) => window.heard.push(event.data));
        }"""
    )

    page, errors = advisor(browser, server.url)
    assert page.locator("#seat option").all_inner_texts() == ["Ana", "Ben"]
    page.select_option("#seat", "0")
    page.wait_for_selector("#buttons h3")
    assert page.locator("#buttons h3").all_inner_texts() == [
        "Track cards",
        "Broken tracks",
        "Chaos cards",
    ]
    assert page.locator("#clear").inner_text() == "Clear the hand"
    tap(page, HAND)
    assert page.locator("#hand button").all_inner_texts() == ["4", "chaos card 2", "3"]
    page.wait_for_selector("li.play.best[data-cards='3']")

    # The page shows the server's numbers: the same as the API answers for this hand.
    advice = server.post("/api/advise", {"seat": 0, "hand": HAND})
    assert [p["cards"] for p in advice["plays"]] == [["3"], ["4"]]
    for play in advice["plays"]:
        shown = page.locator(f"li.play[data-cards='{play['cards'][0]}']").inner_text()
        derail = play["p_derail"]
        assert f"{derail['num']}/{derail['den']} ({derail['percent']:g} %)" in shown
        assert 0 < derail["num"] < derail["den"]
        assert f"{play['expected']['value']:g} cards" in shown
    assert page.locator("li.play.best").count() == 1
    assert "the fewest penalty cards expected" in page.locator("#advice .best-line").inner_text()
    assert "Your turn." in page.locator("#advice").inner_text()
    assert "costs 1 penalty card" in page.locator("#advice .pass").inner_text()
    assert "chaos card 2 lies on top of your pile" in page.locator("#advice ul.chaos").inner_text()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], "the advice fits a 360 px phone without scrolling sideways"
    shared.shot(page, "advisor-caboose")

    # Ana plays her 2 at the table: the advisor asks again by itself. Her phone still lists
    # the 2 she laid, one card too many now: said at once, in sight, with the hand kept.
    version = server.state()["version"]
    server.post("/api/play", {"seat": 0, "cards": ["2"], "roll": [1, 0]})
    page.wait_for_selector("#error:has-text('holds at most 2 cards')")
    assert page.locator("#hand button").all_inner_texts() == ["4", "chaos card 2", "3"]
    page.click("#hand button[data-code='4']")
    page.wait_for_selector("#advice:has-text('Ben is to move')")
    assert page.locator("#error").is_hidden()
    # Front 2 now: Ana's 3 still joins it; her advice is for the table as it stands.
    page.wait_for_selector("li.play.best[data-cards='3']")
    assert "Front card: 2" in page.locator("#advice").inner_text()
    assert server.state()["version"] == version + 1  # the advisor's questions changed nothing

    # The table's page kept following (the move reached it) and never got the hand.
    table_page.wait_for_function(
        "(v) => window.heard.some((d) => JSON.parse(d).version === v)", arg=version + 1
    )
    # and the page's own reading of the table now, after every question the advisor asked
    table_page.evaluate("() => fetch('/api/state').then((answer) => answer.text())")
    heard = table_page.evaluate("() => window.heard")
    bodies = [
        r.body().decode("utf-8", "replace")
        for r in responses
        if "text/event-stream" not in (r.headers.get("content-type") or "")
    ]
    assert len(heard) >= 2 and any(f'"version": {version + 1}' in b for b in bodies)
    for text in [*heard, *bodies]:
        assert not any(hand in text for hand in HAND_TEXTS)
    assert errors == [] and table_errors == []


def test_the_advisor_speaks_spanish_and_refuses_an_impossible_hand(browser, server):
    server.post("/api/import", {"record": ROLLECATE_TWO})
    page, errors = advisor(browser, server.url, lang="es-ES")
    assert "¿Quién eres?" in page.locator("#pick").inner_text()
    page.select_option("#seat", "1")
    page.wait_for_selector("#buttons button[data-code='C1']")
    tap(page, ["C1", "C1"])  # the box has one C1
    page.wait_for_selector("#error:has-text('carta de caos 1: la caja tiene 1')")
    page.click("#clear")
    page.wait_for_selector("#advice:has-text('Le toca a Ana')")
    assert errors == []


def test_the_yardmaster_advisor_shows_each_way_with_its_score(browser, server):
    game = {"game": "yardmaster-express", "edition": "yardmaster-express", "seed": 3}
    doc = server.post("/api/game", game | {"names": ["Ana", "Ben"]})
    mover = doc["to_move"]
    card = server.hand()["hand"][0]["card"]
    page, errors = advisor(browser, server.url)
    page.select_option("#seat", str(mover))
    page.wait_for_selector(f"#buttons button[data-code='{card}']")
    tap(page, [card])
    page.wait_for_selector("li.way.best")
    advice = server.post("/api/advise", {"seat": mover, "hand": [card]})
    shown = page.locator("li.way").all_inner_texts()
    assert len(shown) == len(advice["ways"])
    for way, text in zip(advice["ways"], shown, strict=True):
        assert f"score {way['score']['before']} → {way['score']['after']}" in text
        assert f"longest cargo run {way['run']['before']} → {way['run']['after']}" in text
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], "the railcar buttons wrap on a 360 px phone"
    shared.shot(page, "advisor-yardmaster")
    best = page.locator("li.way.best")
    assert best.get_attribute("data-card") == advice["best"]["card"]
    assert best.get_attribute("data-way") == advice["best"]["way"]
    assert errors == []


def test_a_pass_that_cancels_a_card_says_so_and_no_tap_hint_without_cards(browser, server):
    """Ana's pile holds a 2 and a pass would take the 2 at the back: her pile then counts
    fewer points than now, which the advice says is the card taken cancelling one of hers.
    "Tap your cards" shows only beside cards to tap: none once the game is over."""
    record = ROLLECATE_TWO | {
        "setup": ROLLECATE_TWO["setup"] | {"railway": ["2", "3", "2", "4", "3"], "caboose": 1}
    }
    server.post("/api/import", {"record": record})
    server.post("/api/pass", {"seat": 0})  # Ana takes the 2 at the back
    server.post("/api/pass", {"seat": 1})  # Ben the 3: the 2 is at the back again
    page, errors = advisor(browser, server.url)
    page.select_option("#seat", "0")
    page.wait_for_selector("#buttons h3")
    assert page.locator("#tap-hint").is_visible()
    tap(page, ["1"])
    page.wait_for_selector("#advice p.pass")
    text = page.locator("#advice p.pass").inner_text()
    assert "your pile then: 0 points, the card taken cancelling one of yours" in text
    doc = server.state()
    while not doc["over"]:
        doc = server.post("/api/pass", {"seat": doc["to_move"]})
    page.reload()
    page.wait_for_selector("#seat option", state="attached")
    page.select_option("#seat", "0")
    page.wait_for_timeout(800)
    shown = page.locator("#tap-hint").is_visible()
    assert shown == (page.locator("#buttons button:visible").count() > 0)
    assert errors == []


def test_laura_is_no_seat_to_advise_and_a_game_without_a_hidden_hand_says_so(browser, server):
    """Who may ask is the game's to say (the Caboose drawing leaves Laura out); a game
    with no hidden hand loads no drawing of advice and says it has none."""
    solo = {"edition": "loknroll", "variant": "solo-laura", "names": ["Ana"], "seed": 1}
    players = server.post("/api/game", solo)["players"]
    assert sorted(p.get("laura", False) for p in players) == [False, True]
    page, errors = advisor(browser, server.url)
    assert page.locator("#seat option").all_inner_texts() == ["Ana"]
    server.post("/api/game", {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"]})
    page.wait_for_selector("#no-hidden-hand:visible")  # the page reloaded for the new game
    assert page.locator("#advice").is_hidden() and page.locator("#pick").is_hidden()
    assert page.evaluate("() => window.gameAdvisor") is None
    assert errors == []
