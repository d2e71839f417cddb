"""A deal's shuffle and a simulated game's dice are `random`'s own, number for number: a
seed's games never change."""

from __future__ import annotations

import random

import pytest

from companion.games.caboose.rules import chance
from companion.games.caboose.rules.edition import EDITIONS, load


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_shuffle_is_random_shuffle(edition):
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        deck, expected = list(load(edition).deck), list(load(edition).deck)
        chance.shuffle(ours, deck)
        theirs.shuffle(expected)
        assert deck == expected
        assert ours.random() == theirs.random()  # the same numbers drawn, no more
    for size in (0, 1, 2, 3, 7, 100):
        ours, theirs = random.Random(size), random.Random(size)
        items, expected = list(range(size)), list(range(size))
        chance.shuffle(ours, items)
        theirs.shuffle(expected)
        assert items == expected


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_dice_are_the_faces_random_choice_gives(edition):
    faces = load(edition).die_faces
    for seed in range(50):
        ours, theirs = random.Random(f"{seed}/dice"), random.Random(f"{seed}/dice")
        for count in (0, 1, 2, 3, 5, 8):
            assert chance.roll(ours, faces, count) == tuple(
                theirs.choice(faces) for _ in range(count)
            )
        assert ours.random() == theirs.random()  # the same numbers drawn, no more
