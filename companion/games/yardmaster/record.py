"""`yardmaster-record/1` (../shared/spec/yardmaster-record.md, a contract): a game as its
setup and the cards added, read, checked, replayed and written back.

A document is checked for shape first (`from_json`: rule `record`), then replayed through
the rules (`replay`), so a record that breaks a rule names its turn and the Y- ruling, as
`companion replay` prints it: `{"error": {"turn": n, "rule": "Y-5", "message": "…"}}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.names import first_bad_name
from companion.games.protocol import RecordProblem, Result
from companion.games.records import header_problem
from companion.games.yardmaster import cards, edition, rules
from companion.games.yardmaster.rules import Add, RuleError, Yard

FORMAT = "yardmaster-record/1"
STRATEGIC_SECOND = "strategic-2"  # the strategic variant's second game (Y-11)
GAME_ID = "yardmaster-express"
_TOP = {"format", "players", "variant", "caboose", "setup", "turns", "carried"}


@dataclass(frozen=True)
class Record:
    """A record checked for shape: the game at its start and the additions, in order."""

    start: Yard
    adds: tuple[Add, ...]
    variant: str | None = None


def _fail(message: str, turn: int = 0, rule: str = "record") -> RecordProblem:
    return RecordProblem(turn, rule, message)


def _codes(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list of card codes such as 'R3-B2'")
    for code in value:
        try:
            cards.railcars(code)
        except cards.CardCodeError as error:
            raise _fail(f"{what}: {error}") from None
    return tuple(value)


def to_add(turn: Any, number: int) -> Add:
    """One turn's object as an `Add`, checked for shape only."""
    if not isinstance(turn, dict) or "add" not in turn:
        raise _fail('a turn is an object {"add": CODE}, with "turned" or "card"', number)
    unknown = set(turn) - {"add", "turned", "card"}
    if unknown:
        raise _fail(f"unknown turn fields {sorted(unknown)}: use add, turned, card", number)
    turned = turn.get("turned", False)
    if not isinstance(turned, bool):
        raise _fail('"turned" is true or false', number)
    if turn["add"] == cards.FACE_DOWN:
        if turned:
            raise _fail("a card added face down is not turned", number, "Y-4")
        card = turn.get("card")
        what = 'a face-down turn names its card: {"add": "W", "card": CODE}'
    else:
        if "card" in turn:
            raise _fail('"card" goes only with a face-down card, {"add": "W"}', number)
        card = turn["add"]
        what = "add"
    try:
        cards.railcars(card)
    except cards.CardCodeError as error:
        raise _fail(f"{what}: {error}", number) from None
    return Add(card, turned=turned, face_down=turn["add"] == cards.FACE_DOWN)


def from_json(doc: Any) -> Record:
    """A record from a parsed document, checked for shape (the rules: `replay`)."""
    problem = header_problem(doc, FORMAT, _TOP)
    if problem is not None:
        raise _fail(problem)
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise _fail("players must be a list of names, the start player first")
    bad = first_bad_name(players)  # a replay writes them to a terminal, a page shows them
    if bad is not None:
        message, key, params = bad
        raise RecordProblem(0, "setup", message, key=key, params=params)  # as a new game's
    variant = doc.get("variant")
    if variant not in (None, STRATEGIC_SECOND):
        raise _fail(f"variant must be null or {STRATEGIC_SECOND!r}")
    carried = doc.get("carried")
    if variant == STRATEGIC_SECOND:
        if not isinstance(carried, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in carried
        ):
            raise _fail("the second game's record has carried: the first game's points", 0, "Y-11")
    elif carried is not None:
        raise _fail("carried belongs only to the strategic variant's second game", 0, "Y-11")
    setup = doc.get("setup")
    if not isinstance(setup, dict) or set(setup) != {"hand", "draw"}:
        raise _fail("setup must be an object with hand and draw")
    hand, draw = _codes(setup["hand"], "setup.hand"), _codes(setup["draw"], "setup.draw")
    # Y-13: a record's cards may have colours the edition file lacks; its caboose may name them
    seen = {colour for card in (*hand, *draw) for colour in cards.colours_of(card)}
    colours = {*edition.load().colours, *seen}
    try:
        caboose = None if doc.get("caboose") is None else edition.caboose(doc["caboose"], colours)
    except ValueError as error:
        raise _fail(str(error), 0, "Y-12") from None
    turns = doc.get("turns")
    if not isinstance(turns, list):
        raise _fail("turns must be a list")
    adds = tuple(to_add(turn, number) for number, turn in enumerate(turns, 1))
    try:
        start = rules.start(players, hand, draw, caboose, carried)
    except RuleError as error:
        raise _fail(error.message, 0, error.rule) from None
    return Record(start, adds, variant)


