"""What a move of the caboose costs in penalty cards, each rule once: how far it runs and
what it owes (R-4, R-5), how the cards owed are paid (R-2, R-3) and which cards of the
railway pay them. The engine takes a turn's cards by these; the odds count them over every
roll of the dice, the advice names them and the table check expects them gone.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.caboose import cards
from companion.games.caboose.rules.edition import Edition


def broken_offsets(railway: Sequence[str], caboose: int) -> tuple[int, ...]:
    """How many steps ahead of the caboose each broken track of the railway lies."""
    return tuple(
        [step for step, code in enumerate(railway[caboose + 1 :], 1) if cards.is_broken(code)]
    )


def caboose_run(room: int, broken: Sequence[int], steps: int) -> tuple[int, tuple[int, ...], int]:
    """The caboose `room` steps from the front card, broken tracks `broken` steps ahead
    (`broken_offsets`), moved `steps`: (the steps it takes, the broken tracks it reaches,
    each costing a card (R-4), and the steps it could not take, the cards a derailment
    costs (R-5); none when the move may not derail, as a pass)."""
    moved = min(steps, room)
    reached = tuple(step for step in broken if step <= moved) if broken else ()
    return moved, reached, steps - moved


def penalties_paid(owed: int, behind: int, beyond: int = 0) -> tuple[int, int]:
    """How `owed` penalty cards are paid: (the cards taken from the railway, one by one from
    its back, while any of the `behind` cards behind the caboose are left: never its own
    card (R-2); the cards taken beyond it, at most `beyond`, `beyond_the_railway` (R-3)).
    What is left owed is not taken: Loose Caboose forgives it, the others stop."""
    from_railway = min(owed, behind)
    return from_railway, min(owed - from_railway, beyond)


def beyond_the_railway(edition: Edition, draw: int, discard: int) -> int:
    """How many cards past the railway can pay penalty cards (R-3): in Loose Caboose the
    `draw` pile's, then the `discard` pile's shuffled into a new draw pile; none in the
    others, whose penalties stop at the caboose's card."""
    return draw + discard if edition.penalties_from_draw else 0


def penalty_cards(railway: Sequence[str], count: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`count` penalty cards taken from the railway (R-2): (the cards taken, back card first;
    the railway left, back to front)."""
    return tuple(railway[:count]), tuple(railway[count:])
