"""The rules of all three editions: `deal` a game, `apply` one turn.

Pure and deterministic: no I/O, no clock, no randomness that is not an argument. A turn is
one action (pass, play with its dice, or chaos cards); `apply` checks it completely before
it changes anything, so an illegal action raises `RuleError` and the state stays as it was.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.rules import chance, discard, geometry
from companion.games.caboose.rules.edition import Edition, load
from companion.games.caboose.rules.penalties import (
    beyond_the_railway,
    broken_offsets,
    caboose_run,
    penalties_paid,
    penalty_cards,
)
from companion.games.caboose.rules.scoring import final_ranking
from companion.games.caboose.rules.state import (
    BANKED,
    BROKEN_TRACK,
    CANCELLED,
    CHAOS,
    DERAILED,
    DREW,
    FORGIVEN,
    GAME_OVER,
    LEFT_GAME,
    LOST,
    MOVED,
    PASSED,
    PILED,
    PLAYED,
    RESHUFFLED,
    ROLLED,
    TOOK,
    Action,
    Chaos,
    Event,
    GameState,
    Pass,
    Play,
    RuleError,
    Seat,
    make_event,
    make_seat,
    make_state,
)


def deal(
    edition_id: str, names: Sequence[str], seed: int | str, variant: str | None = None
) -> GameState:
    """Set a game up from a seeded shuffle, as the edition's rulebook does it at the table."""
    edition = load(edition_id)
    seats = _seats_for(edition, names, variant)
    rng = random.Random(seed)
    deck = list(edition.deck)
    chance.shuffle(rng, deck)
    railway: list[str] = []
    set_aside: list[str] = []
    while len(railway) < edition.first_railway:
        if not deck:
            raise RuleError("setup", "the deck ran out while laying the first railway")
        code = deck.pop(0)
        if edition.set_aside_at_setup and not _fits_first_railway(edition, railway, code):
            set_aside.append(code)  # LOK'n'ROLL: set aside, shuffled back afterwards
            continue
        railway.append(code)
    if set_aside:
        deck += set_aside
        chance.shuffle(rng, deck)
    removed = edition.removed_at_setup[len(seats)]
    out, deck = deck[:removed], deck[removed:]
    hands: list[list[str]] = [[] for _ in seats]
    for _ in range(edition.hand):
        for index, seat in enumerate(seats):
            if not seat.laura:
                hands[index].append(deck.pop(0))
    layout = geometry.first_railway_layout(edition, railway) or (None,) * len(railway)
    return GameState(
        edition=edition,
        variant=variant,
        railway=tuple(railway),
        caboose=edition.first_caboose,
        seats=_with_hands(seats, hands),
        draw=tuple(deck),
        out=tuple(out),
        layout=tuple(layout),
    )


def start(
    edition_id: str,
    names: Sequence[str],
    railway: Sequence[str],
    caboose: int,
    hands: Sequence[Sequence[str]],
    draw: Sequence[str],
    discard_pile: Sequence[str] = (),
    variant: str | None = None,
) -> GameState:
    """A game from a dealt table, as a record's `setup` gives it (R-12: taken as it stands)."""
    edition = load(edition_id)
    seats = _seats_for(edition, names, variant, named_laura=True)
    _check_cards_exist(edition, [railway, draw, discard_pile, *hands])
    if len(hands) != len(seats):
        raise RuleError("setup", f"{len(hands)} hands for {len(seats)} players")
    _check_cards_in_play(edition, len(seats), [railway, draw, discard_pile, *hands])
    if not railway:
        raise RuleError("setup", "the railway needs at least one card")
    if not 0 <= caboose < len(railway):
        raise RuleError("setup", f"the caboose index {caboose} is not on the railway")
    if not draw:
        raise RuleError(
            "R-14",
            "the setup's draw pile is empty: the game ended with the turn that drew its last "
            "card, so no turn can follow; a setup has cards left to draw",
        )
    _check_discard_pairs(discard_pile)
    chaos_track = [code for code in railway if cards.is_chaos(code)]
    if chaos_track:
        raise RuleError(
            "setup",
            f"the railway shows chaos card {chaos_track[0]}: chaos cards are never track; "
            "they go from a hand onto a penalty pile",
        )
    for seat, hand in zip(seats, hands, strict=True):
        if seat.laura and hand:
            raise RuleError(
                "R-10",
                f"Laura holds {', '.join(hand)} in the setup, but she never holds a hand: "
                "she plays or passes the card she draws each turn; give her an empty hand",
            )
    return GameState(
        edition=edition,
        variant=variant,
        railway=tuple(railway),
        caboose=caboose,
        seats=_with_hands(seats, hands),
        draw=tuple(draw),
        discard=tuple(discard_pile),
        layout=(None,) * len(railway),
    )


