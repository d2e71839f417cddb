"""The pip counter: a small convolutional net, run by OpenCV's dnn module from an ONNX file.

Why: the hand-made reader in `pips.py` counts pips from round blobs, which glare, logos,
marbled and translucent bodies break up, yet those faces are plain to see once the die is
cut out and squared up. The counter looks at one die cut out square along a rectangle
(CUT x CUT pixels, the die's side times MARGIN, so a rim of table shows) and gives the
chances of 0 (not a die) to 6 pips. It was trained on real photographs
(`python -m companion.vision.train_dice_net`, only on the odd-numbered images of the
labelled folders), replacing a one-hidden-layer numpy network that saw 16 x 16 averages.

It is plain 3 x 3 convolutions, ReLUs and max pools (nothing OpenCV 4.8-5.x cannot import),
and its input is normalised by the die's own colour, so lighting and dice colour matter
less. No PyTorch at run time: cv2.dnn reads the ONNX file, which the training script writes
itself (it needs no onnx package).
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision.frame_checks import colourless

SHIPPED = Path(__file__).with_name("assets") / "pip_counter.onnx"  # a photograph's dice
# a photograph without colour: the counter fine-tuned on cut-outs turned grey near a grey
# camera's own mix (`train_dice_net --start SHIPPED --grey-share 1 --grey-luma 1`), so red
# pips on a black die, faint in grey, are counted (held-out tray turned grey: 644 dice of
# 728 with the colour net, 659 fine-tuned on grey of random channel weights, 661 near the
# camera's mix); colour frames keep the shipped net and its figures. At the table it
# gives a grey frame's dice their counts (`count_many`'s `table`), but whether a faint blob
# is a die at all stays the colour net's (`grey_counter`): asked both, the grey one took
# more than twice as many faint blobs of a grey frame for dice (tuning seed 7000, 100 hard
# grey tables of real dice: 6 -> 15 seen where none lie), and so split, none more are seen
# (seed 7000: 4 either way; hidden seed 93500, 300 hard grey tables of held-out real dice:
# right 396 -> 414 of 796, asked 272 -> 226, wrong yet surely 5 and seen where none lie 17
# either way)
SHIPPED_GREY = SHIPPED.with_name("pip_counter_grey.onnx")
# the table's colour frames (`dice.read_dice`'s counts): small, blurred, noisy cut-outs of a
# tilted camera's frame, unlike a photograph's: the counter fine-tuned on more of them
# (`train_dice_net --start SHIPPED --table ... --grey-share`), which asks less about real
# dice at the table but reads the photographs a little worse (held-out tray 692 -> 688), so
# the photographs keep the shipped net; and it took a card's print on a coarse webcam frame
# for a die, so whether a faint blob or a yellow die is a pip die is still the shipped net's
SHIPPED_TABLE = SHIPPED.with_name("pip_counter_table.onnx")
# COMPANION_PIP_COUNTER=path runs another net for every frame (a candidate measured at the
# table or in eval-vision)
_NAMED = os.environ.get("COMPANION_PIP_COUNTER")
COUNTER = Path(_NAMED or SHIPPED)
GREY_COUNTER = Path(_NAMED or SHIPPED_GREY)
TABLE_COUNTER = Path(_NAMED or SHIPPED_TABLE)
CUT = 32  # the counter's input side in pixels
MARGIN = 1.3  # the cut-out is this many die sides wide: the die and a rim of table
INNER = slice(6, 26)  # the die's inner 0.8 (of the 24.6 pixels the die spans): its colour
CLIP = 6.0  # the table's rim around a dark die is clipped here, no pip is
# A cut-out of a frame without colour is scaled this much more: a red pip on a black or blue
# die, plain in colour, is a faint grey one (the odd half turned grey: overhead-tray 716 ->
# 722 dice of 759, 1.25-1.5 alike, 2 worse; webcam-table 458 either way).
GREY_GAIN = 1.5
VIEWS = 4  # quarter turns of each cut-out the chances are averaged over (2 or 1: fewer right)

_LOCK = threading.Lock()  # one cv2.dnn.Net must not run in two threads at once


@cache
def _net(path: Path) -> cv2.dnn.Net:
    """The net in `path`, loaded once."""
    return cv2.dnn.readNetFromONNX(str(path))


def cut(bgr: np.ndarray, rect: tuple, grey: bool = False) -> np.ndarray:
    """The counter's (CUT, CUT, 3) float input for the die under a `cv2.minAreaRect` result.

    The cut-out is square (on the rectangle's longer side), MARGIN times the die wide and
    turned with the rectangle by its angle brought within 45 degrees of upright, so the
    rectangle named from another corner (its angle 90 degrees on) gives the same cut-out.
    It is centred on the mean colour of the die's inner part (INNER) over its spread there,
    so a red die with white pips and a white die with black pips differ only in sign and
    hue, and the faint pips of a dark die are as strong as a white die's: the table's rim
    around a dark die no longer sets the scale (it is clipped at CLIP instead). Measured on
    the odd half's two folds against the whole cut-out's colour (bench/RESULTS-pips.md):
    overhead-tray 690 dice read of 759 against 683, 63 exact images against 52. A cut-out
    of a `grey` frame (`colourless`) is scaled GREY_GAIN times more, since the counter,
    trained on colour, sees a die whose pips differed from it in hue only as nearly plain.
    """
    (cx, cy), (rw, rh), angle = rect
    side = max(float(rw), float(rh), 2.0) * MARGIN
    upright = (float(angle) + 45.0) % 90.0 - 45.0
    turn = cv2.getRotationMatrix2D((float(cx), float(cy)), upright, CUT / side)
    turn[:, 2] += CUT / 2 - np.array([cx, cy], np.float64)
    patch = cv2.warpAffine(
        bgr, turn, (CUT, CUT), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    mean, spread = cv2.meanStdDev(patch[INNER, INNER])  # per channel (cheaper than numpy's)
    patch -= mean.ravel().astype(np.float32)
    pooled = float(np.sqrt(np.mean(spread**2)))  # the inner part's std over all channels
    gain = GREY_GAIN if grey else 1.0
    scaled = patch * np.float32(gain * 2.0 / (pooled + 8.0))  # the floor keeps a plain die plain
    return np.clip(scaled, -CLIP, CLIP, out=scaled)


def count_many(
    bgr: np.ndarray, rects: list[tuple], grey_counter: bool = True, table: bool = False
) -> np.ndarray:
    """Chances (n, 7) of 0 (no die) to 6 pips for the die under each rectangle, averaged
    over VIEWS quarter turns of its cut-out, the net run on one die's cut-outs at a time
    (`_forward`): COUNTER's, or GREY_COUNTER's in a frame without colour
    unless neither `grey_counter` nor `table` (whether a blob at the table is a die: see
    SHIPPED_GREY), or TABLE_COUNTER's in a colour frame for the `table`'s counts (see
    SHIPPED_TABLE). A
    net giving 7 x k outputs is k nets side by side (`train_dice_net --join`): their chances
    are averaged too, as an ensemble's."""
    if not rects:
        return np.zeros((0, 7), np.float32)
    grey = colourless(bgr)
    batch = [
        np.rot90(patch, k)
        for patch in [cut(bgr, rect, grey) for rect in rects]
        for k in range(VIEWS)
    ]
    if grey:
        net = _net(GREY_COUNTER if grey_counter or table else COUNTER)
    else:
        net = _net(TABLE_COUNTER if table else COUNTER)
    inputs = np.ascontiguousarray(np.stack(batch).transpose(0, 3, 1, 2))
    logits = _forward(net, inputs).reshape(len(rects), VIEWS, -1, 7)  # joined: k nets' 7s
    logits = logits - logits.max(axis=3, keepdims=True)
    odds = np.exp(logits)
    return (odds / odds.sum(axis=3, keepdims=True)).mean(axis=(1, 2))


def _forward(net: cv2.dnn.Net, inputs: np.ndarray) -> np.ndarray:
    """The net's outputs for `inputs` (N x 3 x CUT x CUT, N a multiple of VIEWS), run on
    VIEWS of them at a time: a net given another batch size than its last sets every layer
    up anew first (about 1.2 ms, the time of four cut-outs' counts), and the dice a frame
    asks about change in number frame by frame and from one question to the next, whereas
    the net's time per cut-out is the same in any batch. Each cut-out's outputs are the same
    bits in any batch (every shipped net, batches of 4 to 100 against runs of 4)."""
    with _LOCK:
        outputs = []
        for start in range(0, len(inputs), VIEWS):
            net.setInput(inputs[start : start + VIEWS])
            outputs.append(net.forward())
    return np.concatenate(outputs)


def count_chances(bgr: np.ndarray, rect: tuple) -> np.ndarray:
    """Chances (7,) that the die under `rect` (a `cv2.minAreaRect` result in `bgr`'s pixels)
    shows 0 (no die) to 6 pips; the same whichever corner the rectangle is named from."""
    return count_many(bgr, [rect])[0]
