"""The rules of the switching-track game, pure (rulings S-1… in docs/RULINGS.md).

As python-chess's `Board`: one frozen, hashable `Position`; `legal_moves(position, roll)`
lists every legal move for a roll with its full outcome (the slide, then for each train
that may move or each free Start to enter: where every train ends, the bump chain step by
step, who starts over, who finishes, the repair tiles collected); `apply` plays one action,
checking it completely before anything changes, so an illegal one raises `RuleError` and
the position stays as it was. No I/O, no clock, no randomness: the dice are arguments. The
record, the bots, the page and the camera's arbitration are built on these.

A train is named by the space it stands on (a player's trains look alike); a train on a
panel keeps its panel space's id when the panel slides. Its facing is +1 along its chain's
listed order (on a track: towards Finish) or -1 (board.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from companion.games.protocol import Refusal
from companion.games.switching.board import (
    DEAD_END,
    FINISH,
    OFF_TRACK,
    PANEL_COLOURS,
    START,
    Board,
    Layout,
    Lie,
    network,
)

COLOURS = ("red", "blue", "yellow", "green")  # S-1: the players' train colours
TRAINS = 3  # S-1: each player's trains
PLAYERS = (2, 4)  # S-1: the fewest and most players


class RuleError(Refusal):
    """An illegal action or setup: `rule` is the S- ruling broken, the message says what
    was wrong and what to do, `key`/`params` say it in the page's languages. The position
    is untouched."""

    def __init__(self, rule: str, message: str, key: str, conflict: bool = False, **params: Any):
        super().__init__(rule, message, conflict=conflict, key=key, params=params)


@dataclass(frozen=True, slots=True)
class Variant:
    """S-18, S-21, S-19: how many trains at Finish win (2 in the short game), and whether the
    bonus level's repair tiles are played."""

    to_win: int = TRAINS
    repair_tiles: bool = False


VARIANTS: Mapping[str, Variant] = {  # the start form's ids (words.py's `variant_<id>`)
    "full": Variant(),
    "short": Variant(to_win=2),
    "repair": Variant(repair_tiles=True),
    "short-repair": Variant(to_win=2, repair_tiles=True),
}


@dataclass(frozen=True, slots=True)
class Roll:
    """The three dice (S-3): the colour die's panel colour (None when a repair tile was
    played instead of rolling it, S-20) and the white and black number dice."""

    colour: str | None
    white: int
    black: int

    @property
    def total(self) -> int:
        """S-3: the number dice add."""
        return self.white + self.black

    @property
    def doubles(self) -> bool:
        """S-4: both number dice show the same number; the colour die plays no part."""
        return self.white == self.black


@dataclass(frozen=True, slots=True, order=True)
class Train:
    """A train on the board: where it stands, whose it is, which way it faces."""

    space: str
    owner: str
    facing: int = 1


@dataclass(frozen=True, slots=True)
class Reroll:
    """S-16: after doubles the player may roll again and must move the train now on
    `train`; None when that train started over (the re-roll enters it at a free Start)."""

    train: str | None


@dataclass(frozen=True, slots=True)
class Position:
    """A game between actions. `players` are colours in turn order, the first player first
    (S-2); `layout` where each panel lies (`Board.panels` order); `trains` sorted by space;
    `depots` and `repairs` (tiles held) per player in `players` order; `turn` the index of
    the player to move; `reroll` a pending re-roll; `winner` once someone has won."""

    board: Board
    players: tuple[str, ...]
    variant: Variant
    layout: Layout
    trains: tuple[Train, ...]
    depots: tuple[int, ...]
    repairs: tuple[int, ...]
    turn: int = 0
    reroll: Reroll | None = None
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> str | None:
        """The colour whose turn it is; None once the game is won."""
        return None if self.over else self.players[self.turn]

    @property
    def empty_slot(self) -> str:
        return self.board.empty_slot(self.layout)

    def train_at(self, space: str) -> Train | None:
        return next((t for t in self.trains if t.space == space), None)

    def on_board(self, colour: str) -> tuple[Train, ...]:
        return tuple(t for t in self.trains if t.owner == colour)

    def supply(self, colour: str) -> int:
        """S-22: the player's trains not on the board and not at Finish (never started, or
        started over): they enter at a free Start."""
        seat = self.players.index(colour)
        return TRAINS - len(self.on_board(colour)) - self.depots[seat]

    def free_starts(self) -> tuple[str, ...]:
        """S-15: the Start spaces no train stands on."""
        taken = {t.space for t in self.trains}
        return tuple(s for s in self.board.starts if s not in taken)


