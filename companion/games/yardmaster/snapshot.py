"""A game of Yardmaster Express at the table, as the page and the camera are shown it.

The match (match.py) keeps the game as its record: the start and the cards added since. A
`Snapshot` is that at one instant, with what a page needs besides the rules' state: the
additions taken back (the log shows them as corrections) and which of the strategic
variant's two games this is. The view (view.py) draws it; nothing in it changes.

At a real table the deck is shuffled by hand: nobody knows the start player's hand or the
draw, and a card added face down is never seen. Such a game is `provisional`: its deal is
the one `provisional_start` makes from the cards seen added, in which every one of them was
in the hand when it was added (Y-6 holds by construction), so the companion still checks
whose turn it is, that a face-up card joins (Y-5), that no card is added twice and when the
game ends, and its record replays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.games.yardmaster import record, rules
from companion.games.yardmaster.edition import Caboose, Edition
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
    provisional: bool = False  # a real table's deal: the hand and the draw are not known

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


def provisional_start(
    edition: Edition,
    players: Sequence[str],
    laid: Sequence[Add | None],
    caboose: Caboose | None = None,
    carried: Sequence[int] | None = None,
) -> tuple[Yard, tuple[Add, ...]]:
    """A deal and its additions that explain the cards seen added at a real table, in turn
    order (`players` as they sit, the start player first). `laid` holds each addition as
    seen; None for a card added face down that nobody named, which is given a card of the
    deck not seen anywhere. The deck in order is the cards added, then the rest of the
    edition's deck: the start player's hand is its first cards, the draw the others, so at
    every turn the card added was in the hand (it held the next `len(players)` cards)."""
    named = {add.card for add in laid if add is not None}
    unseen = iter(c for c in edition.deck_for(len(players)) if c not in named)
    adds = tuple(add if add is not None else Add(next(unseen), face_down=True) for add in laid)
    order = [add.card for add in adds] + list(unseen)
    n = len(players)
    return rules.start(players, order[:n], order[n:], caboose, carried), adds