def replay(record: Record) -> Yard:
    """The game after every turn; RecordProblem naming the first turn that breaks a rule."""
    yard = record.start
    for number, add in enumerate(record.adds, 1):
        try:
            yard = rules.apply(yard, add)
        except RuleError as error:
            raise _fail(error.message, number, error.rule) from None
    return yard


def turn_json(add: Add) -> dict[str, Any]:
    """One addition as a record's turn."""
    if add.face_down:
        return {"add": cards.FACE_DOWN, "card": add.card}
    return {"add": add.card, "turned": True} if add.turned else {"add": add.card}


def to_json(start: Yard, adds: Sequence[Add], variant: str | None = None) -> dict[str, Any]:
    """The record of a game from its start and its additions."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "players": list(start.players),
        "variant": variant,
        "caboose": start.caboose.as_json() if start.caboose else None,
        "setup": {"hand": list(start.hand), "draw": list(start.draw)},
        "turns": [turn_json(add) for add in adds],
    }
    if variant == STRATEGIC_SECOND:
        doc["carried"] = list(start.carried)
    return doc


def result(doc: Mapping[str, Any]) -> Result:
    """The game of a record as the table's history keeps it (`Game.result`): each player's
    points and the winners. Its variant is what the record says: a caboose card in play, and
    the strategic variant's second game (its first game's record is a plain game's)."""
    played = from_json(doc)
    yard = replay(played)
    won = set(rules.ranking(yard)[0]) if yard.over else set()
    strategic = played.variant == STRATEGIC_SECOND
    with_caboose = played.start.caboose is not None
    variant = {
        (False, False): None,
        (True, False): "caboose",
        (False, True): "strategic",
        (True, True): "strategic-caboose",
    }[with_caboose, strategic]
    return Result(
        option=edition.load().id,
        variant=variant,
        names=tuple(played.start.players),
        scores=tuple(s.score for s in rules.score(yard)),
        winners=tuple(i for i, name in enumerate(played.start.players) if name in won),
        over=yard.over,
        turns=len(played.adds),
    )


def summary(yard: Yard) -> dict[str, Any]:
    """What `companion replay FILE --json` prints (the spec's object)."""
    scores = rules.score(yard)
    winners, decided_by = rules.ranking(yard) if yard.over else ([], None)
    mover = yard.to_move
    return {
        "game": GAME_ID,
        "over": yard.over,
        "round": yard.round,
        "rounds": yard.rounds,
        "to_move": None if mover is None else yard.players[mover],
        "longest_run": max(s.longest_run for s in scores),
        "players": [
            {
                "name": s.name,
                "train": list(s.train),
                "train_value": s.train_value,
                "longest_run": s.longest_run,
                "run_bonus": s.run_bonus,
                "caboose_bonus": s.caboose_bonus,
                "carried": s.carried,
                "score": s.score,
            }
            for s in scores
        ],
        "winners": winners,
        "decided_by": decided_by,
    }


def replay_json(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A document replayed to the spec's object; RecordProblem for a bad record."""
    return summary(replay(from_json(doc)))
