"""What the camera must see once a turn is applied: the railway the engine computed, the
penalty cards taken from its back, the caboose on its card. CONFIRM waits for this check,
and what still differs is said to the players (`mismatch`). `alike` is how a seen code and
a known one are compared everywhere the turn at the table matches the camera with the engine.
"""

from __future__ import annotations

from companion.games.caboose import cards
from companion.games.caboose.follow_messages import Message
from companion.games.caboose.rules.penalties import penalty_cards
from companion.games.caboose.rules.state import GameState
from companion.games.caboose.tracker import TableView


def alike(a: str, b: str) -> bool:
    """Two codes for one card, when one of them may not name the shape."""
    return cards.matches(a, b) or cards.matches(b, a)


def mismatch(state: GameState, view: TableView) -> Message | None:
    """What the table still shows otherwise than the engine computed; None when the railway
    and the caboose are as computed."""
    want, seen = state.railway, view.codes
    same = len(want) == len(seen) and all(alike(w, s) for w, s in zip(want, seen, strict=True))
    if not same:
        extra = len(seen) - len(want)
        # the penalty cards still lying at the back of the railway, and what they leave
        left = penalty_cards(seen, extra)[1] if extra > 0 else ()
        if extra > 0 and all(alike(w, s) for w, s in zip(want, left, strict=True)):
            return Message("take_one" if extra == 1 else "take", {"n": extra})
        if not seen:
            return Message("railway_unseen", {"want": " ".join(want)})
        return Message("railway_should", {"want": " ".join(want), "seen": " ".join(seen)})
    if view.caboose != state.caboose:
        where = {"n": state.caboose + 1, "code": want[state.caboose]}
        if view.caboose is None:
            return Message("caboose_unseen", where)
        return Message("caboose_elsewhere", where | {"seen": view.caboose + 1})
    return None
