"""The page speaks English and Spanish in full: every word the shell (index.html, shell.js)
asks for is the shell's (web/words.py), every word the Caboose page (table.html, caboose.js)
asks for is the game's or the shell's, in both languages, so a Spanish page never shows a
bare key; `GET /api/text` and the page hand over both."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from string import Formatter

import pytest

from companion.games import default
from companion.games.caboose.follow_messages import MESSAGES
from companion.games.caboose.words import SESSION, TEXT
from companion.games.protocol import LANGUAGES
from web.words import JOIN, SETUP, SHELL, TEACH_BOARD, TEACH_PIPS, pick

ROOT = Path(__file__).resolve().parents[2]
SHELL_PAGE = (
    ROOT / "web/templates/index.html",
    ROOT / "web/static/shell.js",
    ROOT / "web/static/history.js",
    ROOT / "web/static/teach.js",
    ROOT / "web/static/teach_pips.js",
)
CABOOSE_PAGE = (
    ROOT / "companion/games/caboose/page/table.html",
    ROOT / "companion/games/caboose/page/caboose.js",
)


def words_used(files: tuple[Path, ...]) -> set[str]:
    """The keys a page's files ask for by name: `t("key")` in a script, `text.key` in its
    markup, and the PIN field's states (shell.js's `setPinState` maps them to keys)."""
    script = "\n".join(path.read_text() for path in files if path.suffix == ".js")
    markup = "\n".join(path.read_text() for path in files if path.suffix == ".html")
    used = set(re.findall(r'\bt\("([a-z_0-9]+)"', script))
    used |= set(re.findall(r"\btext\.([a-z_0-9]+)", markup))
    for table in re.findall(r"const words = \{([^}]*)\}", script):
        used |= set(re.findall(r'"([a-z_0-9]+)"', table))
    return used


def test_both_languages_have_the_same_words():
    for words in (SHELL, TEXT):
        assert set(words) == set(LANGUAGES)
        assert set(words["en"]) == set(words["es"])
        for lang in LANGUAGES:
            assert all(words[lang].values())


def test_the_shell_and_the_game_keep_their_words_apart():
    """No key in both: the game's would hide the shell's on the page, or the other way."""
    assert not set(SHELL["en"]) & set(TEXT["en"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_the_shell_uses_is_the_shells(lang):
    used = words_used(SHELL_PAGE)
    assert {"pin", "pin_ok", "pin_wait", "no_answer", "watch_turn", "start_button"} <= used
    shells = set(SHELL[lang]) | set(SETUP[lang]) | set(TEACH_BOARD[lang]) | set(TEACH_PIPS[lang])
    assert used <= shells, used - shells


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_the_caboose_page_uses_is_the_games_or_the_shells(lang):
    used = words_used(CABOOSE_PAGE)
    assert {"railway", "moved", "undo", "pin_ask"} <= used
    own = used - set(SHELL[lang])
    assert own and own <= set(TEXT[lang]), own - set(TEXT[lang])
    # Words built from a prefix and the engine's names (sources, causes, tie-breaks).
    source = CABOOSE_PAGE[1].read_text()
    prefixed = set(re.findall(r"\bt\(`([a-z]+_)\$\{", source))
    for prefix, names in {
        "source_": ["railway", "draw", "reshuffled"],
        "cause_": ["broken", "derail", "pass"],
        "by_": ["score", "cards", "4s", "3s", "2s", "1s", "shared", "lost", "solo"],
    }.items():
        assert prefix in prefixed
        assert all(prefix + name in TEXT[lang] for name in names)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_and_the_page_give_the_shells_and_the_games_words(client, lang):
    """`GET /api/text` and the page's own table of words: the same words, the shell's and
    the game being played's (before any game: the default game's)."""
    answer = client.get(f"/api/text?lang={lang}").json
    assert answer["lang"] == lang
    shell = SHELL[lang] | JOIN[lang] | SETUP[lang] | TEACH_BOARD[lang] | TEACH_PIPS[lang]
    assert answer["text"] == shell | dict(default().words(lang))
    assert words_used(SHELL_PAGE) | words_used(CABOOSE_PAGE) <= set(answer["text"])
    page = client.get(f"/?lang={lang}").get_data(as_text=True)
    (embedded,) = re.findall(r'data-text="([^"]*)"', page)
    assert json.loads(unescape(embedded)) == answer["text"]
    assert f"<h2>{SHELL[lang]['log']}</h2>" in page and TEXT[lang]["railway"] in page


def test_the_session_says_everything_in_both_languages():
    """Every key the session says exists in each language, with the same parameters, so a
    Spanish page never fails to say one nor drops a card code or a count."""

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(template) if name}

    assert set(SESSION) == set(LANGUAGES) and SESSION["en"] is MESSAGES
    for lang in LANGUAGES:
        assert set(SESSION[lang]) == set(MESSAGES), lang
        for key, template in MESSAGES.items():
            assert fields(SESSION[lang][key]) == fields(template), (lang, key)


def test_language_choice():
    assert pick("es", "en") == "es"
    assert pick(None, "es") == "es"
    assert pick("fr", None) == "en"