def _with_hands(seats: Sequence[Seat], hands: Sequence[Sequence[str]]) -> tuple[Seat, ...]:
    """The seats holding these hands (not dataclasses.replace: every simulated game deals)."""
    return tuple(
        make_seat(s.name, tuple(h), s.pile, s.banked, s.derailments, s.laura)
        for s, h in zip(seats, hands, strict=True)
    )


def _check_cards_in_play(edition: Edition, seats: int, groups: Sequence[Sequence[str]]) -> None:
    """The cards removed at setup never come back: a table shows at most the rest."""
    removed = edition.removed_at_setup[seats]
    in_play = len(edition.deck) - removed
    shown = sum(len(group) for group in groups)
    if shown > in_play:
        raise RuleError(
            "setup",
            f"the table shows {shown} cards, but a game of {edition.name} with {seats} seats "
            f"has {in_play} in play: {removed} of the {len(edition.deck)} are removed at setup",
        )


def _check_discard_pairs(discard_pile: Sequence[str]) -> None:
    """Cards reach the discard pile only by cancelling or combining, two of one value at a
    time (R-1); the reshuffle of R-3 takes the whole pile. An odd count of a value cannot be."""
    odd = sorted(v for v, n in Counter(map(cards.value, discard_pile)).items() if n % 2)
    if odd:
        raise RuleError(
            "R-1",
            f"the setup's discard pile holds an odd number of {odd[0]}s: cards are only ever "
            "discarded in pairs of equal value, a card with the top card it cancelled",
        )


def _check_cards_exist(edition: Edition, groups: Sequence[Sequence[str]]) -> None:
    """Every card of a dealt table must be in the edition's box, no more often than it is:
    counted by value and kind, and a code that names its shape also by that shape."""
    box = Counter(cards.base(code) for code in edition.deck)
    box.update(code for code in edition.deck if code != cards.base(code))
    seen: Counter[str] = Counter()
    for group in groups:
        for code in group:
            try:
                cards.parse(code)
            except cards.CardCodeError as error:
                raise RuleError("setup", str(error)) from None
            seen[cards.base(code)] += 1
            if code != cards.base(code):
                seen[code] += 1
    for code, count in seen.items():
        if count > box[code]:
            have = f"has {box[code]}" if box[code] else "has none"
            raise RuleError(
                "setup", f"the table shows {count} of card {code}; {edition.name} {have}"
            )


def _seats_for(
    edition: Edition, names: Sequence[str], variant: str | None, named_laura: bool = False
) -> list[Seat]:
    if variant is not None and variant not in edition.variants:
        allowed = ", ".join(edition.variants) or "none"
        raise RuleError(
            "setup",
            f"{edition.name} has no variant {variant!r} (variants: {allowed})",
            key="no_variant" if edition.variants else "no_variants",
            params={"edition": edition.name, "variant": str(variant), "allowed": allowed},
        )
    names = [str(n).strip() for n in names]
    if any(not n for n in names):
        raise RuleError("setup", "every player needs a name", key="names_missing")
    rules = edition.variants.get(variant) if variant is not None else None
    if rules is not None and rules.rival is not None:
        # the rival moves first and is seat 0; a record lists them, a new game adds them.
        if named_laura:
            if len(names) != rules.players + 1:
                seats = _count(rules.players + 1, "seat")
                raise RuleError(
                    "setup",
                    f"{rules.name} has {seats}: {rules.rival}, then you",
                    key="rival_seats",
                    params={
                        "variant": rules.name,
                        "seats": rules.players + 1,
                        "rival": rules.rival,
                    },
                )
            return [Seat(names[0], laura=True), *(Seat(n) for n in names[1:])]
        if len(names) != rules.players:
            raise _variant_players(rules.name, rules.players)
        return [Seat(rules.rival, laura=True), *(Seat(n) for n in names)]
    if rules is not None:
        if len(names) != rules.players:
            raise _variant_players(rules.name, rules.players)
    elif not edition.min_players <= len(names) <= edition.max_players or len(names) < 2:
        raise RuleError(
            "setup",
            f"{edition.name} is for 2 to {edition.max_players} players, not {len(names)}",
            key="edition_players",
            params={"edition": edition.name, "most": edition.max_players, "given": len(names)},
        )
    return [Seat(n) for n in names]


