"""Train the pip counter of `dice_net.py` on the odd-numbered real dice photographs.

Run: python -m companion.vision.train_dice_net [--folds K [--fold I]] [--epochs N] [--out DIR]
[--table NPZ ...] [--start ONNX], or --join A.onnx B.onnx ... --out DIR to write counters
side by side as one net whose chances `dice_net.count_many` averages (an ensemble).
Training needs the `train` extra, pip install -e .[train], which brings PyTorch; nothing at
run time does. With the dice the table's reader cuts out as well (part B's command writes
them; photographed dice in it come only from the odd half):

    python -m companion.games.caboose.vision.dice_examples --out /tmp/table_dice.npz \
        --scenes 800 --seed 20000
    nice -n 5 python -m companion.vision.train_dice_net --table /tmp/table_dice.npz

`--start ONNX` fine-tunes a trained counter (the shipped one) at a tenth of the rate instead
of training anew: a few epochs (about a quarter of an hour here) rather than 25, to try new
examples on what was learnt (issue 30: more real dice at the table, `dice_examples
--real-only`, and grey cut-outs).

The photographs are shared/data/dice-real/overhead-tray and webcam-table beside the
checkout; only their odd-numbered images (sorted by name, `eval-dice --every 2 --offset 1`)
are ever read, so the even half stays a fair test. `--folds K` trains K nets into
DIR/fold0..., each on all the odd images but every K-th one (counting the odd images only),
for cross-validation: `eval-dice DIR --every 2K --offset 2I+1 --counter DIR/foldI/...`
measures fold I on the odd images it never saw.

Why this recipe: about 250 photographs of about 1250 dice are few, so the net is small
(plain 3 x 3 convolutions, ReLUs and max pools, about 154 k weights, trained with batch
norms that are folded away before it is written) and sees each die many
ways: cut out along the die blobs `pips.py` finds (what `count_chances` is asked about:
labelled with the die `eval-dice` would score them against, or 0 for tray marks, pieces of
piles, clutter) turned up to BLOB_TURN degrees and moved up to BLOB_SHIFT of a side; cut out
around each labelled die at any angle, its centre moved up to DIE_SHIFT of a side (so dice
the blobs miss or cut badly are seen too); and 0 for cut-outs of the table and of dice seen
off centre. Each cut-out is recoloured (channels swapped, since dice and trays come in every
colour, brighter or darker, blurred, noisier, JPEG-compressed again; with `--grey-share`,
a share of them turned grey, as a camera without colour sees them); BANK rounds of these are
made once, and each epoch shows them in a new quarter turn or mirror image with their colour
channels swapped and scaled again. Seeds are fixed and PyTorch runs on one thread, so a rerun
on the same machine gives the same net.

The ONNX file is written by `write_onnx` below, a few dozen lines of protobuf encoding, so
neither the onnx package nor PyTorch's exporter (which needs it) is needed.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from companion.arguments import CommandLine
from companion.vision import dice_net
from companion.vision.eval_dice import PHOTOS, at_place, default_boxes, image_paths, load_labels
from companion.vision.pips import PipDie, _blob_rect, _die_blobs, _die_mask

FOLDERS = ("overhead-tray", "webcam-table")
SEED = 0
PATTERN_TO_SIDE = 1.4  # a pip pattern's box (webcam labels) is about 0.7 of the die's side
BOX_TO_SIDE = 1 / 1.15  # a whole-die box is the turned die's bounding box: a bit wider
BLOB_SHIFT, BLOB_TURN = 0.06, 8.0  # blob rectangles: moved this share of a side, turned
DIE_SHIFT = 0.15  # counter positives: centre moved up to this share of the side
OFF_CENTRE = 0.6  # counter negatives: at least this many sides from every die centre
EPOCHS = 25
BANK = 6  # rounds of counter cut-outs made before training
RATE = 2e-3
# `--grey-share`'s default with it: the share of cut-outs turned grey (`greyed`) and cut as
# a colourless frame's are (dice_net.GREY_GAIN), since a camera without colour sees red pips
# on a black die as faint grey ones (without it, none: the shipped counter's recipe)
GREY_SHARE = 0.25
# A camera giving grey frames (a webcam's grey mode, OpenCV's BGR2GRAY, `eval-dice --grey`)
# weighs blue, green and red as BT.601's luma does; `--grey-luma SHARE` greys that share of
# the grey cut-outs near it (Dirichlet weights of mean LUMA, LUMA_SPREAD its concentration:
# each weight within about 0.06) rather than at any random weights, most of which hide a
# red pip on a black die that luma shows. Set by `main` only (default 0: every recipe before
# it draws the same random numbers).
LUMA = np.array([0.114, 0.587, 0.299])  # B, G, R
LUMA_SPREAD = 60.0
grey_luma = 0.0


@dataclass
class Photo:
    """One training photograph, its dice as rows of (x, y, side, pips) in pixels, and the
    die blobs `pips.py` finds in it as (rectangle, pips of the labelled die there or 0)."""

    bgr: np.ndarray
    dice: np.ndarray
    blobs: list[tuple[tuple, int]]


def load_photos(folder: Path, paths: list[Path]) -> list[Photo]:
    """Photos with each label turned into the die's centre and side (see the constants)."""
    pattern = default_boxes(folder) == "pips"
    photos = []
    for path in paths:
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        labels = load_labels(path.with_suffix(".txt"), bgr.shape[1], bgr.shape[0])
        if pattern:  # a 1's box is one pip: take the die size of the photo's other dice
            sizes = [max(d.w, d.h) * PATTERN_TO_SIDE for d in labels if d.pips > 1]
            typical = float(np.median(sizes)) if sizes else 0.11 * max(bgr.shape[:2])
            sides = [typical if d.pips == 1 else max(d.w, d.h) * PATTERN_TO_SIDE for d in labels]
        else:
            sides = [max(d.w, d.h) * BOX_TO_SIDE for d in labels]
        dice = np.array(
            [(d.x, d.y, s, d.pips) for d, s in zip(labels, sides, strict=True)], np.float32
        ).reshape(-1, 4)
        photos.append(Photo(bgr, dice, die_blobs(bgr, labels, default_boxes(folder))))
    return photos


