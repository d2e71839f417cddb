"""The edition's facts as data (Y-1, Y-12): `editions/<id>.json` holds the cargo colours,
the 32 railcar cards, which colour two players take out, and the caboose cards, with every
assumption listed, since the rulebook prints none of them. A table corrects the file to
match its box; nothing in code knows a card.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from companion.games.yardmaster import cards

CONDITIONS = {  # Y-12: each kind of caboose condition and the fields it takes
    "run": {"length"},
    "colours": {"count"},
    "cargo": {"colour", "count"},
    "face_down": set(),
    "value": {"min"},
}
_OPTIONAL = {"run": {"colour"}, "face_down": {"min", "max"}}


@dataclass(frozen=True)
class Caboose:
    """One caboose card (Y-12): every player whose train meets `condition` at the end gains
    `points`. `condition` is a plain mapping, as the record writes it."""

    name: str
    points: int
    condition: Mapping[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "points": self.points, "condition": dict(self.condition)}


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    players: tuple[int, int]
    colours: Mapping[str, str]  # letter -> colour name
    removed_for_two: str  # the colour letter whose cards two players put back (Y-1)
    deck: tuple[str, ...]
    cabooses: tuple[Caboose, ...]
    assumptions: tuple[str, ...]

    def deck_for(self, players: int) -> tuple[str, ...]:
        """The railcar cards shuffled for this many players: with two, every card with a
        railcar of `removed_for_two` is out (Y-1)."""
        if players != 2:
            return self.deck
        return tuple(c for c in self.deck if self.removed_for_two not in cards.colours_of(c))


def caboose(raw: Any, colours: Collection[str]) -> Caboose:
    """A caboose card from its JSON (an edition file's or a record's), its colour one of
    `colours` (letters); ValueError saying what is wrong with it."""
    if not isinstance(raw, Mapping) or set(raw) != {"name", "points", "condition"}:
        raise ValueError("a caboose card is an object with 'name', 'points' and 'condition'")
    name, points, condition = raw["name"], raw["points"], raw["condition"]
    if not isinstance(name, str) or not name:
        raise ValueError("a caboose card's name is a non-empty string")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise ValueError(f"caboose {name!r}: its points are a whole number, 0 or more")
    kind = condition.get("kind") if isinstance(condition, Mapping) else None
    if kind not in CONDITIONS:
        raise ValueError(
            f"caboose {name!r}: its condition's kind must be one of {', '.join(CONDITIONS)}"
        )
    fields = set(condition) - {"kind"}
    needed, optional = CONDITIONS[kind], _OPTIONAL.get(kind, set())
    if (
        not needed <= fields
        or not fields <= needed | optional
        or (kind == "face_down" and not fields)
    ):
        wanted = " and ".join(sorted(needed)) or "'max' or 'min'"
        raise ValueError(f"caboose {name!r}: a {kind!r} condition takes {wanted}")
    for field in fields:
        value = condition[field]
        if field == "colour":
            if value not in colours:
                raise ValueError(f"caboose {name!r}: {value!r} is not a colour of the edition")
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"caboose {name!r}: {field} is a whole number, 0 or more")
    return Caboose(name, points, dict(condition))


def _edition(raw: dict[str, Any]) -> Edition:
    colours = dict(raw["colours"])
    deck = tuple(raw["deck"])
    for card in deck:
        for colour, _ in cards.railcars(card):
            if colour not in colours:
                raise ValueError(f"{raw['id']}: card {card} has a colour not in 'colours'")
    return Edition(
        id=raw["id"],
        name=raw["name"],
        players=(raw["players"][0], raw["players"][1]),
        colours=colours,
        removed_for_two=raw["removed_for_two"],
        deck=deck,
        cabooses=tuple(caboose(c, colours) for c in raw["cabooses"]),
        assumptions=tuple(raw["assumptions"]),
    )


_FOLDER = resources.files("companion.games.yardmaster") / "editions"
# Every edition the package ships, by id (its file's name): what a new game may choose.
EDITIONS = tuple(
    sorted(f.name.removesuffix(".json") for f in _FOLDER.iterdir() if f.name.endswith(".json"))
)


@cache
def load(edition_id: str = "yardmaster-express") -> Edition:
    """The edition in `editions/<edition_id>.json`."""
    path = _FOLDER / f"{edition_id}.json"
    if not path.is_file():
        raise KeyError(f"there is no Yardmaster edition {edition_id!r}")
    return _edition(json.loads(path.read_text(encoding="utf-8")))
