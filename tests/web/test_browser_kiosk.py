"""The screen beside the table (`/?view=table`) in a real headless Chromium, for each game,
at 1920x1080 and 1280x720 at once: a game played through the API as the phones play it,
and the screen showing the railway, the trains or the board, whose turn it is, the computed
move, the last turn and the scores, following every move without a reload, then the
ranking. Each time: no control or cursor visible, nothing a tap changes, nothing scrolls,
no text cut off or outside its box, and no text under 2.2 % of the screen's height (24 px
at 1080p), whose turn bigger still. A camera's question or problem is said big (in Spanish
with ?lang=es), and the biggest tables fit to the end. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.caboose.commands import Press
from companion.games.caboose.follow import ASKING, CONFIRM
from companion.games.caboose.tracker import CABOOSE_MOVED
from companion.games.caboose.words import session_words
from companion.games.protocol import Setting
from companion.games.said import Said
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import Seen
from companion.games.switching.follow import BoardSeen
from companion.store import Store
from companion.table import Table
from tests.caboose import test_follow as camera
from tests.web import test_browser as shared

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

SCREENS = [(1920, 1080), (1280, 720)]
SMALLEST = 0.022  # of the screen's height: 24 px at 1080p

# What the screen shows, measured as a visitor sees it: the controls visible, the page's
# scroll size, and every piece of text visible with its size on screen (a drawing's words
# scaled as drawn) and whether it lies whole inside its box and the screen.
LAYOUT = """() => {
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const controls = [...document.querySelectorAll("button, input, select, textarea, a, "
    + "details, summary, [onclick], [tabindex], [contenteditable]")].filter(shown)
    .map((el) => el.outerHTML.slice(0, 80));
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const svg = el.closest("svg");
    const size = parseFloat(getComputedStyle(el).fontSize) * (svg ? svg.getScreenCTM().a : 1);
    const box = (svg || el.closest("section, header")).getBoundingClientRect();
    const inside = r.left >= Math.max(box.left, 0) - 1 && r.top >= Math.max(box.top, 0) - 1
      && r.right <= Math.min(box.right, innerWidth) + 1
      && r.bottom <= Math.min(box.bottom, innerHeight) + 1;
    texts.push({ text: node.textContent.trim().slice(0, 50), size, inside });
  }
  const root = document.documentElement;
  return { controls, cursor: getComputedStyle(document.body).cursor,
    scroll: [root.scrollWidth, root.scrollHeight],
    screen: [innerWidth, innerHeight], texts };
}"""


@contextmanager
def screens(browser, url: str, lang: str = "") -> Iterator[list]:
    """The kiosk view open at both screen sizes; its pages, each marked so that a reload
    would show (the mark is gone), and no page error at the end."""
    pages = []
    for width, height in SCREENS:
        page, errors = shared.open_page(browser, f"{url}/?view=table{lang}", width, height)
        pages.append((page, errors))
    for page, _ in pages:
        page.wait_for_selector("#live.on")
        page.evaluate("() => { window.kioskMark = true; }")
    yield [page for page, _ in pages]
    for page, errors in pages:
        assert page.evaluate("() => window.kioskMark === true"), "the kiosk page reloaded"
        assert errors == []
        page.context.close()


def fits(page) -> list[dict]:
    """Checks the screen as a family sees it from two metres (nothing asks them to tap
    it); its texts. A screen that fails is kept in tests/artifacts/kiosk-failed.png."""
    seen = page.evaluate(LAYOUT)
    width, height = seen["screen"]
    texts = seen["texts"]
    wrong = {
        "controls": seen["controls"],
        "cursor shown": [] if seen["cursor"] == "none" else [seen["cursor"]],
        "scrolls": [] if seen["scroll"] == [width, height] else seen["scroll"],
        "cut or outside": [t["text"] for t in texts if not t["inside"]],
        "too small": [
            (t["text"], round(t["size"], 1)) for t in texts if t["size"] < SMALLEST * height
        ],
        "asks to tap": [t["text"] for t in texts if re.search(r"\btap\b", t["text"], re.I)],
    }
    if any(wrong.values()):
        shared.shot(page, "kiosk-failed")
    assert {what: found for what, found in wrong.items() if found} == {}
    return texts


def size_of(page, selector: str) -> float:
    return page.evaluate(
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
    )


def whose_turn_big(page, selector: str) -> None:
    """Whose turn it is: at least twice the smallest size allowed."""
    height = page.viewport_size["height"]
    assert size_of(page, selector) >= 2 * SMALLEST * height


def taps_change_nothing(page, server) -> None:
    """Taps all over the screen and the keys a visitor might press: no request changes
    anything (nothing is posted) and the table is as it was."""
    version = server.state()["version"]
    posted: list[str] = []
    page.on(
        "request", lambda request: posted.append(request.url) if request.method == "POST" else None
    )
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for i in range(8):
        for j in range(6):
            page.mouse.click(width * (i + 0.5) / 8, height * (j + 0.5) / 6)
    for key in ["Tab", "Enter", "Space", "Tab", "Enter"]:
        page.keyboard.press(key)
    page.wait_for_timeout(200)
    assert posted == []
    assert server.state()["version"] == version


def follows(pages, text: str) -> None:
    """Every screen shows the newest log line `text` within two seconds (without reloading:
    see `screens`)."""
    for page in pages:
        page.wait_for_function(
            "t => (document.querySelector('#log li') || {}).textContent === t",
            arg=text,
            timeout=2000,  # "within a second or two", as the normal page follows
        )


def test_caboose_on_the_screen_beside_the_table(browser, server):
    """Rollecate, two players, started while the screen waits for a game: the railway with
    its caboose, whose turn, every play with its dice and chance to derail, then the play a
    phone chose with its odds, the derailment and the cards taken, the scores and penalty
    piles, and the ranking at the end."""
    with screens(browser, server.url) as pages:
        for page in pages:  # before any game: a word that one is awaited, nothing to tap
            page.wait_for_selector("#kiosk-idle:not([hidden])")
            assert page.locator("#kiosk-idle").inner_text() == "No game yet: start one."
            fits(page)
        doc = server.post(
            "/api/game",
            {"game": "caboose", "edition": "rollecate", "names": ["Ana", "Ben"], "seed": "e2e"},
        )
        for page in pages:
            page.wait_for_selector("#railway-svg")
            assert page.locator("#kiosk-idle").is_hidden()
            assert page.locator("#railway-svg g.rw").count() == len(doc["railway"]["cards"])
            assert page.locator("#railway-svg #caboose").count() == 1
            assert page.locator("#to-move").inner_text() == "Ana to move"
            whose_turn_big(page, "#to-move")
            # Everyone reads this screen: no card of Ana's hand, no odds of her plays.
            assert page.locator("#kiosk-choosing").inner_text() == "Ana is choosing a move"
            assert page.locator("#move .card, [data-play], .p-derail").count() == 0
            fits(page)
        taps_change_nothing(pages[1], server)

        # A phone chooses two 3s: the screen shows that play's odds.
        hand = server.hand()
        risky = next(p for p in hand["plays"] if p["cards"] == ["3/c", "3/c"])
        body = {"seat": 0, "cards": risky["cards"], "place": risky["placements"][0]}
        server.post("/api/stage", body)
        for page in pages:
            page.wait_for_selector("#move .p-derail")
            assert page.locator(".p-derail").inner_text() == f"{risky['p_derail']['percent']:g}%"
            assert page.locator(".dice-count").inner_text() == "Roll 6 dice"
            assert str(risky["expected_penalty"]) in page.locator(".expected").inner_text()
            assert page.locator("#railway-svg .ghost").count() == 1  # where it goes
            fits(page)
        shared.shot(pages[0], "kiosk-caboose-1-odds-1080p")

        # Six wheels of one: it derails; the last turn, the piles and the scores follow.
        doc = server.post("/api/play", body | {"roll": [1] * 6})
        follows(pages, doc["log"][0]["text"])
        short = doc["last"]["derailed"]
        assert short > 0
        for page in pages:
            page.wait_for_selector("#last #derail.derailed")
            assert page.locator("#derail").inner_text() == f"Derailed: {short} short"
            assert page.locator("#to-move").inner_text() == "Ben to move"
            scores = page.locator("#piles .score").all_inner_texts()
            assert scores == [f"score {p['score']}" for p in doc["players"]]
            fits(page)
        shared.shot(pages[1], "kiosk-caboose-2-derailed-720p")

        while not doc["over"]:
            doc = server.post("/api/pass", {"seat": doc["to_move"]})
        follows(pages, doc["log"][0]["text"])
        for page in pages:
            page.wait_for_selector("#ranking:not([hidden]) #winners")
            assert " & ".join(doc["ranking"]["winners"]) in page.locator("#winners").inner_text()
            assert page.locator("#move").is_hidden()
            assert page.locator("#to-move").inner_text() == "Game over"
            fits(page)
        shared.shot(pages[0], "kiosk-caboose-3-ranking-1080p")
        taps_change_nothing(pages[0], server)


# A finished game of `companion demo` (its default seed): the caboose stands on the front
# card, laid sideways, right above card 3.
SIDEWAYS = Path(__file__).with_name("caboose-on-a-sideways-card.json")

# The screen boxes of the caboose, of the card it stands on, and of every card's value.
CABOOSE_BOXES = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const at = view.railway.caboose;
    return { caboose: box(document.querySelector("#caboose")),
        card: box(document.querySelectorAll("#railway-svg g.rw")[at]),
        values: [...document.querySelectorAll("#railway-svg text.rw-value")]
            .slice(0, view.railway.cards.length).map(box), at };
}"""


