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
