"""The game as values: state, the three actions a turn can be, the events a turn produces.

Everything is a frozen dataclass of tuples, so a state can be kept, compared, shared with
the web page and undone by simply holding on to the previous one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.caboose.rules.edition import Edition
from companion.games.protocol import Refusal
from companion.pose import Pose


class RuleError(Refusal):
    """An illegal action: `rule` names the rule broken (an R- ruling or `hand`, `dice`,
    `placement`), the message says what was wrong and what to do, in English. The state is
    untouched. `key` and `params`, when given, are the same refusal as a kind and its
    parameters, for a page to say in its own language (companion/games/caboose/words.py,
    `REFUSALS`); the rules speak no other language themselves. A `Refusal` of the game
    protocol, so whoever applies the rules (the table, a bot, a test) catches one kind of error."""

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(rule, message, key=key, params=params)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player: the hidden hand and the penalty pile in front of them."""

    name: str
    hand: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()  # bottom to top, banked cards apart
    banked: tuple[str, ...] = ()  # Loose Caboose: face down under the pile, never cancel
    derailments: int = 0
    laura: bool = False  # LOK'n'ROLL's solo rival


@dataclass(frozen=True, slots=True)
class GameState:
    edition: Edition
    variant: str | None
    railway: tuple[str, ...]  # back first, front last
    caboose: int  # index of the caboose's card in the railway
    seats: tuple[Seat, ...]
    draw: tuple[str, ...]  # top first
    discard: tuple[str, ...] = ()  # cancelled or combined cards, oldest first
    out: tuple[str, ...] = ()  # out of the game: removed at setup, Laura's unplayable cards
    layout: tuple[Pose | None, ...] = ()  # pose of each railway card when known
    to_move: int = 0
    turn: int = 0  # turns played
    over: bool = False
    lost: bool = False  # hard solo: the fourth derailment

    @property
    def front(self) -> str:
        return self.railway[-1]

    @property
    def player(self) -> Seat:
        return self.seats[self.to_move]


@dataclass(frozen=True, slots=True)
class Pass:
    """Caboose one card forward if it can, one penalty card."""

    order: tuple[str, ...] | None = None
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Play:
    """Cards of one value from the hand to the front, then the dice (wheels per die)."""

    cards: tuple[str, ...]
    roll: tuple[int, ...]
    order: tuple[str, ...] | None = None  # Rollecate/LOK'n'ROLL: onto the pile in this order
    place: tuple[Pose, ...] | None = None  # one pose per played card, when the table is seen
    drawn: tuple[str, ...] = ()  # Loose Caboose: cards drawn from a reshuffled pile


@dataclass(frozen=True, slots=True)
class Chaos:
    """Rollecate/LOK'n'ROLL: chaos cards from the hand onto the pile, in this order."""

    cards: tuple[str, ...]


