"""The setup page's "teach your board" step in a real headless Chromium, at a real app
whose camera shows the synthetic table's stand-in switching box: the PIN holder chooses
the switching game, looks at the board, sees the proposal drawn over the board's picture,
taps a space and taps where it goes, is told in words what a wrong board is and where (the
space highlighted), and saves the taught box; the screen beside the table never shows the
board's picture. Screenshots at phone and kiosk size, English and Spanish."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion.app.config import load
from companion.app.run import Configured
from companion.games.protocol import Sight
from companion.games.switching.board import read
from companion.games.switching.standin import TABLE
from companion.store import Store
from companion.table import Table
from tests.web import test_browser as shared
from tests.web.test_board_teach import _frame
from tests.web.test_browser import browser  # noqa: F401 - the module's Chromium
from web.app import Settings, create_app
from web.board_teach import BoxFolder
from web.setup import Presses, SetupTools
from web.words import TEACH_BOARD

pytestmark = pytest.mark.browser


@contextmanager
def serving(tmp_path: Path) -> Iterator[str]:
    """The page of a table whose camera shows the stand-in box laid out to be taught."""
    frame = _frame()
    config = tmp_path / "companion.toml"
    height, width = frame.shape[:2]
    store = tmp_path / "table.sqlite3"
    config.write_text(
        f"[camera]\nframe_size = [{width}, {height}]\n[table]\nwidth = {TABLE.width}\n"
        f"height = {TABLE.height}\n[store]\npath = '{store}'\n"
    )
    configured = Configured(load(config), config)
    tools = SetupTools(
        check=configured.check,
        presses=Presses(()),
        box=BoxFolder(tmp_path / "box", TABLE),
    )
    sights = lambda: Sight(frame, None, "switching", 1)  # noqa: E731
    app = create_app(Table(Store(store)), shared.PIN, Settings(heartbeat=1.0), sights, tools)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()  # returns once serve_forever has stopped


def _shot(page, name: str) -> None:
    """The whole page, and the step alone as the phone shows it."""
    shared.shot(page, name)
    page.locator("#board-teach").screenshot(path=str(shared.ARTIFACTS / f"{name}-step.png"))


def _tap(page, mm: tuple[float, float]) -> None:
    """A tap on the drawing at a board point (mm)."""
    page.locator("#board-frame").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('board-drawing');
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }""",
        list(mm),
    )
    page.mouse.click(x, y)


def _space(page, name: str) -> tuple[float, float]:
    """Where the page draws the space `name` (board mm)."""
    return tuple(page.evaluate(
        """(name) => { for (const c of chains()) for (const s of c.spaces)
          if (s[0] === name) return where(c, s); }""", name))  # fmt: skip


def _look(page, lang: str) -> None:
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector(
        f"#pin-state:has-text('{'PIN aceptado' if lang == 'es' else 'PIN accepted'}')"
    )
    page.select_option("#game", "switching")
    page.click("#setup-open")
    page.wait_for_selector("#board-teach:not([hidden])")
    page.fill("#board-width", "560")
    page.fill("#board-height", "560")
    page.click("#board-look")
    page.wait_for_selector("#board-marking:not([hidden])", timeout=30000)
    page.wait_for_function("() => document.getElementById('board-picture').naturalWidth === 560")
    assert page.locator("#board-said").inner_text() == TEACH_BOARD[lang]["board_fitted"]
    page.locator("#board-frame").scroll_into_view_if_needed()