def test_the_caboose_stays_on_its_card_clear_of_the_values(browser, server):
    """The caboose on a card laid sideways (half as high as one laid along) is drawn
    within that card, over no other card's value, at both screen sizes."""
    server.post("/api/import", {"record": json.loads(SIDEWAYS.read_text())})
    for width, height in SCREENS:
        page, errors = shared.open_page(browser, f"{server.url}/?view=table", width, height)
        page.wait_for_selector("#railway-svg #caboose")
        found = page.evaluate(CABOOSE_BOXES)
        a, card = found["caboose"], found["card"]
        assert card[0] - 1 <= a[0] and card[1] - 1 <= a[1] and a[2] <= card[2] + 1
        assert a[3] <= card[3] + 1, found
        covered = [i for i, b in enumerate(found["values"]) if i != found["at"]
                   and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]  # fmt: skip
        assert covered == [], found
        assert errors == []
        page.context.close()


def test_the_screen_beside_the_table_never_asks_for_a_hand(browser, server):
    """Even in a browser that holds the table's PIN (a phone's, turned into the screen
    beside the table), the kiosk shows no hand and never asks for one, on any turn."""
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": "e2e"})
    page, errors = shared.open_page(browser, f"{server.url}/?view=table", 1920, 1080)
    page.evaluate(f"() => localStorage.setItem('caboose-pin', '{shared.PIN}')")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload()
    page.wait_for_selector("#kiosk-choosing")
    doc = server.post("/api/pass", {"seat": 0})
    drawn(page, doc)
    assert page.locator("#kiosk-choosing").inner_text() == "Ben is choosing a move"
    assert page.locator("#move .card, [data-play], .p-derail, #hand-reveal").count() == 0
    assert [url for url in asked if "/api/hand" in url] == []
    assert errors == []
    page.context.close()