def die_blobs(bgr: np.ndarray, labels: list, boxes: str) -> list[tuple[tuple, int]]:
    """The rectangles of the die blobs the rules find (what `count_chances` is asked about),
    each with the pip count of the labelled die `eval-dice` would score it against, or 0."""
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    found = []
    for blob in _die_blobs(_die_mask(bgr, lab)):
        rect = _blob_rect(blob)
        where = PipDie(rect[0][0], rect[0][1], max(rect[1]), 0, 0.0)
        found.append((rect, next((d.pips for d in labels if at_place(where, d, boxes)), 0)))
    return found


@dataclass
class TableExamples:
    """Dice cut out at the table (B's examples file): windows as the table reader hands them
    to `count_chances`, each die's rectangle in the window's pixels, its pips (0: not a pip
    die) and where it came from ("drawn", "photo", "other")."""

    crops: np.ndarray
    rects: np.ndarray
    labels: np.ndarray
    source: np.ndarray


def load_table(path: Path, photos: bool = True) -> TableExamples:
    """The table examples in `path` (an npz of crops, rects, labels, source); without
    `photos`, only those not cut from a photographed die (for cross-validation on the
    photographs, whose images the file does not name). Raises ValueError on a file that
    is not such a set."""
    with np.load(path, allow_pickle=False) as data:
        crops, rects = np.asarray(data["crops"]), np.asarray(data["rects"], np.float32)
        labels, source = (
            np.asarray(data["labels"], np.int64),
            np.asarray(data["source"]).astype(str),
        )
    n = len(labels)
    if (
        crops.ndim != 4
        or crops.shape[3] != 3
        or crops.dtype != np.uint8
        or rects.shape != (n, 5)
        or len(crops) != n
        or len(source) != n
        or not ((labels >= 0) & (labels <= 6)).all()
    ):
        raise ValueError(f"{path}: not table examples (crops, rects, labels 0-6, source)")
    keep = np.ones(n, bool) if photos else source != "photo"
    return TableExamples(crops[keep], rects[keep], labels[keep], source[keep])


