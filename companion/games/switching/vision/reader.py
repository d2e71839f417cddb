"""One camera frame in, what the switching-track table shows out: `read_board`.

What the turn flow gets (`SeenBoard`): where each panel lies (`SeenPanel`: its slot and
whether it lies turned), every train on a space (`SeenTrain`: its colour and facing, +1
along its chain as the board file lists it, towards Finish on a track), the spaces the
camera could not see, and the three dice (`SeenDice`). Anything not read surely says so
(`sure` False, the unknown part None): never a guess. A hand over a train makes it
unsure, not wrong; a hand over an empty space makes that space unseen, not empty.

How (our board and pieces, art.py, are made for each step):
1. the board: its four printed corner markers (ids 4-7) place it
   (companion/vision/calibrate.py, in board millimetres with an apron of `APRON_MM`
   round it for the dice), whichever way round it lies on the table and wherever (a
   family's own board, taught, is placed by its picture among the table's markers
   instead: vision/taught.py, through `read_placed`, with its pieces' looks, `Pieces`);
2. the light: a small top-down image of board and apron gives the paper's white (its
   colour, to undo the lamp's cast, and its brightness round each place, to undo the
   light's fall-off); colours are then classed by hue (HSV, white-balanced) among the
   seven printed piece colours, which lie at least 30 degrees apart and are far more
   colourful than skin, wood or the board's greys;
3. the panels: the slots are cut out of the frame square (a perspective each, one remap
   for all); the colour covering most of a slot is its panel's, the slot floor's grey is
   no panel, and the two black squares in a panel's top corners say which way round it
   lies (at the bottom: turned; one hidden by a hand, the others must still agree). A
   colour seen in no slot or in two, or a way round not read, leaves that panel unsure;
4. the trains: every space's box (30 x 14 mm) is cut out of the frame along its track,
   all in one remap; a train is a fifth of the box or more in one train colour (and no
   second one), its facing where its black roof lies: clearly behind its own colour's
   middle or clearly ahead of it (a taught box's train also by its taught shape,
   `Pieces.trains`). A box showing the space's white is empty; anything else (a hand, a
   half hidden train) is unseen. A panel's spaces are placed where that panel was read;
5. the dice: beside the board, in bands of the apron clear of its corners, die-sized
   blobs that are white (the number dice, read by the shared pip reader, the Caboose
   table's: companion/vision/dice.py, and where it was not certain looked at again by a
   blurred template of each face fitted at the die's outline, number_dice.py: `_by_template`;
   white under the light itself, a taught board's
   buff paper's tint kept, `Pieces.paper`: balanced as if the buff were white, a white
   die turned bluish and pale skin white) or of a colour die face's colour (the colour
   die: as taught with a family's box, `Pieces.dice`, else a panel's colour). A train's
   colour there is a depot's train, not a die; wood, skin and the table's edge are
   neither white nor that colourful. Where fewer than two white number dice are seen, a
   family's number dice of any other colour (red, black, marbled) are looked for as the
   Caboose table finds its dice (dice.py `finder_masks`: brighter than the table, or
   unlike it), each kept where the learned count sees a pip die and no longer than a die
   (a depot's train is 26 mm with its roof), and read by the shared pip reader, a face
   taken at a stricter confidence than its own (`_other_dice`);
6. the glare: where a lamp's reflection clips the frame white (and washes out round it,
   companion/vision/frame_checks.py `glare_mask`) nothing is read: a slot, a space or a
   die it touches is unsure or unseen, never read (a glared space looks white: empty),
   and the frame says so (`glare`). A train in the washed-out halo but clear of the
   clipped white (and `_WASHED_MM` round it) is read when it is read surely; a space
   there that looks empty is still unseen.

Under a still camera (the last frame's calibration reused), steps 3 and 4 keep each sure
reading of a slot or space whose picture did not change in or round it since the last
frame read (the memo, vision/unchanged.py); the rest of the steps run on every frame.

`read_board` never raises on a bad frame: what it could not see is in `SeenBoard.problems`.
A frame without colour (a mono camera) is not read past the board's place: every piece is
told by its colour, and in grey a yellow train is as light as an empty space's white (30
hard tables through a grey camera, seed 900: 3 trains read wrong yet surely), so it is
said as its own problem and nothing is read surely.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from companion.games.said import Said
from companion.games.switching import art
from companion.games.switching.board import Board, Layout, Lie
from companion.games.switching.vision.number_dice import face_fits
from companion.games.switching.vision.unchanged import (
    Changes,
    Memo,
    Picture,
    Read,
    changes,
    remember,
)
from companion.vision.calibrate import FINE_PX_PER_MM, Calibration, calibrate, top_down
from companion.vision.dice import (
    PIPS,
    DieReading,
    count_looks,
    crop_at,
    faint_dice,
    finder_masks,
    look_at,
    read_dice,
)
from companion.vision.dice_art import DIE_MM
from companion.vision.frame_checks import (
    GLARE_KEY,
    as_bgr,
    clipped_round,
    colourless,
    glare_mask,
    glared,
)

APRON_MM = 110.0  # read round the board: where the dice are thrown, beside it
_DICE_BAND_MM = (4.0, 105.0)  # from the board's edge, where a die is looked for
_DICE_CORNER_MM = 60.0  # and not nearer a board corner along its edge (the table markers)
HALF_PX_PER_MM = 0.5  # the small top-down image: light, and the dice finder's scale
SLOT_PX_PER_MM = 1.0  # a slot's cut-out
SPACE_PX_PER_MM = 2.0  # a space's cut-out, finer than the camera sees a train
PATCH_MM = (30.0, 14.0)  # a space's cut-out along its track and across it
TRAIN_SHARE = 0.2  # of the cut-out in one train colour, at least: a train (a whole one
# shows 0.39-0.6 through the hard camera, an empty space under 0.01)
_OTHER_TRAIN_SHARE = 0.1  # another train colour over this share: two trains? unsure
_EMPTY_SHARE = 0.8  # of the space's middle white, at least: an empty space
_ROOF_PX = round(0.3 * 85.0 * SPACE_PX_PER_MM**2)  # a roof's dark pixels, at least: a
# third of its 85 mm2
_ROOF_OFF_MM = 4.0  # a roof's middle this far behind or ahead of the body's, at least
# half of that: a roof too small to tell a taught train's facing alone, but enough to doubt
# its shape's answer when it points the other way (a green train against a red one's cab,
# its shape read turned round surely: hidden table 211019, its roof 83 px, 5.3 mm behind)
_WEAK_ROOF_PX = _ROOF_PX // 2
# Seen coarser than FINE_PX_PER_MM (a 720p webcam's 0.4-0.8 px/mm over this board), a
# train's place and its cab are both blurred: a train lying a few mm off its space's middle
# matches its shape turned round, and a cab beside the board's dark print keeps a few dark
# pixels only. There a roof of a frame pixel or so (3 mm2 of the cut-out: a pixel at 0.55
# px/mm) pointing against the shape leaves the facing unread (table 3140 at 1280x720: a
# blue train on G5 lay 4 mm behind its space's middle, its shape read turned round surely,
# its roof 16 px, 6.1 mm behind, pointing the right way)
_COARSE_WEAK_ROOF_PX = _ROOF_PX // 8
_ROOF_HALF_WIDTH_MM = 5.0  # across the train, where its roof is looked for
_COLOURFUL = 0.45  # a piece colour's HSV saturation (white-balanced), at least: skin is 0.4
_LEAST_COLOURFUL = round(_COLOURFUL * 255)  # in OpenCV's saturation levels
_WHITE = (0.72, 0.18)  # a space's white: this share of the paper's brightness, saturation below
_DARK = 0.4  # a roof or a mark: under this share of the paper's brightness
_PANEL_SHARE = 0.35  # of a slot in its panel's colour, at least
_MARK_SHARE = 0.5  # of a way-round mark's square dark, at least
_SHOWN_SLOT = 0.1  # of a slot not under glare, at least, for its panel to be read (0.3
# left panels a fifth or a quarter in view unread: seeds 1004, 1084; what shows of them
# tells their colour, and their way round when enough of the print shows, `_TAUGHT_PIXELS`)

PROBLEMS: dict[str, str] = {
    "no_image": "no usable image came from the camera",
    "frame_tiny": "the frame is only {width}x{height} pixels",
    "too_dark": "the picture is almost black: is the light on and the lens uncovered?",
    "overexposed": "the picture is overexposed: dim the light or lower the camera's exposure",
    "markers_hidden": "board markers not seen ({markers}): is something lying on them?",
    "no_board": "cannot place the board: fewer than two of its corner markers are visible",
    "table_markers_hidden": "table markers not seen ({markers}): is something lying on them?",
    "no_table": "cannot place the table: fewer than two of its markers are visible",
    "board_unfound": "the board is not found among the table's markers: is it on the "
    "table, uncovered?",
    "frame_unread": "this frame could not be read ({error})",
    "panels_unsure": "the panels could not all be read: is a hand over them?",
    "spaces_unseen": "{n} space(s) could not be seen: is something lying on them?",
    "dice_unsure": "the dice could not be read: are all three beside the board, apart, with "
    "no hand over them?",
    "no_colour": "the picture has no colour, and the panels, trains and dice are told by their "
    "colour: switch the camera's colour on or use a colour camera",
    GLARE_KEY: "a reflection hides part of the table: move the lamp or tilt the camera",
}


def problem(key: str, **params: Any) -> Said:
    """One thing a frame could not show, said as every game's camera says things: `key`
    (of `PROBLEMS`), its parameters for the page's words, and the English."""
    return Said(key, PROBLEMS[key].format_map(params), tuple(params.items()))


@dataclass(frozen=True)
class SeenPanel:
    """Where a panel (`colour`) was seen: its `slot` and whether it lies `turned`; None
    and `sure` False when it was not read surely."""

    colour: str
    slot: str | None
    turned: bool | None
    sure: bool


@dataclass(frozen=True)
class SeenTrain:
    """A train on `space`: its `colour` (a player's) and `facing` (+1 along its chain as
    the board lists it, towards Finish on a track; -1 against), each None when not read
    surely; `sure` is both read."""

    space: str
    colour: str | None
    facing: int | None
    sure: bool


@dataclass(frozen=True)
class SeenDie:
    """One white die-sized blob beside the board read as a number die: its centre (`x`,
    `y`, board mm: beside the board, so outside its size) and its `face`, None when not
    read surely (a hand, a glare, a blob that is no die at all)."""

    x: float
    y: float
    face: int | None


@dataclass(frozen=True)
class SeenDice:
    """The dice beside the board: the colour die's panel colour (None unless exactly one
    colour die was seen, read surely) and the two number dice's faces, low first (which
    is which does not matter, their sum and whether they match do; None unless exactly
    two were read surely). `sure`: both read. A turn where a
    repair tile replaced the colour die takes `numbers` alone. `pips`: each number die
    read on its own, where it lies (what `numbers` is made of, and what eval-vision counts
    die by die: one die read while the other is hidden is still one die read)."""

    colour: str | None
    numbers: tuple[int, int] | None
    pips: tuple[SeenDie, ...] = ()

    @property
    def sure(self) -> bool:
        return self.colour is not None and self.numbers is not None


