"""Yardmaster Express on the synthetic table: trains of our cards (art.py) lying in front
of the players, as game-free `companion.synthetic.Scene`s whose truth is known.

Where the trains lie. Each player's train lies along their side of the table, in front of
them, engine first, running to the player's right (a card joins the right end, as the
rulebook says). Four sides would meet in the corners, so the trains make a pinwheel: the
bottom train starts in the bottom left corner and stops short of the right side's trains,
the left train starts in the top left corner and stops short of the bottom one, and so on
round the table. Two players may share the left or the right side: their trains then lie
one behind the other (lanes 0 and 1), as two people on one short side of a table do.

Why this table (`TABLE`, 840 x 790 mm): a train is at most nine cards (the engine and
eight railcars, more than any game lays: seven rounds at two players) of 63 mm laid end to
end, 587 mm; the bottom and top trains must also clear the two lanes of a shared side
(100 mm) and the left and right ones a single lane (50 mm), and the markers' corners
(75 mm a side, the marker's paper and a hand's breadth). That gives 835 x 785 mm; a larger
table would only shrink the cards in
the camera's frame, which the hard camera already sees at as little as 0.5 px/mm. A real
table measures its own (`TableLayout`); `seat_poses` places the players on any layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from companion import synthetic
from companion.games.yardmaster import art, cards
from companion.games.yardmaster import edition as editions
from companion.pose import Pose
from companion.synthetic import Hand
from companion.vision.table import TableLayout, rotate

TABLE = TableLayout(width=840.0, height=790.0)
SIDES = ("bottom", "left", "top", "right")  # clockwise seen from above, as turns go
# the owner's upright (a card's rotation as printed, read by its owner) on each side; the
# train runs along table.rotate((1, 0), rotation): to the owner's right
SIDE_ROTATION = {"bottom": 0.0, "left": 90.0, "top": 180.0, "right": 270.0}
LANES = {"bottom": 1, "top": 1, "left": 2, "right": 2}  # two players may share a short side
MOST_CARDS = 9  # the engine and eight railcars
GAP_MM = (0.3, 2.5)  # between two cards of a train, as a hand lays them: touching or nearly
LANE_MM = 50.0  # from one lane's cards to the next's: a card's 41 mm and a hand's width
_CLEAR_MM = 8.0  # between a train's last card and the trains of the next side
_CORNER_MM = 10.0  # between a train's engine and the marker in its corner (its white paper
# reaches the play area, and a frame that touches a marker's black is no card's outline)


@dataclass(frozen=True)
class Seat:
    """Where a player's train lies: their side of the table, the lane (0 next to the edge,
    1 in front of it when two share the side) and the engine's pose, whose rotation is the
    owner's upright (`SIDE_ROTATION`)."""

    side: str
    lane: int
    engine: Pose

    @property
    def heading(self) -> np.ndarray:
        """The unit vector, in table mm, along which the train runs from its engine."""
        return rotate(np.array([[1.0, 0.0]]), self.engine.rotation)[0]


@dataclass(frozen=True)
class TrainOnTable:
    """A train to lay: its seat and its cards as they lie, engine first (`E`, a railcar
    card's code as it lies, `W` face down); `turned[i]` says card i lies end for end, so
    its printed code is cards.turned(cards[i]) (`()`: none is)."""

    seat: Seat
    cards: tuple[str, ...]
    turned: tuple[bool, ...] = ()

    def is_turned(self, index: int) -> bool:
        return bool(self.turned) and self.turned[index]


@dataclass(frozen=True)
class LaidCard:
    """A card where a hand laid it: its code as it lies, whether it is turned, and its
    pose (rotation: where its printed top points)."""

    code: str
    turned: bool
    pose: Pose

    @property
    def printed(self) -> str:
        """The face that shows, as printed: what the synthetic table draws."""
        return cards.turned(self.code) if self.turned else self.code


@dataclass(frozen=True)
class LaidTrain:
    seat: Seat
    cards: tuple[LaidCard, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)


