"""`companion simulate`'s own steps: the dice it rolls and the games it counts."""

from __future__ import annotations

import random

import pytest

from companion.games.caboose.rules.edition import EDITIONS, load
from companion.games.caboose.simulate import roll_dice, simulate


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_dice_are_the_faces_random_choice_gives(edition):
    # A seed's dice never change: the simulated records stay the same, byte for byte.
    faces = load(edition).die_faces
    for seed in range(50):
        ours, theirs = random.Random(f"{seed}/dice"), random.Random(f"{seed}/dice")
        for count in (0, 1, 2, 3, 5, 8):
            assert roll_dice(ours, faces, count) == tuple(
                theirs.choice(faces) for _ in range(count)
            )
        assert ours.random() == theirs.random()  # the same numbers drawn, no more


def test_a_run_without_records_counts_the_games_a_run_with_them_does(tmp_path):
    for edition, players, variant in [("rollecate", 4, None), ("loknroll", 1, "solo-laura")]:
        kept = simulate(edition, players, 6, "same", records=tmp_path / edition, variant=variant)
        alone = simulate(edition, players, 6, "same", variant=variant)
        assert len(list((tmp_path / edition).glob("game-*.json"))) == 6
        mine, theirs = kept.as_json(), alone.as_json()
        del mine["games_per_second"], theirs["games_per_second"]
        assert mine == theirs
