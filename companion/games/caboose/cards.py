"""Card codes of `caboose-record/1`: `3`, `3x` (broken), `C3` (chaos), optionally `/s` or `/c`.

Cards travel through the engine as their code strings: they are hashable, cheap to copy,
readable in a record and a log, and the same card in every part of the product. The
functions here are the only place that reads a code's parts.
"""

from __future__ import annotations

import re
from functools import cache

_CODE = re.compile(r"^(?P<chaos>C)?(?P<value>[1-4])(?P<broken>x)?(?:/(?P<shape>[sc]))?$")

TRACK, BROKEN, CHAOS = "track", "broken", "chaos"
STRAIGHT, CURVE = "s", "c"


class CardCodeError(ValueError):
    """A string that is not a card code of `caboose-record/1`."""


@cache
def _parse(code: str) -> tuple[int, str, str | None]:
    match = _CODE.match(code) if isinstance(code, str) else None
    if match is None or (match["chaos"] and (match["broken"] or match["shape"])):
        raise CardCodeError(
            f"{code!r} is not a card code: use 1-4 for a track card, 1x-4x for a broken "
            "track, C1-C4 for a chaos card, optionally followed by /s or /c for the shape"
        )
    kind = CHAOS if match["chaos"] else BROKEN if match["broken"] else TRACK
    return int(match["value"]), kind, match["shape"]


def parse(code: str) -> tuple[int, str, str | None]:
    """(value, kind, shape or None) of a code; raises CardCodeError naming the fault."""
    if not isinstance(code, str):  # before the cache: a list or a dict cannot be hashed
        raise CardCodeError(f"{code!r} is not a card code: a card code is a string like '3x/s'")
    return _parse(code)


# Each of these is asked many times a turn (bots, odds, discard order) of the same few
# dozen codes: each answer is cached, as `_parse` is; a bad code raises and is not kept.


@cache
def value(code: str) -> int:
    return _parse(code)[0]


@cache
def kind(code: str) -> str:
    return _parse(code)[1]


@cache
def shape(code: str) -> str | None:
    return _parse(code)[2]


@cache
def is_broken(code: str) -> bool:
    return _parse(code)[1] == BROKEN


@cache
def is_chaos(code: str) -> bool:
    return _parse(code)[1] == CHAOS


def base(code: str) -> str:
    """The code without its shape: what the rules arithmetic sees."""
    return code.split("/", 1)[0]


def make(value: int, kind: str = TRACK, shape: str | None = None) -> str:
    """The code of a card; the inverse of `parse`."""
    code = f"C{value}" if kind == CHAOS else f"{value}x" if kind == BROKEN else str(value)
    return f"{code}/{shape}" if shape and kind != CHAOS else code


def matches(wanted: str, held: str) -> bool:
    """Whether a held card answers a code named in a record: a code without a shape
    names any card of that value and kind."""
    return wanted == held or ("/" not in wanted and base(held) == wanted)