def test_the_pin_holder_marks_the_board_on_a_phone_and_saves_it(browser, tmp_path):  # noqa: F811
    words = TEACH_BOARD["en"]
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        assert page.locator("#board-teach").is_hidden(), "no PIN: no step"
        _look(page, "en")
        frame = page.locator("#board-frame").bounding_box()
        assert frame["width"] <= 390 and frame["x"] >= 0, "the board fits the phone"
        assert page.locator(".board-space").count() > 30
        _shot(page, "board-teach-phone-en")
        # a space chosen, then tapped where it is on the board: it moves there
        a1 = _space(page, "A1")
        _tap(page, a1)
        assert page.locator("#board-chosen").inner_text() == words["board_chosen"].format(
            number=1, chain=words["board_track"].format(number=1)
        )
        _tap(page, (a1[0] + 4, a1[1] - 2))  # a nudge onto the board's own
        moved = _space(page, "A1")
        assert abs(moved[0] - a1[0] - 4) < 2 and abs(moved[1] - a1[1] + 2) < 2  # a pixel: 1.8 mm
        # a Finish is a track's last space: said in words, nothing changed
        page.click("#board-marks [data-mark=finish]")
        assert page.locator("#board-chosen").inner_text() == words["board_finish_last"]
        page.click("#board-done")
        # the last space of a track marked a dead end, then its end put back as proposed
        _tap(page, _space(page, "B5"))
        dead_ends = page.locator(".board-dead-end").count()  # the panels' sidings'
        page.click("#board-marks [data-mark='dead end']")
        assert page.locator(".board-dead-end").count() == dead_ends + 1
        page.click("#board-marks [data-mark=proposed]")
        assert page.locator(".board-dead-end").count() == dead_ends
        # a space added after it, where tapped, then removed
        spaces = page.locator(".board-space").count()
        page.click("#board-add")
        assert page.locator("#board-chosen").inner_text() == words["board_adding"]
        b5 = _space(page, "B5")
        _tap(page, (b5[0] - 20, b5[1]))
        assert page.locator(".board-space").count() == spaces + 1
        assert page.evaluate("() => board.tracks[1].spaces.map((s) => s[0])")[-1] == "B6"
        page.click("#board-remove")
        assert page.locator(".board-space").count() == spaces
        page.click("#board-done")
        # a panel's space moved off its panel: refused in words, the space highlighted
        p2 = _space(page, "p2")
        _tap(page, p2)
        _tap(page, (344, 344))  # the empty slot's middle: off its panel
        assert page.locator(".board-space.start").count() >= 4
        page.click("#board-save")
        page.wait_for_selector("#board-saved.bad")
        assert page.locator("#board-saved").inner_text() == words["board_off"]
        assert page.locator(".board-marked").count() == 1
        assert not (tmp_path / "box").exists()
        _shot(page, "board-teach-phone-en-refused")
        # put back on its panel, the board is taught and saved
        _tap(page, p2)
        page.click("#board-save")
        page.wait_for_selector("#board-saved.ok", timeout=30000)
        assert page.locator("#board-saved").inner_text() == words["board_saved"].format(
            folder=tmp_path / "box"
        )
        assert (tmp_path / "box" / "board.json").is_file()
        assert page.locator(".board-marked").count() == 0
        assert not errors


def test_spanish_phone_and_the_kiosk_never_shows_the_board(browser, tmp_path):  # noqa: F811
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang=es", 390, 844, "es-ES")
        _look(page, "es")
        assert page.locator("#board-look").inner_text() == TEACH_BOARD["es"]["board_look"]
        _shot(page, "board-teach-phone-es")
        # the slots, and a new track being tapped, in Spanish words
        words = TEACH_BOARD["es"]
        page.click("#board-modes [data-mode=slots]")
        nw = _board(page)["slots"]["at"]["NW"]
        _tap(page, (nw[0] + 20, nw[1] + 20))  # the top left slot
        assert page.locator("#board-chosen").inner_text() == words["board_slot_chosen"].format(
            slot=words["board_slot"].format(number=1), holds=words["board_panel_purple"]
        )
        assert page.locator(".board-slot-name").all_text_contents() == ["1", "2", "3", "4"]
        _shot(page, "board-teach-phone-es-slots")
        page.click("#board-new-track")
        for x in (40, 80):
            _tap(page, (x, 100))
        assert page.locator("#board-chosen").inner_text() == words["board_building_track"].format(
            number=9, count=2
        )
        _shot(page, "board-teach-phone-es-track")
        assert not errors
        asked: list[str] = []
        for lang in ("en", "es"):
            kiosk, errors = shared.open_page(browser, f"{url}/?view=table&lang={lang}")
            kiosk.on("request", lambda r: asked.append(r.url))
            kiosk.wait_for_timeout(500)
            assert kiosk.locator("#board-teach").count() == 0
            assert kiosk.locator("script[src*='teach.js']").count() == 0
            assert not any("board" in u or "camera" in u for u in asked)
            shared.shot(kiosk, f"board-teach-kiosk-{lang}")
            assert not errors