# --- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """One turn's move: the roll, `train` the space of the mover's train or a free Start
    to enter a new train there (S-8), `repair` the panel a repair tile slid instead of the
    colour die (S-20; then `roll.colour` is None)."""

    roll: Roll
    train: str
    repair: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """S-17: the roll allows no move; the panel still slides and the turn is lost."""

    roll: Roll
    repair: str | None = None


@dataclass(frozen=True, slots=True)
class Stop:
    """S-16: the player declines the re-roll after doubles; the turn passes on."""


Action = Move | Pass | Stop


# --- events -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """What happened, for the page, the log and speech: `key` names the kind (the page's
    words say `event_<key>`), `params()` its fields."""

    key: ClassVar[str]

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class RepairPlayed(Event):
    player: str
    panel: str
    key: ClassVar[str] = "repair_played"


@dataclass(frozen=True, slots=True)
class Slid(Event):
    """The panel slid from slot `origin` into slot `slot`; `turned` the spaces of the trains
    riding it that turned round to face Finish (S-7)."""

    panel: str
    origin: str
    slot: str
    turned: tuple[str, ...] = ()
    key: ClassVar[str] = "slid"


@dataclass(frozen=True, slots=True)
class Stayed(Event):
    """S-6: the colour die's panel is not next to the empty slot and stays where it is."""

    panel: str
    key: ClassVar[str] = "stayed"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """The mover's train: from `origin` (the Start when `entered`) along `path` (the spaces
    it passed, `to` last; empty when a train right ahead stopped it at once)."""

    player: str
    origin: str
    to: str
    entered: bool
    path: tuple[str, ...]
    key: ClassVar[str] = "moved"


@dataclass(frozen=True, slots=True)
class Bumped(Event):
    """A train pushed along by the train behind it (S-10, S-11), `player` its owner."""

    player: str
    origin: str
    to: str
    path: tuple[str, ...]
    key: ClassVar[str] = "bumped"


@dataclass(frozen=True, slots=True)
class StartedOver(Event):
    """A train went back to its owner's supply (S-13, S-14): `origin` the last space it
    stood on, `reason` "dead end", "off the track" or "finish" (bumped into Finish)."""

    player: str
    origin: str
    reason: str
    key: ClassVar[str] = "started_over"


@dataclass(frozen=True, slots=True)
class Finished(Event):
    """S-12: the mover's train reached Finish `space` and went to its owner's depot."""

    player: str
    space: str
    key: ClassVar[str] = "finished"


@dataclass(frozen=True, slots=True)
class RepairTaken(Event):
    player: str
    key: ClassVar[str] = "repair_taken"


@dataclass(frozen=True, slots=True)
class TurnLost(Event):
    player: str
    key: ClassVar[str] = "turn_lost"


@dataclass(frozen=True, slots=True)
class MayRollAgain(Event):
    """S-16: doubles; the player may roll again with the train now on `train` (None: it
    started over and would enter again)."""

    player: str
    train: str | None
    key: ClassVar[str] = "may_roll_again"