def joined(tables: list[TableExamples]) -> TableExamples:
    """Several files' table examples as one set, in the order given."""
    fields = ("crops", "rects", "labels", "source")
    return TableExamples(*(np.concatenate([getattr(t, name) for t in tables]) for name in fields))


def table_cuts(
    table: TableExamples, rng: np.random.Generator, grey_share: float = 0.0
) -> tuple[list[np.ndarray], list[int]]:
    """One round of counter cut-outs of the table examples: each window recoloured (turned
    grey in `grey_share` of them, `greyed`), its rectangle moved, scaled and turned a little
    as the blob rectangles are."""
    patches, labels = [], []
    for crop, (cx, cy, rw, rh, angle), pips in zip(
        table.crops, table.rects, table.labels, strict=True
    ):
        side = max(float(rw), float(rh)) * rng.uniform(0.9, 1.12)
        shift = rng.uniform(-BLOB_SHIFT, BLOB_SHIFT, 2) * side
        turn = float(angle) + rng.uniform(-BLOB_TURN, BLOB_TURN)
        rect = ((float(cx) + shift[0], float(cy) + shift[1]), (side, side), turn)
        grey = grey_share > 0 and rng.random() < grey_share
        patch = dice_net.cut(recolour(crop, rng, grey), rect, grey)
        if rng.random() < 0.5:
            patch = patch[:, ::-1]
        patches.append(patch.transpose(2, 0, 1))
        labels.append(int(pips))
    return patches, labels


def odd_paths(folder: Path) -> list[Path]:
    """The training half of a folder: its odd-numbered images, sorted by name."""
    return image_paths(folder)[1::2]


# ---- distortions -------------------------------------------------------------------------