def test_a_real_tables_move_says_who_chooses_not_an_empty_list(browser, tmp_path):
    """A real table's deal (its hands unknown, as the camera demo's): the screen says whose
    move is awaited, not a heading over an empty list of plays."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(provisional=True)))
    try:
        body = {"game": "caboose", "edition": "rollecate", "names": ["Ana", "Ben"], "seed": 4}
        server.post("/api/game", body)
        page, errors = shared.open_page(browser, f"{server.url}/?view=table", 1280, 720)
        page.wait_for_selector("#move:not([hidden]) #kiosk-choosing")
        assert page.locator("#move").inner_text() == "Ana is choosing a move"
        assert errors == []
        page.context.close()
    finally:
        server.close()


def test_yardmaster_express_on_the_screen_beside_the_table(browser, server):
    """Three players, every card added through the API: the trains as they lie, whose turn
    (never the mover's hand: everyone reads this screen), the newest card, the scores, and
    the ranking."""
    body = {"game": "yardmaster-express", "edition": "yardmaster-express"}
    doc = server.post("/api/game", body | {"names": ["Ana", "Ben", "Cleo"], "seed": 4})
    with screens(browser, server.url) as pages:
        for page in pages:
            page.wait_for_selector("#ym-trains .ym-player")
            assert page.locator("#ym-to-move").inner_text() == "Ana to move"
            whose_turn_big(page, "#ym-to-move")
            assert page.locator("#ym-move").is_hidden()
            assert page.locator("[data-entry], [data-way], #hand-reveal").count() == 0
            assert page.locator("#ym-trains .ym-player").count() == 3
            fits(page)
        taps_change_nothing(pages[0], server)

        turn = 0
        while not doc["ended"]:
            card, way = next(
                (e["card"], w["way"])
                for e in server.hand()["hand"]
                for w in e["ways"]
                if w["legal"]
            )
            add = {"seat": doc["to_move"], "card": card, "turn": doc["turn"]}
            if way != "printed":
                add[way] = True
            doc = server.post("/api/add", add)
            turn += 1
            if turn in (1, 9):  # the screens follow, checked now and then
                follows(pages, doc["log"][0]["text"])
                mover = doc["players"][doc["to_move"]]["name"]
                for page in pages:
                    assert page.locator("#ym-to-move").inner_text() == f"{mover} to move"
                    scores = page.locator("#ym-trains .score").all_inner_texts()
                    assert scores == [f"{p['score']} points" for p in doc["players"]]
                    assert page.locator("#ym-trains .ym-card.newest").count() == 1
                    fits(page)
                if turn == 9:
                    shared.shot(pages[1], "kiosk-ym-1-mid-game-720p")
        follows(pages, doc["log"][0]["text"])
        ranking = doc["ranking"]
        for page in pages:
            page.wait_for_selector("#ym-ranking:not([hidden]) #ym-winner")
            assert (
                page.locator("#ym-winner").inner_text().startswith(f"{ranking['winners'][0]} wins")
            )
            assert page.locator("#ym-move").is_hidden()
            rows = page.locator("#ym-ranking-table tr").all_inner_texts()
            assert [row.split("\t")[1] for row in rows] == [r["name"] for r in ranking["rows"]]
            for player in doc["players"]:
                seat = f"#ym-trains [data-seat='{player['seat']}']"
                assert page.locator(f"{seat} .ym-card").count() == len(player["train"])
            fits(page)
        shared.shot(pages[0], "kiosk-ym-2-ranking-1080p")
        taps_change_nothing(pages[1], server)


def roll(server, doc: dict, white: int, black: int) -> dict:
    return server.post(
        "/api/roll", {"colour": "purple", "dice": [white, black], "turn": doc["turn"]}
    )


def play(server, doc: dict, space: str) -> dict:
    return server.post("/api/play", {"from": space, "turn": doc["turn"]})


def bens_turn(server, doc: dict) -> dict:
    """Ben potters on C (purple stays, S-6), as test_browser_switching's short game."""
    doc = roll(server, doc, 1, 2)
    return play(server, doc, next(m["id"] for m in doc["moves"] if m["id"][0] in "Cc"))


def test_switching_on_the_screen_beside_the_table(browser, server):
    """The short game (S-21): the board with its trains, whose turn, the roll and every
    legal move with its outcome, the depots, and the winner with the ranking."""
    body = {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"], "seed": 1}
    doc = server.post("/api/game", body | {"variant": "short"})
    with screens(browser, server.url) as pages:
        doc = roll(server, doc, 6, 5)
        follows(pages, doc["log"][0]["text"])
        for page in pages:
            page.wait_for_selector("#sw-move-list li")
            assert (
                page.locator("#sw-to-move").inner_text() == "R Ana to move"
            )  # the red train's letter
            whose_turn_big(page, "#sw-to-move")
            assert page.locator("#sw-roll [data-pips]").all_inner_texts() == ["6", "5"]
            moves = page.locator("#sw-move-list li").all_inner_texts()
            said = [m.split(" ", 1)[1] for m in moves]  # the first that fit, in full words
            assert said and said == [m["text"] for m in doc["moves"]][: len(said)]
            assert page.locator("#sw-board-svg .sw-space").count() == len(doc["board"]["spaces"])
            fits(page)
        taps_change_nothing(pages[1], server)

        doc = play(server, doc, "D1")
        follows(pages, doc["log"][0]["text"])
        for page in pages:
            trains = page.locator("#sw-board-svg .sw-train")
            assert trains.count() == len(doc["trains"]) == 1
            assert trains.first.get_attribute("data-space") == doc["trains"][0]["space"]
            assert page.locator("#sw-to-move").inner_text() == "B Ben to move"
            fits(page)
        shared.shot(pages[0], "kiosk-sw-1-board-1080p")

        doc = bens_turn(server, doc)
        for (white, black), space in [((1, 2), "E3"), ((6, 5), "D1"), ((1, 2), "E3")]:
            doc = play(server, roll(server, doc, white, black), space)
            if not doc["over"]:
                doc = bens_turn(server, doc)
        assert doc["over"] and doc["winner"] == "Ana"
        follows(pages, doc["log"][0]["text"])
        for page in pages:
            page.wait_for_selector("#sw-ranking:not([hidden]) #sw-winner")
            assert page.locator("#sw-winner").inner_text() == "Ana wins"
            rows = page.locator("#sw-ranking-table tr").all_inner_texts()
            assert [row.split("\t") for row in rows] == [
                ["1", "Ana", "2 trains in the depot"],
                ["2", "Ben", "0 trains in the depot"],
            ]
            assert page.locator("#sw-moves-section").is_hidden()
            fits(page)
        shared.shot(pages[1], "kiosk-sw-2-winner-720p")


def test_a_cameras_problem_is_said_big_in_spanish(browser, tmp_path):
    """A table a camera follows, the screen in Spanish (?lang=es): what the table waits
    for, then a train the game does not have, said big as the problem to fix, and gone
    once the board is right; the screen still fits and offers nothing to tap."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(camera=object())))
    try:
        body = {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"], "seed": 1}
        server.post("/api/game", body)
        with screens(browser, server.url, "&lang=es") as pages:
            for page in pages:
                page.wait_for_selector("#session:not([hidden]) #session-message")
                assert page.locator("#sw-to-move").inner_text() == "R Le toca a Ana"
                fits(page)
            board = load_board()
            server.table.handle(Seen(board=BoardSeen(board.home, frozenset({("A3", "red", 1)}))))
            for page in pages:
                page.wait_for_selector("#session-message.problem")
                assert page.locator("#session-message").inner_text() == (
                    "hay un tren rojo en la vía de la Salida de abajo, donde la partida no tiene "
                    "ninguno"
                )
                height = page.viewport_size["height"]
                assert size_of(page, "#session-message") >= 2 * SMALLEST * height
                fits(page)
            shared.shot(pages[1], "kiosk-sw-3-problem-720p")
            taps_change_nothing(pages[0], server)
            server.table.handle(Seen(board=BoardSeen(board.home, frozenset())))
            for page in pages:
                page.wait_for_selector("#session-message:not(.problem)")
    finally:
        server.close()


# Each move shown lies whole inside its section: a section squeezed to less than its first
# move would be an empty frame that says nothing.
MOVES_SHOWN = """() => {
  const section = document.getElementById("sw-moves-section");
  if (section.hidden) return null;
  const box = section.getBoundingClientRect();
  return [...section.querySelectorAll("#sw-move-list li")].map((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.height > 0;
  });
}"""


def test_a_problem_to_fix_beside_a_roll_leaves_whole_moves_or_none(browser, tmp_path):
    """What the table waits for, what the camera cannot see and a roll, all at once: the screen
    keeps whose turn and the roll, and shows the moves that fit whole, or no moves section
    at all, never an empty frame."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(camera=object())))
    try:
        body = {"game": "switching", "edition": "ours", "names": ["Ana", "Ben"], "seed": 1}
        server.post("/api/game", body)
        board = load_board()
        server.table.handle(Seen(board=BoardSeen(board.home, frozenset())))
        server.table.handle(Seen(dice=("orange", (4, 4))))
        hidden = Said("table_markers_hidden_one", "table marker 0 not seen",
                      (("markers", "0"), ("n", 1)))  # fmt: skip
        wrong = BoardSeen(board.home, frozenset({("A3", "red", 1)}))
        server.table.handle(Seen(board=wrong, camera=(hidden,)))
        with screens(browser, server.url) as pages:
            for page in pages:
                page.wait_for_selector("#session:not([hidden]) #session-message")
                page.wait_for_selector("#sw-roll [data-pips]")
                shown = page.evaluate(MOVES_SHOWN)
                assert shown is None or (shown and all(shown)), shown
                fits(page)
            shared.shot(pages[0], "kiosk-sw-4-problem-and-roll-1080p")
    finally:
        server.close()


def test_the_cameras_question_and_a_refused_confirm_are_said_big(browser, tmp_path):
    """Loose Caboose followed by a camera: a card seen unsure is asked about big, the cards
    it might be shown (a phone answers, not this screen); answered, the screen says to
    roll; CONFIRM pressed before the caboose is moved is said big as the problem to fix."""
    table, session, _, play = camera.start(Store(tmp_path / "table.sqlite3"))
    server = shared.Server(table)
    try:
        with screens(browser, server.url) as pages:
            laid = camera.lay(table, play, confidence=0.1)
            question = session.question
            assert session.phase == ASKING and question is not None
            for page in pages:
                page.wait_for_selector("#session-question #session-prompt")
                prompt = session_words(question.prompt.as_json(), "en")  # cards in words
                assert page.locator("#session-prompt").inner_text() == prompt
                options = page.locator("#session-question .options .card")
                shown = [options.nth(i).get_attribute("data-code") for i in range(options.count())]
                assert shown == [*question.options]
                height = page.viewport_size["height"]
                assert size_of(page, "#session-prompt") >= 2 * SMALLEST * height
                fits(page)
            shared.shot(pages[0], "kiosk-caboose-4-camera-asks-1080p")
            taps_change_nothing(pages[1], server)
            while session.phase == ASKING:
                camera.answer(table, play.cards[session.question.card])
            dice = session.status()["roll"]["needed"]
            for page in pages:
                page.wait_for_selector("#session-roll")
                assert f"roll {dice} di" in page.locator("#session-message").inner_text()
                fits(page)
            # Rolled, but the caboose is not yet where the computed move puts it.
            rolled = camera.roll(table, laid, [0] * dice)
            camera.see(table, camera.event(CABOOSE_MOVED, replace(rolled, caboose=None)))
            table.handle(Press(CONFIRM))  # too early: refused
            for page in pages:
                page.wait_for_selector("#session.led-error #session-problem")
                assert page.locator("#session-problem").inner_text().startswith("not yet")
                height = page.viewport_size["height"]
                assert size_of(page, "#session-problem") >= 2 * SMALLEST * height
                fits(page)
            shared.shot(pages[1], "kiosk-caboose-5-not-yet-720p")
    finally:
        server.close()


def drawn(page, doc: dict) -> None:
    """Until the screen has drawn the table's view `doc` (the shell's latest `view`): its log
    may be cut away altogether on a full screen."""
    page.wait_for_function("v => view && view.version >= v", arg=doc["version"], timeout=2000)


def caboose_turn(server, doc: dict, rng: random.Random) -> dict:
    """A turn as a table plays it: mostly a play that fits, with a random roll, else a pass."""
    choices = doc["choices"]
    body = {"seat": doc["to_move"]}
    plays = [p for p in server.hand()["plays"] if p["placements"] is None or p["placements"]]
    if not plays or rng.random() < 0.2:
        return server.post("/api/pass", body)
    play = rng.choice(plays)
    body |= {
        "cards": play["cards"],
        "roll": [rng.choice(choices["faces"]) for _ in range(play["dice"])],
    }
    if play["placements"]:
        body["place"] = play["placements"][0]
    return server.post("/api/play", body)


def yardmaster_turn(server, doc: dict, rng: random.Random) -> dict:
    """The first card of the hand that joins, the first way it joins."""
    card, way = next(
        (e["card"], w["way"]) for e in server.hand()["hand"] for w in e["ways"] if w["legal"]
    )
    body = {"seat": doc["to_move"], "card": card, "turn": doc["turn"]}
    if way != "printed":
        body[way] = True
    return server.post("/api/add", body)


@pytest.mark.parametrize(
    ("body", "turn"),
    [
        ({"game": "caboose", "edition": "loose-caboose", "seed": "s1"}, caboose_turn),
        (
            {"game": "yardmaster-express", "edition": "yardmaster-express", "seed": 5},
            yardmaster_turn,
        ),
    ],
    ids=["loose-caboose", "yardmaster-express"],
)
def test_the_biggest_tables_fit_the_screen_to_the_end(browser, server, body, turn):
    """As many players as the game takes (four at Loose Caboose, five at Yardmaster Express),
    a whole game: every few turns and at the end the smaller screen still shows everything
    whole, large enough, without scrolling."""
    names = ["Ana", "Benedetta", "Cleo", "Dmitri", "Eva"][: 4 if body["game"] == "caboose" else 5]
    doc = server.post("/api/game", body | {"names": names})
    page, errors = shared.open_page(browser, f"{server.url}/?view=table", 1280, 720)
    rng = random.Random(3)
    turns = 0
    while not (doc.get("over") or doc.get("ended")):
        doc = turn(server, doc, rng)
        turns += 1
        if turns % 6 == 0:
            drawn(page, doc)
            fits(page)
    drawn(page, doc)
    shared.shot(page, f"kiosk-biggest-{body['game']}-720p")
    fits(page)
    assert errors == []


def test_a_game_of_another_kind_started_keeps_the_screen_a_kiosk(browser, server):
    """The screen waits on the default game's page; a Yardmaster Express game is started on
    a phone: the page brings that game's (a reload) and is still the screen beside the
    table, drawing it."""
    page, errors = shared.open_page(browser, f"{server.url}/?view=table", 1280, 720)
    page.wait_for_selector("#kiosk-idle:not([hidden])")
    body = {"game": "yardmaster-express", "edition": "yardmaster-express", "seed": 4}
    doc = server.post("/api/game", body | {"names": ["Ana", "Ben"]})
    page.wait_for_selector("#ym-trains .ym-player", timeout=5000)
    assert page.url.endswith("/?view=table")
    assert page.locator("#ym-to-move").inner_text() == f"{doc['players'][0]['name']} to move"
    fits(page)
    assert errors == []