def _board(page) -> dict:
    """The board file as the page holds it now."""
    return page.evaluate("() => JSON.parse(JSON.stringify(board))")


def test_the_family_adds_a_track_edits_a_slot_and_a_panel_and_saves_them(browser, tmp_path):  # noqa: F811
    """A whole new track tapped in order (one space is refused, a tap undone), its ends
    marked; a slot moved (off the board refused) and a panel's home changed then undone;
    a piece added to a panel: the saved board.json has them all and passes the check."""
    words = TEACH_BOARD["en"]
    with serving(tmp_path) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang=en", 390, 844)
        _look(page, "en")
        before = _board(page)
        tracks = len(before["tracks"])
        said = page.locator("#board-chosen")
        # a new track: one space is no track (refused, the board unchanged)
        page.click("#board-new-track")
        assert said.inner_text() == words["board_building_track"].format(number=tracks + 1, count=0)
        _tap(page, (40, 100))
        page.click("#board-build-done")
        assert said.inner_text() == words["board_track_short"]
        assert _board(page) == before
        # two more spaces, one tapped by mistake and undone, then the track made
        _tap(page, (80, 100))
        _tap(page, (300, 20))  # a slip of the finger
        assert page.locator(".board-space.building").count() == 3
        page.click("#board-undo")
        assert page.locator(".board-space.building").count() == 2
        _tap(page, (120, 100))
        page.click("#board-build-done")
        assert said.inner_text() == words["board_track_added"].format(number=tracks + 1)
        added = _board(page)["tracks"][-1]
        assert [s[0] for s in added["spaces"]] == ["I1", "I2", "I3"]
        for space, tapped in zip(added["spaces"], [(40, 100), (80, 100), (120, 100)], strict=True):
            assert (
                abs(space[1] - tapped[0]) < 2 and abs(space[2] - tapped[1]) < 2
            )  # a pixel: 1.8 mm
        # its first space is chosen: marked Start; its last joined to an edge another track
        # joins already (refused), then marked Finish
        page.click("#board-reverse")  # turned round, then back with Undo
        assert [s[0] for s in _board(page)["tracks"][-1]["spaces"]] == ["I3", "I2", "I1"]
        page.click("#board-undo")
        page.click("#board-marks [data-mark=start]")
        marked_start = _board(page)
        page.click("#board-reverse")  # a Start stays first: refused
        assert said.inner_text() == words["board_reverse_marked"]
        assert _board(page) == marked_start
        _tap(page, (120, 100))
        assert said.inner_text() == words["board_chosen"].format(
            number=3, chain=words["board_track"].format(number=tracks + 1)
        )
        page.click("#board-join")
        assert said.inner_text() == words["board_joining"]
        nw = before["slots"]["at"]["NW"]
        north = before["ports"]["n"]
        _tap(page, (nw[0] + north[0], nw[1] + north[1]))  # track E's edge
        assert said.inner_text() == words["board_port_used"]
        joins = page.locator(".board-join").count()
        south = before["ports"]["s"]
        _tap(page, (nw[0] + south[0] + 3, nw[1] + south[1] - 2))  # near a free edge: joined
        assert _board(page)["tracks"][-1]["to"] in ("NW.s", "SW.n")
        assert page.locator(".board-join").count() == joins + 1  # drawn, dashed
        page.click("#board-done")
        _tap(page, (120, 100))
        page.click("#board-marks [data-mark=finish]")
        assert _board(page)["tracks"][-1] | {"spaces": []} == {
            "id": "I", "from": "start", "to": "finish", "spaces": []
        }  # fmt: skip
        assert page.locator(".board-space.start").count() == 5
        # its middle space removed; then its first refused (a track keeps two), the removal undone
        _tap(page, (80, 100))
        page.click("#board-remove")
        _tap(page, (40, 100))
        two = _board(page)
        page.click("#board-remove")
        assert said.inner_text() == words["board_last_space"]
        assert _board(page) == two
        page.click("#board-undo")
        assert [s[0] for s in _board(page)["tracks"][-1]["spaces"]] == ["I1", "I2", "I3"]
        _shot(page, "board-teach-phone-en-track")
        # the empty slot chosen: moved off the board (refused), then nudged onto the board's
        page.click("#board-modes [data-mode=slots]")
        assert said.inner_text() == words["board_slot_pick"]
        se = before["slots"]["at"]["SE"]
        size = before["slots"]["size"]
        middle = (se[0] + size[0] / 2, se[1] + size[1] / 2)
        _tap(page, middle)  # the bottom right slot: the 4th in reading order
        assert said.inner_text() == words["board_slot_chosen"].format(
            slot=words["board_slot"].format(number=4),
            holds=words["board_slot_empty"],
        )
        _tap(page, (550, 550))
        assert said.inner_text() == words["board_slot_outside"]
        assert _board(page)["slots"] == before["slots"]
        _tap(page, (middle[0] + 3, middle[1] + 2))
        moved = _board(page)["slots"]["at"]["SE"]
        assert abs(moved[0] - se[0] - 3) < 2 and abs(moved[1] - se[1] - 2) < 2
        _shot(page, "board-teach-phone-en-slots")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing cut
        # every slot made larger: they would overlap (refused); smaller, then undone
        slots = _board(page)["slots"]
        page.fill("#board-slot-width", str(size[0] + 10))
        page.click("#board-slot-resize")
        assert said.inner_text() == words["board_slot_overlap"]
        assert _board(page)["slots"] == slots
        page.fill("#board-slot-width", str(size[0] - 20))
        page.click("#board-slot-resize")
        smaller = _board(page)
        assert smaller["slots"]["size"] == [size[0] - 20, size[1]]
        assert smaller["slots"]["at"]["NW"][0] == round(nw[0] + 10, 1)  # about its middle
        assert smaller["ports"]["e"][0] == round(
            before["ports"]["e"][0] * (size[0] - 20) / size[0], 1
        )
        page.click("#board-undo")
        assert _board(page)["slots"] == slots and _board(page)["ports"] == before["ports"]
        shown = page.locator("#board-slot-width").input_value()
        assert shown == str(round(size[0]))  # to the millimetre a ruler reads
        # the orange panel said to lie there at home, and undone: it lies where it did
        page.click("#board-slot-tools [data-home=orange]")
        assert _board(page)["panels"]["orange"]["home"] == "SE"
        page.click("#board-undo")
        assert _board(page)["panels"]["orange"]["home"] == before["panels"]["orange"]["home"]
        assert _board(page)["slots"]["at"]["SE"] == moved  # one tap undone, not two
        # a piece added to the purple panel, from its free edge to a dead end
        nw_middle = (nw[0] + size[0] / 2, nw[1] + size[1] / 2)
        _tap(page, nw_middle)
        page.click("#board-add-piece")
        _tap(page, (nw[0] + size[0] - 12, nw_middle[1] + 30))
        _tap(page, (nw[0] + size[0] - 30, nw_middle[1] + 30))
        page.click("#board-build-done")
        piece = _board(page)["panels"]["purple"]["pieces"][-1]
        assert (piece["from"], piece["to"]) == ("e", "dead end")
        assert said.inner_text() == words["board_piece_added"].format(
            piece=words["board_piece"].format(
                panel=words["board_panel_purple"],
                number=len(before["panels"]["purple"]["pieces"]) + 1,
            )
        )
        # a whole track removed (the first: its Start with it), and put back with Undo
        edited = _board(page)
        _tap(page, _space(page, "A3"))
        page.click("#board-remove-chain")
        assert [t["id"] for t in _board(page)["tracks"]] == [t["id"] for t in edited["tracks"][1:]]
        page.click("#board-undo")
        assert _board(page) == edited
        # saved: the file written has the new track, the slot and the piece, and is checked
        page.click("#board-save")
        page.wait_for_selector("#board-saved.ok", timeout=30000)
        saved = (tmp_path / "box" / "board.json").read_text()
        board = read(saved, "board.json")
        assert board.chains["I"].spaces == ("I1", "I2", "I3")
        assert "I1" in board.starts and "I3" in board.finishes
        assert board.slots["SE"].x == moved[0] and board.slots["SE"].y == moved[1]
        assert json.loads(saved) == _board(page)
        assert not errors
