"""Rendered tables shared by the vision tests, cached: rendering is the slow part."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np

from companion.app import enroll
from companion.games.caboose.scenes import PlacedCard, Scene, random_scene, render
from companion.games.caboose.vision.catalogue import Catalogue
from companion.games.caboose.vision.enrolment import Deck, faces_of
from companion.games.caboose.vision.observation import VisionConfig
from companion.pose import Pose
from companion.synthetic import Camera, PlacedDie
from hw.frames import SyntheticFrames


@cache
def random_frame(seed: int, difficulty: str = "hard") -> tuple[Scene, np.ndarray]:
    """A random legal table of 20 cards and 4 dice, with one card lying apart, under no
    lamp's reflection (glare has tests of its own)."""
    scene = random_scene(seed, "rollecate", n_cards=20, n_dice=4, loose_cards=1)
    return scene, render(scene, seed, Camera.preset(difficulty, glare=0.0))


def explicit_scene() -> Scene:
    """Two straights side by side (long edges touching, not joined), a joined pair, a chaos
    card alone, the caboose on the back card, and every face of both kinds of dice."""
    placed = (
        PlacedCard("3/s", Pose(420.0, 250.0, 0.0)),  # railway: back
        PlacedCard("2/c", Pose(420.0, 338.0, 180.0)),  # joined to the back's bottom end
        PlacedCard("4/s", Pose(483.0, 250.0, 0.0)),  # beside the back, long edges touching
        PlacedCard("1x/s", Pose(546.0, 250.0, 180.0)),  # and beside that one
        PlacedCard("C3", Pose(640.0, 420.0, 90.0)),
    )
    dice = tuple(
        PlacedDie(kind, face, 120.0 + 45.0 * i, y, 10.0 * i)
        for i, (kind, face, y) in enumerate(
            [("wheels", f, 480.0) for f in (0, 1, 2)] + [("pips", f, 540.0) for f in range(1, 7)]
        )
    )
    return Scene(
        cards=placed,
        railway=(0, 1),
        caboose=0,
        caboose_at=(423.0, 247.0),
        dice=dice,
    )


@cache
def explicit_frame(difficulty: str = "hard", seed: int = 5) -> np.ndarray:
    return render(explicit_scene(), seed, Camera.preset(difficulty))


@cache
def printed_deck() -> Catalogue:
    """Rollecate's faces of a printed deck that is not our design (scenes.printed_card:
    full-bleed art, no frame), learnt the way a player teaches the companion a deck:
    `enroll` with a fixed camera over the table, each card laid alone when it asks."""
    camera = SyntheticFrames(40, "easy")
    deck = Deck(faces_of("rollecate"), VisionConfig())
    to_lay = iter(deck.faces)

    def lay_next(_prompt: str) -> None:
        card = PlacedCard(next(to_lay), Pose(400.0, 300.0, 0.0))
        camera.show(Scene(cards=(card,), railway=(), design="printed").drawn())

    pictures = enroll.enroll(camera, deck, wait=lay_next, say=lambda _: None)
    return Catalogue(list(deck.faces), pictures)


@cache
def printed_frame(seed: int, difficulty: str = "hard") -> tuple[Scene, np.ndarray]:
    """`random_frame`'s table (any number of cards) laid with the printed deck's cards."""
    scene = random_scene(seed, "rollecate", loose_cards=1)
    scene = replace(scene, design="printed")
    return scene, render(scene, seed, Camera.preset(difficulty))
