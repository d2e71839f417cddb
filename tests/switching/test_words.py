"""The switching-track game's words: the same keys and {parameters} in English and Spanish,
one thing never said as many, every refusal the game and the shared checks can give said in
both languages, and every word the page's script and markup ask for there to be said."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from companion.games.protocol import LANGUAGES
from companion.games.switching.words import TEXT, say
from tests.words_checks import (
    fields,
    hides_none_of_the_shells,
    no_plural_of_one,
    said_keys,
    same_words,
    sample_views,
    sources,
)
from web.words import SHELL

PAGE = files("companion.games.switching") / "page"
SOURCES = sources("switching")
# "1 trains", "1 spaces", "1 casillas": a plural said of one thing.
PLURAL_OF_ONE = re.compile(r"\b1 (\w+s)\b")
COLOURS = ("red", "blue", "yellow", "green")
PANELS = ("purple", "cyan", "orange")


def test_both_languages_have_the_same_words_with_the_same_parameters():
    same_words(TEXT)


def test_the_games_words_hide_none_of_the_shells():
    hides_none_of_the_shells(TEXT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_train_one_space_one_tile(lang):
    counted = no_plural_of_one(TEXT[lang], PLURAL_OF_ONE)
    assert {"depot", "total", "repair_tiles"} <= set(counted)
    assert say("es", "depot", n=1) == "1 tren en el depósito"
    assert say("es", "depot", n=2) == "2 trenes en el depósito"
    assert say("en", "total", n=1) == "1 space"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_train_colour_has_its_own_letter_and_each_colour_its_own_name(lang):
    """A colour-blind player tells the trains apart by their letters: no two alike (in
    Spanish azul and amarillo both begin with A: Az and Am)."""
    letters = [TEXT[lang][f"letter_{c}"] for c in COLOURS]
    assert len(set(letters)) == len(COLOURS)
    names = [TEXT[lang][f"colour_{c}"] for c in COLOURS + PANELS]
    assert len(set(names)) == len(names)


def test_everything_a_switching_table_refuses_or_says_is_said_in_both_languages():
    """Every key of a refusal of the game's package or the shared checks, and of what the
    referee at the table says, has Spanish words using only its parameters: a refusal as
    `refusal_<key>`, the referee as `session_<key>`."""
    keys = said_keys(SOURCES)
    assert {"name_too_long", "unknown_fields", "missing_fields"} <= keys  # shared checks
    assert {"bad_die", "reroll_same_train", "repair_not_slidable"} <= keys  # the rules'
    assert {"stale", "nothing_to_undo"} <= keys  # the match's
    for lang in LANGUAGES:
        missing = {k for k in keys if f"refusal_{k}" not in TEXT[lang]
                   and f"session_{k}" not in TEXT[lang]}  # fmt: skip
        assert not missing, f"said with no words in {lang}: {sorted(missing)}"
    assert TEXT["en"]["refusal_unknown_fields"] == "{message}"
    assert fields(TEXT["es"]["refusal_unknown_fields"]) == {"fields", "allowed"}


def test_every_word_the_pages_script_asks_for_is_there_in_both_languages():
    script = (PAGE / "switching.js").read_text(encoding="utf-8")
    asked = set(re.findall(r'\bt\("(\w+)"', script))
    asked |= {word for pair in re.findall(r'\bt\(\w[^()]*\? "(\w+)" : "(\w+)"', script)
              for word in pair}  # fmt: skip
    assert {"to_move", "play_move", "pass", "undo", "send_roll", "second_die", "end_turn"} <= asked
    # Words named by a colour or a kind of the view: every colour and kind it gives.
    assert "t(`colour_${" in script and "t(`letter_${" in script and "t(`legend_${" in script
    asked |= {f"colour_{c}" for c in COLOURS + PANELS} | {f"letter_{c}" for c in COLOURS}
    asked |= {f"legend_{kind}" for kind in ("start", "finish", "dead_end")}
    # What the referee at the table waits for (the match's session "awaiting").
    assert "t(`session_${session.awaiting}`" in script
    asked |= {f"session_{awaiting}" for awaiting in ("dice", "dice_or_pass", "move", "confirm")}
    for lang in LANGUAGES:
        missing = asked - set(SHELL[lang]) - set(TEXT[lang])
        assert not missing, (lang, sorted(missing))


def test_the_markups_words_are_there_in_both_languages():
    markup = (PAGE / "table.html").read_text(encoding="utf-8")
    asked = set(re.findall(r"\btext\.(\w+)", markup))
    assert asked
    for lang in LANGUAGES:
        assert asked <= set(SHELL[lang]) | set(TEXT[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_names_things_in_words_never_by_their_codes(lang, tmp_path):
    """Issue 27: everything a person reads of a game a few turns in and at its end (the
    log, the moves, the hand, the ranking, the table's words) names cards, spaces and
    slots in words, with no rule id inside a sentence; the codes stay in the data."""
    views = sample_views("switching", tmp_path, lang)
    last = views[0]["last_move"]  # drawn on the board as arrows: its path keeps the ids
    assert last["steps"] and all(step["path"] and step["text"] for step in last["steps"])
