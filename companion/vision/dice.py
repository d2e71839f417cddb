"""Dice on the table: find them off the cards, tell wheel dice from pip dice, read the face.

Why this shape: a die is 16 mm, about 20 frame pixels on a tilted camera, and its pips are
3-4 pixels wide, too few to count blobs reliably through blur and JPEG. But a die's face can
only be one of a few layouts on a 3 x 3 grid, so the reader finds the die's body (a square
brighter than the table around it, or yellow), its centre and its turn, looks at how dark
the face is at each place a pip or wheel can be, on a 4 px/mm crop of the original frame,
and takes the layout that explains those nine numbers best. The body colour gives the kind:
our wheel dice are yellow, a standard die any other colour (dice_art.PIP_COLOURS: white with
black pips, or coloured with light ones, whichever fits). A pip die's count is the layout
fit's weighed against the learned count (dice_net.count_many with the table's own counter,
fine-tuned on the table's view, once a frame for all its dice): a drawn die's layout fits
cleanly and is believed, a real die's fits loosely and the learned count decides, sure only
where the count itself is (0.8, a faint die's 0.9), and where the two disagree the count is
unsure and the players are asked: a real die is asked rather than guessed into the game. A
yellow die the learned count takes for a pip die is one, even of our wheel die's yellow. A
die only a little unlike the table (a dark real die on brown wood) is kept only where the
learned count sees a die. A die lying on a card is found where the card's print looks unlike
the face the card was read as (off_the_cards.dice_on_the_cards) and read the same way, its
body being where the crop is unlike that face (`Under`); it is kept only where it is our
yellow wheel die or the learned count sees a die there, and its pips are sure only as a
faint die's are (the count 0.9 sure: a card's print is nothing it was taught on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

from companion.vision import dice_art
from companion.vision.calibrate import FINE_PX_PER_MM, Calibration
from companion.vision.dice_net import count_many

WHEELS, PIPS = "wheels", "pips"


class TaughtCount(Protocol):
    """What adapts the learned count to a family's own pip dice (taught_pips.TaughtPips,
    from `companion enroll --codes pips`): named here so that this reader needs no import of
    it (taught_pips reads its pictures with the dice kit that imports this module)."""

    def adapt(
        self, bgr: np.ndarray, rects: list[tuple], chances: np.ndarray, table: bool = False
    ) -> np.ndarray: ...


_CROP_MM = 26.0  # the window read around a die
CROP_PX_PER_MM = 4.0  # the scale a die is read at (taught dice too)
CROP_SIDE = round(_CROP_MM * CROP_PX_PER_MM)  # the window's side in pixels
_PAD = 24  # pixels of each crop's own edge around it when the crops are counted together
_MIN_AREA, _MAX_AREA = 70.0, 420.0  # a die's top face in mm^2 (16 mm side, rounded)
_BRIGHTER = 1.3  # a die body against the table's local mean brightness
# crop pixels the pip grid is tried off the outline's centre (up to 1 mm)
_NUDGES = tuple((dx, dy) for dx in (-4, -2, 0, 2, 4) for dy in (-4, -2, 0, 2, 4))
_TURNS = (0.0, -8.0, 8.0)  # degrees the pip grid is tried off the outline's turn
_OTHER_COLOUR = 22.0  # Lab a-b distance from the table's local colour of a coloured die
# a faint die (a dark red or purple real die on brown wood, blurred): darker than this share of
# the table's local lightness or this far from its colour; kept only if the learned count
# says it is a die (`read_dice`), since wood grain and shadows can look as faint
_FAINT_DARKER, _FAINT_COLOUR = 0.85, 12.0
_FAINT_DIE = 0.5  # the least chance (1 - chances[0]) the learned count gives a faint die
# the pip fit's evidence as chances (`_agreed`): a count whose layout fits `spread` worse
# than the best one's is e times less likely, `spread` = _FIT_SPREAD[0] + _FIT_SPREAD[1] x the
# best one's error: a drawn die's layout fits all but exactly (its error under 0.05 in 95 %
# of them) and is believed, a real die's fits loosely (a misread one's error 0.2-2) and the
# learned count decides (tuned on the table examples' drawn and odd-half real dice)
_FIT_SPREAD = (0.05, 4.0)
# our wheel die's yellow: hue and least saturation of its body's brighter half (on the
# table examples' 479 wheel dice hue 24-28, saturation >= 173; of the 51 yellow real pip dice
# taken for wheel dice 38 lie outside). A yellow die of another yellow is read as a pip die
# when the learned count is at least _PIP_DIE sure it is one; one of our yellow only when it
# is _OUR_PIP_DIE sure (a real yellow pip die of our yellow was read as a wheel die, surely:
# on 1533 dice of 600 hard tables, seed 7000, our 786 drawn wheel dice are at most 0.41 pip
# die to the learned count, the 37 real pip dice of our yellow at least 0.72)
_OUR_YELLOW = ((22, 28), 170)
# where a crop is strongly yellow (HSV, OpenCV's least and most): what may be a wheel die's
# body, looked for apart from any other colour (wider than `_OUR_YELLOW`, which says the
# body found is our own die)
_WHEEL_YELLOW = ((20, 175, 50), (38, 255, 255))
_PIP_DIE, _OUR_PIP_DIE = 0.5, 0.6
# Below FINE_PX_PER_MM (a 1280x720 webcam's 0.5-0.85 px/mm) our wheel die is 8-13 px wide:
# its yellow blurs into the wood and its wheels look like pips to the learned count, which
# then takes some of ours for pip dice (up to 0.73, at 1280x720 on the tuning seeds
# 7000-7119, where at the default size none is over 0.14) and some real yellow pip dice for
# wheel dice (down to 0.25). A yellow die that coarse whose chance of being a pip die lies
# between these (_KIND_DOUBT) is read as whichever it is likelier to be but asked, not
# taken (a wheel die showing two wheels had been read as a 2, surely: table 7069)
_KIND_DOUBT = (0.25, 0.8)
# A die whose pip layout fits loosely (best error _LOOSE_FIT or more: a real die; a drawn
# one's is under 0.05 on the Caboose table, under 0.09 far off on the switching board) is read
# by the learned count, whose chance of the face is what tells its misreads apart (the joint
# with the fit does not): its confidence is at most 0.5 where that chance is _LOOSE_SURE,
# rising to 1 with it, so the session (0.5) takes it unasked only where the count gives the
# face 0.8. A clean fit is believed unless the count all but rules its face out (under
# _RULED_OUT: a real die's glare fitting a 1 exactly, where the count gives it 0-0.08; a far
# drawn die of the switching board may get 0.04-0.15). A faint die (its body only a little
# unlike the table, so its outline is in doubt too) is read as a loose one, sure from
# _FAINT_SURE (4 of the 5 sure misreads left were faint, at 0.82-0.89, with the photographs'
# counter; with the table's own counter 0.87 takes 13 more of 795 real dice unasked and
# one more wrong yet surely, odd-half seeds 7000 and 8000, where 0.83 took two more wrong). A
# die on a card is sure from _ON_CARD_SURE: its count was never taught on a card's print.
# Chosen on the odd half's real dice and drawn dice, 600 hard tables of seed 7000 each (and
# the odd half's on 800 of seeds 8000 and 8400: under 0.2 rather than 0.1 read 5 wrong yet
# surely, not 8), and the switching board's tuning seeds (0-119).
_LOOSE_FIT, _LOOSE_SURE, _FAINT_SURE, _RULED_OUT = 0.1, 0.8, 0.87, 0.2
_ON_CARD_SURE = 0.9
# A reader that asks for it (`read_dice(..., clean_fits=True)`: the switching game's white
# number dice, drawn beside the board) takes a layout that fits cleanly (under _LOOSE_FIT)
# and far better than any other count's (the next at least _CLEAN_MARGIN worse) as the
# face, _CLEAN_SURE, where the learned count merely spreads its answer (no other face
# _CLEAN_OTHER likely, the die itself at least _CLEAN_DIE likely): on the switching board's
# drawn dice the count spreads a clean 4 over 3-6 (its top chance 3, at 0.3-0.57), and the
# layout was the true face on every die that fits so. Never a 1: a real die's glare fits a 1
# exactly where the count spreads its answer too. Clean for every face alike: blur smears
# pips as well as losing them (a far 5 whose middle pip was lost fit a 4 at 0.111, a
# smeared 2 a 6 at 0.185, at 1280x720). Tuned on the switching board's tuning
# seeds (ours and the stand-in box: 3000-3199, and 7000-7119 at 1280x720) and the Caboose
# table's real dice, seed 5000: a loose fit taken so was wrong (a far, blurred 5 whose
# middle pip the fit missed, error 0.111: ours, seed 300; a real die's 6, margin 0.42).
_CLEAN_MARGIN, _CLEAN_OTHER, _CLEAN_DIE, _CLEAN_SURE = 0.5, 0.6, 0.5, 0.95
# a die on a card: its body is where the crop, blurred as the expected look is, lies this far
# (Lab, 8 bit) from what the card's face would show there (a white die on our light blue is
# about 30 off, the print's own edges under 15 once blurred)
_UNLIKE_FACE = 20.0
# the least chance the learned count gives a die on a card: its print is nothing the count
# was taught on (it takes our yellow wheel dice there for pip dice at 0.95-0.99, so a die of
# our yellow on a card stays a wheel die), so it must be surer than of a faint die
_ON_CARD_DIE = 0.8
# A card's print is never exactly where its face says: the camera's blur and a lens its
# calibration does not quite undo move it by a pixel or two of the frame, a millimetre at the
# default camera's density but nearly two at a 720p webcam's (0.6 px/mm), where the blurred
# edges of a card's big printed "4" were unlike its face as much as a die is and the learned
# count, never taught on a card's print, took them for a die's (0.81 a die, table 7001). So
# a die's body on a card is only where the picture is unlike every colour its face shows
# within this many frame pixels: a die's own colour, never the print a little off its grid.
# On the tuning seed 7000 (30 hard tables, drawn dice, half of them on cards, `--dice-on-cards
# 0.5`): at 1280x720 the dice seen where none lies 2 -> 0 (plain), 4 -> 2 (on cards; the two
# left are the print of a card not found at all), dice on cards found 12 -> 16; at the default
# size nothing seen where none lies, on cards found 16 -> 18. At 1 px one remained (plain).
_PRINT_SLACK_PX = 1.5
# A spot on a card (`on_cards`) is first glanced at (`_worth_a_look`): the photographs'
# counter, shown an upright _GLANCE_MM square round it, giving it under _GLANCE_DIE of being
# a die, and no _GLANCE_YELLOW_PX of our yellow in its middle, it is not looked at. Most such
# spots are a card's print a little off its face (on hard tables with no die on any card,
# 1.3 a frame, each a look, often a second one centred, and a net run: about 4 ms, a fifth
# of a plain pass); the glance costs a crop and a net run. On the tuning seeds 3000 (60 hard
# tables), 7300, 7400 and 7200 under a lamp (40, 30, 40 with half the dice on cards), 7500
# (40, real dice, half on cards) and 7000 at 1280x720 (30, half on cards), every spot the
# full look kept a die at and not yellow had 0.27 or more; a yellow one (our wheel die, seen
# skew in its square) as little as 0.12. The glance turned down two thirds of the spots that
# kept no die (486 of 732).
_GLANCE_MM, _GLANCE_DIE, _GLANCE_YELLOW_PX = 20.0, 0.1, 30

# What a card would show around a table point (x, y) mm without the die on it: a CROP_SIDE
# square at CROP_PX_PER_MM in the frame's colours (float32 BGR 0-255), -1 off the card.
Under = Callable[[float, float], np.ndarray]

# Pip faces a game counts alike, a partition of 1-6 (R-6's face map: in Rollecate a die
# showing 1 to 4 pips is one wheel, 5 or 6 a blank). A pip die is then read as sure as what
# it counts for is, not its face: a die the count cannot tell between 3 and 4 is one wheel
# either way, and the family is not asked which.
Alike = tuple[tuple[int, ...], ...]
# How many faces of one part are weighed together, those the learned count gives most: a
# count torn between two faces that count alike (a pip missed or merged: 3 or 4, 5 or 6) is
# sure of what the die counts for; one spread over three or more is unsure of the die
# itself, and their sum would make it sure (Rollecate's 1-4 summed read 5 of 700 held-out
# real dice wrong yet surely on the tuning seeds 61000-63000, the two likeliest 3, one face
# alone 1; asked 23 %, 27 %, 36 %; Loose Caboose's pairs 2 wrong, 33 % asked, against 1, 36 %)
_ALIKE_FACES = 2


@dataclass(frozen=True)
class DieReading:
    """One die read: kind, face shown, centre in table mm, and 0-1 confidence."""

    kind: str
    face: int
    x: float
    y: float
    confidence: float


@dataclass(frozen=True, eq=False)
class DieLook:
    """One die as the layout fit reads it, before the learned count: the fit's reading and
    the window it was read in, the crop of the original frame (CROP_SIDE square, at
    CROP_PX_PER_MM) and the die's rectangle in the crop's pixels (a cv2.minAreaRect), which
    is what the learned count is asked about (and what its table examples are)."""

    reading: DieReading
    crop: np.ndarray
    rect: tuple
    # how badly each pip count's layout (1-6) fits the face, inf where none does: the pip
    # fit's own evidence, weighed against the learned count's (`_agreed`); a yellow die's
    # too, which may be a pip die rather than our wheel die
    pip_errors: np.ndarray
    # a yellow die whose yellow is not our wheel die's (`_OUR_YELLOW`): a yellow pip die?
    other_yellow: bool = False


def _grid(kind: str) -> np.ndarray:
    """Where a dark spot can be on a face, in mm from its centre, die square to the axes."""
    if kind == WHEELS:
        d = dice_art.WHEEL_SPOTS[2][1][0]
        return np.array([[0, 0], [-d, -d], [d, d], [-d, d], [d, -d]], np.float64)
    p = dice_art.PIP_PITCH_MM
    return np.array([[x * p, y * p] for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float64)


def _layouts(kind: str) -> list[tuple[int, np.ndarray]]:
    """(face, expected darkness 0/1 at each grid place) for every face and quarter turn."""
    found: list[tuple[int, np.ndarray]] = []
    if kind == WHEELS:
        for face, spots in dice_art.WHEEL_SPOTS.items():
            for turn in (0, 1):
                pattern = np.zeros(5)
                for x, y in spots:
                    x, y = (x, y) if turn == 0 else (-y, x)
                    pattern[int(np.argmin(np.hypot(*(_grid(kind) - (x, y)).T)))] = 1
                found.append((face, pattern))
        return found
    for face, spots in dice_art.PIP_SPOTS.items():
        for turn in (0, 1):
            pattern = np.zeros(9)
            for x, y in spots:
                x, y = (x, y) if turn == 0 else (-y, x)
                pattern[(y + 1) * 3 + (x + 1)] = 1
            found.append((face, pattern))
    return found


_LAYOUTS = {WHEELS: _layouts(WHEELS), PIPS: _layouts(PIPS)}
_PIP_PATTERNS = (
    np.array([face for face, _ in _LAYOUTS[PIPS]]),
    np.array([pattern for _, pattern in _LAYOUTS[PIPS]]),
)  # the pip layouts as arrays: every nudge of a die is fitted to all of them at once
# each pip count's layouts' columns in _PIP_PATTERNS, the pip grid and the body's erosion,
# made once rather than for every die read
_FACE_COLUMNS = tuple(np.flatnonzero(_PIP_PATTERNS[0] == f) for f in range(1, 7))
_PIP_GRID = _grid(PIPS)
_INNER_KERNEL = np.ones((7, 7), np.uint8)


def find_dice(
    half: np.ndarray, free: np.ndarray, k: float, hsv: np.ndarray | None = None
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Centres (table mm) of die-sized blobs in the colour top-down image `half` (at `k`
    px/mm, half recognition's scale: a die is still 8 pixels wide), looking only where
    `free` (at full scale) is set: off the cards, the markers and the caboose. A die is
    where `finder_masks` sees one; two dice lying against each other make one blob twice
    as long as wide, which gives both centres. Second, the faint ones (`faint_dice`),
    which `read_dice` keeps only where the learned count sees a die. The read that follows
    is on the original frame. `hsv` is `half` in HSV when the caller has it already (the
    caboose's finder needs it too)."""
    mask, faint = finder_masks(half, free, k, hsv)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_mm = stats[:, cv2.CC_STAT_AREA] / k**2
    found = []
    for i in range(1, count):
        x, y, w, h = (stats[i, j] / k for j in range(4))
        if _MIN_AREA <= area_mm[i] <= _MAX_AREA and 11 <= max(w, h) <= 28 and min(w, h) >= 6:
            # the box's centre, not the blob's: dark wheels leave the bright part lopsided
            found.append((x + w / 2 - 0.5 / k, y + h / 2 - 0.5 / k))
        elif 1.6 * _MIN_AREA * 2 <= area_mm[i] <= 2 * _MAX_AREA and max(w, h) <= 50:
            found += _pair(labels[stats[i, 1] : stats[i, 1] + stats[i, 3],
                                  stats[i, 0] : stats[i, 0] + stats[i, 2]] == i,
                           (stats[i, 0], stats[i, 1]), k)  # fmt: skip
    return found, faint_dice(faint, k, found)


