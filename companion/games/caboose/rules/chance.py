"""The shuffle of a deal and the dice of a simulated game, exactly as `random.Random`'s own
`shuffle` and `choice` give them from a seed, without their Python call per random number.

A seed's games must never change (records are compared byte for byte between versions), so
these draw the same random numbers the same way: `getrandbits` of the bound's bit length
until one is below it (`Random._randbelow`); the tests hold them to `random`'s own answers.
A simulated game shuffles twice (a hundred numbers) and rolls about 180 dice: with the two
Python calls `random` makes per number, that was a twentieth of a game.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence


def shuffle(rng: random.Random, items: MutableSequence) -> None:
    """`rng.shuffle(items)`, in place, the same order from the same generator."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def roll(rng: random.Random, faces: Sequence[int], count: int) -> tuple[int, ...]:
    """`count` dice, each `rng.choice(faces)`, the same faces from the same generator."""
    bound = len(faces)
    bits = bound.bit_length()
    getrandbits = rng.getrandbits
    shown = []
    for _ in range(count):
        face = getrandbits(bits)
        while face >= bound:
            face = getrandbits(bits)
        shown.append(faces[face])
    return tuple(shown)
