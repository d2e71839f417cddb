"""Putting a turn's penalty cards onto a pile: the exact best order of docs/RULINGS.md R-7.

Rollecate and LOK'n'ROLL let the player put the cards taken this turn onto the pile in any
order, combining a card with an equal top card when they like. The engine proposes the order
that leaves the fewest points; among equal ones the fewest cards; among those the pile whose
values, read from the top down, are largest (a high card on top is the better target later).

Taking the best local step is not enough (see the tests for a pile where combining at once
loses), so this searches every order. Only values matter to the outcome, so the search runs
over the multiset of values left, and the pile as a stack of values; both are small.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from companion.games.caboose import cards

NO_COMBINE = "!"


def place(
    pile: Sequence[str], codes: Sequence[str]
) -> tuple[tuple[str, ...], list[tuple[str, str | None]]]:
    """Put `codes` onto `pile` one by one as given; a code ending in `!` never combines, any
    other combines with an equal top card. Returns the new pile and, for each card in order,
    the top card it combined with or None (R-1: a card that combined is gone and is never the
    top card again)."""
    stack = list(pile)
    steps: list[tuple[str, str | None]] = []
    for code in codes:
        keep = code.endswith(NO_COMBINE)
        card = code[:-1] if keep else code
        if not keep and stack and cards.value(stack[-1]) == cards.value(card):
            steps.append((card, stack.pop()))
        else:
            stack.append(card)
            steps.append((card, None))
    return tuple(stack), steps


def pile_key(values: Sequence[int]) -> tuple:
    """R-7's preference as a sort key: smaller is better."""
    return (sum(values), len(values), tuple(-v for v in reversed(values)))


def best_order(pile: Sequence[str], taken: Sequence[str]) -> tuple[str, ...]:
    """The R-7 order of `taken` onto `pile`, as codes for `place` (`!` where an equal top
    card is deliberately not combined with)."""
    if not taken:
        return ()
    # Each card taken cancels at most one card of the pile, so only its top len(taken)
    # cards can change. The cards below add the same sum and count to every outcome and
    # end every top-first value tuple alike; outcomes of equal sum and count have equally
    # long tops, so they compare as their tops do: searching the top alone chooses the
    # same steps, and marking the order looks at no card below it either (each step takes
    # at most one card off). So the order depends on the top and the cards taken alone,
    # and is worked out once for each.
    reachable = pile[-len(taken) :] if len(pile) > len(taken) else pile
    return _best_order_onto(tuple(reachable), tuple(taken))


@lru_cache(maxsize=1 << 14)
def _best_order_onto(reachable: tuple[str, ...], taken: tuple[str, ...]) -> tuple[str, ...]:
    """`best_order` onto a pile whose top, all that the cards taken can reach, is
    `reachable`."""
    counts = [0, 0, 0, 0]
    for code in taken:
        counts[cards.value(code) - 1] += 1
    top_values = tuple(cards.value(code) for code in reachable)
    steps = _search(tuple(counts), top_values)[1]
    by_value: dict[int, list[str]] = {}
    for code in taken:
        by_value.setdefault(cards.value(code), []).append(code)
    order = []
    for v, combine in steps:
        code = by_value[v].pop(0)
        # Only mark `!` where the top card really is equal: `place` reads the marks.
        order.append(code if combine else code + NO_COMBINE)
    return _strip_needless_marks(reachable, tuple(order))


def _strip_needless_marks(pile: Sequence[str], order: tuple[str, ...]) -> tuple[str, ...]:
    stack = [cards.value(code) for code in pile]
    out = []
    for code in order:
        keep = code.endswith(NO_COMBINE)
        v = cards.value(code.rstrip(NO_COMBINE))
        equal_top = bool(stack) and stack[-1] == v
        if equal_top and not keep:
            stack.pop()
        else:
            stack.append(v)
        out.append(code if equal_top else code.rstrip(NO_COMBINE))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _search(counts: tuple[int, ...], stack: tuple[int, ...]) -> tuple[tuple, tuple]:
    """(best key, steps) from this point; steps are (value, combine) pairs.

    With r cards left to place, only the top r cards of `stack` can change, and (as in
    `best_order`) the cards below them cannot change which steps are best: each option's
    steps are searched from the top r - 1 cards of its stack alone, then that option's
    outcome is replayed on this call's whole `stack`, so the options compare as before.
    The search then visits tops of at most r cards instead of every stack placing could
    build, and a long pile of penalties stays cheap."""
    if not any(counts):
        return pile_key(stack), ()
    left = sum(counts) - 1
    best: tuple[tuple, tuple] | None = None
    for index, n in enumerate(counts):
        if not n:
            continue
        v = index + 1
        rest = (*counts[:index], n - 1, *counts[index + 1 :])
        options = [(False, (*stack, v))]
        if stack and stack[-1] == v:
            options.insert(0, (True, stack[:-1]))
        for combine, after in options:
            if left:
                steps = _search(rest, after[-left:] if len(after) > left else after)[1]
                key = pile_key(_replay(after, steps))
            else:
                steps, key = (), pile_key(after)
            if best is None or key < best[0]:
                best = (key, ((v, combine), *steps))
    assert best is not None
    return best


def _replay(stack: tuple[int, ...], steps: tuple) -> list[int]:
    """The stack of values after `steps`."""
    values = list(stack)
    for v, combine in steps:
        if combine:
            values.pop()
        else:
            values.append(v)
    return values
