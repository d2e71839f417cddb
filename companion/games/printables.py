"""What a game prints for a family's table (`companion print GAME`): its pieces as pictures
with their true size, grouped under words that say what they are and what to do with them.

A game declares them (`Game.printables`); the shared layout (companion/app/printing.py)
lays them out on pages with cut lines, a ruler and headers, and tiles a piece larger than
a page over several. The pictures are the very ones the synthetic table draws and the
camera's recognition is built on (card faces, dice, tokens, board), so what is printed is
what the camera knows as ours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# The resolution pieces are drawn at unless asked otherwise: sharp on paper, and a deck's
# few dozen distinct faces still make a PDF of a few megabytes (each face is stored once).
DPI = 300
MM_PER_INCH = 25.4


@dataclass(frozen=True, eq=False)
class Piece:
    """One piece to cut out: `picture` (BGR, or BGRA whose alpha is its outline: paper
    outside it) printed `size_mm` (width, height) on paper, `count` times. `code` is what
    the camera reads it as (a card code, a marker's id; data, never shown), "" for a piece
    the camera does not read. `caption` is printed under it and `lines` on it, centred
    (words: a marker's corner, a caboose card's condition), in the chosen language."""

    code: str
    picture: np.ndarray
    size_mm: tuple[float, float]
    count: int = 1
    caption: str = ""
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    """Pieces of one kind, on pages of their own under `title` (words: what they are and
    what to do with them)."""

    title: str
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class Printables:
    """A game's printable pieces. `editions` are the ids `--edition` takes, the default
    first (() when the game has none to choose); `groups(edition, px_per_mm, lang)` draws
    them (edition None when there are none), pictures at `px_per_mm` or coarser where a
    piece is large and plain (a poster-sized board)."""

    editions: tuple[str, ...]
    groups: Callable[[str | None, float, str], list[Group]]


def on_paper(picture: np.ndarray) -> np.ndarray:
    """A BGR or BGRA picture as printed on white paper (BGR): outside its outline, paper."""
    if picture.ndim == 2:
        return np.dstack([picture] * 3)
    if picture.shape[2] == 3 or picture[..., 3].min() == 255:
        return picture[..., :3]
    alpha = picture[..., 3:4].astype(np.float32) / 255.0
    return (picture[..., :3] * alpha + 255.0 * (1.0 - alpha)).round().astype(np.uint8)


def with_outline(sprite: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """A `Sprite` (BGR image, mask of its outline) as one BGRA picture."""
    image, mask = sprite
    return np.dstack([image, mask])
