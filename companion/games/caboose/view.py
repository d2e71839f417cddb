"""What the page shows, computed from the game at one instant (`Snapshot`): plain JSON.

The page only draws; everything a player would otherwise work out in their head (dice to
roll, the odds, where the caboose went, which cards each player takes, the discard order
and what it cancels, the ranking) is computed here from the engine's own functions and
the turn's events, so the page, the API and the tests all see the same numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.record import to_action
from companion.games.caboose.rules import discard, geometry
from companion.games.caboose.rules.engine import laura_action
from companion.games.caboose.rules.odds import Odds, beyond_this_turn, derail_odds, play_odds
from companion.games.caboose.rules.scoring import counted, final_ranking, score
from companion.games.caboose.rules.state import (
    BANKED,
    BROKEN_TRACK,
    CANCELLED,
    DERAILED,
    FORGIVEN,
    MOVED,
    PILED,
    PLAYED,
    RESHUFFLED,
    TOOK,
    Chaos,
    Event,
    GameState,
    Pass,
    Play,
)
from companion.games.caboose.snapshot import Snapshot
from companion.games.caboose.turn_log import turn_line
from companion.games.caboose.words import camera_words, session_words

# Beyond this many penalty cards in one turn the alternative orders are too many to list.
MAX_ORDER_CARDS = 6
# The page lists at most this many other piles to choose from, the best ones (a phone screen).
MAX_ORDER_OPTIONS = 8
# A schematic railway (poses unknown) is drawn in rows of this many cards.
SCHEMATIC_ROW = 8


def card(code: str) -> dict[str, Any]:
    value, kind, shape = cards.parse(code)
    return {"code": code, "value": value, "kind": kind, "shape": shape}


def fraction_json(p: Fraction) -> dict[str, Any]:
    return {"num": p.numerator, "den": p.denominator, "percent": round(float(p) * 100, 1)}


def odds_json(odds: Odds) -> dict[str, Any]:
    return {
        "cards": list(odds.cards),
        "dice": odds.dice,
        "steps_to_front": odds.steps_to_front,
        "p_derail": fraction_json(odds.p_derail),
        "expected_penalty": round(float(odds.expected_penalty), 2),
        "penalties": [fraction_json(p) for p in odds.penalties],
    }


def _layout_known(state: GameState) -> bool:
    return bool(state.layout) and all(pose is not None for pose in state.layout)


def _schematic(count: int) -> list[list[float]]:
    """Poses for a railway whose real poses are unknown: rows that snake back and forth."""
    poses = []
    for index in range(count):
        row, col = divmod(index, SCHEMATIC_ROW)
        if row % 2:
            col = SCHEMATIC_ROW - 1 - col
        poses.append([col * 80.0, row * 120.0, 0.0])
    return poses


def railway(state: GameState) -> dict[str, Any]:
    known = _layout_known(state)
    poses = (
        [pose.as_list() for pose in state.layout if pose is not None]
        if known
        else _schematic(len(state.railway))
    )
    return {
        "cards": [
            card(code) | {"pose": pose} for code, pose in zip(state.railway, poses, strict=True)
        ],
        "caboose": state.caboose,
        "schematic": not known,
        "size": list(state.edition.card_mm),
    }


def placements(state: GameState, played: Sequence[str]) -> list[list[list[float]]] | None:
    """Ways to lay a play on the table: one option per legal pose of its first card, the
    other cards following at their first legal pose. None when the poses are unknown (any
    play fits then); empty when the play fits nowhere."""
    if not _layout_known(state):
        return None
    options = []
    for first in geometry.legal_placements(state.edition, state.railway, state.layout, played[0]):
        chain = [first] + geometry.extend(
            state.edition, [*state.railway, played[0]], [*state.layout, first], played[1:]
        )
        if len(chain) == len(played):
            options.append([pose.as_list() for pose in chain])
    return options


def choices(state: GameState, provisional: bool = False) -> dict[str, Any]:
    """What every page may know of the move to come: the die's faces, whether the deal is
    a real table's (`provisional`: the companion does not know the hands), and Laura's
    action (the companion plays her). The mover's hand and its plays' odds are not here:
    the view goes to every phone and the screen beside the table, so they come from `hand`,
    for the mover's phone alone."""
    doc: dict[str, Any] = {
        "faces": sorted(set(state.edition.die_faces)),
        "provisional": provisional,
    }
    if state.player.laura and not provisional:
        doc["laura"] = _action_json(laura_action(state))
    return doc


