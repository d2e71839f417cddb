"""A deal the companion cannot know, fixed card by card as the table shows it.

At a real table the deck is shuffled by hand: the companion does not know the hands or the
draw pile. It plays on a provisional deal (a deal of the edition's deck) and, each time a
card shows itself where the provisional deal has another one (a card laid from a hand, a
hand shown at the end, the first railway), it exchanges the two cards in the deal. Both
are cards nobody has seen, so every turn played so far replays exactly as before; that is
checked by replaying, not assumed. The record of the game is then a deal consistent with
everything the table showed, which is all a referee can know, and it replays like any
other record.

Which physical card of the deal became which card in a hand is not traced: equal codes
are interchangeable, so the search tries exchanges of two slots of the deal, nearest
candidates first, and keeps the first whose replay is unchanged and shows the card where
it was seen. A replay is under a millisecond per twenty turns here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from copy import deepcopy
from dataclasses import replace
from typing import Any

from companion.games.caboose.record import Record, RecordError, initial_state, to_action
from companion.games.caboose.rules import engine
from companion.games.caboose.rules.state import DREW, TOOK, Event, GameState, RuleError

Slot = tuple[str, int, int]  # ("hands", seat, index) or ("draw", 0, index) or ("railway", 0, k)


class DealError(ValueError):
    """No card nobody has seen can be the card the table shows: the camera or the players
    misread it, or the box holds other cards than the edition's data says. `key` and
    `params` say the same as a kind and its parameters, for a page's other language (as
    `RuleError`'s do)."""

    def __init__(
        self, message: str, *, key: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})


def replay(record: Record) -> tuple[GameState, list[tuple[Event, ...]]]:
    """The final state of a record and what each turn showed the table. Cards drawn are
    left out of what was shown: a drawn card goes to a hand unseen."""
    state = initial_state(record)
    shown = []
    for number, turn in enumerate(record.turns, 1):
        try:
            state, events = engine.apply(state, to_action(turn, number))
        except RuleError as error:
            raise RecordError(number, error.rule, error.message) from None
        shown.append(tuple(event for event in events if event.what != DREW))
    return state, shown


def hold(
    record: Record,
    seat: int,
    codes: Sequence[str],
    *,
    drawing: bool,
    keep: Mapping[int, Sequence[str]] | None = None,
) -> Record:
    """`record`, its deal changed only in cards nobody has seen, so that player `seat`
    holds every card of `codes` after its turns (with the card they draw next, when
    `drawing`: a player lays cards from their hand and the card just drawn). Hands already
    shown (`keep`, by seat) stay as they are. Raises `DealError` when no exchange can."""
    keep = dict(keep or {})

    def holds(state: GameState, wanted: Counter[str]) -> bool:
        have = Counter(_hand(state, seat, drawing))
        if any(have[code] < n for code, n in wanted.items()):
            return False
        return all(
            not Counter(kept) - Counter(state.seats[other].hand) for other, kept in keep.items()
        )

    state, shown = replay(record)
    wanted: Counter[str] = Counter()
    for code in codes:
        wanted[code] += 1
        if holds(state, wanted):
            continue
        held = Counter(_hand(state, seat, drawing))
        record, state = _exchange(
            record,
            code,
            lambda slot_code, held=held: held[slot_code] > wanted[slot_code],
            lambda new, new_shown, wanted=Counter(wanted): (
                new_shown == shown and holds(new, wanted)
            ),
            _slot_order(record, seat),
            fixed=[slot for slot in _slots(record) if slot[0] == "railway"],  # in plain view
        )
    return record


def lay_railway(record: Record, railway: Sequence[str]) -> Record:
    """`record` (no turn played yet), its deal changed so that its first railway is
    `railway`, card for card from the back: the cards dealt to the table before play."""
    if record.turns:
        raise DealError(
            "the first railway is fixed once a turn has been played", key="deal_railway_fixed"
        )
    if len(railway) != len(record.setup["railway"]):
        dealt = len(record.setup["railway"])
        raise DealError(
            f"the table shows {len(railway)} railway cards, the deal has {dealt}",
            key="deal_railway_count",
            params={"shown": len(railway), "dealt": dealt},
        )
    for index, code in enumerate(railway):
        if record.setup["railway"][index] == code:
            continue
        slot = ("railway", 0, index)
        record, _ = _exchange(
            record,
            code,
            None,
            lambda state, _, index=index, code=code: state.railway[index] == code,
            [slot],
            fixed=[("railway", 0, k) for k in range(index)],
        )
    return record


