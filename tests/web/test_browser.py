"""End to end in a real headless Chromium: a short game played by clicking, checked against
the API, with a second page that must follow by itself. Screenshots of each main view go to
tests/artifacts/ (ignored by git).

Debian's chromium must be installed (`apt-get install -y chromium`); these tests fail, not
skip, without it, so a CI that forgot it does not pass silently.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion.games.caboose.commands import Press
from companion.games.caboose.follow import ASKING, CONFIRM, STAGED
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.tracker import CABOOSE_MOVED
from companion.games.caboose.vision.problems import Problem
from companion.games.caboose.words import session_words
from companion.games.protocol import Setting
from companion.store import Store
from companion.table import Table
from tests.caboose.test_follow import event, lay, roll, see, start
from tests.playing import act, match, new_game
from web.app import Settings, create_app

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PIN = "4321"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Server:
    """The app on a free port of localhost, in a thread, with plain HTTP helpers; a table
    a camera follows shows the turn at the table, as `companion run` serves it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        app = create_app(self.table, PIN, Settings(heartbeat=1.0, stream_seconds=60.0))
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/state") as answer:
            return json.load(answer)

    def hand(self, lang: str = "en") -> dict:
        """The mover's hidden hand, as the PIN holder's phone asks for it."""
        request = urllib.request.Request(
            f"{self.url}/api/hand?lang={lang}", headers={"X-Table-Pin": PIN}
        )
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Table-Pin": PIN},
        )
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def close(self) -> None:
        self.httpd.shutdown()
        self.thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) "
            "to run the browser tests",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    server = Server(Table(Store(tmp_path / "table.sqlite3")))
    yield server
    server.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_page(browser, url: str, width: int = 1920, height: int = 1080, lang: str = "en-GB"):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, errors


def watch_record(page, path) -> None:
    """Import the record at `path` from the setup's second section and watch it; returns
    once the watch bar shows."""
    page.click("#setup details:nth-of-type(2) summary")
    page.set_input_files("#record-file", str(path))
    page.click("#import-watch")
    page.wait_for_selector("#watch:not([hidden])")


def enter_pin(page) -> None:
    page.fill("#pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#pin-state:has-text('PIN accepted')")


def reveal_hand(page) -> None:
    """The mover taps to see their hand on their phone (the PIN given first if the phone
    has none); returns once it shows."""
    if not page.evaluate("() => pin"):
        page.fill("#pin", PIN)
        page.click("#pin-form button")
        page.wait_for_function("() => pin && localStorage.getItem('caboose-pin')")
    page.click("#hand-reveal")
    page.wait_for_selector("#hand-hide")


