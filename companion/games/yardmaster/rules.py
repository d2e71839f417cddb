"""The rules of Yardmaster Express, pure: `deal` a game, `apply` one card added, `score` the
trains, `ranking` the end, and the strategic variant's second game (Y-1…Y-12).

No I/O, no clock, no randomness that is not an argument; `apply` checks an addition
completely before anything changes, so an illegal one raises `RuleError` and the state
stays as it was. As with python-chess's `Board`, everything else (the record, the bots,
the page, the camera's arbitration) is built on `legal_adds` and `apply`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from companion.games.protocol import Refusal
from companion.games.yardmaster import cards
from companion.games.yardmaster.edition import Caboose, Edition

ROUNDS = {2: 7, 3: 6, 4: 5, 5: 4}  # Y-7: players -> rounds


class RuleError(Refusal):
    """An illegal addition or setup: `rule` is the Y- ruling broken, the message says what
    was wrong and what to do. The state is untouched."""


@dataclass(frozen=True, slots=True)
class Add:
    """One turn: `card` (as printed) from the hand onto the mover's train, face up as
    printed, face up `turned` end for end (Y-4), or `face_down` (Y-2)."""

    card: str
    turned: bool = False
    face_down: bool = False

    @property
    def laid(self) -> str:
        """The code the card adds to the train, as it lies."""
        if self.face_down:
            return cards.FACE_DOWN
        return cards.turned(self.card) if self.turned else self.card


@dataclass(frozen=True, slots=True)
class Yard:
    """A game between turns. `players` in turn order, the start player first; `hand` the
    hand the player to move will receive, before drawing; `draw` the deck, top first;
    `trains` as they lie, engine first (one per player, in `players` order); `turns` the
    number of cards added so far; `carried` the first game's points in the strategic
    variant's second game (Y-11), else zeros."""

    players: tuple[str, ...]
    hand: tuple[str, ...]
    draw: tuple[str, ...]
    trains: tuple[tuple[str, ...], ...]
    caboose: Caboose | None = None
    turns: int = 0
    carried: tuple[int, ...] = ()

    @property
    def rounds(self) -> int:
        return ROUNDS[len(self.players)]

    @property
    def over(self) -> bool:
        """Y-7: over once the last player of the last round has added a card."""
        return self.turns >= self.rounds * len(self.players)

    @property
    def to_move(self) -> int | None:
        """The seat (index in `players`) whose turn it is, None when the game is over."""
        return None if self.over else self.turns % len(self.players)

    @property
    def round(self) -> int:
        """The round being played (1-based); the last round once the game is over."""
        return min(self.turns // len(self.players) + 1, self.rounds)

    @property
    def in_hand(self) -> tuple[str, ...]:
        """The mover's hand once they have drawn the top card (Y-6)."""
        return self.hand + self.draw[:1]


def start(
    players: Sequence[str],
    hand: Sequence[str],
    draw: Sequence[str],
    caboose: Caboose | None = None,
    carried: Sequence[int] | None = None,
) -> Yard:
    """The game a record's setup describes (Y-13: its cards are taken as they stand).
    RuleError if the table itself is impossible: the players' number, a hand of the wrong
    size (Y-6). The draw deck may be short: a record of a real table lists only the cards
    drawn so far, and a turn finding it empty is refused (Y-6)."""
    n = len(players)
    if n not in ROUNDS:
        raise RuleError("Y-7", f"Yardmaster Express is for 2 to 5 players, not {n}")
    if len(set(players)) != n:
        raise RuleError("setup", "two players have the same name: give each their own")
    if len(hand) != n:
        raise RuleError(
            "Y-6", f"the start player's hand is {n} cards for {n} players, not {len(hand)}"
        )
    for card in (*hand, *draw):
        cards.railcars(card)  # CardCodeError (a ValueError) names a code that is no card
    carried = tuple(carried) if carried is not None else (0,) * n
    if len(carried) != n:
        raise RuleError("Y-11", f"the first game's points are {n} numbers, one per player")
    return Yard(
        players=tuple(players),
        hand=tuple(hand),
        draw=tuple(draw),
        trains=((cards.ENGINE,),) * n,
        caboose=caboose,
        carried=carried,
    )


def deal(
    edition: Edition,
    names: Sequence[str],
    seed: int | str,
    with_caboose: bool = False,
) -> Yard:
    """A new game: the deck for this many players shuffled (Y-1), a random start player
    (the names are the table's seats clockwise; the game's turn order starts from the
    start player and goes clockwise, Y-6), the start player's hand, and a caboose card
    drawn at random when the expansion is used."""
    n = len(names)
    if not edition.players[0] <= n <= edition.players[1]:
        raise RuleError("Y-7", f"Yardmaster Express is for 2 to 5 players, not {n}")
    rng = random.Random(f"yardmaster:{seed}")
    deck = _shuffled(edition, n, rng)
    first = rng.randrange(n)
    order = [*names[first:], *names[:first]]
    caboose = rng.choice(edition.cabooses) if with_caboose else None
    return start(order, deck[:n], deck[n:], caboose)


def deal_second(edition: Edition, first: Yard, seed: int | str) -> Yard:
    """The strategic variant's second game after `first` has ended (Y-11): its turn order
    (`second_game_order`), a fresh shuffle, a caboose card again if the first had one, and
    each player's points from the first game carried."""
    points = {s.name: s.score for s in score(first)}
    order = second_game_order(first.players, [points[name] for name in first.players])
    n = len(order)
    rng = random.Random(f"yardmaster:{seed}")
    deck = _shuffled(edition, n, rng)
    caboose = rng.choice(edition.cabooses) if first.caboose is not None else None
    return start(order, deck[:n], deck[n:], caboose, [points[name] for name in order])


def _shuffled(edition: Edition, players: int, rng: random.Random) -> list[str]:
    deck = list(edition.deck_for(players))
    rng.shuffle(deck)
    return deck


@cache
def joins(last: str, new: str) -> bool:
    """Y-5: the new card's left railcar matches the last card's right railcar in value or
    colour, or either is wild (Y-2, Y-3). Both codes as they lie."""
    if cards.is_wild(last) or cards.is_wild(new):
        return True
    _, right = cards.railcars(last)
    left, _ = cards.railcars(new)
    return left[0] == right[0] or left[1] == right[1]


def legal_adds(yard: Yard) -> list[Add]:
    """Every addition the mover may make, each distinct card once: face up as printed and
    turned where it joins (turned only when that lies differently), face down always."""
    if yard.over or not yard.draw:
        return []
    last = yard.trains[yard.to_move][-1]
    return [add for card in dict.fromkeys(yard.in_hand) for add in ways(last, card)]


@lru_cache(maxsize=1 << 14)
def ways(last: str, card: str) -> tuple[Add, ...]:
    """The ways `card` may be added after `last` (as it lies), in `legal_adds`' order: face
    up as printed and turned where it joins, face down always. Cached: a deck has a few
    dozen codes, and a simulation asks this of every card in every hand."""
    adds = [Add(card)] if joins(last, card) else []
    other_way = cards.turned(card)
    if other_way != card and joins(last, other_way):
        adds.append(Add(card, turned=True))
    adds.append(Add(card, face_down=True))
    return tuple(adds)


def check(yard: Yard, add: Add) -> None:
    """RuleError if `add` is not legal now (Y-7 the game is over, Y-6 nothing to draw or the
    card is not in the hand, Y-5 a face-up card that does not join)."""
    if yard.over:
        raise RuleError("Y-7", "the game is over: every round has been played")
    if not yard.draw:
        raise RuleError("Y-6", "the draw deck is empty: the mover must draw a card first")
    if add.face_down and add.turned:
        raise RuleError("Y-4", "a card face down has no ends to turn: add it face down or turned")
    if add.card not in yard.in_hand:
        held = ", ".join(yard.in_hand)
        raise RuleError("Y-6", f"{add.card} is not in the hand: the hand holds {held}")
    last = yard.trains[yard.to_move][-1]
    if not joins(last, add.laid):
        raise RuleError(
            "Y-5",
            f"{add.laid} does not join {last}: its left railcar must match the last card's "
            "right railcar in colour or value; turn it, add it face down, or add another card",
        )


def apply(yard: Yard, add: Add) -> Yard:
    """The game after the mover draws, adds `add` and passes the rest of the hand on (Y-6)."""
    check(yard, add)
    hand = list(yard.in_hand)
    hand.remove(add.card)
    seat = yard.turns % len(yard.players)
    trains = list(yard.trains)
    trains[seat] = (*trains[seat], add.laid)
    return Yard(
        yard.players,
        tuple(hand),
        yard.draw[1:],
        tuple(trains),
        yard.caboose,
        yard.turns + 1,
        yard.carried,
    )


def railcars_along(train: Sequence[str]) -> list[tuple[str, int] | None]:
    """The train's railcars engine side first, None for each wild card (it ends a run)."""
    along: list[tuple[str, int] | None] = []
    for laid in train:
        if cards.is_wild(laid):
            along.append(None)
        else:
            along.extend(cards.railcars(laid))
    return along


@lru_cache(maxsize=1 << 10)
def runs(train: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Y-8: every run as (colour, length), engine side first, across card boundaries.
    Cached, a little: a table's trains are scored again while nothing is added (bots and
    the simulator keep a `Tail` instead, so thousands of finished trains are not kept)."""
    found: list[tuple[str, int]] = []
    previous: str | None = None  # the colour of the railcar before; None after a wild card
    for railcar in railcars_along(train):
        colour = railcar[0] if railcar is not None else None
        if colour is not None and colour == previous:
            found[-1] = (colour, found[-1][1] + 1)
        elif colour is not None:
            found.append((colour, 1))
        previous = colour
    return tuple(found)


@lru_cache(maxsize=1 << 10)
def longest_run(train: tuple[str, ...], colour: str | None = None) -> int:
    """The train's longest run (of `colour`, if given); 0 when it has none."""
    return max((n for c, n in runs(train) if colour in (None, c)), default=0)


def longest_run_with(train: tuple[str, ...], laid: str) -> int:
    """The train's longest run once `laid` is added at its end: the same as
    `longest_run((*train, laid))`, counted from the train's last run instead of the whole
    train (bots weigh every card they could add)."""
    return tail_after(tail(train), laid).longest


class Tail(NamedTuple):
    """What the next card needs to know of a train to count its runs: the train's longest
    run, and the colour and length of the run at its end ("", 0 after a wild card). The
    simulator keeps one per train, card by card (`tail_after`), instead of recounting."""

    longest: int
    colour: str
    length: int


@lru_cache(maxsize=1 << 10)
def tail(train: tuple[str, ...]) -> Tail:
    """The `Tail` of a train, counted from its runs (Y-8)."""
    ending = runs(train)[-1] if train and not cards.is_wild(train[-1]) else ("", 0)
    return Tail(longest_run(train), *ending)


@lru_cache(maxsize=1 << 14)
def tail_after(before: Tail, laid: str) -> Tail:
    """The `Tail` of a train once `laid` is added at its end (Y-8: a wild card ends the run;
    the card's left railcar continues the run at the end if its colour is the same, and its
    right railcar continues the left one). Cached: a game reaches few tails."""
    if cards.is_wild(laid):
        return Tail(before.longest, "", 0)
    (left, _), (right, _) = cards.railcars(laid)
    first = before.length + 1 if left == before.colour else 1
    second = first + 1 if right == left else 1
    return Tail(max(before.longest, first, second), right, second)


def train_value(train: Sequence[str]) -> int:
    """The sum of the face-up railcars' values (Y-2, Y-3)."""
    return sum(cards.value_of(laid) for laid in train)


def meets(condition: Mapping[str, Any], train: tuple[str, ...]) -> bool:
    """Whether a train meets a caboose card's condition (Y-12)."""
    along = [r for r in railcars_along(train) if r is not None]
    kind = condition["kind"]
    if kind == "run":
        return longest_run(train, condition.get("colour")) >= condition["length"]
    if kind == "colours":
        return len({colour for colour, _ in along}) >= condition["count"]
    if kind == "cargo":
        return sum(colour == condition["colour"] for colour, _ in along) >= condition["count"]
    if kind == "face_down":
        down = train.count(cards.FACE_DOWN)
        return down <= condition.get("max", down) and down >= condition.get("min", down)
    if kind == "value":
        return train_value(train) >= condition["min"]
    raise ValueError(f"unknown caboose condition {kind!r}")


@dataclass(frozen=True)
class Score:
    """One player's points and their parts (what `companion replay` prints per player)."""

    name: str
    train: tuple[str, ...]
    train_value: int
    longest_run: int
    run_bonus: int
    caboose_bonus: int
    carried: int

    @property
    def score(self) -> int:
        return self.train_value + self.run_bonus + self.caboose_bonus + self.carried


def score(yard: Yard) -> list[Score]:
    """Every player's score now, in `players` order: train value, the longest-run bonus
    (Y-9: every player with a run of the game's longest length L gains L, once; nobody when
    no train shows a railcar), the caboose card's points if met (Y-12), and the first
    game's points (Y-11)."""
    longest = [longest_run(train) for train in yard.trains]
    top = max(longest, default=0)
    scores = []
    for seat, (name, train) in enumerate(zip(yard.players, yard.trains, strict=True)):
        met = yard.caboose is not None and meets(yard.caboose.condition, train)
        scores.append(
            Score(
                name=name,
                train=train,
                train_value=train_value(train),
                longest_run=longest[seat],
                run_bonus=top if top and longest[seat] == top else 0,
                caboose_bonus=yard.caboose.points if met else 0,
                carried=yard.carried[seat],
            )
        )
    return scores


def ranking(yard: Yard) -> tuple[list[str], str]:
    """The winner and what decided it (Y-10): most points; a tie goes to the tied player
    who moves latest in a round. (`["Ben"], "score"` or `"seat"`.) One winner always."""
    points = [s.score for s in score(yard)]
    best = max(points)
    tied = [seat for seat, p in enumerate(points) if p == best]
    return [yard.players[tied[-1]]], "score" if len(tied) == 1 else "seat"


def second_game_order(players: Sequence[str], first_scores: Sequence[int]) -> list[str]:
    """Y-11: the strategic variant's second game's turn order. Its start player has the
    lowest score of the first game (a tie: the one nearer the first game's start player in
    its order); the hand goes the other way round, so the order reverses from them."""
    low = min(first_scores)
    start_seat = next(seat for seat, p in enumerate(first_scores) if p == low)
    n = len(players)
    return [players[(start_seat - k) % n] for k in range(n)]