def hand(snap: Snapshot, seat: int | None = None) -> dict[str, Any] | None:
    """The hidden hand of `seat` (None: the player to move), for that player's phone alone
    (`GET /api/hand`, behind the PIN, or the seat's own phone): on its turn with the card
    drawn this turn and the odds of every play it makes (`movers_hand`); between its turns
    the cards it holds, no play (the railway will change before it plays: `waiting`). None
    when the companion holds no hand to show: a real table's deal (the hands are the
    players' own), Laura's seat (she plays herself), no such seat, the game over."""
    state = snap.state
    if seat is None or seat == state.to_move:
        if snap.provisional or state.over or state.player.laura:
            return None
        return movers_hand(state)
    if snap.provisional or state.over or not 0 <= seat < len(state.seats):
        return None
    player = state.seats[seat]
    if player.laura:
        return None
    return {
        "seat": seat,
        "name": player.name,
        "turn": state.turn,
        "hand": [card(c) for c in player.hand],
        "plays": [],
        "chaos": [code for code in player.hand if cards.is_chaos(code)],
        "waiting": True,
    }


def movers_hand(state: GameState) -> dict[str, Any]:
    """`hand` of a game in play whose hand the companion holds: the mover's cards and the
    odds and placements of every play they make."""
    held = state.player.hand + state.draw[:1]
    plays = []
    for odds in derail_odds(state, held):
        entry = odds_json(odds)
        entry["placements"] = placements(state, odds.cards)
        plays.append(entry)
    return {
        "seat": state.to_move,
        "name": state.player.name,
        "turn": state.turn,
        "hand": [card(c) for c in held],
        "plays": plays,
        "chaos": [code for code in held if cards.is_chaos(code)],
    }


def _action_json(action: Pass | Play | Chaos) -> dict[str, Any]:
    if isinstance(action, Pass):
        return {"kind": "pass"}
    if isinstance(action, Chaos):
        return {"kind": "chaos", "cards": list(action.cards)}
    doc: dict[str, Any] = {"kind": "play", "cards": list(action.cards), "roll": []}
    if action.place:
        doc["place"] = [pose.as_list() for pose in action.place]
    return doc


def staged(snap: Snapshot) -> dict[str, Any] | None:
    if snap.staged is None:
        return None
    state = snap.state
    odds = play_odds(
        state.edition, state.railway, state.caboose, snap.staged.cards, beyond_this_turn(state)
    )
    return {
        "seat": snap.staged.seat,
        "cards": list(snap.staged.cards),
        "dice": snap.staged.dice,
        "place": [p.as_list() for p in snap.staged.place] if snap.staged.place else None,
        "odds": odds_json(odds),
    }


def order_options(
    pile: Sequence[str], taken: Sequence[str], used: Sequence[str]
) -> list[dict[str, Any]]:
    """Every distinct pile the turn's penalty cards can leave, best first (R-7's key), each
    with one order that gives it, in the codes `Match.correct` takes (`!`: not combined).
    The pile the players have now is shown with the order they used, marked `chosen`."""
    found: dict[tuple[int, ...], tuple[str, ...]] = {}
    now = tuple(cards.value(c) for c in discard.place(pile, used)[0])
    found[now] = tuple(used)

    def walk(stack: tuple[str, ...], left: tuple[str, ...], order: tuple[str, ...]) -> None:
        if not left:
            values = tuple(cards.value(c) for c in stack)
            found.setdefault(values, order)
            return
        tried = set()
        for index, code in enumerate(left):
            if cards.value(code) in tried:
                continue
            tried.add(cards.value(code))
            rest = left[:index] + left[index + 1 :]
            if stack and cards.value(stack[-1]) == cards.value(code):
                walk(stack[:-1], rest, (*order, code))
                walk((*stack, code), rest, (*order, code + discard.NO_COMBINE))
            else:
                walk((*stack, code), rest, (*order, code))

    walk(tuple(pile), tuple(taken), ())
    options = []
    for values, order in sorted(found.items(), key=lambda item: discard.pile_key(item[0])):
        result, steps = discard.place(pile, order)
        options.append(
            {
                "order": list(order),
                "pile": list(result),
                "points": sum(values),
                "cancels": [[a, b] for a, b in steps if b is not None],
                "chosen": values == now,
            }
        )
    return [o for i, o in enumerate(options) if i < MAX_ORDER_OPTIONS or o["chosen"]]


