"""Train the pip-count network of `pip_model.py` on the odd-numbered real dice photos.

Run: python -m companion.vision.train_pip_model [DIR ...] [--out FILE]
(DIRs default to shared/data/dice-real/overhead-tray and webcam-table beside the checkout;
the shipped weights came from exactly that, in that order.)

Why this recipe: the network must see what the reader will show it, so its examples are the
die blobs `pips.py` itself finds (square or not), cut out the same way, not the labelled
boxes. Only the odd-numbered images of each folder (sorted by name, the `eval-dice --every 2
--offset 1` half) are used, so the even half stays a fair test. Each blob takes the pip count of the
labelled die it would be scored against by `eval-dice` (its rectangle's centre at the label's
place), or 0 when there is none: tray marks, pieces of a pile, and the dark clutter on the
webcam table, which would otherwise pass for a 1 or a 6. Each blob is cut out once as found
and four times with its rectangle turned up to 8 degrees, scaled 0.9-1.12 and moved up to 6 %
of its side (the rectangle of a real blob is never exact), and every cut is shown in all
eight turns and flips. The network (1024 inputs, 64 ReLU, 7 softmax outputs) is fitted by
Adam on cross-entropy with a little weight decay, 40 epochs of fixed-seed mini-batches, so a
rerun on the same files gives the same weights up to floating-point summation order.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from companion.vision.eval_dice import at_place, default_boxes, image_paths, load_labels
from companion.vision.pip_model import WEIGHTS, cut_die, features, forward, turns_and_flips
from companion.vision.pips import PipDie, _die_blobs, _die_mask

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"
FOLDERS = ("overhead-tray", "webcam-table")
SEED = 0
JITTERS = 4  # extra cuts per blob
JITTER_TURN, JITTER_SCALE, JITTER_SHIFT = 8.0, (0.9, 1.12), 0.06
HIDDEN, EPOCHS, BATCH, RATE, DECAY = 64, 40, 64, 3e-3, 1e-4


def examples(folder: Path, rng: np.random.Generator) -> tuple[list, list]:
    """Features (1024,) and pip counts of every die blob in the odd-numbered images."""
    boxes = default_boxes(folder)
    rows, counts = [], []
    for path in image_paths(folder)[1::2]:
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        labels = load_labels(path.with_suffix(".txt"), bgr.shape[1], bgr.shape[0])
        lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
        for x, y, part, _ in _die_blobs(_die_mask(bgr, lab)):
            ys, xs = np.nonzero(part)
            rect = cv2.minAreaRect(np.stack([xs + x, ys + y], axis=1).astype(np.float32))
            (cx, cy), (rw, rh), angle = rect
            side = max(rw, rh)
            where = PipDie(cx, cy, side, 0, 0.0)
            count = next((d.pips for d in labels if at_place(where, d, boxes)), 0)
            cuts = [rect]
            for _ in range(JITTERS):
                shift = rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2) * side
                size = side * rng.uniform(*JITTER_SCALE)
                turn = angle + rng.uniform(-JITTER_TURN, JITTER_TURN)
                cuts.append(((cx + shift[0], cy + shift[1]), (size, size), turn))
            for cut in cuts:
                for view in turns_and_flips(features(cut_die(bgr, cut))):
                    rows.append(view.ravel())
                    counts.append(count)
    return rows, counts


def fit(x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """One-hidden-layer softmax network by Adam on mini-batches, seeded."""
    rng = np.random.default_rng(SEED)
    n, width = x.shape
    layers = [
        rng.normal(0, np.sqrt(2 / width), (width, HIDDEN)).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, 7)).astype(np.float32),
        np.zeros(7, np.float32),
    ]
    first = [np.zeros_like(p) for p in layers]
    second = [np.zeros_like(p) for p in layers]
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            rows = order[start : start + BATCH]
            xb, yb = x[rows], y[rows]
            w1, b1, w2, _ = layers
            hidden = np.maximum(xb @ w1 + b1, 0.0)
            error = forward(layers, xb, np.matmul)
            error[np.arange(len(yb)), yb] -= 1.0
            error /= len(yb)
            back = error @ w2.T
            back[hidden <= 0] = 0.0
            grads = [xb.T @ back + DECAY * w1, back.sum(0), hidden.T @ error + DECAY * w2]
            grads.append(error.sum(0))
            step += 1
            for p, g, m, v in zip(layers, grads, first, second, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return dict(zip(("w1", "b1", "w2", "b2"), layers, strict=True))


def main(argv: list[str] | None = None) -> None:
    """Train on the odd-numbered images of each folder and write the weights."""
    parser = argparse.ArgumentParser(description="Train the pip-count network.")
    parser.add_argument("folders", type=Path, nargs="*", default=[DATA / f for f in FOLDERS])
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(SEED)
    rows, counts = [], []
    for folder in args.folders:
        found = examples(folder, rng)
        rows += found[0]
        counts += found[1]
    x, y = np.array(rows, np.float32), np.array(counts)
    print(f"{len(y) // 40} blobs ({len(y)} views), counts {np.bincount(y, minlength=7)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **fit(x, y))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