def test_a_short_game_by_clicking(browser, server):
    page, errors = open_page(browser, server.url)
    page.wait_for_selector("#start-form")
    enter_pin(page)

    # Start a game from the form: Rollecate, two players, a seed with a risky play.
    page.select_option("#edition", "rollecate")
    page.fill("#names", "Ana\nBen")
    page.fill("#seed", "e2e")
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#railway-svg")
    state = server.state()
    assert page.locator("#railway-svg g.rw").count() == len(state["railway"]["cards"]) == 4
    assert page.locator("#caboose").count() == 1
    assert page.locator("#label-back").text_content() == "back"
    assert page.locator("#label-front").text_content() == "front"
    assert page.locator("#railway-svg .direction").count() == 3
    assert "Ana to move" in page.locator("#to-move").inner_text()
    assert f"{state['draw']} cards left to draw" in page.locator("#draw-left").inner_text()

    # A second phone opens the page: it must follow the game by itself.
    watcher, watcher_errors = open_page(browser, server.url, 390, 844)
    watcher.wait_for_selector("#railway-svg")
    shot(page, "1-start-1080p")

    # Before the first turn the log says that none is played yet, rather than nothing.
    assert page.locator("#log-empty").inner_text() == "No turn played yet."
    assert page.locator("#log li").count() == 0
    # Every pile is empty at the start: each says so, not a label over nothing.
    assert page.locator("#piles .pile").all_inner_texts() == ["no penalty cards"] * 2

    # The hand is hidden until the mover taps to see it, on their phone alone.
    assert page.locator("#hand .card").count() == 0
    hand = server.hand()
    page.click("#hand-reveal")
    page.wait_for_selector("#hand .card")
    assert [c.get_attribute("data-code") for c in page.locator("#hand .card").all()] == [
        c["code"] for c in hand["hand"]
    ]
    assert watcher.locator("#hand .card, [data-play]").count() == 0

    # Look at the riskiest play, two 3s: 6 dice; the page shows the engine's exact odds.
    risky = next(p for p in hand["plays"] if p["cards"] == ["3/c", "3/c"])
    # Each play's number says what it is: the chance to derail.
    pct = f"{risky['p_derail']['percent']:g}%"
    assert page.locator("[data-play='3/c,3/c']").inner_text().endswith(f"{pct} chance to derail")
    page.click("[data-play='3/c,3/c']")
    page.wait_for_selector(".odds")
    # The dice change on a tap: the page says so.
    assert page.locator("#move .hint").inner_text() == "Tap a die until it shows the wheels rolled."
    assert page.locator(".dice-count").inner_text() == "Roll 6 dice"
    assert page.locator(".p-derail").inner_text() == f"{risky['p_derail']['percent']:g}%"
    assert str(risky["expected_penalty"]) in page.locator(".expected").inner_text()
    assert page.locator(".chart .bar").count() == len(risky["penalties"])
    assert page.locator("#railway-svg .ghost").count() == len(risky["placements"]) > 0
    # Staged: the other phone shows the same computed move.
    watcher.wait_for_selector("#move .odds")
    shot(page, "2-computed-move")

    # Six wheels with fewer cards of room: it derails, and penalty cards come from the back.
    page.wait_for_selector("[data-die='5']")
    assert [page.locator(f"[data-die='{i}']").inner_text() for i in range(6)] == ["1"] * 6
    page.click("#roll-done")
    page.wait_for_selector("#last #derail.derailed")
    assert page.locator("#log-empty").is_hidden()
    # The move made, the hand is hidden again: Ben's turn starts hidden on every phone.
    page.wait_for_selector("#hand-reveal")
    assert page.locator("#hand .card, [data-play]").count() == 0
    last = server.state()["last"]
    short = 6 - risky["steps_to_front"]
    assert last["derailed"] == short and len(last["took"]) == short
    assert page.locator("#derail").inner_text() == f"Derailed: {short} short"
    assert page.locator("#last .took").count() == short
    assert page.locator("#last .cancelled").count() == len(last["cancelled"])
    assert page.locator("#order .card").count() == len(last["order"])
    assert page.locator("#order-options button").count() == len(last["order_options"]) > 1
    for player in server.state()["players"]:
        seat = f"#piles [data-seat='{player['seat']}']"
        assert page.locator(f"{seat} .score").inner_text() == f"score {player['score']}"
        assert page.locator(f"{seat} .pile .card").count() == len(player["pile"])
    shot(page, "3-after-the-dice")

    # The watcher followed without a reload.
    first_line = server.state()["log"][0]["text"]
    watcher.wait_for_function(
        "text => document.querySelector('#log li').textContent === text", arg=first_line
    )
    shot(watcher, "4-second-phone")

    # Another discard order, chosen among the ones the page lists.
    other = page.locator("#order-options button:not(.chosen)").first
    wanted = other.get_attribute("data-order")
    option = next(o for o in last["order_options"] if ",".join(o["order"]) == wanted)
    other.click()
    page.wait_for_selector(f"#order-options button.chosen[data-order='{wanted}']")
    assert server.state()["players"][0]["pile"] == option["pile"]

    # Ben passes, then it is undone; the roll before it stays.
    turns = "() => document.querySelectorAll('#log li:not(.correction)').length"
    page.click("#pass")
    watcher.wait_for_function(f"{turns} === 2")
    page.click("#undo")
    watcher.wait_for_function(f"{turns} === 1")
    assert server.state()["turn"] == 1
    # the page that undid redraws from the table's answer: waited for, not raced
    page.wait_for_selector("#undo:disabled")
    assert page.locator("#undo").is_disabled()

    # Correct the roll, with the confirmation the log keeps.
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#correct summary")
    page.click("[data-fix='0']")  # 1 -> 0 wheels on the first die
    # Meanwhile another discard order is chosen (another phone could): the last turn is
    # drawn again, and the correction being made stays open with the die as tapped.
    again = page.locator("#order-options button:not(.chosen)").first
    again_order = again.get_attribute("data-order")
    again.click()
    page.wait_for_selector(f"#order-options button.chosen[data-order='{again_order}']")
    assert page.locator("#correct").get_attribute("open") is not None
    assert page.locator("[data-fix='0']").inner_text() == "0"
    page.click("#correct-send")
    page.wait_for_selector("#log li.correction:has-text('roll corrected')")
    assert server.state()["last"]["roll"] == [0, 1, 1, 1, 1, 1]

    # Finish the game through the API: the page shows the ranking and its tie-break.
    doc = server.state()
    while not doc["over"]:
        doc = server.post("/api/pass", {"seat": doc["to_move"]})
    page.wait_for_selector("#ranking:not([hidden]) #winners")
    winners = " & ".join(doc["ranking"]["winners"])
    assert winners in page.locator("#winners").inner_text()
    watcher.wait_for_selector("#ranking:not([hidden]) #winners")
    shot(page, "5-ranking")
    assert errors == [] and watcher_errors == []


