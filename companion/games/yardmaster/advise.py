"""The private advisor (`POST /api/advise`) for Yardmaster Express: for each card a player
says they hold, every way the rules let them add it to their train now (face up as
printed, turned end for end, face down: `rules.ways`), and what that does to their score
and their longest cargo run, before -> after, scored by the rules' own `score`.

At a real table the hand is the players' own (the deck is shuffled by hand): the page
cannot list it, so a player types it on their phone. The answer changes nothing, and the
hand is checked against the deck and the cards seen in the trains, then forgotten.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from companion.games.protocol import Malformed, Refusal, advised_seat, check_held
from companion.games.yardmaster import cards, rules
from companion.games.yardmaster.rules import Add, Yard
from companion.games.yardmaster.snapshot import Snapshot
from companion.games.yardmaster.view import card_words, colour_name

# Why the advisor marks a way best (the page words each: `reason_<code>`).
ONLY_PLAY = "only_play"  # the hand allows one way only
MOST_POINTS = "most_points"  # the most points for the player's train
LONGEST_RUN = "longest_run"  # points level with another way: the longer cargo run decides


def advise(match: Any, seat: Any, hand: Any, lang: str) -> dict[str, Any]:
    """The advice for `seat` holding `hand` at the table `match` keeps (the game's `advise`
    entry: the table calls it under its lock); colours are named in `lang`."""
    snap = getattr(match, "snap", None)
    if snap is None:  # the lobby: no game is being played
        raise Refusal(
            "game", "no game is being played: start one first", conflict=True, key="no_game"
        )
    try:
        return advice(snap, seat, hand, lang)
    except Malformed as refusal:  # a card the hand cannot hold, said in words on the phone
        if refusal.key in ("not_in_edition", "all_seen"):
            code = refusal.params["code"]
            colours = {colour for colour, _ in cards.railcars(code)}
            ours = colours <= set(snap.edition.colours)  # else no card at all: as typed
            refusal.params["card"] = card_words(snap.edition, code, lang) if ours else code
        raise


def advice(snap: Snapshot, seat: Any, hand: Any, lang: str = "en") -> dict[str, Any]:
    """Every way each card of `hand` may be added to `seat`'s train now, with the player's
    score and longest cargo run before and after, the best marked with its reason. A seat
    not to move is advised on the table as it is now (only the mover holds the hand)."""
    yard = snap.yard
    index = advised_seat(seat, len(yard.players))
    held = check_hand(snap, index, hand)
    if yard.over:
        raise Refusal("Y-7", "the game is over: every round has been played", conflict=True,
                      key="over")  # fmt: skip
    train = yard.trains[index]
    before = rules.score(yard)[index]
    ways = []
    for card in dict.fromkeys(held):
        for add in rules.ways(train[-1], card):
            after = _with(yard, index, add.laid)
            ways.append(
                {
                    "card": card,
                    "way": _way(add),
                    "laid": add.laid,
                    "score": {"before": before.score, "after": rules.score(after)[index].score},
                    "run": {
                        "before": before.longest_run,
                        "after": rules.longest_run(after.trains[index]),
                    },
                    "best": False,
                }
            )
    deck = snap.edition.deck_for(len(yard.players))
    return {
        "seat": index,
        "name": yard.players[index],
        "to_move": index == yard.to_move,
        "mover": yard.players[yard.to_move] if yard.to_move is not None else None,
        "hand": list(held),
        "train": list(train),
        "score": before.score,
        "longest_run": before.longest_run,
        "ways": ways,
        "best": _best(ways),
        "cards": [{"group": "railcars", "codes": list(dict.fromkeys(deck))}],
        "railcars": {
            code: [
                {"colour": colour, "value": value, "name": colour_name(snap.edition, colour, lang)}
                for colour, value in cards.railcars(code)
            ]
            for code in dict.fromkeys(deck)
        },
    }


def check_hand(snap: Snapshot, seat: int, hand: Any) -> tuple[str, ...]:
    """The hand as card codes, or `Malformed` naming the first card that cannot be held: no
    railcar card, none of this game's deck, more cards than the hand holds now (with the
    card drawn this turn), or a card already seen in a train (each card is in the deck once)."""
    if not isinstance(hand, list):
        raise Malformed(
            "request", "hand must be a list of card codes", key="hand_list", fields=["hand"]
        )
    yard = snap.yard
    deck = Counter(snap.edition.deck_for(len(yard.players)))
    for code in hand:
        try:
            cards.railcars(code)
        except cards.CardCodeError:
            raise Malformed(
                "hand",
                f"{code!r} is not a card code",
                key="not_a_card",
                params={"code": str(code)},
                fields=["hand"],
            ) from None
        if not deck[code]:
            raise Malformed(
                "hand",
                f"{snap.edition.name} with {len(yard.players)} players has no card {code}",
                key="not_in_edition",
                fields=["hand"],
                params={"code": code, "edition": snap.edition.name},
            )
    holds = len(yard.in_hand)
    if len(hand) > holds:
        name = yard.players[seat]
        raise Malformed(
            "hand",
            f"{name} holds at most {holds} cards now, not {len(hand)}",
            key="too_many",
            fields=["hand"],
            params={"name": name, "most": holds, "given": len(hand)},
        )
    # A real table's cards added face down are the companion's guesses: only those seen count.
    seen = Counter(add.card for add in snap.adds if not (snap.provisional and add.face_down))
    check_held(hand, deck, seen)
    return tuple(hand)


def _with(yard: Yard, seat: int, laid: str) -> Yard:
    """The game with `laid` at the end of `seat`'s train, nothing else changed: what its
    scores would be."""
    trains = (*yard.trains[:seat], (*yard.trains[seat], laid), *yard.trains[seat + 1 :])
    return replace(yard, trains=trains)


def _way(add: Add) -> str:
    """The way's name as the table's page says it (view.py's `printed`, `turned`, …)."""
    return "face_down" if add.face_down else "turned" if add.turned else "printed"


def _best(ways: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The way that brings the most points, the longer cargo run among equal ones; the ways
    as good as it are named."""
    if not ways:
        return None

    def weight(way: dict[str, Any]) -> tuple[int, int]:
        return way["score"]["after"], way["run"]["after"]

    best = max(ways, key=weight)
    best["best"] = True
    tied = [[w["card"], w["way"]] for w in ways if w is not best and weight(w) == weight(best)]
    level = [w for w in ways if w["score"]["after"] == best["score"]["after"]]
    if len(ways) == 1:
        reason = ONLY_PLAY
    elif len(level) > len(tied) + 1:
        reason = LONGEST_RUN
    else:
        reason = MOST_POINTS
    return {"card": best["card"], "way": best["way"], "reason": reason, "tied": tied}