def last_turn(snap: Snapshot) -> dict[str, Any] | None:
    """The turn just played, said in full: the dice, the caboose, the penalty cards with
    where each came from and why, and (Rollecate, LOK'n'ROLL) the discard order."""
    if not snap.events:
        return None
    events = snap.events[-1]
    number = len(snap.events)
    turn = snap.record.turns[-1]
    seat = events[0].seat if events else -1
    before = snap.before
    doc: dict[str, Any] = {
        "number": number,
        "seat": seat,
        "name": snap.state.seats[seat].name,
        "kind": "pass" if "pass" in turn else "chaos" if "chaos" in turn else "play",
        "played": [],
        "roll": turn.get("roll"),
        "moved": None,
        "derailed": 0,
        "broken": [],
        "took": [],
        "banked": [],
        "piled": [],
        "cancelled": [],
        "reshuffled": False,
        "forgiven": 0,
        "order": None,
        "order_options": [],
    }
    pile_steps: list[Event] = []
    for event in events:
        what = event.what
        if what == PLAYED:
            doc["played"] = list(event.cards)
        elif what == MOVED:
            doc["moved"] = {"from": event.detail["from"], "to": event.detail["to"]}
        elif what == DERAILED:
            doc["derailed"] = event.number
        elif what == BROKEN_TRACK:
            doc["broken"].append(event.cards[0])
        elif what == TOOK:
            doc["took"].append(
                {
                    "card": event.cards[0],
                    "source": event.detail["source"],
                    "cause": event.detail["cause"],
                }
            )
        elif what == BANKED:
            doc["banked"].append(event.cards[0])
        elif what in (PILED, CANCELLED):
            pile_steps.append(event)
            if what == PILED:
                doc["piled"].append(event.cards[0])
            else:
                doc["cancelled"].append(list(event.cards))
        elif what == RESHUFFLED:
            doc["reshuffled"] = True
        elif what == FORGIVEN:
            doc["forgiven"] = event.number
    state = before or snap.state
    combine_at_end = not state.edition.cancel_at_once and not state.seats[seat].laura
    taken = [t["card"] for t in doc["took"]]
    if before is not None and combine_at_end and taken and doc["kind"] != "chaos":
        pile = before.seats[seat].pile
        doc["order"] = _used_order(pile, pile_steps)
        if len(taken) <= MAX_ORDER_CARDS:
            doc["order_options"] = order_options(pile, taken, doc["order"])
    return doc


def _used_order(pile: Sequence[str], steps: Sequence[Event]) -> list[str]:
    """The order the cards went onto the pile, as codes (`!` where a card could have
    combined with an equal top card but did not)."""
    stack = [cards.value(c) for c in pile]
    order = []
    for event in steps:
        code = event.cards[0]
        v = cards.value(code)
        if event.what == CANCELLED:
            stack.pop()
            order.append(code)
        else:
            order.append(code + discard.NO_COMBINE if stack and stack[-1] == v else code)
            stack.append(v)
    return order


def players(state: GameState, awaited: Sequence[int] = ()) -> list[dict[str, Any]]:
    """Every seat's pile, score and, once the game is over, hand. `awaited`: seats whose
    hand a real table has not shown yet (a provisional deal only guesses it): no hand, and
    a score without it."""
    return [
        {
            "seat": index,
            "name": seat.name,
            "laura": seat.laura,
            "hand_size": len(seat.hand),
            "hand": list(seat.hand) if state.over and index not in awaited else None,
            "pile": list(seat.pile),
            "banked": list(seat.banked),
            "score": score(seat, state.over and index not in awaited),
            "cards": len(counted(seat, state.over and index not in awaited)),
            "derailments": seat.derailments,
            "to_move": index == state.to_move and not state.over,
        }
        for index, seat in enumerate(state.seats)
    ]


