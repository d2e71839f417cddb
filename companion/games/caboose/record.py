"""`caboose-record/1` (shared/spec/game-record.md): load, validate, save and replay.

A record is the state at the start and the turns that followed; replaying it is folding
`apply` over its turns. Anything wrong with a record comes back as a `RecordError` that names
the turn, the rule and what to do, never as a traceback.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.rules import engine
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.scoring import counted, final_ranking, score
from companion.games.caboose.rules.state import (
    TOOK,
    Action,
    Chaos,
    Event,
    GameState,
    Pass,
    Play,
    RuleError,
)
from companion.games.caboose.turn_log import turn_line
from companion.games.names import first_bad_name
from companion.games.protocol import RecordProblem, Result
from companion.games.records import MAX_DEPTH, TOO_DEEP, depth, parse_document, read_document
from companion.pose import Pose

FORMAT = "caboose-record/1"
MAX_TURNS = 10_000
_TOP_KEYS = {"format", "edition", "variant", "players", "setup", "turns"}
_SETUP_KEYS = {"railway", "caboose", "hands", "draw", "discard"}
_TURN_KEYS = {"pass", "play", "roll", "chaos", "order", "place", "drawn"}


class RecordError(RecordProblem):
    """A record that is malformed or breaks a rule: `turn` is 1-based (0 for the document or
    its setup), `rule` an R- ruling, `hand`, `dice`, `placement` or `record`."""


@dataclass
class Record:
    edition: str
    players: list[str]
    setup: dict[str, Any]
    turns: list[dict[str, Any]] = field(default_factory=list)
    variant: str | None = None

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": FORMAT, "edition": self.edition}
        if self.variant:
            doc["variant"] = self.variant
        doc |= {"players": self.players, "setup": self.setup, "turns": self.turns}
        return doc

    def dumps(self) -> str:
        return json.dumps(self.as_json(), indent=1)


def _fail(
    message: str,
    turn: int = 0,
    rule: str = "record",
    *,
    key: str | None = None,
    params: dict[str, Any] | None = None,
) -> RecordError:
    return RecordError(turn, rule, message, key=key, params=params)


def _codes(value: Any, what: str, turn: int = 0, marks: bool = False) -> list[str]:
    """The card codes of one list; `marks` lets a code end in `!` (do not combine), which
    only the cards going onto a pile (`order`, `chaos`) may."""
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list of card codes", turn)
    for code in value:
        bare = code.removesuffix("!") if marks and isinstance(code, str) else code
        try:
            cards.parse(bare)
        except cards.CardCodeError as error:
            raise _fail(f"{what}: {error}", turn) from None
    return list(value)


def parse(text: str | bytes) -> Record:
    """A record from JSON text, checked for shape (the rules are checked by `replay`)."""
    try:
        return from_json(parse_document(text))
    except RecordError:
        raise
    except RecordProblem as problem:
        raise _fail(problem.message) from None


def _shown(value: Any) -> str:
    """A value quoted in a message, cut short: a message stays one readable line."""
    return reprlib.repr(value)


def from_json(doc: Any) -> Record:
    """A record from a parsed JSON document, checked for shape, from a file or a request."""
    if not isinstance(doc, dict):
        raise _fail("a record is a JSON object", key="record_not_object")
    if depth(doc) > MAX_DEPTH:
        raise _fail(TOO_DEEP)  # before any message could try to quote such a value
    if doc.get("format") != FORMAT:
        raise _fail(
            f"the format must be {FORMAT!r}, not {_shown(doc.get('format'))}",
            key="record_format",
            params={"format": FORMAT, "given": _shown(doc.get("format"))},
        )
    unknown = set(doc) - _TOP_KEYS
    if unknown:
        raise _fail(
            f"unknown fields {sorted(unknown)}: a record has {sorted(_TOP_KEYS)}",
            key="record_unknown_fields",
            params={"fields": ", ".join(sorted(unknown)), "allowed": ", ".join(sorted(_TOP_KEYS))},
        )
    if doc.get("edition") not in EDITIONS:
        raise _fail(
            f"edition must be one of {', '.join(EDITIONS)}, not {_shown(doc.get('edition'))}",
            key="record_edition",
            params={"editions": ", ".join(EDITIONS), "given": _shown(doc.get("edition"))},
        )
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise _fail("players must be a list of names", key="record_players")
    bad = first_bad_name(players)  # a replay writes them to a terminal
    if bad is not None:  # refused as a new game's names are: the game's setup
        message, key, params = bad
        raise _fail(message, rule="setup", key=key, params=params)
    variant = doc.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _fail("variant must be a string", key="record_variant")
    setup = doc.get("setup")
    if not isinstance(setup, dict):
        raise _fail(
            "setup must be an object with railway, caboose, hands, draw", key="record_setup"
        )
    unknown = set(setup) - _SETUP_KEYS
    if unknown:
        raise _fail(f"unknown setup fields {sorted(unknown)}")
    for key in ("railway", "caboose", "hands", "draw"):
        if key not in setup:
            raise _fail(f"setup needs {key!r}")
    _codes(setup["railway"], "setup.railway")
    _codes(setup["draw"], "setup.draw")
    _codes(setup.get("discard", []), "setup.discard")
    if not isinstance(setup["hands"], list):
        raise _fail("setup.hands must be a list with one list of cards per player")
    for index, hand in enumerate(setup["hands"]):
        _codes(hand, f"setup.hands[{index}]")
    caboose = setup["caboose"]
    if isinstance(caboose, bool) or not isinstance(caboose, int):
        raise _fail("setup.caboose must be the index of the caboose's card")
    turns = doc.get("turns", [])
    if not isinstance(turns, list):
        raise _fail("turns must be a list", key="record_turns")
    if len(turns) > MAX_TURNS:
        raise _fail(
            f"a record holds at most {MAX_TURNS} turns",
            key="record_too_long",
            params={"most": MAX_TURNS},
        )
    for number, turn in enumerate(turns, 1):
        to_action(turn, number)  # shape only
    return Record(doc["edition"], players, setup, turns, variant)


def load(path: str | Path) -> Record:
    try:
        return from_json(read_document(path))
    except RecordError:
        raise
    except RecordProblem as problem:
        raise _fail(problem.message) from None


def save(record: Record, path: str | Path) -> None:
    Path(path).write_text(record.dumps() + "\n")


def to_action(turn: Any, number: int) -> Action:
    """The engine action of one record turn; shape errors name the turn."""
    if not isinstance(turn, dict):
        raise _fail('a turn is an object: {"pass": true}, {"play": …} or {"chaos": …}', number)
    unknown = set(turn) - _TURN_KEYS
    if unknown:
        raise _fail(f"unknown fields {sorted(unknown)} in the turn", number)
    kinds = [k for k in ("pass", "play", "chaos") if k in turn]
    if len(kinds) != 1:
        raise _fail("a turn is exactly one of pass, play or chaos", number)
    order = tuple(_codes(turn["order"], "order", number, marks=True)) if "order" in turn else None
    drawn = tuple(_codes(turn.get("drawn", []), "drawn", number))
    if kinds == ["pass"]:
        if turn["pass"] is not True or set(turn) - {"pass", "order", "drawn"}:
            raise _fail('a pass is {"pass": true} (with an optional order or drawn)', number)
        return Pass(order=order, drawn=drawn)
    if kinds == ["chaos"]:
        if set(turn) != {"chaos"}:
            raise _fail("a chaos turn lists only its chaos cards, in order", number)
        return Chaos(tuple(_codes(turn["chaos"], "chaos", number, marks=True)))
    played = tuple(_codes(turn["play"], "play", number))
    roll = turn.get("roll")
    if not isinstance(roll, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) for w in roll
    ):
        raise RecordError(number, "dice", "roll must list the wheels shown by each die")
    place = None
    if "place" in turn:
        if not isinstance(turn["place"], list):
            raise RecordError(number, "placement", "place must be a list of [x, y, rotation]")
        try:
            place = tuple(Pose.from_list(p) for p in turn["place"])
        except (TypeError, ValueError) as error:
            raise RecordError(number, "placement", str(error)) from None
    return Play(played, tuple(roll), order=order, place=place, drawn=drawn)


def to_turn(action: Action, events: Iterable[Event] = ()) -> dict[str, Any]:
    """The record turn of an applied action; cards drawn from a reshuffle are written out."""
    if isinstance(action, Chaos):
        return {"chaos": list(action.cards)}
    turn: dict[str, Any]
    if isinstance(action, Pass):
        turn = {"pass": True}
    else:
        turn = {"play": list(action.cards), "roll": list(action.roll)}
        if action.place is not None:
            turn["place"] = [_rounded(p) for p in action.place]
    if action.order is not None:
        turn["order"] = list(action.order)
    drawn = [e.cards[0] for e in events if e.what == TOOK and e.detail["source"] == "reshuffled"]
    if drawn:
        turn["drawn"] = drawn
    return turn


def _rounded(values: Sequence[float]) -> list[float]:
    return [round(v, 2) if math.isfinite(v) else v for v in values]


def setup_of(state: GameState) -> dict[str, Any]:
    """The `setup` of a record that starts from this state."""
    setup: dict[str, Any] = {
        "railway": list(state.railway),
        "caboose": state.caboose,
        "hands": [list(seat.hand) for seat in state.seats],
        "draw": list(state.draw),
    }
    if state.discard:
        setup["discard"] = list(state.discard)
    return setup


def record_of(state: GameState) -> Record:
    """An empty record (no turns yet) that starts from this state."""
    names = [seat.name for seat in state.seats]
    return Record(state.edition.id, names, setup_of(state), [], state.variant)


def initial_state(record: Record) -> GameState:
    setup = record.setup
    try:
        return engine.start(
            record.edition,
            record.players,
            setup["railway"],
            setup["caboose"],
            setup["hands"],
            setup["draw"],
            setup.get("discard", []),
            record.variant,
        )
    except RuleError as error:
        raise RecordError(0, error.rule, error.message) from None


@dataclass
class Replay:
    """The result of replaying a record: the last good state, one log line per turn, and
    the first fault if any (the turns before it stand)."""

    state: GameState
    lines: list[str]
    error: RecordError | None = None


def replay(record: Record) -> Replay:
    state = initial_state(record)
    lines: list[str] = []
    for number, turn in enumerate(record.turns, 1):
        name = state.player.name
        try:
            action = to_action(turn, number)
            if state.over:
                raise RuleError("R-14", "the game was already over before this turn")
            state, events = engine.apply(state, action)
        except RecordError as error:
            return Replay(state, lines, error)
        except (RuleError, cards.CardCodeError) as error:
            rule = getattr(error, "rule", "hand")
            return Replay(state, lines, RecordError(number, rule, str(error)))
        lines.append(turn_line(number, name, events))
    return Replay(state, lines)


def result(doc: Mapping[str, Any]) -> Result:
    """The game of a record as the table's history keeps it (`Game.result`): each player's
    penalty points (the fewest win) and the winners; `RecordError` for a bad record."""
    replayed = replay(from_json(doc))
    if replayed.error is not None:
        raise replayed.error
    state = replayed.state
    ranking = final_ranking(state) if state.over else None
    won = set(ranking.winners) if ranking is not None else set()
    return Result(
        option=state.edition.id,
        variant=state.variant,
        names=tuple(seat.name for seat in state.seats),
        scores=tuple(score(seat, state.over) for seat in state.seats),
        winners=tuple(i for i, seat in enumerate(state.seats) if seat.name in won),
        over=state.over,
        turns=len(doc.get("turns") or ()),
        fewest_win=True,
    )


def summary(state: GameState, lines: Sequence[str]) -> dict[str, Any]:
    """What `companion replay --json` prints (the spec's object)."""
    players = []
    for seat in state.seats:
        players.append(
            {
                "name": seat.name,
                "hand": list(seat.hand),
                "pile": list(seat.pile),
                "banked": list(seat.banked),
                "score": score(seat, state.over),
                "cards": len(counted(seat, state.over)),
                "derailments": seat.derailments,
            }
        )
    return {
        "edition": state.edition.id,
        **({"variant": state.variant} if state.variant else {}),
        "over": state.over,
        "turn": state.turn,
        "to_move": state.to_move,
        "railway": list(state.railway),
        "caboose": state.caboose,
        "draw": len(state.draw),
        "discard": len(state.discard),
        "players": players,
        "winners": final_ranking(state).winners if state.over else [],
        "log": list(lines),
    }
