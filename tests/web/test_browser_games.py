"""Two games at one table, in a real headless Chromium: the page follows the game being
played whichever page was open (a Yardmaster page becomes the Caboose page when a Caboose
game is started from another phone), the start form opens on the page's own game, and a
record of another game than the page's is refused in words rather than drawn by the wrong
script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.yardmaster import edition, simulate
from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared
from web.words import SHELL

pytestmark = pytest.mark.browser

browser = shared.browser
server = shared.server

YARDMASTER = {"game": "yardmaster-express", "edition": "yardmaster-express"}


def test_a_yardmaster_page_becomes_the_caboose_page_when_caboose_is_started(browser, server):
    server.post("/api/game", YARDMASTER | {"names": ["Ana", "Ben"], "seed": 1})
    page, errors = shared.open_page(browser, server.url, 390, 800)
    page.wait_for_selector("#ym-trains")
    assert page.evaluate("() => document.body.dataset.game") == "yardmaster-express"
    assert page.input_value("#game") == "yardmaster-express"  # the form opens on this game
    server.post("/api/game", {"game": "caboose", "edition": "rollecate", "names": ["Ana", "Ben"]})
    page.wait_for_function("() => document.body.dataset.game === 'caboose'")
    page.wait_for_selector("#railway svg, #railway .card", state="attached")
    assert page.input_value("#game") == "caboose"
    assert errors == []


def test_a_record_of_another_game_is_refused_in_words(browser, server, tmp_path: Path):
    played = simulate.play(edition.load(), ["run", "value"], 3)[0]
    path = tmp_path / "yardmaster.json"
    path.write_text(json.dumps(played.doc))
    page, errors = shared.open_page(browser, server.url, 1280, 900, lang="es-ES")
    page.wait_for_selector("#start-form")
    assert page.evaluate("() => document.body.dataset.game") == "caboose"  # no game: the default's
    page.click("#setup details:nth-of-type(2) summary")
    page.set_input_files("#record-file", str(path))
    page.click("#import-watch")
    toast = page.wait_for_selector("#error:not([hidden])")
    assert toast.inner_text().strip() == SHELL["es"]["watch_other_game"]
    assert page.is_hidden("#watch")
    assert errors == []


# Every control a finger taps: links, buttons, drop-downs, fields and the folds' summaries.
CONTROLS = """() => [...document.querySelectorAll(
    "a[href], button, select, input:not([type=hidden]), textarea, summary")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => { const r = el.getBoundingClientRect();
    return { what: el.id || el.textContent.trim().slice(0, 30) || el.tagName,
      width: Math.round(r.width), height: Math.round(r.height) }; })"""
TAP = 44  # px: the smallest a control may be under a finger (WCAG 2.5.5, Apple's HIG)


@pytest.mark.parametrize("lang", ["en-GB", "es-ES"])
@pytest.mark.parametrize("game", ["caboose", "yardmaster-express", "switching"])
def test_every_control_on_a_phone_is_big_enough_to_tap(browser, server, game, lang):
    """At 390x844, every visible control (the header's links, the start form's folds and
    drop-downs, the export link, the game's own buttons, the hand shown) is at least 44 px
    high and wide, before and at the end of a game."""
    with shared.urllib.request.urlopen(f"{server.url}/api/games") as answer:
        option = next(g for g in json.load(answer) if g["id"] == game)["options"][0]["id"]
    server.post("/api/game", {"game": game, "edition": option, "names": ["Ana", "Ben"]})
    page, errors = shared.open_page(browser, server.url, 390, 844, lang=lang)
    page.wait_for_selector("#log-section:not([hidden])")
    if page.locator("#hand-reveal").count():
        shared.reveal_hand(page)
    for summary in page.locator("#setup summary").all():
        summary.click()
    too_small(page, f"{game}-{lang}-start")
    if game == "switching":  # its end is played in test_browser_switching.py
        return
    doc = server.state()
    while not doc["over"]:  # everyone passes, or adds the first card that joins
        if game == "caboose":
            doc = server.post("/api/pass", {"seat": doc["to_move"]})
            continue
        card, way = next((e["card"], w["way"]) for e in server.hand()["hand"]
                         for w in e["ways"] if w["legal"])  # fmt: skip
        add = {"seat": doc["to_move"], "card": card, "turn": doc["turn"]}
        doc = server.post("/api/add", add | ({way: True} if way != "printed" else {}))
    page.wait_for_selector("#ranking:not([hidden]), #ym-ranking:not([hidden])")
    too_small(page, f"{game}-{lang}-end")
    assert errors == []


def too_small(page, name: str) -> None:
    small = [c for c in page.evaluate(CONTROLS) if c["width"] < TAP or c["height"] < TAP]
    if small:
        shared.shot(page, f"small-controls-{name}")
    assert small == [], json.dumps(small)


def test_importing_a_record_over_a_game_being_played_asks_first(browser, server, tmp_path):
    """Continuing a record's game ends the one being played: the page asks, as Deal does;
    "no" leaves the game as it was, "yes" goes on with the record's."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps(ROLLECATE_TWO))
    server.post("/api/game", {"game": "caboose", "edition": "loknroll", "names": ["Cleo", "Dan"]})
    page, errors = shared.open_page(browser, server.url, 390, 844)
    shared.reveal_hand(page)  # the PIN given
    before = server.state()
    page.click("#setup details:nth-of-type(2) summary")
    page.set_input_files("#record-file", str(record))
    asked: list[str] = []

    def answer(dialog, yes: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.click("#import-continue")
    page.wait_for_timeout(500)
    assert asked == [SHELL["en"]["import_confirm"]]
    assert server.state()["version"] == before["version"]  # nothing changed
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.click("#import-continue")
    page.wait_for_function("() => view && view.edition.id === 'rollecate'")
    assert len(asked) == 2 and server.state()["edition"]["id"] == "rollecate"
    assert errors == []
