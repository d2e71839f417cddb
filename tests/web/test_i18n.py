"""The page speaks English and Spanish in full: every word the JavaScript asks for exists
in both tables, so a Spanish page never shows a bare key."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

from companion.games.caboose.session import MESSAGES
from companion.games.caboose.words import LANGUAGES, SESSION, TEXT, pick

ROOT = Path(__file__).resolve().parents[2]
# The page's scripts: the shell's and the Caboose design's.
SCRIPTS = (ROOT / "web" / "static" / "shell.js", ROOT / "companion/games/caboose/page/caboose.js")


def test_both_languages_have_the_same_words():
    assert set(TEXT["en"]) == set(TEXT["es"])
    for lang in LANGUAGES:
        assert all(TEXT[lang].values())


def test_every_word_the_page_uses_exists():
    source = "\n".join(script.read_text() for script in SCRIPTS)
    used = set(re.findall(r'\bt\("([a-z_0-9]+)"', source))
    prefixed = set(re.findall(r"\bt\(`([a-z]+_)\$\{", source))
    assert used and used <= set(TEXT["en"]), used - set(TEXT["en"])
    # Words built from a prefix and the engine's names (sources, causes, tie-breaks).
    for prefix, names in {
        "source_": ["railway", "draw", "reshuffled"],
        "cause_": ["broken", "derail", "pass"],
        "by_": ["score", "cards", "4s", "3s", "2s", "1s", "shared", "lost", "solo"],
    }.items():
        assert prefix in prefixed
        assert all(prefix + name in TEXT["en"] for name in names)


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
