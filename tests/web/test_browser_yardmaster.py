"""Yardmaster Express's page in a real headless Chromium (see tests/web/test_browser.py),
through the real app: a game started, every card added by tapping one of the ways the hand
offers, the scores with their parts and the longest run marked as the table has them, a
card that does not join refused and said (Y-5), a card taken back, the end and what decided
it (Y-10), the strategic variant's second game and totals (Y-11), a real table's cards not
yet seen, Spanish, and a phone 360 px wide with no sideways scroll. A page showing another
game reloads itself when a game of Yardmaster Express is started. Screenshots go to
tests/artifacts/.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from companion.games.protocol import Setting
from companion.games.yardmaster.commands import Press, Seen
from companion.games.yardmaster.follow import TrainSeen
from companion.store import Store
from companion.table import Table
from tests.web import test_browser as shared
from tests.words_checks import codes_in

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

GAME = {"game": "yardmaster-express", "edition": "yardmaster-express"}
SCROLL_WIDTH = "() => document.documentElement.scrollWidth"


def start(server, names: list[str], seed: int, variant: str | None = None) -> dict:
    body = GAME | {"names": names, "seed": seed}
    if variant:
        body["variant"] = variant
    return server.post("/api/game", body)


def first_way(held: dict, legal: bool = True, face_up: bool = True) -> tuple[str, str] | None:
    """A way of the mover's hand (`GET /api/hand`): (card, way), legal or not, face up if
    asked."""
    for entry in held["hand"]:
        for way in entry["ways"]:
            if way["legal"] == legal and (way["way"] != "face_down") == face_up:
                return entry["card"], way["way"]
    return None


def body_of(doc: dict, card: str, way: str) -> dict:
    body = {"seat": doc["to_move"], "card": card, "turn": doc["turn"]}
    if way != "printed":
        body[way] = True
    return body


def tap(page, card: str, way: str) -> None:
    """The mover taps a way of a card, showing their hand first (it hides after each card)."""
    if page.locator("#hand-reveal").count():
        page.click("#hand-reveal")
    page.click(f"#ym-move button[data-card='{card}'][data-way='{way}']")


def wait_turn(page, turn: int) -> None:
    """Until the page draws the view after `turn` cards (the log has that many lines)."""
    page.wait_for_function(
        "n => document.querySelectorAll('#log li:not(.correction)').length >= n", arg=turn
    )


def page_scores(page) -> list[str]:
    return page.locator("#ym-trains .ym-player .score").all_inner_texts()


def test_a_whole_game_by_tapping_on_a_phone(browser, server):
    """Three players, six rounds (Y-7): every card added by a tap on the phone; after each,
    the scores, their parts and the marked runs are the table's; at the end the ranking
    and what decided it."""
    doc = start(server, ["Ana", "Ben", "Cleo"], seed=4, variant="caboose")
    page, errors = shared.open_page(browser, server.url, 360, 740)
    shared.reveal_hand(page)
    assert page.locator("#ym-to-move").inner_text() == f"{doc['players'][0]['name']} to move"
    assert page.locator("#ym-round").inner_text() == (
        "Round 1 of 6 · 5 more rounds after this one · 29 cards left to draw"
    )
    assert doc["caboose"]["condition"] in page.locator("#ym-caboose-condition").inner_text()
    shared.shot(page, "ym-1-phone-start")
    while not doc["ended"]:
        card, way = first_way(server.hand()) or first_way(server.hand(), face_up=False)
        tap(page, card, way)
        wait_turn(page, doc["turn"] + 1)
        doc = server.state()
        assert page_scores(page) == [f"{p['score']} points" for p in doc["players"]]
        for player in doc["players"]:
            seat = f"#ym-trains [data-seat='{player['seat']}']"
            assert page.locator(f"{seat} .ym-card").count() == len(player["train"])
            marked = sum(r["run"] for c in player["train"] for r in c.get("railcars", []))
            assert page.locator(f"{seat} .rc.run").count() == marked
            parts = page.locator(f"{seat} .ym-parts").inner_text()
            assert f"train {player['train_value']}" in parts
            assert f"longest run {player['longest_run']}" in parts
            assert ("caboose +" in parts) == bool(player["caboose_met"])
        assert page.evaluate(SCROLL_WIDTH) <= 360  # a long train wraps in its own box
        if doc["turn"] == 9:
            shared.shot(page, "ym-2-phone-mid-game")
    ranking = doc["ranking"]
    page.wait_for_selector("#ym-ranking:not([hidden]) #ym-winner")
    # The last card may still be taken back: its button alone, outside the ranking.
    assert page.locator("#ym-ranking button").count() == 0
    assert page.locator("#ym-move button").all_inner_texts() == ["Take back the last card"]
    assert page.locator("#ym-winner").inner_text().startswith(f"{ranking['winners'][0]} wins")
    assert page.locator("#ym-decided").inner_text() == ranking["said"]
    rows = page.locator("#ym-ranking-table tr").all_inner_texts()
    assert [row.split("\t")[1] for row in rows] == [r["name"] for r in ranking["rows"]]
    assert page.locator("#ym-to-move").inner_text() == "Game over"
    assert page.locator("#log li").first.inner_text().startswith("game over, won by")
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "ym-3-phone-ranking")
    assert errors == []


def test_a_card_that_does_not_join_is_refused_and_said_in_spanish(browser, server):
    """A greyed way, tapped: the table refuses it (Y-5), the toast says why in Spanish, and
    nothing changes; the greyed way says why under the card before it is tapped."""
    doc = start(server, ["Ana", "Ben"], seed=1)
    while first_way(server.hand(), legal=False) is None:  # play until a way does not join
        card, way = first_way(server.hand())
        doc = server.post("/api/add", body_of(doc, card, way))
    card, way = first_way(server.hand(), legal=False)
    page, errors = shared.open_page(browser, server.url, 360, 740, lang="es-ES")
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#pin-state:has-text('PIN aceptado')")
    page.click("#hand-reveal")
    page.wait_for_selector("#ym-move button.greyed")
    assert page.locator("#ym-trains-section h2").inner_text() == "Trenes"
    button = page.locator(f"#ym-move button.greyed[data-card='{card}'][data-way='{way}']")
    described = button.get_attribute("aria-describedby")  # a screen reader says why too
    why = next(w["why"] for e in server.hand("es")["hand"] if e["card"] == card for w in e["ways"]
               if w["way"] == way)  # fmt: skip
    assert why.startswith("no encaja")
    assert page.locator(f"#{described}").inner_text().endswith(why)
    tap(page, card, way)
    page.wait_for_selector("#error:not([hidden])")
    laid = next(w for e in server.hand("es")["hand"] if e["card"] == card for w in e["ways"]
                if w["way"] == way)  # fmt: skip
    said = " · ".join(f"{r['name']} {r['value']}" for r in laid["railcars"])
    toast = page.locator("#error").inner_text()
    # the card in words as the buttons say it ("azul 1 · verde 4"), no code, no rule id
    assert toast.startswith(f"{said} no encaja con ") and not codes_in(toast)
    assert "gírala, ponla boca abajo o pon otra carta" in toast
    assert server.state()["turn"] == doc["turn"]
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "ym-4-phone-es-refused")
    assert errors == []


def said(hand: dict, card: str) -> str:
    """A card of the hand (`GET /api/hand`) as the page says it ("blue 1 · green 4")."""
    return next(entry["said"] for entry in hand["hand"] if entry["card"] == card)


def test_the_last_card_is_taken_back_and_the_log_says_so(browser, server):
    start(server, ["Ana", "Ben"], seed=2)
    page, errors = shared.open_page(browser, server.url, 1280, 900)
    shared.reveal_hand(page)
    assert page.locator("#ym-undo").is_disabled()
    hand = server.hand()
    card, way = first_way(hand)
    tap(page, card, way)
    wait_turn(page, 1)
    assert page.locator("#ym-trains [data-seat='0'] .ym-card").count() == 2
    assert page.locator("#ym-trains [data-seat='0'] .ym-card.newest").count() == 1
    page.click("#ym-undo")
    page.wait_for_selector("#log li.correction")
    assert server.state()["turn"] == 0
    assert page.locator("#log li.correction").inner_text() == (
        f"correction: turn 1 taken back: Ana's {said(hand, card)}"
    )
    assert page.locator("#ym-trains [data-seat='0'] .ym-card").count() == 1
    assert page.locator("#ym-undo").is_disabled()
    assert errors == []


def test_the_strategic_variant_deals_the_second_game_and_adds_up_the_totals(browser, server):
    """Y-11: the first game ends; the page names who starts the second (the lowest score)
    and a tap deals it; the totals are each game's points added up, and the final ranking
    is by the totals."""
    doc = start(server, ["Ana", "Ben", "Cleo"], seed=6, variant="strategic")
    while not doc["ended"]:
        card, way = first_way(server.hand()) or first_way(server.hand(), face_up=False)
        doc = server.post("/api/add", body_of(doc, card, way))
    first = {p["name"]: p["score"] for p in doc["players"]}
    page, errors = shared.open_page(browser, server.url, 360, 740)
    shared.enter_pin(page)
    page.wait_for_selector("#ym-strategic:not([hidden]) #ym-next")
    starts = doc["strategic"]["second_starts"]
    assert starts == min(doc["players"], key=lambda p: (p["score"], p["seat"]))["name"]
    assert (
        page.locator("#ym-second-due")
        .inner_text()
        .startswith(f"The first game is over: {starts} starts the second")
    )
    assert page.locator("#ym-winner").count() == 0  # the first game alone wins nothing
    shared.shot(page, "ym-5-phone-strategic-first-over")
    page.click("#ym-next")
    page.wait_for_selector("#ym-strategic h2:has-text('game 2 of 2')")
    doc = server.state()
    assert doc["players"][0]["name"] == starts and doc["turn"] == 0
    while not doc["ended"]:
        card, way = first_way(server.hand()) or first_way(server.hand(), face_up=False)
        doc = server.post("/api/add", body_of(doc, card, way))
    page.wait_for_selector("#ym-ranking:not([hidden]) #ym-winner")
    totals = page.locator("#ym-totals tr").all_inner_texts()[1:]
    for row, total in zip(totals, doc["strategic"]["totals"], strict=True):
        name, one, two, both = row.split("\t")
        assert (name, int(one), int(two)) == (total["name"], first[total["name"]], total["second"])
        assert int(both) == int(one) + int(two) == total["total"]
    best = max(t["total"] for t in doc["strategic"]["totals"])
    assert doc["ranking"]["rows"][0]["score"] == best
    assert page.locator("#ym-winner").inner_text().startswith(doc["ranking"]["winners"][0])
    shared.shot(page, "ym-6-phone-strategic-totals")
    assert page.evaluate(SCROLL_WIDTH) <= 360
    assert errors == []


def test_a_page_of_another_game_reloads_to_the_game_started(browser, server):
    """Another phone starts a game of the other kind: the open page brings in that game's
    script and markup by itself, both ways."""
    server.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 0})
    page, errors = shared.open_page(browser, server.url, 1280, 900)
    page.wait_for_selector("#railway-svg")
    assert page.evaluate("() => document.body.dataset.game") == "caboose"
    start(server, ["Ana", "Ben"], seed=3)
    page.wait_for_selector("#ym-trains .ym-player", timeout=10000)
    assert page.evaluate("() => document.body.dataset.game") == "yardmaster-express"
    assert page.locator("#ym-trains .ym-player").count() == 2
    server.post("/api/game", {"edition": "rollecate", "names": ["Cleo", "Dan"], "seed": 1})
    page.wait_for_selector("#railway-svg", timeout=10000)
    assert page.evaluate("() => document.body.dataset.game") == "caboose"
    assert "Cleo" in page.locator("#status").inner_text()
    assert errors == []


@pytest.fixture
def real_table(tmp_path) -> Iterator[shared.Server]:
    """A table whose deck is shuffled by hand (a provisional deal): the hand is not known."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(provisional=True)))
    yield server
    server.close()