def _awaited(snap: Snapshot) -> list[int]:
    """Seats whose hand at the end a provisional deal still waits to be shown."""
    if snap.to_show is None or snap.to_show[0] != "hand":
        return []
    return [
        index
        for index, seat in enumerate(snap.state.seats)
        if seat.hand and index not in snap.hands_shown
    ]


def ranking(state: GameState) -> dict[str, Any] | None:
    if not state.over:
        return None
    result = final_ranking(state)
    rows = []
    for place, index in enumerate(result.order, 1):
        seat = state.seats[index]
        held = counted(seat, True)
        rows.append(
            {
                "place": place,
                "name": seat.name,
                "score": score(seat, True),
                "cards": len(held),
                "by_value": {
                    str(v): sum(1 for c in held if cards.value(c) == v) for v in (4, 3, 2, 1)
                },
            }
        )
    return {"rows": rows, "winners": result.winners, "decided_by": result.decided_by}


def log(snap: Snapshot, lang: str) -> list[dict[str, Any]]:
    """The log newest first, each turn said in `lang`; a correction stands right after the
    turn it corrected, so the story reads in order."""
    by_turn: dict[int, list[str]] = {}
    for note in snap.notes:
        number = re.match(r"turn (\d+):", note)
        by_turn.setdefault(int(number[1]) if number else len(snap.events), []).append(note)
    entries: list[dict[str, Any]] = []
    for number, events in enumerate(snap.events, 1):
        name = snap.state.seats[events[0].seat].name if events else "?"
        entries.append({"turn": number, "text": turn_line(number, name, events, lang)})
        entries += [
            {"turn": number, "text": note, "correction": True} for note in by_turn.get(number, [])
        ]
    entries.reverse()
    return entries


def undo_state(snap: Snapshot) -> dict[str, Any]:
    """Whether undo would do something, so the page greys the button out instead of failing
    (the table's own limit, `refusals.undo_refusal`: `rule` "roll" after a roll)."""
    refusal = snap.undo_refusal
    if refusal is None:
        return {"possible": True}
    return {"possible": False, "rule": "roll" if refusal.key == "undo_roll" else "undo"}


def build(snap: Snapshot, lang: str = "en", *, light: bool = False) -> dict[str, Any]:
    """The whole page's data. `light` leaves out the choices (a replay being watched)."""
    state = snap.state
    awaited = _awaited(snap)
    doc: dict[str, Any] = {
        "version": 0,  # the table's count of changes: it says its own on every view
        "game": snap.id,
        "edition": {"id": state.edition.id, "name": state.edition.name},
        "variant": state.variant,
        "over": state.over,
        "lost": state.lost,
        "turn": state.turn,
        "to_move": state.to_move,
        "draw": len(state.draw),
        "discard": len(state.discard),
        "railway": railway(state),
        "players": players(state, awaited),
        "last": last_turn(snap),
        "ranking": None if awaited else ranking(state),
        "log": log(snap, lang),
        "staged": None,
        "choices": None,
        "undo": undo_state(snap),
        "to_show": _to_show(snap),
    }
    if not light and not state.over:
        doc["staged"] = staged(snap)
        doc["choices"] = choices(state, snap.provisional)
    return doc


def session(status: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """The turn at the table (`Following.status`) with its words in `lang`: it keeps
    what it and the camera say as keys and parameters (`said`), and speaks English itself."""
    if status is None:
        return None
    said = status["said"]
    doc = status | {
        "message": session_words(said["message"], lang),
        "problem": session_words(said["problem"], lang),
        "mismatch": session_words(said["mismatch"], lang),
        "camera": [camera_words(problem, lang) for problem in said["camera"]],
    }
    if status["question"] is not None:
        doc["question"] = status["question"] | {"prompt": session_words(said["prompt"], lang)}
    return doc


def _to_show(snap: Snapshot) -> dict[str, Any] | None:
    """What a provisional deal waits to be shown (in the camera's zone or on the page):
    `taken`, the cards the last turn took from the draw pile, or `hand`, at the end."""
    if snap.to_show is None:
        return None
    what, seat, count = snap.to_show
    return {"what": what, "seat": seat, "name": snap.state.seats[seat].name, "count": count}


def last_action(snap: Snapshot) -> Pass | Play | Chaos:
    """The last turn as an engine action, to correct it (a new roll or discard order)."""
    return to_action(snap.record.turns[-1], len(snap.record.turns))
