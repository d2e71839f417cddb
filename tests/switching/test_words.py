"""The switching-track game's words: the same keys and {parameters} in English and Spanish,
one thing never said as many, every refusal the game and the shared checks can give said in
both languages, and every word the page's script and markup ask for there to be said."""

from __future__ import annotations

import ast
import re
from importlib.resources import files
from pathlib import Path
from string import Formatter

import pytest

from companion.games.protocol import LANGUAGES
from companion.games.switching.words import TEXT, say
from web.words import SHELL

ROOT = Path(__file__).resolve().parents[2]
PAGE = files("companion.games.switching") / "page"
# Where refusals of a switching-track table come from: the game's package, and the shared
# checks of a player's name and a request's fields.
SOURCES = [
    *sorted(
        path
        for path in (ROOT / "companion/games/switching").glob("**/*.py")
        if path.name not in ("view.py", "words.py")  # they say words, they refuse nothing
    ),
    ROOT / "companion/games/names.py",
    ROOT / "companion/games/requests.py",
]
# "1 trains", "1 spaces", "1 casillas": a plural said of one thing.
PLURAL_OF_ONE = re.compile(r"\b1 (\w+s)\b")
COLOURS = ("red", "blue", "yellow", "green")
PANELS = ("purple", "cyan", "orange")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def test_both_languages_have_the_same_words_with_the_same_parameters():
    assert set(TEXT["en"]) == set(TEXT["es"])
    for key in TEXT["en"]:
        if key.startswith("refusal_"):
            continue  # the English is the refusal's own message; Spanish says it anew
        assert fields(TEXT["en"][key]) == fields(TEXT["es"][key]), key
    for key in TEXT["en"]:
        if key.endswith("_one"):
            assert key.removesuffix("_one") in TEXT["en"], key


def test_the_games_words_hide_none_of_the_shells():
    """The page gets the shell's words and the game's in one table: a key in both would
    silently replace the shell's."""
    assert not set(TEXT["en"]) & set(SHELL["en"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_train_one_space_one_tile(lang):
    counted = [key for key, text in TEXT[lang].items() if "{n}" in text]
    assert {"depot", "total", "repair_tiles"} <= set(counted)
    for key in counted:
        template = TEXT[lang].get(f"{key}_one", TEXT[lang][key])
        one = template.format(**{name: 1 if name == "n" else "X" for name in fields(template)})
        assert not PLURAL_OF_ONE.search(one), (key, one)
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


def said_keys() -> set[str]:
    """Every key a refusal or the referee at the table says something with, found in the
    sources' syntax: a rules error `RuleError("S-4", message, "key", ...)`, any call with
    `key="stale"`, `Said("key", ...)`, `Problem("too_dark", ...)`, a name's `NameProblem`
    and `key, params = "no_join", ...`."""
    keys: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                said = {"RuleError": 2, "Said": 0, "problem": 0, "NameProblem": 0}.get(name)
                given = [kw.value for kw in node.keywords if kw.arg == "key"]
                if said is not None and len(node.args) > said:
                    given.append(node.args[said])
                keys |= {v.value for v in given if isinstance(v, ast.Constant)}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
                target = node.targets[0]
                if isinstance(target, ast.Tuple) and getattr(target.elts[0], "id", "") == "key":
                    first = node.value.elts[0]
                    if isinstance(first, ast.Constant):
                        keys.add(first.value)
    return {key for key in keys if isinstance(key, str)}


def test_everything_a_switching_table_refuses_or_says_is_said_in_both_languages():
    """Every key of a refusal of the game's package or the shared checks, and of what the
    referee at the table says, has Spanish words using only its parameters: a refusal as
    `refusal_<key>`, the referee as `session_<key>`."""
    keys = said_keys()
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
    assert {"to_move", "play_move", "pass", "undo", "send_roll", "black_die", "end_turn"} <= asked
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
