"""A player's name: the one rule wherever a name enters a table, whatever the game (a new
game, a record imported or watched, a request's names), so that nobody can be named by
nothing and every game's export can be imported again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_NAME = 200  # characters in a player's name: a name, not a document
# Letters that draw nothing although Unicode calls them letters or symbols (Hangul fillers,
# the blank Braille pattern): a name of these alone is as invisible as one of spaces.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


@dataclass(frozen=True)
class NameProblem:
    """What is wrong with a name: `text`, the English that follows "player 2's name", and
    `key`/`params`, the same as a kind for a page's other language (`refusal_<key>`, whose
    words name the player themselves: `params` gains the player's number where it is
    refused, `first_bad_name`)."""

    key: str
    text: str
    params: dict[str, Any] = field(default_factory=dict)


def name_problem(name: object) -> NameProblem | None:
    """What is wrong with a player's name, or None. One rule wherever a name enters (a new
    game, a record imported, watched or replayed): text, at most MAX_NAME characters, no
    control characters, and at least one letter, digit, punctuation mark or symbol that
    shows, so that spaces, zero-width spaces or direction marks alone cannot name a player
    nobody can see, and every game's export can be imported again."""
    if not isinstance(name, str):
        return NameProblem("name_not_text", "must be a text")
    if any(unicodedata.category(c) == "Cs" for c in name):
        # JSON can escape half of a character ("\ud800"); no terminal or file can write it
        return NameProblem(
            "name_not_text", "must be a text: it holds half of a character (a lone surrogate)"
        )
    if len(name) > MAX_NAME:
        return NameProblem(
            "name_too_long",
            f"is {len(name)} characters long: a name has at most {MAX_NAME}",
            {"length": len(name), "most": MAX_NAME},
        )
    if any(unicodedata.category(c) == "Cc" for c in name):
        return NameProblem(
            "name_control",
            "holds a control character (a line break, a tab…): type the name on one line",
        )
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name):
        return NameProblem(
            "name_invisible",
            "shows nothing (only spaces or invisible characters): type a name people can read",
        )
    return None


def first_bad_name(names: Sequence[object]) -> tuple[str, str, dict[str, Any]] | None:
    """The first player whose name breaks the rule, as every refusal of it says it: the
    English ("player 2's name is …"), the key and its parameters (the player's number
    among them); None when every name will do."""
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            params = {"player": seat + 1, **problem.params}
            return f"player {seat + 1}'s name {problem.text}", problem.key, params
    return None
