"""In a real headless Chromium: a die the camera reads unsure is asked on the page, in English
and in Spanish, its faces offered as buttons; a tap answers it and the roll enters the game
with the face the players chose, not the one the camera guessed."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from companion.games.caboose.follow import ASKING, FollowConfig
from companion.games.caboose.tracker import DICE_SETTLED
from companion.games.caboose.vision.observation import SeenDie
from companion.store import Store
from tests.caboose.test_follow import event, lay, see, start
from tests.playing import match
from tests.web.test_browser import Server, browser, enter_pin, open_page, shot  # noqa: F401

pytestmark = pytest.mark.browser

FACE_MAP = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}


def test_an_unsure_die_is_asked_on_the_page_and_answered_by_a_tap(browser, tmp_path):  # noqa: F811
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    session.config = FollowConfig(pip_wheels=FACE_MAP)
    server = Server(table)
    try:
        page, errors = open_page(browser, server.url, 390, 844)  # a phone at the table
        page.wait_for_selector("#session:not([hidden]) #session-message")
        enter_pin(page)
        spanish, spanish_errors = open_page(browser, server.url, 390, 844, lang="es-ES")
        view = lay(table, play)
        needed = match(table).staged.dice
        dice = tuple(
            SeenDie("pips", 5 if i == 0 else 6, (400.0 + 40 * i, 560.0), 0.2 if i == 0 else 0.9)
            for i in range(needed)
        )
        see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))
        assert session.phase == ASKING and not match(table).snap.record.turns

        page.wait_for_selector("#session-question button[data-answer]")
        assert page.locator("#session-question h3").inner_text() == (
            "The camera is unsure: tap what the die shows"
        )
        assert "die 1: is it a 5?" in page.locator("#session-prompt").inner_text()
        buttons = page.locator("#session-question button[data-answer]")
        faces = [buttons.nth(i).get_attribute("data-answer") for i in range(buttons.count())]
        assert faces == ["5", "1", "2", "3", "4", "6"]  # the face read first
        assert "⚄ 5" in buttons.nth(0).inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        spanish.wait_for_selector("#session-prompt")
        assert "dado 1: ¿es un 5?" in spanish.locator("#session-prompt").inner_text()
        shot(page, "10-camera-asks-a-die-phone")

        page.click("#session-question button[data-answer='3']")  # it showed a 3
        deadline = time.monotonic() + 5
        while not match(table).snap.record.turns:
            assert time.monotonic() < deadline, "the answer did not reach the session"
            time.sleep(0.02)
        assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[3]] + [FACE_MAP[6]] * (
            needed - 1
        )
        page.wait_for_selector("#session-question", state="detached")
        assert errors == [] and spanish_errors == []
    finally:
        server.close()


def test_what_is_no_die_is_said_so_by_a_tap_and_the_turn_goes_on(browser, tmp_path):  # noqa: F811
    """The camera asks about a card's digit it took for a die (confidence 0) beside the true
    dice: the phone offers "There is no die here" beside the faces (in Spanish too), the
    screen beside the table shows it without a button; a tap drops it and the true roll
    enters the game."""
    from tests.caboose.test_not_a_die import PHANTOM, true_dice
    from tests.web.test_browser_kiosk import fits, screens

    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    session.config = FollowConfig(pip_wheels=FACE_MAP)
    server = Server(table)
    try:
        page, errors = open_page(browser, server.url, 390, 844)
        page.wait_for_selector("#session:not([hidden]) #session-message")
        enter_pin(page)
        spanish, spanish_errors = open_page(browser, server.url, 390, 844, lang="es-ES")
        spanish.wait_for_selector("#session:not([hidden]) #session-message")
        view = lay(table, play)
        faces = [5, 2, 6, 3][: match(table).staged.dice]
        dice = (PHANTOM, *true_dice(faces))
        see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))
        assert session.phase == ASKING and session.question.die == 0

        page.wait_for_selector("#session-no-die")
        assert page.locator("#session-no-die").inner_text() == "There is no die here"
        assert "die 1: is it a 6?" in page.locator("#session-prompt").inner_text()
        # which die: a copy of the railway's drawing beside the question, the dice numbered
        # as the question numbers them, the one asked about ringed beside the card it lies by
        where = page.locator("#session-die-where")
        assert where.locator(".drawn-die").count() == len(dice)
        assert ringed_beside(page, "#session-die-where") == 0  # by the railway's back card
        assert "Ringed: die 1" in where.locator("figcaption").inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "11-camera-asks-a-phantom-die-phone")
        spanish.wait_for_selector("#session-no-die")
        assert spanish.locator("#session-no-die").inner_text() == "Aquí no hay ningún dado"
        assert "dado 1: ¿es un 6?" in spanish.locator("#session-prompt").inner_text()
        assert "En el círculo: el dado 1" in spanish.locator("#session-die-where").inner_text()
        assert spanish.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(spanish, "11-camera-asks-a-phantom-die-phone-es")
        for lang, said in (("", "There is no die here"), ("&lang=es", "Aquí no hay ningún dado")):
            with screens(browser, server.url, lang) as kiosks:
                for kiosk in kiosks:
                    kiosk.wait_for_selector("#session-question span#session-no-die")
                    assert kiosk.locator("#session-no-die").inner_text() == said
                    assert kiosk.locator("#session-question button").count() == 0
                    # the screen marks the dice on its own railway's drawing, in view
                    assert kiosk.locator("#session-die-where").count() == 0
                    assert ringed_beside(kiosk, "#railway") == 0
                    fits(kiosk)
                shot(kiosks[1], f"kiosk-caboose-phantom-die-720p{lang.replace('&lang=', '-')}")

        page.click("#session-no-die")
        deadline = time.monotonic() + 5
        while not match(table).snap.record.turns:
            assert time.monotonic() < deadline, "the answer did not reach the session"
            time.sleep(0.02)
        assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[f] for f in faces]
        page.wait_for_selector("#session-question", state="detached")
        spanish.wait_for_selector("#session-question", state="detached")
        assert errors == [] and spanish_errors == []
    finally:
        server.close()


def ringed_beside(page, drawing: str) -> int:
    """The railway card (its index, back first) nearest the ringed die on the page, as
    drawn: the one a family looks beside."""
    return page.evaluate(
        """(drawing) => {
          const box = (el) => { const r = el.getBoundingClientRect();
            return [r.x + r.width / 2, r.y + r.height / 2]; };
          const svg = document.querySelector(`${drawing} svg`);
          const [x, y] = box(svg.querySelector(".drawn-die.asked"));
          const cards = [...svg.querySelectorAll("g.rw")];
          const far = cards.map((card) => Math.hypot(box(card)[0] - x, box(card)[1] - y));
          return Number(cards[far.indexOf(Math.min(...far))].dataset.index);
        }""",
        drawing,
    )
