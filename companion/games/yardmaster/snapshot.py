"""A game of Yardmaster Express at the table, as the page and the camera are shown it.

The match (match.py) keeps the game as its record: the start and the cards added since. A
`Snapshot` is that at one instant, with what a page needs besides the rules' state: the
additions taken back (the log shows them as corrections) and which of the strategic
variant's two games this is. The view (view.py) draws it; nothing in it changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from companion.games.yardmaster import record, rules
from companion.games.yardmaster.edition import Edition
from companion.games.yardmaster.rules import Add, Yard

# The strategic variant (Y-11), as the start form names it: its first game; the record of
# the second says `record.STRATEGIC_SECOND`.
STRATEGIC = "strategic"


@dataclass(frozen=True)
class Snapshot:
    """The game at one instant. `start` as dealt, `adds` the cards added since in turn
    order; `undone` the additions taken back, each with the turn number it had; `variant`
    None, `STRATEGIC` (the first of two games) or `record.STRATEGIC_SECOND` (the second:
    `start.carried` holds each player's points from the first)."""

    edition: Edition
    start: Yard
    adds: tuple[Add, ...] = ()
    undone: tuple[tuple[int, Add], ...] = ()
    variant: str | None = None

    @cached_property
    def yard(self) -> Yard:
        """The game after every addition (each was checked when it was made)."""
        yard = self.start
        for add in self.adds:
            yard = rules.apply(yard, add)
        return yard

    @property
    def second_game_due(self) -> bool:
        """The first game of the strategic variant has ended: the second may be dealt."""
        return self.variant == STRATEGIC and self.yard.over

    def record(self) -> dict[str, object]:
        """The game so far as its `yardmaster-record/1` document."""
        variant = record.STRATEGIC_SECOND if self.variant == record.STRATEGIC_SECOND else None
        return record.to_json(self.start, self.adds, variant)
