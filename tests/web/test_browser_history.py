"""Issue 31 in Chromium: the history of the games played at the table and the players'
standings, on a phone in English and Spanish and on the screen beside the table between
games. Words, not codes; a game of the history watched turn by turn, deleted with the PIN;
a player renamed; the chart drawn by the page. Screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.games.caboose.commands import Act
from companion.games.caboose.rules.state import Pass
from companion.games.protocol import Start
from companion.store import Store
from companion.table import Table
from tests.web.test_browser import Server, browser, enter_pin, open_page, shot  # noqa: F401
from tests.web.test_games_api import last_turn

pytestmark = pytest.mark.browser

# Three Caboose games to their end and a Yardmaster Express game, the same family.
SITTINGS = (["Ana", "Ben"], ["Ben", "Ana"], ["Ana", "Ben"])


def finish_caboose(table: Table, names: list[str]) -> None:
    """A Loose Caboose game one pass from its end, passed to its end."""
    doc, _ = last_turn("caboose")
    table.load(doc | {"players": names})
    table.handle(Act(table.match.snap.state.to_move, Pass()))
    assert table.match.over


@pytest.fixture
def evenings(tmp_path) -> Iterator[Server]:
    """A table whose history holds three Caboose games, one Yardmaster Express game left
    after being dealt, and the last Caboose game over, on the table."""
    table = Table(Store(tmp_path / "table.sqlite3"))
    finish_caboose(table, SITTINGS[0])
    finish_caboose(table, SITTINGS[1])
    table.start("yardmaster-express", Start(("Ana", "Cleo"), "yardmaster-express", None, 3))
    finish_caboose(table, SITTINGS[2])
    server = Server(table)
    yield server
    server.close()


def test_the_history_and_standings_on_a_phone_in_english(browser, evenings):  # noqa: F811
    page, errors = open_page(browser, evenings.url, 390, 844)
    page.wait_for_selector("#history .history-game")
    games = page.locator("#history > li")
    assert games.count() == 4
    newest = games.nth(0).inner_text()
    assert "Loose Caboose" in newest and "Winner: " in newest and "penalty points" in newest
    assert "finished" in newest and "loose-caboose" not in newest  # words, not codes
    assert "abandoned" in games.nth(1).inner_text()
    assert "Yardmaster Express" in games.nth(1).inner_text()
    page.wait_for_selector(".standings li")
    standings = page.locator(".standings li").first.inner_text()
    assert standings == "Ana 3 games · 2 wins · mean 40.3 · best 39"
    page.wait_for_selector("#chart svg circle")
    assert page.locator("#chart svg circle").count() == 3  # Ana's three games to the end
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways
    page.locator("#history-section").scroll_into_view_if_needed()
    shot(page, "history-phone-en")
    # a game of the history watched turn by turn, from its start
    games.nth(2).locator(".history-watch").click()
    page.wait_for_selector("#watch:not([hidden])")
    assert page.locator("#watch-turn").inner_text().startswith("turn 0 of")
    assert errors == []


def test_a_game_is_deleted_and_a_player_renamed_with_the_pin(browser, evenings):  # noqa: F811
    page, errors = open_page(browser, evenings.url, 390, 844)
    page.wait_for_selector("#history .history-game")
    enter_pin(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#history > li").nth(2).locator(".history-delete").click()
    page.wait_for_function("() => document.querySelectorAll('#history > li').length === 3")
    page.click("#players-edit summary")
    page.select_option("#rename-player", label="Ben")
    page.select_option("#merge-player", label="Ben")
    # the history changes meanwhile (a game ends, another phone deletes one): the lists are
    # drawn again, and the player chosen in each stays chosen
    page.evaluate("() => loadPlayers()")
    chosen = "list => list.options[list.selectedIndex].text"
    assert page.eval_on_selector("#rename-player", chosen) == "Ben"
    assert page.eval_on_selector("#merge-player", chosen) == "Ben"
    page.fill("#rename-name", "Benjamín")
    page.click("#rename-form button")
    page.wait_for_selector("#history li:has-text('Benjamín')")
    assert "Ben:" not in page.locator("#history").inner_text()
    assert errors == []


def test_the_history_in_spanish(browser, evenings):  # noqa: F811
    page, errors = open_page(browser, evenings.url, 390, 844, lang="es-ES")
    page.wait_for_selector("#history .history-game")
    assert page.locator("#history-section h2").inner_text() == "Partidas jugadas"
    newest = page.locator("#history > li").first.inner_text()
    assert "Gana: " in newest and "puntos de penalización" in newest and "terminada" in newest
    assert "abandonada" in page.locator("#history > li").nth(1).inner_text()
    page.wait_for_selector(".standings li")
    assert page.locator(".standings li").first.inner_text() == (
        "Ana 3 partidas · 2 victorias · media 40,3 · mejor 39"
    )
    page.locator("#players-section").scroll_into_view_if_needed()
    shot(page, "history-phone-es")
    assert errors == []


@pytest.mark.parametrize("lang", ["en-GB", "es-ES"])
def test_the_kiosk_shows_the_last_results_between_games_only(browser, evenings, lang):  # noqa: F811
    page, errors = open_page(browser, f"{evenings.url}/?view=table", lang=lang)
    page.wait_for_selector("#history-section:not([hidden]) .history-game")
    heading = page.locator("#history-section h2").inner_text()
    assert heading == ("Last results" if lang == "en-GB" else "Últimos resultados")
    assert page.locator("#history button, #players-section").count() == 0  # nothing to tap
    fits = "() => document.documentElement.scrollHeight <= window.innerHeight"
    assert page.evaluate(fits)
    shot(page, f"history-kiosk-{lang[:2]}")
    evenings.post("/api/game", {"edition": "rollecate", "names": ["Ana", "Ben"], "seed": 3})
    page.wait_for_selector("#history-section[hidden]", state="attached")  # a game is on
    assert errors == []


def test_a_game_of_another_kind_than_the_table_s_is_watched_on_its_own_page(
    browser,  # noqa: F811
    tmp_path,
):
    """A Caboose game of the history, watched while a Yardmaster Express game is on the
    table: its own game's page opens and draws it turn by turn; stopping shows the table's
    game again (and a reload too), never the watched game's page over a live table."""
    table = Table(Store(tmp_path / "table.sqlite3"))
    finish_caboose(table, SITTINGS[0])
    table.start("yardmaster-express", Start(("Ana", "Cleo"), "yardmaster-express", None, 3))
    server = Server(table)
    try:
        page, errors = open_page(browser, server.url, 390, 844)
        page.wait_for_selector("#history .history-game")
        assert page.evaluate("() => document.body.dataset.game") == "yardmaster-express"
        caboose = page.locator("#history > li", has_text="Loose Caboose")
        caboose.locator(".history-watch").click()
        page.wait_for_selector("#watch:not([hidden])")
        assert page.evaluate("() => document.body.dataset.game") == "caboose"
        assert page.locator("#watch-turn").inner_text().startswith("turn 0 of")
        assert "watch=" not in page.url  # a reload shows the table, not the old game
        page.click("#watch-next")
        page.wait_for_selector("#watch-turn:has-text('turn 1 of')")
        page.click("#watch-stop")
        page.wait_for_function("() => document.body.dataset.game === 'yardmaster-express'")
        page.wait_for_selector("#history .history-game")
        assert page.locator("#watch").is_hidden()
        assert errors == []
    finally:
        server.close()


def test_a_page_asked_to_watch_a_game_the_history_lacks_shows_the_table(browser, evenings):  # noqa: F811
    page, errors = open_page(browser, f"{evenings.url}/?watch=999", 390, 844)
    page.wait_for_selector("#error:not([hidden])")
    assert "999" in page.locator("#error").inner_text()
    assert page.locator("#watch").is_hidden()
    page.wait_for_selector("#history .history-game")
    assert errors == []