def finder_masks(
    half: np.ndarray, free: np.ndarray, k: float, hsv: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Where `find_dice` looks for dice in `half` (at `k` px/mm), within `free` (at full
    scale), as two masks (255 set): where a die surely may be, brighter than the table
    around it, or (a wheel die in shadow, two big wheels darkening its face) at least
    strongly yellow, or unlike the table (`_unlike`: a red, blue or black die), closed over
    a six's pips; and where it faintly may be, only a little darker or of another colour
    than the table (real dice of a dark red or purple on brown wood), opened so wood
    grain's thin dark lines fall apart."""
    grey = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    if hsv is None:
        hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    allowed = cv2.resize(free, (grey.shape[1], grey.shape[0]), interpolation=cv2.INTER_NEAREST)
    window = round(45 * k) | 1
    local = cv2.blur(grey, (window, window))
    brighter = cv2.compare(grey, cv2.multiply(local, _BRIGHTER), cv2.CMP_GT)
    bright = cv2.bitwise_and(brighter, cv2.compare(grey, 60, cv2.CMP_GT))
    yellow = cv2.inRange(hsv, (20, 200, 60), (38, 255, 255))
    unlike, faint = _unlike(half, allowed, window)
    mask = cv2.bitwise_or(cv2.bitwise_or(bright, yellow), unlike)
    mask = cv2.bitwise_and(mask, allowed)
    # close over the pips first (they cut a six's face into thin strips), then drop specks
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    faint = cv2.morphologyEx(cv2.bitwise_and(faint, allowed), cv2.MORPH_OPEN,
                             np.ones((3, 3), np.uint8))  # fmt: skip
    return mask, faint


def faint_dice(
    mask: np.ndarray, k: float, found: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """Centres (mm) of compact die-sized blobs of the faint mask (`finder_masks`', at `k`
    px/mm) that are no die already `found`."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    faint = []
    for i in range(1, count):
        x, y, w, h = (stats[i, j] / k for j in range(4))
        area = stats[i, cv2.CC_STAT_AREA] / k**2
        centre = (x + w / 2 - 0.5 / k, y + h / 2 - 0.5 / k)
        if (
            90.0 <= area <= _MAX_AREA
            and 11 <= max(w, h) <= 26
            and min(w, h) >= 9
            and all(math.dist(centre, other) > 10.0 for other in found)
        ):
            faint.append(centre)
    return faint


def table_colour(lab: np.ndarray, allowed: np.ndarray, window: int) -> np.ndarray:
    """The table's Lab colour (float32) round each point of the Lab image `lab`, the mean over
    about `window` px of the points `allowed`. The table's colour changes slowly: its local
    mean is taken at a quarter of the scale."""
    h, w = allowed.shape
    small = (max(w // 4, 1), max(h // 4, 1))
    weight = cv2.resize((allowed > 0).astype(np.float32), small, interpolation=cv2.INTER_AREA)
    pooled = cv2.resize(lab, small, interpolation=cv2.INTER_AREA).astype(np.float32)
    near = (max(window // 4, 1) | 1,) * 2
    share = np.maximum(cv2.blur(weight, near), 1e-3)[..., None]
    local = cv2.blur(pooled * weight[..., None], near) / share
    return cv2.resize(local, (w, h), interpolation=cv2.INTER_LINEAR)


def _unlike(bgr: np.ndarray, allowed: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the image is much darker than the table around it or of another colour (in
    Lab's a and b, which a shadow keeps): dice of any colour but the table's own; and where
    it is a little so (`_FAINT_DARKER`, `_FAINT_COLOUR`). The table's colour around each
    point is taken only where `allowed` (off the cards), so the table seen in a gap between
    cards is still the table; a die's own shadow is darker but not this much darker, so it
    does not join the die."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
    local = table_colour(lab, allowed, window)
    # each channel apart, contiguous: the same float32 differences and quotient as over the
    # whole three-channel image, with no third difference nor strided copies on the way
    seen_l, seen_a, seen_b = cv2.split(lab)
    local_l, local_a, local_b = cv2.split(local)
    distance = cv2.magnitude(
        seen_a.astype(np.float32) - local_a, seen_b.astype(np.float32) - local_b
    )
    lightness = seen_l / np.maximum(local_l, 1.0)
    unlike = (distance > _OTHER_COLOUR) | (lightness < 0.5)
    faint = (distance > _FAINT_COLOUR) | (lightness < _FAINT_DARKER)
    # the masks' bytes seen as uint8: the same masks, with no int64 array made on the way
    return unlike.view(np.uint8) * np.uint8(255), faint.view(np.uint8) * np.uint8(255)


def _pair(blob: np.ndarray, origin: tuple[int, int], k: float) -> list[tuple[float, float]]:
    """The centres (mm) of two dice lying side by side as one blob (a boolean mask whose top
    left is `origin` pixels at `k` px/mm): the halves of its rectangle along its length,
    when it is about one die wide and two long; else none."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    long, short = max(w, h) / k, min(w, h) / k
    if not (11 <= short <= 22 and 1.6 <= long / short <= 2.4):
        return []
    a = np.radians(angle if w >= h else angle + 90)
    step = np.array([np.cos(a), np.sin(a)]) * long / 4
    centre = (np.array([cx, cy]) + origin) / k
    return [tuple(map(float, centre - step)), tuple(map(float, centre + step))]


def read_die(frame: np.ndarray, calibration: Calibration, x: float, y: float) -> DieReading | None:
    """Read the die near table point (x, y) mm (`read_dice` of one spot); None when no die
    body is there."""
    return next(iter(read_dice(frame, calibration, [(x, y)])), None)


def read_dice(
    frame: np.ndarray,
    calibration: Calibration,
    spots: list[tuple[float, float]],
    faint: list[tuple[float, float]] | None = None,
    on_cards: Sequence[tuple[float, float, Under]] = (),
    taught: TaughtCount | None = None,
    clean_fits: bool = False,
    alike: Alike | None = None,
    among_others: Sequence[tuple[float, float]] = (),
) -> list[DieReading]:
    """The dice near the table points (mm) in `spots`, and those near the points in `faint`
    (`find_dice`'s faint blobs) that the learned count takes for dice: the layout fit of
    each (`look_at`), then the learned counts, each for all the dice it is asked about at
    once (one net call a frame, not one a die; the table's only about the dice it reads,
    the net's time growing with their number): a pip die's count is the two weighed
    (`_agreed`), a yellow die the count takes for a pip die is read as one (`_PIP_DIE`,
    `_OUR_PIP_DIE`), and a faint blob is kept only where the count sees a die. `on_cards`
    are spots on a card with what the card would show there (`Under`): kept where the die is
    our yellow wheel die or the count sees a die, read as a faint one (a die of our yellow
    there stays a wheel die: the count, never taught on a card's print, takes ours for pip
    dice there). `among_others` are blobs found on full evidence where other things than
    dice lie (a depot's trains, the table's edge): kept where the count sees a die, as a
    faint blob is, and read as `spots` are, but a face the count does not put first is
    bounded by its chance of it (a dark die whose dark pips do not show fits a 1 cleanly:
    the switching game's tuning seed 64144), and one no pip layout fits at all is asked
    (the switching game's purple colour die, which the count takes for a 2: its seed
    268127). A spot where no die body is gives none.
    The learned count is adapted to the family's own pip dice when they were `taught`
    (`companion enroll --codes pips`: taught_pips.py). With `clean_fits` a clean layout fit
    of a die found on full evidence is believed where the count only spreads its answer
    (`_CLEAN_MARGIN`: the switching game's white dice). With `alike` (the game's faces that
    count the same) a pip die's confidence is that of what its face counts for."""
    looks = [look_at(frame, calibration, x, y) for x, y in spots]
    other_looks = [look_at(frame, calibration, x, y) for x, y in among_others]
    faint_looks = [look_at(frame, calibration, x, y, faint=True) for x, y in faint or ()]
    card_looks = [
        look_at(frame, calibration, x, y, under=under)
        for x, y, under in _worth_a_look(frame, calibration, on_cards, taught)
    ]
    # each look with whether it was found on less evidence (a faint blob, a spot on a card),
    # whether it lies on a card, and whether it must be a die to the count (`among_others`)
    tagged = [
        (look, doubted, on_a_card, checked)
        for group, doubted, on_a_card, checked in (
            (looks, False, False, False),
            (other_looks, False, False, True),
            (faint_looks, True, False, True),
            (card_looks, True, True, True),
        )
        for look in group
        if look is not None
    ]
    # our wheel die on a card stays one, whatever the count says (it takes ours there for
    # pip dice), so neither counter is asked whether it is a pip die
    ours = [
        on_a_card and look.reading.kind == WHEELS and not look.other_yellow
        for look, _, on_a_card, _ in tagged
    ]
    # whether a doubted blob or a yellow die is a pip die: the photographs' counter, which
    # takes fewer faint blobs for dice than the table's (dice_net.SHIPPED_TABLE)
    asked = [
        i
        for i, (look, _, _, checked) in enumerate(tagged)
        if (checked or look.reading.kind != PIPS) and not ours[i]
    ]
    dice_odds = dict(zip(asked, count_looks([tagged[i][0] for i in asked], taught), strict=True))
    # the looks kept, each with whether it is read as a pip die, whether it is our wheel
    # die on a card, whether its kind is in doubt (`_KIND_DOUBT`) and whether it had to be
    # a die to the count (`among_others`, faint, on a card): the table's count is
    # asked only about the first two (each die costs the net as much again; a wheel die off
    # the cards or a blob turned down has no use for it)
    kept: list[tuple[DieLook, bool, bool, bool, bool, bool, bool]] = []
    for i, (look, doubted, on_a_card, checked) in enumerate(tagged):
        reading = look.reading
        pip_die = 1.0 - float(dice_odds[i][0]) if i in dice_odds else 1.0  # unasked: unused
        ours_on_a_card = ours[i]
        least = _ON_CARD_DIE if on_a_card else _FAINT_DIE
        if checked and (
            (pip_die < least and not ours_on_a_card)
            or any(
                math.dist((reading.x, reading.y), (other.reading.x, other.reading.y)) < 10.0
                for other, *_ in kept
            )
        ):
            continue  # a faint blob the learned count does not take for a die, or one read
        pips = reading.kind == PIPS or pip_die >= (
            _PIP_DIE if look.other_yellow else math.inf if ours_on_a_card else _OUR_PIP_DIE
        )
        kind_doubted = (
            reading.kind == WHEELS
            and not ours_on_a_card
            and _KIND_DOUBT[0] <= pip_die < _KIND_DOUBT[1]
            and calibration.px_per_mm((reading.x, reading.y)) < FINE_PX_PER_MM
        )
        kept.append((look, doubted, on_a_card, pips, ours_on_a_card, kind_doubted, checked))
    counted = [
        j for j, (*_, pips, ours_on_a_card, _, _) in enumerate(kept) if pips or ours_on_a_card
    ]
    odds_of = dict(
        zip(counted, count_looks([kept[j][0] for j in counted], taught, counts=True), strict=True)
    )
    readings: list[DieReading] = []
    for j, (look, doubted, on_a_card, pips, ours_on_a_card, kind_doubted, checked) in enumerate(
        kept
    ):
        reading = look.reading
        if pips:
            coarse = calibration.px_per_mm((reading.x, reading.y)) < FINE_PX_PER_MM
            face, confidence = _agreed(
                look.pip_errors, odds_of[j], doubted, on_a_card, coarse, alike
            )
            if clean_fits and not doubted:
                face, confidence = _clean_fit(look.pip_errors, odds_of[j], face, confidence)
            if checked and not doubted:
                if not np.isfinite(look.pip_errors).any():
                    confidence = min(confidence, 0.45)  # no layout fits: asked
                elif int(np.argmax(odds_of[j][1:])) + 1 != face:
                    confidence = min(confidence, float(odds_of[j][face]))
            reading = DieReading(PIPS, face, reading.x, reading.y, confidence)
        elif ours_on_a_card and _counted_otherwise(reading.face, odds_of[j]):
            reading = replace(reading, confidence=min(reading.confidence, 0.45))
        if kind_doubted:
            reading = replace(reading, confidence=min(reading.confidence, 0.45))
        readings.append(reading)
    return readings


def _counted_otherwise(wheels: int, chances: np.ndarray) -> bool:
    """Whether the learned count gives pips other than the wheel face read half its chance
    or more: a real yellow pip die of our yellow lying on a card, read as our wheel die by
    its colour, is then asked about rather than taken for one (on a card the count cannot
    be asked whether it is a pip die: it takes our wheel dice there for pip dice). Of our
    wheel dice on cards (tuning seed 7000) it counts a few blank ones as two pips so."""
    count = int(np.argmax(chances[1:])) + 1
    return bool(chances[count] >= 0.5 and count != wheels)


def count_looks(
    looks: list[DieLook], taught: TaughtCount | None = None, counts: bool = False
) -> np.ndarray:
    """The learned count's chances (n, 7) for each look's die, in one net call: the crops
    side by side, each with `_PAD` pixels of its own edge around it (so a cut reaching past
    its crop sees what a lone crop's border would give, not the next die); adapted to the
    family's own dice when they were `taught`. A grey frame's `counts` are the grey
    counter's, whether its blob is a die the colour counter's (dice_net.SHIPPED_GREY says
    why); a colour frame's `counts` the table's (dice_net.SHIPPED_TABLE)."""
    return _count_crops(
        [look.crop for look in looks], [look.rect for look in looks], taught, counts
    )


def _count_crops(
    crops: list[np.ndarray],
    rects: list[tuple],
    taught: TaughtCount | None = None,
    counts: bool = False,
) -> np.ndarray:
    """`count_looks` of the die under each rectangle of `rects` (crop pixels) in the crop
    beside it in `crops` (CROP_SIDE squares)."""
    if not crops:
        return np.zeros((0, 7), np.float32)
    step = CROP_SIDE + 2 * _PAD
    row = np.hstack(
        [cv2.copyMakeBorder(crop, *(_PAD,) * 4, cv2.BORDER_REPLICATE) for crop in crops]
    )
    rects = [
        ((cx + _PAD + i * step, cy + _PAD), size, angle)
        for i, ((cx, cy), size, angle) in enumerate(rects)
    ]
    chances = count_many(row, rects, grey_counter=False, table=counts)
    return chances if taught is None else taught.adapt(row, rects, chances, table=counts)


def _worth_a_look(
    frame: np.ndarray,
    calibration: Calibration,
    on_cards: Sequence[tuple[float, float, Under]],
    taught: TaughtCount | None,
) -> list[tuple[float, float, Under]]:
    """The spots on cards `on_cards` worth a look (`look_at`, a few milliseconds each):
    those our yellow shows in the middle of (a wheel die stays one whatever the count
    says) and those the photographs' counter, shown an upright die-sized square there in
    one run for all, does not rule out as a die (`_GLANCE_DIE`). The rest is a card's print
    a little off its face, which the look would turn down in the end (the same counter
    asked on the die's own outline, `_ON_CARD_DIE`). Every spot is looked at when the
    family's own dice were `taught`: what adapts the count was not tried on a glance."""
    if taught is not None or not on_cards:
        return list(on_cards)
    crops = [crop_at(frame, calibration, x, y, _CROP_MM) for x, y, _ in on_cards]
    middle = slice(CROP_SIDE // 4, CROP_SIDE - CROP_SIDE // 4)
    yellow = [
        cv2.countNonZero(
            cv2.inRange(cv2.cvtColor(crop[middle, middle], cv2.COLOR_BGR2HSV), *_WHEEL_YELLOW)
        ) >= _GLANCE_YELLOW_PX
        for crop in crops
    ]  # fmt: skip
    asked = [i for i, seen in enumerate(yellow) if not seen]  # the counter, only about these
    centre, side = CROP_SIDE / 2, _GLANCE_MM * CROP_PX_PER_MM
    square = ((centre, centre), (side, side), 0.0)
    chances = _count_crops([crops[i] for i in asked], [square] * len(asked))
    die = dict(zip(asked, (1.0 - float(odds[0]) for odds in chances), strict=True))
    return [spot for i, spot in enumerate(on_cards) if yellow[i] or die[i] >= _GLANCE_DIE]


def look_at(
    frame: np.ndarray,
    calibration: Calibration,
    x: float,
    y: float,
    faint: bool = False,
    under: Under | None = None,
) -> DieLook | None:
    """The layout fit of the die near table point (x, y) mm, on a 4 px/mm crop of the
    original frame; None when no die body is there (a `faint` die's body may be only a
    little unlike the table, a die on a card's is where the crop is unlike what the card
    would show, `under`: `_bodies`). A die found off the crop's centre is read again
    centred, where the table's level around it and the die's outline are measured best."""
    look = _look_at(frame, calibration, x, y, faint, under)
    if look is not None and math.dist((look.reading.x, look.reading.y), (x, y)) > 2.0:
        again = _look_at(frame, calibration, look.reading.x, look.reading.y, faint, under)
        return again or look
    return look


def crop_at(
    frame: np.ndarray,
    calibration: Calibration,
    x: float,
    y: float,
    window_mm: float,
    px_per_mm: float = CROP_PX_PER_MM,
) -> np.ndarray:
    """The square `window_mm` wide around table point (x, y) mm, straight from the
    original frame at `px_per_mm` (finer than the top-down image, of which a die is a
    few pixels)."""
    size = round(window_mm * px_per_mm)
    half = window_mm / 2
    window = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half]])
    pixels = calibration.to_pixels(window).astype(np.float32)
    out = np.float32([[0, 0], [size, 0], [size, size]])
    return cv2.warpAffine(
        frame, cv2.getAffineTransform(out, pixels), (size, size),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip


def _look_at(
    frame: np.ndarray,
    calibration: Calibration,
    x: float,
    y: float,
    faint: bool,
    under: Under | None = None,
) -> DieLook | None:
    half = _CROP_MM / 2
    crop = crop_at(frame, calibration, x, y, _CROP_MM)
    if under is None:
        return look_in(crop, (x - half, y - half), faint)
    slack_mm = _PRINT_SLACK_PX / calibration.px_per_mm((x, y))
    return look_in(crop, (x - half, y - half), faint, under(x, y), slack_mm)


def look_in(
    crop: np.ndarray,
    origin_mm: tuple[float, float],
    faint: bool,
    background: np.ndarray | None = None,
    slack_mm: float = 0.0,
) -> DieLook | None:
    """The layout fit of the die at the centre of `crop` (CROP_SIDE square at
    CROP_PX_PER_MM, its top left corner at `origin_mm` on the table), or None. With
    `background` (what lies under the die, `Under`), the die's body is only where the crop
    is unlike it (and unlike all it shows within `slack_mm`: `_PRINT_SLACK_PX`), or our
    yellow: a card's print is no table to stand out from."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    if background is None:
        bodies = _bodies(grey, hsv, crop, faint)
    else:
        bodies = _bodies_on(hsv, crop, background, slack_mm)
    outlines = [o for o in (_outline(body, CROP_SIDE) for body in bodies) if o is not None]
    if background is not None and len(outlines) > 1:
        outlines = outlines[1:]  # yellow on a card: our wheel die, whatever else differs
    if not outlines and background is None:
        outlines = [o for o in [_outline(_dark_side(grey), CROP_SIDE)] if o is not None]
    if not outlines:
        return None
    # the outline nearest a whole die's size: a mask that lost a wheel or gained some table
    # is smaller or larger, and its centre would misplace the spots
    best = min(outlines, key=lambda o: abs(o[3] - dice_art.DIE_MM))
    # the body less its rim (a 7 px square eroded), where its colour is read: once for
    # both the face's and the yellow's reading
    inner = cv2.erode(best[0], _INNER_KERNEL) > 0
    reading, errors = _read_face(grey, hsv, best, inner, origin_mm)
    _, centre, angle, side = best
    side_px = side * CROP_PX_PER_MM
    other = reading.kind == WHEELS and not _our_yellow(hsv, inner)
    return DieLook(reading, crop, (centre, (side_px, side_px), angle), errors, other)


def _our_yellow(hsv: np.ndarray, inner: np.ndarray) -> bool:
    """Whether the body's `inner` part (its mask eroded, `look_in`) is our wheel die's
    yellow (`_OUR_YELLOW`): the median hue and saturation of its brighter half, where the
    wheels' black and the shadow are not."""
    body = hsv[inner]
    if len(body) == 0:
        return True
    bright = body[body[:, 2] >= np.median(body[:, 2])]
    hue, saturation = np.median(bright[:, 0]), np.median(bright[:, 1])
    (low, high), least = _OUR_YELLOW
    return bool(low <= hue <= high and saturation >= least)


def _read_face(
    grey: np.ndarray,
    hsv: np.ndarray,
    outline: tuple[np.ndarray, tuple[float, float], float, float],
    inner: np.ndarray,
    origin_mm: tuple[float, float],
) -> tuple[DieReading, np.ndarray]:
    """The kind (body colour: our wheel dice are yellow, a standard die any other colour)
    and face of the die whose outline was found in a crop, by the layout fit alone, and
    each pip count's fit error (`_pip_face`, whatever the kind). Wheels: the darkness at
    each place a wheel can be; pips: the same of each place a pip can be; `read_dice` then
    weighs a pip count against the learned count (`inner`: the outline's mask eroded)."""
    _, (cx, cy), angle, _ = outline
    size = grey.shape[0]
    seen = bool(inner.any())
    body_hsv = np.median(hsv[inner], axis=0) if seen else np.zeros(3)
    kind = WHEELS if body_hsv[1] > 90 and 15 <= body_hsv[0] <= 40 else PIPS
    centre_mm = np.array([cx, cy]) / CROP_PX_PER_MM + origin_mm
    body_grey = np.sort(grey[inner]) if seen else np.array([255])
    rot = _turn(angle)
    face, confidence, errors = _pip_face(grey, body_grey, _PIP_GRID @ rot.T, (cx, cy))
    if kind == PIPS:
        reading = DieReading(kind, face, float(centre_mm[0]), float(centre_mm[1]), confidence)
        return reading, errors
    mean = cv2.blur(grey.astype(np.float32), (15, 15))
    places = _grid(kind) @ rot.T * CROP_PX_PER_MM + (cx, cy)
    xi = np.clip(places[:, 0].round().astype(int), 0, size - 1)
    yi = np.clip(places[:, 1].round().astype(int), 0, size - 1)
    level = float(body_grey[int(0.9 * (len(body_grey) - 1))])  # the face, not its spots
    dark = np.clip(1.0 - mean[yi, xi] / max(level, 1.0), 0.0, 1.0)
    face, confidence = _best_wheels(dark)
    return DieReading(kind, face, float(centre_mm[0]), float(centre_mm[1]), confidence), errors


def _pip_face(
    grey: np.ndarray, body_grey: np.ndarray, grid_mm: np.ndarray, centre: tuple[float, float]
) -> tuple[int, float, np.ndarray]:
    """A pip die's face and confidence: the pip layout that best explains how much darker
    (a white die's black pips) or lighter (a coloured die's white pips) than the face each
    place a pip can be is, whichever of the two fits better; and each count's error (6,),
    the least over the tries, inf when nothing fits. The outline's centre may be off by a
    shadow or a neighbour's edge, so the grid is also tried a little off it."""
    size = grey.shape[0]
    mean = cv2.blur(grey.astype(np.float32), (7, 7))
    dark_level = float(body_grey[int(0.9 * (len(body_grey) - 1))])  # the face, not its pips
    light_level = float(body_grey[int(0.1 * (len(body_grey) - 1))])
    turns = [grid_mm @ turned for turned in _TURNED]  # the outline's turn, and a little off it
    offsets = np.add(_NUDGES, centre)[:, None]
    places = np.concatenate([grid[None] * CROP_PX_PER_MM + offsets for grid in turns])
    xi = np.clip(places[..., 0].round().astype(int), 0, size - 1)
    yi = np.clip(places[..., 1].round().astype(int), 0, size - 1)
    seen = mean[yi, xi]  # (nudges, places)
    dark = np.clip(1.0 - seen / max(dark_level, 1.0), 0.0, 1.0)
    light = np.clip((seen - light_level) / max(255.0 - light_level, 1.0), 0.0, 1.0)
    spots = np.stack([dark, light], axis=1).reshape(-1, seen.shape[1])  # each nudge, both ways
    strongest = spots.max(axis=1)
    if not (strongest >= 0.18).any():  # nothing darker or lighter anywhere: no face fits
        return 1, 0.0, np.full(6, np.inf)
    level = spots / np.maximum(strongest, 1e-6)[:, None]
    _, patterns = _PIP_PATTERNS
    errors = ((level[:, None, :] - patterns[None]) ** 2).sum(axis=2)  # (tries, layouts)
    by_face = np.stack([errors[:, columns].min(axis=1) for columns in _FACE_COLUMNS], axis=1)
    by_face[strongest < 0.18] = np.inf
    ranked = np.sort(by_face, axis=1)
    best = int(np.argmin(ranked[:, 0]))
    face = int(np.argmin(by_face[best])) + 1
    margin = float(np.clip(ranked[best, 1] - ranked[best, 0], 0.0, 1.0))
    return face, margin, by_face.min(axis=0)


def channel_length(diff: np.ndarray) -> np.ndarray:
    """Each pixel's length over the three channels of `diff` (squared in place): the squares
    added one by one, left to right, the same sums as `(diff**2).sum(axis=2)` at a third to
    a sixth of its time (numpy reduces a 3-long inner axis slowly)."""
    diff *= diff
    return np.sqrt(diff[..., 0] + diff[..., 1] + diff[..., 2])


def _turn(degrees: float) -> np.ndarray:
    """The rotation matrix of a turn in degrees."""
    a = np.radians(degrees)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


_TURNED = tuple(_turn(t).T for t in _TURNS)  # the pip grid's small turns, for `grid @`


def _agreed(
    errors: np.ndarray,
    chances: np.ndarray,
    faint: bool = False,
    on_a_card: bool = False,
    coarse: bool = False,
    alike: Alike | None = None,
) -> tuple[int, float]:
    """One pip count and its confidence from the pip fit's `errors` (1-6) and the learned
    count's `chances` (0-6, dice_net.count_many) on the die's rectangle in its crop: each
    count's chance under both (the fit's turned into chances by how well the best layout
    fits, `_FIT_SPREAD`), 0 left out (the die was found). Neither decides alone: a layout
    that fits cleanly is right (a drawn die, where the count may not be), one that fits
    loosely is wrong about as often as right on real dice (marbled, translucent, dark dice
    with coloured pips), where the count is right more often; and where the two disagree
    the count comes out unsure, so the session asks the players rather than enter a sure
    misread into the game. Where the layout fits loosely or the count would rather have
    another face, the count's own chance of the face bounds the confidence (`_LOOSE_SURE`):
    the joint is often sure of a real die's misread. A `faint` die's the more so, and a die
    lying `on_a_card` (read as a faint one) the most. Below FINE_PX_PER_MM (`coarse`)
    a face neither reader puts first is bounded by the count's chance of it. With `alike`
    each of these weighs together the faces counted alike that the count gives most
    (`_ALIKE_FACES`): the likeliest part, its likeliest face, the confidence of the part."""
    finite = np.isfinite(errors)
    fit = np.zeros(6)
    if finite.any():
        best = float(errors[finite].min())
        spread = _FIT_SPREAD[0] + _FIT_SPREAD[1] * best
        fit[finite] = np.exp(-(errors[finite] - best) / spread)
    else:
        fit[:] = 1.0  # no layout fits at all: the learned count alone
    joint = fit / fit.sum() * (chances[1:] + 1e-6)
    joint = joint / joint.sum()
    if alike is None:
        face = int(np.argmax(joint)) + 1
        part: tuple[int, ...] = (face,)
    else:
        parts = [sorted(faces, key=lambda f: -chances[f])[:_ALIKE_FACES] for faces in alike]
        part = tuple(max(parts, key=lambda faces: sum(joint[f - 1] for f in faces)))
        face = max(part, key=lambda f: joint[f - 1])
    confidence = float(sum(joint[f - 1] for f in part))
    counted = float(sum(chances[f] for f in part))
    if faint or not finite.any() or float(errors[finite].min()) >= _LOOSE_FIT:
        sure = _ON_CARD_SURE if on_a_card else _FAINT_SURE if faint else _LOOSE_SURE
        doubt = 1.0 - sure  # the count's doubt at 0.5
        confidence = min(confidence, max(1.0 - 0.5 * (1.0 - counted) / doubt, 0.0))
    elif counted < _RULED_OUT:
        confidence = min(confidence, counted)
    # Below FINE_PX_PER_MM a pip die is 8-13 px wide and its pips a pixel or two: the
    # count spreads its answer over faces whose layouts share pips (a 4 counted 3 at 0.35, 6
    # at 0.32) and the joint with a clean fit of the right face could come out sure of a face
    # neither reader puts first (a white 4 read as a 6 at 0.68, at 1280x720, 0.64 px/mm)
    fitted, top = int(np.argmin(errors)) + 1, int(np.argmax(chances[1:])) + 1
    if coarse and fitted not in part and top not in part:
        confidence = min(confidence, counted)
    return face, confidence


def _clean_fit(
    errors: np.ndarray, chances: np.ndarray, face: int, confidence: float
) -> tuple[int, float]:
    """The face `_agreed` gave (`face`, `confidence`), or the layout fit's own face,
    `_CLEAN_SURE`, where that layout (not a 1's) fits cleanly and far better than any
    other count's and the learned count's `chances` name no other face, nor no die, likely
    enough to doubt it (`_CLEAN_MARGIN`)."""
    if not np.isfinite(errors).any():
        return face, confidence
    fitted = int(np.argmin(errors)) + 1
    best, runner_up = np.sort(errors)[:2]
    others = np.delete(chances[1:], fitted - 1)
    if (
        fitted != 1
        and best < _LOOSE_FIT
        and runner_up - best >= _CLEAN_MARGIN
        and float(others.max()) < _CLEAN_OTHER
        and float(chances[0]) < 1.0 - _CLEAN_DIE
    ):
        return fitted, max(confidence if face == fitted else 0.0, _CLEAN_SURE)
    return face, confidence


def _bodies(
    grey: np.ndarray, hsv: np.ndarray, crop: np.ndarray, faint: bool = False
) -> list[np.ndarray]:
    """Masks that may hold the die's body: Otsu's split of the crop (tight where the die
    stands out), brighter than the table at the crop's border or strongly yellow (a wheel
    die in shadow, where Otsu may split the wheels off instead), and unlike the table's
    colour at the border (a red, blue or black die), for a `faint` die also only a little
    unlike it (`_FAINT_DARKER`, `_FAINT_COLOUR`), and only a little unlike its colour (a
    dark red die on brown wood: its shadow is darker than the wood too, and with it the
    die's body was too large for a die, 20-26 mm, so 10 of 19 real dice not found clear of
    the lamp on tuning seed 61000 were not); the outline nearest a die's size wins.
    When none holds a die, `_dark_side`."""
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    _, body = cv2.threshold(smooth, 0, 1, cv2.THRESH_OTSU)
    brighter = smooth > float(np.median(_rim(grey))) * 1.4
    yellow = cv2.inRange(hsv, *_WHEEL_YELLOW) > 0
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.int16)
    table = np.median(_rim(lab), axis=0)
    # the colour's two channels apart from the table's, not the lightness's (unused): the
    # same float64 values as `lab - table`'s, a third less work
    distance = np.hypot(lab[..., 1] - table[1], lab[..., 2] - table[2])
    unlike = (distance > _OTHER_COLOUR) | (lab[..., 0] < 0.5 * table[0])
    bodies = [body, (brighter | yellow).astype(np.uint8), unlike.astype(np.uint8)]
    if faint:
        little = (distance > _FAINT_COLOUR) | (lab[..., 0] < _FAINT_DARKER * table[0])
        bodies.append(little.astype(np.uint8))
        bodies.append((distance > _FAINT_COLOUR).astype(np.uint8))
    return bodies