@dataclass(frozen=True, slots=True)
class Won(Event):
    player: str
    key: ClassVar[str] = "won"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One legal action for a roll and everything it does."""

    action: Move | Pass
    position: Position
    events: tuple[Event, ...]


# --- setup ------------------------------------------------------------------------------


def deal(
    board: Board,
    players: Sequence[str],
    variant: Variant = VARIANTS["full"],
    turned: Collection[str] = (),
) -> Position:
    """A new game (S-1, S-2, S-5): `players` the colours in turn order, the first player
    first; every panel in its home slot, those named in `turned` lying turned round."""
    n = len(players)
    if not PLAYERS[0] <= n <= PLAYERS[1]:
        raise RuleError(
            "S-1",
            f"the game is for {PLAYERS[0]} to {PLAYERS[1]} players, not {n}",
            "players_count",
            n=n,
        )
    for colour in players:
        if colour not in COLOURS:
            raise RuleError(
                "S-1",
                f"{colour!r} is no train colour: the colours are {', '.join(COLOURS)}",
                "no_colour",
                colour=colour,
            )
    if len(set(players)) != n:
        raise RuleError("S-1", "two players have the same colour: give each their own", "same")
    for panel in turned:
        if panel not in PANEL_COLOURS:
            raise RuleError(
                "S-5",
                f"{panel!r} is no panel: the panels are {', '.join(PANEL_COLOURS)}",
                "no_panel",
                panel=panel,
            )
    if not 1 <= variant.to_win <= TRAINS:
        raise RuleError("S-18", f"a game is won with 1 to {TRAINS} trains", "to_win")
    layout = tuple(Lie(p.home, p.colour in turned) for p in board.panels)
    return Position(
        board=board,
        players=tuple(players),
        variant=variant,
        layout=layout,
        trains=(),
        depots=(0,) * n,
        repairs=(0,) * n,
    )


# --- the slide --------------------------------------------------------------------------


def slidable(position: Position) -> tuple[str, ...]:
    """The panels next to the empty slot: what the colour die can move (S-6) and what a
    repair tile may move (S-20)."""
    board = position.board
    near = board.neighbours(position.empty_slot)
    return tuple(
        p.colour for p, lie in zip(board.panels, position.layout, strict=True) if lie.slot in near
    )


def _slide(position: Position, panel: str) -> tuple[Position, Event]:
    """S-6, S-7: the panel into the empty slot if it is next to it (its trains ride along
    and turn to face Finish), else it stays."""
    board = position.board
    if panel not in slidable(position):
        return position, Stayed(panel)
    i = next(k for k, p in enumerate(board.panels) if p.colour == panel)
    origin = position.layout[i].slot
    layout = list(position.layout)
    layout[i] = Lie(position.empty_slot, layout[i].turned)
    layout_t = tuple(layout)
    turned: list[str] = []
    trains = []
    for t in position.trains:
        if board.spaces[t.space].panel == panel:
            facing = _towards_finish(board, layout_t, t.space, t.facing)
            if facing != t.facing:
                turned.append(t.space)
                t = replace(t, facing=facing)
        trains.append(t)
    moved = replace(position, layout=layout_t, trains=tuple(trains))
    return moved, Slid(panel, origin, layout_t[i].slot, tuple(turned))


def _towards_finish(board: Board, layout: Layout, space: str, facing: int) -> int:
    """S-7: the way from `space` along the tracks as they now join (trains ignored) that
    reaches a Finish; the nearer when both do (ties and neither: `facing` as it was)."""
    net = network(board, layout).ahead
    limit = len(board.spaces)
    distance = {}
    for way in (facing, -facing):
        here: Any = (space, way)
        for steps in range(1, limit + 1):
            here = net[here]
            if isinstance(here, str):
                break
            if board.spaces[here[0]].kind == FINISH:
                distance[way] = steps
                break
    if -facing in distance and distance[-facing] < distance.get(facing, limit + 1):
        return -facing
    return facing


# --- the move ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Run:
    """A move worked out: the trains after it, its events, where the mover ended (None:
    it finished or started over), who finished, whose trains crashed (S-19)."""

    trains: tuple[Train, ...]
    events: tuple[Event, ...]
    mover: str | None
    finished: tuple[str, ...]
    crashed: tuple[str, ...]


def _run(position: Position, mover: Train, count: int, entered: bool) -> _Run:
    """The bump chain of one move, space by space (S-8, S-10…S-14). Every space along the
    way counts one, those the trains ahead stand on included: a train meeting another stops
    behind it and the one ahead carries on the count, pushed the way the mover travels."""
    spaces = position.board.spaces
    ahead_of = network(position.board, position.layout).ahead
    at = {t.space: t for t in position.trains}
    at[mover.space] = mover
    events: list[Event] = []
    front, origin, path, is_mover = mover, mover.space, [], True
    mover_space: str | None = mover.space
    here, way = mover.space, mover.facing
    left = count - 1 if entered else count  # S-8: the Start counts as one space
    fate: str | None = None  # how the front train's run ended, if not by the count
    while left > 0:
        step = ahead_of[(here, way)]
        if isinstance(step, str):  # S-14: a dead end, or a track's end that joins nothing
            fate = step
            break
        left -= 1
        blocker = at.get(step.space)
        if blocker is not None:  # S-10: stop behind it; it carries the rest of the count
            events.extend(_rest(front, origin, path, is_mover, entered))
            front, origin, path, is_mover = blocker, blocker.space, [], False
            here, way = step.space, step.facing
            continue
        del at[here]
        here, way = step.space, step.facing
        front = Train(here, front.owner, way)  # S-11: it faces the way it went
        at[here] = front
        path.append(here)
        if is_mover:
            mover_space = here
        if spaces[here].kind == FINISH:  # S-12 under its own move, S-13 bumped into it
            fate = "home" if is_mover else FINISH
            break
    events.extend(_rest(front, origin, path, is_mover, entered))
    finished: tuple[str, ...] = ()
    crashed: tuple[str, ...] = ()
    if fate is not None:
        del at[front.space]
        if is_mover:
            mover_space = None
        if fate == "home":
            events.append(Finished(front.owner, front.space))
            finished = (front.owner,)
        else:
            events.append(StartedOver(front.owner, front.space, fate))
            crashed = (front.owner,) if fate in (DEAD_END, OFF_TRACK) else ()
    trains = tuple(sorted(at.values(), key=_space_of))  # the order Position keeps
    return _Run(trains, tuple(events), mover_space, finished, crashed)


def _space_of(train: Train) -> str:
    return train.space


def _rest(
    train: Train, origin: str, path: list[str], is_mover: bool, entered: bool
) -> tuple[Event, ...]:
    """The event of a train of the chain coming to rest: the mover's always; a pushed
    train's when it moved (one reached on the roll's last count stays, S-10)."""
    if is_mover:
        return (Moved(train.owner, origin, train.space, entered, tuple(path)),)
    if path:
        return (Bumped(train.owner, origin, train.space, tuple(path)),)
    return ()


# --- checking and playing ---------------------------------------------------------------


def _check_roll(position: Position, roll: Roll, repair: str | None) -> None:
    """S-3, S-18…S-20: RuleError for a roll or a repair tile that cannot be."""
    if position.over:
        raise RuleError(
            "S-18", f"the game is over: {position.winner} has won", "over", conflict=True
        )
    for name, die in (("white", roll.white), ("black", roll.black)):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise RuleError(
                "S-3", f"the {name} number die shows 1 to 6, not {die!r}", "bad_die", die=name
            )
    if repair is None:
        if roll.colour not in PANEL_COLOURS:
            raise RuleError(
                "S-3",
                f"the colour die shows a panel's colour ({', '.join(PANEL_COLOURS)}), "
                f"not {roll.colour!r}",
                "bad_colour",
                colour=str(roll.colour),
            )
        return
    player = position.players[position.turn]
    if not position.variant.repair_tiles:
        raise RuleError(
            "S-19", "this game is played without repair tiles (the bonus level)", "no_repairs"
        )
    if position.repairs[position.turn] < 1:
        raise RuleError(
            "S-20",
            f"{player} holds no repair tile: roll the colour die instead",
            "no_repair_tile",
            player=player,
        )
    if roll.colour is not None:
        raise RuleError(
            "S-20",
            "a repair tile is played instead of the colour die: roll only the number dice",
            "repair_and_colour",
        )
    if repair not in slidable(position):
        near = ", ".join(slidable(position))
        raise RuleError(
            "S-20",
            f"the {repair} panel is not next to the empty slot: a repair tile moves one of {near}",
            "repair_not_slidable",
            panel=str(repair),
            panels=near,
        )


def _slid(position: Position, roll: Roll, repair: str | None) -> tuple[Position, list[Event]]:
    """The roll's first step: a repair tile played (S-20) or the colour die's panel (S-6)."""
    events: list[Event] = []
    panel = repair if repair is not None else roll.colour
    if repair is not None:
        repairs = list(position.repairs)
        repairs[position.turn] -= 1
        position = replace(position, repairs=tuple(repairs))
        events.append(RepairPlayed(position.players[position.turn], repair))
    assert panel is not None  # _check_roll: a colour without a tile
    position, slide = _slide(position, panel)
    events.append(slide)
    return position, events


def _choices(position: Position) -> tuple[tuple[str, bool], ...]:
    """Every (space, entered) the player to move may move: their trains on the board and,
    with a train in their supply, each free Start (S-9, S-15); after doubles only the same
    train (S-16)."""
    player = position.players[position.turn]
    if position.reroll is not None and position.reroll.train is not None:
        return ((position.reroll.train, False),)
    enter = tuple((s, True) for s in position.free_starts()) if position.supply(player) else ()
    if position.reroll is not None:
        return enter
    return tuple((t.space, False) for t in position.on_board(player)) + enter


def _choice(position: Position, space: str) -> bool:
    """Whether moving `space` enters a new train there; RuleError when the player may not
    move it (S-9, S-15, S-16)."""
    player = position.players[position.turn]
    board = position.board
    choices = dict(_choices(position))
    if not isinstance(space, str) or space not in board.spaces:
        raise RuleError("S-9", f"this board has no space {space!r}", "no_space", space=str(space))
    if space in choices:
        return choices[space]
    if position.reroll is not None:
        must = position.reroll.train
        raise RuleError(
            "S-16",
            f"after doubles {player} moves the same train again: the one on {must}"
            if must is not None
            else f"after doubles {player} enters the train that started over, at a free Start",
            "reroll_same_train",
            player=player,
            train=must or "",
        )
    train = position.train_at(space)
    if train is not None:
        raise RuleError(
            "S-9",
            f"the train on {space} is {train.owner}'s, not {player}'s",
            "not_yours",
            space=space,
            owner=train.owner,
        )
    if board.spaces[space].kind != START:
        raise RuleError(
            "S-9",
            f"no train stands on {space}: move one of {player}'s trains or enter one at a "
            "free Start",
            "no_train",
            space=space,
        )
    raise RuleError(
        "S-9",
        f"{player} has no train left to enter: all three are on the board or at Finish",
        "none_to_enter",
        player=player,
    )


def _play(
    position: Position, move: Move, slid: Position, before: list[Event], entered: bool
) -> Outcome:
    """The move on the slid position (`entered`: at a free Start, as `_choice` said), and
    the turn's end: depots, repair tiles, the winner, the re-roll after doubles
    (S-12…S-19)."""
    player = slid.players[slid.turn]
    mover = Train(move.train, player) if entered else slid.train_at(move.train)
    assert mover is not None  # _choice: the player's own train stands there
    run = _run(slid, mover, move.roll.total, entered)
    events = [*before, *run.events]
    depots, repairs = list(slid.depots), list(slid.repairs)
    for owner in run.finished:
        depots[slid.players.index(owner)] += 1
    if slid.variant.repair_tiles:
        for owner in run.crashed:
            repairs[slid.players.index(owner)] += 1
            events.append(RepairTaken(owner))
    turn, reroll, winner = slid.turn, None, None
    if depots[slid.turn] >= slid.variant.to_win:
        events.append(Won(player))
        winner = player
    elif move.roll.doubles and position.reroll is None and not run.finished:
        events.append(MayRollAgain(player, run.mover))
        reroll = Reroll(run.mover)
    else:
        turn = (turn + 1) % len(slid.players)
    after = Position(
        slid.board,
        slid.players,
        slid.variant,
        slid.layout,
        run.trains,
        tuple(depots),
        tuple(repairs),
        turn,
        reroll,
        winner,
    )
    return Outcome(move, after, tuple(events))


def _next(position: Position) -> Position:
    return replace(position, turn=(position.turn + 1) % len(position.players), reroll=None)


def legal_moves(position: Position, roll: Roll, repair: str | None = None) -> tuple[Outcome, ...]:
    """Every legal action for this roll (and repair tile, S-20) with its full outcome: a
    `Move` per train the player may move and per free Start they may enter at, or, when
    there is none, the one `Pass` (S-17). RuleError for a roll that cannot be."""
    _check_roll(position, roll, repair)
    slid, before = _slid(position, roll, repair)
    outcomes = tuple(
        _play(position, Move(roll, space, repair), slid, before, entered)
        for space, entered in _choices(slid)
    )
    return outcomes or (_lost(position, Pass(roll, repair), slid, before),)


def _lost(position: Position, action: Pass, slid: Position, before: list[Event]) -> Outcome:
    player = position.players[position.turn]
    return Outcome(action, _next(slid), (*before, TurnLost(player)))


def apply(position: Position, action: Action) -> tuple[Position, tuple[Event, ...]]:
    """The position after `action` and what happened; RuleError (nothing changed) when it
    is not legal now."""
    if isinstance(action, Stop):
        if position.reroll is None:
            raise RuleError(
                "S-16",
                "there is no re-roll to decline: roll the dice",
                "no_reroll",
                conflict=True,
            )
        return _next(position), ()
    _check_roll(position, action.roll, action.repair)
    slid, before = _slid(position, action.roll, action.repair)
    if isinstance(action, Pass):
        if _choices(slid):
            player = position.players[position.turn]
            raise RuleError(
                "S-17",
                f"{player} can move: a turn is lost only when no train can move or enter",
                "may_move",
                player=player,
            )
        outcome = _lost(position, action, slid, before)
    else:
        outcome = _play(position, action, slid, before, _choice(slid, action.train))
    return outcome.position, outcome.events
