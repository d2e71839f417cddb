"""The private advisor (`POST /api/advise`): what each move would risk for the hand one
seat says it holds, on the table as it stands now.

At a real table the companion does not know the hands (the deck is shuffled by hand), so
the page cannot show a player's odds; a player types their hand on their own phone and
asks. The answer is computed with the rules' own functions (`derail_odds` for the dice,
`engine.apply` for a pass, `discard` for R-7's orders, `order_options` as the page lists
them), never a copy of them, and it changes nothing: the hand is checked against the
edition's box and the cards in sight, then forgotten.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from companion.games.caboose import cards
from companion.games.caboose.rules import discard, engine
from companion.games.caboose.rules.odds import Odds, derail_odds
from companion.games.caboose.rules.penalties import penalty_cards
from companion.games.caboose.rules.state import TOOK, GameState, Pass, Seat
from companion.games.caboose.view import MAX_ORDER_CARDS, fraction_json, odds_json, order_options
from companion.games.caboose.view import placements as fitting_placements
from companion.games.caboose.words import card_words
from companion.games.protocol import Malformed, Refusal, advised_seat, check_held

# Why the advisor marks a move best (the page words each: `advise_reason_<code>`).
ONLY_PLAY = "only_play"  # one legal play, and passing costs no less
NO_RISK = "no_risk"  # the play can cost nothing whatever the dice show
LEAST_PENALTY = "least_penalty"  # the fewest penalty cards expected of all the plays
PASS_CHEAPER = "pass_cheaper"  # passing costs fewer cards than any play is expected to
MUST_PASS = "must_pass"  # no card of the hand can be laid on the front card


def advise(match: Any, seat: Any, hand: Any, lang: str) -> dict[str, Any]:
    """The advice for `seat` holding `hand` at the table `match` keeps (the game's `advise`
    entry: the table calls it under its lock), with each card's words in `lang` (`names`:
    the page says cards in words, never by their codes) beside the codes it sends back."""
    game = getattr(match, "snap", None)
    if game is None:  # the lobby: no game is being played
        raise Refusal(
            "game", "no game is being played: start one first", conflict=True, key="no_game"
        )
    try:
        answer = advice(game.state, seat, hand, provisional=game.provisional)
    except Malformed as refusal:  # a card the hand cannot hold, said in words on the phone
        if refusal.key in ("not_in_edition", "all_seen"):
            refusal.params["card"] = card_words(refusal.params["code"], lang)
        raise
    deck = {cards.base(code) for code in game.state.edition.deck}
    return answer | {"names": {code: card_words(code, lang) for code in sorted(deck)}}


def advice(state: GameState, seat: Any, hand: Any, *, provisional: bool = False) -> dict[str, Any]:
    """Every legal play of `hand` onto the front card with its exact chance to derail and
    its expected penalty, passing and what it costs, each chaos card and what discarding it
    does, R-7's orders for each derailment's penalty cards, and the best move with its
    reason. `provisional`: a real table's deal, whose piles are partly the companion's
    guess, so only the railway is checked against the hand."""
    index = _seat(state, seat)
    held = check_hand(state, index, hand, provisional)
    if state.over:
        raise Refusal("R-14", "the game is over: no more turns", conflict=True, key="over")
    player = state.seats[index]
    orders: dict[tuple[str, ...], list[dict[str, Any]]] = {}  # shared by plays taking the same
    plays = [_play(state, player, odds, orders) for odds in derail_odds(state, held)]
    passing = _pass(state, index, held)
    best = _best(plays, passing)
    return {
        "seat": index,
        "name": player.name,
        "to_move": index == state.to_move,
        "mover": state.player.name,
        "edition": state.edition.id,
        "hand": list(held),
        "front": state.front,
        "pile": list(player.pile),
        "points": _points(player.pile),
        # Loose Caboose cancels each penalty card as it comes: no order to choose.
        "orders": not state.edition.cancel_at_once,
        "plays": plays,
        "pass": passing,
        "chaos": [
            _chaos(player.pile, code) for code in dict.fromkeys(held) if cards.is_chaos(code)
        ],
        "chaos_all": _all_chaos(player.pile, [code for code in held if cards.is_chaos(code)]),
        "best": best,
        "cards": buttons(state),
    }


def buttons(state: GameState) -> list[dict[str, Any]]:
    """The cards a hand of this edition may hold, as the page's rows of buttons: track
    cards, broken tracks and chaos cards by value (the shape changes no odds); a kind the
    edition lacks has no row."""
    found: dict[str, list[str]] = {cards.TRACK: [], cards.BROKEN: [], cards.CHAOS: []}
    for code in sorted({cards.base(code) for code in state.edition.deck}, key=_button_order):
        found[cards.kind(code)].append(code)
    return [{"group": kind, "codes": codes} for kind, codes in found.items() if codes]


def _button_order(code: str) -> tuple[int, int]:
    return cards.value(code), len(code)


def check_hand(
    state: GameState, seat: int, hand: Any, provisional: bool = False
) -> tuple[str, ...]:
    """The hand as card codes, or `Malformed` naming the first card that cannot be held:
    no card code, none of the edition's cards, more cards than the seat holds (with the card
    it draws this turn), or more of a card than the box has beside those in sight."""
    if not isinstance(hand, list):
        raise Malformed(
            "request", "hand must be a list of card codes", key="hand_list", fields=["hand"]
        )
    for code in hand:
        try:
            cards.parse(code)
        except cards.CardCodeError:
            raise Malformed(
                "hand",
                f"{code!r} is not a card code",
                key="not_a_card",
                params={"code": str(code)},
                fields=["hand"],
            ) from None
    edition = state.edition
    box = _counts(edition.deck)
    for code in hand:
        if not box[code]:
            raise Malformed(
                "hand",
                f"{edition.name} has no card {code}",
                key="not_in_edition",
                fields=["hand"],
                params={"code": code, "edition": edition.name},
            )
    holds = len(state.seats[seat].hand) + (1 if seat == state.to_move and state.draw else 0)
    if len(hand) > holds:
        raise Malformed(
            "hand",
            f"{state.seats[seat].name} holds at most {holds} cards now, not {len(hand)}",
            key="too_many",
            fields=["hand"],
            params={"name": state.seats[seat].name, "most": holds, "given": len(hand)},
        )
    check_held(hand, box, _counts(_in_sight(state, provisional)))
    return tuple(hand)


def _seat(state: GameState, seat: Any) -> int:
    index = advised_seat(seat, len(state.seats))
    if state.seats[index].laura:
        raise Malformed(
            "R-10",
            "Laura holds no hand: she plays or passes the card she draws",
            key="laura",
            fields=["seat"],
        )
    return index


def _counts(codes: Sequence[str]) -> Counter[str]:
    """Cards counted by value and kind, and a code naming its shape also by that shape (as
    the engine checks a dealt table)."""
    found = Counter(cards.base(code) for code in codes)
    found.update(code for code in codes if code != cards.base(code))
    return found


def _in_sight(state: GameState, provisional: bool) -> tuple[str, ...]:
    """The cards face up on the table that no hand can hold: the railway, and where the
    deal is known the discard pile and every penalty pile (a provisional deal's piles hold
    the companion's guesses for cards taken from the draw pile)."""
    if provisional:
        return state.railway
    piles = tuple(code for seat in state.seats for code in seat.pile + seat.banked)
    return state.railway + state.discard + piles


def _points(pile: Sequence[str]) -> int:
    return sum(cards.value(code) for code in pile)


def _exact(value: Fraction) -> dict[str, Any]:
    return {"num": value.numerator, "den": value.denominator, "value": round(float(value), 2)}


def _play(
    state: GameState, player: Seat, odds: Odds, orders: dict[tuple[str, ...], list[dict[str, Any]]]
) -> dict[str, Any]:
    """One play's odds as the page shows them, whether its cards fit on the table (when the
    railway's poses are known), and per number of penalty cards its chance and R-7's
    orders of those cards. `orders`: the orders of the penalty cards already listed for
    another play (the back cards of the railway are the same for most plays, and listing
    every order is the dearest part of a question)."""
    where = fitting_placements(state, odds.cards)
    doc = odds_json(odds) | {
        "expected": _exact(odds.expected_penalty),
        "fits": where is None or bool(where),
        "best": False,
    }
    after = state.railway + odds.cards
    outcomes = []
    for taken_count, rolls in enumerate(odds.by_penalty):
        if not rolls or not taken_count:
            continue
        entry: dict[str, Any] = {
            "cards": taken_count,
            "chance": fraction_json(Fraction(rolls, odds.outcomes)),
        }
        # Penalty cards come from the back of the railway; beyond the caboose's card
        # Loose Caboose takes them from the draw pile, unseen.
        if not state.edition.cancel_at_once and taken_count <= MAX_ORDER_CARDS:
            taken, _ = penalty_cards(after, taken_count)
            if taken not in orders:
                best = discard.best_order(player.pile, taken)
                orders[taken] = [_order(o) for o in order_options(player.pile, taken, best)]
            entry["taken"] = list(taken)
            entry["orders"] = orders[taken]
        outcomes.append(entry)
    doc["outcomes"] = outcomes
    return doc


def _order(option: dict[str, Any]) -> dict[str, Any]:
    """One of `order_options`' piles; its `chosen` (the players' order there) is R-7's
    best here, the options coming best first."""
    return {key: option[key] for key in ("order", "pile", "points", "cancels")}


def _pass(state: GameState, seat: int, hand: tuple[str, ...]) -> dict[str, Any]:
    """What passing costs now, as the engine plays it: the caboose one card forward (a
    broken track reached costs a card, R-4) and one penalty card (R-2)."""
    player = replace(state.seats[seat], hand=hand)
    seats = (*state.seats[:seat], player, *state.seats[seat + 1 :])
    after, events = engine.apply(replace(state, seats=seats, to_move=seat), Pass())
    taken = [event for event in events if event.what == TOOK]
    seen = [event.cards[0] for event in taken if event.detail.get("source") == "railway"]
    pile = after.seats[seat].pile
    known = len(seen) == len(taken)
    return {
        "cards": len(taken),
        "broken": any(event.detail.get("cause") == "broken" for event in taken),
        "taken": seen,
        "pile": list(pile) if known else None,
        "points": _points(pile) if known else None,
        "best": False,
    }


def _chaos(pile: Sequence[str], code: str) -> dict[str, Any]:
    """A chaos card discarded onto the pile (no caboose move, no penalty): it combines with
    an equal top card, both leaving the pile, or lies on top and counts its value."""
    after, steps = discard.place(pile, [code])
    return {
        "card": code,
        "combines": steps[0][1],
        "pile": list(after),
        "points": _points(after),
        "change": _points(after) - _points(pile),
    }


def _all_chaos(pile: Sequence[str], chaos: Sequence[str]) -> dict[str, Any] | None:
    """Every chaos card of the hand discarded in one turn, in R-7's best order (the rules let
    them go onto the pile in any order, combining as they go), when there are two or more."""
    if len(chaos) < 2:
        return None
    order = discard.best_order(pile, chaos)
    after = discard.place(pile, order)[0]
    return {
        "order": list(order),
        "pile": list(after),
        "points": _points(after),
        "change": _points(after) - _points(pile),
    }


def _best(plays: list[dict[str, Any]], passing: dict[str, Any]) -> dict[str, Any]:
    """The move that costs the fewest penalty cards expected: a play that fits (the lowest
    chance to derail, then the most cards laid, among equal ones), or passing when it costs
    fewer; the plays as good as the best are named."""
    fitting = [play for play in plays if play["fits"]]
    if not fitting:
        passing["best"] = True
        return {"kind": "pass", "cards": [], "reason": MUST_PASS, "tied": []}

    def weight(play: dict[str, Any]) -> tuple[Fraction, Fraction]:
        derail = play["p_derail"]
        expected = play["expected"]
        return (
            Fraction(expected["num"], expected["den"]),
            Fraction(derail["num"], derail["den"]),
        )

    ranked = sorted(fitting, key=lambda play: (*weight(play), -len(play["cards"])))
    best = ranked[0]
    if passing["cards"] < weight(best)[0]:
        passing["best"] = True
        return {"kind": "pass", "cards": [], "reason": PASS_CHEAPER, "tied": []}
    best["best"] = True
    tied = [play["cards"] for play in ranked[1:] if weight(play) == weight(best)]
    if len(fitting) == 1:
        reason = ONLY_PLAY
    elif weight(best)[0] == 0:
        reason = NO_RISK
    else:
        reason = LEAST_PENALTY
    return {"kind": "play", "cards": best["cards"], "reason": reason, "tied": tied}
