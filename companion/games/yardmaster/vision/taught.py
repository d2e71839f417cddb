"""Trains of a printed deck the camera was taught (`companion enroll`): `read_taught`.

Why a second reader: a family's own box is printed for people, with no frame and no code
strip of ours (art.py), so its cards are told apart by how each face looked when it was
shown to the camera alone (vision/enrolment.py), kept in a `Catalogue` folder.

How, for a frame (what it gives is reader.py's `Yard`, so the watcher needs no change):
1. the table: the four markers place it and it is warped top-down at 1 px/mm
   (reader.read_frame, which our design's reader shares, as it shares step 4);
2. the trains: a printed card is found by its colour unlike the table's
   (companion/vision/unlike_table.py: light and shadow change a colour's brightness, not
   its shares of red, green and blue). A train's cards touch end to end, so a train is
   one region: a strip a card wide, whose length says how many cards lie in it. Its
   outer ends are the outer ends of its first and last cards;
3. the cards: from one end the strip is walked card by card. Each card is first named
   roughly (the strip cut where it should lie, at half scale, against every taught face
   both ways round), then placed by the best two faces slid over a window a few
   millimetres larger (a card's gap to its neighbour varies, as a hand lays it), then
   named closely where it lies: against each face that comes close to the best (another
   face or the best turned round), where the card falls on the line from that face to
   the best one (`Catalogue.leads`), which weighs a numeral that alone tells two values
   apart by itself rather than beside the print both share. The next card begins just
   past this one's end;
4. the trains are chained from the engines as our design's reader chains them.

A card whose best face is poor or comes too close to another face, or another way round,
is UNSURE, never a guess. A region of cards that is no strip (cards laid across each
other, side by side) is one UNSURE loose card: something lies there that cannot be read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np

from companion.games.yardmaster import cards
from companion.games.yardmaster.printed_art import CARD_MM
from companion.games.yardmaster.vision.reader import (
    UNSURE,
    ReaderConfig,
    Yard,
    _Read,
    read_frame,
)
from companion.pose import Pose
from companion.vision.calibrate import Calibration
from companion.vision.table import TableLayout
from companion.vision.unlike_table import unlike_table

FORMAT = "yardmaster-catalogue/1"
LEARNT_PX_PER_MM = 4.0  # the scale of the pictures a catalogue keeps
_PX_PER_MM = 1.0  # reader.read_frame's top-down scale: about what the camera sees at best
_PAD_MM = 4.0  # room round a strip and round a card's window, for its gap and jitter
_GAP_MM = 1.4  # a hand's usual gap between two cards of a train (0.3-2.5 mm)
_BRIDGE_PX = 5  # a join between two regions this thin is no card
_PART_MM = 10.0  # how far from where they should part two strips side by side are parted
_CANDIDATES = 2  # faces slid over a card's window to place it
_ACROSS_PX = 3  # how far across the strip a card may lie off its middle
_CLOSE = 0.15  # faces within this correlation of the best are compared closely
_LEAST_SCORE = 0.45  # correlation of a card with its face, at least
_LEAST_LEAD = 0.1  # how far a card lies towards its face from any rival, at least (0.5: on it)


class CatalogueError(ValueError):
    """A catalogue folder that cannot be used; the message says what is wrong and what to
    do."""


def _unit(image: np.ndarray) -> np.ndarray:
    """A float32 colour image as a unit vector, each colour channel zero-mean and equally
    scaled: a lamp's brightness and colour cast change nothing. In OpenCV: the reader's
    hot loop makes a few a card."""
    mean, std = cv2.meanStdDev(image)
    x = (image - mean.ravel().astype(np.float32)) / (std.ravel().astype(np.float32) + 1e-3)
    flat = x.reshape(-1)
    return flat / (float(np.sqrt(flat @ flat)) + 1e-6)


def _rough(card: np.ndarray) -> np.ndarray:
    """A card as it is named roughly, before it is placed: at half the reader's scale,
    where a few millimetres off its place matter little."""
    return cv2.resize(card, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


class Catalogue:
    """The taught faces of one box by code (`E` the engine, `W` the back, railcar cards by
    their printed code), each an upright picture of the whole card (its railcars along
    the bottom), ready to match at the reader's scale both ways round."""

    def __init__(self, faces: Mapping[str, np.ndarray]) -> None:
        if not faces:
            raise CatalogueError("a catalogue needs at least one card face")
        for code in faces:
            if code not in (cards.ENGINE, cards.FACE_DOWN):
                try:
                    cards.railcars(code)
                except cards.CardCodeError as error:
                    raise CatalogueError(str(error)) from error
        self.pictures = dict(faces)
        self.codes = tuple(faces)
        size = (round(CARD_MM[0] * _PX_PER_MM), round(CARD_MM[1] * _PX_PER_MM))
        upright = np.stack(
            [cv2.resize(p, size, interpolation=cv2.INTER_AREA) for p in faces.values()]
        ).astype(np.float32)
        # every face upright (index i) and turned half round (index n + i)
        self.both = np.concatenate([upright, upright[:, ::-1, ::-1]])
        self.features = np.stack([_unit(f) for f in self.both])
        # placing a card needs its print's edges, not its colours: grey slides 3x faster
        self.greys = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in self.both]
        self.rough = np.stack([_unit(_rough(f)) for f in self.both])
        self.gram = self.features @ self.features.T
        # what a reading must tell apart, by index into `both`: a face and which way round,
        # but the back, which looks the same both ways
        n = len(self.codes)
        back = self.codes.index(cards.FACE_DOWN) if cards.FACE_DOWN in self.codes else -1
        self.keys = np.array([i if i % n != back else back for i in range(2 * n)])

    def face(self, index: int) -> tuple[str, bool]:
        """The code of a face in `both` and whether it is the turned one."""
        n = len(self.codes)
        return self.codes[index % n], index >= n

    def leads(self, best: int, rivals: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """How far a card whose correlations with every face are `scores` lies towards face
        `best` from each of `rivals` (indices into `both`): where it falls on the line from
        the rival's face to the best's, 0 halfway, 0.5 on the best's own face. The two
        faces' difference is where they differ, so this weighs a numeral that tells two
        values apart by itself, not beside the print they share; and it costs nothing but
        the correlations already made."""
        apart = 2.0 * (1.0 - self.gram[best, rivals])
        return (scores[best] - scores[rivals]) / np.maximum(apart, 1e-6)

    def save(self, folder: Path) -> None:
        """The faces as PNGs and `catalogue.json`, in `folder` (made if need be)."""
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for index, (code, picture) in enumerate(self.pictures.items()):
            name = f"{index:03d}-{code}.png"
            cv2.imwrite(str(folder / name), picture)
            entries.append({"code": code, "image": name})
        doc = {"format": FORMAT, "card_mm": list(CARD_MM), "faces": entries}
        (folder / "catalogue.json").write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path, deck: Collection[str] | None = None) -> Catalogue:
        """The catalogue `companion enroll` wrote in `folder`; CatalogueError says why it
        cannot be used. Given the box's `deck` (printed codes), every card of it, the engine
        and the back must have been taught: a card the camera was never shown could be
        taken for the taught face most like it, the one mistake the reader must not make."""
        index = Path(folder) / "catalogue.json"
        try:
            doc = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CatalogueError(
                f"cannot read {index} ({error}): give the folder `companion enroll` wrote"
            ) from error
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CatalogueError(f"{index} is not a {FORMAT} file: enrol the deck again")
        entries = doc.get("faces")
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise CatalogueError(f"{index} lists no faces: enrol the deck again")
        faces = {}
        for entry in entries:
            path = Path(folder) / str(entry.get("image", ""))
            picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
            if picture is None:
                raise CatalogueError(f"{path} is missing or no image: enrol its card again")
            faces[str(entry.get("code"))] = picture
        catalogue = cls(faces)
        if deck is not None:
            wanted = [*dict.fromkeys(deck), cards.ENGINE, cards.FACE_DOWN]
            missing = [code for code in wanted if code not in faces]
            if missing:
                raise CatalogueError(
                    f"{folder} has no picture of {len(missing)} of the box's faces "
                    f"({', '.join(missing[:6])}{', ...' if len(missing) > 6 else ''}): teach "
                    f"them with companion enroll {folder} --codes {','.join(missing)}"
                )
        return catalogue


