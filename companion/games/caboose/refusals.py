"""Why the Caboose table says no: `TableError`, and the two checks its readers make before
acting (the undo limit, `undo_refusal`; a command meant for another last turn,
`check_turn`). They live apart from the match so that what a page shows (`snapshot.py`)
and where a name enters (`names.py`) refuse alike without importing the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.protocol import Refusal

# Rules that say "not now" rather than "not allowed": the table's state is in the way (the
# page answers 409 rather than 422).
CONFLICTS = frozenset({"turn", "game", "undo", "correct", "R-14", "session", "stale"})


class TableError(Refusal):
    """A command the Caboose table cannot take (not this player's turn, nothing to undo…):
    nothing was changed. `rule` names the rule when one is broken, as RuleError does, so
    every caller reports both alike; whether it is a conflict follows from the rule unless
    said."""

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        conflict: bool | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        if conflict is None:
            conflict = rule in CONFLICTS
        super().__init__(rule, message, conflict=conflict, key=key, params=params, **extra)


def undo_refusal(turns: Sequence[dict[str, Any]], staged: bool) -> TableError | None:
    """Why an undo would be refused, or None: the one place the undo limit is decided (the
    page's UNDO, the held CONFIRM and the view's greyed button all ask here). Staged cards
    (`staged`: some are laid at the front, not yet rolled for) can always be taken back; a
    turn can, unless it rolled dice, because a roll once seen is not undone (a mistyped
    roll is corrected instead)."""
    if staged:
        return None
    if not turns:
        return TableError(
            "undo", "there is nothing to undo: no turn has been played", key="undo_nothing"
        )
    if "roll" in turns[-1]:
        return TableError(
            "undo",
            "a dice roll once seen is not undone; if it was entered wrongly, "
            "correct the roll instead",
            key="undo_roll",
        )
    return None


def check_turn(played: int, turn: int | None) -> None:
    """Refuse a command meant for another last turn than the table's, `played` turns in
    (None: whatever the table's last turn is)."""
    if turn is None or turn == played:
        return
    now = f"the last turn is now turn {played}" if played else "no turn has been played now"
    raise TableError(
        "stale",
        f"this was meant for turn {turn}, but {now}: nothing was changed; "
        "look at the table again and retry if it is still wanted",
        key="stale" if played else "stale_none",
        params={"turn": turn, "played": played},
    )
