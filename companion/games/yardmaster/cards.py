"""Card codes of `yardmaster-record/1`: a railcar card `R3-B2` (left railcar, right
railcar as printed), a face-down card `W`, an engine `E`.

Cards travel through the rules as code strings, as in the Caboose design: hashable, cheap,
readable in a record and a log. A train is a tuple of codes *as they lie* (Y-4: a card
turned end for end is written turned, `B2-R3`), engine first, so scoring needs nothing but
the train. The functions here are the only place that reads a code's parts; a deck holds a
few dozen codes, so what is read off one is cached (a simulation asks millions of times).
"""

from __future__ import annotations

import re
from functools import cache

ENGINE = "E"  # Y-3: wild, 0 points, no cargo
FACE_DOWN = "W"  # Y-2: a card lying face down, wild on both sides, 0 points, no cargo

_CODE = re.compile(r"^([A-Z])([0-9]+)-([A-Z])([0-9]+)$")


class CardCodeError(ValueError):
    """A string that is not a railcar card's code."""


Railcar = tuple[str, int]  # (colour letter, value)


@cache
def _parse(code: str) -> tuple[Railcar, Railcar]:
    match = _CODE.match(code)
    if match is None:
        raise CardCodeError(
            f"{code!r} is not a railcar card: write its left and right railcar as a colour "
            "letter and a value, joined by '-', as in 'R3-B2'"
        )
    return (match[1], int(match[2])), (match[3], int(match[4]))


def railcars(code: str) -> tuple[Railcar, Railcar]:
    """The (left, right) railcars of a railcar card's code; CardCodeError if it is none."""
    if not isinstance(code, str):  # before the cache: a list cannot be hashed
        raise CardCodeError(f"{code!r} is not a railcar card: a card code is a string")
    return _parse(code)


def code(left: Railcar, right: Railcar) -> str:
    return f"{left[0]}{left[1]}-{right[0]}{right[1]}"


@cache
def turned(card: str) -> str:
    """The card end for end (Y-4): its printed right railcar comes first."""
    left, right = railcars(card)
    return code(right, left)


def is_wild(laid: str) -> bool:
    """An engine or a face-down card: anything joins it, and it joins anything (Y-2, Y-3)."""
    return laid in (ENGINE, FACE_DOWN)


@cache
def colours_of(laid: str) -> tuple[str, ...]:
    """The cargo colours a laid card shows, left to right: none for a wild card."""
    if is_wild(laid):
        return ()
    left, right = railcars(laid)
    return left[0], right[0]


@cache
def value_of(laid: str) -> int:
    """A laid card's points: its two railcars' values, 0 for a wild card (Y-2, Y-3)."""
    if is_wild(laid):
        return 0
    left, right = railcars(laid)
    return left[1] + right[1]
