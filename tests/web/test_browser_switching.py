"""The switching-track game's page in a real headless Chromium (see tests/web/test_browser.py),
through the real app: the board drawn as it lies with the trains, a roll typed in by
tapping the dice, every legal move listed with its outcome as the table has it, a move
tapped to see its bump chain drawn on the board and then played, doubles and ending the
turn, a step taken back, a tap the table refuses said in Spanish, a phone 360 px wide with
no sideways scroll. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import urllib.request

import pytest

from companion import games
from companion.games.protocol import Setting
from companion.games.said import Said
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import Seen
from companion.games.switching.follow import BoardSeen
from companion.store import Store
from companion.table import Table
from tests.web import test_browser as shared

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server

GAME = {"game": "switching", "edition": "ours"}
SCROLL_WIDTH = "() => document.documentElement.scrollWidth"


def start(server, names: list[str], variant: str | None = None) -> dict:
    body = GAME | {"names": names, "seed": 1}
    if variant:
        body["variant"] = variant
    return server.post("/api/game", body)


def roll(server, doc: dict, colour: str, white: int, black: int) -> dict:
    return server.post("/api/roll", {"colour": colour, "dice": [white, black], "turn": doc["turn"]})


def play(server, doc: dict, space: str) -> dict:
    return server.post("/api/play", {"from": space, "turn": doc["turn"]})


def blue_ahead_of_red(server) -> dict:
    """Ana's red train enters at D1, Ben's blue at A1 and runs to A3 (a Start counts one,
    S-8); purple stays each time (it is not next to the empty slot, S-6). Ana to roll."""
    doc = start(server, ["Ana", "Ben"])
    doc = play(server, roll(server, doc, "purple", 1, 2), "D1")
    return play(server, roll(server, doc, "purple", 1, 2), "A1")


def tap_roll(page, colour: str, white: int, black: int) -> None:
    page.click(f"#sw-roll-section button[data-colour='{colour}']")
    page.click(f"#sw-roll-section button[data-die='0'][data-pips='{white}']")
    page.click(f"#sw-roll-section button[data-die='1'][data-pips='{black}']")
    page.click("#sw-send-roll")


def wait_turn(page, turn: int) -> None:
    """Until the page draws the view after `turn` steps (the log has that many lines)."""
    page.wait_for_function(
        "n => document.querySelectorAll('#log li:not(.correction)').length >= n", arg=turn
    )


def trains_drawn(page) -> set[tuple[str, str]]:
    found = page.eval_on_selector_all(
        "#sw-board-svg .sw-train", "gs => gs.map(g => [g.dataset.colour, g.dataset.space])"
    )
    return {tuple(pair) for pair in found}


def test_a_roll_tapped_in_every_move_listed_a_chain_seen_then_played_on_a_phone(browser, server):
    doc = blue_ahead_of_red(server)
    page, errors = shared.open_page(browser, server.url, 360, 740)
    shared.enter_pin(page)
    page.wait_for_selector("#sw-send-roll")
    assert page.locator("#sw-to-move").inner_text().endswith("Ana to move")
    assert trains_drawn(page) == {(t["colour"], t["space"]) for t in doc["trains"]}
    assert page.locator("#sw-board-svg .sw-space").count() == len(doc["board"]["spaces"])
    assert page.locator("#sw-send-roll").is_disabled()  # nothing chosen yet
    assert page.evaluate(SCROLL_WIDTH) <= 360  # six pips a die, side by side
    shared.shot(page, "sw-1-phone-roll")
    tap_roll(page, "purple", 3, 4)
    page.wait_for_selector("#sw-move-list li")
    doc = server.state()
    assert doc["roll"] == {"colour": "purple", "dice": [3, 4], "total": 7, "doubles": False,
                           "repair": None}  # fmt: skip
    assert page.locator("#sw-total").inner_text() == "7 spaces"
    assert page.locator("#sw-slide").inner_text() == doc["slide"]
    listed = page.locator("#sw-move-list .sw-move-button").all_inner_texts()
    assert [text.split(maxsplit=1)[1] for text in listed] == [m["text"] for m in doc["moves"]]
    # Red enters at A1 and bumps blue up the track: its chain, drawn and said step by step.
    move = next(m for m in doc["moves"] if m["id"] == "A1")
    assert [step["colour"] for step in move["steps"]] == ["red", "blue"]
    page.click("#sw-move-list li[data-move='A1'] .sw-move-button")
    page.wait_for_selector("#sw-chain")
    assert page.locator("#sw-chain polyline").count() == 2
    assert page.locator("#sw-chain .sw-step-number").all_text_contents() == ["1", "2"]
    steps = page.locator("#sw-steps li").all_inner_texts()
    assert [text.split(maxsplit=1)[1] for text in steps] == [s["text"] for s in move["steps"]]
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "sw-2-phone-chain")
    page.click("#sw-play")
    wait_turn(page, doc["turn"] + 1)
    after = server.state()
    assert after["to_move"] == 1 and after["roll"] is None
    ends = {(step["colour"], step["to"]) for step in move["steps"]}
    assert ends <= trains_drawn(page) == {(t["colour"], t["space"]) for t in after["trains"]}
    # the move played stays drawn on the board, its trains' paths as arrows
    assert page.locator("#sw-chain .sw-step-badge").count() == len(move["steps"])
    assert page.locator("#log li").first.inner_text() == after["log"][0]["text"]
    assert page.locator("#sw-to-move").inner_text().endswith("Ben to move")
    assert errors == []


def test_doubles_end_the_turn_and_a_step_taken_back(browser, server):
    """Doubles (S-16): once moved, the page asks to roll again or end the turn; ending it
    passes the turn on; undo takes the last step back and the log marks it."""
    doc = start(server, ["Ana", "Ben"])
    page, errors = shared.open_page(browser, server.url, 1280, 900)
    shared.enter_pin(page)
    page.wait_for_selector("#sw-send-roll")
    assert page.locator("#sw-undo").is_disabled()
    tap_roll(page, "cyan", 2, 2)
    page.wait_for_selector("#sw-doubles")
    page.click("#sw-move-list li[data-move='D1'] .sw-move-button")
    page.click("#sw-play")
    page.wait_for_selector("#sw-reroll")
    doc = server.state()
    assert doc["phase"] == "reroll" and doc["to_move"] == 0
    assert page.locator("#sw-reroll").inner_text().startswith("Ana may roll again")
    assert page.locator("#sw-send-roll").count() == 1  # the dice may be thrown again
    page.click("#sw-pass")
    page.wait_for_function(
        "() => document.querySelector('#sw-to-move').textContent.endsWith('Ben to move')"
    )
    assert server.state()["phase"] == "roll"
    page.click("#sw-undo")
    page.wait_for_selector("#log li.correction")
    assert server.state()["phase"] == "reroll"
    assert (
        page.locator("#log li.correction").inner_text().startswith("correction: turn 2 taken back")
    )
    assert page.locator("#sw-to-move").inner_text().endswith("Ana to move")
    assert errors == []


def test_a_stale_tap_is_refused_and_said_in_spanish_on_a_phone(browser, server):
    """A phone whose live stream dropped still shows the table before another phone's
    roll: its tap is refused (the table moved on), said in Spanish, and nothing changes;
    a phone online shows that roll's moves in Spanish."""
    doc = blue_ahead_of_red(server)
    page, errors = shared.open_page(browser, server.url, 360, 740, lang="es-ES")
    page.route("**/api/events*", lambda route: route.abort())  # no live updates
    page.reload()
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#pin-state:has-text('PIN aceptado')")
    page.wait_for_selector("#sw-send-roll")
    assert page.locator("#sw-roll-section h2").inner_text() == "Tirada"
    assert page.locator("#sw-to-move").inner_text().endswith("Le toca a Ana")
    rolled = roll(server, doc, "orange", 5, 6)  # another phone, first
    tap_roll(page, "purple", 3, 4)
    page.wait_for_selector("#error:not([hidden])")
    toast = page.locator("#error").inner_text()
    assert toast == f"la mesa ha seguido: ya van {rolled['turn']} pasos; vuelve a mirar la mesa"
    assert server.state()["roll"]["colour"] == "orange"
    online, online_errors = shared.open_page(browser, server.url, 360, 740, lang="es-ES")
    online.wait_for_selector("#sw-move-list li")  # a phone online: the table as it is
    spanish = online.locator("#sw-move-list .sw-move-button").first.inner_text()
    assert "el rojo" in spanish or "el azul" in spanish
    assert online.locator("#sw-slide").inner_text().startswith("El panel naranja")
    assert online.evaluate(SCROLL_WIDTH) <= 360 and online_errors == []
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "sw-3-phone-es-refused")
    assert errors == []