def read_taught(
    frame_bgr: object,
    catalogue: Catalogue,
    config: ReaderConfig | None = None,
    calibration: Calibration | None = None,
) -> Yard:
    """Every train in one frame of a table whose cards are `catalogue`'s printed deck, as
    reader.read_yard gives them for ours (the catalogue must hold every face of the box:
    `Catalogue.load(folder, deck)` makes sure). `calibration` (a previous Yard's) is
    reused while the camera has not moved and stands in when markers are hidden; never
    raises on a bad frame: what it could not see is in `Yard.problems`."""
    config = config or ReaderConfig()

    def find_cards(top: np.ndarray, _seen: Calibration) -> list[_Read]:
        mask = unlike_table(top, config.layout, _PX_PER_MM)
        return _cards(top, in_play(mask, config.layout, _PX_PER_MM), catalogue, config)

    return read_frame(frame_bgr, config, calibration, find_cards)


def in_play(mask: np.ndarray, layout: TableLayout, k: float) -> np.ndarray:
    """A top-down mask (`k` px/mm) kept only in the table's play area: beyond it lie the
    markers' paper, and a corner of the table the camera does not see (black)."""
    left, top, right, bottom = (round(v * k) for v in layout.play_area())
    kept = np.zeros_like(mask)
    kept[top:bottom, left:right] = mask[top:bottom, left:right]
    return kept