def _lane_room(side: str, layout: TableLayout) -> tuple[float, float]:
    """Along a side: the distance from the play area's edge to where its trains may start,
    and the room they have (mm), clear of the next side's lanes in the pinwheel."""
    left, top, right, bottom = layout.play_area()
    length = right - left if side in ("bottom", "top") else bottom - top
    ahead = SIDES[(SIDES.index(side) - 1) % 4]  # the side whose corner the train runs to
    band = art.CARD_MM[1] + (LANES[ahead] - 1) * LANE_MM + _CLEAR_MM
    return _CORNER_MM, length - band - _CORNER_MM


def seat_poses(players: int, layout: TableLayout = TABLE) -> tuple[Seat, ...]:
    """Where each player's train starts, in turn order (clockwise from the bottom): two
    players face each other, three take the bottom, left and top, four a side each; with
    five, the second and third share the left side, the third's train in the lane in
    front of the second's. ValueError for a player count the game does not have."""
    order = {
        2: (("bottom", 0), ("top", 0)),
        3: (("bottom", 0), ("left", 0), ("top", 0)),
        4: (("bottom", 0), ("left", 0), ("top", 0), ("right", 0)),
        5: (("bottom", 0), ("left", 0), ("left", 1), ("top", 0), ("right", 0)),
    }
    if players not in order:
        raise ValueError(f"Yardmaster Express is played by 2 to 5 players, not {players}")
    return tuple(seat(side, lane, layout) for side, lane in order[players])


def seat(side: str, lane: int, layout: TableLayout = TABLE, offset: float = 0.0) -> Seat:
    """The seat on `side`, in `lane`, its engine `offset` mm further along the side than
    the first place a train may start. ValueError for a side or lane there is not."""
    if side not in SIDES:
        raise ValueError(f"a side is one of {', '.join(SIDES)}, not {side!r}")
    if not 0 <= lane < LANES[side]:
        raise ValueError(f"the {side} side has {LANES[side]} lane(s), not lane {lane}")
    left, top, right, bottom = layout.play_area()
    w, h = art.CARD_MM
    start = _lane_room(side, layout)[0] + offset + w / 2
    depth = h / 2 + lane * LANE_MM
    x, y = {
        "bottom": (left + start, bottom - depth),
        "left": (left + depth, top + start),
        "top": (right - start, top + depth),
        "right": (right - depth, bottom - start),
    }[side]
    return Seat(side, lane, Pose(x, y, SIDE_ROTATION[side]))


def lay(
    trains: Sequence[TrainOnTable], rng: np.random.Generator, jitter_mm: float = 0.8,
    jitter_deg: float = 1.5,
) -> tuple[LaidTrain, ...]:  # fmt: skip
    """Each train's cards end to end from its engine, as a hand lays them: a gap of
    `GAP_MM` between two cards, each nudged by up to `jitter_mm` across the row and turned
    by up to `jitter_deg`. ValueError for a train that is not an engine then railcar
    cards (as they lie) or face-down cards."""
    laid = []
    for train in trains:
        if not train.cards or train.cards[0] != cards.ENGINE:
            raise ValueError("a train starts with its engine card, E")
        if len(train.cards) > MOST_CARDS:
            raise ValueError(f"a train here holds at most {MOST_CARDS} cards")
        if train.turned and len(train.turned) != len(train.cards):
            raise ValueError("say for each card whether it is turned, or for none")
        heading = train.seat.heading
        across = np.array([-heading[1], heading[0]])
        along = 0.0
        placed = []
        for index, code in enumerate(train.cards):
            turned = train.is_turned(index)
            if index > 0:
                if code == cards.ENGINE:
                    raise ValueError("a train has one engine, its first card")
                if code != cards.FACE_DOWN:
                    cards.railcars(code)
                along += art.CARD_MM[0] + float(rng.uniform(*GAP_MM))
            if turned and code in (cards.ENGINE, cards.FACE_DOWN):
                raise ValueError(f"only a face-up railcar card lies turned, not {code}")
            nudge = float(rng.uniform(-jitter_mm, jitter_mm))
            x, y = np.array(train.seat.engine[:2]) + heading * along + across * nudge
            rotation = train.seat.engine.rotation + (180.0 if turned else 0.0)
            rotation += float(rng.uniform(-jitter_deg, jitter_deg))
            placed.append(LaidCard(code, turned, Pose(float(x), float(y), rotation % 360.0)))
        laid.append(LaidTrain(train.seat, tuple(placed)))
    return tuple(laid)


