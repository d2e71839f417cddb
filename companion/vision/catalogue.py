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

from companion import cards
from companion.vision import card_art

FORMAT = "caboose-catalogue/1"
TEMPLATE_PX = (42, 58)  # width, height of a normalised portrait card image
_CLOSE = 0.15  # faces within this correlation of the best are compared again, closely
_DIFFERENT = 60  # grey levels by which close faces must differ for a pixel to decide


class CatalogueError(ValueError):
    """A catalogue folder that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class Match:
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


def _features(images: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """(N, H, W, 3) images as unit vectors over the pixels `keep` marks (all by default):
    each colour channel made zero-mean and equally scaled, so that a lamp's brightness and
    colour cast change nothing. Channel-major, so every reduction runs over contiguous
    memory (this is the hot loop of recognition)."""
    n = images.shape[0]
    x = np.ascontiguousarray(images.reshape(n, -1, 3).transpose(0, 2, 1), dtype=np.float32)
    if keep is not None:
        x = x[:, :, keep.reshape(-1) > 0.5]
    x -= x.mean(axis=2, keepdims=True)
    x /= x.std(axis=2, keepdims=True) + 1e-3
    vectors = x.reshape(n, -1)
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-6)


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
        self._focus_cache: dict[tuple[int, ...], tuple[np.ndarray | None, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self.codes)

    def match(self, crop_bgr: np.ndarray, hidden: np.ndarray | None = None) -> Match:
        """The face that best explains a seen card (a portrait crop of the whole card, any
        size); `hidden` (TEMPLATE_PX mask, 1 where something lies on the card) is left out."""
        return self.match_all([crop_bgr], [hidden])[0]

    def match_all(
        self, crops: Sequence[np.ndarray], hidden: Sequence[np.ndarray | None]
    ) -> list[Match]:
        """`match` for many cards at once: one matrix product scores every card against
        every face. Faces of one kind and shape differ only in a small place (the value),
        which a whole-card correlation weighs little; so the faces that come close are
        compared again on just the pixels where they differ from each other."""
        if not crops:
            return []
        images = np.stack([normalise(crop) for crop in crops])
        plain = [i for i, h in enumerate(hidden) if h is None]
        all_scores = np.empty((len(crops), len(self._both)), np.float32)
        if plain:
            all_scores[plain] = _features(images[plain]) @ self._both_features.T
        for i, h in enumerate(hidden):
            if h is not None:
                keep = 1.0 - h.astype(np.float32)
                all_scores[i] = _features(self._both, keep) @ _features(images[i : i + 1], keep)[0]
        return [self._decide(images[i], all_scores[i], hidden[i]) for i in range(len(crops))]

    def _decide(self, image: np.ndarray, scores: np.ndarray, hidden: np.ndarray | None) -> Match:
        n = len(self.codes)
        keep = None if hidden is None else 1.0 - hidden.astype(np.float32)
        close = tuple(int(i) for i in np.flatnonzero(scores >= scores.max() - _CLOSE))
        if len({self.codes[i % n] for i in close}) > 1:
            weight, focused_faces = self._focus(close, keep)
            if weight is not None:
                focused = focused_faces @ _features(image[None], weight)[0]
                order = np.argsort(-focused)
                best = close[int(order[0])]
                code = self.codes[best % n]
                rivals = [focused[j] for j in order if self.codes[close[j] % n] != code]
                margin = float(focused[order[0]] - max(rivals)) if rivals else 1.0
                return Match(code, best >= n, float(scores[best]), margin)
        best = int(np.argmax(scores))
        code = self.codes[best % n]
        others = [v for i, v in enumerate(scores) if self.codes[i % n] != code]
        margin = float(scores[best] - max(others)) if others else 1.0
        return Match(code, best >= n, float(scores[best]), margin)

    def _focus(
        self, close: tuple[int, ...], keep: np.ndarray | None
    ) -> tuple[np.ndarray | None, np.ndarray]:
        """The pixels where the faces `close` differ (weight) and those faces' features on
        them; kept per set of faces, since the same few sets come up card after card."""
        if keep is None and close in self._focus_cache:
            return self._focus_cache[close]
        faces = self._both[list(close)].astype(np.int16)
        spread = (faces.max(axis=0) - faces.min(axis=0)).max(axis=2)
        differ = cv2.dilate((spread > _DIFFERENT).astype(np.uint8), np.ones((3, 3), np.uint8))
        weight = differ.astype(np.float32) * (1.0 if keep is None else keep)
        found = (weight, _features(self._both[list(close)], weight)) if weight.sum() >= 20 else (
            None, self._both_features[:0])  # fmt: skip
        if keep is None:
            self._focus_cache[close] = found
        return found

    def locate(self, crop_bgr: np.ndarray, match: Match, margin: int) -> tuple[float, float]:
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