def greyed(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`image` as a camera without colour might see it: one weighted sum of its channels in
    all three, the weights random (a sensor's, or a dim room's, response to each colour
    differs), so the counter learns the pips that differ from their die in hue only; in
    `grey_luma` of them the weights lie near LUMA, a grey camera's own mix."""
    if grey_luma > 0 and rng.random() < grey_luma:  # no draw without it: old recipes stay
        weights = rng.dirichlet(LUMA * LUMA_SPREAD).astype(np.float32)
    else:
        weights = rng.dirichlet((2.0, 2.0, 2.0)).astype(np.float32)
    return np.repeat((image.astype(np.float32) @ weights)[..., None], 3, axis=2)


def recolour(image: np.ndarray, rng: np.random.Generator, grey: bool = False) -> np.ndarray:
    """Channel swap, gain, brightness, blur, noise and JPEG, each at random (uint8 in/out);
    `grey` turns it grey first (`greyed`) and keeps it grey (one gain, one noise for all
    three channels), as a colourless frame is."""
    out = greyed(image, rng) if grey else image.astype(np.float32)
    if grey:
        out = out * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
        if rng.random() < 0.3:
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.2))
        out = out + rng.normal(0, rng.uniform(0, 6), out.shape[:2])[..., None]
        out = np.clip(out, 0, 255).astype(np.uint8)
        if rng.random() < 0.3:
            quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))]
            _, data = cv2.imencode(".jpg", out[..., 0], quality)
            out = np.repeat(cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)[..., None], 3, axis=2)
        return out
    if rng.random() < 0.5:
        out = out[..., rng.permutation(3)]
    out = out * rng.uniform(0.8, 1.2, 3) * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.2))
    out = out + rng.normal(0, rng.uniform(0, 6), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def counter_examples(
    photos: list[Photo], rng: np.random.Generator, grey_share: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """One epoch of counter cut-outs (n, 3, CUT, CUT) and their labels 0-6, `grey_share` of
    them grey."""
    patches, labels = [], []
    for photo in photos:
        h, w = photo.bgr.shape[:2]
        dice = photo.dice
        typical = float(np.median(dice[:, 2])) if len(dice) else 0.08 * max(h, w)
        wanted = []
        for x, y, side, pips in dice:
            shift = rng.uniform(-DIE_SHIFT, DIE_SHIFT, 2) * side
            wanted.append((x + shift[0], y + shift[1], side, int(pips)))
            if rng.random() < 0.5:  # the same die seen off centre: not a die
                turn = rng.uniform(0, 2 * np.pi)
                off = rng.uniform(OFF_CENTRE, 1.0) * side
                wanted.append((x + off * np.cos(turn), y + off * np.sin(turn), side, 0))
        for _ in range(max(2, len(dice) // 2)):  # the table, the tray, the clutter
            wanted.append((rng.uniform(0, w), rng.uniform(0, h), typical, 0))
        rects = []
        for x, y, side, pips in wanted:
            if pips == 0 and len(dice):
                gaps = np.hypot(dice[:, 0] - x, dice[:, 1] - y) / dice[:, 2]
                if gaps.min() < OFF_CENTRE:
                    continue
            size = side * rng.uniform(0.85, 1.2)
            rects.append((((float(x), float(y)), (size, size), float(rng.uniform(0, 360))), pips))
        for ((x, y), (rw, rh), angle), pips in photo.blobs:  # as the rules' blobs are asked
            side = max(rw, rh) * rng.uniform(0.9, 1.12)
            shift = rng.uniform(-BLOB_SHIFT, BLOB_SHIFT, 2) * side
            turn = angle + rng.uniform(-BLOB_TURN, BLOB_TURN)
            rects.append((((x + shift[0], y + shift[1]), (side, side), turn), pips))
        for rect, pips in rects:
            patch = recolour_cut(photo.bgr, rect, rng, grey_share)
            if rng.random() < 0.5:
                patch = patch[:, ::-1]
            patches.append(patch.transpose(2, 0, 1))
            labels.append(pips)
    shape = (-1, 3, dice_net.CUT, dice_net.CUT)  # no photographs: none
    return np.array(patches, np.float32).reshape(shape), np.array(labels, np.int64)


def recolour_cut(
    bgr: np.ndarray, rect: tuple, rng: np.random.Generator, grey_share: float = 0.0
) -> np.ndarray:
    """The counter's cut-out under `rect`, the photo around it recoloured first (only that
    region, which is all the cut-out can see), and in `grey_share` of them turned grey and
    cut as a colourless frame is."""
    (cx, cy), (side, _), angle = rect
    reach = int(side * dice_net.MARGIN) + 4
    h, w = bgr.shape[:2]
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(w, int(cx) + reach), min(h, int(cy) + reach)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return dice_net.cut(bgr, rect)
    grey = grey_share > 0 and rng.random() < grey_share
    region = recolour(bgr[y0:y1, x0:x1], rng, grey)
    return dice_net.cut(region, ((cx - x0, cy - y0), (side, side), angle), grey)


# ---- the nets ----------------------------------------------------------------------------


def conv(cin: int, cout: int, normed: bool, kernel: int = 3) -> list[nn.Module]:
    """A convolution (a 3 x 3 one keeps the size), its batch norm when `normed`, its ReLU."""
    layer = nn.Conv2d(cin, cout, kernel, padding=1 if kernel == 3 else 0)
    return [layer, nn.BatchNorm2d(cout), nn.ReLU()] if normed else [layer, nn.ReLU()]


def counter_net(normed: bool = False) -> nn.Sequential:
    """Cut-out (3, 32, 32) to (7, 1, 1) logits of 0-6 pips.

    `normed` puts a batch norm after each convolution but the last, as the counter is
    trained, and `fold_norms` folds them into the convolutions, so the net written and run
    is this one without them. On the odd half's two folds (bench/RESULTS-pips.md, session
    11) the batch norms read 8 more overhead-tray dice of 759, and half as many channels
    again (24-48-72-96 against 16-32-48-64) 8 more, mostly dark and marbled dice the
    narrower net counted wrong; the wider one costs 2.2x the multiply-adds.
    """
    return nn.Sequential(
        *conv(3, 24, normed), nn.MaxPool2d(2), *conv(24, 48, normed), nn.MaxPool2d(2),
        *conv(48, 72, normed), nn.MaxPool2d(2), *conv(72, 96, normed, 4), nn.Conv2d(96, 7, 1),
    )  # fmt: skip


def fold_norms(net: nn.Sequential) -> nn.Sequential:
    """`net` with each batch norm (as it stands after training) folded into the convolution
    before it: the same function, and only Conv, Relu and MaxPool, which OpenCV 4.8-5.x
    all import. `net` itself is left as it is."""
    layers: list[nn.Module] = []
    for layer in copy.deepcopy(net):
        if not isinstance(layer, nn.BatchNorm2d):
            layers.append(layer)
            continue
        before = layers[-1]
        scale = layer.weight.data / torch.sqrt(layer.running_var + layer.eps)
        before.weight.data = before.weight.data * scale[:, None, None, None]
        before.bias.data = (before.bias.data - layer.running_mean) * scale + layer.bias.data
    return nn.Sequential(*layers).eval()


def train_counter(
    photos: list[Photo],
    epochs: int,
    seed: int,
    table: TableExamples | None = None,
    bank: int = BANK,
    start: nn.Sequential | None = None,
    grey_share: float = 0.0,
) -> nn.Sequential:
    """The counter, fitted by Adam on cross-entropy; from `start` (a trained counter, its
    norms folded: fine-tuned at a tenth of the rate) or from scratch with batch norms.

    Cutting out and distorting a patch costs more than a training step, so `bank` rounds of
    cut-outs (each freshly turned, scaled, shifted, recoloured, blurred, compressed) are made
    once (each with one round of the `table` examples, when given), and each epoch shows
    them again in a new quarter turn or mirror image with their colour channels swapped and
    scaled at random.
    """
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    rounds = []
    for _ in range(bank):
        rounds.append(counter_examples(photos, rng, grey_share))
        if table is not None and len(table.labels):
            patches, labels = table_cuts(table, rng, grey_share)
            rounds.append((np.array(patches, np.float32), np.array(labels, np.int64)))
    x = torch.from_numpy(np.concatenate([r[0] for r in rounds]))
    y = torch.from_numpy(np.concatenate([r[1] for r in rounds]))
    net = counter_net(normed=True) if start is None else copy.deepcopy(start).train()
    rate = RATE if start is None else RATE / 10
    optimiser = torch.optim.Adam(net.parameters(), lr=rate, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05)
    for _ in range(epochs):
        order = torch.from_numpy(rng.permutation(len(x)))
        for start in range(0, len(x), 64):
            rows = order[start : start + 64]
            batch = torch.rot90(x[rows], int(rng.integers(4)), (2, 3))
            if rng.random() < 0.5:
                batch = batch.flip(3)
            swap = torch.argsort(torch.rand(len(rows), 3), dim=1)[:, :, None, None]
            batch = batch.gather(1, swap.expand_as(batch))
            batch = batch * (0.8 + 0.4 * torch.rand(len(rows), 3, 1, 1))
            loss = loss_of(net(batch)[:, :, 0, 0], y[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
    return fold_norms(net.eval())


# ---- ONNX, written by hand ---------------------------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, value: int | bytes | str) -> bytes:
    """One protobuf field: an int as a varint, bytes and str length-delimited."""
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _tensor(name: str, array: np.ndarray) -> bytes:
    """TensorProto: dims, FLOAT, name, raw little-endian data."""
    dims = b"".join(_field(1, int(d)) for d in array.shape)
    return dims + _field(2, 1) + _field(8, name) + _field(9, array.astype("<f4").tobytes())


def _value_info(name: str, shape: tuple) -> bytes:
    """ValueInfoProto of a float tensor; a str dimension is named (any size)."""
    dims = b"".join(_field(1, _field(2, d) if isinstance(d, str) else _field(1, d)) for d in shape)
    tensor_type = _field(1, 1) + _field(2, dims)
    return _field(1, name) + _field(2, _field(1, tensor_type))


def _ints(name: str, values: list[int]) -> bytes:
    """AttributeProto of type INTS."""
    return _field(1, name) + b"".join(_field(8, v) for v in values) + _field(20, 7)


def _fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """The fields of one protobuf message: (number, int) for a varint, (number, bytes) for
    length-delimited data (all `write_onnx` writes)."""
    out, at = [], 0

    def varint() -> int:
        nonlocal at
        value = shift = 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while at < len(data):
        key = varint()
        if key & 7 == 0:
            out.append((key >> 3, varint()))
        elif key & 7 == 2:
            size = varint()
            out.append((key >> 3, data[at : at + size]))
            at += size
        else:
            raise ValueError(f"protobuf wire type {key & 7}: not a file write_onnx wrote")
    return out


def read_onnx(path: Path) -> nn.Sequential:
    """The counter `write_onnx` wrote to `path`, back as a `counter_net()` with its weights
    (to join nets side by side; raises ValueError on another kind of file)."""
    tensors = {}
    try:
        graph = next(v for n, v in _fields(path.read_bytes()) if n == 7)
        for number, value in _fields(graph):
            if number == 5:  # an initializer: dims, type, name, raw data
                fields = _fields(value)
                dims = [v for n, v in fields if n == 1]
                name = next(v for n, v in fields if n == 8).decode()
                raw = next(v for n, v in fields if n == 9)
                tensors[name] = np.frombuffer(raw, "<f4").reshape(dims).copy()
    except (IndexError, StopIteration, TypeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: not a counter write_onnx wrote") from error
    net = counter_net()
    for i, layer in enumerate(net):
        if isinstance(layer, nn.Conv2d):
            weight, bias = tensors.get(f"w{i}"), tensors.get(f"b{i}")
            if weight is None or bias is None or weight.shape != tuple(layer.weight.shape):
                raise ValueError(f"{path}: not a counter of this shape (layer {i})")
            layer.weight.data = torch.from_numpy(weight)
            layer.bias.data = torch.from_numpy(bias)
    return net.eval()


def side_by_side(nets: list[nn.Sequential]) -> nn.Sequential:
    """One net running `nets` (all `counter_net()`s) side by side on the same input: each
    convolution after the first is grouped, one group per net, so the result is 7 x k logits
    that `dice_net.count_many` averages as k nets' chances; still only Conv, Relu, MaxPool,
    and one run of cv2.dnn instead of k."""
    layers = []
    for i, layer in enumerate(nets[0]):
        if not isinstance(layer, nn.Conv2d):
            layers.append(layer)
            continue
        k, first = len(nets), layer.in_channels == 3
        joined = nn.Conv2d(
            layer.in_channels * (1 if first else k),
            layer.out_channels * k,
            layer.kernel_size,
            padding=layer.padding,
            groups=1 if first else k,
        )
        joined.weight.data = torch.cat([n[i].weight.data for n in nets])
        joined.bias.data = torch.cat([n[i].bias.data for n in nets])
        layers.append(joined)
    return nn.Sequential(*layers).eval()


def write_onnx(net: nn.Sequential, input_shape: tuple, path: Path) -> None:
    """Write a Sequential of Conv2d, ReLU and MaxPool2d as an ONNX model (opset 13)."""
    nodes, weights = [], []
    current = "input"
    for i, layer in enumerate(net):
        out = f"t{i}"
        if isinstance(layer, nn.Conv2d):
            w, b = f"w{i}", f"b{i}"
            weights += [_tensor(w, layer.weight.detach().numpy())]
            weights += [_tensor(b, layer.bias.detach().numpy())]
            pad = layer.padding[0]
            attributes = [
                _ints("kernel_shape", list(layer.kernel_size)),
                _ints("strides", list(layer.stride)),
                _ints("pads", [pad] * 4),
                _ints("dilations", list(layer.dilation)),
            ]
            if layer.groups > 1:  # an INT attribute
                attributes.append(_field(1, "group") + _field(3, layer.groups) + _field(20, 2))
            node = [_field(1, current), _field(1, w), _field(1, b), _field(4, "Conv")]
        elif isinstance(layer, nn.ReLU):
            attributes, node = [], [_field(1, current), _field(4, "Relu")]
        elif isinstance(layer, nn.MaxPool2d):
            attributes = [_ints("kernel_shape", [layer.kernel_size] * 2)]
            attributes += [_ints("strides", [layer.stride] * 2)]
            node = [_field(1, current), _field(4, "MaxPool")]
        else:
            raise TypeError(f"no ONNX for {type(layer).__name__}")
        node += [_field(2, out), _field(3, f"n{i}")]
        nodes.append(b"".join(node) + b"".join(_field(5, a) for a in attributes))
        current = out
    graph = b"".join(_field(1, n) for n in nodes) + _field(2, path.stem)
    graph += b"".join(_field(5, w) for w in weights)
    graph += _field(11, _value_info("input", ("n", *input_shape)))
    graph += _field(12, _value_info(current, ("n",)))
    model = _field(1, 7) + _field(2, "companion") + _field(7, graph)
    model += _field(8, _field(1, "") + _field(2, 13))
    path.write_bytes(model)


def check_export(net: nn.Sequential, input_shape: tuple, path: Path) -> float:
    """Largest difference between PyTorch's and OpenCV's outputs on random input."""
    x = np.random.default_rng(1).normal(0, 1, (2, *input_shape)).astype(np.float32)
    reader = cv2.dnn.readNetFromONNX(str(path))
    reader.setInput(x)
    with torch.no_grad():
        expected = net(torch.from_numpy(x)).numpy()
    return float(np.abs(reader.forward() - expected).max())


def train_and_write(
    photos: list[Photo],
    out: Path,
    epochs: int,
    seed: int,
    table: TableExamples | None = None,
    bank: int = BANK,
    start: nn.Sequential | None = None,
    grey_share: float = 0.0,
) -> None:
    """Train the counter on `photos` (and `table`), from `start` when given, `grey_share` of
    its cut-outs grey, write it to `out`, and check OpenCV reads it right."""
    began = time.perf_counter()
    counter = train_counter(photos, epochs, seed, table, bank, start, grey_share)
    path = write_checked(counter, out)
    print(f"wrote {path} in {time.perf_counter() - began:.0f} s", flush=True)


def join(paths: list[Path], out: Path) -> None:
    """Write the counters in `paths` side by side as one net (an ensemble) to `out`."""
    path = write_checked(side_by_side([read_onnx(p) for p in paths]), out)
    print(f"wrote {path}: {len(paths)} counters side by side", flush=True)


def write_checked(counter: nn.Sequential, out: Path) -> Path:
    """Write `counter` into the folder `out` under the shipped file's name, check OpenCV
    reads it as PyTorch runs it, and give its path."""
    shape = (3, dice_net.CUT, dice_net.CUT)
    out.mkdir(parents=True, exist_ok=True)
    path = out / dice_net.SHIPPED.name
    write_onnx(counter, shape, path)
    gap = check_export(counter, shape, path)
    if gap > 1e-3:
        raise RuntimeError(f"{path}: OpenCV differs from PyTorch by {gap}")
    return path


def main(argv: list[str] | None = None) -> None:
    """Train on the odd-numbered images (or on part of them, for cross-validation)."""
    parser = CommandLine(description="Train the pip counter.")
    parser.add_argument("--data", type=Path, default=PHOTOS)
    parser.add_argument("--out", type=Path, default=dice_net.SHIPPED.parent)
    parser.add_argument("--folds", type=int, default=0, help="cross-validate with K folds")
    parser.add_argument("--fold", type=int, default=None, help="with --folds, train only this")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--bank", type=int, default=BANK, help="rounds of cut-outs made")
    parser.add_argument(
        "--table",
        type=Path,
        nargs="+",
        default=None,
        metavar="NPZ",
        help="also train on dice cut out at the table (crops, rects, labels, source), from "
        "one file or several; with --folds, only those not cut from a photograph",
    )
    parser.add_argument(
        "--grey-share",
        type=float,
        nargs="?",
        const=GREY_SHARE,
        default=0.0,
        metavar="SHARE",
        help=f"turn this share of the cut-outs grey (alone: {GREY_SHARE}; default none)",
    )
    parser.add_argument(
        "--grey-luma",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="grey this share of the grey cut-outs near a grey camera's own mix (default none)",
    )
    parser.add_argument(
        "--extra",
        type=Path,
        nargs="+",
        default=[],
        metavar="DIR",
        help="also train on the odd half of these labelled folders (whole-die YOLO boxes, e.g. "
        "data/dice-extra/tray-colour), in every fold",
    )
    parser.add_argument(
        "--start",
        type=Path,
        default=None,
        metavar="ONNX",
        help="fine-tune this trained counter (e.g. the shipped one) rather than train anew",
    )
    parser.add_argument(
        "--join",
        type=Path,
        nargs="+",
        metavar="ONNX",
        help="train nothing: write these counters side by side as one (an ensemble) to --out",
    )
    args = parser.parse_args(argv)
    if args.join:
        try:
            join(args.join, args.out)
        except (OSError, ValueError) as error:
            parser.error(f"--join: {error}")
        return
    if args.epochs < 1 or args.bank < 1:
        parser.error("--epochs and --bank must be at least 1")
    if not 0.0 <= args.grey_share <= 1.0:
        parser.error("--grey-share must be a share from 0 to 1")
    if not 0.0 <= args.grey_luma <= 1.0:
        parser.error("--grey-luma must be a share from 0 to 1")
    global grey_luma
    grey_luma = args.grey_luma
    table = None
    if args.table is not None:
        try:
            table = joined([load_table(path, photos=not args.folds) for path in args.table])
        except (OSError, KeyError, ValueError) as error:
            parser.error(f"--table: {error}")
        print(f"{len(table.labels)} table examples", flush=True)
    start = None
    if args.start is not None:
        try:
            start = read_onnx(args.start)
        except (OSError, ValueError) as error:
            parser.error(f"--start: {error}")
    torch.set_num_threads(1)  # two threads ran slower here: they wait on each other
    cv2.setNumThreads(1)
    folders = [args.data / name for name in FOLDERS]
    for folder in args.extra:
        if not folder.is_dir() or not odd_paths(folder):
            parser.error(f"--extra: no labelled photographs in {folder}")
    extra = [p for f in args.extra for p in load_photos(f, odd_paths(f))]
    if extra:
        print(f"{len(extra)} extra photos, {sum(len(p.dice) for p in extra)} dice", flush=True)
    if not args.folds:
        photos = [p for f in folders for p in load_photos(f, odd_paths(f))] + extra
        print(f"{len(photos)} photos, {sum(len(p.dice) for p in photos)} dice", flush=True)
        train_and_write(
            photos, args.out, args.epochs, SEED, table, args.bank, start, args.grey_share
        )
        return
    for fold in range(args.folds) if args.fold is None else [args.fold]:
        photos = [
            p
            for f in folders
            for p in load_photos(
                f, [q for i, q in enumerate(odd_paths(f)) if i % args.folds != fold]
            )
        ] + extra
        print(f"fold {fold}: {len(photos)} photos", flush=True)
        out = args.out / f"fold{fold}"
        train_and_write(photos, out, args.epochs, SEED, table, args.bank, start, args.grey_share)


if __name__ == "__main__":
    main()
