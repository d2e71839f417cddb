"""A family's own switching-track box, taught to the camera: its board found among the
table's four markers by its picture, its trains, panels and dice read by the same reader
as ours (reader.py) through the taught board's geometry.

The design (issue 33):

- **The table gives the plane.** The table's four markers (ids 0-3,
  companion/vision/calibrate.py) calibrate the camera to table millimetres, as for the
  other games. The box's board carries no markers of ours; it lies anywhere among them,
  any way round.
- **The board is found by its picture.** A taught board is a top-down picture of it
  (`PICTURE_PX_PER_MM`, in the board file's millimetres), taught once. Each frame, the
  table seen from above is matched against that picture: ORB features of the board's
  own print (its border, title, art, track ends; never its slots, whose panels move, nor
  its spaces, where trains stand), both seen at half that scale first (`_COARSE`: a
  quarter of the pixels, a fifth of the matching), at that one scale when that finds
  none (over ORB's pyramid of scales only when that finds none), matched, and a
  rotation and shift (no scale: both are millimetres) fitted by RANSAC, refitted on
  every match that lands where it puts it, then made finer by aligning the whole print
  with the picture (ECC; the coarse pose only when that alignment converges).
  That is the board's pose on the table (`find_board`): wherever it lies, however
  turned. A pose whose print does not look like the picture is refused: never a board
  placed wrongly, only one not found (`board_unfound`). Under a still camera the last
  pose is kept while the print there is as alike as when it was found (a few
  milliseconds); an elbow's nudge or a hand over it makes it less so, and the board is
  found again, first near where it lay (its print aligned from there, as the features'
  pose is: a few milliseconds), by its features when it lies further.
- **The existing reader reads it.** The pose and the table's calibration compose into the
  calibration the reader would have had from our board's corner markers (pixels to the
  board's millimetres with the reader's apron round it: `board_calibration`), so the
  reader's steps 2-6 (light, panels, trains, dice, glare) run unchanged on the taught
  board's file. What differs is only how the pieces look (`reader.Pieces`): each train's
  and panel's colour as taught (its hue under the table's light, white-balanced against
  the board's own paper) instead of our printed ones, and which way round a panel lies by
  its taught picture (which of it and it turned round matches the slot where the two
  differ: the box's print, whatever it is) instead of our two black squares, and which
  way a train faces by its taught shape as well as by its dark cab (`reader.train_shape`:
  which of its shape and its shape turned round its body matches; either cue tells it
  when the other cannot, and where they disagree it is asked).
- **A taught box is a folder** (`TaughtBox.save`, `load`): `board.json` (its
  `switching-board/1` file, checked as the board tool checks one), `board.png` (the
  board's top-down picture, panels at home), `panel-<colour>.png` (each panel's picture,
  upright, white-balanced in shares of the paper's brightness), `train-<colour>.png`
  (each train's shape: white where its cut-out showed its body, facing up, the way it
  runs) and `box.json` (format
  `switching-box/1`: each train and panel colour's hue, OpenCV's 0-179, and its board's
  paper as a share of white in each channel, BGR: `reader.Pieces.paper`, measured
  against the table markers' white paper; a box taught before it has none, and its paper
  is taken as white; and, when they were taught, its colour die's faces' hues: `dice`).
- **The colour die's faces** (`teach_die`, `with_dice`): a family's colour die need not be
  printed in its panels' exact shades, so each face may be taught too, the die lying alone
  beside the taught board, that face up; its hue is kept apart from the trains' (a train
  beside the board is no die) and from the die's other faces. A box taught without them
  reads its colour die by its panels' colours.
- **Teaching** (`teach`): one frame under the family's camera with the board lying
  square to the table (its top towards the table's top markers, as the prompt says), its
  panels at home upright and one train of each colour on the Start spaces, in the board
  file's order of Starts and the players' order of colours (red, blue, yellow, green).
  The board's outline is found in the top-down image (the region unlike the table, of
  the board file's size, moved onto its edges), the picture cut along it, and the
  colours, panels and trains' shapes measured where the board file puts them (each train
  facing along its Start, towards its track's Finish). The board file is the
  family's or proposed from our layout (vision/enrolment.py, `companion enroll --game
  switching`).

`companion run` reads a box taught into the table's catalogue folder (switching/camera.py),
and the setup page corrects the proposed board file's spaces and track ends on the
camera's picture (web/board_teach.py). Not done yet (issue 33): marking a board's slots
and its panels' pieces on the page; the colour die's faces are taught by `companion enroll
--colour-die` only, not on the page; the number dice are read as every game's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from companion.games.said import Said
from companion.games.switching import art
from companion.games.switching.board import Board, read
from companion.games.switching.vision import reader
from companion.pose import Pose
from companion.vision.calibrate import Calibration, calibrate, top_down
from companion.vision.frame_checks import as_bgr
from companion.vision.table import TableLayout, rotate
from companion.vision.unlike_table import unlike_table

FORMAT = "switching-box/1"
PICTURE_PX_PER_MM = 1.0  # the taught picture's scale and the top-down image matched to it
_FEATURES = 3000  # ORB features of the table's top-down image, at most
_LEVELS = (1, 8)  # ORB's pyramid levels, tried in turn: the taught picture and the table
# seen from above are both at `PICTURE_PX_PER_MM`, so one scale finds most boards at a
# third of the pyramid's cost (its features twice, its matching three times as dear), and
# some the pyramid did not (seeds 1014 and 1049 at Lowe's 0.8); the pyramid finds a far
# board under a lamp's glare that one scale does not (seed 1228 with --glare)
_TAUGHT_FEATURES = 3000  # and of the taught picture: its strongest
_COARSE = (0.5, 1000)  # the first search: the table seen from above at this many px/mm,
# its strongest features this many (at 1 px/mm most of the 3000 lay on the table's wood
# grain), the picture's at that scale (325 of them): a quarter of the pixels and a fifth
# of the matching's time. Its pose is within 2 mm and 0.2 degrees, which the print's
# alignment takes as it takes the finer search's: on seeds 1200-1229, 2000-2029 and
# 3000-3039 the boards came out within 0.6 mm of where the finer search put them, but
# one of 3000-3039 at 3.7 mm, nearer the truth; the finer search when this finds none
_RATIO = 0.85  # a match's distance under this share of the next best's (Lowe's test):
# 0.8 left seed 2018's far board, half under a lamp's glare, 8 agreeing matches of 10
_RANSAC_PX = 3.0  # a match agreeing with the fitted pose within this (mm at 1 px/mm)
_GUIDED_MM = (3.0, 2.0, 1.5)  # the guided refit's reach, round by round
_ALIGN_PX_PER_MM = 0.5  # the whole print's alignment's scale
_ALIGN_REACH = (3.0, 0.8)  # mm, degrees: the most it may move the features' pose (the
# features' pose is up to 0.65 degrees off, seeds 100-139, 200-239, 300-339: 2 mm and 0.3
# degrees kept five such, this took them; seed 125's came out 0.17 degrees worse)
_PRINT_ALIKE = 0.4  # the print's correlation with the picture where the pose puts it,
# at least (seeds 100-119, hard camera: 0.67-0.95 where the board lies)
_STILL_DROP = 0.03  # the print this much less alike than when found: the board has moved
# (or a hand lies over it): found again
_AGREE = 10  # matches agreeing with the pose, at least, for the board to count as found
_CLEAR_MM = 6.0  # round a slot and a space, left out of the picture's features
_HUE_APART = 12  # taught colours closer than this (OpenCV hue units, 2 degrees) are refused
_CLOSE_MM = 31.0  # the board's print in the table's colours is closed over this far
_SIZE_OFF = 0.06  # a board's outline this far off its file's size, at most
_EDGE_SEARCH_MM = 10.0  # a side of the outline is looked for this far either way
_COLOURFUL = 0.45 * 255  # a pixel of a piece's colour: saturation at least (the reader's)


class TeachError(ValueError):
    """The box could not be taught from this frame: the message says what to change, in
    English; `key` (the setup page's words, web/words.py's TEACH_BOARD) and `params` (a
    colour by its name in the game's words) say it in the page's language, and `marks` the
    board's spaces or slots it is about, for the page to ring."""

    def __init__(self, key: str, message: str, marks: tuple[str, ...] = (), **params: str) -> None:
        super().__init__(message)
        self.key = key
        self.marks = marks
        self.params = params


@dataclass(frozen=True, eq=False)
class TaughtBox:
    """A box the camera was taught: its board file, its board's top-down picture (BGR,
    `PICTURE_PX_PER_MM`, panels at home) and how its pieces look (`reader.Pieces`), with
    the hues they were made from (trains then panels, as `reader.hue_classes` takes them),
    and each train's shape (`reader.train_shape`: where its cut-out showed its colour,
    facing along its Start)."""

    board: Board
    picture: np.ndarray
    hues: Mapping[str, int]
    panels: Mapping[str, np.ndarray]
    trains: Mapping[str, np.ndarray]
    paper: tuple[float, float, float] | None = None
    dice: Mapping[str, int] | None = None
    _features: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict, init=False, repr=False
    )

    @cached_property
    def pieces(self) -> reader.Pieces:
        dark = reader.printed_dark(self.board, self.picture, PICTURE_PX_PER_MM)
        dice = None
        if self.dice is not None:
            dice = reader.hue_classes(np.array([self.dice[c] for c in art.PANEL_COLOURS]))
        return reader.Pieces(_classes(self.hues), self.panels, dark, self.trains, self.paper,
                             dice)  # fmt: skip

    def features(
        self, levels: int, px_per_mm: float = PICTURE_PX_PER_MM
    ) -> tuple[np.ndarray, np.ndarray]:
        """The picture's ORB features away from slots and spaces, over `levels` of ORB's
        pyramid (`_LEVELS`), the picture seen at `px_per_mm` (its own scale, or the
        coarse search's: `_COARSE`): their points (board mm) and descriptors; each
        computed once."""
        key = (levels, px_per_mm)
        if key not in self._features:
            picture, mask = self.picture, self._print_mask
            if px_per_mm != PICTURE_PX_PER_MM:
                k = px_per_mm / PICTURE_PX_PER_MM
                picture = cv2.resize(picture, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
                mask = cv2.resize(mask, picture.shape[1::-1], interpolation=cv2.INTER_NEAREST)
            points, descriptors = _orb(picture, mask, _TAUGHT_FEATURES, levels)
            self._features[key] = (points / px_per_mm, descriptors)
        return self._features[key]

    @cached_property
    def alignment(self) -> tuple[np.ndarray, np.ndarray]:
        """The picture at `_ALIGN_PX_PER_MM` with its light evened, and where its print
        may be compared (not its slots nor spaces: `features`' mask)."""
        k = _ALIGN_PX_PER_MM / PICTURE_PX_PER_MM
        small = cv2.resize(self.picture, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(self._print_mask, small.shape[1::-1], interpolation=cv2.INTER_NEAREST)
        return _even(small), mask

    @cached_property
    def _print_mask(self) -> np.ndarray:
        """The picture's pixels of the board's own print: not its slots (whose panels move)
        nor its spaces (where trains stand), with a margin."""
        k = PICTURE_PX_PER_MM
        mask = np.full(self.picture.shape[:2], 255, np.uint8)
        clear = _CLEAR_MM
        for s in self.board.slots.values():
            cv2.rectangle(mask, (round((s.x - clear) * k), round((s.y - clear) * k)),
                          (round((s.x + s.width + clear) * k), round((s.y + s.height + clear) * k)),
                          0, -1)  # fmt: skip
        for space in self.board.spaces.values():
            if space.panel is None:
                x, y = space.at
                cv2.circle(mask, (round(x * k), round(y * k)), round((15 + clear) * k), 0, -1)
        return mask

    def save(self, folder: Path) -> None:
        """Write the box's folder (the module's docstring says what it holds)."""
        folder.mkdir(parents=True, exist_ok=True)
        document = json.dumps(self.board.document(), indent=2, ensure_ascii=False)
        (folder / "board.json").write_text(document + "\n", encoding="utf-8")
        cv2.imwrite(str(folder / "board.png"), self.picture)
        for colour, picture in self.panels.items():
            cv2.imwrite(str(folder / f"panel-{colour}.png"), _to_png(picture))
        for colour, shape in self.trains.items():
            cv2.imwrite(str(folder / f"train-{colour}.png"), shape.astype(np.uint8) * 255)
        box = {"format": FORMAT, "hues": dict(self.hues)}
        if self.paper is not None:
            box["paper"] = [round(share, 4) for share in self.paper]
        if self.dice is not None:
            box["dice"] = dict(self.dice)
        (folder / "box.json").write_text(json.dumps(box, indent=2) + "\n", encoding="utf-8")

    @staticmethod
    def stamp(folder: Path) -> int | None:
        """When the box in `folder` was last taught (its box.json, written last, changed:
        ns), None when none is there: a camera holding the box reads it again once this
        moves (the setup page adds the colour die's faces while the service runs)."""
        try:
            return (folder / "box.json").stat().st_mtime_ns
        except OSError:
            return None

    @classmethod
    def load(cls, folder: Path) -> TaughtBox:
        """A taught box's folder read back; ValueError saying what is missing or wrong."""
        try:
            board = read((folder / "board.json").read_bytes(), str(folder / "board.json"))
            box = json.loads((folder / "box.json").read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise ValueError(f"{folder} is no taught switching box: {error}") from None
        names = [*art.TRAIN_COLOURS, *art.PANEL_COLOURS]
        if box.get("format") != FORMAT or set(box.get("hues", {})) != set(names):
            raise ValueError(f"{folder / 'box.json'} is not a {FORMAT} file with every hue")
        picture = cv2.imread(str(folder / "board.png"), cv2.IMREAD_COLOR)
        panels = {c: cv2.imread(str(folder / f"panel-{c}.png"), cv2.IMREAD_COLOR)
                  for c in art.PANEL_COLOURS}  # fmt: skip
        trains = {c: cv2.imread(str(folder / f"train-{c}.png"), cv2.IMREAD_GRAYSCALE)
                  for c in art.TRAIN_COLOURS}  # fmt: skip
        if picture is None or any(p is None for p in [*panels.values(), *trains.values()]):
            raise ValueError(f"{folder} lacks board.png, a panel's picture or a train's shape: "
                             "teach it again")  # fmt: skip
        hues = {name: int(box["hues"][name]) for name in names}
        paper = box.get("paper")  # a box taught before its paper's tint was: white
        if paper is not None and (
            len(paper) != 3 or not all(isinstance(v, (int, float)) and 0 < v <= 1 for v in paper)
        ):
            raise ValueError(f"{folder / 'box.json'}: its paper is three shares of white, 0-1")
        dice = box.get("dice")  # the colour die's faces, when they were taught
        if dice is not None and (
            not isinstance(dice, dict) or set(dice) != set(art.PANEL_COLOURS)
            or not all(isinstance(h, int) and 0 <= h < 180 for h in dice.values())
        ):  # fmt: skip
            raise ValueError(f"{folder / 'box.json'}: its dice are a hue for each colour die face")
        return cls(board, picture, hues, {c: _from_png(p) for c, p in panels.items()},
                   {c: shape > 127 for c, shape in trains.items()},
                   None if paper is None else tuple(map(float, paper)), dice)  # fmt: skip


def _classes(hues: Mapping[str, int]) -> np.ndarray:
    """The reader's colour classes (`reader.hue_classes`) of the taught hues."""
    names = [*art.TRAIN_COLOURS, *art.PANEL_COLOURS]
    return reader.hue_classes(np.array([hues[n] for n in names]))


def _to_png(shares: np.ndarray) -> np.ndarray:
    return np.clip(shares * 160.0, 0, 255).astype(np.uint8)


def _from_png(image: np.ndarray) -> np.ndarray:
    return image.astype(np.float32) / 160.0


def _orb(
    image: np.ndarray, mask: np.ndarray | None, most: int, levels: int
) -> tuple[np.ndarray, np.ndarray]:
    """ORB features of a BGR image over `levels` of its pyramid: points (pixels, N x 2)
    and descriptors."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = cv2.createCLAHE(2.0, (8, 8)).apply(grey)  # the lamp's fall-off and shadows evened
    orb = cv2.ORB_create(nfeatures=most, fastThreshold=8, nlevels=levels)
    keypoints, descriptors = orb.detectAndCompute(grey, mask)
    if descriptors is None:
        return np.empty((0, 2), np.float32), np.empty((0, 32), np.uint8)
    return cv2.KeyPoint_convert(keypoints).reshape(-1, 2), descriptors


# --- where the board lies -------------------------------------------------------------


def to_table(board: Board, pose: Pose) -> np.ndarray:
    """The 3 x 3 matrix taking board mm to table mm with the board at `pose` (its centre
    on the table and its turn, as the synthetic table lays it: scenes.to_table)."""
    a = math.radians(pose.rotation)
    c, s = math.cos(a), math.sin(a)
    turn = np.array([[c, -s], [s, c]])
    shift = np.array([pose.x, pose.y]) - turn @ (np.array(board.size) / 2)
    return np.vstack([np.column_stack([turn, shift]), [0.0, 0.0, 1.0]])


def _pose(board: Board, matrix: np.ndarray) -> Pose:
    """The pose of a board taken to the table by `matrix` (a rotation and a shift)."""
    centre = matrix[:2, :2] @ (np.array(board.size) / 2) + matrix[:2, 2]
    rotation = math.degrees(math.atan2(matrix[1, 0], matrix[0, 0])) % 360.0
    return Pose(float(centre[0]), float(centre[1]), rotation)


def board_calibration(
    table: Calibration, board: Board, pose: Pose, apron_mm: float = reader.APRON_MM
) -> Calibration:
    """The table's calibration turned into the board's: frame pixels to board mm plus
    `apron_mm` (the reader's frame, `reader.reading_layout`), the board at `pose`."""
    apron = np.array([[1.0, 0.0, apron_mm], [0.0, 1.0, apron_mm], [0.0, 0.0, 1.0]])
    homography = apron @ np.linalg.inv(to_table(board, pose)) @ table.homography
    return Calibration(homography, table.k1, table.frame_size, table.markers, table.error_mm,
                       table.corners)  # fmt: skip


def find_board(
    frame: np.ndarray, box: TaughtBox, table: Calibration, layout: TableLayout
) -> Pose | None:
    """Where the taught board lies on the table in `frame` (its pose), found by matching
    its picture's features with the table's seen from above: coarsely first (`_COARSE`),
    then at the picture's own scale over one level of ORB's pyramid and over the whole
    pyramid only when those find none (`_LEVELS`); None when too few agree."""
    scale, most = _COARSE
    small = top_down(frame, table, layout, scale)
    matrix = _matched(small, box, 1, scale, most)
    aligned = None if matrix is None else _aligned(small, box, matrix, scale, coarse=True)
    if aligned is not None:
        return _pose(box.board, aligned)
    top = top_down(frame, table, layout, PICTURE_PX_PER_MM)
    for levels in _LEVELS:
        matrix = _matched(top, box, levels, PICTURE_PX_PER_MM, _FEATURES)
        aligned = None if matrix is None else _aligned(top, box, matrix, PICTURE_PX_PER_MM)
        if aligned is not None:
            return _pose(box.board, aligned)
    return None


def _matched(
    top: np.ndarray, box: TaughtBox, levels: int, px_per_mm: float, most: int
) -> np.ndarray | None:
    """The pose (board mm to table mm) that the taught picture's features and those of
    `top` (the table from above at `px_per_mm`, its strongest `most`), over `levels` of
    ORB's pyramid, agree on; None when too few agree."""
    found, descriptors = _orb(top, None, most, levels)
    taught, taught_descriptors = box.features(levels, px_per_mm)
    if len(found) < _AGREE or len(taught) < _AGREE:
        return None
    nearest, distance, back = _nearest(taught_descriptors, descriptors)
    picture = np.flatnonzero(distance[:, 0] < _RATIO * distance[:, 1])  # a clear best
    asked = np.unique(nearest[picture, 0])  # only these table features' own best
    answers = dict(zip(asked.tolist(), back(asked).tolist(), strict=True))
    # each a clear best (Lowe's ratio) and each other's best: a table feature many of the
    # picture's repeated ones (trees, sleepers) match is no match, and would let RANSAC
    # fold the picture onto one point
    good = [q for q in picture.tolist() if answers[int(nearest[q, 0])] == q]
    if len(good) < _AGREE:
        return None
    source = taught[good]
    target = found[nearest[good, 0]] / px_per_mm
    matrix, inliers = cv2.estimateAffinePartial2D(
        source, target, method=cv2.RANSAC, ransacReprojThreshold=_RANSAC_PX, maxIters=4000,
        confidence=0.999,
    )  # fmt: skip
    if matrix is None or int(inliers.sum()) < _AGREE:
        return None
    scale = math.hypot(matrix[0, 0], matrix[1, 0])
    if abs(scale - 1.0) > 0.04:  # millimetres on both sides: a scale is a false match
        return None
    keep = inliers.ravel() > 0
    matrix = _rigid(source[keep], target[keep])
    # guided: every pair whose first or second choice lands where the pose puts it, and
    # the pose refitted on them (more of the board's print pins it finer than the few
    # clear matches RANSAC started from)
    source = np.repeat(taught, 2, axis=0)  # each picture feature with its best two
    target = found[nearest.ravel()] / px_per_mm
    for reach in _GUIDED_MM:
        placed = source @ matrix[:2, :2].T + matrix[:2, 2]
        near = np.hypot(*(placed - target).T) <= reach
        if int(near.sum()) < _AGREE:
            break
        matrix = _rigid(source[near], target[near])
    return matrix


def _nearest(
    query: np.ndarray, train: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """For each of `query`'s ORB descriptors (N x 32 bytes) its nearest and next nearest
    of `train`'s (N x 2 indices; the lower index first among equals) and their Hamming
    distances (N x 2), and what gives each of some of `train`'s its nearest of `query`'s:
    what OpenCV's brute-force matcher's `knnMatch(k=2)` and `match` give, from every
    distance counted at once (four 64-bit words' bits, numpy's `bitwise_count`: 1.5 ms
    for a coarse search's 325 x 1000, where the matcher took 5-6 and its answer for the
    table's features 1.6 more). The matcher itself where numpy counts no bits (before
    2.0: Raspberry Pi OS's own)."""
    if not hasattr(np, "bitwise_count"):
        return _nearest_matched(query, train)
    words, others = (np.ascontiguousarray(np.ascontiguousarray(d).view(np.uint64).T)
                     for d in (query, train))  # fmt: skip
    counted = np.zeros((len(query), len(train)), np.uint16)
    for word, other in zip(words, others, strict=True):
        counted += np.bitwise_count(np.bitwise_xor.outer(word, other))
    rows = np.arange(len(query))
    first = counted.argmin(axis=1)  # argmin: the first of equals, as the matcher keeps
    best = counted[rows, first]
    counted[rows, first] = np.iinfo(np.uint16).max
    second = counted.argmin(axis=1)
    distance = np.stack([best, counted[rows, second]], axis=1).astype(np.float64)
    counted[rows, first] = best

    def back(asked: np.ndarray) -> np.ndarray:
        return counted[:, asked].argmin(axis=0)

    return np.stack([first, second], axis=1), distance, back


def _nearest_matched(
    query: np.ndarray, train: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """`_nearest` by OpenCV's brute-force matcher."""
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
    pairs = matcher.knnMatch(query, train, k=2)
    nearest = np.array([[m.trainIdx for m in p] for p in pairs], np.intp).reshape(-1, 2)
    distance = np.array([[m.distance for m in p] for p in pairs], np.float64).reshape(-1, 2)

    def back(asked: np.ndarray) -> np.ndarray:
        answers = matcher.match(train[asked], query) if len(asked) else []
        found = np.empty(len(asked), np.intp)
        for m in answers:
            found[m.queryIdx] = m.trainIdx
        return found

    return nearest, distance, back


def _aligned(
    top: np.ndarray, box: TaughtBox, matrix: np.ndarray, px_per_mm: float, coarse: bool = False
) -> np.ndarray | None:
    """The pose `matrix` (board mm to table mm) made finer by aligning the whole of the
    board's print with its taught picture (OpenCV's ECC, a rotation and a shift, on both
    seen from above at `_ALIGN_PX_PER_MM` with their light evened, the table's from
    `top`, seen from above at `px_per_mm`): every pixel of the
    print pins it, not a few hundred corners. The features' pose when the alignment does
    not converge or moves it further than a feature's pose can be off; None when the
    print does not look like the picture there at all (`_PRINT_ALIKE`): features that
    agreed by chance, on something else, and never a board placed wrongly. A `coarse`
    search's pose is never kept as it is: None when the alignment does not converge."""
    k = _ALIGN_PX_PER_MM
    to_px = np.diag([k, k, 1.0])
    template, mask = box.alignment
    h, w = template.shape
    into = np.diag([px_per_mm, px_per_mm, 1.0]) @ matrix @ np.linalg.inv(to_px)
    seen = cv2.warpAffine(top, into[:2], (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    seen = _even(seen)
    if cv2.computeECC(template, seen, mask) < _PRINT_ALIKE:
        return None
    step = _align_step(template, seen, mask)
    if step is None:
        return None if coarse else matrix
    return matrix @ step


def _align_step(template: np.ndarray, seen: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The rotation and shift (3 x 3, board mm) that aligns `seen`, the board's print at
    `_ALIGN_PX_PER_MM` where a pose puts it, with its taught picture `template` (OpenCV's
    ECC); None when the alignment does not converge or moves it further than a feature's
    pose can be off (`_ALIGN_REACH`)."""
    to_px = np.diag([_ALIGN_PX_PER_MM, _ALIGN_PX_PER_MM, 1.0])
    # stops when a step changes the warp by under a thousandth (of a 2 mm pixel): finer
    # moved no board by over 0.12 mm (seeds 200-239) and took a third of a frame's time
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 60, 1e-3)
    try:
        _, warp = cv2.findTransformECC(template, seen, np.eye(2, 3, dtype=np.float32),
                                       cv2.MOTION_EUCLIDEAN, criteria, mask, 3)  # fmt: skip
    except cv2.error:
        return None
    step = np.linalg.inv(to_px) @ np.vstack([warp, [0.0, 0.0, 1.0]]) @ to_px
    turn = math.degrees(math.atan2(step[1, 0], step[0, 0]))
    if np.hypot(*step[:2, 2]) > _ALIGN_REACH[0] or abs(turn) > _ALIGN_REACH[1]:
        return None
    return step


def _even(image: np.ndarray) -> np.ndarray:
    """A BGR image's grey with its light evened (CLAHE), as float32: how the taught
    picture and the table's are compared."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.createCLAHE(2.0, (8, 8)).apply(grey).astype(np.float32)


def _rigid(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The rotation and shift (3 x 3) taking `source` points closest to `target` (least
    squares, no scale: Kabsch)."""
    ms, mt = source.mean(axis=0), target.mean(axis=0)
    u, _, vt = np.linalg.svd((source - ms).T @ (target - mt))
    turn = (u @ vt).T
    if np.linalg.det(turn) < 0:
        vt[-1] *= -1
        turn = (u @ vt).T
    shift = mt - turn @ ms
    return np.vstack([np.column_stack([turn, shift]), [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class Found:
    """Where a taught board was last seen: the table's calibration, the board's pose, the
    reader's calibration they make, and how alike its print was to its picture there
    (`_alike`); the next frame starts from them (a still camera, a hidden marker), and
    under a still camera reads again only the slots and spaces whose picture changed since
    the frame that left `memo` (vision/unchanged.py)."""

    table: Calibration
    pose: Pose
    calibration: Calibration = field(compare=False)
    alike: float = 0.0
    memo: reader.Memo | None = field(default=None, compare=False)


def _alike(frame: np.ndarray, box: TaughtBox, table: Calibration, pose: Pose) -> float:
    """How alike the board's print in `frame`, were the board at `pose`, is to its taught
    picture (ECC's correlation, -1 to 1, `TaughtBox.alignment`): a few milliseconds, where
    finding the board again takes tens."""
    template, mask = box.alignment
    return float(cv2.computeECC(template, _seen_at(frame, box, table, pose), mask))


def _seen_at(frame: np.ndarray, box: TaughtBox, table: Calibration, pose: Pose) -> np.ndarray:
    """The board's print in `frame`, were the board at `pose`, as its taught picture's
    `alignment` is kept (seen from above at `_ALIGN_PX_PER_MM`, its light evened)."""
    template, _ = box.alignment
    flat = board_calibration(table, box.board, pose, 0.0)
    whole = TableLayout(width=box.board.size[0], height=box.board.size[1])
    seen = _even(top_down(frame, flat, whole, _ALIGN_PX_PER_MM))
    return seen[: template.shape[0], : template.shape[1]]


def _near(frame: np.ndarray, box: TaughtBox, table: Calibration, pose: Pose) -> Pose | None:
    """The board found again near `pose`, where it last lay (a nudge, a hand over it): its
    whole print aligned with the picture from there, as `find_board`'s last step aligns
    it from the features' pose, and refused as that is (`_PRINT_ALIKE`); None when it
    lies further than the alignment reaches (`find_board` then seeks it): a few
    milliseconds, where the features take tens."""
    template, mask = box.alignment
    seen = _seen_at(frame, box, table, pose)
    if cv2.computeECC(template, seen, mask) < _PRINT_ALIKE:
        return None
    step = _align_step(template, seen, mask)
    return None if step is None else _pose(box.board, to_table(box.board, pose) @ step)


def read_taught(
    frame_bgr: object, box: TaughtBox, layout: TableLayout, found: Found | None = None
) -> tuple[reader.SeenBoard, Found | None]:
    """Everything the table shows in one frame of a taught box, and where its board was
    found (for the next frame). Never raises on a bad frame: what it could not see is in
    the reading's problems."""
    where: list[Found] = []

    def locate(frame: np.ndarray, problems: list[Said]) -> Calibration | None:
        table = calibrate(frame, layout, found.table if found else None)
        if table is None or len(table.markers) < 4:
            missing = sorted(set(range(4)) - set(table.markers if table else ()))
            problems.append(reader.problem("table_markers_hidden", n=len(missing),
                                           markers=", ".join(map(str, missing))))  # fmt: skip
            if table is None and found is not None and found.table.frame_size == frame.shape[1::-1]:
                table = found.table
            if table is None:
                problems.append(reader.problem("no_table"))
                return None
        if (
            found is not None
            and table is found.table  # a still camera: calibrate kept the last one
            and _alike(frame, box, table, found.pose) >= found.alike - _STILL_DROP
        ):
            where.append(found)  # the board has not moved either
            return found.calibration
        pose = None if found is None else _near(frame, box, table, found.pose)
        if pose is None:
            pose = find_board(frame, box, table, layout)
        if pose is None:
            problems.append(reader.problem("board_unfound"))
            return None
        calibration = board_calibration(table, box.board, pose)
        where.append(Found(table, pose, calibration, _alike(frame, box, table, pose)))
        return calibration

    memo = None if found is None else found.memo
    seen = reader.read_placed(frame_bgr, box.board, locate, box.pieces, memo)
    if not where:
        return seen, found
    return seen, replace(where[0], memo=seen.memo)


# --- teaching -------------------------------------------------------------------------


def _outline(top: np.ndarray, size: tuple[float, float], layout: TableLayout) -> Pose | None:
    """The board lying square to the table in a top-down image of it (`layout`'s, at
    `PICTURE_PX_PER_MM`): the region unlike the table (companion/vision/unlike_table.py)
    closed over the board's own print in the table's colours (tracks, trees), its
    outline's smallest rectangle, turned less than 45 degrees, moved onto its edges
    (`_edges`), when that is about the board's `size` (mm); None otherwise."""
    k = PICTURE_PX_PER_MM
    closing = np.ones((round(_CLOSE_MM * k),) * 2, np.uint8)
    mask = cv2.morphologyEx(unlike_table(top, layout, k), cv2.MORPH_CLOSE, closing)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    (cx, cy), (rw, rh), angle = _square(
        cv2.minAreaRect(cv2.convexHull(max(contours, key=cv2.contourArea)))
    )
    width, height = size
    if abs(rw / k - width) > _SIZE_OFF * width or abs(rh / k - height) > _SIZE_OFF * height:
        return None
    lab = cv2.cvtColor(cv2.GaussianBlur(top, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    return _edges(lab, Pose(cx / k, cy / k, angle % 360.0), size)


def _square(
    rect: tuple[tuple[float, float], tuple[float, float], float],
) -> tuple[tuple[float, float], tuple[float, float], float]:
    """A `cv2.minAreaRect` told as turned less than 45 degrees either way, its width and
    height swapped with each quarter turn taken off: OpenCV 4 gives its angle in (0, 90],
    OpenCV 5 in [-90, 0), so a board lying square is 90 degrees on one and -90 on the
    other; told this way it is 0 on both."""
    centre, (w, h), angle = rect
    while angle > 45:
        w, h, angle = h, w, angle - 90
    while angle <= -45:
        w, h, angle = h, w, angle + 90
    return centre, (w, h), angle


def _edges(lab: np.ndarray, pose: Pose, size: tuple[float, float]) -> Pose:
    """The board's outline at `pose` moved onto its edges: across each side, where the
    colour changes most (the board's print against the table, not its shadow's softer
    edge on the table), the median of many places along it; the centre moves half way
    between the sides' shifts (the board's size is its file's)."""
    k = PICTURE_PX_PER_MM
    width, height = size
    steps = np.arange(-_EDGE_SEARCH_MM, _EDGE_SEARCH_MM + 0.25, 0.5)
    shifts = []
    for outward, along, half, length in (((0, -1), (1, 0), height / 2, width),
                                         ((1, 0), (0, 1), width / 2, height),
                                         ((0, 1), (1, 0), height / 2, width),
                                         ((-1, 0), (0, 1), width / 2, height)):  # fmt: skip
        out, run = np.array(outward, float), np.array(along, float)
        places = np.linspace(-0.4, 0.4, 41)[:, None, None] * length * run
        local = places + (half + steps)[None, :, None] * out  # board mm from its centre
        table = rotate(local.reshape(-1, 2), pose.rotation) + (pose.x, pose.y)
        xy = (table * k).reshape(len(places), len(steps), 2).astype(np.float32)
        profile = cv2.remap(lab, xy, None, cv2.INTER_LINEAR)
        weight = np.array([0.5, 1.0, 1.0], np.float32)  # a shadow changes only the lightness
        change = np.linalg.norm((profile[:, 2:] - profile[:, :-2]) * weight, axis=2)
        shifts.append(float(np.median(steps[1:-1][change.argmax(axis=1)])))
    top, right, bottom, left = shifts
    centre = rotate(np.array([[(right - left) / 2, (bottom - top) / 2]]), pose.rotation)[0]
    return Pose(pose.x + float(centre[0]), pose.y + float(centre[1]), pose.rotation)


def _hue(look: np.ndarray) -> int | None:
    """The colourful pixels' hue (OpenCV's 0-179) of a white-balanced BGR cut-out: their
    mean on hue's circle; None when under a tenth of it is colourful."""
    hsv = cv2.cvtColor(np.clip(look, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
    colourful = hsv[..., 1] >= _COLOURFUL
    if colourful.mean() < 0.1:
        return None
    angle = hsv[..., 0][colourful].astype(np.float64) * (2 * math.pi / 180)
    mean = math.atan2(np.sin(angle).mean(), np.cos(angle).mean())
    return round(mean * 180 / (2 * math.pi)) % 180


def lying_square(
    frame: np.ndarray, board: Board, layout: TableLayout
) -> tuple[Calibration, Pose, np.ndarray]:
    """Where a board of `board`'s size lies square among the table's markers in `frame`,
    as a box is laid out to be taught: the table's calibration, the board's pose on it,
    and the board's top-down picture (`PICTURE_PX_PER_MM`, in its own mm). TeachError
    says what is not seen."""
    table = calibrate(frame, layout)
    if table is None or len(table.markers) < 4:
        raise TeachError("board_teach_markers",
                         "the table's four markers are not all seen: uncover them")  # fmt: skip
    pose = _outline(top_down(frame, table, layout, PICTURE_PX_PER_MM), board.size, layout)
    if pose is None:
        raise TeachError(
            "board_teach_outline",
            "the board's outline is not seen: lay it square to the table, inside the markers, "
            "nothing over its edges",
        )
    flat = board_calibration(table, board, pose, 0.0)
    whole = TableLayout(width=board.size[0], height=board.size[1])
    return table, pose, top_down(frame, flat, whole, PICTURE_PX_PER_MM)


def _usable(frame_bgr: object) -> np.ndarray:
    """The camera's frame as BGR; TeachError saying what is wrong with it when it is none."""
    frame, bad = as_bgr(frame_bgr)
    if frame is None:
        seen = bad[0] if bad else "none"
        raise TeachError("board_teach_picture", f"no usable picture from the camera ({seen})")
    return frame


def _board_seen(
    frame: np.ndarray,
    table: Calibration,
    board: Board,
    pose: Pose,
    pieces: reader.Pieces = reader.OURS,
) -> tuple[Calibration, np.ndarray, reader.Light]:
    """The board found lying at `pose` in `frame` as the reader sees it: its calibration
    (`board_calibration`: frame pixels to the board's reading mm), its small top-down
    image and the paper's light over it, with the colours of `pieces`: what teaching the
    box and teaching its colour die both start from."""
    reading = board_calibration(table, board, pose)
    half = top_down(frame, reading, reader.reading_layout(board), reader.HALF_PX_PER_MM)
    return reading, half, reader.Light(half, board, pieces)


def teach(
    frame_bgr: object,
    board: Board,
    layout: TableLayout,
    starts: Sequence[str] | None = None,
) -> TaughtBox:
    """The box taught from one frame (the module's docstring, "Teaching"): the board lying
    square to the table, panels at home upright, a train of each colour on `starts` (by
    default the board's first Starts, in the players' order of colours). TeachError says
    what could not be seen or told apart."""
    frame = _usable(frame_bgr)
    table, pose, picture = lying_square(frame, board, layout)
    reading, half, light = _board_seen(frame, table, board, pose)
    hues: dict[str, int] = {}
    panels: dict[str, np.ndarray] = {}
    slot = next(iter(board.slots.values()))
    size = (slot.height, slot.width)
    for panel in board.panels:
        s = board.slots[panel.home]
        centre = (s.x + s.width / 2, s.y + s.height / 2)
        corners = reader.rectangle_corners(centre, (0.0, -1.0), size)
        cut = reader.cut_many(frame, reading.to_pixels(corners).reshape(1, 4, 2), size,
                              reader.SLOT_PX_PER_MM)  # fmt: skip
        panels[panel.colour] = light.look_up(cut, centre)
        hues[panel.colour] = _colour(
            panels[panel.colour] * light.at(*centre),
            TeachError(
                "board_teach_panel",
                f"the {panel.colour} panel is not seen in its "
                f"home slot, {panel.home}: lay it there, the right way up",
                (panel.home,),
                colour=panel.colour,
            ),
        )
    spaces = list(starts or board.starts)[: len(art.TRAIN_COLOURS)]
    if len(spaces) < len(art.TRAIN_COLOURS):
        raise TeachError("board_teach_starts",
                         "a train of each colour needs a Start of its own to stand on")  # fmt: skip
    for colour, space in zip(art.TRAIN_COLOURS, spaces, strict=False):
        centre = board.centre(space, board.home)
        corners = reader.rectangle_corners(centre, board.heading(space, board.home), (20.0, 10.0))
        cut = reader.cut_many(frame, reading.to_pixels(corners).reshape(1, 4, 2), (20.0, 10.0),
                              reader.SPACE_PX_PER_MM)  # fmt: skip
        hues[colour] = _colour(
            cv2.LUT(cut, light.balance).astype(np.float32),
            TeachError(
                "board_teach_train",
                f"the {colour} train is not seen on {space}: put it there",
                (space,),
                colour=colour,
            ),
        )
    _apart(hues)
    trains = _shapes(frame, board, reading, half, hues, dict(zip(art.TRAIN_COLOURS, spaces,
                                                                  strict=False)))  # fmt: skip
    return TaughtBox(board, picture, hues, panels, trains, _paper(frame, table, layout, light))


_MARKER_WHITE = 0.8  # a marker's pixel this share of its brightest (95th percentile), at
# least: its paper, the white cells and the margin round them


def _paper(
    frame: np.ndarray, table: Calibration, layout: TableLayout, light: reader.Light
) -> tuple[float, float, float]:
    """The board's paper as a share of white paper's light in each channel (BGR, the
    brightest 1: `reader.Pieces.paper`): its colour in the frame against the table
    markers' white paper's (the same lamp falls on both, so its cast cancels out)."""
    value = frame.max(axis=2)
    inside = np.zeros(value.shape, np.uint8)
    for corners in layout.marker_corners().values():
        cv2.fillConvexPoly(inside, np.round(table.to_pixels(corners)).astype(np.int32), 1)
    bright = float(np.percentile(value[inside > 0], 95))
    white = np.array(cv2.mean(frame, mask=inside & (value >= _MARKER_WHITE * bright))[:3])
    tint = light.paper / np.maximum(white, 1.0)
    return tuple(round(float(share), 4) for share in tint / tint.max())


def _shapes(
    frame: np.ndarray,
    board: Board,
    reading: Calibration,
    half: np.ndarray,
    hues: Mapping[str, int],
    on: Mapping[str, str],
) -> dict[str, np.ndarray]:
    """Each train's shape (`reader.train_shape`), cut out of `frame` on its Start (`on`:
    colour to space) as the reader cuts a space and told by the taught colours; the train
    faces along the Start, towards its track's Finish. TeachError when one is too small
    for its two ends to be told apart."""
    light = reader.Light(half, board, reader.Pieces(_classes(hues)))
    shapes = {}
    for index, (colour, space) in enumerate(on.items()):
        centre = board.centre(space, board.home)
        heading = board.heading(space, board.home)
        corners = reader.rectangle_corners(centre, heading, reader.PATCH_MM)
        cut = reader.cut_many(frame, reading.to_pixels(corners).reshape(1, 4, 2),
                              reader.PATCH_MM, reader.SPACE_PX_PER_MM)  # fmt: skip
        classes, value, _ = light.look(cut)
        body = reader.train_body(classes, value, light.at(*centre), index)
        shapes[colour] = reader.train_shape(body, classes == index)
        if shapes[colour].mean() < reader.TRAIN_SHARE:
            raise TeachError("board_teach_whole", f"the {colour} train is not seen whole on "
                             f"{space}: put it there, facing along the track", (space,),
                             colour=colour)  # fmt: skip
    return shapes


def _colour(look: np.ndarray, unseen: TeachError) -> int:
    """The hue of a piece's cut-out (`_hue`); `unseen` raised when it shows none."""
    hue = _hue(look)
    if hue is None:
        raise unseen
    return hue


def _apart(hues: Mapping[str, int]) -> None:
    """TeachError when two of the taught colours are too alike for the camera to tell."""
    alike = _too_alike(hues)
    if alike is not None:
        a, b = alike
        raise TeachError("board_teach_alike", f"the {a} and the {b} pieces look alike to the "
                         "camera: their colours cannot be told apart under this light",
                         a=a, b=b)  # fmt: skip


def _too_alike(hues: Mapping[str, int]) -> tuple[str, str] | None:
    """The first two of `hues` (in their order) too alike for the camera to tell, or None."""
    names = list(hues)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            gap = abs(hues[a] - hues[b])
            if min(gap, 180 - gap) < _HUE_APART:
                return a, b
    return None


def teach_die(
    frame_bgr: object, box: TaughtBox, layout: TableLayout, colour: str
) -> tuple[int, np.ndarray]:
    """The colour die's `colour` face's hue (OpenCV's 0-179, white-balanced as the box's
    pieces are) and the die as the camera saw it (BGR, `_DIE_PICTURE_MM` square: for the
    family to check), from a frame of the taught box's board with the die alone beside
    it, that face up, where dice are thrown (`reader.dice_band`). TeachError says what is
    not seen: the board, or not exactly one die-sized colourful blob beside it."""
    frame = _usable(frame_bgr)
    table = calibrate(frame, layout)
    pose = None if table is None else find_board(frame, box, table, layout)
    if table is None or pose is None:
        raise TeachError("board_teach_unfound", "the board is not found among the table's "
                         "markers: lay it there, uncovered")  # fmt: skip
    reading, half, light = _board_seen(frame, table, box.board, pose, box.pieces)
    classes, _, saturation = light.half
    # as colourful as an orange die, at least (wood is not), and no train's colour
    colourful = (saturation >= reader.ORANGE_DIE * 255) & (classes >= len(art.TRAIN_COLOURS))
    spots = reader.die_spots(colourful & (reader.dice_band(box.board, half.shape) > 0))
    hue = None
    if len(spots) == 1:
        x, y, (ys, xs) = spots[0]
        hue = _hue(cv2.LUT(half[ys, xs][:, None], light.balance).astype(np.float32))
    if hue is None:
        raise TeachError("board_teach_die", f"the colour die is not seen alone beside the "
                         f"board showing {colour}: lay it there, that face up, nothing else "
                         "beside the board", colour=colour)  # fmt: skip
    centre = (x - reader.APRON_MM, y - reader.APRON_MM)  # the spot's reading mm, on the board's
    corners = reader.rectangle_corners(centre, (0.0, -1.0), _DIE_PICTURE_MM)
    picture = reader.cut_many(frame, reading.to_pixels(corners).reshape(1, 4, 2),
                              _DIE_PICTURE_MM, reader.SPACE_PX_PER_MM)  # fmt: skip
    return hue, picture


_DIE_PICTURE_MM = (40.0, 40.0)  # the die's picture for the family: it and the table round it


def with_dice(box: TaughtBox, dice: Mapping[str, int]) -> TaughtBox:
    """`box` with its colour die's faces taught (`teach_die`, one hue a face); TeachError
    when two faces, or a face and a train, are too alike to tell apart (a train beside the
    board would be taken for the die)."""
    for colour, hue in dice.items():
        like = (t for t in art.TRAIN_COLOURS if _too_alike({t: box.hues[t], "die": hue}))
        train = next(like, None)
        if train is not None:
            raise TeachError("die_like_train", f"the die with the {colour} up and the {train} "
                             "train look alike to the camera: their colours cannot be told "
                             "apart under this light", colour=colour, other=train)  # fmt: skip
    alike = _too_alike(dice)
    if alike is not None:
        other, colour = alike
        raise TeachError("die_like_face", f"the die with the {colour} up and with the {other} "
                         "up look alike to the camera: their colours cannot be told apart "
                         "under this light", colour=colour, other=other)  # fmt: skip
    return replace(box, dice=dict(dice))