def _cards(
    top: np.ndarray, mask: np.ndarray, catalogue: Catalogue, config: ReaderConfig
) -> list[_Read]:
    """Every card in the regions of `mask` a card or more in size: each strip's cards one
    by one (`_lanes`), anything else one unsure card."""
    k = _PX_PER_MM
    # a hair of colour bleeding between two regions (blur, JPEG) is opened away
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((_BRIDGE_PX, _BRIDGE_PX), np.uint8))
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[_Read] = []
    for contour in contours:
        if cv2.contourArea(contour) < 0.6 * CARD_MM[0] * CARD_MM[1] * k * k:
            continue  # a speck, a die, a coin
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if w < h:
            w, h, angle = h, w, angle + 90.0
        strips = None
        if w / k >= CARD_MM[0] - 8 and h / k >= CARD_MM[1] - 6:
            strips = [
                _strip(top, mask, centre, w / k, angle, catalogue, config)
                for centre in _lanes(opened, contour, (cx / k, cy / k), (w / k, h / k), angle)
            ]
        if strips and all(strips):
            found += [card for strip in strips for card in strip]
        else:
            found.append(_Read(UNSURE, Pose(cx / k, cy / k, angle % 180.0)))
    return found


def _lanes(
    mask: np.ndarray,
    contour: np.ndarray,
    centre: tuple[float, float],
    size: tuple[float, float],
    angle: float,
) -> list[tuple[float, float]]:
    """The middle of each strip a card wide in a region (its outline `contour`, `centre`
    and `size` mm of its rectangle along `angle`): two players on one side lay their trains
    a hand's breadth apart, and colour bleeding across the gap (blur, JPEG, a card laid a
    little crooked) can join them. Across the region, the lines along it that hold half a
    card's length of card, at least, span one card's width per strip and a little more;
    the strips are parted where the fewest such pixels lie, near where they should part.
    Empty when a part is not a card wide: the region is no strips side by side."""
    k = _PX_PER_MM
    only = np.zeros_like(mask)
    cv2.drawContours(only, [contour], -1, 255, -1)
    region = _padded(cv2.bitwise_and(mask, only), centre, size, angle, cv2.INTER_NEAREST)
    counts = (region > 0).sum(axis=1)
    rows = np.flatnonzero(counts >= 0.5 * CARD_MM[0] * k)
    if not len(rows):
        return []
    first, last = int(rows[0]), int(rows[-1]) + 1
    strips = max(1, round((last - first) / k / (CARD_MM[1] + 4.0)))
    cuts = [first]
    for i in range(1, strips):
        near = round(first + i * (last - first) / strips)
        low = near - round(_PART_MM * k)
        cuts.append(low + int(np.argmin(counts[low : near + round(_PART_MM * k) + 1])))
    cuts.append(last)
    a = math.radians(angle)
    across = np.array([-math.sin(a), math.cos(a)])
    middles = []
    for start, end in pairwise(cuts):
        part = start + np.flatnonzero(counts[start:end] >= 0.5 * counts[start:end].max())
        low, high = int(part[0]), int(part[-1]) + 1
        if not CARD_MM[1] - 6 <= (high - low) / k <= CARD_MM[1] + 9:
            return []
        offset = ((low + high) / 2) / k - size[1] / 2 - _PAD_MM
        middles.append(tuple(np.array(centre) + across * offset))
    return middles


def cut(
    image: np.ndarray,
    centre: tuple[float, float],
    size: tuple[float, float],
    angle: float,
    k: float,
    interpolation: int = cv2.INTER_LINEAR,
) -> np.ndarray:
    """`size` mm of a top-down `image` at `k` px/mm round `centre` (mm), cut out straight
    at its own scale with its width along `angle` degrees (clockwise from the table's x):
    pixel (u, v) shows the point u / k mm along and v / k mm across from its corner."""
    a = math.radians(angle)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    m = np.empty((2, 3))
    m[:, 0], m[:, 1] = along, across
    m[:, 2] = (np.array(centre) - along * size[0] / 2 - across * size[1] / 2) * k
    pixels = (round(size[0] * k), round(size[1] * k))
    return cv2.warpAffine(image, m, pixels, flags=cv2.WARP_INVERSE_MAP | interpolation)


