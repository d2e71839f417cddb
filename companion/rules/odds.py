"""`derail_odds`: for every distinct legal play, the exact chance of derailing and the
expected number of penalty cards, computed from the edition's dice faces.

It runs on every change of the table on a Raspberry Pi, so the arithmetic is integer
counting over the equally likely outcomes of the dice (cached per number of dice); the
exact fractions are made only when a caller reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from companion import cards
from companion.rules.edition import Edition
from companion.rules.state import GameState


@dataclass(frozen=True)
class Odds:
    """What a play risks, as counts over the `outcomes` equally likely rolls; the exact
    fractions are made only when asked for (bots compare thousands of plays per second)."""

    cards: tuple[str, ...]
    dice: int
    steps_to_front: int  # how far the caboose can go before it would derail
    outcomes: int  # faces ** dice
    derailing: int  # rolls that derail
    penalty_total: int  # penalty cards summed over every roll
    by_penalty: tuple[int, ...]  # by_penalty[k]: rolls that cost exactly k penalty cards

    @property
    def p_derail(self) -> Fraction:
        return Fraction(self.derailing, self.outcomes)

    @property
    def expected_penalty(self) -> Fraction:
        return Fraction(self.penalty_total, self.outcomes)

    @property
    def penalties(self) -> tuple[Fraction, ...]:
        """penalties[k]: the chance of taking exactly k penalty cards."""
        return tuple(Fraction(n, self.outcomes) for n in self.by_penalty)


@cache
def wheel_counts(faces: tuple[int, ...], dice: int) -> tuple[int, ...]:
    """How many of the len(faces)**dice equally likely rolls show each total of wheels."""
    counts = [1]
    for _ in range(dice):
        nxt = [0] * (len(counts) + max(faces))
        for total, n in enumerate(counts):
            if n:
                for wheels in faces:
                    nxt[total + wheels] += n
        counts = nxt
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return tuple(counts)


def legal_plays(edition: Edition, front: str, hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct legal play from a hand onto this front, by the value rules: one or
    more cards of one value (no chaos cards), never differing by the forbidden gap from the
    front (R-11). Broken tracks are laid last, where the caboose is least likely to reach
    them."""
    groups: dict[int, list[str]] = {}
    for code in hand:
        if not cards.is_chaos(code):
            groups.setdefault(cards.value(code), []).append(code)
    found: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    gap = edition.forbidden_difference
    for v in sorted(groups):
        if gap is not None and abs(v - cards.value(front)) == gap:
            continue
        group = sorted(groups[v], key=lambda c: (cards.is_broken(c), c))
        for size in range(1, len(group) + 1):
            for chosen in combinations(group, size):
                if chosen not in seen:
                    seen.add(chosen)
                    found.append(chosen)
    return found


def play_odds(
    edition: Edition, railway: Sequence[str], caboose: int, played: Sequence[str], behind_extra=0
) -> Odds:
    """The odds of one play. `behind_extra` is how many more penalty cards could be paid
    beyond the railway (Loose Caboose's draw and discard piles)."""
    dice = edition.dice_for(played)
    counts = wheel_counts(edition.die_faces, dice)
    track = list(railway) + list(played)
    room = len(track) - 1 - caboose
    total = len(edition.die_faces) ** dice
    derail = 0
    weighted = 0
    by_cards: dict[int, int] = {}
    broken_seen = 0
    for wheels, n in enumerate(counts):
        if wheels and wheels <= room and cards.is_broken(track[caboose + wheels]):
            broken_seen += 1
        moved = min(wheels, room)
        missing = wheels - moved
        owed = broken_seen + missing
        # Cards behind the caboose where it stops can be taken; Loose Caboose goes on to
        # the draw pile.
        paid = min(owed, caboose + moved + behind_extra)
        if missing:
            derail += n
        weighted += n * paid
        by_cards[paid] = by_cards.get(paid, 0) + n
    top = max(by_cards) if by_cards else 0
    return Odds(
        cards=tuple(played),
        dice=dice,
        steps_to_front=room,
        outcomes=total,
        derailing=derail,
        penalty_total=weighted,
        by_penalty=tuple(by_cards.get(k, 0) for k in range(top + 1)),
    )


def derail_odds(state: GameState, hand: Sequence[str] | None = None) -> list[Odds]:
    """The odds of every distinct legal play for the player to move. `hand` defaults to
    their hand with the card they draw this turn."""
    if hand is None:
        hand = state.player.hand + state.draw[:1]
    edition = state.edition
    after_draw = max(0, len(state.draw) - 1) + len(state.discard)
    extra = after_draw if edition.penalties_from_draw else 0
    return [
        play_odds(edition, state.railway, state.caboose, played, extra)
        for played in legal_plays(edition, state.front, hand)
    ]