def _variant_players(variant: str, players: int) -> RuleError:
    """A variant played by another number of players than it is for."""
    return RuleError(
        "setup",
        f"{variant} is for {_count(players, 'player')}",
        key="variant_players_one" if players == 1 else "variant_players",
        params={"variant": variant, "players": players},
    )


def _count(number: int, thing: str) -> str:
    """ "one player", "two seats": how a setup message counts the people of a variant."""
    words = ("no", "one", "two", "three", "four", "five")
    said = words[number] if number < len(words) else str(number)
    return f"{said} {thing}" if number == 1 else f"{said} {thing}s"


def _fits_first_railway(edition: Edition, railway: list[str], code: str) -> bool:
    if cards.is_chaos(code):
        return False
    return not railway or not _differ_forbidden(edition, railway[-1], code)


def _differ_forbidden(edition: Edition, a: str, b: str) -> bool:
    return gap_forbids(edition.forbidden_difference, cards.value(a), cards.value(b))


def gap_forbids(gap: int | None, a: int, b: int) -> bool:
    """Whether cards of values `a` and `b` may not be joined, given the edition's forbidden
    gap (None: none): Rollecate's and LOK'n'ROLL's adjacent values never differ by it
    (R-11). By the gap alone, not the edition, so that callers can cache by it."""
    return gap is not None and abs(a - b) == gap


def dice_to_roll(state: GameState, played: Sequence[str]) -> int:
    """How many dice the player to move rolls for `played`: as many as the edition says
    (their value or the sum of their values), none for Laura, who moves by her card's value
    (R-10)."""
    return 0 if state.player.laura else state.edition.dice_for(tuple(played))


# --- legal actions ----------------------------------------------------------------------


