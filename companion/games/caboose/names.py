"""A player's name at the Caboose table: the shared rule (companion/games/names.py), refused
as this game refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.caboose.refusals import TableError
from companion.games.names import first_bad_name


def check_names(names: Sequence[object]) -> None:
    """Every player's name as `name_problem` wants it, or a TableError naming the player."""
    bad = first_bad_name(names)
    if bad is not None:
        message, key, params = bad
        raise TableError("setup", message, key=key, params=params)