Action = Pass | Play | Chaos


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a turn. `what` is one of the names below; the rest is
    what a log line or the web page needs to say it."""

    what: str
    seat: int = -1
    cards: tuple[str, ...] = ()
    number: int = 0
    detail: dict = field(default_factory=dict, compare=False)


# The engine makes a next state, a seat and about six events on every turn of every
# simulated game, and the simulator a play or two. A frozen dataclass's own __init__ sets
# each field through object.__setattr__, which looks the field up by name every time; these
# set each slot through its descriptor, about twice as fast. They take every field, in the
# order of the class's fields.
_new = object.__new__
_SEAT_FIELDS = ("name", "hand", "pile", "banked", "derailments", "laura")
_set_name, _set_hand, _set_pile, _set_banked, _set_derailments, _set_laura = (
    Seat.__dict__[name].__set__ for name in _SEAT_FIELDS
)
_PLAY_FIELDS = ("cards", "roll", "order", "place", "drawn")
_set_play_cards, _set_roll, _set_order, _set_place, _set_drawn = (
    Play.__dict__[name].__set__ for name in _PLAY_FIELDS
)
_EVENT_FIELDS = ("what", "seat", "cards", "number", "detail")
_set_what, _set_seat, _set_cards, _set_number, _set_detail = (
    Event.__dict__[name].__set__ for name in _EVENT_FIELDS
)
_STATE_FIELDS = (
    "edition",
    "variant",
    "railway",
    "caboose",
    "seats",
    "draw",
    "discard",
    "out",
    "layout",
    "to_move",
    "turn",
    "over",
    "lost",
)
(
    _set_edition,
    _set_variant,
    _set_railway,
    _set_caboose,
    _set_seats,
    _set_draw,
    _set_discard,
    _set_out,
    _set_layout,
    _set_to_move,
    _set_turn,
    _set_over,
    _set_lost,
) = (GameState.__dict__[name].__set__ for name in _STATE_FIELDS)


def make_event(what: str, seat: int, cards: tuple[str, ...], number: int, detail: dict) -> Event:
    """`Event(what, seat, cards, number, detail)`, made faster (see above)."""
    made = _new(Event)
    _set_what(made, what)
    _set_seat(made, seat)
    _set_cards(made, cards)
    _set_number(made, number)
    _set_detail(made, detail)
    return made


def make_seat(
    name: str,
    hand: tuple[str, ...],
    pile: tuple[str, ...],
    banked: tuple[str, ...],
    derailments: int,
    laura: bool,
) -> Seat:
    """`Seat(...)` with every field given by position, made faster (see above)."""
    made = _new(Seat)
    _set_name(made, name)
    _set_hand(made, hand)
    _set_pile(made, pile)
    _set_banked(made, banked)
    _set_derailments(made, derailments)
    _set_laura(made, laura)
    return made


def make_play(
    cards: tuple[str, ...],
    roll: tuple[int, ...],
    order: tuple[str, ...] | None,
    place: tuple[Pose, ...] | None,
    drawn: tuple[str, ...],
) -> Play:
    """`Play(...)` with every field given by position, made faster (see above)."""
    made = _new(Play)
    _set_play_cards(made, cards)
    _set_roll(made, roll)
    _set_order(made, order)
    _set_place(made, place)
    _set_drawn(made, drawn)
    return made


def make_state(
    edition: Edition,
    variant: str | None,
    railway: tuple[str, ...],
    caboose: int,
    seats: tuple[Seat, ...],
    draw: tuple[str, ...],
    discard: tuple[str, ...],
    out: tuple[str, ...],
    layout: tuple[Pose | None, ...],
    to_move: int,
    turn: int,
    over: bool,
    lost: bool,
) -> GameState:
    """`GameState(...)` with every field given by position, made faster (see above)."""
    made = _new(GameState)
    _set_edition(made, edition)
    _set_variant(made, variant)
    _set_railway(made, railway)
    _set_caboose(made, caboose)
    _set_seats(made, seats)
    _set_draw(made, draw)
    _set_discard(made, discard)
    _set_out(made, out)
    _set_layout(made, layout)
    _set_to_move(made, to_move)
    _set_turn(made, turn)
    _set_over(made, over)
    _set_lost(made, lost)
    return made


# Event names, one concept one name: the log, the web page and the tests use these.
DREW = "drew"
PASSED = "passed"
PLAYED = "played"
ROLLED = "rolled"
MOVED = "moved"  # detail: from, to (railway indices before penalties)
BROKEN_TRACK = "broken-track"  # number: railway index reached
DERAILED = "derailed"  # number: steps it could not take
TOOK = "took"  # cards: the card; detail: source (railway/draw/reshuffled), cause
RESHUFFLED = "reshuffled"  # number: cards in the new draw pile
FORGIVEN = "forgiven"  # number: penalty cards nothing was left to pay with
BANKED = "banked"
PILED = "piled"  # a card put on top of the pile
CANCELLED = "cancelled"  # cards: the card and the top card it cancelled (or combined with)
CHAOS = "chaos"
LEFT_GAME = "left-game"  # Laura's unplayable card
LOST = "lost"  # hard solo: the fourth derailment
GAME_OVER = "game-over"  # cards: (); detail: winners, decided_by
