"""The page's words and drawing in a real headless Chromium (see tests/web/test_browser.py):
counts of one, the variants by name, the "back" and "front" labels on their cards whichever
way the railway runs, players' names isolated from the text around them, and on a phone the
move to make before the railway."""

from __future__ import annotations

import copy

import pytest

from companion import games
from companion.games.caboose.words import TEXT, cards_words
from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared
from tests.words_checks import codes_in
from web.words import SHELL

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

ARABIC = "أحمد"

# The boxes, on the screen, of the railway's cards and of a label, as Chromium laid them out.
BOXES = """label => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return {
    cards: [...document.querySelectorAll('#railway-svg g.rw rect.rw-card')].map(box),
    label: box(document.getElementById(label)),
    svg: box(document.getElementById('railway-svg')),
  };
}"""


def gap(a: list[float], b: list[float]) -> float:
    """How far apart two boxes are (0 when they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return (dx * dx + dy * dy) ** 0.5


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def turned(railway: dict, quarters: int) -> dict:
    """The same railway turned a quarter clockwise `quarters` times on the table."""
    doc = copy.deepcopy(railway)
    for card in doc["cards"]:
        x, y, r = card["pose"]
        for _ in range(quarters):
            x, y, r = -y, x, r + 90
        card["pose"] = [x, y, r % 360]
    return doc


def direction(railway: dict, a: int, b: int) -> str:
    (x1, y1, _), (x2, y2, _) = railway["cards"][a]["pose"], railway["cards"][b]["pose"]
    if abs(y2 - y1) >= abs(x2 - x1):
        return "down" if y2 > y1 else "up"
    return "right" if x2 > x1 else "left"


def test_back_and_front_label_their_own_cards_whichever_way_the_railway_runs(browser, server):
    """A dealt railway runs up the table; turned, it runs right, down and left. Each time
    "back" lies beside the back card and "front" beside the front card, on no other card
    and inside the drawing."""
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 0})
    dealt = server.state()["railway"]
    assert not dealt["schematic"]
    page, errors = shared.open_page(browser, server.url, 1280, 900)
    page.wait_for_selector("#railway-svg")
    seen = set()
    for quarters in range(4):
        railway = turned(dealt, quarters)
        seen.add(direction(railway, 0, 1))
        page.evaluate("rw => drawRailway({ ...view, railway: rw })", railway)
        last = len(railway["cards"]) - 1
        for label, card in (("label-back", 0), ("label-front", last)):
            boxes = page.evaluate(BOXES, label)
            box, cards = boxes["label"], boxes["cards"]
            height = box[3] - box[1]
            where = (quarters, label)
            assert gap(box, cards[card]) < height, where  # beside its card
            assert not any(overlap(box, c) for i, c in enumerate(cards) if i != card), where
            nearest = min(range(len(cards)), key=lambda i: gap(box, cards[i]))
            assert nearest == card, where
            svg = boxes["svg"]
            assert svg[0] <= box[0] and box[2] <= svg[2] and svg[1] <= box[1] and box[3] <= svg[3]
        shared.shot(page, f"words-railway-turned-{quarters}")
    assert seen == {"up", "right", "down", "left"}
    assert errors == []


def test_an_arabic_name_is_isolated_wherever_the_page_prints_it(browser, server):
    """Every name the page prints is in its own <bdi>: a right-to-left name then cannot
    pull the colon and the count after it into its run ("5 :أحمد in hand")."""
    server.post("/api/game", {"edition": "rollecate", "names": [ARABIC, "Ben"], "seed": 3})
    for _ in range(2):
        server.post("/api/pass", {"seat": server.state()["to_move"]})
    page, errors = shared.open_page(browser, server.url, 390, 844)
    page.wait_for_selector("#railway-svg")
    unisolated = """name => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const found = [];
      let inside = 0;
      while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.textContent.includes(name) || node.parentElement.closest('[hidden]')) continue;
        if (node.parentElement.closest('option')) continue;  // a choice holding the name alone
        const bdi = node.parentElement.closest('bdi');
        if (bdi && bdi.textContent === name) inside += 1;
        else found.push(node.parentElement.outerHTML);
      }
      return { inside, found };
    }"""
    during = page.evaluate(unisolated, ARABIC)
    assert during["found"] == []
    # the status line (to move, hand sizes), the move's heading, the piles, the log
    assert during["inside"] >= 5
    assert page.locator("#hand-sizes bdi").first.inner_text() == ARABIC
    doc = server.state()
    while not doc["over"]:
        doc = server.post("/api/pass", {"seat": doc["to_move"]})
    page.wait_for_selector("#ranking:not([hidden])")
    after = page.evaluate(unisolated, ARABIC)
    assert after["found"] == [] and after["inside"] >= 4
    assert page.locator("#ranking table bdi").count() == 2
    shared.shot(page, "words-arabic-name")
    assert errors == []


def test_on_a_phone_the_move_to_make_comes_before_the_railway(browser, server):
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": "e2e"})
    page, errors = shared.open_page(browser, server.url, 390, 844)
    page.wait_for_selector("#move:not([hidden]) #hand-reveal")
    shared.reveal_hand(page)
    move = page.locator("#move").bounding_box()
    railway = page.locator("#railway").bounding_box()
    assert move["y"] < 844 * 0.5  # in the first screen, with room for its plays
    assert move["y"] < railway["y"]
    shared.shot(page, "words-phone-move-first")
    # Ana plays and derails: what the table must do now (the caboose, the cards to take)
    # comes right after the next move, still above the railway.
    derail_with_two_curved_3s(server)
    page.wait_for_selector("#last:not([hidden]) #derail.derailed")
    last = page.locator("#last").bounding_box()
    move = page.locator("#move").bounding_box()
    assert (
        move["y"] < 844 * 0.5
        and move["y"] < last["y"] < page.locator("#railway").bounding_box()["y"]
    )
    shared.shot(page, "words-phone-after-the-dice")
    # On a wide screen the railway keeps its place beside the piles, the move under it.
    wide, wide_errors = shared.open_page(browser, server.url, 1920, 1080)
    wide.wait_for_selector("#move:not([hidden]) #hand-reveal")
    assert wide.locator("#railway").bounding_box()["y"] < wide.locator("#move").bounding_box()["y"]
    assert errors == [] and wide_errors == []


def derail_with_two_curved_3s(server) -> dict:
    """Ana (seat 0, the "e2e" Rollecate deal) plays her two curved 3s and every die shows
    a wheel: the caboose derails and cards leave the back. The new view."""
    play = next(p for p in server.hand()["plays"] if p["cards"] == ["3/c", "3/c"])
    return server.post(
        "/api/play",
        {
            "seat": 0,
            "cards": play["cards"],
            "roll": [1] * play["dice"],
            "place": play["placements"][0],
        },
    )


def test_the_last_turn_and_the_log_count_railway_cards_alike(browser, server):
    """Cards are counted from 1 everywhere the page says them: the caboose's move in the
    last-turn panel is the log's, and once penalty cards left the back the panel adds the
    card it stands on now, the number the drawing shows."""
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": "e2e"})
    page, errors = shared.open_page(browser, server.url, 1280, 900)
    page.wait_for_selector("#railway-svg")
    doc = derail_with_two_curved_3s(server)
    page.wait_for_selector("#last:not([hidden]) #moved")
    moved, now = doc["last"]["moved"], doc["railway"]["caboose"]
    assert doc["last"]["took"] and now != moved["to"]  # cards left the back
    panel = page.locator("#moved").inner_text()
    assert f"to card {moved['to'] + 1}" in panel and f"now card {now + 1}" in panel
    assert f"caboose {moved['from'] + 1} -> {moved['to'] + 1}," in doc["log"][0]["text"]
    drawn = page.locator(f"#railway-svg .rw-index >> nth={now}").text_content()
    assert drawn == str(now + 1)
    assert errors == []


def test_spanish_counts_of_one_and_the_variants_by_name(browser, server):
    doc = copy.deepcopy(ROLLECATE_TWO)
    doc["setup"]["draw"] = ["2"]  # one card left to draw
    server.post("/api/import", {"record": doc})
    page, errors = shared.open_page(browser, server.url, 390, 844, lang="es-ES")
    page.wait_for_selector("#railway-svg")
    assert "queda 1 carta en el mazo" in page.locator("#draw-left").inner_text()
    page.click("#start-details summary")
    page.select_option("#edition", "loknroll")
    options = page.locator("#variant option")
    texts = [options.nth(i).inner_text() for i in range(options.count())]
    values = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert values == ["", "solo", "solo-hard", "solo-laura"]
    assert texts == [SHELL["es"]["none"]] + [TEXT["es"][f"variant_{v}"] for v in values[1:]]
    # The odds of a play list "1 carta", not "1 cartas".
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": "e2e"})
    page.wait_for_selector("#hand-reveal")
    shared.reveal_hand(page)
    page.wait_for_selector("button[data-play='3/c,3/c']")
    page.click("button[data-play='3/c,3/c']")
    page.wait_for_selector(".odds .chart")
    chart = page.locator(".odds .chart").inner_text()
    assert "1 carta\n" in chart + "\n" and "1 cartas" not in chart
    assert errors == []


def test_lauras_turn_is_said_in_spanish(browser, server):
    """LOK'n'ROLL's solo rival: what the rules make her do is said in the page's language,
    not as the engine's raw `play`, `chaos` or `pass`."""
    doc = server.post(
        "/api/game",
        {"edition": "loknroll", "names": ["Ana"], "variant": "solo-laura", "seed": 1},
    )
    while not doc["choices"].get("laura"):
        doc = server.post("/api/pass", {"seat": doc["to_move"]})
    action = doc["choices"]["laura"]
    page, errors = shared.open_page(browser, server.url, 390, 844, lang="es-ES")
    page.wait_for_selector("#move p.big")
    cards = cards_words(action.get("cards", []), "es")  # "carta de caos 2", never "C2"
    said = TEXT["es"][f"laura_{action['kind']}"].replace("{cards}", cards)
    assert page.locator("#move p.big").inner_text() == f"Turno de Laura: {said}"
    assert errors == []