def test_a_repair_tile_slides_the_panel_the_player_chose(browser, server):
    """The bonus level (S-19, S-20): Ana's train runs off the track and she takes a repair
    tile; on her next turn the page offers it for the panels next to the empty slot, and
    the panel tapped slides instead of the colour die's."""
    doc = start(server, ["Ana", "Ben"], variant="repair")
    doc = play(server, roll(server, doc, "purple", 2, 4), "B1")  # B1..B5, then off (S-14)
    assert doc["players"][0]["repair"] == 1
    doc = play(server, roll(server, doc, "purple", 1, 2), "D1")
    page, errors = shared.open_page(browser, server.url, 360, 740)
    shared.enter_pin(page)
    page.wait_for_selector("#sw-repair-options")
    offered = page.eval_on_selector_all(
        "#sw-repair-options button", "bs => bs.map(b => b.dataset.repair)"
    )
    assert offered == doc["repair_options"] == ["cyan", "orange"]
    assert page.locator(".sw-player[data-seat='0'] .sw-repair").inner_text() == "1 repair tile"
    page.click("#sw-repair-options button[data-repair='orange']")
    page.click("#sw-roll-section button[data-die='0'][data-pips='1']")
    page.click("#sw-roll-section button[data-die='1'][data-pips='2']")
    page.click("#sw-send-roll")
    page.wait_for_selector("#sw-repair-played")
    after = server.state()
    assert after["roll"]["repair"] == "orange" and after["roll"]["colour"] is None
    assert page.locator("#sw-repair-played").inner_text() == "repair tile: orange"
    page.wait_for_selector(".sw-player[data-seat='0'] .sw-repair:has-text('0 repair tiles')")
    assert (
        page.locator("#sw-slide")
        .inner_text()
        .startswith(
            "Ana plays a repair tile. The orange panel slides from the bottom left slot into "
            "the bottom right slot."
        )
    )
    slots = page.eval_on_selector_all(
        "#sw-board-svg .sw-panel", "gs => gs.map(g => [g.dataset.panel, g.dataset.slot])"
    )
    assert ["orange", "SE"] in slots
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "sw-4-phone-repair")
    assert errors == []


