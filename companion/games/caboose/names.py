"""A player's name: the one rule wherever a name enters the Caboose table (a new game, a
record imported or watched, a request's names), so that nobody can be named by nothing
and every game's export can be imported again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from companion.games.caboose.refusals import TableError

MAX_NAME = 200  # characters in a player's name: a name, not a document
# Letters that draw nothing although Unicode calls them letters or symbols (Hangul fillers,
# the blank Braille pattern): a name of these alone is as invisible as one of spaces.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


def name_problem(name: object) -> str | None:
    """What is wrong with a player's name, or None. One rule wherever a name enters (a new
    game, a record imported or watched): at most MAX_NAME characters, no control
    characters, and at least one letter, digit, punctuation mark or symbol that shows, so
    that spaces, zero-width spaces or direction marks alone cannot name a player nobody
    can see, and every game's export can be imported again."""
    if not isinstance(name, str):
        return "must be a text"
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long: a name has at most {MAX_NAME}"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "holds a control character (a line break, a tab…): type the name on one line"
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name):
        return "shows nothing (only spaces or invisible characters): type a name people can read"
    return None


def check_names(names: Sequence[object]) -> None:
    """Every player's name as `name_problem` wants it, or a TableError naming the player."""
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            raise TableError("setup", f"player {seat + 1}'s name {problem}")
