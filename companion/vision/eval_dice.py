"""Measure the pip-dice reader against a folder of labelled photographs.

The folder holds `NAME.jpg` images with `NAME.txt` YOLO labels beside them (`class cx cy w h`,
class = pips - 1, box in fractions of the image). Two kinds of box exist in the real data, and
the place a reading must land depends on which (see shared/data/dice-real/README.md):

* `die`  — the box is the whole die; the reported centre must lie inside it.
* `pips` — the box is the pip pattern only (a 1 is one pip's box, so tiny); the reported
  centre must lie inside it or within half a box size of it, which we take per axis: within
  the box grown by half its width left and right and half its height above and below.

A labelled die is read when some reported die is at the right place with the right pip count;
each report reads at most one labelled die (a maximum matching, so one report never counts
twice). An image is exact when every labelled die is read and nothing else is reported.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.arguments import CommandLine
from companion.vision import dice_net
from companion.vision.pips import PipDie, read_pips
from companion.vision.plain_pass import plain_pass_ms

# the labelled dice photographs, beside the checkout (not in it): <repo>/../shared/data/dice-real
PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
BOX_KINDS = ("pips", "die")


class UnreadableImage(ValueError):
    """An image file OpenCV cannot decode: a measurement with holes in it would mislead."""


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die in pixels: the box centre and size, and the true pip count."""

    x: float
    y: float
    w: float
    h: float
    pips: int


def default_boxes(folder: Path) -> str:
    """Guess the box kind from the folder name: only the webcam set labels pip patterns."""
    return "pips" if "webcam" in folder.name.lower() else "die"


def load_labels(path: Path, width: int, height: int) -> list[LabelledDie]:
    """Read a YOLO label file; a missing file means an image with no dice."""
    if not path.exists():
        return []
    labels = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) != 5:
            continue
        cls, cx, cy, w, h = (float(f) for f in fields)
        labels.append(LabelledDie(cx * width, cy * height, w * width, h * height, int(cls) + 1))
    return labels


def at_place(die: PipDie, label: LabelledDie, boxes: str) -> bool:
    """Whether a reading's centre is where the README says it must be for this box kind."""
    grow = 1.0 if boxes == "pips" else 0.5  # half-extent of the accepted region, in box sizes
    return abs(die.x - label.x) <= grow * label.w and abs(die.y - label.y) <= grow * label.h


def match(dice: Sequence[PipDie], labels: Sequence[LabelledDie], boxes: str) -> int:
    """Largest number of labels read, each by a distinct reading (Kuhn's augmenting paths)."""
    fits = [
        [j for j, d in enumerate(dice) if d.pips == lab.pips and at_place(d, lab, boxes)]
        for lab in labels
    ]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in range(len(labels)))