def test_the_camera_reads_the_dice_and_the_page_says_what_the_table_waits_for(browser, tmp_path):
    """A table a camera follows: the page says whose dice it waits for, what the camera
    cannot see (in Spanish on a Spanish phone), and once it reads a new throw the moves for
    it; typing the roll in is folded away, there for dice it cannot read."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(camera=object())))
    try:
        start(server, ["Ana", "Ben"])
        page, errors = shared.open_page(browser, server.url, 360, 740)
        spanish, spanish_errors = shared.open_page(browser, server.url, 360, 740, lang="es-ES")
        page.wait_for_selector("#session:not([hidden]) #session-message")
        assert page.locator("#session h2").inner_text() == "At the table"
        assert page.locator("#session-message").inner_text() == (
            "Ana: throw the three dice beside the board"
        )
        assert page.locator("#sw-roll-by-hand:not([open])").count() == 1
        assert page.locator("#sw-send-roll").is_hidden()
        unread = Said("dice_unsure", "the dice could not be read", ())
        server.table.handle(Seen(lifted=True, camera=(unread,)))
        page.wait_for_selector("#session.led-error #session-camera li")
        assert page.locator("#session-camera li").inner_text() == (
            "the dice could not be read: are all three beside the board, apart, with no hand "
            "over them?"
        )
        spanish.wait_for_selector("#session-camera li")
        # a hand over the dice hides them as a lamp's reflection does: the family is told
        assert spanish.locator("#session-camera li").inner_text() == (
            "no se han podido leer los dados: ¿están los tres junto al tablero, separados y "
            "sin ninguna mano encima?"
        )
        shared.shot(page, "sw-dice-unread-phone")
        shared.shot(spanish, "sw-dice-unread-phone-es")
        # A train the game does not have: said as the problem to fix, its colour in words.
        board = load_board()
        stray = BoardSeen(board.home, frozenset({("A3", "red", 1)}))
        server.table.handle(Seen(board=stray))
        page.wait_for_selector("#session-message.problem")
        assert page.locator("#session-message").inner_text() == (
            "a red train stands on the bottom Start track, where the game has none"
        )
        spanish.wait_for_selector("#session-message.problem")
        assert spanish.locator("#session-message").inner_text() == (
            "hay un tren rojo en la vía de la Salida de abajo, donde la partida no tiene ninguno"
        )
        server.table.handle(Seen(board=BoardSeen(board.home, frozenset())))
        page.wait_for_selector("#session-message:not(.problem)")
        server.table.handle(Seen(dice=("cyan", (3, 4))))
        page.wait_for_selector("#sw-move-list li")
        doc = server.state()
        assert doc["roll"]["colour"] == "cyan" and doc["session"]["awaiting"] == "move"
        assert page.locator("#session-message").inner_text() == (
            "Ana: slide the panel, then move your train"
        )
        assert page.locator("#sw-move-list li").count() == len(doc["moves"])
        assert page.evaluate(SCROLL_WIDTH) <= 360
        shared.shot(page, "sw-5-phone-camera")
        assert errors == [] and spanish_errors == []
    finally:
        server.close()


def test_a_record_is_watched_turn_by_turn_with_nothing_to_tap(browser, server, tmp_path):
    doc = blue_ahead_of_red(server)
    doc = play(server, roll(server, doc, "purple", 3, 4), "A1")
    with urllib.request.urlopen(f"{server.url}/api/export") as answer:
        (tmp_path / "game.json").write_bytes(answer.read())
    page, errors = shared.open_page(browser, server.url, 360, 740)
    page.wait_for_selector("#sw-send-roll")
    shared.watch_record(page, tmp_path / "game.json")
    assert page.locator("#watch-turn").inner_text() == "turn 0 of 3"
    assert trains_drawn(page) == set()
    assert page.locator("#sw-send-roll").count() == 0  # a record watched: nothing to tap
    assert page.locator("#sw-moves-section").is_hidden()
    assert page.locator("#sw-roll-section").is_hidden()
    for _ in range(3):
        page.click("#watch-next")
    page.wait_for_function(
        "() => document.querySelector('#watch-turn').textContent === 'turn 3 of 3'"
    )
    assert trains_drawn(page) == {(t["colour"], t["space"]) for t in doc["trains"]}
    assert page.locator("#sw-send-roll").count() == 0 and page.locator("#sw-undo").count() == 0
    page.click("#watch-stop")
    page.wait_for_selector("#sw-send-roll")
    assert errors == []


def ana_wins_a_short_game(server) -> dict:
    """The short game (S-21): Ana's two trains run D, purple's curve and E to Finish while
    Ben potters on C. The view at the end."""
    doc = start(server, ["Ana", "Ben"], variant="short")
    for ana in ([(6, 5), "D1"], [(1, 2), "E3"]) * 2:  # enter and run to E3, then home
        (white, black), space = ana
        doc = play(server, roll(server, doc, "purple", white, black), space)
        if not doc["over"]:
            doc = roll(server, doc, "purple", 1, 2)
            doc = play(server, doc, next(m["id"] for m in doc["moves"] if m["id"][0] in "Cc"))
    assert doc["over"] and doc["winner"] == "Ana"
    return doc


def test_at_the_end_the_table_says_game_over_and_no_button_help(browser, tmp_path):
    """A table a camera follows, its game won: "Game over", and no line about CONFIRM and
    PASS under it (nothing is left to move)."""
    server = shared.Server(Table(Store(tmp_path / "table.sqlite3"), Setting(camera=object())))
    try:
        ana_wins_a_short_game(server)
        page, errors = shared.open_page(browser, server.url, 390, 844)
        page.wait_for_selector("#session:not([hidden]) #session-message")
        assert page.locator("#session-message").inner_text() == "Game over"
        assert page.locator("#session-help").count() == 0
        assert "CONFIRM" not in page.locator("#session").inner_text()
        assert errors == []
    finally:
        server.close()


def test_the_winner_and_the_ranking_of_a_short_game(browser, server):
    """The short game (S-21): Ana's two trains run D, purple's curve and E to Finish while
    Ben potters on C; the page names the winner, ranks the players by their depots and
    offers nothing to move, only the last step to take back."""
    ana_wins_a_short_game(server)
    page, errors = shared.open_page(browser, server.url, 360, 740)
    page.wait_for_selector("#sw-ranking:not([hidden]) #sw-winner")
    assert page.locator("#sw-winner").inner_text() == "Ana wins"
    rows = page.locator("#sw-ranking-table tr").all_inner_texts()
    assert [row.split("\t") for row in rows] == [
        ["1", "Ana", "2 trains in the depot"],
        ["2", "Ben", "0 trains in the depot"],
    ]
    assert page.locator("#sw-to-move").inner_text() == "Game over"
    # Nothing to move; the last turn may still be taken back: its button alone, outside
    # the ranking.
    assert page.locator("#sw-ranking button").count() == 0
    assert page.locator("#sw-moves-section button").all_inner_texts() == ["Take the last turn back"]
    assert page.locator("#sw-roll-section").is_hidden()
    said = [line for line in page.locator("#log li").all_inner_texts() if "wins" in line]
    assert said == [page.locator("#log li").first.inner_text()]  # once, the winning move
    assert page.evaluate(SCROLL_WIDTH) <= 360
    shared.shot(page, "sw-6-phone-winner")
    assert errors == []


# The screen boxes of each panel's name, and of every space, dead end and train.
PANEL_NAMES_AND_MARKS = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const svg = document.querySelector("#sw-board-svg");
    return { names: [...svg.querySelectorAll(".sw-panel-name")].map(
            (el) => [el.textContent, box(el)]),
        marks: [...svg.querySelectorAll(".sw-space, .sw-dead-end, .sw-train")].map(box) };
}"""


