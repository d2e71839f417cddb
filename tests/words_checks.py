"""The checks every game's words test makes: both languages with the same words and
{parameters}, none hiding the shell's, no plural said of one thing, and every key the
game's sources refuse or say something with found in them (so a test can ask that each
has words in both languages)."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from string import Formatter

from web.words import JOIN, SHELL

ROOT = Path(__file__).resolve().parents[1]

Words = Mapping[str, Mapping[str, str]]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def sources(package: str) -> list[Path]:
    """Where a game's table refuses or says things: its package (but its view and words,
    which say words and refuse nothing, and its advice, whose refusals only the advisor's
    page says, in the shell's words: tests/web/test_advise_api.py), the shared checks
    of a player's name and a request's fields, and the shared skeleton of a match (a stale
    page, the buttons)."""
    return [
        *sorted(
            path
            for path in (ROOT / "companion/games" / package).glob("**/*.py")
            if path.name not in ("view.py", "words.py", "advise.py")
        ),
        ROOT / "companion/games/names.py",
        ROOT / "companion/games/requests.py",
        ROOT / "companion/games/match.py",
    ]


def same_words(text: Words) -> None:
    """English and Spanish have the same keys and each word the same {parameters} (a
    refusal's English is its own message: its Spanish is said anew); a `_one` form has its
    plural."""
    assert set(text["en"]) == set(text["es"])
    for key in text["en"]:
        if not key.startswith("refusal_"):
            assert fields(text["en"][key]) == fields(text["es"][key]), key
        if key.endswith("_one"):
            assert key.removesuffix("_one") in text["en"], key


def hides_none_of_the_shells(text: Words) -> None:
    """The page gets the shell's words and the game's in one table: a key in both would
    silently replace the shell's (its words of joining from a phone included)."""
    assert not set(text["en"]) & (set(SHELL["en"]) | set(JOIN["en"]))


def no_plural_of_one(words: Mapping[str, str], plural_of_one: re.Pattern[str]) -> list[str]:
    """The words counting `{n}`, each said of one thing with no plural (`_one` forms)."""
    counted = [key for key, template in words.items() if "{n}" in template]
    for key in counted:
        template = words.get(f"{key}_one", words[key])
        one = template.format(**{name: 1 if name == "n" else "X" for name in fields(template)})
        assert not plural_of_one.search(one), (key, one)
    return counted


def said_keys(paths: list[Path]) -> set[str]:
    """Every key a refusal or the referee at the table says something with, found in the
    sources' syntax: a rules error `RuleError("S-4", message, "key", ...)`, any call with
    `key="stale"`, `Said("key", ...)`, `Problem("no_table", ...)`, a reader's
    `problem("key")`, a name's `NameProblem` and `key, params = "no_join", ...`."""
    keys: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                said = {"RuleError": 2, "Said": 0, "Problem": 0, "problem": 0,
                        "NameProblem": 0}.get(name)  # fmt: skip
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


# What a person must never read (issue 27): a code of the records or the API instead of
# words. A Caboose card code ("1x", "C2", "1/s"), a railcar card ("R1-B3"), a space of
# the switching board ("o3", "G2"), a slot by its compass id ("NE"), a rule id ("S-6").
CODES = re.compile(
    r"\b[1-4]x\b|\bC[1-4]\b|\b[1-4]/[sc]\b"  # Caboose cards
    r"|\b[A-Z][0-9]+-[A-Z][0-9]+\b"  # railcar cards
    r"|\b[A-Za-z][0-9]\b"  # switching spaces
    r"|\b(?:NE|NW|SE|SW)\b"  # switching slots
    r"|\b[RSY]-[0-9]+\b"  # rule ids
)


def codes_in(text: str) -> list[str]:
    """The codes a sentence shows instead of words."""
    return [found.group() for found in CODES.finditer(text)]


def sentences(doc: object) -> list[str]:
    """Every sentence of a view a person reads: its strings with a space in them, but not
    the data kept beside the words (a message's `params` and English `text`, which the
    API keeps as they were, the session's `said` keys and parameters)."""
    found: list[str] = []
    if isinstance(doc, dict):
        said = "key" in doc and "params" in doc  # a message in JSON: only its `said` is read
        for name, value in doc.items():
            if said and name != "said":
                continue
            found += sentences(value)
    elif isinstance(doc, list):
        for value in doc:
            found += sentences(value)
    elif isinstance(doc, str) and " " in doc:
        found.append(doc)
    return found


def no_codes(doc: object) -> None:
    """Fails naming each sentence of `doc` that shows a code."""
    shown = {text: codes_in(text) for text in sentences(doc)}
    assert not {text: codes for text, codes in shown.items() if codes}


def sample_views(game_id: str, folder: Path, lang: str) -> list[dict]:
    """The page's views of a game the game's bots play (`Game.sample`) in `lang`, a few
    turns in and at its end, each checked to name things in words (`no_codes`), as is the
    mover's hand its phone shows (`GET /api/hand`), kept beside the view as `"shown hand"`
    (None where there is none)."""
    from companion import games
    from companion.store import Store
    from companion.table import Table

    views = []
    for turns in (8, 10_000):
        table = Table(Store(folder / f"{game_id}-{turns}.sqlite3"))
        games.game(game_id).sample(table, turns, "words")
        views.append(table.view(lang) | {"shown hand": table.hand(lang)})
        table.store.close()
    for doc in views:
        no_codes(doc)
    assert views[-1]["over"]
    return views
