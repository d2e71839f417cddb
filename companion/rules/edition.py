"""Edition facts as data (RULINGS.md R-9): one JSON file per edition in `companion/editions/`.

The rulebooks do not print everything the engine needs (the mix of values and shapes, the
chaos cards' values, the card size, how many faces of a die show wheels); each such fact is
an assumption listed in its file, and a table can correct the file without touching code.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from importlib import resources

from companion import cards

EDITIONS = ("loose-caboose", "rollecate", "loknroll")


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
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
    assumptions: tuple[str, ...]

    @cached_property  # asked on every chaos turn; the deck never changes
    def chaos(self) -> bool:
        return any(cards.is_chaos(code) for code in self.deck)

    def dice_for(self, played: list[str] | tuple[str, ...]) -> int:
        """How many dice a play rolls: the value (Loose Caboose) or the sum (the others)."""
        if not played:
            return 0
        if self.dice_by_sum:
            return sum(cards.value(code) for code in played)
        return cards.value(played[0])

    @property
    def face_odds(self) -> dict[int, Fraction]:
        counts = Counter(self.die_faces)
        return {wheels: Fraction(n, len(self.die_faces)) for wheels, n in sorted(counts.items())}


@cache
def load(edition_id: str) -> Edition:
    """The edition with that id; raises KeyError naming the ids that exist."""
    if edition_id not in EDITIONS:
        raise KeyError(f"unknown edition {edition_id!r}: use one of {', '.join(EDITIONS)}")
    text = resources.files("companion").joinpath("editions", f"{edition_id}.json").read_text()
    raw = json.loads(text)
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
        variants=tuple(raw["variants"]),
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
        assumptions=tuple(raw["assumptions"]),
    )
