"""The setup page's "teach your colour die" step in a real headless Chromium, at a real app
whose camera shows the synthetic table's stand-in switching box, its board already taught:
the PIN holder chooses the switching game, lays the colour die beside the board with each
colour up in turn and looks, sees the die as the camera saw it beside its colour (named in
the page's words), is told in words when the die is not seen, and saves the three into the
box; a board taught anew forgets them on the page as on the server; the screen beside
the table never shows the step. Screenshots at phone and kiosk
size, English and Spanish."""

from __future__ import annotations

import pytest

from companion.games.switching import standin
from companion.games.switching.vision.taught import TaughtBox
from companion.synthetic import Camera, render
from tests.web import test_browser as shared
from tests.web.test_board_teach import _frame as _board_frame
from tests.web.test_browser import browser  # noqa: F401 - the module's Chromium
from tests.web.test_browser_pips_teach import serving
from tests.web.test_die_teach import FACES, Lens, _box, _die_frame
from web.words import TEACH_BOARD

pytestmark = pytest.mark.browser

NAMES = {"en": ("purple", "cyan", "orange"), "es": ("morado", "cian", "naranja")}


def _open_step(page, lang: str) -> None:
    page.fill("#pin", shared.PIN)
    page.click("#pin-form button")
    page.wait_for_selector(
        f"#pin-state:has-text('{'PIN aceptado' if lang == 'es' else 'PIN accepted'}')"
    )
    assert page.locator("#die-teach").is_hidden(), "not the switching game: no step"
    page.select_option("#game", "switching")
    page.click("#setup-open")
    page.wait_for_selector("#die-teach:not([hidden])")
    page.locator("#die-teach").scroll_into_view_if_needed()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pin_holder_teaches_the_colour_die_on_a_phone(browser, tmp_path, lang):  # noqa: F811
    words = TEACH_BOARD[lang]
    lens = Lens(render(standin.teaching_table(0).scene, 901, Camera.easy()))  # no die
    _box().save(tmp_path / "box")  # the board taught
    with serving(tmp_path, lens, standin.TABLE) as url:
        page, errors = shared.open_page(browser, f"{url}/?lang={lang}", 390, 844,
                                        "es-ES" if lang == "es" else "en-GB")  # fmt: skip
        assert page.locator("#die-teach").is_hidden(), "no PIN: no step"
        _open_step(page, lang)
        names = page.locator("#die-faces .pips-name").all_inner_texts()
        assert names == [words["die_face"].format(colour=name) for name in NAMES[lang]]
        page.click(f"#die-faces li[data-face='{FACES[0]}'] button")
        page.wait_for_selector("#die-said.bad")
        said = page.locator("#die-said").inner_text()
        assert said.startswith(words["die_not_taught"].split("(")[0])
        assert NAMES[lang][0] in said and (lang == "en" or FACES[0] not in said)
        for n, face in enumerate(FACES):
            lens.frame = _die_frame(face)
            page.click(f"#die-faces li[data-face='{face}'] button")
            page.wait_for_selector(f"#die-faces li[data-face='{face}'] img")
            assert page.locator("#die-said").inner_text() == words["die_learnt"].format(
                colour=NAMES[lang][n]
            )
            if n == 1:
                shared.shot(page, f"die-teach-phone-{lang}")
        done = words["die_progress"].format(done=3, total=3)
        assert page.locator("#die-progress").inner_text() == done
        box = page.locator(f"#die-faces li[data-face='{FACES[2]}'] img").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the die fits the phone"
        page.click("#die-save")
        page.wait_for_selector("#die-saved.ok")
        assert page.locator("#die-saved").inner_text() == words["die_saved"].format(
            folder=tmp_path / "box"
        )
        page.locator("#die-teach").screenshot(
            path=str(shared.ARTIFACTS / f"die-teach-phone-{lang}-saved.png")
        )
        assert set(TaughtBox.load(tmp_path / "box").dice) == set(FACES)
        if lang == "en":  # the board taught anew: the faces learnt beside the old are gone
            lens.frame = _board_frame()
            page.fill("#board-width", "560")
            page.fill("#board-height", "560")
            page.click("#board-look")
            page.wait_for_selector("#board-marking:not([hidden])", timeout=30000)
            page.click("#board-save")
            page.wait_for_selector("#board-saved.ok", timeout=30000)
            assert page.locator("#die-faces img").count() == 0
            assert page.locator("#die-progress").inner_text() == words["die_progress"].format(
                done=0, total=3
            )
            assert page.locator("#die-saved").inner_text() == ""
        assert not errors
        kiosk, errors = shared.open_page(browser, f"{url}/?view=table&lang={lang}")
        kiosk.wait_for_timeout(300)
        shared.shot(kiosk, f"die-teach-kiosk-{lang}")
        assert kiosk.locator("#die-teach").count() == 0
        assert kiosk.locator("script[src*='teach_die.js']").count() == 0
        assert not errors