def _dark_side(grey: np.ndarray) -> np.ndarray:
    """The dark side of the crop's Otsu split: the body of a die darker than the table, a
    dull red or dark die on wood, which neither the table's brightness nor its colour sets
    apart (on tuning seed 8000, odd half, 12 of 23 real dice not found had no body in
    `_bodies`' masks, 5 of them found so). Looked at only when those masks hold no die: as
    one more choice it took a blue die's shadow for its body on OpenCV 5."""
    _, body = cv2.threshold(cv2.GaussianBlur(grey, (5, 5), 0), 0, 1, cv2.THRESH_OTSU)
    return 1 - body


def _bodies_on(
    hsv: np.ndarray, crop: np.ndarray, background: np.ndarray, slack_mm: float = 0.0
) -> list[np.ndarray]:
    """Masks that may hold the body of a die lying on a card: where the crop, blurred as
    the card's expected look is (`Under`: drawn from its catalogue face), is unlike that
    look (`_UNLIKE_FACE`) and unlike every colour the look shows within `slack_mm` (each
    Lab channel's least and most there: the print a little off its grid is no die), and
    where it is strongly yellow (a wheel die)."""
    blurred = cv2.GaussianBlur(crop, (0, 0), 3.0).astype(np.float32) / 255.0
    expected = background.clip(-1.0, 255.0) / 255.0
    seen = cv2.cvtColor(blurred, cv2.COLOR_BGR2Lab)
    face = cv2.cvtColor(expected.clip(0.0, 1.0).astype(np.float32), cv2.COLOR_BGR2Lab)
    reach = round(slack_mm * CROP_PX_PER_MM)  # a disc of this radius (0: the pixel alone)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2)
    low, high = cv2.erode(face, kernel), cv2.dilate(face, kernel)
    # how far each channel lies outside its range round the pixel: |seen - face| at reach 0
    diff = (np.maximum(low - seen, 0.0) + np.maximum(seen - high, 0.0)).astype(np.float64)
    diff[..., 0] *= 2.55  # Lab as 8 bits (L 0-255)
    distance = channel_length(diff)
    unlike = (distance > _UNLIKE_FACE) & (expected[..., 0] >= 0.0)
    yellow = cv2.inRange(hsv, *_WHEEL_YELLOW) > 0
    return [unlike.astype(np.uint8), yellow.astype(np.uint8)]  # the yellow one, if any, wins


