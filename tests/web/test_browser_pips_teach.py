"""The setup page's "teach your own dice" step in a real headless Chromium, at a real app
whose camera shows the synthetic table: the PIN holder lays one red pip die showing each
face in turn and looks, sees the die the camera cut out beside its face, is told in words
when two dice lie there, and saves the six; the screen beside the table never shows the
step. Screenshots at phone size in English and Spanish."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion.games.caboose.vision.observation import VisionConfig
from companion.games.protocol import Sight
from companion.store import Store
from companion.table import Table
from companion.vision.table import TableLayout
from tests.web import test_browser as shared
from tests.web.test_browser import browser  # noqa: F401 - the module's Chromium
from tests.web.test_pips_teach import Lens, die_showing
from web.app import Settings, create_app
from web.board_teach import BoxFolder
from web.setup import Presses, SetupTools
from web.words import TEACH_PIPS

pytestmark = pytest.mark.browser


@contextmanager
def serving(tmp_path: Path, lens: Callable[[], Sight], layout: TableLayout | None = None
            ) -> Iterator[str]:  # fmt: skip
    """The page of a table whose camera shows what `lens` holds, its markers laid out as
    `layout` says (the Caboose table's by default)."""
    box = BoxFolder(tmp_path / "box", layout or VisionConfig().layout)
    tools = SetupTools(check=lambda frame, game: None, presses=Presses(()), box=box)
    table = Table(Store(tmp_path / "table.sqlite3"))
    app = create_app(table, shared.PIN, Settings(heartbeat=1.0), lens, tools)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def _open_step(page, lang: str) -> None:
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector(
        f"#pin-state:has-text('{'PIN aceptado' if lang == 'es' else 'PIN accepted'}')"
    )
    page.click("#setup-open")
    page.wait_for_selector("#pips-teach:not([hidden])")
    page.locator("#pips-teach").scroll_into_view_if_needed()


def _look(page, lens: Lens, pips: int, dice: int = 1) -> None:
    lens.frame = die_showing(pips, dice)
    page.click(f"#pips-faces li[data-pips='{pips}'] button")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pin_holder_teaches_a_die_face_by_face_on_a_phone(browser, tmp_path, lang):  # noqa: F811
    words = TEACH_PIPS[lang]
    lens = Lens()
    with serving(tmp_path, lens) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang={lang}", 390, 844,
                                        "es-ES" if lang == "es" else "en-GB")  # fmt: skip
        assert page.locator("#pips-teach").is_hidden(), "no PIN: no step"
        _open_step(page, lang)
        names = page.locator("#pips-faces .pips-name").all_inner_texts()
        assert names == [words["pips_face_one"]] + [words["pips_face"].format(n=n)
                                                    for n in range(2, 7)]  # fmt: skip
        _look(page, lens, 3, dice=2)
        page.wait_for_selector("#pips-said.bad")
        assert page.locator("#pips-said").inner_text() == words["refusal_pips_many"].format(n=2)
        for pips in range(1, 7):
            _look(page, lens, pips)
            page.wait_for_selector(f"#pips-faces li[data-pips='{pips}'] img")
            if pips == 3:
                shared.shot(page, f"pips-teach-phone-{lang}")
        assert page.locator("#pips-progress").inner_text() == words["pips_progress"].format(done=6)
        box = page.locator("#pips-faces li[data-pips='6'] img").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the die fits the phone"
        page.click("#pips-save")
        page.wait_for_selector("#pips-saved.ok")
        said = page.locator("#pips-saved").inner_text()
        assert said == words["pips_saved"].format(folder=tmp_path / "box")
        page.locator("#pips-teach").screenshot(
            path=str(shared.ARTIFACTS / f"pips-teach-phone-{lang}-saved.png")
        )
        assert (tmp_path / "box" / "pips.json").is_file()
        assert not errors
        kiosk, errors = shared.open_page(browser, f"{url}/?view=table&lang={lang}")
        kiosk.wait_for_timeout(300)
        assert kiosk.locator("#pips-teach").count() == 0
        assert kiosk.locator("script[src*='teach_pips.js']").count() == 0
        assert not errors
