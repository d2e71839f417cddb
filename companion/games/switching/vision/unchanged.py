"""What a still camera's next frame of the switching-track table takes from the last one
read (`Memo`): each slot and space whose picture did not change keeps what was read there.

A frame reaches the reader because something moved (switching/camera.py's change gate): a
train put down or turned, a panel laid, the dice thrown, a hand over the board. The rest
of the board is the picture it was, and reading it again would read it the same. So each
slot (its panel's colour and way round) and each space (its train or emptiness) is read
again only where the picture changed in or round it; the whole-frame steps (the board's
place, the paper's light, the lamp's reflection, the dice) run on every frame.

Unchanged is judged on the reader's small top-down image (`reader.HALF_PX_PER_MM`), each
of its colour channels and the lamp's reflection there averaged over squares of
`_CELL_PX` (4 mm): sensor noise averages away while a train moved, turned or covered
changes the squares under it by tens of levels. A slot or space is kept only when every
square its cut-out touches, and one round it (the camera's blur, the reflection's 2 mm
halo), is unchanged, it lies where it lay (a panel's spaces move with the panel), and the
paper's brightness there is nearly what it was (`_LEVEL_DRIFT`: the light a reading is
measured against). Nothing is kept unless the very calibration is reused (the camera and board did
not move: calibrate, or a taught board's pose, returned it), the board and its pieces'
looks are the same, and the paper's colour over the whole board has not drifted
(`_PAPER_DRIFT`: every colour is white-balanced against it). The memo's picture is the one
each kept reading was made on: a slow drift of the light adds up until it is read again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.games.switching.board import Board
from companion.vision.calibrate import Calibration

_CELL_PX = 2  # small top-down pixels a side of the squares compared (4 mm at 0.5 px/mm)
_LEVELS = 12  # levels a square must change by, in any channel, to count as changed
_GROW = np.ones((3, 3), np.uint8)  # the squares round a changed one count as changed too
_PAPER_DRIFT = 2.0  # the paper's colour may drift this many levels, in every channel
_LEVEL_DRIFT = 0.04  # and its brightness where a slot or space is read this share (fresh
# sensor noise moved it by up to 6 levels of 230: it is the brightest round each place)


@dataclass(frozen=True, eq=False)
class Read:
    """One slot's or space's reading (`outcome`, as the reader made it), whether it was
    read surely, and what it was read under: its cut-out's corners (reading frame mm,
    `reader.rectangle_corners`) and the paper's brightness at its centre
    (`reader.Light.at`). An unsure one is never kept: read again, a frame's fresh noise
    may tell it, where kept it would wait for its picture to change."""

    corners: np.ndarray
    level: float
    outcome: Any
    sure: bool


@dataclass(frozen=True, eq=False)
class Picture:
    """The reader's small top-down image (BGR) and the lamp's reflection in it (255 where
    it lies; None: nowhere), each averaged over whole `_CELL_PX` squares: what a frame is
    compared with the last by."""

    colour: np.ndarray
    glare: np.ndarray | None

    @classmethod
    def of(cls, half: np.ndarray, glare: np.ndarray | None) -> Picture:
        height, width = half.shape[:2]
        size = (width // _CELL_PX, height // _CELL_PX)
        whole = (slice(0, size[1] * _CELL_PX), slice(0, size[0] * _CELL_PX))
        colour = cv2.resize(half[whole], size, interpolation=cv2.INTER_AREA)
        if glare is not None:
            glare = cv2.resize(glare[whole], size, interpolation=cv2.INTER_AREA)
        return cls(colour, glare)

    def moved(self, before: Picture) -> np.ndarray:
        """Where this picture's squares differ from `before`'s (uint8, 1), in any colour
        channel or in the reflection, by more than `_LEVELS`."""
        blue, green, red = cv2.split(cv2.absdiff(self.colour, before.colour))
        change = cv2.max(cv2.max(blue, green), red)
        if self.glare is not None or before.glare is not None:
            none = np.zeros(change.shape, np.uint8)
            now, then = (none if g is None else g for g in (self.glare, before.glare))
            change = cv2.max(change, cv2.absdiff(now, then))
        return (change > _LEVELS).astype(np.uint8)

    def where(self, moved: np.ndarray, elsewhere: Picture) -> Picture:
        """This picture where `moved` (uint8), `elsewhere`'s elsewhere."""
        colour = elsewhere.colour.copy()
        cv2.copyTo(self.colour, moved, colour)
        glare = None
        if self.glare is not None or elsewhere.glare is not None:
            none = np.zeros(moved.shape, np.uint8)
            glare = none if elsewhere.glare is None else elsewhere.glare.copy()
            cv2.copyTo(none if self.glare is None else self.glare, moved, glare)
        return Picture(colour, glare)


