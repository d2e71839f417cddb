"""The camera's side of the switching-track game as the frame loop sees it
(`companion.games.protocol.Watcher`): frames in, `Seen` commands out.

Every frame is read (vision/reader.py: the panels, every train on its space and which way
it faces, the dice beside the board). The board counts once it lies still, the same panels
and trains for `CameraSetup.still_frames` frames in a row and every space seen, so a train
on its way along the track or a hand over the board is never taken for a move; the dice
count the same way, on their own, so a throw is read while a hand already reaches for the
panel. What the camera cannot see (the board's markers hidden, the light) goes with every
frame: the page shows it until it is fixed. A hand over a space or dice in a hand are no
one's fault and are only waited for.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games.protocol import CameraSetup
from companion.games.said import Said
from companion.games.switching.board import Board, is_box
from companion.games.switching.board import load as load_board
from companion.games.switching.commands import Seen
from companion.games.switching.drawing import Reading
from companion.games.switching.follow import BoardSeen
from companion.games.switching.scenes import DICE_BAND
from companion.games.switching.vision.reader import (
    APRON_MM,
    SeenBoard,
    read_board,
    reading_layout,
)
from companion.games.switching.vision.taught import Found, TaughtBox, read_taught
from companion.vision.dice_art import DIE_MM
from companion.vision.frame_checks import ChangeGate
from companion.vision.setup_check import PlayArea

_EDGE_MM = 10.0  # round the board: its edge, which a camera must see whole

# What a frame may lack while people play: a hand over the board, the dice in a hand. These
# are waited for, not said; everything else the reader reports is the camera's problem.
_IN_PLAY = {"spaces_unseen", "panels_unsure", "dice_unsure"}

Dice = tuple[str | None, tuple[int, int]]

_BOX_UNTAUGHT = ("the box taught at this table is not the one this game is played on: teach "
                 "this board again in “Set up the table”, or start a new game")  # fmt: skip


def board_seen(seen: SeenBoard) -> BoardSeen | None:
    """The board as the game compares it, when every panel and every space was read surely
    (None: something is hidden or unsure, so nothing can be said of it)."""
    if not seen.sure or not all(t.sure for t in seen.trains):
        return None
    trains = frozenset((t.space, t.colour, t.facing) for t in seen.trains if t.colour)
    return BoardSeen(seen.layout, trains) if seen.layout is not None else None


def dice_seen(seen: SeenBoard) -> Dice | None:
    """The three dice read surely: the colour die's colour and the two number dice."""
    dice = seen.dice
    if dice.colour is None or dice.numbers is None:
        return None
    return dice.colour, dice.numbers


