"""Drawing on a camera frame what a game read of it (`Camera.draw`, `GET /api/camera.jpg`):
outlines and labels placed in table millimetres, the table's markers and area, and a
caption for what the camera asks or could not see.

Shared by every game's drawing, so the camera view reads alike whatever is played: what was
read in one colour (`READ`), anything unsure in another (`UNSURE`) with its question, the
markers and the table's area in colours of their own. Sizes follow the frame's height, so a
label is as legible on a phone from a 640x480 camera as from a 1920x1080 one.

The labels are words of the page's language, Spanish accents included, which OpenCV's
Hershey fonts (ASCII only) cannot write and no dependency of the project draws (no Pillow,
no FreeType in the headless wheel): a word is split into its letters and their accents
(Unicode NFD); each letter is written with the Hershey font and each accent drawn over it
(acute, grave, tilde, diaeresis), and Spanish's opening ¿ and ¡ are their closing marks
turned upside down. Any other sign the font lacks is written as its nearest ASCII.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence

import cv2
import numpy as np

from companion.vision.calibrate import Calibration
from companion.vision.table import TableLayout

# BGR colours: what was read, what is unsure (with its question), the markers, the table.
READ = (60, 200, 40)
UNSURE = (230, 40, 230)
MARKER = (255, 170, 0)
AREA = (0, 210, 255)
_INK = (20, 20, 20)  # a label's letters, on its colour
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_TEXT_SHARE = 1 / 30  # a label's capital letters, a share of the frame's height
_SMALLEST = 0.5  # a label fitted to a small piece: at least this share of that size
_SMALL = 0.7  # the table's own labels (markers, area), beside the pieces'

# What the drawing itself names, in each language the page speaks.
WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"marker": "marker {n}", "hidden": "marker {n} hidden", "area": "play area"},
    "es": {"marker": "marcador {n}", "hidden": "marcador {n} tapado", "area": "zona de juego"},
}

# Signs the Hershey font lacks, as the nearest ASCII (a letter's accents are drawn).
_ASCII = {"…": "...", "→": "->", "º": "o", "ª": "a", "–": "-", "—": "-", "’": "'"}
_TURNED = {"¿": "?", "¡": "!"}  # drawn as these, upside down
_MIDDLE_DOT = "·"  # between a card's two railcars, the dice: a dot drawn at mid-height


class Sketch:
    """A copy of one frame being drawn on (the frame itself is never written to), with the
    calibration that places table millimetres in it (None: the table was not found, so only
    the caption can be drawn)."""

    def __init__(self, frame: np.ndarray, calibration: Calibration | None) -> None:
        self.image = frame.copy()
        self.calibration = calibration
        height = self.image.shape[0]
        self.scale = _font_scale(max(10.0, height * _TEXT_SHARE))
        self.line = max(2, round(height / 360))
        self._placed: list[tuple[int, int, int, int]] = []  # the labels' boxes so far
        # the table's names, written last (`table`, `finish`)
        self._later: list[tuple[tuple[float, float], str, tuple[int, int, int]]] = []

    def pixels(self, points_mm: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray | None:
        """Frame pixels of table points, None without a calibration."""
        if self.calibration is None:
            return None
        return self.calibration.to_pixels(np.asarray(points_mm, np.float64).reshape(-1, 2))

    def outline(self, corners_mm: np.ndarray, colour: tuple[int, int, int]) -> None:
        """A closed outline through table points (a card's corners), the lens followed."""
        points = self.pixels(_densify(np.asarray(corners_mm, np.float64)))
        if points is not None:
            cv2.polylines(self.image, [np.round(points).astype(np.int32)], True, colour, self.line)

    def ring(
        self, centre_mm: Sequence[float], radius_mm: float, colour: tuple[int, int, int]
    ) -> None:
        """A circle round a table point (a die, the caboose token)."""
        angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        circle = np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius_mm + centre_mm
        self.outline(circle, colour)

    def label(
        self,
        at_mm: Sequence[float],
        text: str,
        colour: tuple[int, int, int],
        fit_mm: float | None = None,
        small: bool = False,
    ) -> None:
        """`text` on a box of `colour` centred on a table point, kept inside the frame;
        `fit_mm`: the piece's width, which the label is made no wider than if it can be
        without getting too small to read (a small card on a large table); `small`: the
        table's own (markers, area), smaller than the pieces'."""
        points = self.pixels([at_mm, (at_mm[0] + (fit_mm or 0.0), at_mm[1])])
        if points is None:
            return
        scale = self.scale * (_SMALL if small else 1.0)
        if fit_mm:
            room = float(np.hypot(*(points[1] - points[0])))
            width = text_size(text, scale, self.line)[0]
            scale = max(scale * _SMALLEST, min(scale, scale * room / max(width, 1)))
        self._label_px((float(points[0][0]), float(points[0][1])), text, colour, scale)

    def _label_px(
        self, centre: tuple[float, float], text: str, colour: tuple[int, int, int], scale: float
    ) -> None:
        """`text` on a box of `colour` centred on a frame pixel, kept inside the frame."""
        width, cap, below = text_size(text, scale, self.line)
        pad = max(2, cap // 4)
        frame_h, frame_w = self.image.shape[:2]
        left = int(min(max(centre[0] - width / 2, pad), frame_w - width - pad))
        top = int(min(max(centre[1] - cap / 2, pad), frame_h - cap - below - pad))
        box = (left - pad, top - pad, left + width + pad, top + cap + below + pad)
        box = self._free(box)
        left, top = box[0] + pad, box[1] + pad
        self._placed.append(box)
        cv2.rectangle(self.image, box[:2], box[2:], colour, -1)
        write(self.image, text, (left, top + cap), scale, _INK, self.line)

    def _free(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """`box` moved up or down, the least it must, off the labels already placed and
        inside the frame (as it is when no place nearby is free): no label hides another."""
        frame_h = self.image.shape[0]
        step = box[3] - box[1] + 1
        for shift in (0, step, -step, 2 * step, -2 * step, 3 * step, -3 * step):
            moved = (box[0], box[1] + shift, box[2], box[3] + shift)
            if (
                moved[1] >= 0
                and moved[3] <= frame_h
                and not any(_overlap(moved, o) for o in self._placed)
            ):
                return moved
        return box

    def table(
        self,
        layout: TableLayout,
        seen: Iterable[int],
        area_mm: tuple[float, float, float, float],
        lang: str,
    ) -> None:
        """The table's markers (`layout`'s, those `seen` by the calibration) and its play
        area (left, top, right, bottom in mm), outlined before the pieces so a piece's
        outline lies over theirs; their names are written by `finish`, after the pieces'
        own, so they move aside rather than push a piece's name off it. A marker not seen
        is outlined in the unsure colour where the layout puts it, and said hidden."""
        found = set(seen)
        words = WORDS[lang]
        # named 1 to 4 clockwise from the top left, whatever their ids (a board's own are 4-7)
        for place, (number, corners) in enumerate(layout.marker_corners().items(), 1):
            colour = MARKER if number in found else UNSURE
            self.outline(corners, colour)
            name = words["marker" if number in found else "hidden"].format(n=place)
            centre = corners.mean(axis=0)
            below = corners[:, 1].max() + layout.marker_mm * 0.45
            above = corners[:, 1].min() - layout.marker_mm * 0.45
            at = (centre[0], below if centre[1] < layout.height / 2 else above)
            self._later.append((at, name, colour))
        left, top, right, bottom = area_mm
        self.outline(np.array([[left, top], [right, top], [right, bottom], [left, bottom]]), AREA)
        self._later.append((((left + right) / 2, top), words["area"], AREA))

    def finish(self, lines: Sequence[tuple[str, tuple[int, int, int]]]) -> np.ndarray:
        """The picture: the table's names (`table`), then `lines` in the caption."""
        for at, name, colour in self._later:
            self.label(at, name, colour, small=True)
        self._later = []
        self.caption(lines)
        return self.image

    def caption(self, lines: Sequence[tuple[str, tuple[int, int, int]]]) -> None:
        """Sentences across the bottom of the frame (what the camera asks, what it could not
        see), each wrapped to the frame's width, on a dark band so they read over anything."""
        frame_h, frame_w = self.image.shape[:2]
        scale = self.scale * _SMALL  # less of the picture under it
        _, cap, below = text_size("Hg", scale, self.line)
        step = cap + below + max(4, cap // 2)
        rows = [
            (row, colour)
            for text, colour in lines
            for row in _wrap(text, frame_w - 2 * step, scale, self.line)
        ]
        if not rows:
            return
        top = frame_h - step * len(rows) - step // 2
        band = self.image[max(0, top) :, :]
        band[:] = (band * 0.35).astype(np.uint8)
        for i, (row, colour) in enumerate(rows):
            write(
                self.image,
                row,
                (step, top + step * i + cap + step // 3),
                scale,
                colour,
                self.line,
            )


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _densify(corners: np.ndarray, pieces: int = 8) -> np.ndarray:
    """A closed polygon's points with `pieces` steps along each side, so the lens's bend is
    followed rather than cut across."""
    following = np.roll(corners, -1, axis=0)
    steps = np.linspace(0, 1, pieces, endpoint=False)[:, None, None]
    return (corners + (following - corners) * steps).transpose(1, 0, 2).reshape(-1, 2)


def _font_scale(cap_px: float) -> float:
    """The Hershey font's scale whose capital letters stand `cap_px` pixels tall."""
    (_, cap), _ = cv2.getTextSize("H", _FONT, 1.0, 1)
    return cap_px / cap


def _glyphs(text: str) -> list[tuple[str, str, bool]]:
    """(base letter, its accents, turned upside down) for each sign of `text` as drawn."""
    glyphs: list[tuple[str, str, bool]] = []
    for sign in unicodedata.normalize("NFD", text):
        if unicodedata.combining(sign):
            if glyphs:
                base, marks, turned = glyphs[-1]
                glyphs[-1] = (base, marks + sign, turned)
            continue
        if sign in _TURNED:
            glyphs.append((_TURNED[sign], "", True))
        elif sign == _MIDDLE_DOT or sign.isascii():
            glyphs.append((sign, "", False))
        else:
            glyphs.extend((c, "", False) for c in _ASCII.get(sign, "?"))
    return glyphs


def text_size(text: str, scale: float, thickness: int) -> tuple[int, int, int]:
    """(width, capital height, depth below the line) of `text` as `write` draws it."""
    (_, cap), below = cv2.getTextSize("H", _FONT, scale, thickness)
    width = sum(_advance(glyph, scale, thickness) for glyph, _, _ in _glyphs(text))
    return width, cap, below


def _advance(glyph: str, scale: float, thickness: int) -> int:
    """How far one letter moves the pen (`write` writes a letter at a time)."""
    return cv2.getTextSize("." if glyph == _MIDDLE_DOT else glyph, _FONT, scale, thickness)[0][0]


def write(
    image: np.ndarray,
    text: str,
    origin: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
    thickness: int,
) -> None:
    """`text` written with its baseline's left end at `origin`, accents and ¿ ¡ included
    (see the module's docstring)."""
    x, y = origin
    (_, cap), below = cv2.getTextSize("H", _FONT, scale, thickness)
    for base, marks, turned in _glyphs(text):
        width = _advance(base, scale, thickness)
        if turned:
            _turned(image, base, (x, y), scale, colour, thickness, cap, below)
        elif base == _MIDDLE_DOT:
            middle = (round(x + width / 2), round(y - cap / 2))
            cv2.circle(image, middle, max(thickness, round(cap / 9)), colour, -1, cv2.LINE_AA)
        else:
            cv2.putText(image, base, (x, y), _FONT, scale, colour, thickness, cv2.LINE_AA)
        top = y - (cap if base.isupper() or base.isdigit() else round(cap * 0.72))
        for mark in marks:
            _accent(
                image, mark, (x + width / 2, top - thickness - cap * 0.12), cap, colour, thickness
            )
        x += width


def _turned(
    image: np.ndarray,
    base: str,
    origin: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
    thickness: int,
    cap: int,
    below: int,
) -> None:
    """`base` upside down in the box it would be written in (¿ from ?, ¡ from !)."""
    width = _advance(base, scale, thickness)
    pad = thickness + 1
    mask = np.zeros((cap + below + 2 * pad, width + 2 * pad), np.uint8)
    cv2.putText(mask, base, (pad, pad + cap), _FONT, scale, 255, thickness, cv2.LINE_AA)
    mask = cv2.flip(mask, -1)
    x, y = origin
    # its letter stands on the line as the letter upright does, lowered a little: ¿ hangs
    top, left = y - cap - below - pad + round(cap * 0.2), x - pad
    frame_h, frame_w = image.shape[:2]
    t, lf = max(top, 0), max(left, 0)
    b, r = min(top + mask.shape[0], frame_h), min(left + mask.shape[1], frame_w)
    if t >= b or lf >= r:
        return
    alpha = mask[t - top : b - top, lf - left : r - left, None] / 255.0
    region = image[t:b, lf:r]
    region[:] = (region * (1 - alpha) + np.array(colour) * alpha).astype(np.uint8)


def _accent(
    image: np.ndarray,
    mark: str,
    at: tuple[float, float],
    cap: int,
    colour: tuple[int, int, int],
    thickness: int,
) -> None:
    """One accent centred at `at`, its foot there: acute, grave, tilde or diaeresis (any
    other combining mark is left out: Spanish needs none)."""
    x, y = at
    size = cap * 0.3
    if mark == "\u0301":  # acute
        lines = [[(x - size * 0.3, y), (x + size * 0.4, y - size)]]
    elif mark == "\u0300":  # grave
        lines = [[(x + size * 0.3, y), (x - size * 0.4, y - size)]]
    elif mark == "\u0303":  # tilde
        wave = np.linspace(-1, 1, 9)
        lines = [[(x + w * size, y - size * 0.5 - np.sin(w * np.pi) * size * 0.35) for w in wave]]
    elif mark == "\u0308":  # diaeresis
        for dx in (-size * 0.5, size * 0.5):
            cv2.circle(
                image, (round(x + dx), round(y - size * 0.4)), thickness, colour, -1, cv2.LINE_AA
            )
        return
    else:
        return
    for line in lines:
        points = np.round(np.array(line)).astype(np.int32)
        cv2.polylines(image, [points], False, colour, thickness, cv2.LINE_AA)


def _wrap(text: str, width: int, scale: float, thickness: int) -> list[str]:
    """`text` in lines no wider than `width` pixels, broken between words."""
    rows: list[str] = []
    for word in text.split():
        if rows and text_size(f"{rows[-1]} {word}", scale, thickness)[0] <= width:
            rows[-1] = f"{rows[-1]} {word}"
        else:
            rows.append(word)
    return rows


def encode_jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    """A frame as JPEG bytes (OpenCV's encoder); ValueError if OpenCV cannot."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("OpenCV could not encode the frame as JPEG")
    return data.tobytes()