@dataclass(frozen=True, eq=False)
class Memo:
    """What a frame leaves for the next: the calibration it was read with, the board and
    the pieces' looks (`reader.Pieces`: held and compared by identity only, so typed as
    any object, and this module, which the reader imports, does not import it back), the
    picture its readings were made on, the paper's colour then (`reader.Light.paper`), and
    each slot's and space's reading (by id)."""

    calibration: Calibration
    board: Board
    pieces: object
    picture: Picture
    paper: np.ndarray
    slots: Mapping[str, Read]
    spaces: Mapping[str, Read]


class Changes:
    """Where this frame's picture differs from the memo's, and which of the memo's
    readings stand."""

    def __init__(self, memo: Memo, now: Picture, px_per_mm: float) -> None:
        self.memo = memo
        self.moved = now.moved(memo.picture)
        # summed over the squares, each grown by one round it: a box's changed squares
        # counted in four look-ups
        self._changed = cv2.integral(cv2.dilate(self.moved, _GROW))
        self._scale = px_per_mm / _CELL_PX  # squares per mm

    def kept(
        self, before: Mapping[str, Read], ids: list[str], corners: list[np.ndarray],
        levels: list[float],
    ) -> list[Read | None]:  # fmt: skip
        """For each slot or space (`ids`, its cut-out's `corners` and the paper's
        brightness at its centre, `levels`, now), the memo's reading (`before`) when it
        still stands: read at these very corners, the paper nearly as bright, and the
        picture unchanged on and round its cut-out, and read surely; else None (read it
        again)."""
        box = np.stack(corners)
        lo = np.floor(box.min(axis=1) * self._scale).astype(int)
        hi = np.ceil(box.max(axis=1) * self._scale).astype(int) + 1
        rows, columns = (n - 1 for n in self._changed.shape)
        inside = (lo >= 0).all(axis=1) & (hi[:, 0] <= columns) & (hi[:, 1] <= rows)
        lo, hi = np.clip(lo, 0, (columns, rows)), np.clip(hi, 0, (columns, rows))
        s = self._changed
        changed = (s[hi[:, 1], hi[:, 0]] - s[lo[:, 1], hi[:, 0]] - s[hi[:, 1], lo[:, 0]]
                   + s[lo[:, 1], lo[:, 0]]) > 0  # fmt: skip
        stand = inside & ~changed
        return [
            read
            if stand[i]
            and (read := before.get(key)) is not None
            and read.sure
            and abs(read.level - levels[i]) <= _LEVEL_DRIFT * read.level
            and np.array_equal(read.corners, corners[i])
            else None
            for i, key in enumerate(ids)
        ]


def changes(
    memo: Memo | None,
    calibration: Calibration,
    board: Board,
    pieces: object,
    now: Picture,
    paper: np.ndarray,
    px_per_mm: float,
) -> Changes | None:
    """Where the picture changed since `memo`'s frame, or None when nothing of it can be
    taken: no memo, another calibration (the camera or the board moved), another board or
    box, or the paper's colour drifted (`_PAPER_DRIFT`)."""
    if memo is None or memo.calibration is not calibration or memo.pieces is not pieces:
        return None
    if memo.board is not board and memo.board != board:
        return None
    if memo.picture.colour.shape != now.colour.shape:
        return None
    if np.abs(memo.paper - paper).max() > _PAPER_DRIFT:
        return None
    return Changes(memo, now, px_per_mm)


def remember(
    change: Changes | None,
    calibration: Calibration,
    board: Board,
    pieces: object,
    now: Picture,
    paper: np.ndarray,
    slots: Mapping[str, Read],
    spaces: Mapping[str, Read],
) -> Memo:
    """What this frame leaves for the next: its readings, and the picture and paper they
    were made on (where nothing changed, the memo's own: a kept reading's)."""
    if change is None:
        return Memo(calibration, board, pieces, now, paper, slots, spaces)
    picture = now.where(change.moved, change.memo.picture)
    return Memo(calibration, board, pieces, picture, change.memo.paper, slots, spaces)
