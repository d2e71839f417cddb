"""A small learned check of a die blob's pip count, for the die-first reader in `pips.py`.

Why: the hand-made reader miscounts dice whose pips do not come out as round blobs (dark
dice with red pips, glossy or marbled dice, 1-faces with a logo), yet those faces are plain
to see once the die is squared up and shrunk. So each die blob is cut out along its
minimum-area rectangle into a 16 x 16 patch of grey, blue, green and red, each relative to the
die's own middle, and a one-hidden-layer network (plain numpy, so it runs wherever numpy
does, with no cv2.ml, which OpenCV 5 moved out of the main package) gives the chances of 0
(not a die) to 6 pips. The weights are in `assets/pip_count_mlp.npz`; they come from
`python -m companion.vision.train_pip_model`, which says exactly how.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

WEIGHTS = Path(__file__).with_name("assets") / "pip_count_mlp.npz"
CUT = 32  # the die is first cut out at this size...
SIDE = 16  # ... then averaged down to this: pips are 2-3 cells wide, JPEG noise is gone
CORE = SIDE // 4  # the body colour is the median inside this border (pips are a minority)
EDGE = CORE // 2  # the contrast scale skips this border, where the tray or a neighbour is
SCALE_FLOOR = 8.0  # grey levels added to the scale, so a plain face is not blown up to noise


def cut_die(bgr: np.ndarray, rect: tuple) -> np.ndarray:
    """The die under a `cv2.minAreaRect` result, squared (on its longer side) to CUT x CUT.

    The face's rows and columns then run along the patch's, up to a quarter turn or a flip,
    which the network sees all eight of.
    """
    (cx, cy), (rw, rh), angle = rect
    side = max(rw, rh)
    corners = cv2.boxPoints(((cx, cy), (side, side), angle)).astype(np.float32)
    target = np.float32([[0, CUT], [0, 0], [CUT, 0]])
    warp = cv2.getAffineTransform(corners[:3], target)
    return cv2.warpAffine(
        bgr, warp, (CUT, CUT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def features(cut: np.ndarray) -> np.ndarray:
    """(SIDE, SIDE, 4) grey, blue, green, red of a cut-out die, minus the body's median and
    over the die's 95th-percentile contrast: pips of any colour on any body look alike."""
    small = cv2.resize(cut, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    planes = np.dstack([grey, small]).astype(np.float32)
    body = np.median(planes[CORE:-CORE, CORE:-CORE].reshape(-1, 4), axis=0)
    offset = planes - body
    scale = np.percentile(np.abs(offset[EDGE:-EDGE, EDGE:-EDGE]), 95) + SCALE_FLOOR
    return offset / scale


def turns_and_flips(patch: np.ndarray) -> list[np.ndarray]:
    """The eight quarter turns and mirror images of a patch: all show the same count."""
    out = []
    for k in range(4):
        turned = np.rot90(patch, k)
        out += [turned, turned[:, ::-1]]
    return out


@cache
def _weights() -> tuple[np.ndarray, ...]:
    """The trained layers (w1, b1, w2, b2), loaded once."""
    with np.load(WEIGHTS) as data:
        return tuple(data[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2"))


def _unthreaded(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Matrix product without BLAS: on eight rows a threaded BLAS wakes its worker threads,
    which on a loaded machine cost 20 times the sum itself and slowed the whole reader."""
    return np.einsum("ij,jk->ik", a, b)


def forward(
    layers: Sequence[np.ndarray], x: np.ndarray, product: Callable = _unthreaded
) -> np.ndarray:
    """Softmax chances of 0-6 pips for each row of flattened features (training, with
    thousands of rows, passes np.matmul)."""
    w1, b1, w2, b2 = layers
    logits = product(np.maximum(product(x, w1) + b1, 0.0), w2) + b2
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(axis=1, keepdims=True)


def count_chances(bgr: np.ndarray, rect: tuple) -> np.ndarray:
    """Chances (7,) that the die under `rect` shows 0 (no die) to 6 pips, averaged over its
    eight turns and flips so the answer does not depend on which corner came first."""
    views = turns_and_flips(features(cut_die(bgr, rect)))
    batch = np.stack([view.ravel() for view in views]).astype(np.float32)
    return forward(_weights(), batch).mean(axis=0)