def _padded(
    image: np.ndarray, centre: tuple[float, float], size: tuple[float, float], angle: float,
    interpolation: int,
) -> np.ndarray:  # fmt: skip
    """`cut` of the reader's top-down image with _PAD_MM more all round."""
    padded = (size[0] + 2 * _PAD_MM, size[1] + 2 * _PAD_MM)
    return cut(image, centre, padded, angle, _PX_PER_MM, interpolation)


def _strip(
    top: np.ndarray,
    mask: np.ndarray,
    centre: tuple[float, float],
    length: float,
    angle: float,
    catalogue: Catalogue,
    config: ReaderConfig,
) -> list[_Read] | None:
    """The cards of a strip `length` mm long round `centre` whose long axis runs at
    `angle` degrees (clockwise from the table's x): cut out along its axis and walked from
    one end card by card; None when it holds no card's length of cards."""
    s = _PX_PER_MM
    width, height = length + 2 * _PAD_MM, CARD_MM[1] + 2 * _PAD_MM
    a = math.radians(angle)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    image = _padded(top, centre, (length, CARD_MM[1]), angle, cv2.INTER_LINEAR)
    image = image.astype(np.float32)
    region = _padded(mask, centre, (length, CARD_MM[1]), angle, cv2.INTER_NEAREST)
    columns = np.flatnonzero((region > 0).sum(axis=0) >= 0.5 * CARD_MM[1] * s)
    if not len(columns):
        return None
    start, end = int(columns[0]), int(columns[-1]) + 1
    pitch = (CARD_MM[0] + _GAP_MM) * s
    count = round((end - start + _GAP_MM * s) / pitch)
    card_w, card_h = round(CARD_MM[0] * s), round(CARD_MM[1] * s)
    pad = round(_PAD_MM * s)
    read = []
    left = start
    for _ in range(count):
        x0, y0 = max(left - pad, 0), pad - _ACROSS_PX
        window = image[y0 : y0 + card_h + 2 * _ACROSS_PX, x0 : left + card_w + pad]
        if window.shape[1] < card_w:
            break
        rough = image[pad : pad + card_h, left : left + card_w]
        if rough.shape[1] < card_w:
            rough = window[_ACROSS_PX : _ACROSS_PX + card_h, -card_w:]
        x, y, index, lead = _place(window, rough, catalogue)
        code, turned = catalogue.face(index)
        middle = np.array([x0 + x + card_w / 2, y0 + y + card_h / 2]) / s
        point = (
            np.array(centre) + along * (middle[0] - width / 2) + across * (middle[1] - height / 2)
        )
        rotation = (angle + (180.0 if turned else 0.0)) % 360.0
        known = code in (cards.ENGINE, cards.FACE_DOWN) or code in config.deck
        sure = lead >= _LEAST_LEAD and known
        read.append(
            _Read(code if sure else UNSURE, Pose(float(point[0]), float(point[1]), rotation))
        )
        left = x0 + x + card_w + round(_GAP_MM * s)
    return read or None


def _place(
    window: np.ndarray, rough: np.ndarray, catalogue: Catalogue
) -> tuple[int, int, int, float]:
    """Where in `window` the card lies (x, y of its top left), which face it shows (an
    index into catalogue.both) and by how much that face leads every other face or way
    round (-1 when the card fits no face well)."""
    card_h, card_w = catalogue.both.shape[1:3]
    scores = catalogue.rough @ _unit(_rough(rough))
    best = (-2.0, 0, 0)
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    for index in np.argsort(-scores)[:_CANDIDATES]:
        fit = cv2.matchTemplate(grey, catalogue.greys[index], cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(fit)
        best = max(best, (score, x, y))
    _, x, y = best
    scores = catalogue.features @ _unit(window[y : y + card_h, x : x + card_w])
    top = int(np.argmax(scores))
    if scores[top] < _LEAST_SCORE:
        return x, y, top, -1.0
    keys = catalogue.keys
    rivals = np.flatnonzero((scores >= scores[top] - _CLOSE) & (keys != keys[top]))
    if not len(rivals):
        return x, y, top, 1.0
    return x, y, top, float(catalogue.leads(top, rivals, scores).min())
