"""Following a real table's trains through the camera, pure: a still view of the table
compared with the game, which says whether the player to move has added one card, or what
is wrong.

Each player's train lies in front of them, on any side of the table; the engine cards all
look alike, so which train is whose is learnt as the game goes: a train whose cards are a
player's train in the game is theirs, and the train that grew by one card when a player was
to move is the mover's. Once learnt, a train is known by where its engine lies (`owners`),
which holds however alike two trains are. Trains of only an engine are interchangeable
until their player adds a card, so nothing needs to be known before the first round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.said import Said

Point = tuple[float, float]
ENGINE_MM = 60.0  # an engine found this close to where it lay is the same train's


@dataclass(frozen=True)
class TrainSeen:
    """One train as the camera sees it: where its engine lies (table mm) and the cards after
    it as they lie ("R3-B2", "W" face down; None where the camera is not sure of a card)."""

    engine: Point
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class Reading:
    """What a still table says about the game: `added`, the card the player to move has
    added (as it lies), if any; `owners` as learnt now; `problem`, what does not agree
    with the game (nothing counts until it is fixed); `waiting`, why the camera cannot
    tell yet (a card it is not sure of, an engine not laid), which is no one's fault."""

    owners: tuple[Point | None, ...]
    added: str | None = None
    problem: Said | None = None
    waiting: Said | None = None


def compare(
    players: Sequence[str],
    trains: Sequence[Sequence[str]],
    mover: int | None,
    seen: Sequence[TrainSeen],
    owners: Sequence[Point | None],
) -> Reading:
    """A still view of the table (`seen`) against the game's `trains` (as they lie, engine
    first, one per player in `players` order) with `mover` to add a card (None: the game is
    over), given the engines learnt so far (`owners`, by seat)."""
    n = len(players)
    games = [tuple(train[1:]) for train in trains]  # the engine is every train's first card
    if len(seen) < n:
        return Reading(
            tuple(owners),
            waiting=Said(
                "lay_engines",
                f"the camera sees {len(seen)} trains for {n} players: lay every player's "
                "engine card in front of them",
                (("seen", len(seen)), ("players", n)),
            ),
        )
    if len(seen) > n:
        return Reading(
            tuple(owners),
            problem=Said(
                "too_many_trains",
                f"the camera sees {len(seen)} trains for {n} players: take away what is not "
                "a player's train",
                (("seen", len(seen)), ("players", n)),
            ),
        )
    found = _assign(games, mover, seen, owners)
    learnt = tuple(seen[found[seat]].engine if seat in found else owners[seat] for seat in range(n))
    unsure = [seat for seat in found if None in seen[found[seat]].cards]
    if unsure:
        name = players[unsure[0]]
        return Reading(
            learnt,
            waiting=Said(
                "camera_unsure",
                f"the camera is not sure of a card in {name}'s train: straighten it or move "
                "hands and shadows away",
                (("name", name),),
            ),
        )
    added: str | None = None
    for seat in range(n):
        game = games[seat]
        if seat not in found:
            continue  # an engine alone, not yet told from another engine alone
        cards = seen[found[seat]].cards
        if cards == game:
            continue
        if seat == mover and len(cards) == len(game) + 1 and cards[:-1] == game:
            added = cards[-1]
            continue
        said = _differs(players[seat], seat == mover, cards, game)
        if said.key == "train_shorter":
            # a card the game has is not seen: taken away, or under a hand resting at the end
            # of its train (the camera cannot tell a hidden last card from none): said, not
            # buzzed, and nothing is taken until the train shows it again
            return Reading(learnt, waiting=said)
        return Reading(learnt, problem=said)
    strays = [seen[i] for i in range(len(seen)) if i not in found.values() and seen[i].cards]
    if strays:
        return Reading(
            learnt,
            problem=Said(
                "not_the_movers_train",
                "a card lies in a train that is not the player to move's: take it back",
            ),
        )
    return Reading(learnt, added=added)


def _assign(
    games: Sequence[tuple[str, ...]],
    mover: int | None,
    seen: Sequence[TrainSeen],
    owners: Sequence[Point | None],
) -> dict[int, int]:
    """Which seen train is each seat's (seat -> index in `seen`): by its engine where it was
    learnt, else by its cards being the seat's cards in the game, else (the mover) by its
    cards being the mover's and one more. A seat whose train cannot be told yet (an engine
    alone among others) is left out."""
    found: dict[int, int] = {}
    free = set(range(len(seen)))
    for seat, place in enumerate(owners):
        if place is None:
            continue
        near = [i for i in free if math.dist(seen[i].engine, place) <= ENGINE_MM]
        if near:
            found[seat] = min(near, key=lambda i: math.dist(seen[i].engine, place))
            free.discard(found[seat])
    for seat, game in enumerate(games):
        if seat in found or not game:
            continue
        same = [i for i in free if seen[i].cards == game]
        if len(same) == 1:
            found[seat] = same[0]
            free.discard(same[0])
    if mover is not None and mover not in found:
        game = games[mover]
        grown = [
            i for i in free if len(seen[i].cards) == len(game) + 1 and seen[i].cards[:-1] == game
        ]
        if len(grown) == 1:
            found[mover] = grown[0]
    return found


def _differs(name: str, mover: bool, cards: Sequence[str | None], game: Sequence[str]) -> Said:
    """What to say of a train that is not the game's: a card taken away, one too many, or
    another card."""
    # trains written as codes, engine first ("E R1-R1"): the same in every language
    shown = " ".join(["E", *(str(c) for c in cards)])
    kept = " ".join(["E", *game])
    if len(cards) > len(game) + (1 if mover else 0):
        key, fix = "train_longer", "take back the cards the game does not have"
    elif len(cards) < len(game):
        key = "train_shorter"
        fix = "lay the missing cards back, or hold CONFIRM to take the last card back in the game"
    else:
        key, fix = "train_differs", "lay the train as the game has it"
    return Said(
        key,
        f"{name}'s train shows {shown}, the game has {kept}: {fix}",
        (("name", name), ("seen", shown), ("game", kept)),
    )