def drawn(
    trains: Sequence[LaidTrain], layout: TableLayout = TABLE, hands: Sequence[Hand] = ()
) -> synthetic.Scene:
    """The game-free scene the synthetic table renders: every card's face (`W`: its back)
    at its pose, then the hands over them."""
    laid = tuple(
        synthetic.Card(partial(art.face, card.printed), card.pose, art.CARD_MM)
        for train in trains
        for card in train.cards
    )
    return synthetic.Scene(cards=laid, hands=tuple(hands), layout=layout)


def table_scene(
    trains: Sequence[TrainOnTable],
    layout: TableLayout = TABLE,
    rng: np.random.Generator | None = None,
    hands: Sequence[Hand] = (),
) -> synthetic.Scene:
    """The trains laid by a hand (`lay`, from `rng`) as a scene to render: what the demo
    shows the camera."""
    return drawn(lay(trains, rng or np.random.default_rng(0)), layout, hands)


@dataclass(frozen=True)
class Yard:
    """A table whose truth is known: the trains as laid and the scene to render."""

    trains: tuple[LaidTrain, ...]
    scene: synthetic.Scene


def random_yard(
    seed: int,
    trains: int | None = None,
    most_cards: int = MOST_CARDS,
    layout: TableLayout = TABLE,
    *,
    hand_chance: float = 0.3,
) -> Yard:
    """A table in the middle of a game from a seed: 2-5 trains (`trains`) on sides drawn
    at random (two may share the left or right side), each the engine and 0 to
    `most_cards` - 1 cards of the edition's deck, a fifth of them face down and a third of
    the rest turned, each train's engine somewhere its train still fits; in `hand_chance`
    of the scenes with a side where no train lies, a hand reaching in from that side to the
    middle of the table, over no card (a hand over a card is a test's own scene)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6)) if trains is None else trains
    if not 2 <= n <= 5:
        raise ValueError(f"a table holds 2 to 5 trains, not {n}")
    if not 1 <= most_cards <= MOST_CARDS:
        raise ValueError(f"a train holds 1 to {MOST_CARDS} cards, not {most_cards}")
    slots = [(side, lane) for side in SIDES for lane in range(LANES[side])]
    chosen: list[tuple[str, int]] = []
    for index in rng.permutation(len(slots)):
        side, lane = slots[index]
        chosen.append((side, 0) if lane == 1 and (side, 0) not in chosen else (side, lane))
        chosen = list(dict.fromkeys(chosen))
        if len(chosen) == n:
            break
    deck = editions.load().deck
    to_lay = []
    for side, lane in chosen:
        length = int(rng.integers(1, most_cards + 1))
        codes, turned = [cards.ENGINE], [False]
        for _ in range(length - 1):
            printed = str(rng.choice(deck))
            if rng.random() < 0.2:
                codes.append(cards.FACE_DOWN)
                turned.append(False)
            elif rng.random() < 1 / 3:
                codes.append(cards.turned(printed))
                turned.append(True)
            else:
                codes.append(printed)
                turned.append(False)
        room = _lane_room(side, layout)[1]
        slack = room - length * (art.CARD_MM[0] + GAP_MM[1]) - 2.0
        offset = float(rng.uniform(0, max(slack, 0.0)))
        to_lay.append(TrainOnTable(seat(side, lane, layout, offset), tuple(codes), tuple(turned)))
    laid = lay(to_lay, rng)
    hands: tuple[Hand, ...] = ()
    free = [side for side in SIDES if all(side != taken for taken, _ in chosen)]
    if free and rng.random() < hand_chance:
        side = free[int(rng.integers(0, len(free)))]
        rotation = SIDE_ROTATION[side]  # the fingers point away from the player's edge
        reach = float(rng.uniform(230, 300))
        edge = {
            "bottom": (layout.width / 2, layout.height),
            "top": (layout.width / 2, 0.0),
            "left": (0.0, layout.height / 2),
            "right": (layout.width, layout.height / 2),
        }
        x, y = np.array(edge[side]) + rotate(np.array([[0.0, -reach]]), rotation)[0]
        hands = (Hand(float(x), float(y), rotation, float(rng.uniform(0.8, 1.0))),)
    return Yard(laid, drawn(laid, layout, hands))
