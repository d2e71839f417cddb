"""Scores and the final ranking with every tie-break of the three editions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.caboose import cards

if TYPE_CHECKING:
    from companion.games.caboose.rules.state import GameState, Seat


def counted(seat: Seat, over: bool) -> tuple[str, ...]:
    """The cards that count against a player: pile and banked cards, and the hand once the
    game is over (it joins the pile without cancelling). Laura's pile alone (R-10): she
    never holds a hand, so no card in one can count for her."""
    if seat.laura:
        return seat.pile
    return seat.pile + seat.banked + (seat.hand if over else ())


def score(seat: Seat, over: bool) -> int:
    """Sum of values; Laura (R-10) scores the number of cards on her pile."""
    held = counted(seat, over)
    if seat.laura:
        return len(held)
    return sum(cards.value(code) for code in held)


@dataclass(frozen=True)
class Ranking:
    order: list[int]  # seats, best first
    winners: list[str]
    decided_by: str  # "score", "cards", "4s", "3s", "2s", "1s", "shared", "lost", "solo"


def _key(state: GameState, seat: Seat) -> tuple:
    held = counted(seat, True)
    key: tuple = (score(seat, True), len(held))
    if state.edition.tie_break_by_value:
        values = [cards.value(code) for code in held]
        key += (values.count(4), values.count(3), values.count(2), values.count(1))
    return key


TIE_BREAKS = ("score", "cards", "4s", "3s", "2s", "1s")


def final_ranking(state: GameState) -> Ranking:
    """Lowest score wins; then fewest cards; Rollecate and LOK'n'ROLL then fewest 4s, 3s, 2s
    and 1s; players still level share the victory. A lost hard solo has no winner."""
    keys = {i: _key(state, seat) for i, seat in enumerate(state.seats)}
    order = sorted(keys, key=lambda i: (keys[i], i))
    if state.lost:
        return Ranking(order, [], "lost")
    if len(state.seats) == 1:
        return Ranking(order, [state.seats[0].name], "solo")
    best = keys[order[0]]
    winners = [state.seats[i].name for i in order if keys[i] == best]
    if len(winners) > 1:
        return Ranking(order, winners, "shared")
    runner_up = keys[order[1]]
    decided = next(i for i, (a, b) in enumerate(zip(best, runner_up, strict=False)) if a != b)
    return Ranking(order, winners, TIE_BREAKS[decided])
