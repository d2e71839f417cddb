"""What each card face looks like: small normalised images to match a seen card against.

Why a catalogue and not a hand-written digit reader: a table may play with a printed deck
whose art we do not ship. `companion enroll` shows the camera each card face once and
stores what it saw; our own design is just the catalogue that ships, generated from
card_art at start-up rather than stored as binaries. Matching is a normalised correlation
of tiny colour images (42x58 px for a whole card), which tells every face of our design
apart with a wide margin and costs microseconds per card; both half turns are tried, which
also tells which end of a card is its top.

On disk a catalogue is a folder: `catalogue.json` (format `caboose-catalogue/1`, the image
size and one entry per face: code and file) and one PNG per face.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.vision import card_art

FORMAT = "caboose-catalogue/1"
TEMPLATE_PX = (42, 58)  # width, height of a normalised portrait card image
_CLOSE = 0.15  # faces within this correlation of the best are compared again, closely
_CONTRAST = 0.25  # share of two faces' largest difference by which a pixel must differ to decide
_CONTEXT = 5  # px round the pixels that decide which are compared too (print of both faces)


class CatalogueError(ValueError):
    """A catalogue folder that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class FaceMatch:
    """The best catalogue face for a seen card: its code, whether the card lies turned half
    round from the crop's orientation, the correlation (-1..1) and how far ahead of the
    best other code it is."""

    code: str
    turned: bool
    score: float
    margin: float

    @property
    def confidence(self) -> float:
        """0-1: high when the face matches well and no other code comes close."""
        return float(np.clip(self.score, 0.0, 1.0) * np.clip(self.margin / 0.2, 0.0, 1.0))


def normalise(card_bgr: np.ndarray) -> np.ndarray:
    """A portrait card image (any size, the whole card) as a catalogue image: TEMPLATE_PX,
    lightly blurred so that a few pixels of misalignment do not matter."""
    small = card_bgr
    if small.shape[:2] != (TEMPLATE_PX[1], TEMPLATE_PX[0]):
        small = cv2.resize(card_bgr, TEMPLATE_PX, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def _channels(images: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) images as (N, 3, H*W) float32: channel-major, so every reduction runs
    over contiguous memory (this is the hot loop of recognition)."""
    n = images.shape[0]
    return np.ascontiguousarray(images.reshape(n, -1, 3).transpose(0, 2, 1), dtype=np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    """(N, 3, P) pixels as unit vectors: each colour channel made zero-mean and equally
    scaled, so that a lamp's brightness and colour cast change nothing."""
    x = x - _mean(x)
    x /= _std(x) + 1e-3
    vectors = x.reshape(len(x), -1)
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-6)


def _mean(x: np.ndarray) -> np.ndarray:
    """`x.mean(axis=-1, keepdims=True)` of a float32 array: the same sum and division (so
    the same bits) without numpy's wrapper, which costs more than the sums on a card's few
    hundred pixels (`_versus`, the hot loop of matching)."""
    return np.add.reduce(x, axis=-1, keepdims=True) / x.shape[-1]


def _std(x: np.ndarray) -> np.ndarray:
    """`x.std(axis=-1, keepdims=True)` of a float32 array, as `_mean` is numpy's."""
    off = x - _mean(x)
    np.multiply(off, off, out=off)
    return np.sqrt(_mean(off))


