"""Real dice on the synthetic table: dice cut out of labelled photographs.

The drawn dice (companion/vision/dice_art.py) are what our readers were tuned on; a die
cut from a photograph brings what a real die looks like (its colour and gloss, its pips'
size and ink, a logo on a 1, marbling) under the same camera model. The photographs are the
labelled set in shared/data/dice-real/ (its README: YOLO boxes, class = pips - 1). They are
not in the repository, so they are read from a folder given at run time, and only when a
scene first asks for a die.

Only `overhead-tray/` is used: its box is the whole die seen from straight above, so the
die's top face lies inside it. `webcam-table/` is not: its box is the pip pattern alone (a 1
is one pip's box), the slanted webcam shows the same white on the die's sides as on its top
face, and that white lies on pale wood, so neither the box nor the picture says where the
top face ends; grown boxes would cut pips off or take in side faces and table.

By default only the even half of the photographs (sorted by name, every second from the
first) is used: the dice readers are trained and tuned on the odd half, so real dice on the
synthetic table that measure them must be dice they have never seen. The odd half
(`half="odd"`) is what the table's reader is tuned on and its counter's table examples are
cut from (companion/games/caboose/vision/dice_examples.py). A die whose box overlaps another's, or
touches the photograph's edge, is left out (its outline is not its own). Each die's face is
found inside its box (GrabCut seeded by the box: the box's outside is the tray, its middle
the die) and its smallest turned rectangle taken; a die whose rectangle is not a plausible
square face of the box (a die tipped on its side, a cut that kept a pip) is left out too.
The face is turned upright and kept as a rounded square with a soft edge, its pip count
from the label.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from companion.vision.dice_art import DIE_MM, rounded_rect
from companion.vision.eval_dice import PHOTOS, image_paths, load_labels

FOLDER = "overhead-tray"  # the one set whose boxes are whole dice (the docstring says why)
# the photographs' dice grouped by set (colour and style), each half's dice by their sources;
# the file says how the grouping was made (it lives beside the benches that measure it)
SETS = Path(__file__).resolve().parents[2] / "bench" / "pip_dice_sets.json"
TAUGHT = 6  # dice of a set taught (`companion enroll --codes pips` lays each face once)
HALVES = ("even", "odd")  # the held-out half (what is reported) and the half tuned on
_T = TypeVar("_T")

_MARGIN = 0.25  # the tray around a box that GrabCut is shown, in box sides
_SEED = 0.3  # the box's middle taken as surely die: its inner (1 - 2 x this) of each side
_FACE_AREA = (0.4, 1.1)  # a face's rectangle against its box's area
_SQUARE = 1.3  # the most a face's rectangle may be longer than wide
_FILL = 0.85  # the least share of its rectangle a face's outline fills
_CORNER = 2.5 / DIE_MM  # corner radius in die sides (dice_art's dice)
_FEATHER_MM = 0.35  # the soft edge's sigma: a cut's last pixels of tray blend into the table


class PhotoDiceMissing(FileNotFoundError):
    """The labelled photographs are not where they were looked for: one line says where,
    and how to point at them."""


@dataclass(frozen=True, eq=False)  # one die, one object: pictures are cached by identity
class PhotoDie:
    """One real die from a photograph: its pip count (the label's), where it came from, and
    its top face cut upright (BGR, square, at the photograph's own scale)."""

    pips: int
    source: str  # "IMAGE.jpg #k": the photograph and the label's line
    face: np.ndarray = field(repr=False)

    def picture(self, px_per_mm: float) -> np.ndarray:
        """The die seen from above at `px_per_mm`, as the renderer's pictures are: BGRA, a
        DIE_MM square whose alpha is a rounded outline with a soft edge."""
        return _picture(self, px_per_mm)


@dataclass(frozen=True)
class _Label:
    path: Path
    index: int
    pips: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels


class PhotoDice:
    """The real dice of one dice-real folder, cut on demand: `len` and indexing give the
    dice whose labels qualify (photographs of `half`, by default the even, held-out one; a
    box of its own inside the picture); `die(i)` cuts die i from its photograph (once) or
    gives None when its face cannot be cut; `usable()` cuts them all."""

    def __init__(self, folder: Path | str | None = None, half: str = "even") -> None:
        if half not in HALVES:
            raise ValueError(f"unknown half {half!r}: use even (held out) or odd")
        root = Path(folder) if folder is not None else PHOTOS
        photos = root / FOLDER if (root / FOLDER).is_dir() else root
        if not photos.is_dir():
            raise PhotoDiceMissing(
                f"no dice photographs at {root}: real dice need the labelled set "
                f"dice-real/{FOLDER} (give its folder with --dice-photos DIR)"
            )
        self.folder = photos
        self.half = half
        self._labels = _half_labels(photos, HALVES.index(half))
        if not self._labels:
            raise PhotoDiceMissing(
                f"no labelled dice photographs (NAME.jpg + NAME.txt) in {photos}"
            )
        self._cut: dict[int, PhotoDie | None] = {}

    def __len__(self) -> int:
        return len(self._labels)

    def die(self, index: int) -> PhotoDie | None:
        """Die `index` cut from its photograph, or None when no square face was found."""
        if index not in self._cut:
            label = self._labels[index]
            face = _cut_face(str(label.path), label.box)
            source = self.source(index)
            self._cut[index] = None if face is None else PhotoDie(label.pips, source, face)
        return self._cut[index]

    def found(self, index: int) -> tuple[Path, tuple] | None:
        """Die `index`'s photograph and its top face's rectangle there (`face_rect`), as a
        reader would find it; None when no square face was found."""
        label = self._labels[index]
        image = cv2.imread(str(label.path), cv2.IMREAD_COLOR)
        rect = None if image is None else face_rect(image, label.box)
        return None if rect is None else (label.path, rect)

    def pips(self, index: int) -> int:
        """Die `index`'s pip count, as labelled."""
        return self._labels[index].pips

    def source(self, index: int) -> str:
        """Die `index`'s photograph and label line, "IMAGE.jpg #k" (as `PhotoDie.source`)."""
        label = self._labels[index]
        return f"{label.path.name} #{label.index}"

    def usable(self) -> list[PhotoDie]:
        """Every die whose face could be cut, in the photographs' order."""
        return [d for i in range(len(self)) if (d := self.die(i)) is not None]


def _half_labels(folder: Path, offset: int) -> list[_Label]:
    """The qualifying labels of every second photograph from `offset` (0: the even half):
    a box inside the picture that overlaps no other box of its photograph."""
    labels: list[_Label] = []
    for path in image_paths(folder)[offset::2]:
        size = _image_size(path)
        if size is None:
            continue
        width, height = size
        found = load_labels(path.with_suffix(".txt"), width, height)
        boxes = [(d.x - d.w / 2, d.y - d.h / 2, d.x + d.w / 2, d.y + d.h / 2) for d in found]
        for index, (die, box) in enumerate(zip(found, boxes, strict=True)):
            inside = box[0] > 0 and box[1] > 0 and box[2] < width - 1 and box[3] < height - 1
            alone = not any(_overlap(box, other) for j, other in enumerate(boxes) if j != index)
            if inside and alone and 1 <= die.pips <= 6:
                labels.append(_Label(path, index, die.pips, box))
    return labels


def _image_size(path: Path) -> tuple[int, int] | None:
    """A photograph's (width, height), which its labels are fractions of."""
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    return None if image is None else (image.shape[1], image.shape[0])


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _cut_face(path: str, box: tuple[float, float, float, float]) -> np.ndarray | None:
    """The die's top face inside `box`, turned upright, at the photograph's scale; None when
    the cut is no square face of the box."""
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    found = None if image is None else face_rect(image, box)
    if found is None:
        return None
    (fx, fy), (fw, fh), angle = found
    side = math.ceil((fw + fh) / 2)
    turn = cv2.getRotationMatrix2D((fx, fy), angle, 1.0)
    turn[:, 2] += np.array([(side - 1) / 2 - fx, (side - 1) / 2 - fy])
    return cv2.warpAffine(image, turn, (side, side), flags=cv2.INTER_LINEAR)


def face_rect(image: np.ndarray, box: tuple[float, float, float, float]) -> tuple | None:
    """The die's top face inside `box` of the photograph `image`: its smallest turned
    rectangle (a `cv2.minAreaRect`, in the photograph's pixels, as the dice readers find a
    die), or None when the cut is no square face of the box."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = box
    margin = _MARGIN * max(x1 - x0, y1 - y0)
    cx0, cy0 = int(max(x0 - margin, 0)), int(max(y0 - margin, 0))
    cx1, cy1 = int(min(x1 + margin, width)), int(min(y1 + margin, height))
    crop = image[cy0:cy1, cx0:cx1]
    bx0, by0 = round(x0 - cx0), round(y0 - cy0)
    bx1, by1 = round(x1 - cx0), round(y1 - cy0)
    mask = np.full(crop.shape[:2], cv2.GC_BGD, np.uint8)
    mask[by0:by1, bx0:bx1] = cv2.GC_PR_FGD
    inset = int(_SEED * min(bx1 - bx0, by1 - by0))
    mask[by0 + inset : by1 - inset, bx0 + inset : bx1 - inset] = cv2.GC_FGD
    background, foreground = np.zeros((1, 65)), np.zeros((1, 65))
    # GrabCut's colour models start from OpenCV's global random numbers: seeded here, a die
    # is cut the same whatever ran before it in the process (a test, another scene)
    cv2.setRNGSeed(0)
    cv2.grabCut(crop, mask, None, background, foreground, 4, cv2.GC_INIT_WITH_MASK)
    die = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    (fx, fy), (fw, fh), angle = cv2.minAreaRect(hull)
    box_w, box_h = x1 - x0, y1 - y0
    if not (
        _FACE_AREA[0] <= fw * fh / (box_w * box_h) <= _FACE_AREA[1]
        and max(fw, fh) <= _SQUARE * min(fw, fh)
        and cv2.contourArea(hull) >= _FILL * fw * fh  # a rounded square fills its rectangle
        and min(fw, fh) >= 1.15 * (1 - 2 * _SEED) * min(box_w, box_h)  # more than the seed
    ):
        return None
    return (fx + cx0, fy + cy0), (fw, fh), angle


def set_sources(name: str, half: str, sets: Path = SETS) -> set[str]:
    """The sources ("IMAGE.jpg #k") of the dice of set `name` in `half` of the photographs
    (`sets`: the grouping file); ValueError names the sets there are when it is none."""
    try:
        groups = json.loads(sets.read_text())["sets"]
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"cannot read the dice sets in {sets}: {error}") from error
    if name not in groups:
        raise ValueError(f"no dice set {name!r} in {sets}: use one of {', '.join(groups)}")
    return set(groups[name][half])


def taught_first(dice: Sequence[_T], pips: Callable[[_T], int], seed: int) -> list[_T]:
    """TAUGHT of `dice` to teach, as a family lays them: one of each face the dice show
    (the first in a seeded order), then any others up to TAUGHT."""
    order = list(range(len(dice)))
    random.Random(seed).shuffle(order)
    chosen: list[int] = []
    for count in range(1, 7):
        chosen += [i for i in order if pips(dice[i]) == count][:1]
    chosen += [i for i in order if i not in chosen]
    return [dice[i] for i in chosen[:TAUGHT]]


@cache
def _picture(die: PhotoDie, px_per_mm: float) -> np.ndarray:
    size = max(round(DIE_MM * px_per_mm), 4)
    face = cv2.resize(die.face, (size, size), interpolation=cv2.INTER_AREA)
    outline = rounded_rect((size, size), max(round(_CORNER * size), 1))
    inner = cv2.erode(outline, np.ones((3, 3), np.uint8))  # the soft edge lies inside
    alpha = cv2.GaussianBlur(inner, (0, 0), max(_FEATHER_MM * px_per_mm, 0.5))
    return np.dstack([face, np.minimum(alpha, outline)])


def photo_dice_stream(
    photos: PhotoDice, seed: int, used: set[str], only: set[str] | None = None
) -> Iterator[PhotoDie]:
    """The photographs' dice in a seeded order, round and round, each cut when first
    needed and those that cannot be cut left out (and, given `only`, those whose source is
    not in it); each one's source is noted in `used`. PhotoDiceMissing when not one can be
    cut."""
    cut: list[PhotoDie] = []
    for index in np.random.default_rng(seed).permutation(len(photos)):
        if only is not None and photos.source(int(index)) not in only:
            continue
        die = photos.die(int(index))
        if die is not None:
            cut.append(die)
            used.add(die.source)
            yield die
    if not cut:
        raise PhotoDiceMissing(f"no die could be cut from the photographs in {photos.folder}")
    while True:
        yield from cut


def add_photo_dice_options(parser: argparse.ArgumentParser) -> None:
    """`--dice-photos DIR` and `--dice-half even|odd`: where the real dice of an
    `eval-vision --dice real` come from, one spelling for every game."""
    parser.add_argument(
        "--dice-photos",
        type=Path,
        default=PHOTOS,
        metavar="DIR",
        help=f"with --dice real, the dice-real folder (default {PHOTOS})",
    )
    parser.add_argument(
        "--dice-half",
        choices=HALVES,
        default="even",
        help="with --dice real, which half of the photographs: even (held out, the figure "
        "reported; default) or odd (the half the readers are tuned on)",
    )
