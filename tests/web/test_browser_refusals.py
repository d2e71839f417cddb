"""A refused request in a real headless Chromium (see tests/web/test_browser.py): the toast
says the table's refusal in the page's language, or in the table's English when the page's
words do not know it."""

from __future__ import annotations

import pytest

from companion.games.caboose.commands import Act, Undo
from companion.games.caboose.rules.state import Pass
from companion.store import StorageFull
from tests.tables import ROLLECATE_TWO
from tests.web import test_browser as shared

pytestmark = pytest.mark.browser

browser = shared.browser  # one Chromium for the module, as test_browser.py starts it
server = shared.server


# The browser's languages, and what the page says once the table's PIN is accepted.
LANGUAGES = {"es-ES": "PIN aceptado", "en-GB": "PIN accepted"}


def phone(browser, server, lang: str):
    """A phone's page in `lang` on a Caboose game, its PIN entered: the page and its errors."""
    page, errors = shared.open_page(browser, server.url, 390, 844, lang=lang)
    page.wait_for_selector("#railway-svg")
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector(f"#pin-state:has-text('{LANGUAGES[lang]}')")
    return page, errors


def test_a_refused_tap_is_said_in_the_pages_language(browser, server):
    server.post("/api/import", {"record": ROLLECATE_TWO})  # Ana to move
    toasts = {}
    for lang in LANGUAGES:
        page, errors = phone(browser, server, lang)
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


def test_a_full_disk_is_said_on_the_page_in_its_language(browser, server):
    """The table's storage full: the tap is refused (507) and the toast says so, as any
    refusal, in the page's language."""
    server.post("/api/import", {"record": ROLLECATE_TWO})  # Ana to move
    table = server.table
    db = table.store._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(StorageFull):  # a pass taken back and played again until no room
        for _ in range(400):
            table.handle(Act(0, Pass()))
            table.handle(Undo(None))
    seat = table.view("en")["to_move"]
    toasts = {}
    for lang in LANGUAGES:
        page, errors = phone(browser, server, lang)
        page.evaluate(f"send('/api/pass', {{seat: {seat}}})")  # the player to move
        page.wait_for_selector("#error:not([hidden])")
        toasts[lang] = page.locator("#error").inner_text()
        assert errors == []
        page.context.close()
    assert toasts["es-ES"].startswith("El almacenamiento de la mesa está lleno: no se cambió")
    assert toasts["en-GB"].startswith("The table's storage is full: nothing was changed.")


def test_a_file_that_is_no_record_is_said_in_the_pages_language(browser, server, tmp_path):
    """A family choosing the wrong file to import or watch (a photograph, a JSON file of
    something else) is told in words what to choose, never the parser's message."""
    server.post("/api/import", {"record": ROLLECATE_TWO})
    picture = tmp_path / "table.jpg"
    picture.write_bytes(b"\xff\xd8\xff\xe0 not text at all")
    other = tmp_path / "other.json"
    other.write_text('{"format": "chess-pgn/1"}')
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2, 3]")
    told = {}
    for lang in LANGUAGES:
        page, errors = phone(browser, server, lang)
        page.on("dialog", lambda dialog: dialog.accept())  # yes, replace the game being played
        page.click("#setup details:nth-of-type(2) summary")
        for path, button in ((picture, "#import-watch"), (other, "#import-continue"),
                             (listed, "#import-watch")):  # fmt: skip
            page.set_input_files("#record-file", str(path))
            page.click(button)
            page.wait_for_selector("#error:not([hidden])")
            told[lang, path.name] = page.locator("#error").inner_text()
            page.evaluate("() => { document.getElementById('error').hidden = true; }")
        assert errors == []
        page.context.close()
    assert told[("en-GB", "table.jpg")] == (
        "This file is not a game record: choose a record the companion saved (a .json file "
        "from Export the game or the history)."
    )
    assert told[("es-ES", "other.json")] == (
        "Este registro no es de ningún juego del acompañante (su formato es 'chess-pgn/1'): "
        "elige un registro que guardó el acompañante."
    )
    assert told[("es-ES", "list.json")] == told[("es-ES", "table.jpg")]
    assert told[("es-ES", "table.jpg")].startswith("Este archivo no es el registro")
