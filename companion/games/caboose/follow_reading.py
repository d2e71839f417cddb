"""What the camera saw of a turn, read in the game's terms: the laid cards as the codes of
cards the player may hold (or a `Question` for the players where the camera is unsure or
reads a card not in the hand), and the settled dice as wheels (or what is wrong with them).

The turn at the table (follow.py) decides what happens next; this is only the reading, so
that how a seen card becomes a card of the game, and when the players are asked
instead, reads in one place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.games.caboose import cards
from companion.games.caboose.follow_messages import Message
from companion.games.caboose.rules.state import GameState
from companion.games.caboose.table_check import alike

if TYPE_CHECKING:  # recognition pulls in OpenCV; reading what it saw needs none
    from companion.games.caboose.vision.observation import SeenCard, SeenDie


@dataclass(frozen=True)
class Question:
    """A card or a die the camera is unsure of: the players pick what it is among
    `options` (card codes, or a die's faces)."""

    prompt: Message
    options: tuple[str, ...] | tuple[int, ...]
    card: int | None  # which laid card (0: the first laid), None when a die is asked about
    die: int | None = None  # which settled die (0: the first seen), when one is asked about
    at: tuple[float, float] | None = None  # where that die lies (table mm)
    kind: str | None = None  # that die's kind: "pips" or "wheels"
    # every settled die (the one asked about at `die`) where the page's railway drawing puts
    # it, so the players can tell which die is meant; None when the railway's poses are
    # not known
    drawn: tuple[tuple[float, float], ...] | None = None


def read_laid(
    laid: Sequence[SeenCard],
    state: GameState,
    chosen: Mapping[int, str],
    unsure_below: float,
    provisional: bool,
) -> tuple[str, ...] | Question:
    """The codes of the cards `laid`, each the card of the player's hand (or the card drawn)
    the camera's reading names, or the players' answer in `chosen` (by laid card); a
    Question about the first card that has neither an answer nor a sure reading of a card
    still in the hand (confidence below `unsure_below`). A provisional deal does not know
    the hand: any card of the deck may be laid, as often as it is laid."""
    hand = list(state.player.hand + state.draw[:1])
    if provisional:
        # The deal is not known: what is laid is what the player held (the table fixes
        # its deal on staging), any card of the deck, as often as it is laid; only a
        # card the camera is unsure of is asked about.
        hand = sorted({code for code in state.edition.deck if not cards.is_chaos(code)})
    codes: list[str] = []
    for index, card in enumerate(laid):
        code = chosen.get(index)
        if code is None:
            held = next((h for h in hand if alike(h, card.code)), None)
            if held is None or card.confidence < unsure_below:
                return _question(index, card, hand, held is None)
            code = held
        if code in hand and not provisional:
            hand.remove(code)
        codes.append(code)
    return tuple(codes)


def same_cards(before: Sequence[SeenCard], laid: Sequence[SeenCard]) -> bool:
    """Whether the laid cards are the ones asked about (answers stay with them)."""
    return len(before) == len(laid) and all(
        math.dist(a.pose[:2], b.pose[:2]) < 10.0 for a, b in zip(before, laid, strict=True)
    )


def _question(index: int, card: SeenCard, hand: list[str], unknown: bool) -> Question:
    options = tuple(dict.fromkeys(c for c in hand if not cards.is_chaos(c)))
    said = {"n": index + 1, "code": card.code}
    if unknown:
        prompt = Message("ask_unknown", said)
    else:
        prompt = Message("ask_unsure", said | {"percent": round(card.confidence * 100)})
    return Question(prompt, options, index)


def unsure_die(
    dice: Sequence[SeenDie],
    chosen: Mapping[int, int],
    faces: Sequence[int],
    unsure_below: float,
) -> Question | None:
    """A Question about the first settled die read with confidence below `unsure_below`
    that the players have not answered (`chosen`, by die), or None. A die is never guessed
    into the game: its options are the faces it may show, the one read first (a pip die's
    1 to 6, an edition's wheel die its `faces`)."""
    for index, die in enumerate(dice):
        if index in chosen or die.confidence >= unsure_below:
            continue
        shown = range(1, 7) if die.kind == "pips" else sorted(set(faces))
        options = (die.face, *(face for face in shown if face != die.face))
        key = "ask_die" if die.kind == "pips" else "ask_die_wheels"
        said = {"n": index + 1, "face": die.face, "percent": round(die.confidence * 100)}
        return Question(Message(key, said), tuple(options), None, index, die.position, die.kind)
    return None


def answered(dice: Sequence[SeenDie], chosen: Mapping[int, int]) -> tuple[SeenDie, ...]:
    """The settled dice with the players' answers (`chosen`, by die) as sure faces."""
    return tuple(
        replace(die, face=chosen[index], confidence=1.0) if index in chosen else die
        for index, die in enumerate(dice)
    )


def same_dice(before: Sequence[SeenDie], dice: Sequence[SeenDie]) -> bool:
    """Whether settled dice are the ones asked about (answers stay with them): as many,
    each where it lay."""
    return len(before) == len(dice) and all(
        math.dist(a.position, b.position) < 5.0 for a, b in zip(before, dice, strict=True)
    )


def wheels_of(
    dice: Sequence[SeenDie], faces: Sequence[int], pip_wheels: Mapping[int, int] | None
) -> list[int] | Message:
    """The wheels the settled `dice` show: an edition's wheel die as its face (one of
    `faces`), a pip die through the table's `pip_wheels` map (R-6); or, for the first die
    that cannot be read so, what is wrong with it."""
    known = set(faces)
    wheels: list[int] = []
    for die in dice:
        if die.kind == "pips":
            if pip_wheels is None or die.face not in pip_wheels:
                return Message("pip_dice")
            wheels.append(pip_wheels[die.face])
        elif die.face in known:
            wheels.append(die.face)
        else:
            return Message("die_face", {"face": die.face, "faces": sorted(known)})
    return wheels