def _three_passes_recorded(server, path) -> None:
    """A Loose Caboose game of three passes, its record exported to `path`."""
    server.post("/api/game", {"edition": "loose-caboose", "names": ["Ana", "Ben"], "seed": 2})
    for _ in range(3):
        server.post("/api/pass", {"seat": server.state()["to_move"]})
    with urllib.request.urlopen(f"{server.url}/api/export") as answer:
        path.write_bytes(answer.read())


def test_taps_quicker_than_the_answers_each_step_a_record_on(browser, server, tmp_path):
    # a Pi under load answers slowly: three taps on "next" before any answer reach turn 3
    _three_passes_recorded(server, tmp_path / "game.json")
    page, errors = open_page(browser, server.url, 390, 844)
    page.wait_for_selector("#railway-svg")
    watch_record(page, tmp_path / "game.json")
    assert page.locator("#watch-turn").inner_text() == "turn 0 of 3"
    held = []
    page.route("**/api/replay*", lambda route: held.append(route))
    for _ in range(3):
        page.click("#watch-next")
    page.wait_for_function("() => true")  # lets the held requests reach the handler
    assert len(held) == 3
    for route in reversed(held):  # the answers in any order: only the newest is drawn
        route.continue_()
    page.wait_for_function(
        "() => document.querySelector('#watch-turn').textContent === 'turn 3 of 3'"
    )
    page.unroute("**/api/replay*")
    page.click("#watch-prev")
    page.wait_for_function(
        "() => document.querySelector('#watch-turn').textContent === 'turn 2 of 3'"
    )
    assert errors == []


def test_spanish_phone_and_watching_a_record(browser, server, tmp_path):
    _three_passes_recorded(server, tmp_path / "game.json")
    page, errors = open_page(browser, server.url, 390, 844, lang="es-ES")
    page.wait_for_selector("#railway-svg")
    assert page.locator("#log-section h2").inner_text() == "Registro de la partida"
    assert page.locator("#log li").first.inner_text().startswith("turno 3")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways
    shot(page, "6-phone-es")

    # Watch the exported record replayed turn by turn.
    watch_record(page, tmp_path / "game.json")
    assert page.locator("#watch-turn").inner_text() == "turno 0 de 3"
    page.click("#watch-next")
    page.wait_for_function(
        "() => document.querySelector('#watch-turn').textContent === 'turno 1 de 3'"
    )
    assert page.locator("#log li").count() == 1
    shot(page, "7-watching-a-record")
    page.click("#watch-play")  # on its own, turn by turn, to the end
    page.wait_for_function(
        "() => document.querySelector('#watch-turn').textContent === 'turno 3 de 3'",
        timeout=8000,
    )
    page.click("#watch-stop")
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 3")

    # The language switch.
    page.click("#lang")
    page.wait_for_selector("html[lang=en]")
    assert errors == []


def test_a_wrong_pin_and_a_refused_play_are_said_on_the_page(browser, server):
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 3})
    page, _ = open_page(browser, server.url)
    page.wait_for_selector("#railway-svg")
    page.fill("#pin", "0000")
    page.click("#pin-form button")
    page.wait_for_selector("#error:not([hidden])")
    assert "Wrong PIN" in page.locator("#error").inner_text()
    before = server.state()
    page.click("#pass")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('PIN')")
    assert server.state()["turn"] == before["turn"]


