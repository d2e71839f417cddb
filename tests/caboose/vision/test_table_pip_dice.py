"""Standard pip dice at the table: found and read whatever their colour (a white die with
black pips, red, blue, green or black dice with white pips), and two dice lying against each
other read as two, each with its own face."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.synthetic import PlacedDie
from companion.vision.dice_art import DIE_MM, PIP_COLOURS


def _free_spots(scene: synthetic.Scene, count: int) -> list[tuple[float, float]]:
    """`count` spots of the play area well clear of the scene's cards and of each other."""
    spots: list[tuple[float, float]] = []
    for y in range(90, 560, 45):
        for x in range(90, 790, 45):
            if all(math.dist((x, y), (c.pose.x, c.pose.y)) > 75 for c in scene.cards) and all(
                math.dist((x, y), spot) > 40 for spot in spots
            ):
                spots.append((float(x), float(y)))
    assert len(spots) >= count
    return spots[:count]


def _read(
    scene: synthetic.Scene, seed: int, camera: str
) -> tuple[list[tuple[str, int] | None], tuple[float, float] | None]:
    """What the table reads of each of the scene's dice (None: not found there), and where
    it sees the caboose."""
    frame = synthetic.render(scene, seed, synthetic.Camera.preset(camera))
    seen = observe(frame, VisionConfig.for_edition("rollecate"))
    read: list[tuple[str, int] | None] = []
    for die in scene.dice:
        near = [d for d in seen.dice if math.dist(d.position, (die.x, die.y)) < 6.0]
        read.append((near[0].kind, near[0].face) if len(near) == 1 else None)
    return read, seen.caboose_at


@pytest.mark.parametrize("colour", sorted(PIP_COLOURS))
def test_pip_dice_of_every_colour_are_read(colour: str) -> None:
    seed = 40 + sorted(PIP_COLOURS).index(colour)
    scene = synthetic.random_scene(seed, n_cards=3, n_dice=0)
    spots = _free_spots(scene, 6)
    dice = tuple(
        PlacedDie("pips", face, x, y, 17.0 * face, colour)
        for face, (x, y) in zip(range(1, 7), spots, strict=True)
    )
    read, caboose = _read(replace(scene, dice=dice), seed, "easy")
    assert read == [("pips", face) for face in range(1, 7)]
    # a red die is as large as our red caboose token, but lies off the railway's cards
    assert caboose is not None and math.dist(caboose, scene.caboose_at) < 4.0


@pytest.mark.parametrize("turn", [0.0, 30.0, 75.0])
def test_two_dice_lying_against_each_other_are_read_as_two(turn: float) -> None:
    scene = synthetic.random_scene(7, n_cards=3, n_dice=0)
    (x, y), *_ = _free_spots(scene, 1)
    a = math.radians(turn)
    step = DIE_MM + 0.3  # a hair apart: their outlines touch
    dice = (
        PlacedDie("pips", 5, x, y, turn, "white"),
        PlacedDie("pips", 2, x + step * math.cos(a), y + step * math.sin(a), turn, "red"),
    )
    assert _read(replace(scene, dice=dice), 7, "easy")[0] == [("pips", 5), ("pips", 2)]


def test_the_synthetic_table_throws_pip_dice_of_the_colours_asked_for() -> None:
    plain = synthetic.random_scene(5003)
    coloured = synthetic.random_scene(5003, pip_colours=("red", "blue"))
    assert {d.colour for d in plain.dice} == {"white"}
    assert {d.colour for d in coloured.dice} <= {"red", "blue"}
    # the same table otherwise: the colours are drawn apart from the rest
    assert [replace(d, colour="white") for d in coloured.dice] == list(plain.dice)