def _features(images: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """(N, H, W, 3) images as `_unit` vectors over the pixels `keep` marks (all by default)."""
    x = _channels(images)
    return _unit(x if keep is None else x[:, :, keep.reshape(-1) > 0.5])


class Catalogue:
    """Card faces by code, ready to match."""

    def __init__(self, codes: list[str], images: list[np.ndarray]) -> None:
        if not codes or len(codes) != len(images):
            raise CatalogueError("a catalogue needs at least one card face with its image")
        for code in codes:
            cards.parse(code)
        self.codes = tuple(codes)
        self.images = np.stack([normalise(image) for image in images])
        # every face as it looks upright and turned half round
        self._both = np.concatenate([self.images, self.images[:, ::-1, ::-1]])
        self._both_features = _features(self._both)
        # each face's pixels and their squares (float64), channel by channel (3, faces,
        # pixels): their sums over any part of a face are a matrix product
        both = np.ascontiguousarray(_channels(self._both).astype(np.float64).transpose(1, 0, 2))
        self._both_sums = (both, both * both)
        self._pair_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        # what `_versus` needs of a pair of faces whatever part of the card is seen: every
        # face's `_channels`, and each pair's largest channel difference at each pixel (made
        # at the pair's first use); a card the caboose, a die or a lamp hides in part (12
        # pairs a frame) took two thirds of its time making them anew
        self._both_channels = _channels(self._both)
        self._spreads: dict[tuple[int, int], np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.codes)

    def match(self, crop_bgr: np.ndarray, hidden: np.ndarray | None = None) -> FaceMatch:
        """The face that best explains a seen card (a portrait crop of the whole card, any
        size); `hidden` (TEMPLATE_PX mask, 1 where something lies on the card) is left out."""
        return self.match_all([crop_bgr], [hidden])[0]

    def match_all(
        self,
        crops: Sequence[np.ndarray],
        hidden: Sequence[np.ndarray | None],
        *,
        closely: bool = True,
    ) -> list[FaceMatch]:
        """`match` for many cards at once: one matrix product scores every card against
        every face. Faces of one kind and shape differ only in a small place (the value),
        which a whole-card correlation weighs little; so the best face is compared again
        with each face that comes close, on just the pixels where those two differ
        (`_versus`). `closely=False` skips that (the best whole-card face and margin): for
        a caller that only asks whether a face fits a candidate, and where, not which
        value it shows, in far less time."""
        if not crops:
            return []
        images = np.stack([normalise(crop) for crop in crops])
        plain = [i for i, h in enumerate(hidden) if h is None]
        all_scores = np.empty((len(crops), len(self._both)), np.float32)
        if plain:
            all_scores[plain] = _features(images[plain]) @ self._both_features.T
        for i, h in enumerate(hidden):
            if h is not None:
                all_scores[i] = self._scores_seen(images[i], h == 0)
        return [
            self._decide(images[i], all_scores[i], hidden[i], closely) for i in range(len(crops))
        ]

    def _scores_seen(self, image: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """The correlation of a card's `image` with every face (both turns) over the pixels
        `seen` (TEMPLATE_PX, True where nothing hides the card): the faces' `_features` there
        dotted with the card's, each face's means, spreads and dot product taken from its
        sums over those pixels (a few matrix products) rather than its pixels there made unit
        vectors anew, which cost a card the caboose, a die or a lamp's glare hides in part
        five times as long."""
        kept = seen.reshape(-1)
        if not kept.any():  # wholly hidden: like no face, and no mean of no pixels taken
            return np.zeros(len(self._both), np.float32)
        card = np.zeros((3, kept.size))
        card[:, kept] = _features(image[None], seen)[0].reshape(3, -1)  # zero-mean channels
        pixels, squares = self._both_sums
        weight = kept.astype(np.float64)
        count = max(float(weight.sum()), 1.0)
        mean = pixels @ weight / count  # (3, faces)
        spread = np.maximum(squares @ weight / count - mean * mean, 0.0)
        scale = np.sqrt(spread) + 1e-3
        dots = (pixels @ card[:, :, None])[..., 0] - mean * card.sum(axis=1, keepdims=True)
        norms = np.sqrt((count * spread / (scale * scale)).sum(axis=0)) + 1e-6
        return ((dots / scale).sum(axis=0) / norms).astype(np.float32)

    def _decide(
        self, image: np.ndarray, scores: np.ndarray, hidden: np.ndarray | None, closely: bool
    ) -> FaceMatch:
        """The best face for one card, and its margin over the best face of any other code.

        Each code that comes within _CLOSE of the best whole-card score takes part in its
        best orientation (a half turn changes much of a card, which the whole card weighs
        well). The best is then the one that wins against every other on the pixels where
        just those two differ, and its margin is its smallest lead there: one region for
        all close faces would mix a pair that differs in a small digit with a pair that
        differs all over in colour, and the digit would count for little (a printed deck
        with the caboose on its broken-track mark was read unsure that way)."""
        n = len(self.codes)
        order = np.argsort(-scores)
        best = int(order[0])
        close: dict[str, int] = {}
        for i in order if closely else ():
            if scores[i] < scores[best] - _CLOSE:
                break
            close.setdefault(self.codes[i % n], int(i))
        if len(close) < 2:
            others = [v for i, v in enumerate(scores) if self.codes[i % n] != self.codes[best % n]]
            margin = float(scores[best] - max(others)) if others else 1.0
            return FaceMatch(self.codes[best % n], best >= n, float(scores[best]), margin)
        pixels = _channels(image[None])[0]
        keep = None if hidden is None else hidden.reshape(-1) == 0
        leads: dict[tuple[int, int], float] = {}

        def lead(a: int, b: int) -> float:
            if (b, a) in leads:
                return -leads[(b, a)]
            leads[(a, b)] = self._versus(a, b, pixels, keep)
            return leads[(a, b)]

        rivals = list(close.values())
        for rival in rivals[1:]:
            if lead(rival, best) > 0:
                best = rival
        margin = min(lead(best, rival) for rival in rivals if rival != best)
        return FaceMatch(self.codes[best % n], best >= n, float(scores[best]), margin)

    def _versus(self, a: int, b: int, pixels: np.ndarray, keep: np.ndarray | None) -> float:
        """How much better face `a` than face `b` (indices into both orientations) explains
        a card's `pixels` (`_channels`, one card) on the pixels where just those two faces
        differ, `keep` (flat, True where the card is seen; None: all) left: the difference
        of the two correlations there. Which pixels differ is judged against the pair's own
        largest difference (a printed deck's kinds differ by ~45 grey levels, its values
        by ~200), and the region is grown by _CONTEXT so that it also holds print both
        faces share: where two faces differ only in colour, two flat colours correlate
        alike after the lamp is taken out. 0 when too little of it is seen to tell."""
        if keep is None and (a, b) in self._pair_cache:
            region, faces = self._pair_cache[(a, b)]
        else:
            spread = self._spread(a, b)
            seen = None if keep is None else keep.reshape(spread.shape)
            if seen is not None:
                spread = np.where(seen, spread, np.float32(0.0))
            differ = (spread > _CONTRAST * max(float(spread.max()), 1.0)).astype(np.uint8)
            grown = cv2.dilate(differ, np.ones((_CONTEXT, _CONTEXT), np.uint8)) > 0
            region = np.flatnonzero(grown if seen is None else grown & seen)
            if len(region) < 20:
                return 0.0
            faces = _unit(self._both_channels[[a, b]][:, :, region])
            if keep is None:
                self._pair_cache[(a, b)] = (region, faces)
        # `_unit` of the card's pixels there, dotted with the faces' (which are zero-mean in
        # each channel, so the card's means drop out): a quarter less time, in the hot loop
        x = pixels.take(region, axis=1)
        std = _std(x)
        fit = faces @ (x / (std + 1e-3)).reshape(-1)
        norm = np.sqrt(len(region) * float(np.square(std / (std + 1e-3)).sum())) + 1e-6
        return float(fit[0] - fit[1]) / norm

    def _spread(self, a: int, b: int) -> np.ndarray:
        """Faces `a` and `b`'s largest difference over the three channels at each pixel
        (float32, H x W), made once a pair (`_versus`: which pixels tell the two apart)."""
        if (a, b) not in self._spreads:
            pair = self._both[[a, b]].astype(np.int16)
            spread = np.abs(pair[0] - pair[1]).max(axis=2).astype(np.float32)
            spread.setflags(write=False)  # shared by every card matched against the pair
            self._spreads[(a, b)] = spread
        return self._spreads[(a, b)]

    def locate(self, crop_bgr: np.ndarray, match: FaceMatch, margin: int) -> tuple[float, float]:
        """Where the face `match` names lies in `crop_bgr`: a portrait crop at twice
        TEMPLATE_PX's scale of a card with `margin` template pixels more on every side.
        Returns the face's offset from the crop's centre in template pixels (x right, y
        down, a fraction of a pixel: the peak of the correlation, fitted by a parabola)."""
        image = cv2.resize(crop_bgr, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        image = cv2.GaussianBlur(image, (3, 3), 0)
        face = self.images[self.codes.index(match.code)]
        if match.turned:
            face = face[::-1, ::-1]
        scores = cv2.matchTemplate(image, np.ascontiguousarray(face), cv2.TM_CCOEFF_NORMED)
        y, x = np.unravel_index(int(np.argmax(scores)), scores.shape)

        def peak(low: float, mid: float, high: float) -> float:
            bend = low - 2 * mid + high
            return float(np.clip(0.5 * (low - high) / bend, -0.5, 0.5)) if bend < 0 else 0.0

        fx = peak(*scores[y, x - 1 : x + 2]) if 0 < x < scores.shape[1] - 1 else 0.0
        fy = peak(*scores[y - 1 : y + 2, x]) if 0 < y < scores.shape[0] - 1 else 0.0
        return x + fx - margin, y + fy - margin

    def save(self, folder: Path) -> None:
        """Write the catalogue as a folder of PNGs and `catalogue.json`."""
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for index, (code, image) in enumerate(zip(self.codes, self.images, strict=True)):
            name = f"{index:03d}-{code.replace('/', '')}.png"
            cv2.imwrite(str(folder / name), image)
            entries.append({"code": code, "image": name})
        doc = {"format": FORMAT, "template_px": list(TEMPLATE_PX), "cards": entries}
        (folder / "catalogue.json").write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path) -> Catalogue:
        """A catalogue written by `save` (or `companion enroll`); CatalogueError says why
        a folder cannot be used."""
        index = folder / "catalogue.json"
        try:
            doc = json.loads(index.read_text())
        except (OSError, ValueError) as error:
            raise CatalogueError(f"cannot read {index}: {error}") from error
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CatalogueError(f"{index} is not a {FORMAT} file")
        codes, images = [], []
        for entry in doc.get("cards", []):
            image = cv2.imread(str(folder / str(entry.get("image", ""))), cv2.IMREAD_COLOR)
            if image is None:
                raise CatalogueError(f"{folder / str(entry.get('image'))} is missing or unreadable")
            try:
                cards.parse(entry.get("code"))
            except cards.CardCodeError as error:
                raise CatalogueError(f"{index}: {error}") from error
            codes.append(entry["code"])
            images.append(image)
        return cls(codes, images)


@cache
def ours(card_mm: tuple[float, float] = card_art.CARD_MM) -> Catalogue:
    """Our own printable design of every card face of the three editions."""
    codes = list(card_art.design_codes())
    scale = 4.0
    images = []
    for code in codes:
        image, mask = card_art.draw_card(code, scale, card_mm)
        paper = np.full_like(image, 255)
        images.append(np.where(mask[..., None] > 127, image, paper))
    return Catalogue(codes, images)