def test_a_real_tables_card_is_chosen_among_those_not_seen_yet(browser, real_table):
    doc = start(real_table, ["Ana", "Ben"], seed=5)
    assert "hand" not in doc and doc["choices"]
    page, errors = shared.open_page(browser, real_table.url, 360, 740)
    shared.enter_pin(page)
    page.wait_for_selector("#ym-move button[data-way]")
    assert page.locator("#ym-move h2").inner_text() == "Which card did Ana add? Tap the way it lies"
    offered = page.locator("#ym-move [data-entry]").count()
    assert offered == len(doc["choices"]) == 24 + 1  # two players: no purple (Y-1)
    page.click("#ym-move button[data-card='R3-B2'][data-way='printed']")
    wait_turn(page, 1)
    assert page.locator("#ym-move [data-entry='R3-B2']").count() == 0  # seen: not offered
    page.click("#ym-move [data-entry=''] button[data-way='face_down']")  # Ben: unseen card
    wait_turn(page, 2)
    ben = real_table.state()["players"][1]["train"]
    assert [c["kind"] for c in ben] == ["engine", "face_down"]
    assert page.locator("#ym-trains [data-seat='1'] .ym-card.face_down").count() == 1
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "ym-7-phone-real-table")
    assert errors == []


def test_the_camera_follows_the_table_and_the_page_says_what_it_sees(browser, tmp_path):
    """A table a camera follows (a real table's deck): the page says whose card the camera
    waits for, the card it took and that CONFIRM acknowledges it, and a card that breaks a
    rule as the problem to fix, in the page's language."""
    engines = {"Ana": (200.0, 560.0), "Ben": (90.0, 200.0)}

    def see(**laid: tuple[str, ...]) -> None:
        trains = tuple(TrainSeen(engines[name], laid.get(name, ())) for name in engines)
        server.table.handle(Seen(trains))

    setting = Setting(provisional=True, camera=object())
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), setting))
    try:
        start(server, ["Ana", "Ben"], seed=5)
        see()
        page, errors = shared.open_page(browser, server.url, 360, 740)
        spanish, spanish_errors = shared.open_page(browser, server.url, 360, 740, lang="es-ES")
        page.wait_for_selector("#session:not([hidden]) #session-message")
        assert page.locator("#session h2").inner_text() == "At the table"
        assert page.locator("#session-message").inner_text() == "Ana: add your card to your train"
        # The camera takes the cards: the ones to tap instead are folded away until opened.
        assert page.locator("#ym-choices:not([open])").count() == 1
        assert page.locator("#ym-choices button[data-way]").first.is_hidden()
        page.click("#ym-choices summary")
        page.wait_for_selector("#ym-choices[open]")
        see(Ana=("R3-B2",))
        page.wait_for_selector("#session.led-needs-confirmation #session-taken")
        assert page.locator("#ym-choices[open]").count() == 1  # still open after the update
        assert page.locator("#session-taken").inner_text() == (
            "The camera took Ana's red 3 · blue 2: press CONFIRM"
        )
        assert page.locator("#ym-trains [data-seat='0'] .ym-card").count() == 2
        server.table.handle(Press("confirm"))
        page.wait_for_selector("#session:not(.led-needs-confirmation)")
        assert page.locator("#session-message").inner_text() == "Ben: add your card to your train"
        see(Ana=("R3-B2",), Ben=("G2-G3",))
        see(Ana=("R3-B2", "Y1-Y1"), Ben=("G2-G3",))  # Ana's card does not join B2 (Y-5)
        page.wait_for_selector("#session.led-error #session-message.problem")
        problem = server.state()["session"]["problem"]
        assert problem["key"] == "no_join"
        assert page.locator("#session-message").inner_text() == problem["said"]
        assert problem["said"].startswith("yellow 1 · yellow 1 does not join red 3 · blue 2")
        spanish.wait_for_selector("#session.led-error #session-message.problem")
        assert (
            spanish.locator("#session-message")
            .inner_text()
            .startswith("amarillo 1 · amarillo 1 no encaja con rojo 3 · azul 2")
        )
        assert page.evaluate(SCROLL_WIDTH) <= 360
        shared.shot(page, "ym-8-phone-camera-problem")
        assert errors == [] and spanish_errors == []
    finally:
        server.close()


