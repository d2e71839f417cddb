"""The railway's order from back to front: cards whose rail ends touch join into chains,
the longest chain is the railway, and its back is the end nearer where the back card was
last seen. The rules count everything from the back (the caboose's card, the penalty
cards taken), so the order is what the session compares with the engine's railway; and
which card of it a point (the caboose token) lies on, `card_under`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from companion.games.caboose import cards
from companion.games.caboose.rules import geometry
from companion.games.caboose.vision.observation import SeenCard
from companion.pose import Pose
from companion.vision.table import lies_on

_JOIN_MM = 12.0  # two rail ends this close are joined


def railway_order(
    seen: Sequence[SeenCard],
    card_mm: tuple[float, float],
    back: tuple[float, float] | None,
    apart: tuple[float, float, float, float] | None = None,
) -> tuple[int, ...]:
    """The longest chain of cards joined rail end to rail end, back to front; of chains as
    long, the one nearest `back` (a railway of one card beside a card shown in the zone)."""
    track = [
        i
        for i, card in enumerate(seen)
        if not cards.is_chaos(card.code) and not _inside(card.pose, apart)
    ]
    ends = {i: geometry.rail_ends(seen[i].code, seen[i].pose, card_mm) for i in track}
    links: dict[int, set[int]] = {i: set() for i in track}
    for n, i in enumerate(track):
        for j in track[n + 1 :]:
            if any(math.dist(a, b) < _JOIN_MM for a in ends[i] for b in ends[j]):
                links[i].add(j)
                links[j].add(i)
    best: list[int] = []
    done: set[int] = set()

    def off_back(chain: list[int]) -> float:
        if back is None:
            return 0.0
        return min(math.dist(back, (seen[i].pose.x, seen[i].pose.y)) for i in chain)

    for start in track:
        if start in done:
            continue
        component = _component(start, links)
        done |= component
        chain = _chain(component, links)
        if len(chain) > len(best) or (
            best and len(chain) == len(best) and off_back(chain) < off_back(best)
        ):
            best = chain
    if len(best) > 1:
        first, last = seen[best[0]].pose, seen[best[-1]].pose
        if back is not None:
            turn = math.dist(back, (last.x, last.y)) < math.dist(back, (first.x, first.y))
        else:
            turn = (last.y, last.x) < (first.y, first.x)
        if turn:
            best.reverse()
    return tuple(best)


def _inside(pose: Pose, region: tuple[float, float, float, float] | None) -> bool:
    if region is None:
        return False
    left, top, right, bottom = region
    return left <= pose.x <= right and top <= pose.y <= bottom


def _component(start: int, links: dict[int, set[int]]) -> set[int]:
    found, todo = {start}, [start]
    while todo:
        for other in links[todo.pop()]:
            if other not in found:
                found.add(other)
                todo.append(other)
    return found


def _chain(component: set[int], links: dict[int, set[int]]) -> list[int]:
    """The longest simple path through a component (a railway is a path; a stray card
    touching it must not break the order)."""
    ends = [i for i in component if len(links[i] & component) <= 1] or sorted(component)
    best: list[int] = []

    def walk(path: list[int]) -> None:
        nonlocal best
        if len(path) > len(best):
            best = list(path)
        for nxt in sorted(links[path[-1]]):
            if nxt not in path and len(best) < len(component):
                path.append(nxt)
                walk(path)
                path.pop()

    for start in sorted(ends):
        walk([start])
    return best


def card_under(
    point: tuple[float, float],
    seen: Sequence[SeenCard],
    railway: Sequence[int],
    card_mm: tuple[float, float],
) -> int | None:
    """Where in `railway` (0: its back card) the card under `point` (mm) lies; None when
    the point is on none of its cards."""
    for position, index in enumerate(railway):
        if lies_on(seen[index].pose, card_mm, point):
            return position
    return None
