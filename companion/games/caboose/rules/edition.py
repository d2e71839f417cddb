"""Edition facts as data (docs/RULINGS.md R-9): one JSON file per edition in the
game's `editions/`.

The rulebooks do not print everything the engine needs (the mix of values and shapes, the
chaos cards' values, the card size, how many faces of a die show wheels, which pip counts of a
standard die stand for them); each such fact is an assumption listed in its file, and a table
can correct the file without touching code. The files are the editions: a new file there is a
new edition, listed where its `order` puts it; its `variants` say who plays a variant and
how it is lost, while how the variants play stays rules code in the engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from companion.games.caboose import cards


@dataclass(frozen=True)
class Variant:
    """One variant of an edition, as its file describes it: how many play it, and the facts
    of the rules code it switches on (docs/RULINGS.md R-10 for the rival)."""

    id: str
    name: str  # as setup messages say it: "solo against Laura is for one player"
    players: int  # the people at the table; a rival is not one of them
    loses_at_derailment: int | None  # the derailment that loses the game (solo-hard: the 4th)
    rival: str | None  # the name of a rival the rules move (Laura), who sits and moves first


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    min_players: int
    max_players: int
    order: int  # where the edition stands in menus and --help
    variants: Mapping[str, Variant]  # by id, in the file's order
    deck: tuple[str, ...]  # every card of the box, shapes included, in a fixed order
    card_mm: tuple[float, float]  # (short side, long side)
    die_faces: tuple[int, ...]  # wheels shown by each face of one die
    dice_by_sum: bool  # Rollecate/LOK'n'ROLL roll the sum of the values; Loose Caboose the value
    first_railway: int
    first_caboose: int
    set_aside_at_setup: bool
    removed_at_setup: dict[int, int]
    hand: int
    forbidden_difference: int | None
    loops: bool
    penalties_from_draw: bool  # Loose Caboose: back of the railway, then the draw pile
    cancel_at_once: bool  # Loose Caboose: cancel at once and always; others: combine at the end
    bank_broken: bool  # Loose Caboose banks the broken-track penalty card
    tie_break_by_value: bool  # Rollecate/LOK'n'ROLL: fewest 4s, 3s, 2s, 1s after fewest cards
    pip_face_map: Mapping[int, int]  # wheels per pip count of a standard die, by default
    assumptions: tuple[str, ...]

    @cached_property  # asked on every chaos turn; the deck never changes
    def chaos(self) -> bool:
        return any(cards.is_chaos(code) for code in self.deck)

    def dice_for(self, played: list[str] | tuple[str, ...]) -> int:
        """How many dice a play rolls: the value (Loose Caboose) or the sum (the others)."""
        return _dice_for(self.dice_by_sum, tuple(played))


@lru_cache(maxsize=4096)
def _dice_for(by_sum: bool, played: tuple[str, ...]) -> int:
    """`Edition.dice_for`, once per play: bots weigh every legal play on every turn."""
    if not played:
        return 0
    if by_sum:
        return sum(cards.value(code) for code in played)
    return cards.value(played[0])


def _variants(raw: Iterable[dict[str, Any]]) -> dict[str, Variant]:
    """A file's variants by id; a fact a variant does not have is simply left out of it."""
    return {
        entry["id"]: Variant(
            id=entry["id"],
            name=entry["name"],
            players=entry["players"],
            loses_at_derailment=entry.get("loses_at_derailment"),
            rival=entry.get("rival"),
        )
        for entry in raw
    }


def _edition(raw: dict[str, Any]) -> Edition:
    """An edition file's facts as the engine asks for them."""
    deck: list[str] = []
    for entry in raw["deck"]:
        deck += [cards.make(*cards.parse(entry["code"])[:2], entry["shape"])] * entry["count"]
    dice = raw["dice"]
    first = raw["first_railway"]
    return Edition(
        id=raw["id"],
        name=raw["name"],
        min_players=raw["players"][0],
        max_players=raw["players"][1],
        order=raw["order"],
        variants=_variants(raw["variants"]),
        deck=tuple(deck),
        card_mm=(float(raw["card_mm"][0]), float(raw["card_mm"][1])),
        die_faces=tuple(dice["faces"]),
        dice_by_sum=dice["count"] == "sum",
        first_railway=first["cards"],
        first_caboose=first["caboose"],
        set_aside_at_setup=first["set_aside"],
        removed_at_setup={int(k): v for k, v in raw["removed_at_setup"].items()},
        hand=raw["hand"],
        forbidden_difference=raw["forbidden_difference"],
        loops=raw["loops"],
        penalties_from_draw=raw["penalties"] == "back-then-draw",
        cancel_at_once=raw["pile"] == "cancel-at-once",
        bank_broken=raw["broken_track"] == "bank",
        tie_break_by_value=raw["tie_break"] != ["cards"],
        pip_face_map={int(pips): wheels for pips, wheels in dice["pip_face_map"].items()},
        assumptions=tuple(raw["assumptions"]),
    )


def discover(folder: Traversable | None = None) -> dict[str, Edition]:
    """Every edition whose file is in `folder` (the package's `editions/`), by id, in their
    `order`: the files, not a list in code, say which editions exist (R-9)."""
    folder = folder or resources.files("companion.games.caboose").joinpath("editions")
    found: dict[str, Edition] = {}
    for path in folder.iterdir():
        if not path.name.endswith(".json"):
            continue
        try:
            edition = _edition(json.loads(path.read_text(encoding="utf-8")))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(
                f"editions/{path.name} cannot be read ({error!r}): give it every fact an edition "
                "file has, as loknroll.json does"
            ) from None
        if edition.id != path.name.removesuffix(".json"):
            raise ValueError(f"{path.name} describes edition {edition.id!r}: name it after its id")
        found[edition.id] = edition
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


_EDITIONS = discover()
EDITIONS: tuple[str, ...] = tuple(_EDITIONS)  # the ids, in menu order


def load(edition_id: str) -> Edition:
    """The edition with that id; raises KeyError naming the ids that exist."""
    try:
        return _EDITIONS[edition_id]
    except (KeyError, TypeError):  # TypeError: an id that cannot be a key, such as a list
        known = ", ".join(EDITIONS)
        raise KeyError(f"unknown edition {edition_id!r}: use one of {known}") from None


def variant_ids() -> tuple[str, ...]:
    """Every variant of every edition, once each, for the command lines' `--variant`."""
    return tuple(dict.fromkeys(v for edition in _EDITIONS.values() for v in edition.variants))
