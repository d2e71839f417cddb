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
from functools import cache, lru_cache
from itertools import combinations

from companion.games.caboose import cards
from companion.games.caboose.rules.edition import Edition
from companion.games.caboose.rules.engine import gap_forbids
from companion.games.caboose.rules.penalties import (
    beyond_the_railway,
    broken_offsets,
    caboose_run,
    penalties_paid,
)
from companion.games.caboose.rules.state import GameState


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
    them. The plays depend only on the cards held, not on their order in the hand, so
    they are worked out once per hand (bots ask on every turn)."""
    held = tuple(sorted(hand))
    return list(plays_of_held(edition.forbidden_difference, cards.value(front), held))


@lru_cache(maxsize=1 << 14)
def plays_of_held(
    gap: int | None, front: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    """`legal_plays` onto a front of value `front`, with the edition's forbidden gap, from
    a sorted `hand`: by what the plays depend on alone, so that callers can cache by it."""
    groups: dict[int, list[str]] = {}
    for code in hand:
        if not cards.is_chaos(code):
            groups.setdefault(cards.value(code), []).append(code)
    found: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for v in sorted(groups):
        if gap_forbids(gap, v, front):
            continue
        group = sorted(groups[v], key=lambda c: (cards.is_broken(c), c))
        for size in range(1, len(group) + 1):
            for chosen in combinations(group, size):
                if chosen not in seen:
                    seen.add(chosen)
                    found.append(chosen)
    return tuple(found)


@lru_cache(maxsize=8192)
def _outcome_counts(
    faces: tuple[int, ...], dice: int, room: int, broken: tuple[int, ...], behind: int, beyond: int
) -> tuple[int, int, tuple[int, ...]]:
    """(derailing rolls, penalty cards summed over the rolls, rolls by penalty cards) of
    `dice` dice with `room` steps to the front, broken tracks `broken` steps ahead, `behind`
    cards behind the caboose and `beyond` past the railway to pay with (penalties.py)."""
    counts = wheel_counts(faces, dice)
    derail = 0
    weighted = 0
    by_cards: dict[int, int] = {}
    for wheels, n in enumerate(counts):
        moved, reached, missing = caboose_run(room, broken, wheels)
        paid = sum(penalties_paid(len(reached) + missing, behind + moved, beyond))
        if missing:
            derail += n
        weighted += n * paid
        by_cards[paid] = by_cards.get(paid, 0) + n
    top = max(by_cards) if by_cards else 0
    return derail, weighted, tuple(by_cards.get(k, 0) for k in range(top + 1))


def _counts_for(
    edition: Edition,
    railway_len: int,
    ahead: tuple[int, ...],
    caboose: int,
    played: Sequence[str],
    beyond: int,
) -> tuple[int, int, int, tuple[int, int, tuple[int, ...]]]:
    """(dice, room, outcomes, `_outcome_counts`) of a play onto a railway of
    `railway_len` cards whose broken tracks lie `ahead` (`broken_offsets`)."""
    dice = edition.dice_for(played)
    faces = edition.die_faces
    reach = dice * max(faces)  # no roll goes further
    room = railway_len + len(played) - 1 - caboose
    first = railway_len - caboose  # steps to the first played card
    own = _broken_in(tuple(played))
    broken = (
        tuple(step for step in ahead if step <= reach)
        + tuple(first + i for i in own if first + i <= reach)
        if ahead or own
        else ()  # most plays: no broken track within reach, no generator to make
    )
    # More cards to pay with than any roll can owe change nothing: clamp them, so the cache
    # is shared.
    most = reach + len(broken)
    counts = _outcome_counts(faces, dice, room, broken, min(caboose, most), min(beyond, most))
    return dice, room, len(faces) ** dice, counts


@lru_cache(maxsize=4096)
def _broken_in(played: tuple[str, ...]) -> tuple[int, ...]:
    """Where the broken tracks of a play lie in it, first card 0: asked for every play."""
    return tuple(i for i, code in enumerate(played) if cards.kind(code) == cards.BROKEN)


def play_odds(
    edition: Edition, railway: Sequence[str], caboose: int, played: Sequence[str], beyond=0
) -> Odds:
    """The odds of one play. `beyond` is how many more penalty cards could be paid beyond
    the railway (`penalties.beyond_the_railway`: Loose Caboose's draw and discard piles)."""
    ahead = broken_offsets(railway, caboose)
    dice, room, total, (derail, weighted, by_penalty) = _counts_for(
        edition, len(railway), ahead, caboose, played, beyond
    )
    return Odds(
        cards=tuple(played),
        dice=dice,
        steps_to_front=room,
        outcomes=total,
        derailing=derail,
        penalty_total=weighted,
        by_penalty=by_penalty,
    )


def expected_penalties(
    edition: Edition,
    railway: Sequence[str],
    caboose: int,
    plays: Sequence[Sequence[str]],
    beyond: int = 0,
) -> list[float]:
    """`play_odds(...).penalty_total / outcomes` of each play, without building the odds:
    what a bot weighs for every legal play on every turn."""
    ahead = broken_offsets(railway, caboose)
    found = []
    for played in plays:
        _, _, total, counts = _counts_for(edition, len(railway), ahead, caboose, played, beyond)
        found.append(counts[1] / total)
    return found


def derail_odds(state: GameState, hand: Sequence[str] | None = None) -> list[Odds]:
    """The odds of every distinct legal play for the player to move. `hand` defaults to
    their hand with the card they draw this turn."""
    if hand is None:
        hand = state.player.hand + state.draw[:1]
    edition = state.edition
    beyond = beyond_this_turn(state)
    return [
        play_odds(edition, state.railway, state.caboose, played, beyond)
        for played in legal_plays(edition, state.front, hand)
    ]


def beyond_this_turn(state: GameState) -> int:
    """The cards past the railway that may pay the penalties of the turn to come
    (`penalties.beyond_the_railway`): the draw pile after the card drawn this turn, and the
    discard pile."""
    return beyond_the_railway(state.edition, max(0, len(state.draw) - 1), len(state.discard))