@pytest.mark.parametrize(("width", "height", "view"), [(390, 844, ""), (1920, 1080, "view=table&")])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_panels_name_lies_clear_of_spaces_and_trains(browser, server, width, height, view, lang):
    """Each panel's name is drawn where no space, dead end or train covers it (or is
    covered by it), on a phone and on the screen beside the table, in both languages, the
    panels as dealt and once trains stand on them."""
    doc = blue_ahead_of_red(server)
    play(server, roll(server, doc, "purple", 1, 2), "D1")
    page, errors = shared.open_page(browser, f"{server.url}/?{view}lang={lang}", width, height)
    page.wait_for_selector("#sw-board-svg .sw-train")
    found = page.evaluate(PANEL_NAMES_AND_MARKS)
    assert len(found["names"]) == 3
    for name, (left, top, right, bottom) in found["names"]:
        covered = [m for m in found["marks"]
                   if m[0] < right and left < m[2] and m[1] < bottom and top < m[3]]  # fmt: skip
        assert covered == [], (name, [left, top, right, bottom], covered)
    assert errors == []


BADGES_AND_TRAINS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const svg = document.getElementById("sw-board-svg");
  const order = [...svg.querySelectorAll("#sw-chain, .sw-train")].map((el) => el.id || "train");
  return { badges: [...svg.querySelectorAll(".sw-step-badge")].map(box),
           trains: [...svg.querySelectorAll(".sw-train")].map(box), order };
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_kiosk_keeps_its_log_and_the_last_moves_arrows_leave_the_trains_clear(
    browser, server, lang
):
    """A long turn (a Spanish move with its bumps) once hid the kiosk's whole log, and the
    last move's arrows and numbers were drawn over the trains' letters: the newest turn
    stays on the screen, cut to fit, and the trains stand over the arrows, their numbers
    clear of them."""
    games.game("switching").sample(server.table, 8, "demo")  # a turn of three bumps
    page, errors = shared.open_page(browser, f"{server.url}/?view=table&lang={lang}", 1920, 1080)
    page.wait_for_selector("#sw-board-svg #sw-chain")
    assert page.locator("#log-section").is_visible()
    assert page.locator("#log li").count() >= 1
    found = page.evaluate(BADGES_AND_TRAINS)
    assert found["order"][0] == "sw-chain" and set(found["order"][1:]) == {"train"}
    for left, top, right, bottom in found["badges"]:
        covered = [t for t in found["trains"]
                   if t[0] < right and left < t[2] and t[1] < bottom and top < t[3]]  # fmt: skip
        assert covered == []
    assert errors == []