def image_paths(folder: Path) -> list[Path]:
    """The images of a folder, sorted so runs are reproducible."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def as_grey(image: np.ndarray) -> np.ndarray:
    """The photograph as a camera without colour gives it: one brightness, in three equal
    channels (what OpenCV's capture hands on from a mono sensor, and what a dim room's
    washed-out colour comes near)."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def evaluate(
    folder: Path,
    boxes: str | None = None,
    every: int = 1,
    offset: int = 0,
    grey: bool = False,
) -> dict:
    """Run the reader over every image of `folder` and count dice read and images exact.

    Raises FileNotFoundError when the folder is missing or holds no images, so callers can
    tell "nothing to measure" apart from "measured zero", and UnreadableImage when an image
    cannot be decoded (skipping it would quietly change what was measured). `every` > 1
    measures only every n-th image (sorted by name), starting at `offset`: a quicker look
    for tests, and a split (every=2, offset 1 to tune on, offset 0 to check) that shows
    when tuning has fitted the images rather than the dice.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no such folder: {folder}")
    paths = image_paths(folder)[max(0, offset) :: max(1, every)]
    if not paths:
        raise FileNotFoundError(f"no images (.jpg/.jpeg/.png) in {folder}")
    boxes = boxes or default_boxes(folder)
    if boxes not in BOX_KINDS:
        raise ValueError(f"boxes must be one of {BOX_KINDS}, not {boxes!r}")
    total = read = exact = reported = 0
    per_pips = {n: [0, 0] for n in range(1, 7)}  # pips -> [labelled, read]
    failures: list[str] = []
    reader_ms: list[float] = []
    plain_ms: list[float] = []
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # both timed on one thread, as a Pi core would run them
    try:
        for path in paths:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise UnreadableImage(f"cannot read image {path}")
            if grey:
                image = as_grey(image)
            labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
            plain_ms.append(plain_pass_ms(image))
            start = time.perf_counter()
            dice = read_pips(image)
            reader_ms.append(1000.0 * (time.perf_counter() - start))
            hits = match(dice, labels, boxes)
            for lab in labels:
                per_pips[lab.pips][0] += 1
                # per-pip-count tally: a label is read if it alone can be matched
                per_pips[lab.pips][1] += match(dice, [lab], boxes)
            total += len(labels)
            read += hits
            reported += len(dice)
            if hits == len(labels) and len(dice) == len(labels):
                exact += 1
            else:
                failures.append(path.name)
    finally:
        cv2.setNumThreads(threads)
    images = len(paths)
    return {
        "folder": str(folder),
        "boxes": boxes,
        "grey": grey,
        "dice": total,
        "read": read,
        "accuracy": read / total if total else 0.0,
        "images": images,
        "exact": exact,
        "exact_rate": exact / images,
        "reported": reported,
        "by_pips": {str(n): {"dice": d, "read": r} for n, (d, r) in per_pips.items()},
        "ms_per_image": float(np.mean(reader_ms)),
        **timing(reader_ms, plain_ms),
        "not_exact": failures,
    }


def timing(reader_ms: list[float], plain_ms: list[float]) -> dict[str, float]:
    """Median and 95th percentile of the reader's and the plain OpenCV pass's times per
    image, and their ratios: absolute times do not travel between machines, ratios do."""
    reader = np.percentile(reader_ms, [50, 95])
    plain = np.percentile(plain_ms, [50, 95])
    return {
        "ms_p50": round(float(reader[0]), 2),
        "ms_p95": round(float(reader[1]), 2),
        "plain_pass_ms_p50": round(float(plain[0]), 3),
        "plain_pass_ms_p95": round(float(plain[1]), 3),
        "latency_ratio_p50": round(float(reader[0] / max(plain[0], 1e-3)), 1),
        "latency_ratio_p95": round(float(reader[1] / max(plain[1], 1e-3)), 1),
    }


def format_table(result: dict) -> str:
    """A short human-readable report of one evaluation."""
    lines = [
        f"folder   {result['folder']}  (boxes: {result['boxes']}"
        f"{', turned grey' if result['grey'] else ''})",
        f"dice     {result['read']}/{result['dice']} read  ({100 * result['accuracy']:.1f}%)",
        f"images   {result['exact']}/{result['images']} exact  "
        f"({100 * result['exact_rate']:.1f}%), {result['reported']} dice reported",
        f"speed    {result['ms_p50']:.1f} ms per image (p95 {result['ms_p95']:.1f}): "
        f"{result['latency_ratio_p50']}x (p95 {result['latency_ratio_p95']}x) a plain OpenCV "
        f"pass over the image (p50 {result['plain_pass_ms_p50']:.2f} ms)",
        "",
        "pips  dice  read  accuracy",
    ]
    for pips, row in result["by_pips"].items():
        share = f"{100 * row['read'] / row['dice']:.1f}%" if row["dice"] else "-"
        lines.append(f"{pips:>4}  {row['dice']:>4}  {row['read']:>4}  {share:>8}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`companion eval-dice DIR [--boxes pips|die] [--every N [--offset K]] [--grey] [--json]`:
    0 ok, 2 bad input."""
    parser = CommandLine(
        prog="companion eval-dice",
        description="Measure the pip-dice reader on a folder of YOLO-labelled photographs.",
    )
    parser.add_argument("folder", type=Path, help="folder of NAME.jpg + NAME.txt pairs")
    parser.add_argument(
        "--boxes",
        choices=BOX_KINDS,
        default=None,
        help="what the label boxes surround: the pip pattern or the whole die "
        "(default: 'pips' if the folder name contains 'webcam', else 'die')",
    )
    parser.add_argument(
        "--every", type=int, default=1, metavar="N", help="measure only every N-th image"
    )
    parser.add_argument(
        "--offset", type=int, default=0, metavar="K", help="with --every, start at the K-th image"
    )
    parser.add_argument(
        "--grey",
        action="store_true",
        help="turn each photograph grey before reading it, as a camera without colour sees it",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--counter",
        type=Path,
        default=None,
        metavar="ONNX",
        help="read with another pip-count net, colour and grey frames alike (a "
        "cross-validation fold's, from python -m companion.vision.train_dice_net --folds K)",
    )
    args = parser.parse_args(argv)
    shipped = dice_net.COUNTER, dice_net.GREY_COUNTER
    try:
        if args.counter is not None:
            if not args.counter.is_file():
                raise FileNotFoundError(f"no such net: {args.counter}")
            dice_net.COUNTER = dice_net.GREY_COUNTER = args.counter
        result = evaluate(args.folder, args.boxes, args.every, args.offset, args.grey)
    except (
        FileNotFoundError,
        NotADirectoryError,
        PermissionError,
        UnreadableImage,
        cv2.error,  # a --counter file OpenCV cannot read as a net
    ) as error:
        if args.json:
            print(json.dumps({"error": str(error)}))
        else:
            print(f"eval-dice: {error}", file=sys.stderr)
        return 2
    finally:
        dice_net.COUNTER, dice_net.GREY_COUNTER = shipped
    print(json.dumps(result) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
