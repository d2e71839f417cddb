"""The switching-track game on the synthetic table: our board (art.py) lying on a table,
its panels in their slots, trains on their spaces, the three dice thrown beside it, now
and then a hand over it, as game-free `companion.synthetic.Scene`s whose truth is known.

Where things lie. The board (`board.size`, ours 700 x 700 mm) lies near the middle of a
`TABLE` of 900 x 800 mm, any way round (a quarter turn or more, as the family sat down)
and a few degrees and millimetres off; the table's own markers stay in its corners,
clear of it. The dice are thrown beside the board, in the `DICE_BAND` along its left or
right edge (never on it: the rulings' players roll beside the board, and the camera reads
them there) and away from its corners, where the table's markers may be. A train is put
down by a hand: roughly on its space (`TRAIN_JITTER`), a few degrees askew.

Why this table: the board and a hand's breadth beside it for the dice and the depots on
either side (100 mm), and no more, since every millimetre more shrinks the board in the
camera's frame (the hard camera sees a train at about a pixel a millimetre).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

import numpy as np

from companion import synthetic
from companion.games.switching import art
from companion.games.switching.board import Board, Layout, Lie
from companion.games.switching.board import load as load_board
from companion.pose import Pose
from companion.synthetic import Hand, PlacedDie
from companion.vision.dice_art import DIE_MM
from companion.vision.table import TableLayout, rotate

TABLE = TableLayout(width=900.0, height=800.0)
COLOUR_DIE = "colour"  # the PlacedDie kind of the colour die (its face: PANEL_ORDER index)
PANEL_ORDER = tuple(art.PANEL_COLOURS)
DICE_BAND = (10.0, 70.0)  # from the board's edge: where the dice lie beside it (mm)
DICE_CLEAR = 110.0  # and this far from the board's corners along its edge
TRAIN_JITTER = (2.0, 2.0, 4.0)  # along the track, across it (mm), askew (degrees), at most
PANEL_JITTER = (0.4, 0.4)  # mm and degrees: a panel slides snugly in its slot
DEPOT_GAP = 34.0  # between the trains standing in a depot beside the board


class TrainLike(Protocol):
    """A train as the rules hold it (rules.Train): its space, owner and facing."""

    @property
    def space(self) -> str: ...
    @property
    def owner(self) -> str: ...
    @property
    def facing(self) -> int: ...


class PositionLike(Protocol):
    """What a scene needs of a position (rules.Position): how the panels lie, every train
    on the board, and how many trains each player has in their depot."""

    @property
    def layout(self) -> Layout: ...
    @property
    def trains(self) -> Sequence[TrainLike]: ...
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def depots(self) -> Sequence[int]: ...


class RollLike(Protocol):
    """A roll as the rules hold it (rules.Roll): the colour die's panel colour (None when
    a repair tile was played instead) and the two number dice."""

    @property
    def colour(self) -> str | None: ...
    @property
    def white(self) -> int: ...
    @property
    def black(self) -> int: ...


@dataclass(frozen=True)
class OnBoard:
    """A train as the table shows it: its colour, its space and its facing (+1 along its
    chain's order, towards Finish on a track; -1 against)."""

    colour: str
    space: str
    facing: int


@dataclass(frozen=True)
class Shown:
    """A table whose truth is known: the board, its pose on the table (its centre and its
    turn), how the panels lie, the trains on it, the roll shown by the dice (colour or
    None, white, black), the trains in each depot, and the scene to render."""

    board: Board
    pose: Pose
    layout: Layout
    trains: tuple[OnBoard, ...]
    roll: tuple[str | None, int, int]
    depots: dict[str, int]
    scene: synthetic.Scene


def to_table(board: Board, pose: Pose, point: Iterable[float]) -> np.ndarray:
    """A board point (mm from its top left corner) on the table, the board at `pose`."""
    centre = np.array(board.size) / 2
    local = np.asarray(list(point), np.float64).reshape(-1, 2) - centre
    return rotate(local, pose.rotation) + (pose.x, pose.y)


def _angle(vector: Iterable[float]) -> float:
    """The rotation (degrees clockwise from up) of a picture drawn pointing up that points
    along `vector`."""
    dx, dy = vector
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def board_scene(
    board: Board,
    position: PositionLike,
    roll: RollLike | None,
    rng: np.random.Generator,
    hands: Sequence[Hand] = (),
    *,
    pose: Pose | None = None,
    layout: TableLayout = TABLE,
) -> synthetic.Scene:
    """The table showing `position` and `roll` (None: no dice thrown yet): the demo's
    camera. Trains and dice are put down by a hand (`rng`); `pose` is the board's on the
    table (default: upright in the middle)."""
    trains = tuple(OnBoard(t.owner, t.space, t.facing) for t in position.trains)
    depots = dict(zip(position.players, position.depots, strict=True))
    shown_roll = None if roll is None else (roll.colour, roll.white, roll.black)
    return _scene(board, pose or home_pose(layout), position.layout, trains, depots,
                  shown_roll, rng, hands, layout)  # fmt: skip


def home_pose(layout: TableLayout = TABLE) -> Pose:
    """The board upright in the middle of the table."""
    return Pose(layout.width / 2, layout.height / 2, 0.0)


def _scene(
    board: Board,
    pose: Pose,
    lie: Layout,
    trains: Sequence[OnBoard],
    depots: dict[str, int],
    roll: tuple[str | None, int, int] | None,
    rng: np.random.Generator,
    hands: Sequence[Hand],
    layout: TableLayout,
) -> synthetic.Scene:
    cards = [synthetic.Card(partial(art.board_picture, board), pose, board.size, rigid=True)]
    cards += panel_cards(
        board, pose, lie, rng, lambda colour: partial(art.panel_picture, board, colour)
    )
    for train in trains:
        cards.append(train_card(board, pose, lie, train, rng))
    dice_side = int(rng.integers(0, 2))
    cards += _depot_cards(board, pose, depots, 1 - dice_side)
    dice = () if roll is None else _thrown(board, pose, roll, dice_side, rng)
    return synthetic.Scene(cards=tuple(cards), dice=dice, hands=tuple(hands), layout=layout)


def panel_cards(
    board: Board,
    pose: Pose,
    lie: Layout,
    rng: np.random.Generator,
    picture: Callable[[str], synthetic.Picture],
) -> list[synthetic.Card]:
    """The panels lying in their slots as `lie` says, each a little off (`PANEL_JITTER`),
    each drawn by `picture(colour)` (our art's, or a stand-in box's)."""
    cards = []
    slot = next(iter(board.slots.values()))
    panel_mm = (slot.width - 2 * art.PANEL_INSET_MM, slot.height - 2 * art.PANEL_INSET_MM)
    for panel, (slot_id, turned) in zip(board.panels, lie, strict=True):
        s = board.slots[slot_id]
        nudge = rng.uniform(-PANEL_JITTER[0], PANEL_JITTER[0], 2)
        middle = (s.x + s.width / 2 + nudge[0], s.y + s.height / 2 + nudge[1])
        x, y = to_table(board, pose, middle)[0]
        turn = pose.rotation + (180.0 if turned else 0.0) + rng.uniform(-1, 1) * PANEL_JITTER[1]
        cards.append(synthetic.Card(picture(panel.colour),
                                    Pose(float(x), float(y), turn % 360.0), panel_mm))  # fmt: skip
    return cards


def train_card(
    board: Board,
    pose: Pose,
    lie: Layout,
    train: OnBoard,
    rng: np.random.Generator,
    picture: synthetic.Picture | None = None,
    size: tuple[float, float] = art.TRAIN_MM,
) -> synthetic.Card:
    """A train put down by a hand on its space, facing as it does: `picture` (of `size`
    mm) or our art's train of its colour."""
    hx, hy = board.heading(train.space, lie)
    heading = np.array([hx, hy]) * train.facing
    across = np.array([-heading[1], heading[0]])
    along_mm, across_mm, askew = TRAIN_JITTER
    centre = np.array(board.centre(train.space, lie))
    centre += heading * rng.uniform(-along_mm, along_mm) + across * rng.uniform(
        -across_mm, across_mm
    )
    x, y = to_table(board, pose, centre)[0]
    rotation = _angle(heading) + pose.rotation + rng.uniform(-askew, askew)
    picture = picture or partial(art.train, train.colour)
    return synthetic.Card(picture, Pose(float(x), float(y), rotation % 360.0), size, rigid=True)


def _band_point(board: Board, pose: Pose, side: int, along: float, out: float) -> np.ndarray:
    """A table point beside the board on the table's left (side 0) or right (1): `along`
    mm down the board's edge from its top, `out` mm off it (the board however it is
    turned: the table has room for the dice only on its left and right)."""
    corners = to_table(board, pose, [(0, 0), (board.size[0], 0), board.size, (0, board.size[1])])
    (left, top), (right, _) = corners.min(axis=0), corners.max(axis=0)
    return np.array([left - out if side == 0 else right + out, top + along])


def _depot_cards(
    board: Board, pose: Pose, depots: dict[str, int], side: int
) -> list[synthetic.Card]:
    """The finished trains standing in their players' depots beside the board on the
    table's `side`: two players' depots side by side (30 and 66 mm off the board), a
    player's trains one behind the other along the edge (four players' three trains
    each fit beside our board)."""
    cards = []
    for k, (colour, count) in enumerate(sorted(depots.items())):
        for i in range(count):
            along = DICE_CLEAR + (k // 2) * (3 * DEPOT_GAP + 20.0) + i * DEPOT_GAP
            x, y = _band_point(board, pose, side, along, 30.0 + 36.0 * (k % 2))
            cards.append(synthetic.Card(partial(art.train, colour), Pose(float(x), float(y), 0.0),
                                        art.TRAIN_MM, rigid=True))  # fmt: skip
    return cards


def _thrown(
    board: Board, pose: Pose, roll: tuple[str | None, int, int], side: int, rng: np.random.Generator
) -> tuple[PlacedDie, ...]:
    """The dice where a throw left them beside the board's `side` edge: apart from each
    other, any way round. The colour die is left out when a repair tile was played."""
    height = max(board.size)
    spots: list[np.ndarray] = []
    while len(spots) < 3:
        along = rng.uniform(DICE_CLEAR, height - DICE_CLEAR)
        out = rng.uniform(DICE_BAND[0] + DIE_MM, DICE_BAND[1] - DIE_MM)
        point = _band_point(board, pose, side, along, out)
        if all(np.hypot(*(point - other)) > 2.0 * DIE_MM for other in spots):
            spots.append(point)
    colour, white, black = roll
    dice = [
        PlacedDie(
            "pips", white, float(spots[0][0]), float(spots[0][1]), float(rng.uniform(0, 360))
        ),
        PlacedDie(
            "pips", black, float(spots[1][0]), float(spots[1][1]), float(rng.uniform(0, 360))
        ),
    ]
    if colour is not None:
        dice.append(PlacedDie(COLOUR_DIE, PANEL_ORDER.index(colour), float(spots[2][0]),
                              float(spots[2][1]), float(rng.uniform(0, 360)),
                              picture=partial(art.colour_die, colour)))  # fmt: skip
    return tuple(dice)


def random_layout(board: Board, rng: np.random.Generator) -> Layout:
    """Any lie of the panels: each in a slot of its own, either way round."""
    slots = list(board.slots)
    order = rng.permutation(len(slots))
    return tuple(Lie(slots[order[k]], bool(rng.random() < 0.5)) for k in range(len(board.panels)))


def random_trains(board: Board, lie: Layout, rng: np.random.Generator) -> tuple[OnBoard, ...]:
    """Trains of 2-4 players on the board, up to three a player: on every kind of space
    (Start, Finish, a track's, a panel's), either way round, and now and then a crowded
    track (trains nose to tail on neighbouring spaces)."""
    players = list(rng.permutation(list(art.TRAIN_COLOURS))[: int(rng.integers(2, 5))])
    spaces = list(board.spaces)
    taken: dict[str, OnBoard] = {}
    left = {colour: 3 for colour in players}
    if rng.random() < 0.5:  # a crowded track: a chain's spaces in a row, all taken
        chain = board.chains[str(rng.choice(list(board.chains)))]
        start = int(rng.integers(0, len(chain.spaces)))
        for space in chain.spaces[start : start + int(rng.integers(2, 4))]:
            colour = _free_colour(players, left, rng)
            if colour is not None:
                taken[space] = OnBoard(colour, space, int(rng.choice((1, -1))))
    for _ in range(int(rng.integers(1, 3 * len(players) + 1))):
        space = str(rng.choice(spaces))
        colour = _free_colour(players, left, rng)
        if space not in taken and colour is not None:
            taken[space] = OnBoard(colour, space, int(rng.choice((1, -1))))
    del lie  # every space is on the board whatever the lie: the panels' spaces go with them
    return tuple(taken.values())


def _free_colour(players: list[str], left: dict[str, int], rng: np.random.Generator) -> str | None:
    """A player who still has a train to put down (and takes it), or None."""
    free = [colour for colour in players if left[colour] > 0]
    if not free:
        return None
    colour = str(rng.choice(free))
    left[colour] -= 1
    return colour


def random_table(
    seed: int, board: Board | None = None, *, hand_chance: float = 0.3,
    layout: TableLayout = TABLE,
) -> Shown:  # fmt: skip
    """A table in the middle of a game from a seed: the board any way round a little off
    the middle, the panels in any lie, trains on any spaces (`random_trains`), finished
    trains in depots, the three dice thrown, and in `hand_chance` of the scenes a hand
    reaching over the board from the table's edge, over no train."""
    rng = np.random.default_rng(seed)
    board = board or load_board()
    pose = Pose(
        layout.width / 2 + float(rng.uniform(-12, 12)),
        layout.height / 2 + float(rng.uniform(-8, 8)),
        float(90 * rng.integers(0, 4) + rng.uniform(-3, 3)) % 360.0,
    )
    lie = random_layout(board, rng)
    trains = random_trains(board, lie, rng)
    owners = sorted({t.colour for t in trains})
    depots = {colour: int(rng.integers(0, 3)) for colour in owners}
    roll = (str(rng.choice(PANEL_ORDER)), int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    hands: tuple[Hand, ...] = ()
    if rng.random() < hand_chance:
        hand = hand_clear_of(board, pose, lie, trains, rng, layout)
        hands = () if hand is None else (hand,)
    scene = _scene(board, pose, lie, trains, depots, roll, rng, hands, layout)
    return Shown(board, pose, lie, trains, roll, depots, scene)


_HAND_REACH_MM = 150.0  # a hand's palm and fingers lie within this of its palm's centre
_ARM_MM = 60.0  # and its forearm within this of the line back to the table's edge


def hand_clear_of(
    board: Board,
    pose: Pose,
    lie: Layout,
    trains: Sequence[OnBoard],
    rng: np.random.Generator,
    layout: TableLayout,
) -> Hand | None:
    """A hand reaching in from the bottom or top edge of the table over the board, clear
    of every train (a hand over a train is a test's own scene); None when ten tries find
    no such place."""
    centres = [to_table(board, pose, board.centre(t.space, lie))[0] for t in trains]
    for _ in range(10):
        from_top = bool(rng.random() < 0.5)
        x = float(rng.uniform(150, layout.width - 150))
        reach = float(rng.uniform(120, 300))
        y = reach if from_top else layout.height - reach
        rotation = 180.0 if from_top else 0.0
        edge_y = 0.0 if from_top else layout.height
        clear = all(
            math.dist((x, y), c) > _HAND_REACH_MM
            and not (abs(c[0] - x) < _ARM_MM and min(y, edge_y) <= c[1] <= max(y, edge_y))
            for c in centres
        )
        if clear:
            return Hand(x, y, rotation, float(rng.uniform(0.8, 1.0)))
    return None