def test_a_record_is_watched_card_by_card_with_nothing_to_tap(browser, server, tmp_path):
    doc = start(server, ["Ana", "Ben"], seed=7)
    for _ in range(4):
        card, way = first_way(server.hand())
        doc = server.post("/api/add", body_of(doc, card, way))
    with urllib.request.urlopen(f"{server.url}/api/export") as answer:
        (tmp_path / "game.json").write_bytes(answer.read())
    page, errors = shared.open_page(browser, server.url, 360, 740)
    page.wait_for_selector("#ym-move #hand-reveal")
    shared.watch_record(page, tmp_path / "game.json")
    assert page.locator("#watch-turn").inner_text() == "turn 0 of 4"
    assert page.locator("#ym-trains .ym-card").count() == 2  # two engines
    assert page.locator("#ym-move").is_hidden()  # a record watched offers nothing to tap
    page.click("#watch-next")
    page.wait_for_function("() => document.querySelectorAll('#ym-trains .ym-card').length === 3")
    first = doc["players"][0]["train"][1]["code"]
    assert page.locator("#ym-trains [data-seat='0'] .ym-card").nth(1).get_attribute(
        "data-code"
    ) == first  # fmt: skip
    assert page.locator("#ym-move").is_hidden() and page.locator("#ym-undo").count() == 0
    page.click("#watch-stop")
    page.wait_for_selector("#ym-move #hand-reveal")
    assert page.locator("#ym-trains .ym-card").count() == 6
    assert errors == []