def _rim(image: np.ndarray) -> np.ndarray:
    """The pixels of a crop's 6-pixel border, one a row (the table around the die)."""
    rows = (image[:6], image[-6:], image[:, :6], image[:, -6:])
    return np.concatenate([r.reshape(-1, *image.shape[2:]) for r in rows])


def _outline(body: np.ndarray, size: int) -> tuple[np.ndarray, tuple[float, float], float] | None:
    """The die in a body mask: its filled mask, centre (crop px) and turn, or None when
    the part around the crop's centre is not die-sized."""
    body = cv2.morphologyEx(body, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(body)
    mid = size // 2
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    # the body may have a wheel at its centre, so it need not cover the centre itself
    around = [i for i in range(1, count) if left[i] < mid < right[i] and top[i] < mid < bottom[i]]
    if not around:
        return None
    label = max(around, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    mask = (labels == label).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre, (w, h), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    if 11.0 <= min(w, h) / CROP_PX_PER_MM <= 22.0 and max(w, h) > 1.3 * min(w, h):
        # another die lies against this one (whole, or cut by the crop's edge): the die is
        # the square at the end of the blob's length nearer the crop's centre
        a = np.radians(angle if w >= h else angle + 90)
        along = np.array([np.cos(a), np.sin(a)]) * (max(w, h) - min(w, h)) / 2
        ends = [np.array(centre) - along, np.array(centre) + along]
        chosen = min(ends, key=lambda end: math.dist(end, (mid, mid)))
        centre, w = (float(chosen[0]), float(chosen[1])), min(w, h)
        h = w
        square = cv2.boxPoints((centre, (w, h), angle)).round().astype(np.int32)
        mask = cv2.fillConvexPoly(np.zeros_like(mask), square, 1) & mask
    side = (w + h) / 2 / CROP_PX_PER_MM
    if not 11.0 <= side <= 22.0:
        return None
    return mask, centre, angle, side


def _best_wheels(dark: np.ndarray) -> tuple[int, float]:
    """The wheel face whose layout best explains the darkness at each grid place, and a 0-1
    confidence from how far ahead of the next face it is (pip dice: `_pip_face`)."""
    strongest = float(dark.max())
    if strongest < 0.18:  # nothing dark anywhere: a blank wheel face
        return 0, float(np.clip((0.18 - strongest) / 0.1, 0.2, 1.0))
    level = dark / strongest
    errors: dict[int, float] = {}
    for face, pattern in _LAYOUTS[WHEELS]:
        error = float(((level - pattern) ** 2).sum())
        errors[face] = min(errors.get(face, np.inf), error)
    ranked = sorted(errors.items(), key=lambda item: item[1])
    best, second = ranked[0], ranked[1]
    confidence = float(np.clip((second[1] - best[1]) / 1.0, 0.0, 1.0))
    return best[0], confidence