@dataclass(frozen=True)
class SeenBoard:
    """What one frame shows. `layout` is the panels' lie (one `Lie` a panel, in the
    board's panel order) when every panel was read surely; `trains` the trains on spaces
    (sure or not); `unseen` the spaces neither a sure train nor surely empty (a hand over
    them); `calibration` goes to the next `read_board` (a still camera, a hidden marker),
    and `memo` too: a still camera's next frame reads again only the slots and spaces whose
    picture changed (vision/unchanged.py)."""

    panels: Mapping[str, SeenPanel]
    layout: Layout | None
    trains: tuple[SeenTrain, ...]
    unseen: tuple[str, ...]
    dice: SeenDice
    problems: tuple[Said, ...] = ()
    calibration: Calibration | None = field(default=None, compare=False, repr=False)
    memo: Memo | None = field(default=None, compare=False, repr=False)

    @property
    def sure(self) -> bool:
        """Everything on the board read surely (the dice are `dice.sure`)."""
        return self.layout is not None and not self.unseen

    def train_at(self, space: str) -> SeenTrain | None:
        return next((t for t in self.trains if t.space == space), None)


_NO_DICE = SeenDice(None, None)


def reading_layout(board: Board) -> art.BoardMarkers:
    """The frame the reader measures in: the board's markers, with `APRON_MM` all round
    (a board point (x, y) is (x + APRON_MM, y + APRON_MM) in it)."""
    width, height = board.size
    return art.BoardMarkers(
        width=width + 2 * APRON_MM,
        height=height + 2 * APRON_MM,
        marker_mm=art.BOARD_MARKER_MM,
        inset_mm=art.BOARD_MARKER_INSET_MM + APRON_MM,
    )


def read_board(
    frame_bgr: object,
    board: Board,
    *,
    calibration: Calibration | None = None,
    memo: Memo | None = None,
) -> SeenBoard:
    """Everything the table shows in one frame. `calibration` (a previous SeenBoard's) is
    reused while the camera and board have not moved, and stands in when markers are
    hidden; while it is reused, what `memo` (that SeenBoard's) read where the picture did
    not change stands. Never raises on a bad frame."""
    return read_placed(
        frame_bgr,
        board,
        lambda frame, problems: _on_markers(frame, board, calibration, problems),
        memo=memo,
    )


# where the board lies in a frame: the reading frame's calibration, or None (the problems
# saying why); a taught box (vision/taught.py) is placed by its picture instead
Place = Callable[[np.ndarray, list[Said]], Calibration | None]


def read_placed(
    frame_bgr: object,
    board: Board,
    place: Place,
    pieces: Pieces | None = None,
    memo: Memo | None = None,
) -> SeenBoard:
    """Everything the table shows in one frame, the board placed by `place` and its pieces
    looking as `pieces` says (None: ours, art.py), what `memo` read standing where the
    picture did not change (vision/unchanged.py). Never raises on a bad frame."""
    panels_unread = {p.colour: SeenPanel(p.colour, None, None, False) for p in board.panels}
    frame, bad = as_bgr(frame_bgr)
    if frame is None:
        key, params = bad or ("no_image", {})
        return SeenBoard(
            panels_unread, None, (), tuple(board.spaces), _NO_DICE, (problem(key, **params),)
        )
    problems: list[Said] = []
    seen = place(frame, problems)
    if seen is None:
        return SeenBoard(panels_unread, None, (), tuple(board.spaces), _NO_DICE, tuple(problems))
    if colourless(frame):
        problems.append(problem("no_colour"))
        return SeenBoard(
            panels_unread, None, (), tuple(board.spaces), _NO_DICE, tuple(problems), seen
        )
    try:
        return _read(frame, board, seen, problems, pieces or OURS, memo)
    except cv2.error as error:  # OpenCV refusing an odd frame must not stop the referee
        problems.append(problem("frame_unread", error=str(error).strip()))
        return SeenBoard(panels_unread, None, (), tuple(board.spaces), _NO_DICE,
                         tuple(problems), seen)  # fmt: skip


def _on_markers(
    frame: np.ndarray, board: Board, calibration: Calibration | None, problems: list[Said]
) -> Calibration | None:
    """Our board placed by its printed corner markers (step 1), `calibration` standing in
    for hidden ones."""
    layout = reading_layout(board)
    seen = calibrate(frame, layout, calibration)
    if seen is None or len(seen.markers) < 4:
        missing = sorted(set(art.BOARD_MARKER_IDS) - set(seen.markers if seen else ()))
        problems.append(
            problem("markers_hidden", markers=", ".join(map(str, missing)), n=len(missing))
        )
        if seen is None and calibration is not None:
            seen = calibration if calibration.frame_size == frame.shape[1::-1] else None
        if seen is None:
            problems.append(problem("no_board"))
    return seen


def _read(
    frame: np.ndarray,
    board: Board,
    calibration: Calibration,
    problems: list[Said],
    pieces: Pieces,
    memo: Memo | None,
) -> SeenBoard:
    half = top_down(frame, calibration, reading_layout(board), HALF_PX_PER_MM)
    glare = glare_mask(frame)
    glare_half = None  # the reflection in the small image: a taught paper's tint and the
    # memo's picture need it
    if glare is not None:
        glare_half = top_down(glare, calibration, reading_layout(board), HALF_PX_PER_MM,
                              cv2.INTER_NEAREST)  # fmt: skip
    light = Light(half, board, pieces, glare_half)
    now = Picture.of(half, glare_half)
    change = changes(memo, calibration, board, pieces, now, light.paper, HALF_PX_PER_MM)
    if glare is not None:
        problems.append(problem(GLARE_KEY))
    panels, slots = _panels(frame, board, calibration, light, glare, change)
    lie = _lie(board, panels)
    if lie is None:
        problems.append(problem("panels_unsure"))
    trains, unseen, spaces = _trains(frame, board, calibration, light, panels, glare, change)
    if unseen:
        problems.append(problem("spaces_unseen", n=len(unseen)))
    dice = _dice(frame, half, board, calibration, light, glare)
    if not dice.sure:
        problems.append(problem("dice_unsure"))
    left = remember(change, calibration, board, pieces, now, light.paper, slots, spaces)
    return SeenBoard(panels, lie, trains, unseen, dice, tuple(problems), calibration, left)


# --- colour and light -------------------------------------------------------------------


_TRAIN_NAMES = tuple(art.TRAIN_COLOURS)
_PANEL_NAMES = tuple(art.PANEL_COLOURS)
_NONE = 255  # the class of a pixel of no piece's colour
_HUE_NEAR = 9  # OpenCV hue units (2 degrees each): a colour this near its printed hue


def _printed_hues() -> np.ndarray:
    """Each piece colour's hue (OpenCV's 0-179) as printed on our paper, trains first then
    panels: what a white-balanced pixel's hue is compared with."""
    paper = np.array(art.PAPER, np.float32)
    colours = np.array([*art.TRAIN_COLOURS.values(), *art.PANEL_COLOURS.values()], np.float32)
    balanced = np.clip(colours * (paper.max() / paper), 0, 255).astype(np.uint8)
    return cv2.cvtColor(balanced[None], cv2.COLOR_BGR2HSV)[0, :, 0].astype(int)


def hue_classes(colours: np.ndarray) -> np.ndarray:
    """A lookup table from hue (0-179) to the nearest of `colours`' hues (trains then
    panels, OpenCV's 0-179), as its index, or _NONE when none is within _HUE_NEAR (hue is
    a circle: 179 is next to 0)."""
    hues = np.arange(180)[:, None]
    distance = np.abs(hues - np.asarray(colours, int)[None, :])
    distance = np.minimum(distance, 180 - distance)
    nearest = distance.argmin(axis=1)
    table = np.where(distance.min(axis=1) <= _HUE_NEAR, nearest, _NONE).astype(np.uint8)
    return np.concatenate([table, np.full(76, _NONE, np.uint8)])  # hue stops at 179


@dataclass(frozen=True, eq=False)
class Pieces:
    """How a box's pieces look to the camera. `classes`: a pixel's hue (0-179) to its
    piece colour (`hue_classes`: trains in `art.TRAIN_COLOURS`' order, then panels in the
    colour die's); `panels`: each panel's picture as taught (upright, its slot cut out at
    `SLOT_PX_PER_MM`, white-balanced BGR in shares of the paper's brightness: `look_up`),
    which says which way round a panel lies; None: our panels' two black squares do.
    `printed_dark`: for each space, where the board's own print is dark round it
    (`printed_dark`): no train's roof is looked for there; None: nothing is (ours).
    `trains`: each train colour's shape as taught (`train_shape`), which says which way
    a train faces beside its dark cab or roof; None: our trains' black roofs alone do.
    `paper`: the board's paper as a share of white paper's light in each channel (BGR, the
    brightest 1), measured against the table markers' paper when taught: a family's
    cardboard is often buff, and a white die balanced against buff as if it were white turns
    bluish (and pale skin white), so the number dice are told under the light this undoes;
    None: the paper is white (ours). `dice`: the colour die's faces' colours as taught
    (`hue_classes` of their hues, in the colour die's order), which a family's die need not
    share with its panels; None: the die is told by the panels' colours (`classes`)."""

    classes: np.ndarray
    panels: Mapping[str, np.ndarray] | None = None
    printed_dark: Mapping[str, np.ndarray] | None = None
    trains: Mapping[str, np.ndarray] | None = None
    paper: tuple[float, float, float] | None = None
    dice: np.ndarray | None = None

    @cached_property
    def panel_ways(self) -> Mapping[str, PanelWays]:
        """Each taught panel's two ways round as a slot is compared with them
        (`_way_round_taught`), made once for every frame (a third of that comparison's
        time was making them again)."""
        return {colour: PanelWays.of(picture) for colour, picture in (self.panels or {}).items()}

    @cached_property
    def train_ways(self) -> Mapping[str, ShapeWays]:
        """Each taught train's shape both ways round as a body is compared with it
        (`_shape_mismatches`), made once for every frame, not for every train read."""
        return {colour: ShapeWays.of(shape) for colour, shape in (self.trains or {}).items()}


@dataclass(frozen=True, eq=False)
class PanelWays:
    """A taught panel's picture (`Pieces.panels`) upright and turned round, both blurred
    as a slot's cut-out is before they are compared, and where the two differ enough to
    tell which way round the panel lies (`_TAUGHT_DIFFERENT`)."""

    upright: np.ndarray
    turned: np.ndarray
    differ: np.ndarray

    @classmethod
    def of(cls, taught: np.ndarray) -> PanelWays:
        turned = taught[::-1, ::-1]
        differ = np.abs(taught - turned).sum(axis=2) >= _TAUGHT_DIFFERENT
        upright, round_ = (cv2.GaussianBlur(p, (5, 5), 0) for p in (taught, turned))
        return cls(upright, round_, differ)