class Camera:
    """The reader over one board and the stillness of what it reads."""

    def __init__(self, setup: CameraSetup, board: Board, box: TaughtBox | None = None) -> None:
        self.setup = setup
        self.board = board
        self.box = box  # a family's own box, taught: its board found by its picture, read
        # while the game's board is its board
        self.found: Found | None = None  # where the taught board was found last
        self.calibration: Any = None  # the board's markers found last: a still camera keeps them
        self.memo: Any = None  # and what they read (only the picture changed is read again)
        self.boards: list[BoardSeen | None] = []  # the last readings, newest last
        self.dice: list[Dice | None] = []
        self.still: BoardSeen | None = None  # the last still board told
        self.last: tuple[BoardSeen | None, Dice | None, tuple[Said, ...]] | None = None
        self.reading: Reading | None = None  # all the reader read of it: the camera's picture
        self.gate = ChangeGate()  # a frame in which nothing moved is not read again
        # when the box held was taught (`TaughtBox.stamp`): taught anew since, it is read again
        folder = setup.catalogue
        self.stamp = None if box is None or folder is None else TaughtBox.stamp(Path(folder))

    @classmethod
    def over(cls, setup: CameraSetup, option: str) -> Camera:
        """The camera over a table set up as `setup` says: a family's own box taught into
        `setup.catalogue` (`companion enroll --game switching`: its board found among the
        table's markers, its pieces read as taught), or else board `option`'s pieces (our
        printed board, panels, trains and dice; a catalogue of another game's faces
        leaves this game's read as printed). ValueError saying what is wrong with a taught
        box's folder."""
        folder = setup.catalogue
        if folder is None or not is_box(folder):
            return cls(setup, load_board(option))
        box = TaughtBox.load(Path(folder))
        return cls(setup, box.board, box)

    def see(self, frame: Any, hint: object) -> list[Seen]:
        """One frame (None: the same picture as before, which counts as one more frame in
        which nothing moved): a `Seen` with what the camera could not see, the board when
        it has just become still in a view other than the last one told, the dice when they
        lie still and read, and whether they have been off the table (or unread) for as
        many frames."""
        played = getattr(hint, "board", None)  # the game's (a Snapshot's), once one is played
        if isinstance(played, Board) and played is not self.board and played != self.board:
            self._look_for(played)
        elif self.box is not None and self._taught_anew():
            self.last = None  # the picture read again with the box as it is taught now
        if frame is not None and (self.gate.changed(frame) or self.last is None):
            self.last = self._read(frame)  # a frame the gate finds unchanged: as None
        elif self.last is None:
            return []
        board, dice, camera = self.last
        frames = self.setup.still_frames
        self.boards = [*self.boards, board][-frames:]
        self.dice = [*self.dice, dice][-frames:]
        news = None
        steady = len(self.boards) == frames and board is not None
        if steady and all(b == board for b in self.boards) and board != self.still:
            self.still = news = board
        steady_dice = len(self.dice) == frames and all(d == dice for d in self.dice)
        # lifted: no dice read for as long as dice must lie still to count, so one frame's
        # misread never makes the dice lying there a new throw
        return [Seen(news, dice if steady_dice else None, steady_dice and dice is None, camera)]

    def _look_for(self, board: Board) -> None:
        """Read `board` from now on, the game's, found again: ours printed (a game on our
        board at a table with a taught box), or a family's own through the box taught for
        it. That box is read from the folder again when it is not the one held: the setup
        page may have taught it (or taught it anew) since the service started, and the
        start form offers it at once, so a game started on it is read on it."""
        self.board, self.calibration, self.found, self.last = board, None, None, None
        self.boards, self.dice, self.still = [], [], None
        folder = self.setup.catalogue
        if board.ours or (self.box is not None and self.box.board == board):
            return
        if folder is not None and is_box(folder):
            try:
                self.box = TaughtBox.load(Path(folder))
            except ValueError:  # taught again badly since: said as a box not this game's
                self.box = None
            self.stamp = TaughtBox.stamp(Path(folder))

    def _taught_anew(self) -> bool:
        """Whether the box held was taught anew since it was read (the setup page adds the
        colour die's faces to it while the service runs), and if so it is held as taught
        now: the same board's (another board's is read once a game is played on it)."""
        folder = self.setup.catalogue
        if folder is None:
            return False
        stamp = TaughtBox.stamp(Path(folder))
        if stamp is None or stamp == self.stamp:
            return False
        try:
            box = TaughtBox.load(Path(folder))
        except ValueError:  # half written: read at a later frame
            return False
        self.stamp = stamp
        if self.box is None or box.board != self.box.board:
            return False
        self.box = box
        return True

    def _read(self, frame: Any) -> tuple[BoardSeen | None, Dice | None, tuple[Said, ...]]:
        if not self.board.ours and (self.box is None or self.box.board != self.board):
            self.reading = None
            return None, None, (Said("box_untaught", _BOX_UNTAUGHT),)
        box = None if self.board.ours else self.box
        if box is not None:
            seen, self.found = read_taught(frame, box, self.setup.layout, self.found)
        else:
            seen = read_board(frame, self.board, calibration=self.calibration, memo=self.memo)
            self.memo = seen.memo
            if seen.calibration is not None:
                self.calibration = seen.calibration
        self.reading = Reading(seen, self.board, box is not None)
        camera = tuple(p for p in seen.problems if p.key not in _IN_PLAY)
        return board_seen(seen), dice_seen(seen), camera


def follow(session: Mapping[str, Any]) -> bool:
    """How the turn flow follows a table through the camera, from the configuration's
    [session] keys: the switching-track game has none of its own; a camera follows it."""
    return True


def area(setup: CameraSetup, option: str) -> PlayArea:
    """Where this game's pieces lie, for the setup check: the board (placed by its own
    corner markers, wherever it lies on the table), in the reader's millimetres (the
    board's, with the apron round it), and beside it on the table's left and right the
    band where the dice are thrown and the depots stand. A family's own box, taught
    (`setup.catalogue`), has no markers of ours and lies anywhere among the table's: the
    table's own play area."""
    if setup.catalogue is not None and is_box(setup.catalogue):
        return PlayArea()
    board = load_board(option)
    width, height = board.size
    rect = (APRON_MM - _EDGE_MM, APRON_MM - _EDGE_MM, APRON_MM + width + _EDGE_MM,
            APRON_MM + height + _EDGE_MM)  # fmt: skip
    return PlayArea(rect=rect, layout=reading_layout(board), beside=DICE_BAND[1] + DIE_MM)
