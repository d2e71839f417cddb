"""What lies on the synthetic table: game-free things, each with its picture and its place.

A game builds a `Scene` from its own pieces (the Caboose design: companion/games/caboose/
scenes.py): its cards as pictures laid at poses, its tokens, the dice, the players' hands,
the table's markers. The renderer knows no game: it draws what the scene holds, where it
says. Sizes and positions are table millimetres (companion/pose.py's conventions).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from companion.pose import Pose
from companion.vision.table import TableLayout

# One picture of a piece, seen from above and upright (rotation 0), drawn at `px_per_mm`
# pixels a millimetre: a BGRA image whose alpha is the piece's outline. The renderer calls
# it at its own scale on every frame, so a game's picture caches what it draws.
Picture = Callable[[float], np.ndarray]


@dataclass(frozen=True)
class Card:
    """A flat rectangle lying on the table (a card, a tile): its picture, where it lies, and
    its `size` (width, height) in mm, which its shadow takes. A `rigid` one (a board, a
    wooden piece) lies flat even where a camera curls the cards (`Camera.curl`)."""

    picture: Picture
    pose: Pose
    size: tuple[float, float]
    rigid: bool = False


@dataclass(frozen=True)
class Token:
    """A round piece standing on the table (the caboose): its top seen from above, its
    centre in mm, and its `diameter` in mm, which its shadow takes."""

    picture: Picture
    x: float
    y: float
    diameter: float


@dataclass(frozen=True)
class PlacedDie:
    """A die off the cards: kind "wheels" (faces 0-2) or "pips" (faces 1-6), centre in mm;
    a pip die's `colour` is one of dice_art.PIP_COLOURS."""

    kind: str
    face: int
    x: float
    y: float
    rotation: float = 0.0
    colour: str = "white"
    # a die drawn from its own picture (a real die cut from a photograph, companion/
    # synthetic/photo_dice.py) rather than dice_art's; `kind` and `face` still say its truth
    picture: Picture | None = None


@dataclass(frozen=True)
class Hand:
    """A player's hand and forearm, palm centre at (x, y) mm, fingers pointing `rotation`
    degrees clockwise from table-up, the arm reaching in from the other side; `scale` 1 is
    an adult hand."""

    x: float
    y: float
    rotation: float
    scale: float = 1.0


@dataclass(frozen=True)
class Scene:
    """A table as the camera will see it: cards laid in order (a later one lies over an
    earlier one), tokens standing on them, dice, and hands over all of it; the markers
    where `layout` says. The default is the bare table."""

    cards: tuple[Card, ...] = ()
    tokens: tuple[Token, ...] = ()
    dice: tuple[PlacedDie, ...] = ()
    hands: tuple[Hand, ...] = ()
    layout: TableLayout = field(default_factory=TableLayout)