OURS = Pieces(hue_classes(_printed_hues()))  # our printed pieces, art.py


def _brightest(image: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """The mean colour (BGR, each + 1) of the brightest tenth of `image`'s pixels (of those
    `among` says, when given): a board's paper."""
    blue, green, red = cv2.split(image)  # one pass, not a copy of each strided channel
    value = cv2.max(cv2.max(blue, green), red)
    mask = None if among is None else among.astype(np.uint8)
    histogram = np.cumsum(cv2.calcHist([value], [0], mask, [256], [0, 256]).ravel())
    tenth = int(np.searchsorted(histogram, 0.9 * histogram[-1]))
    bright = value >= tenth
    if among is not None:
        bright &= among
    return np.array(cv2.mean(image, mask=bright.astype(np.uint8))[:3]) + 1.0


def _gain_table(gains: np.ndarray) -> np.ndarray:
    """The lookup table (256 x 1 x 3, for `cv2.LUT`) that multiplies each BGR channel by
    its gain, clipped at white: a white balance, or a paper's tint."""
    return np.clip(np.arange(256)[:, None] * gains, 0, 255).astype(np.uint8)[:, None]


class Light:
    """The paper's colour over the whole board (the lamp's cast, undone by `balance`) and
    its brightness round each place (the light's fall-off and shadows, `at`), from the
    small top-down image: the board's brightest tenth, and a map of the brightest within
    a few centimetres."""

    def __init__(
        self, half: np.ndarray, board: Board, pieces: Pieces = OURS, glare: np.ndarray | None = None
    ) -> None:
        self.pieces = pieces
        k = HALF_PX_PER_MM
        a = round(APRON_MM * k)
        width, height = (round(side * k) for side in board.size)
        board_area = (slice(a, a + height), slice(a, a + width))
        paper = _brightest(half[board_area])
        self.balance = _gain_table(paper.max() / paper)
        hue, saturation, value = self._hsv(self.balanced(half))
        self.half = self._classes(hue, saturation), value, saturation  # for the dice
        self.paper = paper  # the paper's colour in the frame (BGR), for teaching its tint
        # how colourful each pixel is under the light itself (the paper's own tint kept):
        # what tells a white die from wood, skin and a buff board's print; the paper
        # measured clear of a lamp's reflection (`glare`, of the small image), which
        # washes it white: a buff board taken as white there tinted white dice buff
        self.white_saturation = self.half[2]
        clear = None if glare is None else glare[board_area] == 0
        # the paper clear of a lamp's reflection, where one lies on the board yet leaves
        # most of it clear
        clear_paper = None if clear is None or clear.all() or clear.mean() < 0.5 else (
            _brightest(half[board_area], clear))  # fmt: skip
        if pieces.paper is not None:
            light = paper if clear_paper is None else clear_paper
            white = cv2.LUT(half, _gain_table(light.max() / light * np.array(pieces.paper)))
            self.white_saturation = cv2.cvtColor(white, cv2.COLOR_BGR2HSV)[..., 1]
        self.die = (
            self._die_colours(hue, *self.half[::2])
            if clear_paper is None
            else self._die_colours_clear(half, clear_paper, board)
        )
        near = cv2.dilate(self.half[1], np.ones((25, 25), np.uint8))  # 50 mm
        # no darker than the darkest shadow on paper: off the table, nothing is white
        floor = _DARKEST_PAPER * float(paper.max())
        self.level = np.maximum(cv2.blur(near, (25, 25)).astype(np.float32), floor) + 1.0

    def _die_colours(
        self, hue: np.ndarray, classes: np.ndarray, saturation: np.ndarray
    ) -> np.ndarray:
        """Each pixel's colour die colour (index in the colour die's order, or _NONE), of
        white-balanced `hue`, `classes` and `saturation` (as `half`'s): by the die's taught
        colours (`Pieces.dice`), else by the panels' (a train's colour is no die's either
        way: a depot's train)."""
        if self.pieces.dice is None:
            panel = (classes >= len(_TRAIN_NAMES)) & (classes != _NONE)
            return np.where(panel, classes - len(_TRAIN_NAMES), _NONE).astype(np.uint8)
        die = cv2.LUT(hue, self.pieces.dice)
        die[(saturation < round(_COLOURFUL * 255)) | (classes < len(_TRAIN_NAMES))] = _NONE
        return die

    def _die_colours_clear(
        self, half: np.ndarray, clear_paper: np.ndarray, board: Board
    ) -> np.ndarray:
        """`_die_colours` under a lamp's reflection elsewhere on the board: the reflection
        is the board's brightest white, and balanced on it a warm lamp's cast stays: a
        purple die's blurred edge on the wood took no piece's colour, and what was left was
        too small a blob to be a die. Judged balanced on the paper clear of the reflection,
        only in the dice bands (nothing else is a die's); trains keep the light they were
        tuned under (balanced so, a train under the reflection was turned round)."""
        balance = _gain_table(clear_paper.max() / clear_paper)
        die = np.full(half.shape[:2], _NONE, np.uint8)
        for box in band_boxes(board, half.shape):
            hue, saturation, _ = self._hsv(cv2.LUT(np.ascontiguousarray(half[box]), balance))
            die[box] = self._die_colours(hue, self._classes(hue, saturation), saturation)
        return die

    def at(self, x: float, y: float) -> float:
        """The paper's brightness at board point (x, y) mm, white-balanced."""
        k = HALF_PX_PER_MM
        h, w = self.level.shape
        i = min(max(round((y + APRON_MM) * k), 0), h - 1)
        j = min(max(round((x + APRON_MM) * k), 0), w - 1)
        return float(self.level[i, j])

    def look_up(self, bgr: np.ndarray, centre: tuple[float, float]) -> np.ndarray:
        """A BGR cut-out white-balanced, in shares of the paper's brightness at board
        point `centre` (float32): how a taught panel's picture is kept and compared."""
        return self.shares(self.balanced(bgr), centre)

    def shares(self, balanced: np.ndarray, centre: tuple[float, float]) -> np.ndarray:
        """`look_up` of a cut-out already white-balanced (`balanced`)."""
        return balanced.astype(np.float32) / self.at(*centre)

    def balanced(self, bgr: np.ndarray) -> np.ndarray:
        """A BGR cut-out white-balanced, pixel by pixel, so as one long row (`_hsv`)."""
        row = np.ascontiguousarray(bgr).reshape(1, -1, 3)
        return cv2.LUT(row, self.balance).reshape(bgr.shape)

    def look(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each pixel's piece colour class (index of trains then panels, or _NONE), its
        white-balanced brightness and its colourfulness (HSV value and saturation), of a
        BGR cut-out."""
        return self.look_balanced(self.balanced(bgr))

    def look_balanced(self, balanced: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`look` of a cut-out already white-balanced (`balanced`): a slot's is compared
        with a taught panel too (`shares`), and is not balanced twice."""
        hue, saturation, value = self._hsv(balanced)
        return self._classes(hue, saturation), value, saturation

    def _hsv(self, balanced: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A white-balanced cut-out's hue, saturation and value (HSV), each of its size.
        Pixel by pixel, so the cut-out is converted as one long row: OpenCV's colour
        conversion pays for every row, and the spaces' cut-outs stacked are thousands of
        rows 28 pixels wide (their conversion 0.68 -> 0.16 ms)."""
        row = np.ascontiguousarray(balanced).reshape(1, -1, 3)
        hsv = cv2.cvtColor(row, cv2.COLOR_BGR2HSV)
        hue, saturation, value = (c.reshape(balanced.shape[:2]) for c in cv2.split(hsv))
        return hue, saturation, value

    def _classes(self, hue: np.ndarray, saturation: np.ndarray) -> np.ndarray:
        """Each pixel's piece colour class from its white-balanced `hue` (`Pieces.classes`),
        _NONE where it is under a piece's saturation (255 or'ed in there: a quarter of
        numpy's masked assignment's time)."""
        grey = cv2.threshold(saturation, _LEAST_COLOURFUL - 1, _NONE, cv2.THRESH_BINARY_INV)[1]
        return cv2.bitwise_or(cv2.LUT(hue, self.pieces.classes), grey)


# --- cutting out ------------------------------------------------------------------------


def rectangle_corners(
    centre: tuple[float, float], heading: tuple[float, float], size_mm: tuple[float, float]
) -> np.ndarray:
    """The four corners (reading frame mm) of the board rectangle `size_mm` (along
    `heading`, across it) round `centre` (board mm), clockwise from its front left as the
    heading points up."""
    return rectangles_corners(np.array([centre]), np.array([heading]), size_mm)[0]


def rectangles_corners(
    centres: np.ndarray, headings: np.ndarray, size_mm: tuple[float, float]
) -> np.ndarray:
    """`rectangle_corners` of many rectangles of one size at once (N, 4, 2), given their
    `centres` and `headings` (N, 2 each): a Python loop over a board's spaces cost half a
    millisecond a frame."""
    (x, y), (dx, dy) = centres.T, headings.T
    length, width = size_mm
    ax, ay = -dy, dx  # across, to the right of the heading as it points up
    return np.stack([
        np.stack([x + (dx * length + sign_a * ax * width) / 2,
                  y + (dy * length + sign_a * ay * width) / 2], axis=-1)
        if front else
        np.stack([x + (-dx * length + sign_a * ax * width) / 2,
                  y + (-dy * length + sign_a * ay * width) / 2], axis=-1)
        for front, sign_a in ((True, -1), (True, 1), (False, 1), (False, -1))
    ], axis=1) + APRON_MM  # fmt: skip


def cut_many(
    frame: np.ndarray, pixels: np.ndarray, size_mm: tuple[float, float], scale: float
) -> np.ndarray:
    """Rectangles of one size cut straight from the frame at `scale` px/mm (row 0 each
    one's front, column 0 its left), given their four corners' frame `pixels` (N, 4, 2;
    `rectangle_corners`), stacked top to bottom: one remap for all of them, each through its own
    perspective (over a slot's 160 mm a tilted camera's view is no affine one: its
    fourth corner would be millimetres off)."""
    length, width = size_mm
    w, h = round(width * scale), round(length * scale)
    out = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    warps = np.stack([cv2.getPerspectiveTransform(out, p.astype(np.float32)) for p in pixels])
    warps = warps.astype(np.float32)[:, :, :, None, None]  # each row's three, over (v, u)
    u, v = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)[:, None]
    # each perspective's rows over the cut-out's pixels, term by term: half the time of
    # one matrix product of every pixel with its 3 x 3 (a batch of tiny products)
    x, y, z = (warps[:, r, 0] * u + warps[:, r, 1] * v + warps[:, r, 2] for r in range(3))
    xy = np.stack([x / z, y / z], axis=-1).reshape(len(pixels) * h, w, 2)
    return cv2.remap(frame, xy, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# --- panels -----------------------------------------------------------------------------


def _panels(
    frame: np.ndarray,
    board: Board,
    calibration: Calibration,
    light: Light,
    glare: np.ndarray | None,
    change: Changes | None = None,
) -> tuple[dict[str, SeenPanel], dict[str, Read]]:
    """Each panel's slot and way round (step 3 of the module's docstring), from what
    `glare` leaves of each slot (step 6): a way-round mark under it is hidden, and a slot
    it covers shows no panel, so the panel in it is seen in no slot: unsure. A slot whose
    picture did not change since the last frame (`change`) keeps what was read in it;
    each slot's reading (its panel's colour and way round, or None) is returned for the
    next frame."""
    found: dict[str, list[tuple[str, bool | None]]] = {c: [] for c in _PANEL_NAMES}
    slots = list(board.slots.values())
    size = (slots[0].height, slots[0].width)  # every slot is one size
    centres = [(slot.x + slot.width / 2, slot.y + slot.height / 2) for slot in slots]
    corners = [rectangle_corners(c, (0.0, -1.0), size) for c in centres]
    levels = [light.at(*c) for c in centres]
    ids = [slot.id for slot in slots]
    kept = [None] * len(ids) if change is None else change.kept(change.memo.slots, ids,
                                                                 corners, levels)  # fmt: skip
    reads: dict[str, Read | None] = dict(zip(ids, kept, strict=True))
    pixels = calibration.to_pixels(np.concatenate(corners)).reshape(-1, 4, 2)
    fresh = [i for i, slot in enumerate(slots) if reads[slot.id] is None]
    rows = round(size[0] * SLOT_PX_PER_MM)
    if fresh:
        balanced = light.balanced(cut_many(frame, pixels[fresh], size, SLOT_PX_PER_MM))
        looks = light.look_balanced(balanced)
        hidden = None
        if any(glared_each(glare, pixels)):
            hidden = cut_many(glare, pixels[fresh], size, SLOT_PX_PER_MM) > 0
    for n, index in enumerate(fresh):
        cut = slice(n * rows, (n + 1) * rows)
        slot, centre = slots[index], centres[index]
        shown = np.ones((rows, balanced.shape[1]), bool) if hidden is None else ~hidden[cut]
        colour_way = None
        if shown.mean() >= _SHOWN_SLOT:
            colour_way = _slot_panel(balanced[cut], [a[cut] for a in looks], shown, centre, light)
        sure = colour_way is None or colour_way[1] is not None  # no panel, or its way round
        reads[slot.id] = Read(corners[index], levels[index], colour_way, sure)
    for slot in slots:
        colour_way = reads[slot.id].outcome
        if colour_way is not None:
            found[colour_way[0]].append((slot.id, colour_way[1]))
    seen = {}
    for colour, where in found.items():
        if len(where) == 1 and where[0][1] is not None:
            seen[colour] = SeenPanel(colour, where[0][0], where[0][1], True)
        else:
            seen[colour] = SeenPanel(colour, None, None, False)
    return seen, reads


def _slot_panel(
    balanced: np.ndarray, looks: list[np.ndarray], shown: np.ndarray,
    centre: tuple[float, float], light: Light,
) -> tuple[str, bool | None] | None:  # fmt: skip
    """The panel in one slot's cut-out (`balanced`, BGR white-balanced, `Light.balanced`;
    `looks`, its `Light.look_balanced`; `shown` where no glare hides it; `centre` the
    slot's, board mm): its colour and whether it lies turned (None when unsure), or None
    when no one panel colour covers it."""
    trains = len(_TRAIN_NAMES)
    classes, value, _ = looks
    classes = np.where(shown, classes, _NONE)
    counts = np.bincount(classes.ravel(), minlength=256)[trains : trains + len(_PANEL_NAMES)]
    best = int(np.argmax(counts))
    if counts[best] < _PANEL_SHARE * max(int(shown.sum()), 1) or (
        np.delete(counts, best).max() >= 0.1 * counts[best]
    ):
        return None
    if light.pieces.panels is None:
        dark = (value < _DARK * light.at(*centre)) & shown
        return _PANEL_NAMES[best], _way_round(dark, classes == trains + best)
    seen = light.shares(balanced, centre)
    # a train standing on the panel (its colour and the cab it holds) is no print of the
    # panel's: it told the two ways round apart less clearly
    on = cv2.dilate((classes < trains).astype(np.uint8), _ON_PANEL) > 0
    taught = light.pieces.panel_ways[_PANEL_NAMES[best]]
    return _PANEL_NAMES[best], _way_round_taught(seen, taught, shown & ~on)


def _way_round(dark: np.ndarray, plain: np.ndarray) -> bool | None:
    """Whether the panel in a slot's cut-out (`dark` and its own colour, `plain`, pixel by
    pixel) lies turned: its two black squares at the top (upright) or at the bottom
    (turned). A square hidden (neither black nor the panel's colour) may be either, but
    the others must agree; None when unsure."""
    k = SLOT_PX_PER_MM
    inset, side = art.MARK_MM
    h, w = dark.shape
    near, size = round((inset + art.PANEL_INSET_MM + 2.0) * k), round((side - 4.0) * k)
    states = {}
    for top in (True, False):
        for left in (True, False):
            y0 = near if top else h - near - size
            x0 = near if left else w - near - size
            window = (slice(y0, y0 + size), slice(x0, x0 + size))
            if float(dark[window].mean()) >= _MARK_SHARE:
                states[top, left] = "mark"
            elif float(plain[window].mean()) >= 0.6:
                states[top, left] = "plain"
            else:
                states[top, left] = "hidden"
    upper = [states[True, True], states[True, False]]
    lower = [states[False, True], states[False, False]]
    for marked, other, turned in ((upper, lower, False), (lower, upper, True)):
        if "mark" in marked and "plain" not in marked and "mark" not in other and "plain" in other:
            return turned
    return None


_TAUGHT_DIFFERENT = 0.6  # a taught panel's pixel unlike its turned self by this, at least
# (summed over B, G, R in shares of the paper): it says which way round the panel lies
_TAUGHT_PIXELS = 300  # such pixels in view, at least, for the way round to be read (a
# cyan panel with 105 beside a lamp's glare was read the wrong way round: seed 1047)
_TAUGHT_MARGIN = 0.7  # the better way round's mismatch under this share of the other's
_ON_PANEL = np.ones((11, 11), np.uint8)  # round a train's colour on a panel, its cab too
_TAUGHT_SHIFT_PX = 3  # the panel seen this far off its taught place in the cut-out, at most
# (a panel loose in its slot, the board's pose found to a few mm): each way round is
# compared where it matches best


def _way_round_taught(seen: np.ndarray, taught: PanelWays, shown: np.ndarray) -> bool | None:
    """Whether the panel in a slot's cut-out (`seen`, as `Light.look_up` gives it) lies
    turned, by which of its taught picture and that picture turned round (`taught`) it
    matches better where the two differ (the only pixels that can tell: the box's emblem,
    a piece that is not its own turn), among the `shown` pixels; None when too few are
    shown or neither matches clearly better (a hand, a train over the emblem)."""
    use = taught.differ & shown
    if int(use.sum()) < _TAUGHT_PIXELS:
        return None
    seen = cv2.GaussianBlur(seen, (5, 5), 0).astype(np.float32)
    upright, round_ = _mismatches(seen, (taught.upright, taught.turned), use)
    margin = _TAUGHT_MARGIN**2  # the mismatches are squared
    if upright < margin * round_:
        return False
    if round_ < margin * upright:
        return True
    return None


def _mismatches(
    seen: np.ndarray, pictures: tuple[np.ndarray, np.ndarray], use: np.ndarray
) -> tuple[float, float]:
    """How unlike each of `pictures` the cut-out `seen` is on the pixels `use` (their mean
    squared difference, summed over B, G, R), at the best of the shifts up to
    `_TAUGHT_SHIFT_PX` (`least_squared_differences`)."""
    k = _TAUGHT_SHIFT_PX
    inner = (slice(k, -k), slice(k, -k))
    rows, columns = np.nonzero(use[inner])
    templates = [p[inner].astype(np.float32) for p in pictures]
    pixels = max(float(len(rows)), 1.0)
    upright, turned = least_squared_differences_at(seen, templates, rows, columns)
    return upright / pixels, turned / pixels


def least_squared_differences_at(
    image: np.ndarray, templates: list[np.ndarray], rows: np.ndarray, columns: np.ndarray
) -> list[float]:
    """`least_squared_differences` of `templates` (float32, H x W x C) with `image`
    (float32, as many channels) on the template's pixels (`rows`, `columns`) only, summed
    over them directly at each shift: a taught panel's pixels that tell its way round are
    a twentieth to a third of its slot's, and OpenCV's masked sums (a DFT of the whole
    cut-out for each channel, three times over) took twice as long (2.0 -> 1.0 ms a
    slot). The same sums but for float rounding (a ten-thousandth of them at most, where
    the two ways round differ by twice or more)."""
    h, w, channels = templates[0].shape
    # every shift's view of the image, the template's pixels picked from each (shifts,
    # channels, pixels): one gather, no index array of every shift's every pixel
    shifted = sliding_window_view(image, (h, w), axis=(0, 1))[:, :, :, rows, columns]
    seen = shifted.reshape(-1, channels * len(rows))
    own = np.einsum("ij,ij->i", seen, seen)
    found = []
    for template in templates:
        taught = np.ascontiguousarray(template[rows, columns].T).ravel()  # as `seen`'s
        found.append(float((own - 2.0 * (seen @ taught)).min()) + float(taught @ taught))
    return found


def least_squared_differences(
    image: np.ndarray, templates: list[np.ndarray], mask: np.ndarray
) -> list[float]:
    """For each of `templates` (float32, each of `mask`'s shape), its least sum of squared
    differences from `image` (float32, as many channels) on the pixels `mask` (1, else 0)
    over every place it fits in `image` (each shift): what OpenCV's masked TM_SQDIFF gives,
    its one term that is the same for every template (the image's own squares under the
    mask) computed once for all of them (a template's is a third of its time)."""
    own = cv2.matchTemplate(image * image, mask, cv2.TM_CCORR)
    found = []
    for template in templates:
        masked = template * mask
        across = cv2.matchTemplate(image, masked, cv2.TM_CCORR)
        found.append(float((own - 2.0 * across).min()) + float((masked * masked).sum()))
    return found


def _lie(board: Board, panels: Mapping[str, SeenPanel]) -> Layout | None:
    """The panels' lie when every panel was read surely (each in a slot of its own)."""
    if not all(p.sure for p in panels.values()):
        return None
    lie = tuple(
        Lie(str(panels[p.colour].slot), bool(panels[p.colour].turned)) for p in board.panels
    )
    return lie if len({x.slot for x in lie}) == len(lie) else None


# --- trains -----------------------------------------------------------------------------

_S = SPACE_PX_PER_MM
_ROWS, _COLUMNS = round(PATCH_MM[0] * _S), round(PATCH_MM[1] * _S)


def _rows(front_mm: float, back_mm: float) -> slice:
    """A cut-out's rows from `front_mm` to `back_mm` along the track from the space's
    centre (positive: ahead, where the heading points)."""
    return slice(round(_ROWS / 2 - front_mm * _S), round(_ROWS / 2 - back_mm * _S))


def _columns(half_mm: float) -> slice:
    """A cut-out's columns within `half_mm` of the track's middle line."""
    return slice(round(_COLUMNS / 2 - half_mm * _S), round(_COLUMNS / 2 + half_mm * _S))


_MIDDLE = (_rows(8.0, -8.0), _columns(5.0))  # an empty space's white box


def _trains(
    frame: np.ndarray,
    board: Board,
    calibration: Calibration,
    light: Light,
    panels: Mapping[str, SeenPanel],
    glare: np.ndarray | None,
    change: Changes | None = None,
) -> tuple[tuple[SeenTrain, ...], tuple[str, ...], dict[str, Read]]:
    """Every space's train or emptiness (step 4), all spaces' cut-outs looked at in one
    go. A panel's spaces lie where that panel lies: those of a panel not read surely
    cannot be placed, so they are unseen; so are those under `glare` (step 6). A space
    whose picture did not change since the last frame, where it lay then (`change`),
    keeps what was read there; each placed space's reading (its train or None, and
    whether it is unseen) is returned for the next frame."""
    lie = tuple(
        Lie(str(seen.slot), bool(seen.turned)) if seen.sure else home
        for seen, home in zip((panels[p.colour] for p in board.panels), board.home, strict=True)
    )
    placed = [s.id for s in board.spaces.values() if s.panel is None or panels[s.panel].sure]
    unseen = [s for s in board.spaces if s not in placed]
    centres = [board.centre(space, lie) for space in placed]
    headings = np.array([board.heading(s, lie) for s in placed]).reshape(-1, 2)
    corners = list(rectangles_corners(np.array(centres).reshape(-1, 2), headings, PATCH_MM))
    levels = [light.at(*c) for c in centres]
    kept = [None] * len(placed) if change is None else change.kept(change.memo.spaces, placed,
                                                                    corners, levels)  # fmt: skip
    reads: dict[str, Read | None] = dict(zip(placed, kept, strict=True))
    fresh = [i for i, space in enumerate(placed) if reads[space] is None]
    if fresh:
        pixels = calibration.to_pixels(np.concatenate([corners[i] for i in fresh]))
        found = _spaces_read(frame, board, calibration, light, glare,
                             [placed[i] for i in fresh], pixels.reshape(-1, 4, 2),
                             [levels[i] for i in fresh])  # fmt: skip
        for i, outcome in zip(fresh, found, strict=True):
            reads[placed[i]] = Read(corners[i], levels[i], outcome, not outcome[1])
    trains: list[SeenTrain] = []
    for space in placed:
        train, hidden = reads[space].outcome
        if train is not None:
            trains.append(train)
        if hidden:
            unseen.append(space)
    return tuple(trains), tuple(unseen), reads


def _spaces_read(
    frame: np.ndarray,
    board: Board,
    calibration: Calibration,
    light: Light,
    glare: np.ndarray | None,
    placed: list[str],
    pixels: np.ndarray,
    levels: list[float],
) -> list[tuple[SeenTrain | None, bool]]:
    """What each of the `placed` spaces shows (its cut-out's corners in the frame,
    `pixels`; the paper's brightness at its centre, `levels`), all cut out in one go: its
    train (None: none read) and whether it is unseen."""
    cuts = cut_many(frame, pixels, PATCH_MM, SPACE_PX_PER_MM)
    classes, value, saturation = (a.reshape(len(placed), _ROWS, _COLUMNS) for a in light.look(cuts))
    level = np.array(levels, np.float32)[:, None, None]
    area = _ROWS * _COLUMNS
    # each space's pixels of each train colour: one count of its classes, not a pass of the
    # whole stack per colour
    trains = len(_TRAIN_NAMES)
    counts = np.stack([np.bincount(c.ravel(), minlength=256)[:trains] for c in classes])
    colour = counts.argmax(axis=1)
    dark = value < _DARK * level
    printed = light.pieces.printed_dark
    if printed is not None:  # a sleeper printed dark beside a space is no train's roof
        dark &= ~np.stack([printed[space] for space in placed])
    roof_px, roof_mm = _roofs(classes, dark, colour)
    shapes = light.pieces.train_ways if light.pieces.trains is not None else None
    # each cut-out's frame density: the frame pixels its 30x14 mm cover
    density = np.sqrt(np.abs(_shoelace(pixels)) / (PATCH_MM[0] * PATCH_MM[1]))

    def facing(i: int) -> int | None:
        roof = _roof_facing(int(roof_px[i]), float(roof_mm[i]))
        if shapes is None:  # ours: the black roof at a train's back
            return roof
        body = train_body(classes[i], value[i], levels[i], int(colour[i]))
        shape = _facing_by_shape(body, shapes[_TRAIN_NAMES[colour[i]]])
        # either tells it when the other cannot (a cab beside the board's dark print, a
        # body paled at one end); told apart, neither is trusted, nor a shape that a roof
        # too small to tell it alone points against (`_WEAK_ROOF_PX`; seen coarsely, a
        # smaller one, `_COARSE_WEAK_ROOF_PX`)
        if roof is None:
            least = _WEAK_ROOF_PX if density[i] >= FINE_PX_PER_MM else _COARSE_WEAK_ROOF_PX
            weak = _roof_facing(int(roof_px[i]), float(roof_mm[i]), least)
            return shape if weak in (None, shape) else None
        return roof if shape in (None, roof) else None

    middle = (slice(None), *_MIDDLE)
    white = (value[middle] >= _WHITE[0] * level) & (saturation[middle] < _WHITE[1] * 255)
    empty = white.mean(axis=(1, 2)) >= _EMPTY_SHARE
    washed = glared_each(_washed_out(frame, glare, calibration, board), pixels)
    halo = glared_each(glare, pixels)
    found: list[tuple[SeenTrain | None, bool]] = []
    for i, space in enumerate(placed):
        if washed[i]:
            found.append((None, True))
            continue
        train = _train_in(space, counts[i] / area, lambda i=i: facing(i))
        in_halo = halo[i]
        read = train if train is not None and (train.sure or not in_halo) else None
        # the halo pales a train towards the space's white: there only a train read surely
        # is read, and a space that looks empty may hold one
        hidden = bool(train is None and (in_halo or not empty[i])) or (
            train is not None and not train.sure
        )
        found.append((read, hidden))
    return found


def _shoelace(polygons: np.ndarray) -> np.ndarray:
    """Each of `polygons`' (N, 4, 2) signed area, by the shoelace formula."""
    x, y = polygons[..., 0], polygons[..., 1]
    return 0.5 * (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)


def glared_each(mask: np.ndarray | None, polygons: np.ndarray) -> list[bool]:
    """`glared` of each frame polygon (N, 4, 2), those whose bounding box lies clear of
    the mask's own told at once (a lamp's reflection is one patch of the frame: most of a
    board's spaces lie clear of it, and `glared` over each of them cost up to 2 ms)."""
    if mask is None:
        return [False] * len(polygons)
    x, y, w, h = cv2.boundingRect(mask)
    height, width = mask.shape
    points = np.round(np.asarray(polygons, np.float64)).astype(np.int32)
    x0, y0 = np.clip(points.min(axis=1), 0, (width, height)).T
    x1, y1 = np.clip(points.max(axis=1) + 1, 0, (width, height)).T
    near = (x0 < x + w) & (x1 > x) & (y0 < y + h) & (y1 > y)
    return [bool(n) and glared(mask, p) for n, p in zip(near, polygons, strict=True)]


_WASHED_MM = 2.0  # round what a lamp's reflection clipped white, this much more hides a train


def _washed_out(
    frame: np.ndarray, glare: np.ndarray | None, calibration: Calibration, board: Board
) -> np.ndarray | None:
    """Where a lamp's reflection (`glare`, frame_checks.glare_mask) left a train nothing to
    read: what it clipped white and `_WASHED_MM` round it (frame pixels, 255), as the
    Caboose reader leaves a card's. The rest of its halo only pales a train's colour and
    cab, so a train there is still read when it is read surely (`_trains`)."""
    if glare is None:
        return None
    centre = (board.size[0] / 2 + APRON_MM, board.size[1] / 2 + APRON_MM)
    reach = 2 * round(_WASHED_MM * calibration.px_per_mm(centre)) + 1
    return clipped_round(frame, glare, reach)  # only round the reflection (1.5-2 ms less)


_PRINT_REACH_PX = 5  # a dark print's mask widened this much (2.5 mm): the pose's error


def printed_dark(board: Board, picture: np.ndarray, px_per_mm: float) -> dict[str, np.ndarray]:
    """For each space of `board`, where its cut-out (as `_trains` cuts it) shows the
    board's own print dark in `picture` (the board taught, seen from above at
    `px_per_mm`, its panels at home upright: a panel space is cut there, along its piece,
    which is where it lies on its panel however the panel lies), widened by
    `_PRINT_REACH_PX`. Where a space showed a piece's colour when taught (a train stood
    there), the dark within that colour's outline (its cab) was the train's, but beyond
    its ends the sleepers and the board's border are still print: taken as no train's
    roof, they pulled the roof of a train standing there towards its middle, and its
    facing was unsure (the 4-player demo's seed 1 waited for a Start's train for ever)."""
    value = picture.max(axis=2)
    paper = float(np.percentile(value, 90))
    saturation = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)[..., 1]
    spaces = list(board.spaces)
    corners = np.concatenate([
        rectangle_corners(board.centre(s, board.home), board.heading(s, board.home), PATCH_MM)
        for s in spaces
    ]) - APRON_MM  # fmt: skip
    pixels = (corners * px_per_mm).reshape(-1, 4, 2)
    dark = cut_many(value, pixels, PATCH_MM, SPACE_PX_PER_MM) < _DARK * paper
    colourful = cut_many(saturation, pixels, PATCH_MM, SPACE_PX_PER_MM) >= _COLOURFUL * 255
    widen = np.ones((2 * _PRINT_REACH_PX + 1,) * 2, np.uint8)
    found = {}
    for i, space in enumerate(spaces):
        rows = slice(i * _ROWS, (i + 1) * _ROWS)
        print_dark = dark[rows]
        if colourful[rows].mean() >= TRAIN_SHARE / 2:
            print_dark = print_dark & ~_outline_of(colourful[rows])
        found[space] = cv2.dilate(print_dark.astype(np.uint8), widen) > 0
    return found


_SHAPE_BLUR_PX = 2.0  # a train's shape is compared blurred this much (1 mm): the camera's
# blur and the few degrees it is put down askew
_SHAPE_SHIFT_PX = (7, 4)  # along the track, across it: the most a train stands off its
# space's middle (the hand's 2 mm and the board's pose's 1-2 mm)
_SHAPE_DIFFERENT = 0.3  # a taught shape's pixel unlike its turned self by this, at least:
# where it says which way the train faces (its nose, its cab)
_SHAPE_PIXELS = 40  # such pixels, at least, for the shape to say it
_SHAPE_MARGIN = 0.5  # the better way's mismatch under this share of the other's


def _facing_by_shape(body: np.ndarray, ways: ShapeWays) -> int | None:
    """Which way a taught train faces from its shape: `body` is where a space's cut-out
    shows the train's body (`train_body`), `ways` its taught body (`train_shape`, facing
    the heading) both ways round (`Pieces.train_ways`). Whichever of the taught shape and
    the shape turned round matches better (`_shape_mismatches`): +1 or -1, None when
    neither matches clearly better (a hand, a glare, another train against it)."""
    mismatches = _shape_mismatches(body, ways)
    if mismatches is None:
        return None
    forwards, backwards = mismatches
    if forwards < _SHAPE_MARGIN * backwards:
        return 1
    if backwards < _SHAPE_MARGIN * forwards:
        return -1
    return None


@dataclass(frozen=True, eq=False)
class ShapeWays:
    """A taught train's shape (`train_shape`) blurred by `_SHAPE_BLUR_PX`, facing the
    heading (`ahead`) and turned round (`behind`), and where the two differ enough to tell
    which way it faces (`use`, 1; `_SHAPE_DIFFERENT`): its nose, its cab, whatever its
    makers gave it."""

    ahead: np.ndarray
    behind: np.ndarray
    use: np.ndarray

    @classmethod
    def of(cls, shape: np.ndarray) -> ShapeWays:
        ahead = cv2.GaussianBlur(shape.astype(np.float32), (0, 0), _SHAPE_BLUR_PX)
        behind = ahead[::-1, ::-1].copy()
        use = (np.abs(ahead - behind) >= _SHAPE_DIFFERENT).astype(np.float32)
        for made in (ahead, behind, use):
            made.setflags(write=False)  # shared by every frame's reading
        return cls(ahead, behind, use)


def _shape_mismatches(body: np.ndarray, ways: ShapeWays) -> tuple[float, float] | None:
    """How unlike a train's `body` its taught shape is, facing the heading and turned
    round (`ways`; summed squared differences, the body blurred by `_SHAPE_BLUR_PX` as the
    shape was), each at its best place within `_SHAPE_SHIFT_PX`, on the pixels where the
    two ways differ; None when too few do."""
    if float(ways.use.sum()) < _SHAPE_PIXELS:
        return None
    along, across = _SHAPE_SHIFT_PX
    blurred = cv2.GaussianBlur(body.astype(np.float32), (0, 0), _SHAPE_BLUR_PX)
    seen = cv2.copyMakeBorder(blurred, along, along, across, across, cv2.BORDER_CONSTANT, 0.0)
    forwards, backwards = least_squared_differences(seen, [ways.ahead, ways.behind], ways.use)
    return forwards, backwards


_SHAPE_LIGHT = 0.5  # a train's body: its colour at least this share of the paper's
# brightness (a dark cab blurred into a train's colour keeps its hue, not its light)


def train_body(classes: np.ndarray, value: np.ndarray, level: float, colour: int) -> np.ndarray:
    """Where a space's cut-out (`Light.look`'s `classes` and `value`, the paper's
    brightness there `level`) shows a train's body in train colour `colour` (its index):
    that colour, and not dark. What its shape is told by (`_facing_by_shape`)."""
    return (classes == colour) & (value >= _SHAPE_LIGHT * level)


def train_shape(body: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """A taught train's shape from its cut-out (as `_trains` cuts a space, the train
    facing the heading): its `body` (`train_body`) moved so that the train's middle, the
    middle of its `outline` (every pixel of its colour, its dark cab's too), is the
    cut-out's: a train put down off its space's middle is compared with its shape turned
    round that middle."""
    rows, columns = np.nonzero(outline)
    if not len(rows):
        return body.astype(bool)
    dy = (_ROWS - 1) / 2 - (rows.min() + rows.max()) / 2
    dx = (_COLUMNS - 1) / 2 - (columns.min() + columns.max()) / 2
    move = np.float32([[1, 0, round(dx)], [0, 1, round(dy)]])
    return cv2.warpAffine(body.astype(np.uint8), move, (_COLUMNS, _ROWS)) > 0


_SPECK_SHARE = 0.2  # a patch of colour under this share of the largest is a speck


def _outline_of(colour: np.ndarray) -> np.ndarray:
    """The smallest upright rectangle round a cut-out's `colour` pixels, widened by
    `_PRINT_REACH_PX`: a taught train's body with the cab it holds (its colour's
    outline round it). Specks of colour apart from it (a panel's edge, the warp's fringe:
    OpenCV 5 left one at the far end of a Start) do not stretch it over the print."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(colour.astype(np.uint8))
    areas = stats[1:, cv2.CC_STAT_AREA]
    kept = 1 + np.flatnonzero(areas >= _SPECK_SHARE * areas.max())
    rows, columns = np.nonzero(np.isin(labels, kept))
    h, w = colour.shape
    reach = _PRINT_REACH_PX
    outline = np.zeros(colour.shape, bool)
    outline[max(rows.min() - reach, 0) : min(rows.max() + reach + 1, h),
            max(columns.min() - reach, 0) : min(columns.max() + reach + 1, w)] = True  # fmt: skip
    return outline


def _roofs(
    classes: np.ndarray, dark: np.ndarray, colour: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each space's cut-out (N of them): how many dark pixels lie over the train of
    its commonest train colour `colour` (within half a roof's width of its middle line,
    and a train's length of its middle), and how far (mm) their middle lies behind the
    train colour's: about +10 for a train facing the heading (its roof at its back),
    -10 facing away. Measured from the train's own colour, not the space's centre, so a
    train put down a few millimetres off (and the calibration's millimetre or two) does
    not move its roof out of the place looked at."""
    rows = (np.arange(_ROWS, dtype=np.float32) + 0.5)[None, :, None]
    columns = (np.arange(_COLUMNS, dtype=np.float32) + 0.5)[None, None, :]
    body = classes == colour[:, None, None].astype(np.uint8)
    size = np.maximum(body.sum(axis=(1, 2)), 1)
    body_row = (body * rows).sum(axis=(1, 2)) / size
    body_column = (body * columns).sum(axis=(1, 2)) / size
    over = (np.abs(columns - body_column[:, None, None]) <= _ROOF_HALF_WIDTH_MM * _S) & (
        np.abs(rows - body_row[:, None, None]) <= art.TRAIN_MM[1] / 2 * _S
    )
    roof = dark & over
    count = roof.sum(axis=(1, 2))
    roof_row = (roof * rows).sum(axis=(1, 2)) / np.maximum(count, 1)
    return count, (roof_row - body_row) / _S


def _roof_facing(roof_px: int, roof_mm: float, least: int = _ROOF_PX) -> int | None:
    """Which way one of our trains faces from its roof (`_roofs`): clearly behind its
    middle (+1) or clearly ahead of it (-1); None when hidden or unclear (fewer than
    `least` dark pixels)."""
    if roof_px >= least and abs(roof_mm) >= _ROOF_OFF_MM:
        return 1 if roof_mm > 0 else -1
    return None


def _train_in(space: str, shares: np.ndarray, facing: Callable[[], int | None]) -> SeenTrain | None:
    """The train on `space` from its cut-out's share in each train colour and which way
    it faces (`facing`, asked only of a train: by its roof, `_roof_facing`, and a taught
    box's also by its shape, `_facing_by_shape`), or None: most of it in one train colour
    and its facing read. A train whose colour or facing is hidden is unsure."""
    best = int(np.argmax(shares))
    if shares[best] < 0.5 * TRAIN_SHARE:
        return None
    way = facing()
    if shares[best] < TRAIN_SHARE or np.delete(shares, best).max() >= _OTHER_TRAIN_SHARE:
        return SeenTrain(space, None, way, False)
    return SeenTrain(space, _TRAIN_NAMES[best], way, way is not None)


# --- dice -------------------------------------------------------------------------------

# a die-sized blob of the small top-down image: its centre (reading frame mm), its pixels
Spot = tuple[float, float, tuple[np.ndarray, np.ndarray]]

_DIE_COLOURFUL = 0.5  # a colour die's saturation, at least (an orange one: `ORANGE_DIE`)
_DIE_WHITE = (0.6, 0.25)  # a number die's middle: this share of the paper's brightness, and
# saturation under this (wood, skin and shadow fail one or the other)
_DARKEST_PAPER = 0.4  # the paper in the deepest shadow, in shares of the board's brightest
ORANGE_DIE = 0.7  # an orange die's saturation, at least: wood's is 0.5-0.65 (the one piece
# colour wood's hue is near)
_DIE_SURE = 0.9  # the shared pip reader's confidence in a face, at least (a drawn die it
# reads at 1.0; a far one it misread in the hard camera at 0.52)
# a colour die's white pips, at most this share of its blob: a far or coarse one's (about a
# pixel a millimetre: 1280x720) bleed into a third of it, where a white die is 0.8 white
_PIPS_SHARE = 0.4
_DIE_AREA = (0.45, 1.6)  # a die's blob, in shares of its face's area: at least, at most
# a die of another colour (`_other_spots`): its blob's long side at most _ONE_DIE_MM, two
# dice against each other a blob _PAIR_MM long (a depot's train is 20-28 mm long there)
_ONE_DIE_MM, _PAIR_MM = 19.5, (28.0, 40.0)
# what lies round a blob that is no die, in small image pixels (14 mm), and the least area
# of a faint blob that is the floor past the table's edge or an arm (six dice)
_HALO_PX, _BIG_MM2 = 7, 1500.0
# a die of another colour is read surely from this confidence: the shared reader's is made
# for 0.5 (the Caboose table's `die_unsure_below`), but these dice lie at the table's edge,
# 0.6-0.9 pixels a millimetre, where its count names a wrong face surely more often (tuning
# seeds 64000 and 268000, 1800 real dice: 0.5 read 6 wrong yet surely, 0.6 three, while
# reading 7 % fewer right); and a blob of a colour die's colour is taken for a number die
# only from _COLOUR_BLOB_SURE (the count takes our plain purple and cyan faces for a 2 at
# up to 0.64: seed 268047)
_OTHER_SURE, _COLOUR_BLOB_SURE = 0.6, 0.9
# `_lying_length`: looked at in a square this wide at this density, the blob within
# _LENGTH_REACH_MM of its middle, unlike the table by _UNLIKE_AB in a and b (as dice.py's
# `_OTHER_COLOUR`), paper's white (chroma under _PAPER_CHROMA, lighter than the table) left out
_LENGTH_MM, _LENGTH_PX_PER_MM, _LENGTH_REACH_MM = 48.0, 2.0, 4.0
_UNLIKE_AB, _PAPER_CHROMA = 22.0, 12.0
# a pip die lies at most this long so (tuning seeds 64000-64039: the real dice 18.7 mm at
# most, our colour die 22, a depot's train from 22.2)
_DIE_LENGTH_MM = 21.0
# a number die the shared reader asked about is read by its template (number_dice.py) where
# the best face explains at least _TEMPLATE_FIT of the crop round the die and leaves at most
# 1/_TEMPLATE_MARGIN of what the next face leaves unexplained, and the learned count names
# no other face, nor no die, _TEMPLATE_OTHER likely
_TEMPLATE_FIT, _TEMPLATE_MARGIN, _TEMPLATE_OTHER = 0.85, 1.6, 0.6
# where the learned count names the template's face this likely ([1]), a looser fit ([0])
# is enough (tuning seed 2000: a far blurred 6 fits 0.76, the count 0.89 a 6)
_TEMPLATE_AGREED = (0.7, 0.8)
# and where it names it _TEMPLATE_NAMED[2] likely, a fit of [0] at a margin of [1] is
# enough: two readers of different kinds name the same face (tuning seeds 2000-3799, hard
# camera: far blurred 3s, 5s and 6s at 0.6-0.74 px/mm fit 0.60-0.93 at margins 1.19-1.6,
# the count 0.61-0.81; of 1640 dice looked at again, 1025 of them at 1280x720, none read
# wrong so even at a margin of 1.0 and a count of 0.55, once the middle pip's rule below
# holds; without it, blurred 3s with pips a pixel or two wide were read as 2s at margins
# up to 1.39, all under 0.52 px/mm)
_TEMPLATE_NAMED = (0.6, 1.15, 0.6)
# A face the template prefers to the next only by lacking its middle pip (a 2 over a 3, a
# 4 over a 5) is asked where the frame sees the die under _MIDDLE_PIP_PX_PER_MM: blur
# only ever takes a pip away, and there a middle pip is under 1.65 frame pixels across
# (at 1280x720, seeds 4000 and 259500: three 3s at 0.44-0.52 px/mm read as 2s, both
# readers sure; of 1025 dice looked at again there, 105 right 2s and 4s asked so;
# the default camera's far dice are seen at 0.6 px/mm or finer)
_MIDDLE_PIP_LOST, _MIDDLE_PIP_PX_PER_MM = ((2, 3), (4, 5)), 0.55
# a die read surely under _CERTAIN is looked at by the template at its outline too, and
# read again where another face explains it _TEMPLATE_DOUBT better than the face read
# (tuning seed 3459: a far 5 read as a 4 at 0.995, its 5 0.03 better; the right ones of
# tuning seeds 3000-3599 and 7000-7059 at 1280x720 the template's best, or within 0.02)
_CERTAIN, _TEMPLATE_DOUBT = 0.999, 0.02


def _dice(
    frame: np.ndarray,
    half: np.ndarray,
    board: Board,
    calibration: Calibration,
    light: Light,
    glare: np.ndarray | None,
) -> SeenDice:
    """The three dice beside the board (step 5) in the frame and its small top-down image
    `half`: white number dice and the colour die by their colours and, where fewer than
    two white ones are seen, number dice of any other colour as the shared finder finds
    them (`_other_dice`); a blob under `glare` is no die read (a die there is missed, so
    the dice are unsure: step 6)."""
    white, found = die_masks(board, light)  # found: where a die may lie
    die = light.die
    white_spots, colours = [], []
    whole = die_spots(found)
    # three dice are thrown: fewer blobs, and a die may lie cut in strips by its pips (the
    # search costs about 1 ms, only then)
    if len(whole) < 3:
        whole += split_die_spots(found, whole)
    for x, y, blob in whole:
        if glared(glare, _die_outline(calibration, x, y)):
            continue
        shown = found[blob]  # a split die's blob is counted by what showed of it
        kinds = np.bincount(np.where(white[blob], 0, die[blob].astype(int) + 1)[shown],
                            minlength=len(_PANEL_NAMES) + 1)  # fmt: skip
        if kinds[0] >= 0.8 * kinds.sum():
            white_spots.append((x, y))
        elif kinds[0] <= _PIPS_SHARE * kinds.sum() and kinds[1:].max() >= 0.8 * kinds[1:].sum():
            colours.append((_PANEL_NAMES[int(np.argmax(kinds[1:]))], (x, y)))
    # white dice on the board's own table: a clean layout fit is believed where the learned
    # count only spreads its answer (dice.py `_CLEAN_MARGIN`)
    readings = read_dice(frame, calibration, white_spots, clean_fits=True)
    readings = [r for r in readings if r.kind == PIPS]
    faces = _by_template(frame, calibration, readings)
    if len(readings) < 2:  # two white number dice seen: no other is looked for
        others, colours = _other_dice(frame, half, board, calibration, glare, white_spots,
                                      colours)  # fmt: skip
        readings += [r for r, _ in others]
        faces += [face for _, face in others]
    pips = tuple(SeenDie(r.x - APRON_MM, r.y - APRON_MM, face)
                 for r, face in zip(readings, faces, strict=True))  # fmt: skip
    faces = [one.face for one in pips if one.face is not None]
    numbers = (min(faces), max(faces)) if len(pips) == len(faces) == 2 else None
    return SeenDice(colours[0][0] if len(colours) == 1 else None, numbers, pips)


def _other_dice(
    frame: np.ndarray,
    half: np.ndarray,
    board: Board,
    calibration: Calibration,
    glare: np.ndarray | None,
    white_spots: list[tuple[float, float]],
    colours: list[tuple[str, tuple[float, float]]],
) -> tuple[list[tuple[DieReading, int | None]], list[tuple[str, tuple[float, float]]]]:
    """Number dice that are neither white nor the colour die (a family's red, blue, black
    or marbled pip dice), each with its face (None: asked), and the colour die's blobs
    left. The blobs the shared finder sees in the dice bands (`_other_spots`) off every
    white die (`white_spots`) and colour die (`colours`), read by the shared pip reader
    (those on full evidence as its `among_others`, the faint ones as its faint blobs:
    each kept only where the learned count sees a pip die), no longer than a die lies
    (`_lying_length`); and where two blobs are of a colour die's colour (a family's
    purple pip die beside our purple colour die), those read surely as pip dice (a pip
    die asked there may be the colour die: both stay unsure). A face is taken from
    `_OTHER_SURE` (a blob of a colour die's colour from `_COLOUR_BLOB_SURE`)."""
    doubtful = [spot for _, spot in colours] if len(colours) > 1 else []
    taken = white_spots + [spot for _, spot in colours]
    found, faint = (
        [
            (x, y)
            for x, y in spots
            if all(math.dist((x, y), other) > DIE_MM for other in taken)
            and not glared(glare, _die_outline(calibration, x, y))
        ]
        for spots in _other_spots(half, board)
    )
    if not found and not faint and not doubtful:
        return [], colours
    readings = read_dice(frame, calibration, [], faint=faint, among_others=found + doubtful)
    dice = [
        reading
        for reading in readings
        if reading.kind == PIPS
        # a depot's train: its roof and lamp look like a 2's pips to the learned count
        and _lying_length(frame, calibration, reading.x, reading.y) <= _DIE_LENGTH_MM
    ]
    others = []
    for reading in dice:
        near = [c for c in colours if math.dist(c[1], (reading.x, reading.y)) <= DIE_MM / 2]
        sure = reading.confidence >= (_COLOUR_BLOB_SURE if near else _OTHER_SURE)
        if near and not (len(colours) > 1 and sure):
            continue  # the colour die, or a die of its colour read too loosely to tell
        colours = [c for c in colours if c not in near]
        others.append((reading, reading.face if sure else None))
    return others, colours


def _lying_length(frame: np.ndarray, calibration: Calibration, x: float, y: float) -> float:
    """The length (mm) of what lies at reading frame point (x, y) mm, seen at _LENGTH_PX_PER_MM
    in a _LENGTH_MM square of the frame round it: its pixels unlike the table there (the
    square's edge's median colour: of another colour in Lab's a and b, or much darker),
    paper white left out, the blob at the middle's smallest turned rectangle's long side.
    A die is 16 mm long whichever way it lies, a depot's train 26 mm with its black roof:
    what the top-down image, at half a pixel a millimetre, does not tell apart."""
    k = _LENGTH_PX_PER_MM
    lab = cv2.cvtColor(crop_at(frame, calibration, x, y, _LENGTH_MM, k), cv2.COLOR_BGR2Lab)
    lab = lab.astype(np.float32)
    edge = np.concatenate([lab[0], lab[-1], lab[1:-1, 0], lab[1:-1, -1]])
    table = np.median(edge, axis=0)
    lightness, chroma = lab[..., 0], lab[..., 1:] - 128.0
    distance = np.hypot(*(lab[..., 1:] - table[1:]).transpose(2, 0, 1))
    paper = (lightness > table[0]) & (np.hypot(*chroma.transpose(2, 0, 1)) < _PAPER_CHROMA)
    unlike = ((distance > _UNLIKE_AB) | (lightness < 0.5 * table[0])) & ~paper
    mask = cv2.morphologyEx(unlike.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(mask)
    middle = labels.shape[0] // 2
    reach = round(_LENGTH_REACH_MM * k)
    near = labels[middle - reach : middle + reach + 1, middle - reach : middle + reach + 1]
    ids = np.bincount(near.ravel(), minlength=count)
    ids[0] = 0
    if not ids.any():
        return 0.0
    ys, xs = np.nonzero(labels == int(np.argmax(ids)))
    _, size, _ = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
    return max(size) / k


def _other_spots(
    half: np.ndarray, board: Board
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Where the shared finder (dice.py `finder_masks`) sees a die in the dice bands of the
    small top-down image `half`: its blobs of one die's size and square (`_ONE_DIE_MM`),
    two dice lying against each other split in halves; and its faint blobs (`faint_dice`)
    clear of any blob of its that is neither: a depot's train is as colourful as a die and
    its black roof makes it 26 mm long, while a die's blob is at most 19 mm long (tuning
    seeds 64000-64039), so a train is never a die nor its faint halo one. Nor is anything
    within `_HALO_PX` of a faint blob far bigger than a die (`_BIG_MM2`): the floor past
    the table's edge, whose ragged edge left about three blobs a table that were no die."""
    found: list[tuple[float, float]] = []
    faint: list[tuple[float, float]] = []
    for rows, columns in band_boxes(board, half.shape):  # each band alone: a quarter in all
        inside = np.ascontiguousarray(half[rows, columns])
        if inside.size:
            origin = np.array([columns.start, rows.start]) / HALF_PX_PER_MM
            sure, maybe = _band_spots(inside)
            found += [(float(x), float(y)) for x, y in sure + origin]
            faint += [(float(x), float(y)) for x, y in maybe + origin]
    return found, faint


def _band_spots(band: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_other_spots` in one band of the small top-down image (its centres in mm from the
    band's corner, (n, 2) each)."""
    k = HALF_PX_PER_MM
    mask, faint = finder_masks(band, np.full(band.shape[:2], 255, np.uint8), k)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found, apart = [], np.zeros(count, bool)
    areas = stats[:, cv2.CC_STAT_AREA] / k**2
    for i in np.flatnonzero(areas >= _DIE_AREA[0] * DIE_MM**2)[1:] if count > 1 else ():
        blob = _Blob.of(labels, stats, i)
        if blob.long <= _ONE_DIE_MM and blob.short >= DIE_MM / 2:
            found.append(blob.centre)
        elif _PAIR_MM[0] <= blob.long <= _PAIR_MM[1] and 1.6 <= blob.ratio <= 2.5:
            found += blob.halves
        else:
            apart[i] = True  # a train, a hand, the floor past the table's edge: no die
    # nor is a faint blob on them; and the floor past the table's edge (or an arm) is one
    # faint blob far bigger than a die, whose ragged edge is no die either
    count, faint_labels, stats, _ = cv2.connectedComponentsWithStats(faint, connectivity=8)
    big = np.zeros(count, bool)
    big[1:] = stats[1:, cv2.CC_STAT_AREA] / k**2 >= _BIG_MM2
    shut = cv2.bitwise_or(apart[labels].view(np.uint8), big[faint_labels].view(np.uint8))
    shut = cv2.dilate(shut, np.ones((_HALO_PX, _HALO_PX), np.uint8))
    faint = cv2.bitwise_and(faint, cv2.compare(shut, 0, cv2.CMP_EQ))
    h, w = shut.shape
    found = [(x, y) for x, y in found
             if not shut[min(round(y * k), h - 1), min(round(x * k), w - 1)]]  # fmt: skip
    return np.array(found).reshape(-1, 2), np.array(faint_dice(faint, k, found)).reshape(-1, 2)


def die_masks(board: Board, light: Light) -> tuple[np.ndarray, np.ndarray]:
    """Where the small image is a number die's white, and where a die may lie (that white,
    or a colour die's colour), within the bands where dice are looked for (`dice_band`);
    False elsewhere. Made only in those bands (a quarter of the image: nothing elsewhere is
    ever looked at), each pixel as over the whole image."""
    _, value, saturation = light.half
    die = light.die  # a train's colour there is a depot's train: no die
    orange = _PANEL_NAMES.index("orange")
    white = np.zeros(value.shape, bool)
    spots = np.zeros(value.shape, bool)
    for box in band_boxes(board, value.shape):
        white[box] = (light.white_saturation[box] < _DIE_WHITE[1] * 255) & (
            value[box] >= _DIE_WHITE[0] * light.level[box]
        )
        colourful = (saturation[box] >= _DIE_COLOURFUL * 255) & (die[box] != _NONE)
        # wood is a dull orange: an orange die is told from it by being far more colourful
        colourful &= (die[box] != orange) | (saturation[box] >= ORANGE_DIE * 255)
        spots[box] = white[box] | colourful
    return white, spots


def _by_template(
    frame: np.ndarray, calibration: Calibration, readings: list[DieReading]
) -> list[int | None]:
    """Each white die's face as the shared pip reader read it (None: asked), looked at
    again by a template of a white die with black pips fitted at its measured outline
    (number_dice.py) where that reader was not certain: a die it asked about is read by the
    template, the best over turns of the outline too (a far, blurred die's layout fits too
    loosely to be believed, while its whole picture still tells its face); a die it read
    surely but not certainly (`_CERTAIN`) whose face the template at its outline explains
    worse than another (`_TEMPLATE_DOUBT`: its outline was measured turned, and a
    wrong layout fit it) is read so too. The template's face is taken only where it
    explains the die well, far better than the next face, and the learned count names no
    other face nor no die (`_TEMPLATE_FIT`, `_TEMPLATE_MARGIN`, `_TEMPLATE_OTHER`: a pale
    fingertip's shadow is no die); a looser fit is enough where the learned count names the
    template's face itself (`_TEMPLATE_AGREED`: a far 6 blurred into two streaks), and a
    looser margin too where it names it at all likely (`_TEMPLATE_NAMED`: far 5s and 6s);
    else, or where the face read may be the next one with its middle pip blurred away
    (`_MIDDLE_PIP_LOST`), the die is asked."""
    faces = [r.face if r.confidence >= _DIE_SURE else None for r in readings]
    looked = [i for i, r in enumerate(readings) if r.confidence < _CERTAIN]
    looks = {i: look_at(frame, calibration, readings[i].x, readings[i].y) for i in looked}
    again = []
    for i in looked:
        look = looks[i]
        if look is None or faces[i] is None:
            again.append(i)
            continue
        fits = face_fits(cv2.cvtColor(look.crop, cv2.COLOR_BGR2GRAY), look.rect, turned=False)
        if float(fits.max() - fits[faces[i] - 1]) > _TEMPLATE_DOUBT:
            again.append(i)
    found = [i for i in again if looks[i] is not None]
    chances = dict(zip(found, count_looks([looks[i] for i in found], counts=True), strict=True))
    for i in again:
        faces[i] = None
        if i not in chances:
            continue
        look = looks[i]
        fits = face_fits(cv2.cvtColor(look.crop, cv2.COLOR_BGR2GRAY), look.rect)
        order = np.argsort(-fits, kind="stable")  # the first of equals first, as argmax
        face, next_face = int(order[0]) + 1, int(order[1]) + 1
        best, runner_up = fits[order[:2]]
        density = calibration.px_per_mm((readings[i].x, readings[i].y))
        if (face, next_face) in _MIDDLE_PIP_LOST and density < _MIDDLE_PIP_PX_PER_MM:
            continue
        others = np.delete(chances[i][1:], face - 1)
        counted = float(chances[i][face])
        agreed = counted >= _TEMPLATE_AGREED[1]
        if (
            best >= (_TEMPLATE_AGREED[0] if agreed else _TEMPLATE_FIT)
            and (1.0 - runner_up) >= _TEMPLATE_MARGIN * (1.0 - best)
            and float(others.max()) < _TEMPLATE_OTHER
            and float(chances[i][0]) < _TEMPLATE_OTHER
        ) or (
            counted >= _TEMPLATE_NAMED[2]
            and best >= _TEMPLATE_NAMED[0]
            and (1.0 - runner_up) >= _TEMPLATE_NAMED[1] * (1.0 - best)
        ):
            faces[i] = face
    return faces


def dice_band(board: Board, shape: tuple[int, ...]) -> np.ndarray:
    """Where a die is looked for in the small image (of `shape`): the bands of the apron
    beside the board's sides (`_DICE_BAND_MM` from its edge), clear of its corners
    (`_DICE_CORNER_MM`), 1 there."""
    band = np.zeros(shape[:2], np.uint8)
    for box in band_boxes(board, shape):
        band[box] = 1
    return band


def band_boxes(board: Board, shape: tuple[int, ...]) -> list[tuple[slice, slice]]:
    """The four bands of `dice_band` as the small image's (rows, columns) boxes, each
    rectangle's corner pixels rounded from board mm and both ends included (as OpenCV fills
    a rectangle), cut to the image: where the dice's masks are made."""
    k = HALF_PX_PER_MM
    width, height = board.size
    a, (near, far), c = APRON_MM, _DICE_BAND_MM, _DICE_CORNER_MM
    rows, columns = shape[:2]
    boxes = []
    for x0, y0, x1, y1 in (
        (a - far, a + c, a - near, a + height - c),
        (a + width + near, a + c, a + width + far, a + height - c),
        (a + c, a - far, a + width - c, a - near),
        (a + c, a + height + near, a + width - c, a + height + far),
    ):
        left, right = sorted((round(x0 * k), round(x1 * k)))
        top, bottom = sorted((round(y0 * k), round(y1 * k)))
        boxes.append((slice(max(top, 0), max(min(bottom + 1, rows), 0)),
                      slice(max(left, 0), max(min(right + 1, columns), 0))))  # fmt: skip
    return boxes


def _die_outline(calibration: Calibration, x: float, y: float) -> np.ndarray:
    """The frame pixels of a die-sized square round reading frame point (x, y) mm."""
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * (DIE_MM / 2)
    return calibration.to_pixels(corners + (x, y))


def split_die_spots(mask: np.ndarray, whole: list[Spot]) -> list[Spot]:
    """The dice of a mask of the small top-down image that only its gaps a pixel wide
    closed show (`die_spots` of the closed mask): a far, blurred 6's two rows of pips cut
    its white into three strips, none of them die-sized, and the die was never looked at
    (tuning tables 2035, 3330, 3354). Only those none of `whole` (the mask's own
    `die_spots`) lies within a die's side of: every die found before is found as before."""
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return [
        (x, y, blob)
        for x, y, blob in die_spots(closed.astype(bool))
        if all(np.hypot(x - x0, y - y0) > DIE_MM for x0, y0, _ in whole)
    ]


def die_spots(mask: np.ndarray) -> list[Spot]:
    """The die-sized blobs of a mask of the small top-down image: each one's centre
    (reading frame mm) and its pixels (an index); two dice lying against each other make
    a blob twice as long as wide, split in its halves."""
    k = HALF_PX_PER_MM
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    die = DIE_MM * DIE_MM
    spots = []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA] / k**2
        if not _DIE_AREA[0] * die <= area <= 2 * _DIE_AREA[1] * die:
            continue
        blob = _Blob.of(labels, stats, i)
        if area <= _DIE_AREA[1] * die and blob.long <= 1.5 * DIE_MM and blob.short >= 0.5 * DIE_MM:
            spots.append((*blob.centre, blob.pixels))
        elif 1.6 <= blob.ratio <= 2.5 and blob.short <= 1.5 * DIE_MM:
            spots += [(x, y, blob.pixels) for x, y in blob.halves]
    return spots


@dataclass(frozen=True)
class _Blob:
    """One blob of a labelled mask of the small top-down image, measured as a die's is:
    its centre (reading frame mm), its smallest turned rectangle's long and short sides
    (mm), and its pixels (an index)."""

    centre: tuple[float, float]
    long: float
    short: float
    turn: float  # radians, along its long side
    pixels: tuple[np.ndarray, np.ndarray]

    @classmethod
    def of(cls, labels: np.ndarray, stats: np.ndarray, i: int) -> _Blob:
        k = HALF_PX_PER_MM
        x0, y0, w, h = stats[i, :4]
        ys, xs = np.nonzero(labels[y0 : y0 + h, x0 : x0 + w] == i)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
        centre = np.array([cx + x0, cy + y0]) / k
        turn = float(np.radians(angle if rw >= rh else angle + 90.0))
        return cls((float(centre[0]), float(centre[1])), max(rw, rh) / k, min(rw, rh) / k,
                   turn, (ys + y0, xs + x0))  # fmt: skip

    @property
    def ratio(self) -> float:
        """How many times longer than wide."""
        return self.long / max(self.short, 1e-6)

    @property
    def halves(self) -> list[tuple[float, float]]:
        """The centres of its halves along its length: two dice lying against each other."""
        step = np.array([np.cos(self.turn), np.sin(self.turn)]) * self.long / 4
        centre = np.array(self.centre)
        return [(float(x), float(y)) for x, y in (centre - step, centre + step)]
