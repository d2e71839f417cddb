"""Yardmaster Express's words: the same keys and {parameters} in English and Spanish, one
thing never said as many, every refusal the game and the shared checks can give said in
both languages, and every word the page's script asks for there to be said."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib.resources import files

import pytest

from companion.games.protocol import LANGUAGES
from companion.games.yardmaster.edition import load
from companion.games.yardmaster.view import caboose
from companion.games.yardmaster.words import TEXT, say
from companion.vision.frame_checks import FRAME_KEYS
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

PAGE = files("companion.games.yardmaster") / "page"
SOURCES = sources("yardmaster")
# "1 points", "1 cards", "quedan 1": a plural said of one thing.
PLURAL_OF_ONE = re.compile(r"\b1 (\w+s)\b|\b(quedan|faltan) 1\b")


def test_both_languages_have_the_same_words_with_the_same_parameters():
    same_words(TEXT)


def test_the_games_words_hide_none_of_the_shells():
    hides_none_of_the_shells(TEXT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_point_one_card_one_round(lang):
    counted = no_plural_of_one(TEXT[lang], PLURAL_OF_ONE)
    assert {"score", "draw_left", "rounds_after", "cond_cargo"} <= set(counted)
    assert say("es", "score", n=1) == "1 punto" and say("es", "score", n=2) == "2 puntos"
    assert say("en", "draw_left", n=1) == "1 card left to draw"


def test_everything_a_yardmaster_table_refuses_or_says_is_said_in_both_languages():
    """Every key of a refusal of the game's package or the shared checks, and of what the
    referee at the table says (the camera's view compared with the game), has Spanish words
    using only its parameters: a refusal as `refusal_<key>`, the referee as `session_<key>`
    (a card the camera saw that breaks a rule is said as its refusal)."""
    keys = set(FRAME_KEYS) | said_keys(SOURCES)  # the shared frame checks say too
    assert {"no_join", "stale", "not_your_turn", "name_too_long", "unknown_fields"} <= keys
    assert {"lay_engines", "train_longer", "take_back", "too_dark"} <= keys
    for lang in LANGUAGES:
        missing = {k for k in keys if f"refusal_{k}" not in TEXT[lang]
                   and f"session_{k}" not in TEXT[lang]}  # fmt: skip
        assert not missing, f"said with no words in {lang}: {sorted(missing)}"
    assert TEXT["en"]["refusal_stale"] == "{message}"  # English: the refusal's own message,
    # but where its message names cards by their codes, said anew with the cards' words
    assert fields(TEXT["en"]["refusal_no_join"]) == {"card", "last"}
    assert fields(TEXT["es"]["refusal_no_join"]) == {"card", "last"}
    assert fields(TEXT["es"]["session_train_longer"]) == {"name", "seen", "game"}


def test_every_word_the_pages_script_asks_for_is_there_in_both_languages():
    script = (PAGE / "yardmaster-express.js").read_text(encoding="utf-8")
    asked = set(re.findall(r'\bt\("(\w+)"', script))
    assert {"hand", "choices", "undo", "next_game", "caboose_met"} <= asked
    # A word named by a way of the view (`way_${way.way}`): every way the view gives.
    assert "t(`way_${way.way}`)" in script
    asked |= {f"way_{way}" for way in ("printed", "turned", "face_down")}
    for lang in LANGUAGES:
        missing = asked - set(SHELL[lang]) - set(TEXT[lang])
        assert not missing, (lang, sorted(missing))


def test_the_markups_words_are_there_in_both_languages():
    markup = (PAGE / "table.html").read_text(encoding="utf-8")
    asked = set(re.findall(r"\btext\.(\w+)", markup))
    for lang in LANGUAGES:
        assert asked <= set(SHELL[lang]) | set(TEXT[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_names_things_in_words_never_by_their_codes(lang, tmp_path):
    """Issue 27: everything a person reads of a game a few turns in and at its end (the
    log, the moves, the hand, the ranking, the table's words) names cards, spaces and
    slots in words, with no rule id inside a sentence; the codes stay in the data."""
    views = sample_views("yardmaster-express", tmp_path, lang)
    hand = views[0]["shown hand"]["hand"]
    assert hand and all(entry["said"] and entry["card"] for entry in hand)  # words, codes
    assert "·" in views[0]["log"][0]["text"]  # "red 1 · blue 3", as the buttons say it


def test_a_railcar_shows_its_colours_initial_in_the_pages_language(tmp_path):
    """Issue 27: a Spanish page marks a blue railcar "Az" (azul), not the card's "B"; the
    card's letter stays in the data (`colour`)."""
    spanish, _ = sample_views("yardmaster-express", tmp_path, "es")
    legend = {c["letter"]: c["initial"] for c in spanish["edition"]["colours"]}
    assert legend == {"R": "R", "B": "Az", "Y": "Am", "G": "V", "P": "M"}
    railcars = [r for p in spanish["players"] for c in p["train"] for r in c.get("railcars", [])]
    assert railcars and all(r["initial"] == legend[r["colour"]] for r in railcars)


def test_every_caboose_card_of_our_edition_is_named_in_each_language():
    """Issue 27: the Spanish page named the caboose card "Express run". Each of our cards
    has its Spanish name; the English page and the record keep the edition's, and a
    family's own card keeps the name they gave it."""
    edition = load()
    spanish = [caboose(edition, card, "es")["name"] for card in edition.cabooses]
    english = [caboose(edition, card, "en")["name"] for card in edition.cabooses]
    assert english == [card.name for card in edition.cabooses]
    assert len(set(spanish)) == len(spanish) and not set(spanish) & set(english)
    theirs = replace(edition.cabooses[0], name="Grandma's rule")
    assert caboose(edition, theirs, "es")["name"] == "Grandma's rule"