def take(record: Record, codes: Sequence[str]) -> Record:
    """`record`, its deal changed only in cards nobody has seen, so that its last turn
    took `codes` from the draw pile as penalty cards (Loose Caboose, when the railway behind
    the caboose runs out): the cards the player shows of what they took."""
    if not record.turns:
        raise DealError("no turn has been played: nothing was taken", key="deal_nothing_taken")
    _, shown = replay(record)
    before = shown[:-1]

    def drawn(events: tuple[Event, ...]) -> list[str]:
        return [e.cards[0] for e in events if e.what == TOOK and e.detail.get("source") == "draw"]

    taken = len(drawn(shown[-1]))
    if taken != len(codes):
        raise DealError(
            f"the last turn took {taken} cards from the draw pile, not {len(codes)}",
            key="deal_taken_count",
            params={"taken": taken, "shown": len(codes)},
        )
    draw_slots = [("draw", 0, index) for index in range(len(record.setup["draw"]))]
    for count in range(1, len(codes) + 1):
        if drawn(replay(record)[1][-1])[:count] == list(codes[:count]):
            continue
        record, _ = _exchange(
            record,
            codes[count - 1],
            None,
            lambda _, new_shown, count=count: (
                new_shown[:-1] == before and drawn(new_shown[-1])[:count] == list(codes[:count])
            ),
            draw_slots,
            fixed=[slot for slot in _slots(record) if slot[0] == "railway"],
        )
    return record


def _exchange(
    record: Record,
    code: str,
    giving: Callable[[str], bool] | None,
    check: Callable[[GameState, list[tuple[Event, ...]]], bool],
    targets: Sequence[Slot],
    fixed: Sequence[Slot] = (),
) -> tuple[Record, GameState]:
    """The first exchange of a slot of `targets` whose card `giving` allows (any when
    None) with a slot holding `code` elsewhere in the deal, after whose replay `check`
    (given the final state and what each turn showed) holds."""
    slots = list(_slots(record))
    sources = [slot for slot in reversed(slots) if _get(record, slot) == code]
    for target in targets:
        if target in fixed or _get(record, target) == code:
            continue
        if giving is not None and not giving(_get(record, target)):
            continue
        for source in sources:
            if source == target or source in fixed:
                continue
            trial = _swapped(record, target, source)
            try:
                state, trial_shown = replay(trial)
            except RecordError:
                continue
            if check(state, trial_shown):
                return trial, state
    raise DealError(
        f"no card nobody has seen can be {code}: every {code} of the deck is accounted for. "
        "Check the card (the camera may have misread it) or the edition's card list",
        key="deal_unseen",
        params={"code": code},
    )


def _hand(state: GameState, seat: int, drawing: bool) -> tuple[str, ...]:
    hand = state.seats[seat].hand
    return hand + state.draw[:1] if drawing else hand


def _slots(record: Record) -> Iterator[Slot]:
    setup = record.setup
    for index in range(len(setup["railway"])):
        yield ("railway", 0, index)
    for seat, hand in enumerate(setup["hands"]):
        for index in range(len(hand)):
            yield ("hands", seat, index)
    for index in range(len(setup["draw"])):
        yield ("draw", 0, index)


def _slot_order(record: Record, seat: int) -> list[Slot]:
    """Where a card now in `seat`'s hand most likely came from: their own first hand, then
    the draw pile from the top (the cards drawn so far)."""
    own = [("hands", seat, index) for index in range(len(record.setup["hands"][seat]))]
    return own + [("draw", 0, index) for index in range(len(record.setup["draw"]))]


def _get(record: Record, slot: Slot) -> str:
    where, seat, index = slot
    if where == "hands":
        return record.setup["hands"][seat][index]
    return record.setup[where][index]


def _swapped(record: Record, a: Slot, b: Slot) -> Record:
    setup = deepcopy(record.setup)
    trial = replace(record, setup=setup)
    first, second = _get(record, a), _get(record, b)
    for slot, code in ((a, second), (b, first)):
        where, seat, index = slot
        if where == "hands":
            setup["hands"][seat][index] = code
        else:
            setup[where][index] = code
    return trial
