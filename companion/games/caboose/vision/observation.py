"""What recognition says of one frame and what it must know of the table: `SeenCard`,
`SeenDie`, `Observation` (the cards, the railway back to front, the caboose, the dice, the
problems) and `VisionConfig`.

The tracker, the session and the tools only read observations; kept apart from the steps
that fill one (`observe.py` and the modules it names), so that the whole shape of what the
camera reports reads in one page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.games.caboose.rules import edition as editions
from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.caboose_token import TaughtToken
from companion.games.caboose.vision.catalogue import Catalogue, FaceMatch, ours
from companion.games.caboose.vision.problems import Problem
from companion.hardware import FRAME_SIZE
from companion.pose import Pose
from companion.vision.calibrate import Calibration
from companion.vision.dice import Alike
from companion.vision.table import TableLayout
from companion.vision.taught_dice import TaughtDice
from companion.vision.taught_pips import PIPS_INDEX, TaughtPips


@dataclass(frozen=True)
class SeenCard:
    """A card on the table: its code (as in cards.py, e.g. "3x/s", "C2"), how sure the
    match is (0-1) and its pose in table mm."""

    code: str
    confidence: float
    pose: Pose


@dataclass(frozen=True)
class SeenDie:
    """A die off the cards: kind "wheels" (face 0-2) or "pips" (face 1-6), centre in mm."""

    kind: str
    face: int
    position: tuple[float, float]
    confidence: float


@dataclass(frozen=True)
class Memo:
    """What one frame's reading leaves for the next frame of the same camera: the
    calibration and configuration it was read with, its top-down grey image in squares,
    each card frame found with the face matched there (as matched: before a half turn, and
    before a weak match was laid flat, which the next frame then does again), and the dice
    read."""

    calibration: Calibration
    config: VisionConfig
    squares: np.ndarray
    poses: tuple[Pose, ...]
    matches: tuple[FaceMatch, ...]
    dice: tuple[SeenDie, ...]
    on_cards: tuple[bool, ...]  # whether each die lay on a card read


@dataclass(frozen=True)
class Observation:
    """What one frame shows. `railway` holds indices into `cards`, back to front; `caboose`
    an index into `railway` and `caboose_at` where the token stands (mm); `problems` says
    what could not be seen (empty when all is well), each a `Problem` with its English
    `text()`. `calibration` should be
    handed to the next `observe` call: it is reused while the camera stays put and stands
    in for hidden markers. `memo` is what the next frame of a camera that did not move
    takes from this one where the picture did not change (unchanged.py): hand the whole
    observation to the next `observe` call as `previous`."""

    cards: tuple[SeenCard, ...] = ()
    railway: tuple[int, ...] = ()
    caboose: int | None = None
    dice: tuple[SeenDie, ...] = ()
    problems: tuple[Problem, ...] = ()
    caboose_at: tuple[float, float] | None = None
    calibration: Calibration | None = field(default=None, compare=False, repr=False)
    memo: Memo | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class VisionConfig:
    """What recognition needs to know about this table: where the markers are, the card
    size (the edition's `card_mm`), the catalogue of faces (ours unless a deck was
    enrolled), the frame size the camera should give, and the top-down scale; the box's
    own wheel dice and caboose token when `companion enroll` taught them (ours otherwise), and
    the family's own pip dice, which the learned count then adapts to (`--codes pips`)."""

    layout: TableLayout = field(default_factory=TableLayout)
    card_mm: tuple[float, float] = card_art.CARD_MM
    catalogue: Catalogue | None = None
    frame_size: tuple[int, int] = FRAME_SIZE
    px_per_mm: float = 1.0
    dice: TaughtDice | None = None
    token: TaughtToken | None = None
    pips: TaughtPips | None = None
    # the pip faces the game counts alike (R-6's face map, dice.Alike): a pip die is then
    # as sure as what it counts for, and asked about only when that is in doubt
    alike: Alike | None = None

    @classmethod
    def for_edition(
        cls, edition_id: str, catalogue_folder: Path | None = None, **kwargs: object
    ) -> VisionConfig:
        """The configuration for an edition's card size, with what was enrolled in
        `catalogue_folder` if given (`taught`)."""
        card_mm = editions.load(edition_id).card_mm
        catalogue, dice, token = taught(catalogue_folder) if catalogue_folder else (None,) * 3
        pips = TaughtPips.load(catalogue_folder) if catalogue_folder else None
        taught_too = {"catalogue": catalogue, "dice": dice, "token": token, "pips": pips}
        return cls(card_mm=card_mm, **taught_too, **kwargs)  # type: ignore[arg-type]

    def faces(self) -> Catalogue:
        return self.catalogue if self.catalogue is not None else ours(self.card_mm)


def taught(folder: Path) -> tuple[Catalogue | None, TaughtDice | None, TaughtToken | None]:
    """What `companion enroll` taught in `folder`: the cards' faces, the dice, the token,
    each None when it was not taught (the pip dice: TaughtPips.load). A ValueError
    (CatalogueError, TaughtError) says why the folder cannot be used, or that it teaches
    nothing."""
    dice, token = TaughtDice.load(folder), TaughtToken.load(folder)
    pips_only = (folder / PIPS_INDEX).exists()
    if (folder / "catalogue.json").exists() or (dice is None and token is None and not pips_only):
        return Catalogue.load(folder), dice, token
    return None, dice, token
