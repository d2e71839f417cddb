"""Dice whose look was taught (`companion enroll`), found and read by what was taught.

Why: a box's own wheel dice may look like nothing our readers were made for (another body
colour, rounded corners, wheels drawn light on dark), and nothing may be downloaded, so the
camera learns them as it learns a printed deck: each face once, one die alone on the
table. What it keeps is the body's colour (a range of HSV colours, `Colour`), the die's
side, and a picture of each face, upright. At the table a die is a blob of the body's
colour of about the die's size; its outline gives its centre and turn, and its face is the
taught picture it differs from least, compared small and grey with the body's brightness
divided out (a lamp or a shadow changes it, not the art): in any of four quarter turns (the
outline cannot tell them apart), as a blurrier camera would show it, and cut out a little
larger or smaller and a pixel to either side (the lens and the outline move the art a
little, not what it shows).

On disk (in the catalogue folder): `dice.json` (format `companion-dice/1`: the colour, the
side and one entry per face, its wheels and its picture) and one PNG per face.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.calibrate import Calibration
from companion.vision.dice import CROP_PX_PER_MM, WHEELS, DieReading, crop_at

FORMAT = "companion-dice/1"
PX_PER_MM = CROP_PX_PER_MM  # the scale a face is cut out and read at: the dice reader's
_FACE_PX = 16  # a face's picture, side to side, when compared
_EDGE_PX = 2  # left off each side of a face when compared: the rounded corners, the edge
_SCALES = (0.92, 1.0, 1.08)  # the sizes a seen face is cut out at, of the taught side
_BLURS = (0.0, 3.0, 6.0, 9.0)  # px at PX_PER_MM: a taught face as blurrier cameras see it
_SHIFT = 1  # px a seen face is moved by, each way, to fit a taught one


class TaughtError(ValueError):
    """A taught dice or token file that cannot be read; the message says what is wrong."""


def read_taught(index: Path, fmt: str) -> dict | None:
    """The JSON object in `index` if it is a `fmt` file, None when there is no such file
    (nothing was taught); TaughtError says why one that exists cannot be used."""
    if not index.exists():
        return None
    try:
        doc = json.loads(index.read_text())
    except (OSError, ValueError) as error:
        raise TaughtError(f"cannot read {index}: {error}") from error
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise TaughtError(f"{index} is not a {fmt} file")
    return doc


@dataclass(frozen=True)
class Colour:
    """A range of colours in OpenCV's HSV (hue 0-179): `low` to `high`, the hue range
    wrapping past red when its low end is above its high end."""

    low: tuple[int, int, int]
    high: tuple[int, int, int]

    def mask(self, hsv: np.ndarray) -> np.ndarray:
        """255 where the HSV image `hsv` has this colour."""
        (h0, s0, v0), (h1, s1, v1) = self.low, self.high
        if h0 <= h1:
            return cv2.inRange(hsv, (h0, s0, v0), (h1, s1, v1))
        return cv2.bitwise_or(
            cv2.inRange(hsv, (0, s0, v0), (h1, s1, v1)),
            cv2.inRange(hsv, (h0, s0, v0), (179, s1, v1)),
        )

    @classmethod
    def of(cls, pixels: np.ndarray) -> Colour:
        """The colour of the most of `pixels` (N x 3 BGR): the commonest hue, with room for
        the camera's noise (any hue when most are hardly coloured: white, grey, black), and
        from a little less than half its brightness up (a shadow falls on a die, a lamp
        does not brighten it much)."""
        hsv = cv2.cvtColor(pixels.reshape(-1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2HSV)[:, 0]
        hue, sat, val = (hsv[:, i].astype(np.float64) for i in range(3))
        if np.median(sat) < 60:  # hardly coloured: its brightness and its greyness say it
            v_low = int(max(0.45 * np.percentile(val, 10), 20))
            return cls((0, 0, v_low), (179, int(min(np.percentile(sat, 95) + 40, 255)), 255))
        coloured = sat >= 60
        counts = np.bincount(hsv[coloured, 0], minlength=180).astype(np.float64)
        counts = np.convolve(
            np.concatenate([counts[-5:], counts, counts[:5]]), np.ones(11), "valid"
        )
        centre = float(np.argmax(counts))
        off = np.abs((hue - centre + 90) % 180 - 90)
        mine = coloured & (off <= 20)  # the body's pixels, not its art's nor the table's
        reach = float(np.clip(np.percentile(off[mine], 90) + 5, 6, 20))
        s_low = int(max(0.6 * np.percentile(sat[mine], 10), 40))
        v_low = int(max(0.45 * np.percentile(val[mine], 10), 20))
        low_h, high_h = round(centre - reach) % 180, round(centre + reach) % 180
        return cls((low_h, s_low, v_low), (high_h, 255, 255))

    def as_json(self) -> dict[str, list[int]]:
        return {"low": list(self.low), "high": list(self.high)}

    @classmethod
    def from_json(cls, doc: object, where: str) -> Colour:
        """A colour as `as_json` wrote it; TaughtError names `where` it is wrong."""
        try:
            low, high = doc["low"], doc["high"]  # type: ignore[index]
            bounds = [tuple(int(v) for v in b) for b in (low, high)]
        except (KeyError, TypeError, ValueError) as error:
            raise TaughtError(f"{where}: a colour needs low and high, 3 numbers each") from error
        if any(len(b) != 3 for b in bounds) or not all(0 <= v <= 255 for b in bounds for v in b):
            raise TaughtError(f"{where}: a colour's low and high are 3 numbers of 0-255 each")
        return cls(bounds[0], bounds[1])  # type: ignore[arg-type]


def upright(
    crop: np.ndarray, body: np.ndarray, side: float | None = None
) -> tuple[np.ndarray, tuple[float, float], float]:
    """The piece whose filled outline `body` (a mask of `crop`) is: its picture cut out
    straight along its outline's sides (a square `side` px wide around its centre, if
    given), its centre (crop px) and its outline's longer side (px)."""
    contours, _ = cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (cx, cy), (w, h), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    longer = max(w, h)
    if side is not None:
        w = h = side
    turn = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    turn[:, 2] += np.array([w / 2, h / 2]) - (cx, cy)
    straight = cv2.warpAffine(crop, turn, (max(round(w), 1), max(round(h), 1)),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    return straight, (cx, cy), longer


def _around_centre(mask: np.ndarray, reach: float) -> np.ndarray | None:
    """The filled outline of the parts of `mask` whose middles lie within `reach` px of
    the mask's centre, taken together (their convex hull: a blurred die's light art may
    cut its body's colour in two); None when there are none."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(closed)
    mid = (mask.shape[1] - 1) / 2, (mask.shape[0] - 1) / 2
    near = [
        i
        for i in range(1, count)
        if stats[i, cv2.CC_STAT_AREA] >= 12 and math.dist(centroids[i], mid) <= reach
    ]
    if not near:
        return None
    points = cv2.findNonZero(np.isin(labels, near).astype(np.uint8))
    filled = np.zeros_like(mask)
    cv2.fillConvexPoly(filled, cv2.convexHull(points), 255)
    return filled


def _face_picture(square: np.ndarray, colour: Colour, edge: int = _EDGE_PX) -> np.ndarray:
    """A face cut out straight (BGR, any size) as what is compared: grey, _FACE_PX square,
    blurred (thin art a pixel off would otherwise count as all wrong), `edge` px left off
    each side, divided by the brightness of its body (where it has the body's `colour`)."""
    grey = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)
    body = colour.mask(cv2.cvtColor(square, cv2.COLOR_BGR2HSV)) > 0
    level = float(np.median(grey[body])) if body.sum() > 20 else float(np.median(grey))
    small = cv2.resize(grey, (_FACE_PX, _FACE_PX), interpolation=cv2.INTER_AREA)
    blurred = cv2.GaussianBlur(small.astype(np.float32), (5, 5), 1.0)
    return blurred[edge : _FACE_PX - edge, edge : _FACE_PX - edge] / max(level, 1.0)


def _blurred(picture: np.ndarray, sigma: float) -> np.ndarray:
    """`picture` as a camera `sigma` px (at PX_PER_MM) blurrier would show it."""
    return cv2.GaussianBlur(picture, (0, 0), sigma) if sigma > 0 else picture


def _least_errors(pictures: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Each picture's least mean square difference from `seen` (a face with _SHIFT px more
    on every side) over every shift by up to _SHIFT px: an outline a little off centre
    moves the art, not what it shows."""
    n = pictures.shape[1]
    least = np.full(len(pictures), np.inf)
    for dy in range(2 * _SHIFT + 1):
        for dx in range(2 * _SHIFT + 1):
            window = seen[dy : dy + n, dx : dx + n]
            least = np.minimum(least, ((pictures - window) ** 2).mean(axis=(1, 2)))
    return least


class TaughtDice:
    """A box's wheel dice as taught: the body's colour, the side (mm) and each face's
    picture (wheels shown -> a BGR picture of the face, cut out straight)."""

    def __init__(self, colour: Colour, side_mm: float, faces: dict[int, np.ndarray]) -> None:
        if not faces:
            raise TaughtError("taught dice need at least one face")
        self.colour = colour
        self.side_mm = side_mm
        self.faces = dict(faces)
        # each face in four quarter turns, and as a blurrier camera than the one it was
        # taught with would see it
        self._wheels = [w for w in self.faces for _ in range(4) for _ in _BLURS]
        self._pictures = np.stack(
            [
                np.rot90(_face_picture(_blurred(p, blur), colour), turn)
                for p in self.faces.values()
                for turn in range(4)
                for blur in _BLURS
            ]
        )
        # how unlike each two faces are (the least over turns): what a seen face's errors
        # against them may differ by at most
        self._apart = {
            (a, b): float(
                min(
                    ((self._pictures[i] - self._pictures[j]) ** 2).mean()
                    for i in range(len(self._wheels))
                    for j in range(len(self._wheels))
                    if self._wheels[i] == a and self._wheels[j] == b
                )
            )
            for a in self.faces
            for b in self.faces
            if a != b
        }

    @classmethod
    def learn(cls, pictures: dict[int, np.ndarray]) -> TaughtDice:
        """Taught dice from the pictures of their faces (wheels -> the face cut out
        straight at PX_PER_MM, BGRA, its outline in alpha, as `upright` gives it): the
        colour of most of their insides, the side their size says."""
        inside = []
        for picture in pictures.values():
            outline = cv2.erode(picture[..., 3], np.ones((7, 7), np.uint8)) > 127
            inside.append(picture[..., :3][outline])
        side = float(np.median([max(p.shape[:2]) for p in pictures.values()])) / PX_PER_MM
        faces = {wheels: picture[..., :3].copy() for wheels, picture in pictures.items()}
        return cls(Colour.of(np.concatenate(inside)), side, faces)

    def find(self, half: np.ndarray, free: np.ndarray, k: float) -> list[tuple[float, float]]:
        """Centres (table mm) of blobs of the dice's colour and size in the colour
        top-down image `half` (at `k` px/mm), looking only where `free` (any scale) is set."""
        allowed = cv2.resize(free, (half.shape[1], half.shape[0]),
                             interpolation=cv2.INTER_NEAREST)  # fmt: skip
        mask = cv2.bitwise_and(self.colour.mask(cv2.cvtColor(half, cv2.COLOR_BGR2HSV)), allowed)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        side = self.side_mm
        found = []
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA] / k**2
            w, h = stats[i, cv2.CC_STAT_WIDTH] / k, stats[i, cv2.CC_STAT_HEIGHT] / k
            if 0.3 * side**2 <= area <= 1.5 * side**2 and 0.6 * side <= max(w, h) <= 1.6 * side:
                found.append((float(centroids[i][0] / k), float(centroids[i][1] / k)))
        return found

    def read(
        self, frame: np.ndarray, calibration: Calibration, x: float, y: float
    ) -> DieReading | None:
        """The die near table point (x, y) mm read on a crop of the original frame: its
        outline in the taught colour, then the taught face it differs from least; None
        when no die of the taught size is there."""
        window = 2.0 * self.side_mm
        for _ in range(2):  # a die found off the crop's centre is cut out again, centred
            crop = crop_at(frame, calibration, x, y, window)
            hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
            body = _around_centre(self.colour.mask(hsv), 0.6 * self.side_mm * PX_PER_MM)
            if body is None:
                return None
            _, (cx, cy), side_px = upright(crop, body)
            if not 0.75 <= side_px / PX_PER_MM / self.side_mm <= 1.3:
                return None
            centre = np.array([cx, cy]) / PX_PER_MM + (x - window / 2, y - window / 2)
            if math.dist(centre, (x, y)) <= 2.0:
                break
            x, y = float(centre[0]), float(centre[1])
        # the lens makes a die a few per cent larger or smaller across the table than where
        # it was taught: the face is cut out at a few sizes around the taught one
        edge = _EDGE_PX - _SHIFT
        errors = np.min(
            [
                _least_errors(self._pictures, _face_picture(square, self.colour, edge))
                for scale in _SCALES
                for square in [upright(crop, body, scale * self.side_mm * PX_PER_MM)[0]]
            ],
            axis=0,
        )
        best: dict[int, float] = {}
        for wheels, error in zip(self._wheels, errors, strict=True):
            best[wheels] = min(best.get(wheels, np.inf), float(error))
        ranked = sorted(best.items(), key=lambda item: item[1])
        face, error = ranked[0]
        confidence = 1.0
        if len(ranked) > 1:  # sure when it is well past halfway from the next face to it
            rival, rival_error = ranked[1]
            apart = self._apart[(face, rival)]
            confidence = float(np.clip((rival_error - error) / max(apart, 1e-6), 0.0, 1.0))
        return DieReading(WHEELS, face, float(centre[0]), float(centre[1]), confidence)

    def save(self, folder: Path) -> None:
        """Write `dice.json` and one PNG per face into `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for wheels, picture in self.faces.items():
            name = f"die-{wheels}.png"
            cv2.imwrite(str(folder / name), picture)
            entries.append({"wheels": wheels, "image": name})
        doc = {"format": FORMAT, "colour": self.colour.as_json(), "side_mm": self.side_mm,
               "faces": entries}  # fmt: skip
        (folder / "dice.json").write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path) -> TaughtDice | None:
        """The dice taught in `folder` (`save`), None when none were; TaughtError says why
        a `dice.json` there cannot be used."""
        index = folder / "dice.json"
        doc = read_taught(index, FORMAT)
        if doc is None:
            return None
        side = doc.get("side_mm")
        if not isinstance(side, (int, float)) or not 5.0 <= side <= 40.0:
            raise TaughtError(f"{index}: side_mm must be a die's side in mm (5-40)")
        faces: dict[int, np.ndarray] = {}
        entries = doc.get("faces")
        for entry in entries if isinstance(entries, list) else ():
            wheels = entry.get("wheels") if isinstance(entry, dict) else None
            image = cv2.imread(str(folder / str(entry.get("image", ""))), cv2.IMREAD_COLOR)
            if not isinstance(wheels, int) or image is None:
                raise TaughtError(f"{index}: each face needs its wheels and a readable image")
            faces[wheels] = image
        if not faces:
            raise TaughtError(f"{index} teaches no face")
        return cls(Colour.from_json(doc.get("colour"), str(index)), float(side), faces)