# Everything a person reads on the page (the drawings aside): its text with the SVGs gone.
READ = """() => { for (const svg of document.querySelectorAll('svg')) svg.remove();
  return document.body.innerText; }"""


@pytest.mark.parametrize("game_id", ["caboose", "yardmaster-express", "switching"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_and_the_kiosk_read_in_words_never_in_codes(browser, server, game_id, lang):
    """Issue 27: a game a few turns in, on a phone and on the screen beside the table, in
    both languages: no card code ("1x", "C2", "R1-B3"), space ("o3"), slot ("NE") or rule
    id ("S-6") in what a person reads; the page's texts (plays, chaos cards, Laura, the
    last turn, the hand) said by its script in words too."""
    games.game(game_id).sample(server.table, 8, "words")
    for path, size in (("/", (390, 844)), ("/?view=table", (1920, 1080))):
        page, errors = shared.open_page(browser, f"{server.url}{path}", *size)
        page.goto(f"{server.url}{path}{'&' if '?' in path else '?'}lang={lang}")
        page.wait_for_selector("#log li")
        if game_id == "switching":  # the board's slots marked by compass points in `lang`
            marks = set(
                page.eval_on_selector_all(".sw-slot-name", "els => els.map(e => e.textContent)")
            )
            words = games.game(game_id).words(lang)
            assert marks == {words[f"slot_mark_{slot}"] for slot in ("NW", "NE", "SW", "SE")}
        read = page.evaluate(READ)
        assert codes_in(read) == [], read
        assert errors == []
        page.context.close()


def test_a_pin_refusal_is_said_in_the_pages_language_clear_of_the_deal_button(browser, server):
    """Issue 27: Deal tapped without the PIN on a Spanish phone: the toast says what to do in
    Spanish, with no header name or rule id in it, and leaves the Deal button visible."""
    page, errors = shared.open_page(browser, f"{server.url}/?lang=es", 390, 844, "es-ES")
    page.wait_for_selector("#start-form")
    page.fill("#names", "Ana\nBen")
    deal = page.locator("#start-form button[type=submit]")
    deal.scroll_into_view_if_needed()
    deal.click()
    toast = page.wait_for_selector("#error:not([hidden])")
    said = toast.inner_text()
    assert said == SHELL["es"]["refusal_pin_missing"]
    assert "X-Table-Pin" not in said and "(pin)" not in said
    assert not overlap(box(toast), box(deal))
    assert errors == []


def test_the_spanish_start_form_names_every_game_in_spanish(browser, server):
    """Issue 27: another game chosen on the Spanish start form: its board and variants in
    Spanish, as the first game's were."""
    page, errors = shared.open_page(browser, f"{server.url}/?lang=es", 390, 844, "es-ES")
    page.wait_for_selector("#start-form")
    page.select_option("#game", "switching")
    words = games.game("switching").words("es")
    assert page.locator("#game option[value=switching]").inner_text() == words["game_name"]
    assert page.locator("#edition option").all_inner_texts() == [words["option_ours"]]
    variants = page.locator("#variant option").all_inner_texts()
    assert variants == [SHELL["es"]["none"], *(words[f"variant_{v}"] for v in
                        ("short", "repair", "short-repair"))]  # fmt: skip
    page.select_option("#game", "yardmaster-express")
    variants = page.locator("#variant option").all_inner_texts()
    yard = games.game("yardmaster-express").words("es")
    assert variants[1:] == [yard[f"variant_{v}"] for v in
                            ("caboose", "strategic", "strategic-caboose")]  # fmt: skip
    assert errors == []


def box(element) -> list[float]:
    """An element's box on the screen as [left, top, right, bottom]."""
    found = element.bounding_box()
    return [found["x"], found["y"], found["x"] + found["width"], found["y"] + found["height"]]
