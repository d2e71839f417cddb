"""A family's own pip dice, taught (`companion enroll --codes pips`): the learned count adapts.

Why: the learned count (dice_net.count_many) knows the dice it was trained on better than
dice in general, and a family plays with one or two sets of its own (marbled, translucent,
dark with coloured pips) that it may misread or be unsure of every turn. Retraining the net
on the Pi is out of reach, but a few pictures of the family's dice, each face once, say a
great deal about those dice: the net's last hidden layer (its features, before the layer
that turns them into chances) puts a die close to the taught dice of its count.

So what is taught is kept as pictures (each die's crop and its rectangle, as the table's
reader cuts it), and the features are taken by whatever counter net is loaded when they are
read (a retrained net's features are not the old one's), and by the very net whose chances
are adapted (`counter_of`: the table counts its dice with a net of its own, fine-tuned on
its soft cut-outs, and asks another whether a blob is a die at all; a layer fitted on one
net's features added to another's chances read nothing at the table). From them a linear
layer on the features is fitted (softmax regression, small by weight decay, added to the
net's own log chances) that reads the taught dice's views as their counts, one a net, when
the net is first asked about a die. A die's read is adapted only
as far as it looks like the taught dice, in its colours (body and pips, `_ALIKE`) and to the
net (its features' cosine similarity, `_NEAR`); a die unlike them keeps the net's chances
exactly, so a die of another set is read as before, and the layer is fitted to all but
certainty (`_SMOOTH`), so a die only like a taught one is not made sure: the table asks
rather than guesses; where it and the net read the same count, the surer of the two stands.
The net's features alone do not tell a set's faces apart well enough (the nearest taught
view reads 89.7 % of the held-out half's sets' other dice: a diagnosis, nothing fitted to
it), but the taught colours show what the net cannot: a die whose pips differ from its
body more in hue than in lightness (red pips on blue-black marble) is faint in the grey the
net mostly reads. So each die like the taught ones in colour is also shown to the counter
redrawn as a plain die (each pixel placed on the line from the taught body colour, white,
to the taught pip colour, black), and the two reads are joined (`_joined`). Whether a set
is read so is decided when it is taught, from the taught dice alone: only when its pips are
faint in lightness (`_FAINT`, `_redrawn_helps`).
What it gains is measured by bench/bench_taught_pips.py.

On disk (in the catalogue folder): `pips.json` (format `companion-pips/1`: one entry per
taught die, its pips, its picture and its rectangle in that picture, a `cv2.minAreaRect`)
and one PNG per die.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision import dice_net
from companion.vision.frame_checks import colourless
from companion.vision.taught_dice import TaughtError, read_taught

FORMAT = "companion-pips/1"
PIPS_INDEX = "pips.json"  # the taught dice's file in a catalogue folder
# A die is adapted as far as it looks like one of the taught dice, both in colour and to the
# net: its body's and pips' colours (CIE Lab, lightness weighed half: a lamp changes it) are
# within _ALIKE[0] of a taught die's (the sum of the two distances), not at all from
# _ALIKE[1]; and its views' best cosine similarity to any taught view is _NEAR[1] or more, not
# at all below _NEAR[0]. On the odd half's sets (bench/bench_taught_pips.py --half odd, the
# only half tuned on) the colours let 94 % of a taught set's other dice through at 20, 3 % of
# the other sets' dice; the features alone 78 % and 36 % at 0.85.
_ALIKE = (15.0, 25.0)
# A set is also read redrawn as a plain die (`redrawn`) when its taught pips differ from its
# body by less than _FAINT in lightness (L, 0-100): faint to the net, which reads mostly
# lightness. Deciding it by which read gave the taught dice's own counts more chance (the
# first rule) was near a coin toss, both reads being all but sure of them: on the odd half
# the sets whose dice the redraw read worse (white pips on purple translucent, red opaque or
# marbled) are 38 or more apart, those it read better (teal, red on black) 31 or less. A die
# is redrawn as far as its colours are within _ALIKE_REDRAWN of a taught die's (wider than
# _ALIKE: a marbled set's dice vary in colour, and a redrawn read never makes a die surer,
# `_joined`); on the odd half (20, 35) read as many right as (15, 25), (25, 40) one fewer.
_FAINT = 35.0
# ... and only when the pips differ from the body in hue at least half as much as in
# lightness and are this far from it in colour (CIE Lab) at all: at the table
# (bench_taught_pips.py --table) a die's cut-out is so small and soft that the taught dice's
# pips and body come out 1-25 apart, nearly grey, and redrawn so (the lightness rule alone)
# they read worse there (red pips on black 56.8 -> 38.6 % of 44, white on blue 18 more
# asked); on the photographs the faint sets' are 17 or more apart, in hue as much
_APART = 15.0
_ALIKE_REDRAWN = (20.0, 35.0)
# (chosen on the photographs' counter's features; the table's counter's are used as they
# are: bench_taught_pips.py --table --cutouts finds no headroom at the table to tune for)
_NEAR = (0.85, 0.95)
_LAB_WEIGHTS = np.array([0.5, 1.0, 1.0, 0.5, 1.0, 1.0])
_INNER = 0.7  # the share of a die's side whose colours are its body's and its pips'
_COLOUR_PX = 24  # the side of the inner part, in pixels, whose colours are taken
# the adaptation: a linear layer on the features added to the net's log chances, fitted to
# the taught views (_STEPS steps of gradient descent at _RATE) with this weight decay, which
# keeps it small (it moves the read towards what was taught, it does not replace the net),
# towards each view's count at 1 - _SMOOTH (the rest spread evenly): fitted to all but
# certainty, a die only like a taught one is not made sure of its count (without it, on the
# odd half, 2 of a set's other dice the net was unsure of came out wrong yet sure)
_DECAY, _STEPS, _RATE = 0.01, 300, 0.5
_SMOOTH = 0.1
# each taught die is also cut a little larger, smaller and turned (the outline found at the
# table is a little off), each in the net's quarter turns
_SCALES = (0.92, 1.0, 1.08)
_TURNS = (-8.0, 0.0, 8.0)
_AROUND = 1.5  # a redrawn die's picture reaches this many of its sides from its centre

_LOCK = threading.Lock()  # one cv2.dnn.Net must not run in two threads at once


@cache
def _counter(path: Path) -> tuple[cv2.dnn.Net, list[str]]:
    """The counter net in `path` (its own instance: the reader's may run in another thread)
    and the names of its features' layer (the one feeding its last weighted layer) and of
    its output."""
    # OpenCV 5's new engine fuses each ReLU into its convolution under other names: the
    # classic engine keeps the layers as the file lists them (OpenCV 4 has only that one)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        net = cv2.dnn.readNetFromONNX(str(path))
    else:
        net = cv2.dnn.readNetFromONNX(str(path), engine=classic)
    names = list(net.getLayerNames())
    weighted = [i for i, name in enumerate(names)
                if net.getLayer(name).type in ("Convolution", "InnerProduct")]  # fmt: skip
    return net, [names[weighted[-1] - 1], net.getUnconnectedOutLayersNames()[0]]


def counter_of(grey: bool, table: bool) -> Path:
    """The counter net whose chances `dice_net.count_many` gives the table's reader: for the
    `table`'s counts TABLE_COUNTER's (GREY_COUNTER's in a `grey` frame), otherwise (whether
    a blob is a pip die, a photograph's die) COUNTER's. The taught dice are read by the
    same net as the die they adapt: each net's features are its own."""
    if table:
        return dice_net.GREY_COUNTER if grey else dice_net.TABLE_COUNTER
    return dice_net.COUNTER


def features(
    bgr: np.ndarray, rects: list[tuple], counter: Path | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The `counter`'s features (n, VIEWS, d) of the die under each rectangle, one row per
    quarter turn of its cut-out (as `dice_net.count_many` cuts it), each of unit length; and
    its log chances (n, VIEWS, 7) of each view (a joined net's k nets' chances averaged).
    The counter is COUNTER unless another is named (`counter_of`)."""
    grey = colourless(bgr)
    batch = [
        np.rot90(patch, k)
        for patch in [dice_net.cut(bgr, rect, grey) for rect in rects]
        for k in range(dice_net.VIEWS)
    ]
    net, layers = _counter(counter or dice_net.COUNTER)
    with _LOCK:
        net.setInput(np.ascontiguousarray(np.stack(batch).transpose(0, 3, 1, 2)))
        found, logits = net.forward(layers)
    found = found.reshape(len(rects), dice_net.VIEWS, -1)
    logits = logits.reshape(len(rects), dice_net.VIEWS, -1, 7)
    odds = np.exp(logits - logits.max(axis=3, keepdims=True))
    chances = (odds / odds.sum(axis=3, keepdims=True)).mean(axis=2)
    unit = found / np.maximum(np.linalg.norm(found, axis=2, keepdims=True), 1e-6)
    return unit, np.log(np.maximum(chances, 1e-9))


def colours(bgr: np.ndarray, rects: list[tuple]) -> np.ndarray:
    """Each die's body and pip colours (n, 6: two CIE Lab colours, L 0-100): the median of
    its face's inner part, and the median of that part's tenth furthest from it."""
    found = []
    for (cx, cy), (w, h), angle in rects:
        side = max(float(w), float(h), 2.0) * _INNER
        upright = (float(angle) + 45.0) % 90.0 - 45.0
        turn = cv2.getRotationMatrix2D((float(cx), float(cy)), upright, _COLOUR_PX / side)
        turn[:, 2] += _COLOUR_PX / 2 - np.array([cx, cy], np.float64)
        face = cv2.warpAffine(bgr, turn, (_COLOUR_PX, _COLOUR_PX), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
        lab = cv2.cvtColor(face.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab).reshape(-1, 3)
        body = np.median(lab, axis=0)
        apart = np.linalg.norm(lab - body, axis=1)
        pips = np.median(lab[apart >= np.percentile(apart, 90)], axis=0)
        found.append(np.concatenate([body, pips]))
    return np.array(found).reshape(-1, 6)


def _softmax(logits: np.ndarray) -> np.ndarray:
    odds = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return odds / odds.sum(axis=-1, keepdims=True)


def _fit(found: np.ndarray, prior: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A linear layer (7 x d weights, 7 biases) on the features `found` (m, d) that, added
    to the net's log chances `prior` (m, 7), reads each taught view as its `counts` (m,):
    softmax regression by gradient descent from zero, with weight decay."""
    truth = np.eye(7)[counts] * (1.0 - _SMOOTH) + _SMOOTH / 7.0
    weights, bias = np.zeros((7, found.shape[1])), np.zeros(7)
    for _ in range(_STEPS):
        error = (_softmax(prior + found @ weights.T + bias) - truth) / len(found)
        weights -= _RATE * (error.T @ found + _DECAY * weights)
        bias -= _RATE * error.sum(axis=0)
    return weights, bias


def redrawn(
    bgr: np.ndarray, rect: tuple, body: np.ndarray, pips: np.ndarray
) -> tuple[np.ndarray, tuple]:
    """The die under `rect` and the table around it redrawn as a plain die: each pixel's
    place on the line from the `body` colour (white) to the `pips` colour (black), CIE Lab
    as `colours` gives them (lightness weighed half); and the rectangle in that picture."""
    (cx, cy), (w, h), angle = rect
    reach = max(float(w), float(h), 2.0) * _AROUND
    x0, y0 = max(int(cx - reach), 0), max(int(cy - reach), 0)
    crop = bgr[y0 : max(int(cy + reach), y0 + 1), x0 : max(int(cx + reach), x0 + 1)]
    lab = cv2.cvtColor(crop.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    towards = (pips - body) * _LAB_WEIGHTS[:3]
    place = ((lab - body) * _LAB_WEIGHTS[:3]) @ towards / max(float(towards @ towards), 1e-6)
    grey = (255.0 * (1.0 - np.clip(place, 0.0, 1.0))).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), ((cx - x0, cy - y0), (w, h), angle)


def _redrawn_chances(
    bgr: np.ndarray, rects: list[tuple], body: np.ndarray, pips: np.ndarray
) -> np.ndarray:
    """The counter's chances (n, 7) of each die redrawn as a plain die (`redrawn`)."""
    rows = []
    for rect in rects:
        picture, where = redrawn(bgr, rect, body, pips)
        rows.append(dice_net.count_many(picture, [where]))
    return np.concatenate(rows) if rows else np.zeros((0, 7), np.float32)


def _joined(chances: np.ndarray, redrawn_chances: np.ndarray) -> np.ndarray:
    """The geometric mean of two reads' chances (n, 7), made whole again, and no surer of
    its count than the less sure of the two reads is of it (yet still that count): the join
    chooses the count, it does not make a die sure that one read doubts (without the bound,
    on the odd half, two dice of other sets came out wrong yet sure with the teal set
    taught; bounded by the surer read, still one)."""
    both = np.sqrt(np.maximum(chances, 1e-9) * np.maximum(redrawn_chances, 1e-9))
    both /= both.sum(axis=1, keepdims=True)
    rows = np.arange(len(both))
    face = both[:, 1:].argmax(axis=1) + 1
    return _no_surer(both, np.minimum(chances[rows, face], redrawn_chances[rows, face]))


def _no_surer(chances: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """`chances` (n, 7) with each die's most likely count (1-6) no surer than `bound` (n,)
    (yet still that count: the rest scaled up to make the whole)."""
    chances = chances.copy()
    rows = np.arange(len(chances))
    face = chances[:, 1:].argmax(axis=1) + 1
    top = chances[rows, face]
    others = chances.copy()
    others[rows, face] = 0.0
    second = others.max(axis=1)
    # the least chance that, the rest scaled to make the whole, still leads them all
    leading = second / np.maximum(1.0 - top + second, 1e-9) + 1e-6
    capped = np.maximum(np.minimum(top, bound), np.minimum(leading, top))
    chances *= ((1.0 - capped) / np.maximum(1.0 - top, 1e-9))[:, None]
    chances[rows, face] = capped
    return chances


@dataclass(frozen=True, eq=False)
class TaughtDie:
    """One taught die: its pips, a picture of it with table around it, and its rectangle
    in that picture (a `cv2.minAreaRect`: where the reader found it)."""

    pips: int
    picture: np.ndarray
    rect: tuple


@dataclass(frozen=True)
class _Head:
    """What was taught, as one counter net sees it: the taught dice's views' features (m, d),
    and the linear layer fitted on them (7 x d weights, 7 biases)."""

    bank: np.ndarray
    weights: np.ndarray
    bias: np.ndarray


class TaughtPips:
    """A family's pip dice as taught: the dice, their features under each counter net that
    reads dice (each die cut at a few sizes and turns, in every quarter turn) and the linear
    layer fitted to them, which `adapt` applies to the dice read at the table that look like
    them."""

    def __init__(self, dice: list[TaughtDie]) -> None:
        if not dice:
            raise TaughtError("taught pip dice need at least one die")
        self.dice = list(dice)
        self._heads: dict[Path, _Head] = {}
        self._colours = np.concatenate([colours(die.picture, [die.rect]) for die in dice])
        self._body = np.median(self._colours[:, :3], axis=0)
        self._pips = np.median(self._colours[:, 3:], axis=0)
        self._redraw = self._redrawn_helps()
        self._head(dice_net.COUNTER)  # a picture the net cannot read fails here, at load

    def _head(self, counter: Path) -> _Head:
        """The taught dice under `counter` (fitted when first asked: the table's counts are
        another net's than whether a blob is a die, and a grey frame's another again)."""
        with _LOCK:
            head = self._heads.get(counter)
        if head is not None:
            return head
        bank, prior, counts = [], [], []
        for die in self.dice:
            (cx, cy), (w, h), angle = die.rect
            varied = [((cx, cy), (w * s, h * s), angle + t) for s in _SCALES for t in _TURNS]
            found, log_chances = features(die.picture, varied, counter)
            bank.append(found.reshape(-1, found.shape[2]))
            prior.append(log_chances.reshape(-1, 7))
            counts += [die.pips] * (found.shape[0] * found.shape[1])
        views = np.concatenate(bank)
        weights, bias = _fit(views, np.concatenate(prior), np.array(counts))
        head = _Head(views, weights, bias)
        with _LOCK:
            return self._heads.setdefault(counter, head)

    def _redrawn_helps(self) -> bool:
        """Whether the set is read both ways (`adapt`), decided from the taught dice alone:
        when their pips are faint in lightness (`_FAINT`) and differ from the body in hue at
        least half as much, and the two are told apart by colour at all (`_APART`)."""
        lightness = abs(self._body[0] - self._pips[0])
        hue = float(np.linalg.norm(self._body[1:] - self._pips[1:]))
        return bool(
            lightness < _FAINT and hue >= lightness / 2 and np.hypot(lightness, hue) >= _APART
        )

    def adapt(
        self, bgr: np.ndarray, rects: list[tuple], chances: np.ndarray, table: bool = False
    ) -> np.ndarray:
        """The learned count's `chances` (n, 7) for the dice under `rects` in `bgr`, as the
        adapted count reads them as far as each die looks like the taught dice (`_NEAR`); a
        die unlike them all keeps its chances. `table`: the chances are the table's counts
        (`counter_of`: the taught dice are read by the net that gave them)."""
        if not rects:
            return chances
        counter = counter_of(colourless(bgr), table)
        head = self._head(counter)
        seen, log_chances = features(bgr, rects, counter)
        adapted = _softmax(log_chances + seen @ head.weights.T + head.bias).mean(axis=1)
        weight = self.likeness(bgr, rects, seen, head)[:, None]
        mixed = (1.0 - weight) * chances + weight * adapted
        # where the two read the same count, the taught dice confirm the net: the surer
        # of the two stands (fitted short of certainty, the mix would ask about dice the
        # net alone reads surely: 43 -> 51 of the odd half's 807)
        face = chances[:, 1:].argmax(axis=1) + 1
        agree = mixed[:, 1:].argmax(axis=1) + 1 == face
        rows = np.arange(len(face))
        surer = agree & (chances[rows, face] > mixed[rows, face])
        adapted = np.where(surer[:, None], chances, mixed)
        # the table's counts are never joined with a redrawn read: its cut-outs are too soft
        # to carry the taught colours (nearly grey), a dim teaching frame makes a set with
        # dark pips on a light body look faint (yellow marbled with black pips: taught 14
        # apart in L, redrawn at the table 90.4 -> 69.2 % right, 3 -> 33 asked), and the
        # redrawn die is the photographs' counter's read; on the tuning half's table cut-outs
        # it changed no die's count (bench_taught_pips.py --table --cutouts, seed 175100)
        if table:
            # nor made surer of any count than its counter is: the taught dice there are a
            # few soft cut-outs, one of each face, and on a hidden seed (175600) they made a
            # misread black die with red pips sure (a 5 the counter took for a 3 at 0.21,
            # confirmed to 0.55) while making three right ones sure; so at the table they
            # only choose among the counts, as the photographs' redrawn read does (`_joined`)
            rows = np.arange(len(adapted))
            return _no_surer(adapted, chances[rows, adapted[:, 1:].argmax(axis=1) + 1])
        if not self._redraw:
            return adapted
        alike = self.alike(bgr, rects, _ALIKE_REDRAWN)
        near = np.flatnonzero(alike > 0.0)  # only these are redrawn: a net call each
        if not len(near):
            return adapted
        redrawn_near = _redrawn_chances(bgr, [rects[i] for i in near], self._body, self._pips)
        joined = adapted.copy()
        joined[near] = _joined(adapted[near], redrawn_near)
        return (1.0 - alike[:, None]) * adapted + alike[:, None] * joined

    def likeness(
        self, bgr: np.ndarray, rects: list[tuple], seen: np.ndarray, head: _Head
    ) -> np.ndarray:
        """How much each die (n,) looks like one of the taught dice, 0-1: its colours, body
        and pips, near a taught die's (`_ALIKE`), and its features (`seen`, under the net
        of `head`) near (`_NEAR`)."""
        alike = self.alike(bgr, rects)
        nearest = (seen @ head.bank.T).max(axis=(1, 2))
        near = np.clip((nearest - _NEAR[0]) / (_NEAR[1] - _NEAR[0]), 0.0, 1.0)
        return alike * near

    def alike(
        self, bgr: np.ndarray, rects: list[tuple], within: tuple[float, float] = _ALIKE
    ) -> np.ndarray:
        """How much each die's (n,) colours, body and pips, are near a taught die's, 0-1:
        wholly within `within[0]`, not at all from `within[1]` (`_ALIKE`)."""
        apart = np.abs(colours(bgr, rects)[:, None, :] - self._colours[None]) * _LAB_WEIGHTS
        distance = (
            np.linalg.norm(apart[..., :3], axis=2) + np.linalg.norm(apart[..., 3:], axis=2)
        ).min(axis=1)
        return np.clip((within[1] - distance) / (within[1] - within[0]), 0.0, 1.0)

    def save(self, folder: Path) -> None:
        """Write `pips.json` and one PNG per die into `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for number, die in enumerate(self.dice, start=1):
            name = f"pips-{number}.png"
            cv2.imwrite(str(folder / name), die.picture)
            (cx, cy), (w, h), angle = die.rect
            rect = [float(v) for v in (cx, cy, w, h, angle)]
            entries.append({"pips": die.pips, "image": name, "rect": rect})
        doc = {"format": FORMAT, "dice": entries}
        (folder / PIPS_INDEX).write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path) -> TaughtPips | None:
        """The pip dice taught in `folder` (`save`), None when none were; TaughtError says
        why a `pips.json` there cannot be used."""
        index = folder / PIPS_INDEX
        doc = read_taught(index, FORMAT)
        if doc is None:
            return None
        dice = []
        entries = doc.get("dice")
        for entry in entries if isinstance(entries, list) else ():
            entry = entry if isinstance(entry, dict) else {}
            pips, rect = entry.get("pips"), entry.get("rect")
            image = cv2.imread(str(folder / str(entry.get("image", ""))), cv2.IMREAD_COLOR)
            if (
                not isinstance(pips, int)
                or not 1 <= pips <= 6
                or image is None
                or not isinstance(rect, list)
                or len(rect) != 5
                or not all(isinstance(v, (int, float)) for v in rect)
            ):
                raise TaughtError(
                    f"{index}: each die needs its pips (1-6), a readable image and its "
                    "rectangle (5 numbers)"
                )
            cx, cy, w, h, angle = (float(v) for v in rect)
            dice.append(TaughtDie(pips, image, ((cx, cy), (w, h), angle)))
        if not dice:
            raise TaughtError(f"{index} teaches no die")
        return cls(dice)
