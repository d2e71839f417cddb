"""What the next frame of a camera that did not move takes from the last one read: where
the picture did not change, what was read there stands.

A frame reaches recognition because something moved (companion/games/caboose/vision/
frame_checks.py `ChangeGate`): dice thrown, a card laid, a hand over the table. The rest of
the table is the picture it was, and reading it again would read it the same: each card
whose frame lies where it lay, on a picture unchanged round it, keeps the face it was
matched to; each die on a picture unchanged round it keeps its reading, and the dice
reader looks only at the spots where the picture changed. The whole-table steps (the card
frames, the caboose, the covered-table check) still run on every frame, so a card laid or
taken, a die rolled away or a hand is found as on any frame.

Unchanged is judged as `ChangeGate` judges a frame, on the top-down grey image averaged
over squares of `_CELL_PX`: sensor noise averages away there while a die's pip moving
changes a square by tens of grey levels. Only with the very calibration the last frame was
read with (the camera has not moved: `calibrate` returned it) and the same configuration.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from companion.games.caboose.vision.catalogue import FaceMatch
from companion.games.caboose.vision.observation import Memo, SeenCard, SeenDie, VisionConfig
from companion.games.caboose.vision.problems import Problem
from companion.pose import Pose
from companion.vision.calibrate import Calibration
from companion.vision.table import card_corners, lies_on

_CELL_PX = 4  # top-down pixels a side of the squares compared (4 mm at 1 px/mm)
_LEVELS = 12.0  # grey levels a square must change by to count as changed (as ChangeGate's)
_GROW = 1  # squares round a changed one that count as changed too (a blurred edge)
_SAME_MM, _SAME_DEG = 0.5, 0.5  # a card frame found this near the last one's is the same
_DIE_REACH_MM = 20.0  # round a die, the picture its reading depends on (the reader's crop)
_DIE_HALF_MM = 15.0  # a die's blob reaches this far from its centre (two dice side by side)


def remember(
    calibration: Calibration,
    config: VisionConfig,
    now: np.ndarray,
    found: tuple[Sequence[Pose], Sequence[FaceMatch]],
    seen: Sequence[SeenCard],
    dice: Sequence[SeenDie],
    problems: Sequence[Problem],
) -> Memo | None:
    """What this frame leaves for the next (`Memo`): nothing when it said a card could not
    be read or something covers the table (a hand): its reading is of a table half seen."""
    if any(p.key == "covered" or p.key.startswith("cards_unread") for p in problems):
        return None
    on = tuple(on_cards(die, seen, config.card_mm) for die in dice)
    poses, matches = found
    return Memo(calibration, config, now, tuple(poses), tuple(matches), tuple(dice), on)


def on_cards(die: SeenDie, seen: Sequence[SeenCard], card_mm: tuple[float, float]) -> bool:
    """Whether `die` lies on one of the cards `seen`."""
    return any(lies_on(card.pose, card_mm, die.position) for card in seen)


def squares(grey: np.ndarray) -> np.ndarray:
    """The top-down grey image averaged over whole `_CELL_PX` squares (the edge beyond the
    last whole square left out), as int16 to subtract."""
    height, width = grey.shape[:2]
    size = (width // _CELL_PX, height // _CELL_PX)
    whole = grey[: size[1] * _CELL_PX, : size[0] * _CELL_PX]
    return cv2.resize(whole, size, interpolation=cv2.INTER_AREA).astype(np.int16)


class Changes:
    """Where this frame's picture differs from the last one read (`Memo`), in table mm."""

    def __init__(self, memo: Memo, now: np.ndarray, k: float) -> None:
        moved = (np.abs(now - memo.squares) > _LEVELS).astype(np.uint8)
        reach = 2 * _GROW + 1
        self._changed = cv2.dilate(moved, np.ones((reach, reach), np.uint8))
        self._scale = k / _CELL_PX  # squares per mm
        self.memo = memo

    def within(self, corners_mm: np.ndarray) -> bool:
        """Whether the picture changed anywhere in the box round the points (mm); a box
        reaching past the image counts as changed (nothing to compare there)."""
        lo = np.floor(corners_mm.min(axis=0) * self._scale).astype(int)
        hi = np.ceil(corners_mm.max(axis=0) * self._scale).astype(int)
        height, width = self._changed.shape
        if lo[0] < 0 or lo[1] < 0 or hi[0] > width or hi[1] > height:
            return True
        return bool(self._changed[lo[1] : hi[1] + 1, lo[0] : hi[0] + 1].any())

    def card(self, pose: Pose, card_mm: tuple[float, float]) -> bool:
        """Whether the picture changed on or round the card at `pose`."""
        return self.within(card_corners(pose, card_mm))

    def near(self, position: tuple[float, float]) -> bool:
        """Whether the picture changed within `_DIE_REACH_MM` of a die at `position`."""
        reach = np.array([[-_DIE_REACH_MM, -_DIE_REACH_MM], [_DIE_REACH_MM, _DIE_REACH_MM]])
        return self.within(np.asarray(position) + reach)

    def match(self, pose: Pose, card_mm: tuple[float, float]) -> FaceMatch | None:
        """The face matched last time to the card frame found at `pose`, when a frame was
        found there (`_SAME_MM`, `_SAME_DEG`) on a picture that did not change; else None."""
        if self.card(pose, card_mm):
            return None
        for before, match in zip(self.memo.poses, self.memo.matches, strict=True):
            turn = abs((before.rotation - pose.rotation + 180.0) % 360.0 - 180.0)
            there = abs(before.x - pose.x) <= _SAME_MM and abs(before.y - pose.y) <= _SAME_MM
            if there and turn <= _SAME_DEG:
                return match
        return None

    def off_the_known(self, free: np.ndarray) -> bool:
        """Whether the picture changed near anywhere in `free` (a top-down mask, 255 off
        the cards): near enough that a die found there now could be read anew (`near` of
        its centre, which may lie `_DIE_HALF_MM` outside `free`)."""
        grow = 2 * round((_DIE_REACH_MM + _DIE_HALF_MM) * self._scale) + 1
        near = cv2.dilate(self._changed, np.ones((grow, grow), np.uint8))
        height, width = near.shape
        cells = cv2.resize(free, None, fx=self._scale, fy=self._scale, interpolation=cv2.INTER_AREA)
        return bool((near[:height, :width] & (cells[:height, :width] > 0)).any())

    def dice(self, seen: Sequence[SeenCard], card_mm: tuple[float, float]) -> list[SeenDie]:
        """The dice read last time on a picture that did not change round them, each still
        lying on a card of those `seen` now if it lay on one then, and off them if off
        (a card the last frame could not read, half under a hand, is read now: what was
        taken for a die on its print is not kept)."""
        return [
            die
            for die, on_a_card in zip(self.memo.dice, self.memo.on_cards, strict=True)
            if not self.near(die.position) and on_a_card == on_cards(die, seen, card_mm)
        ]


def changes(
    memo: Memo | None, calibration: Calibration, config: VisionConfig, now: np.ndarray
) -> Changes | None:
    """Where the picture changed since `memo`'s frame, or None when nothing of it can be
    taken (no memo, another camera position or configuration, another image size)."""
    if memo is None or memo.calibration is not calibration or memo.config != config:
        return None
    if memo.squares.shape != now.shape:
        return None
    return Changes(memo, now, config.px_per_mm)


def matched(
    poses: Sequence[Pose],
    change: Changes | None,
    card_mm: tuple[float, float],
    match: Callable[[list[Pose]], list[FaceMatch]],
) -> list[FaceMatch]:
    """Each pose's face: the last frame's where it stands (`Changes.match`), the others
    matched by `match` (a list of poses to their matches), in one call."""
    kept = [None if change is None else change.match(pose, card_mm) for pose in poses]
    fresh = iter(match([pose for pose, k in zip(poses, kept, strict=True) if k is None]))
    return [next(fresh) if k is None else k for k in kept]