def _take_from_hand(hand: tuple[str, ...], wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    """(cards taken, hand left) matching each wanted code, shapes ignored when not named."""
    left = list(hand)
    taken = []
    for code in wanted:
        try:
            if code not in left:  # a held card's code is a good one: only others are parsed
                cards.parse(code)
        except cards.CardCodeError as error:
            raise RuleError("hand", str(error)) from None
        if "/" in code and code in left:  # a code naming its shape matches only itself
            taken.append(left.pop(left.index(code)))
            continue
        for index, held in enumerate(left):
            if cards.matches(code, held):
                taken.append(left.pop(index))
                break
        else:
            if not hand:
                raise RuleError(
                    "hand",
                    f"{code} is not in the hand (the hand holds no cards)",
                    key="not_in_empty_hand",
                    params={"code": code},
                )
            shown = ", ".join(hand)
            raise RuleError(
                "hand",
                f"{code} is not in the hand (the hand holds {shown})",
                key="not_in_hand",
                params={"code": code, "hand": shown},
            )
    return taken, left


def laura_action(state: GameState) -> Action:
    """What Laura must do this turn (R-10): she draws and plays what she drew if she can."""
    if not state.draw:
        return Pass()
    drawn = state.draw[0]
    if cards.is_chaos(drawn):
        return Chaos((drawn,))
    if _differ_forbidden(state.edition, state.front, drawn):
        return Pass()
    if state.layout and state.layout[-1] is not None:
        placements = geometry.legal_placements(state.edition, state.railway, state.layout, drawn)
        if not placements:
            return Pass()
        return Play((drawn,), (), place=(placements[0],))
    return Play((drawn,), ())


# --- one turn ---------------------------------------------------------------------------


class _Turn:
    """The mutable scratch of one turn; `apply` turns it back into a frozen state. Slots:
    a simulated turn reads and writes these a few dozen times."""

    __slots__ = (
        "banked",
        "caboose",
        "derailments",
        "discard",
        "draw",
        "drawn_from_reshuffle",
        "edition",
        "emptied_draw",
        "events",
        "hand",
        "layout",
        "out",
        "pile",
        "railway",
        "requested_drawn",
        "reshuffled",
        "seat",
        "seat_index",
        "state",
        "taken",
    )

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.edition = state.edition
        self.seat_index = state.to_move
        self.seat = seat = state.seats[state.to_move]
        self.hand = list(seat.hand)
        # The hand changes every turn and is a list; the rest are the state's own tuples,
        # replaced when they change (most turns leave most alone; the draw pile loses its
        # top card, one slice, rather than being copied to a list and back).
        self.pile = seat.pile
        self.banked = seat.banked
        self.derailments = seat.derailments
        self.railway = state.railway
        self.layout = state.layout or (None,) * len(state.railway)
        self.caboose = state.caboose
        self.draw = state.draw
        self.discard = state.discard
        self.out = state.out
        self.taken: list[str] = []  # Rollecate/LOK'n'ROLL: onto the pile at the end of the turn
        self.requested_drawn: tuple[str, ...] = ()
        self.drawn_from_reshuffle: list[str] = []
        self.reshuffled = False
        self.emptied_draw = False
        self.events: list[Event] = []

    def event(
        self,
        what: str,
        cards_: tuple[str, ...] = (),
        number: int = 0,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """One event of this turn; `detail` a dict of its own (no ** to pack: a turn makes
        about six)."""
        detail = {} if detail is None else detail
        self.events.append(make_event(what, self.seat_index, cards_, number, detail))

    def draw_top(self) -> str:
        code = self.draw[0]
        self.draw = self.draw[1:]
        if not self.draw:
            self.emptied_draw = True
        return code

    def move(self, steps: int, may_derail: bool) -> int:
        """Move the caboose; returns the steps it could not take. Broken tracks reached
        count (R-4), then the derailment's cards (R-5, R-13)."""
        start = self.caboose
        room = len(self.railway) - 1 - start
        moved, broken, short = caboose_run(room, broken_offsets(self.railway, start), steps)
        self.caboose = start + moved
        self.event(MOVED, (), self.caboose, {"from": start, "to": self.caboose})
        for step in broken:
            self.event(BROKEN_TRACK, (self.railway[start + step],), start + step)
        missing = short if may_derail else 0
        if missing:
            self.derailments += 1
            self.event(DERAILED, number=missing)
        if broken:
            self.take_penalties(len(broken), "broken")
        return missing

    def take_penalties(self, count: int, cause: str) -> None:
        """Take cards one by one from the back (R-2); Loose Caboose then the draw pile, then
        the reshuffled discard pile (R-3); the others stop at the caboose's card."""
        if not count:
            return
        from_railway, _ = penalties_paid(count, self.caboose)
        taken, left = penalty_cards(self.railway, from_railway)
        self.railway, self.layout = left, self.layout[from_railway:]
        self.caboose -= from_railway
        for code in taken:
            self.took(code, "railway", cause)
        for owed in range(count - from_railway, 0, -1):
            # Asked card by card: a card cancelled on the way goes onto the discard pile,
            # which may pay the next one.
            if not beyond_the_railway(self.edition, len(self.draw), len(self.discard)):
                if self.edition.penalties_from_draw:
                    self.event(FORGIVEN, number=owed)
                return
            if self.draw and not self.reshuffled:
                self.took(self.draw_top(), "draw", cause)
            else:
                self.took(self.from_reshuffle(), "reshuffled", cause)

    def took(self, code: str, source: str, cause: str) -> None:
        """A penalty card taken from `source` ("railway", "draw", "reshuffled")."""
        self.event(TOOK, (code,), 0, {"source": source, "cause": cause})
        self.receive(code, cause)

    def from_reshuffle(self) -> str:
        """R-3: the discard pile becomes the draw pile. The players shuffle it at the table;
        the record's `drawn` says which cards came, else they come oldest first."""
        if not self.draw:
            self.draw, self.discard = self.discard, ()
            self.reshuffled = True
            self.event(RESHUFFLED, number=len(self.draw))
        wanted = self.requested_drawn[len(self.drawn_from_reshuffle) :]
        index = 0
        if wanted:
            index = next((i for i, c in enumerate(self.draw) if cards.matches(wanted[0], c)), -1)
            if index < 0:
                raise RuleError("R-3", f"{wanted[0]} was drawn but is not in the discard pile")
        code = self.draw[index]
        self.draw = self.draw[:index] + self.draw[index + 1 :]
        self.drawn_from_reshuffle.append(code)
        return code

    def receive(self, code: str, cause: str) -> None:
        """A penalty card reaches the player: at once in Loose Caboose and for Laura,
        at the end of the turn in the others."""
        if self.edition.bank_broken and cause == "broken":
            self.banked += (code,)
            self.event(BANKED, (code,))
        elif self.edition.cancel_at_once or self.seat.laura:
            self.pile_up((code,))
        else:
            self.taken.append(code)

    def pile_up(self, order: Sequence[str]) -> None:
        pile, steps = discard.place(self.pile, order)
        for card, top in steps:
            if top is None:
                self.event(PILED, (card,))
            else:
                self.discard += (top, card)
                self.event(CANCELLED, (card, top))
        self.pile = pile


_PASS_OR_PLAY = (Pass, Play)  # the turns that may take penalty cards


def apply(
    state: GameState, action: Action, *, laid_by_rules: bool = False
) -> tuple[GameState, tuple[Event, ...]]:
    """The state after one whole turn, and what happened in it. Raises RuleError naming the
    rule when the action is illegal; `state` is never changed.

    `laid_by_rules` says a play's poses are ones `geometry.legal_placements` gave for this
    state (as the bots lay their cards): they are then not checked against the table again,
    a simulated game's costliest check. Poses from outside (the camera, a record, a page)
    are always checked: replaying a simulated record checks every one of its turns."""
    if state.over:
        raise RuleError("R-14", "the game is over: no more turns", key="game_over")
    turn = _Turn(state)
    seat = state.player
    if turn.draw:
        code = turn.draw_top()
        turn.hand.append(code)
        turn.event(DREW, (code,))
    else:
        turn.emptied_draw = True
    if seat.laura:
        _check_laura(state, action)
    if isinstance(action, _PASS_OR_PLAY) and action.order is not None:
        _check_order_is_the_players(state)
    if isinstance(action, Pass):
        _pass(turn, action)
    elif isinstance(action, Play):
        _play(turn, action, laid_by_rules)
    elif isinstance(action, Chaos):
        _chaos(turn, action)
    else:
        raise RuleError("hand", f"{action!r} is not a turn: pass, play or chaos")
    if isinstance(action, _PASS_OR_PLAY) and turn.taken:
        _discard_taken(turn, action.order)
    elif isinstance(action, _PASS_OR_PLAY) and action.order:
        raise RuleError(
            "R-7", "an order was given but no penalty cards were taken", key="order_unneeded"
        )
    if turn.requested_drawn:
        _check_drawn_used(turn)
    return _finish(state, turn)


def _check_order_is_the_players(state: GameState) -> None:
    """`order` is the player's choice of R-7; where nobody chooses, a given order is refused
    for that reason, whatever this turn took."""
    if state.edition.cancel_at_once:
        raise RuleError(
            "R-13",
            f"{state.edition.name} has no discard order: each penalty card goes onto the pile "
            "as it is taken and cancels at once (R-13); R-7's order is for Rollecate and "
            "LOK'n'ROLL only: leave order out",
            key="no_order",
            params={"edition": state.edition.name},
        )
    if state.player.laura:
        raise RuleError(
            "R-10",
            "Laura chooses no order: she puts every penalty card on her pile at once and "
            "always combines (R-10); leave order out of her turns",
            key="laura_no_order",
        )


def _check_drawn_used(turn: _Turn) -> None:
    """`drawn` names cards that came from a reshuffled discard pile (R-3): each one must
    have been drawn from one this turn."""
    extra = turn.requested_drawn[len(turn.drawn_from_reshuffle) :]
    if not extra:
        return
    listed = ", ".join(turn.requested_drawn)
    if not turn.drawn_from_reshuffle:
        raise RuleError(
            "R-3",
            f"drawn lists {listed}, but no card was drawn from a reshuffled discard pile this "
            "turn: drawn is only for penalty cards that come after a reshuffle; leave it out",
        )
    raise RuleError(
        "R-3",
        f"drawn lists {len(turn.requested_drawn)} cards ({listed}), but only "
        f"{len(turn.drawn_from_reshuffle)} came from the reshuffled discard pile this turn: "
        f"{', '.join(turn.drawn_from_reshuffle)}",
    )


def _check_laura(state: GameState, action: Action) -> None:
    expected = laura_action(state)
    unseen = not state.layout or None in state.layout
    if (
        isinstance(action, Pass)
        and isinstance(expected, Play)
        and unseen
        and cards.shape(expected.cards[0]) is not None
    ):
        # Where part of the railway was never seen (a record's setup, R-12), a pass may be
        # what the table's geometry forced: it is taken as recorded.
        return
    if type(action) is not type(expected) or (
        isinstance(action, Play | Chaos)
        and [cards.base(c) for c in action.cards] != [cards.base(c) for c in expected.cards]
    ):
        raise RuleError(
            "R-10",
            f"Laura must {_say_action(expected)} this turn, not {_say_action(action)}",
            key="laura_must_pass"
            if isinstance(expected, Pass)
            else "laura_must_play"
            if isinstance(expected, Play)
            else "laura_must_discard",
            params={"cards": " ".join(getattr(expected, "cards", ()))},
        )
    if isinstance(action, Play) and action.roll:
        raise RuleError(
            "R-10", "Laura never rolls: she moves by the value of her card", key="laura_rolls"
        )


def _say_action(action: Action) -> str:
    if isinstance(action, Pass):
        return "pass"
    verb = "play" if isinstance(action, Play) else "discard"
    return f"{verb} {' '.join(action.cards)}"


def _pass(turn: _Turn, action: Pass) -> None:
    turn.requested_drawn = tuple(action.drawn)
    turn.event(PASSED)
    if turn.seat.laura and turn.hand:
        code = turn.hand.pop()  # the card she could not play leaves the game
        turn.out += (code,)
        turn.event(LEFT_GAME, (code,))
    turn.move(1, may_derail=False)
    turn.take_penalties(1, "pass")


def _play(turn: _Turn, action: Play, laid_by_rules: bool = False) -> None:
    edition = turn.edition
    if not action.cards:
        raise RuleError("hand", "a play needs at least one card", key="play_empty")
    played, turn.hand = _take_from_hand(tuple(turn.hand), action.cards)
    for code in played:
        if cards.is_chaos(code):
            raise RuleError(
                "hand",
                "chaos cards are discarded onto the pile, never played as track",
                key="chaos_as_track",
            )
    new = cards.value(played[0])
    if len(played) > 1 and any(cards.value(code) != new for code in played):
        raise RuleError(
            "hand", "the cards played together must all have the same value", key="mixed_values"
        )
    front = cards.value(turn.railway[-1])
    if gap_forbids(edition.forbidden_difference, new, front):
        raise RuleError(
            "R-11",
            f"a {new} cannot join a {front}: "
            f"adjacent values may not differ by {edition.forbidden_difference}",
            key="values_differ",
            params={"new": new, "front": front, "gap": edition.forbidden_difference},
        )
    poses = _placement(turn, played, action.place, laid_by_rules)
    laura = turn.seat.laura
    _check_roll(edition, 0 if laura else edition.dice_for(played), action.roll)  # dice_to_roll
    turn.requested_drawn = tuple(action.drawn)
    laid = tuple(played)
    turn.railway += laid
    turn.layout += tuple(poses)
    turn.event(PLAYED, laid)
    steps = new if laura else sum(action.roll)
    if not laura:
        turn.event(ROLLED, tuple(map(str, action.roll)), steps)
    missing = turn.move(steps, may_derail=True)
    if missing:
        turn.take_penalties(1 if laura else missing, "derail")


def _placement(turn: _Turn, played: list[str], place, laid_by_rules: bool) -> Sequence:
    if place is None:
        return (None,) * len(played)
    if len(place) != len(played):
        raise RuleError(
            "placement",
            f"{len(place)} positions for {len(played)} cards played",
            key="placement_count",
            params={"positions": len(place), "cards": len(played)},
        )
    if laid_by_rules:
        return place
    try:
        geometry.check_play(turn.edition, turn.railway, turn.layout, played, place)
    except geometry.PlacementError as error:
        raise RuleError("placement", str(error), key=error.key, params=error.params) from None
    return list(place)


def _check_roll(edition: Edition, dice: int, roll: Sequence[int]) -> None:
    faces = _faces(edition.die_faces)
    if len(roll) != dice:
        raise RuleError(
            "dice",
            f"this play rolls {dice} dice, but {len(roll)} results were given",
            key="dice_count",
            params={"dice": dice, "given": len(roll)},
        )
    for wheels in roll:
        if type(wheels) is int and wheels in faces:
            continue  # every die of every simulated turn: the fuller test below is for the rest
        if isinstance(wheels, bool) or not isinstance(wheels, int) or wheels not in faces:
            shown = list(faces)
            raise RuleError(
                "dice",
                f"{wheels!r} is not a face of the dice: each die shows one of {shown}",
                key="dice_face",
                params={"face": repr(wheels), "faces": str(shown)},
            )


@lru_cache(maxsize=16)
def _faces(die_faces: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct faces of a die, in order: what a roll is checked against every turn."""
    return tuple(sorted(set(die_faces)))


def _chaos(turn: _Turn, action: Chaos) -> None:
    if not turn.edition.chaos:
        raise RuleError(
            "hand",
            f"{turn.edition.name} has no chaos cards",
            key="no_chaos_cards",
            params={"edition": turn.edition.name},
        )
    if not action.cards:
        raise RuleError("hand", "discarding chaos cards needs at least one", key="chaos_empty")
    bare = [code.rstrip(discard.NO_COMBINE) for code in action.cards]
    if not all(cards.is_chaos(code) for code in bare):
        raise RuleError("hand", "only chaos cards can be discarded this way", key="chaos_only")
    taken, turn.hand = _take_from_hand(tuple(turn.hand), bare)
    turn.event(CHAOS, tuple(taken))
    keep = [code.endswith(discard.NO_COMBINE) for code in action.cards]
    turn.pile_up([c + discard.NO_COMBINE if k else c for c, k in zip(taken, keep, strict=True)])


def _discard_taken(turn: _Turn, order: Sequence[str] | None) -> None:
    """Rollecate/LOK'n'ROLL: the turn's penalty cards onto the pile (R-7)."""
    if order is None:
        turn.pile_up(discard.best_order(turn.pile, turn.taken))
        return
    wanted = [code.rstrip(discard.NO_COMBINE) for code in order]
    try:
        chosen, left = _take_from_hand(tuple(turn.taken), wanted)
    except RuleError:
        chosen, left = [], ["?"]
    if left or len(chosen) != len(turn.taken):
        raise RuleError(
            "R-7",
            f"the order must list exactly the cards taken this turn: {', '.join(turn.taken)}",
            key="order_cards",
            params={"cards": ", ".join(turn.taken)},
        )
    marks = [code.endswith(discard.NO_COMBINE) for code in order]
    turn.pile_up([c + discard.NO_COMBINE if m else c for c, m in zip(chosen, marks, strict=True)])


def _finish(state: GameState, turn: _Turn) -> tuple[GameState, tuple[Event, ...]]:
    # The makers of state.py, not dataclasses.replace nor the classes themselves: this runs
    # every turn of every simulated game. The turn's railway, layout, piles and draw pile
    # are tuples already.
    seat = make_seat(
        turn.seat.name,
        tuple(turn.hand),
        turn.pile,
        turn.banked,
        turn.derailments,
        turn.seat.laura,
    )
    index = turn.seat_index
    seats = (*state.seats[:index], seat, *state.seats[index + 1 :])
    variant = state.edition.variants.get(state.variant) if state.variant else None
    lost = (
        variant is not None
        and variant.loses_at_derailment is not None
        and turn.derailments >= variant.loses_at_derailment
    )
    if lost:
        turn.event(LOST, number=turn.derailments)
    over = lost or turn.emptied_draw  # R-14, even when R-3 refilled the draw pile
    new = make_state(
        state.edition,
        state.variant,
        turn.railway,
        turn.caboose,
        seats,
        turn.draw,
        turn.discard,
        turn.out,
        turn.layout,
        (state.to_move + 1) % len(seats),
        state.turn + 1,
        over,
        lost,
    )
    if over:
        ranking = final_ranking(new)
        turn.event(GAME_OVER, (), 0, {"winners": ranking.winners, "decided_by": ranking.decided_by})
    return new, tuple(turn.events)