def test_the_camera_asks_and_the_page_answers(browser, tmp_path):
    """The turn at the table, as the camera follows it: a card seen unsure is asked about on
    the page, answered by a tap, and every open page follows the session by itself, each in
    its own language; the computed move the table does not show yet is said before
    CONFIRM."""
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    server = Server(table)
    try:
        page, errors = open_page(browser, server.url, 390, 844)  # a phone at the table
        page.wait_for_selector("#session:not([hidden]) #session-message")
        assert page.locator("#session h2").inner_text() == "At the table"
        assert "to move" in page.locator("#session-message").inner_text()
        enter_pin(page)
        watcher, watcher_errors = open_page(browser, server.url)  # a screen beside the table
        spanish, spanish_errors = open_page(browser, server.url, 390, 844, lang="es-ES")
        spanish.wait_for_selector("#session:not([hidden]) #session-message")
        assert spanish.locator("#session h2").inner_text() == "En la mesa"
        assert spanish.locator("#session-message").inner_text() == (
            "le toca a Ana: pon cartas al frente, enseña cartas de caos o pulsa PASS"
        )

        # The camera sees the laid cards but is unsure of them: the page asks, by itself.
        view = lay(table, play, confidence=0.1)
        question = session.question
        assert session.phase == ASKING and question is not None
        page.wait_for_selector("#session-question button[data-answer]")
        # the camera's reading said in words ("4", not its code "4/s")
        prompt = session_words(question.prompt.as_json(), "en")
        assert page.locator("#session-prompt").inner_text() == prompt
        buttons = page.locator("#session-question button[data-answer]")
        assert [buttons.nth(i).get_attribute("data-answer") for i in range(buttons.count())] == [
            *question.options
        ]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        watcher.wait_for_selector("#session-question button[data-answer]")
        spanish.wait_for_selector("#session-prompt:has-text('la cámara lee')")
        assert "¿qué carta es?" in spanish.locator("#session-prompt").inner_text()
        shot(page, "8-camera-asks-phone")

        # Tapped, card by card: the cards are staged and every page says to roll.
        while session.phase == ASKING:
            asked = session.question
            page.click(f"#session-question button[data-answer='{play.cards[asked.card]}']")
            deadline = time.monotonic() + 5
            while session.question == asked:
                assert time.monotonic() < deadline, "the answer did not reach the session"
                time.sleep(0.02)
        assert session.phase == STAGED and match(table).staged.cards == play.cards
        dice = match(table).staged.dice
        for screen in (page, watcher):
            screen.wait_for_selector("#session-roll")
            assert screen.locator("#session-question").count() == 0
            assert f"roll {dice} di" in screen.locator("#session-message").inner_text()
            assert screen.locator("#session-laid .card").count() == len(play.cards)
        shot(watcher, "9-staged-by-the-camera")

        # The dice roll; the caboose is not yet where the computed move puts it.
        rolled = roll(table, view, [0] * dice)
        see(table, event(CABOOSE_MOVED, replace(rolled, caboose=None)))
        watcher.wait_for_selector("#session-mismatch")
        assert "caboose" in watcher.locator("#session-mismatch").inner_text()
        table.handle(Press(CONFIRM))  # too early: refused, and said
        watcher.wait_for_selector("#session.led-error #session-problem")
        problem = watcher.locator("#session-problem").inner_text()
        assert problem.startswith("not yet") and "caboose" in problem
        spanish.wait_for_selector("#session.led-error #session-problem")
        assert spanish.locator("#session-problem").inner_text().startswith("aún no: el furgón")
        shot(watcher, "10-not-yet-as-computed")
        shot(spanish, "10-not-yet-as-computed-es")

        # A problem of the camera's own is listed too.
        see(table, problems=[Problem("caboose_unseen")])
        page.wait_for_selector("#session-camera li:has-text('the caboose is not seen')")
        spanish.wait_for_selector("#session-camera li:has-text('no se ve el furgón')")
        assert errors == [] and watcher_errors == [] and spanish_errors == []
    finally:
        server.close()


def test_a_real_tables_hands_are_typed_on_the_page_at_the_end(browser, tmp_path):
    """A provisional deal (a real table) shows no guessed hand; at the end the page asks
    for each hand, and what is typed is what counts."""
    table = Table(Store(tmp_path / "table.sqlite3"), Setting(provisional=True))
    new_game(table, "rollecate", ["Ana", "Ben"], seed=2)
    server = Server(table)
    try:
        page, errors = open_page(browser, server.url, 390, 844)
        page.wait_for_selector("#move:not([hidden])")
        assert page.locator("#move .card").count() == 0  # no guessed hand, no guessed plays
        enter_pin(page)
        while not match(table).snap.state.over:
            act(table, match(table).snap.state.to_move, Pass())
        page.wait_for_selector("#show-form")
        assert "Ana" in page.locator("#show-form label").inner_text()
        ana = match(table).snap.state.seats[0].hand
        page.fill("#show-cards", " ".join(ana))
        page.click("#show-form button")
        page.wait_for_function(
            "() => document.querySelector('#show-form label').textContent.includes('Ben')"
        )
        shot(page, "11-hands-typed-at-the-end")
        assert match(table).snap.shown == {0: tuple(ana)}
        assert errors == []
    finally:
        server.close()
