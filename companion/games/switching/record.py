"""`switching-record/1` (docs/switching-record.md, a contract): a game of the switching-track
game as its board, players, variant, setup and turns, read, checked, replayed and written.

A document is checked for shape first (`from_json`: rule `record`, or `board` for its
embedded board), then replayed through the rules (`replay`), so a record that breaks a
rule names its turn and the S- ruling, as `companion replay` prints it:
`{"error": {"turn": n, "rule": "S-9", "message": "…"}}`.

The record carries its board itself, not a name or a hash of one: a record must replay
years later on exactly the board it was played on, and a family's own board is in no
package at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.names import first_bad_name
from companion.games.protocol import RecordProblem, Result
from companion.games.records import header_problem
from companion.games.switching import board as boards
from companion.games.switching import rules
from companion.games.switching.board import Board, BoardError
from companion.games.switching.rules import (
    Action,
    Event,
    Move,
    Moved,
    Pass,
    Position,
    Roll,
    RuleError,
    Stop,
)

FORMAT = "switching-record/1"
GAME_ID = "switching"
UPRIGHT, TURNED = "upright", "turned"  # which way a panel lies at setup (S-5)
_TOP = {"format", "board", "players", "variant", "setup", "turns"}
_MOVES = ("move", "enter", "pass")  # a turn has exactly one of these
_TURN = {"colour", "repair", "dice", "reroll", *_MOVES}


@dataclass(frozen=True)
class Turn:
    """One entry of `turns`: the action and what the record says beside it, which replay
    checks against the rules: `enter` (a new train entered at a free Start, not a train
    moved) and `reroll` (the re-roll after doubles)."""

    action: Action
    enter: bool = False
    reroll: bool = False


@dataclass(frozen=True)
class Record:
    """A record checked for shape: the game at its start (its board, the players' colours,
    the variant, the panels' setup), the players' names in the same order, and the turns."""

    start: Position
    names: tuple[str, ...]
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Replayed:
    """A record played through: the position after every turn, each turn's events and
    whose turn it was (a colour)."""

    end: Position
    events: tuple[tuple[Event, ...], ...]
    movers: tuple[str, ...]


def variant_id(variant: rules.Variant) -> str:
    """The id a record (and the start form) names a variant by: a key of `rules.VARIANTS`."""
    return next(key for key, known in rules.VARIANTS.items() if known == variant)


def _fail(message: str, turn: int = 0, rule: str = "record") -> RecordProblem:
    return RecordProblem(turn, rule, message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _roll(entry: dict[str, Any], number: int) -> tuple[Roll, str | None]:
    """The dice of one turn and the repair tile played instead of the colour die, if any;
    their values are the rules' to check (S-3, S-20), their shape is the record's."""
    dice = entry.get("dice")
    if not isinstance(dice, list) or len(dice) != 2 or not all(_is_int(d) for d in dice):
        raise _fail('"dice" is the two number dice, [white, black], such as [3, 4]', number)
    if ("colour" in entry) == ("repair" in entry):
        raise _fail(
            'a turn names the colour die ("colour": "cyan") or the panel a repair tile slid '
            '("repair": "cyan"), not both and not neither',
            number,
        )
    key = "colour" if "colour" in entry else "repair"
    if not isinstance(entry[key], str):
        raise _fail(f'"{key}" is a panel colour, such as "cyan"', number)
    if key == "colour":
        return Roll(entry["colour"], dice[0], dice[1]), None
    return Roll(None, dice[0], dice[1]), entry["repair"]


def to_turn(entry: Any, number: int) -> Turn:
    """One entry of `turns` as a `Turn`, checked for shape only (the rules: `replay`)."""
    shape = (
        'a turn is {"colour": C, "dice": [W, B]} or {"repair": P, "dice": [W, B]} with one of '
        '"move": SPACE, "enter": START, "pass": true (and "reroll": true after doubles), '
        'or {"stop": true}'
    )
    if not isinstance(entry, dict):
        raise _fail(shape, number)
    if "stop" in entry:
        if entry != {"stop": True}:
            raise _fail('declining the re-roll after doubles is {"stop": true}, alone', number)
        return Turn(Stop())
    unknown = set(entry) - _TURN
    if unknown:
        raise _fail(f"unknown turn fields {sorted(unknown)}: {shape}", number)
    reroll = entry.get("reroll", False)
    if reroll is not True and "reroll" in entry:
        raise _fail('"reroll" is true (the re-roll after doubles) or left out', number)
    said = [key for key in _MOVES if key in entry]
    if len(said) != 1:
        raise _fail(f"a turn has exactly one of move, enter, pass: {shape}", number)
    roll, repair = _roll(entry, number)
    how = said[0]
    if how == "pass":
        if entry["pass"] is not True:
            raise _fail('a turn lost is "pass": true', number)
        return Turn(Pass(roll, repair), reroll=reroll)
    space = entry[how]
    if not isinstance(space, str) or not space:
        raise _fail(f'"{how}" is a space of the board, such as "A3"', number)
    return Turn(Move(roll, space, repair), enter=how == "enter", reroll=reroll)


def _players(value: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players' names and colours, in turn order."""
    shape = 'players is a list of {"name": NAME, "colour": COLOUR}, the first player first'
    if not isinstance(value, list) or not all(
        isinstance(p, dict) and set(p) == {"name", "colour"} for p in value
    ):
        raise _fail(shape)
    names = tuple(p["name"] for p in value)
    bad = first_bad_name(names)
    if bad is not None:
        raise _fail(bad[0])
    if len(set(names)) != len(names):
        raise _fail("two players have the same name: give each their own")
    colours = tuple(p["colour"] for p in value)
    if not all(isinstance(c, str) for c in colours):
        raise _fail(shape)
    return names, colours


def _setup(value: Any, board: Board) -> tuple[str, ...]:
    """S-5: every panel starts in its home slot, upright or turned; the panels turned."""
    panels = [p.colour for p in board.panels]
    example = ", ".join(f'"{p}": "{UPRIGHT}"' for p in panels)
    if not isinstance(value, dict) or set(value) != set(panels):
        raise _fail(f"setup says which way each panel lies: {{{example}}}", 0, "S-5")
    if not all(way in (UPRIGHT, TURNED) for way in value.values()):
        raise _fail(f'a panel lies "{UPRIGHT}" or "{TURNED}" at setup', 0, "S-5")
    return tuple(p for p in panels if value[p] == TURNED)


def from_json(doc: Any) -> Record:
    """A record from a parsed document, checked for shape and setup (the turns: `replay`)."""
    problem = header_problem(doc, FORMAT, _TOP)
    if problem is not None:
        raise _fail(problem)
    try:
        board = boards.parse(doc.get("board"), "the record's board")
    except BoardError as error:
        raise _fail(f"the record's board: {error}", 0, "board") from None
    names, colours = _players(doc.get("players"))
    variant = doc.get("variant")
    if not isinstance(variant, str) or variant not in rules.VARIANTS:
        raise _fail(f"variant is one of {', '.join(rules.VARIANTS)}", 0, "S-21")
    turned = _setup(doc.get("setup"), board)
    turns = doc.get("turns")
    if not isinstance(turns, list):
        raise _fail("turns must be a list")
    checked = tuple(to_turn(entry, number) for number, entry in enumerate(turns, 1))
    try:
        start = rules.deal(board, colours, rules.VARIANTS[variant], turned)
    except RuleError as error:
        raise _fail(error.message, 0, error.rule) from None
    return Record(start, names, checked)


def _check_reroll(position: Position, turn: Turn, number: int, names: Sequence[str]) -> None:
    """S-16: a turn says it is the re-roll after doubles exactly when it is one."""
    if isinstance(turn.action, Stop):
        return  # the rules refuse a stop with no re-roll to decline
    name = names[position.turn]
    if turn.reroll and position.reroll is None:
        raise _fail(
            f'the turn says "reroll": true but {name} has no re-roll: only a move with '
            "doubles gives one",
            number,
            "S-16",
        )
    if not turn.reroll and position.reroll is not None:
        raise _fail(
            f'{name} rolled doubles: this turn is their re-roll (say "reroll": true), or '
            'the record says {"stop": true} before it',
            number,
            "S-16",
        )


def _check_enter(position: Position, turn: Turn, number: int) -> None:
    """S-15: "enter" is a new train at a free Start; a train on a Start blocks it, whoever's
    it is (a slide never moves a train off a Start: Starts are on the fixed tracks)."""
    if not (turn.enter and isinstance(turn.action, Move)):
        return
    space = turn.action.train
    train = position.train_at(space)
    if train is not None:
        raise _fail(
            f"{train.owner}'s train stands on {space}: a train enters only at a free Start "
            f'(a train of the mover\'s own standing there is moved: "move": "{space}")',
            number,
            "S-15",
        )


def _check_moved(turn: Turn, events: Sequence[Event], number: int) -> None:
    """S-9: "move" names a train standing on the space; one entered there is "enter"."""
    if not isinstance(turn.action, Move) or turn.enter:
        return
    if next(e for e in events if isinstance(e, Moved)).entered:
        raise _fail(
            f"no train stands on {turn.action.train}: a new train entered there is written "
            f'"enter": "{turn.action.train}"',
            number,
            "S-9",
        )


def replay(record: Record) -> Replayed:
    """The game after every turn; RecordProblem naming the first turn that breaks a rule."""
    position = record.start
    said: list[tuple[Event, ...]] = []
    movers: list[str] = []
    for number, turn in enumerate(record.turns, 1):
        _check_reroll(position, turn, number, record.names)
        _check_enter(position, turn, number)
        movers.append(position.players[position.turn])
        try:
            position, events = rules.apply(position, turn.action)
        except RuleError as error:
            raise _fail(error.message, number, error.rule) from None
        _check_moved(turn, events, number)
        said.append(events)
    return Replayed(position, tuple(said), tuple(movers))


def turn_json(action: Action, events: Sequence[Event], reroll: bool) -> dict[str, Any]:
    """One action as a record's turn; `events` are what `rules.apply` said of it (they
    tell a train entered from one moved), `reroll` whether it was the re-roll after
    doubles."""
    if isinstance(action, Stop):
        return {"stop": True}
    roll = action.roll
    entry: dict[str, Any] = (
        {"colour": roll.colour} if action.repair is None else {"repair": action.repair}
    )
    entry["dice"] = [roll.white, roll.black]
    if isinstance(action, Pass):
        entry["pass"] = True
    else:
        entered = any(isinstance(e, Moved) and e.entered for e in events)
        entry["enter" if entered else "move"] = action.train
    if reroll:
        entry["reroll"] = True
    return entry


def to_json(
    start: Position, names: Sequence[str], played: Sequence[tuple[Action, Sequence[Event]]]
) -> dict[str, Any]:
    """The record of a game from its start, the players' names (in `start.players`' order)
    and each action with the events `rules.apply` said of it; the board goes in whole."""
    variant = variant_id(start.variant)
    turns = []
    pending = False  # the action before this one left a re-roll after doubles
    for action, events in played:
        turns.append(turn_json(action, events, pending and not isinstance(action, Stop)))
        pending = any(isinstance(e, rules.MayRollAgain) for e in events)
    return {
        "format": FORMAT,
        "board": start.board.document(),
        "players": [
            {"name": name, "colour": colour}
            for name, colour in zip(names, start.players, strict=True)
        ],
        "variant": variant,
        "setup": {
            panel.colour: TURNED if lie.turned else UPRIGHT
            for panel, lie in zip(start.board.panels, start.layout, strict=True)
        },
        "turns": turns,
    }


def summary(record: Record, end: Position) -> dict[str, Any]:
    """What `companion replay FILE --json` prints (the spec's object)."""
    name = dict(zip(end.players, record.names, strict=True))
    reroll = None if end.reroll is None else {"train": end.reroll.train}
    return {
        "game": GAME_ID,
        "board": end.board.id,
        "variant": variant_id(end.variant),
        "over": end.over,
        "turns": len(record.turns),
        "to_move": None if end.to_move is None else name[end.to_move],
        "reroll": reroll,
        "panels": {
            panel.colour: {"slot": lie.slot, "turned": lie.turned}
            for panel, lie in zip(end.board.panels, end.layout, strict=True)
        },
        "players": [
            {
                "name": name[colour],
                "colour": colour,
                "trains": [
                    {"space": t.space, "facing": t.facing} for t in end.trains if t.owner == colour
                ],
                "supply": end.supply(colour),
                "depot": end.depots[seat],
                "repair_tiles": end.repairs[seat],
            }
            for seat, colour in enumerate(end.players)
        ],
        "winner": None if end.winner is None else name[end.winner],
    }


def result(doc: Mapping[str, Any]) -> Result:
    """The game of a record as the table's history keeps it (`Game.result`): each player's
    trains brought home to the depot, the most being the aim, and the winner."""
    record = from_json(doc)
    end = replay(record).end
    return Result(
        option=end.board.id,
        variant=variant_id(end.variant),
        names=record.names,
        scores=end.depots,
        winners=tuple(i for i, colour in enumerate(end.players) if colour == end.winner),
        over=end.over,
        turns=len(record.turns),
    )


def replay_json(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A document replayed to the spec's object; RecordProblem for a bad record."""
    record = from_json(doc)
    return summary(record, replay(record).end)
