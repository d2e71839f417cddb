"""One camera frame in, every train on the table out: `read_yard`.

What the watcher gets (`Yard`): each train (`SeenTrain`) as its cards, engine first, each
card (`SeenCard`) with its code as it lies (`R3-B2`, a turned card written turned as
cards.turned does, `W` face down, `E` the engine), its pose in table mm and whether it was
read surely. A card not read surely is `UNSURE`, never a guess: the watcher waits for a
frame that shows it.

How (our design, art.py, is made for each step):
1. the table: the four markers place it (companion/vision/calibrate.py), and it is warped
   to a top-down image at 1 px/mm, where every card is a card-sized rectangle wherever
   the camera stands;
2. the cards: each face and back has a dark frame inset from a white margin, so an
   adaptive threshold of grey ink leaves one closed dark rectangle per card, even for
   cards laid end to end; its outline, trued up by the frame's four outer edges (paper
   to ink), gives the card's pose but for a half turn. Where the table seen through the
   gaps joins a row's frames into one blob, the cards are looked for a card's length on
   from each card read (`_along_rows`);
3. each card is cut out upright (`_card_grid`) and its 4 x 6 grid of cells measured: the
   mean grey of each cell's middle, and the colour of the cells where railcars are. Which
   end is its top is where its cargo colour is (the railcars lie along the printed
   bottom); the code strip above them says which railcars (three black cells of six each,
   the three darkest: no threshold to tune) and the cargo colour, measured against the
   card's own white, must agree. The engine and the back are their own strips. A cell
   too close to call, a colour that disagrees, a card our deck does not hold: unsure. A
   card that does not lie flat looks bent and unevenly lit: an unsure card is read again
   cut out along its frame's edges as found (companion/vision/bend.py), then with its
   light evened;
4. the trains: an engine and the cards in a row from it, each the next's neighbour end to
   end (`_chains`); a gap of one or two cards' length in a row, where a hand hides them,
   is as many unsure cards, so the cards after it stay in their train. A hidden engine
   leaves its train's cards loose, a hidden last card makes its train look shorter: the
   watcher waits for a frame that shows them;
5. glare: a lamp's reflection (companion/vision/frame_checks.py `glare_mask`) is said
   (`glare`), so the watcher takes no view of the table while it lasts: a train whose last
   card it hides is not taken as shorter. A card it washes out fails step 3's checks (a
   cell too close to call, a cargo colour that disagrees) and is unsure or not found,
   never misread (none wrong and sure in 90 hard tables with glare, seeds 5000-5089).

`read_yard` never raises on a bad frame: what it could not see is in `Yard.problems`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.games.yardmaster import art, cards
from companion.games.yardmaster import edition as editions
from companion.games.yardmaster.scenes import TABLE
from companion.pose import Pose
from companion.vision.bend import Bend, bent_crop, frame_bend, frame_edges
from companion.vision.calibrate import LEAST_PX_PER_MM, Calibration, calibrate, top_down
from companion.vision.frame_checks import as_bgr, colourless, glare_mask
from companion.vision.table import TableLayout

UNSURE = "?"  # the code of a card that was not read surely

_PX_PER_MM = 1.0  # the top-down image's scale: about what the camera sees at best
# the camera must see the table this finely (frame px per mm at its centre), the shared
# LEAST_PX_PER_MM and a little more: our cards' 3 mm white margins blur shut below it and
# a train's frames run into one blob (a 720p webcam's hard tables, seeds 7000-7039: whole
# trains unseen at 0.52-0.54, every card found from 0.55)
_LEAST_PX_PER_MM = max(LEAST_PX_PER_MM, 0.55)
_CROP_SCALE = 2.0  # `_upright`'s pixels a mm
_CELL_PX, _CELL_MIDDLE = 10, 6  # `_card_grid`'s pixels a cell each way, and those averaged
_INK_SPREAD = 32  # grey levels between a frame's colour channels, at most; wood's are more
_FRAME_CONTRAST = 16  # grey levels a frame is darker than what lies round it, at least
# how clearly black and white cells must part, in shares of the card's black-to-white
# spread: an engine's or back's cell this far from the middle grey (of half the spread), a
# railcar's third and fourth darkest code cells this far apart; or the card is unsure
_SURE_GAP = 0.45
_LEAST_SPREAD = 18.0  # grey levels between a card's black and white, at least
# grey levels between the black and white of a card's grid cut out flat, however it lies,
# at least: its code cells' ink on its paper. Bare wood past a row's end shows less, and
# is not worth reading again bent and nudged. Every card read surely showed 83 or more
# flat, each read surely only bent, evened or nudged 115 or more (hard tables 3000-3059,
# glare 3100-3159, curl 3200-3239, 720p 7000-7039); 454 of 460 frames found on wood past
# a row's end 34 or less, the rest 56-123 (those and 1000-1099, 3300-3339, 3700-3759)
_CARD_INK = 60.0
_COLOURFUL = 0.16  # chroma (share of the card's white) of a railcar's cargo, at least
_GAP_MM = (0.0, 3.0)  # between two cards of a row as a hand lays them
_HIDDEN_MOST = 2  # cards in a row that a hand may hide, the row going on beyond them
_JOIN_MM = 9.0  # how far a neighbour's centre may lie off where end to end puts it

PROBLEMS: dict[str, str] = {
    "no_image": "no usable image came from the camera",
    "frame_tiny": "the frame is only {width}x{height} pixels",
    "too_dark": "the picture is almost black: is the light on and the lens uncovered?",
    "overexposed": "the picture is overexposed: dim the light or lower the camera's exposure",
    "markers_hidden": "table markers {markers} not seen: is something lying on them?",
    "no_table": "cannot place the table: fewer than two markers are visible",
    "too_coarse": "the camera sees the table too coarsely ({per_cm} pixels a centimetre, at "
    "least {least} are needed): bring the camera nearer the table or choose a larger picture size",
    "frame_unread": "this frame could not be read ({error})",
    "cards_unsure": "{n} card(s) could not be read surely: is something lying on them?",
    "no_colour": "the picture has no colour, and a railcar's cargo is told by its colour: "
    "switch the camera's colour on or use a colour camera",
    "glare": "a reflection hides part of the table: move the lamp or tilt the camera",
}


@dataclass(frozen=True)
class Problem:
    """One thing a frame could not show: `key` (of `PROBLEMS`) and its parameters, which a
    page says in its own language; `text()` in English."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return PROBLEMS[self.key].format_map(self.params)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params), "text": self.text()}


@dataclass(frozen=True)
class SeenCard:
    """A card on the table: its code as it lies (`UNSURE` when not read surely), its pose
    (rotation: where its printed top points; a back has no top, so a face-down card's is
    either half turn) and whether it lies turned end for end (a face-up railcar card; its
    printed code is then cards.turned(code))."""

    code: str
    pose: Pose
    sure: bool
    turned: bool = False


@dataclass(frozen=True)
class SeenTrain:
    """One train: its cards engine first, as they lie; `rotation` is its owner's upright
    (0 on the bottom side, 90 left, 180 top, 270 right): the train runs along
    table.rotate((1, 0), rotation) from its engine."""

    cards: tuple[SeenCard, ...]
    rotation: float

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)

    @property
    def sure(self) -> bool:
        return all(card.sure for card in self.cards)


@dataclass(frozen=True)
class Yard:
    """What one frame shows: the trains, the cards in no engine's row (`loose`), what could
    not be seen, and the calibration to hand to the next `read_yard` (kept while the
    camera stands still; it stands in for markers a hand hides)."""

    trains: tuple[SeenTrain, ...] = ()
    loose: tuple[SeenCard, ...] = ()
    problems: tuple[Problem, ...] = ()
    calibration: Calibration | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ReaderConfig:
    """What the reader must know of the table: where its markers are and which railcar
    cards the box holds (printed codes; the edition's deck): a card read as one the box
    does not hold is unsure."""

    layout: TableLayout = TABLE
    deck: Collection[str] = field(default_factory=lambda: frozenset(editions.load().deck))


def read_yard(
    frame_bgr: object, config: ReaderConfig | None = None, *, calibration: Calibration | None = None
) -> Yard:
    """Every train in one frame. `calibration` (a previous Yard's) is reused while the
    camera has not moved and stands in when markers are hidden."""
    config = config or ReaderConfig()
    return read_frame(
        frame_bgr, config, calibration, lambda top, seen: _our_cards(top, config, seen.eye())
    )


def read_frame(
    frame_bgr: object,
    config: ReaderConfig,
    calibration: Calibration | None,
    find_cards: Callable[[np.ndarray, Calibration], list[_Read]],
) -> Yard:
    """What every reader of a deck does round its own way of finding and naming cards:
    the frame checked, the table placed by its markers (`calibration` standing in when
    they are hidden) and warped top-down at _PX_PER_MM, `find_cards` of that image
    chained into trains, and what could not be seen said. Never raises on a bad frame. A
    frame without colour is read as well, and said: a railcar's cargo is told by its colour,
    so through a grey camera every face-up railcar is asked (30 hard tables, seed 900: 380
    of 585 cards asked, none wrong), and the family is told why."""
    problems: list[Problem] = []
    frame = _as_frame(frame_bgr, problems)
    if frame is None:
        return Yard(problems=tuple(problems))
    if colourless(frame):  # read on: an unsure card is asked, never guessed
        problems.append(Problem("no_colour"))
    seen = calibrate(frame, config.layout, calibration)
    if seen is None or len(seen.markers) < 4:
        missing = sorted(set(range(4)) - set(seen.markers if seen else ()))
        problems.append(Problem("markers_hidden", {"markers": ", ".join(map(str, missing))}))
        if seen is None and calibration is not None:
            seen = calibration if calibration.frame_size == frame.shape[1::-1] else None
        if seen is None:
            problems.append(Problem("no_table"))
            return Yard(problems=tuple(problems))
    density = seen.px_per_mm((config.layout.width / 2, config.layout.height / 2))
    if density < _LEAST_PX_PER_MM:  # frames run together, whole trains unseen: said
        params = {"per_cm": round(density * 10, 1), "least": round(_LEAST_PX_PER_MM * 10, 1)}
        return Yard(problems=(*problems, Problem("too_coarse", params)), calibration=seen)
    try:
        found = find_cards(top_down(frame, seen, config.layout, _PX_PER_MM), seen)
        glare = glare_mask(frame)
    except cv2.error as error:  # OpenCV refusing an odd frame must not stop the referee
        problems.append(Problem("frame_unread", {"error": str(error).strip()}))
        return Yard(problems=tuple(problems), calibration=seen)
    if glare is not None:
        problems.append(Problem("glare"))  # frame_checks.GLARE_KEY, as every game says it
    trains, loose = _chains(found)
    unsure = sum(not c.sure for t in trains for c in t.cards) + sum(not c.sure for c in loose)
    if unsure:
        problems.append(Problem("cards_unsure", {"n": unsure}))
    return Yard(tuple(trains), tuple(loose), tuple(problems), seen)


def _our_cards(top: np.ndarray, config: ReaderConfig, eye: np.ndarray | None) -> list[_Read]:
    """Our design's cards in the top-down image, each read (steps 2 and 3 above); `eye`
    where the camera stands (Calibration.eye), which says how a bent card looks bent. An
    open frame whose four edges `_true_up` found a frame's size apart is a card even when
    it cannot be read: asked where no card is found after all, never left out (a 720p
    webcam's curled engine at the table's far edge, its frame open and a code cell
    blurred, was left out and its train unseen, unsaid: hard table 7040; on hard tables
    7000-7119 at 720p and 7000-7059 at the default size no open frame read unsure lay where
    no card does). Only after the rows are followed: a card asked there would stop a sure
    neighbour from being looked for."""
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    closed, open_ = _card_poses(top, grey)
    found = [_read_card(top, pose, config, eye) for pose in closed]
    opened = [_read_card(top, pose, config, eye) for pose in open_]
    found += [r for r in opened if r.printed != UNSURE]
    more, ends = _along_rows(top, grey, found, config, eye)
    found += more
    # an open frame, or a frame at a row's end, read unsure where no card was found after
    # all: a card, asked
    for r in opened + ends:
        if r.printed == UNSURE and all(math.dist(r.pose[:2], o.pose[:2]) >= 20.0 for o in found):
            found.append(r)
    return found


def _as_frame(frame: object, problems: list[Problem]) -> np.ndarray | None:
    """An 8-bit BGR image of whatever a frame source gave (grey, BGRA, floats), or None
    with the reason (the shared checks, companion/vision/frame_checks.py) as a problem."""
    image, bad = as_bgr(frame)
    if bad is not None:
        key, params = bad
        problems.append(Problem(key, params))
    return image


def _card_poses(top: np.ndarray, grey: np.ndarray) -> tuple[list[Pose], list[Pose]]:
    """The cards in the top-down image: the outer outline of each dark frame, a rectangle
    of about the frame's size (up to the card's: the table seen through a hair's gap
    between two cards can cling to a frame's outline), trued up by `_true_up`; rotation is
    the one of the two half turns nearer 0 (the grid says which end is the top). A frame
    whose outline is lost in a blob with its neighbours' is `_along_rows`' to find.

    Two lists: the closed frames, then the open ones (a dim card's frame broken where its
    print is dark too), which count as cards read surely, or as cards asked where no card
    is found after all (`_our_cards`)."""
    k = _PX_PER_MM
    # ink is grey, the table's grain and shade brown: dark and coloured is no frame. The
    # colour is the channels' spread in grey levels, not HSV's saturation (their spread
    # over the brightest), which a lamp's cast makes large on anything dark, ink too
    b, g, r = cv2.split(top)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    dark = cv2.adaptiveThreshold(
        grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, round(15 * k) | 1,
        _FRAME_CONTRAST,
    )  # fmt: skip
    dark = cv2.bitwise_and(dark, cv2.inRange(spread, 0, _INK_SPREAD))
    # bridge a pixel's break in a frame line (blur, a dim corner; black cells beside the
    # frame darken the threshold's neighbourhood): an open frame is no rectangle
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    closed: list[Pose] = []
    open_: list[Pose] = []
    centres: list[tuple[float, float]] = []  # of both
    # the table's grain and the cards' shadows leave streaks a pixel or two thick that can
    # cling to a frame's outline; eroded away, the frame (3 mm) still stands
    for mask, eroded in ((dark, 0), (cv2.erode(dark, np.ones((3, 3), np.uint8)), 1)):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        least = _least_hull(eroded)
        for contour in contours:
            _, _, box_w, box_h = cv2.boundingRect(contour)
            if box_w * box_h < least:  # its hull is smaller still: most blobs end here
                continue
            solid, roughs = _frame_outlines(contour, eroded)
            for rough in roughs:
                if any(math.dist((rough.x, rough.y), at) < 20.0 for at in centres):
                    continue
                pose = _true_up(grey, rough)
                if pose is not None:
                    (closed if solid else open_).append(pose)
                    centres.append((pose.x, pose.y))
    return closed, open_


def _frame_outlines(contour: np.ndarray, eroded: int = 0) -> tuple[bool, list[Pose]]:
    """The rough poses of the cards whose frames a blob's outline could be: one frame, or
    a row of frames end to end that the table seen through their gaps joined into one
    blob (as long as a whole number of cards); none for anything else. `eroded` pixels
    were taken off the blob's edge all round. First whether the outline is closed (its
    area fills its rectangle; an open frame's outline runs round both sides of its
    line, so only its hull does)."""
    k = _PX_PER_MM
    frame_w, frame_h = _FRAME_OUTER[0] - 2 * eroded / k, _FRAME_OUTER[1] - 2 * eroded / k
    area, hull = cv2.contourArea(contour), cv2.contourArea(cv2.convexHull(contour))
    if hull < _least_hull(eroded):
        return False, []
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    if w < h:
        w, h, angle = h, w, angle + 90.0
    w, h = w / k, h / k
    pitch = art.CARD_MM[0] + sum(_GAP_MM) / 2
    n = max(1, round((w - frame_w) / pitch) + 1)  # frames end to end in the blob
    if not (0.88 * frame_h < h < art.CARD_MM[1] + 3) or n > 9:
        return False, []
    if not (0.9 * frame_w < w - (n - 1) * pitch < art.CARD_MM[0] + 3):
        return False, []
    if hull / k**2 / (w * h) < 0.85:
        return False, []
    rotation = angle % 180.0
    rotation = rotation if rotation <= 90.0 else rotation - 180.0
    along = _lengthwise(pitch, rotation)
    centres = [np.array([cx / k, cy / k]) + (i - (n - 1) / 2) * along for i in range(n)]
    return area / k**2 / (w * h) >= 0.6, [Pose(float(x), float(y), rotation) for x, y in centres]


def _least_hull(eroded: int) -> float:
    """The least area (px) of a blob's hull that can be a card's frame, `eroded` pixels
    taken off the blob's edge all round."""
    k = _PX_PER_MM
    return 0.8 * (_FRAME_OUTER[0] - 2 * eroded / k) * (_FRAME_OUTER[1] - 2 * eroded / k) * k * k


def _along_rows(
    top: np.ndarray,
    grey: np.ndarray,
    found: list[_Read],
    config: ReaderConfig,
    eye: np.ndarray | None,
) -> tuple[list[_Read], list[_Read]]:
    """Cards the outlines missed, looked for where a row of cards puts them: a card's
    length on from each card read, either way along it, where no card was found. A dark
    table seen through the hair's gaps between cards can join a whole row's frames into
    one blob, but each frame's outer edges are still there for `_true_up` to find. Only
    a card read surely counts: a row's end is never lengthened by a guess. The frames
    found at a row's end that show an engine's strip but read unsure come second, for
    `_our_cards` to ask about: a 720p webcam's blurred engine there had been left out, and
    its train taken for loose cards, unsaid (hard table 7041)."""
    pitch = art.CARD_MM[0] + sum(_GAP_MM) / 2
    left, top_edge, right, bottom = config.layout.play_area()
    seen = [r for r in found if r.printed != UNSURE]
    centres = [(r.pose.x, r.pose.y) for r in found]  # and of those added
    added: list[_Read] = []
    unsure: list[_Read] = []
    while seen:
        read = seen.pop()
        for direction in (1.0, -1.0):
            step = _lengthwise(direction * pitch, read.pose.rotation)
            x, y = np.array(read.pose[:2]) + step
            if not (left < x < right and top_edge < y < bottom) or any(
                math.dist((x, y), at) < 20.0 for at in centres
            ):
                continue
            pose = _true_up(grey, Pose(float(x), float(y), read.pose.rotation))
            if pose is None:
                continue
            # past a row's end, the table's grain can pass for a frame's edges; its cells
            # show no card's ink, so it is not read again bent, evened and nudged (74 more
            # readings, most of a frame's time)
            cells = _card_grid(top, pose)
            inked = _spread(cells) >= _CARD_INK
            more = _read_card(top, pose, config, eye, cells) if inked else _Read(UNSURE, pose)
            if more.printed != UNSURE:
                added.append(more)
                centres.append((more.pose.x, more.pose.y))
                seen.append(more)
            elif _engine_strip(cells):
                unsure.append(more)
    return added, unsure


_FRAME_OUTER = (art.CARD_MM[0] - 2 * art.MARGIN_MM, art.CARD_MM[1] - 2 * art.MARGIN_MM)


def _lengthwise(length: float, rotation: float) -> np.ndarray:
    """`length` mm along a card that lies at `rotation`, as table.rotate turns (length, 0):
    the same two numbers without its matrix product (tens of calls a frame)."""
    a = math.radians(rotation)
    return np.array([length * math.cos(a), length * math.sin(a)])


_TRUE_UP_MM = 3.5  # how far `_true_up` looks for a frame's edge round where it should be


def _upright(image: np.ndarray, pose: Pose, size_mm: tuple[float, float]) -> np.ndarray:
    """`size_mm` of the top-down `image` round `pose`, cut out at _CROP_SCALE px/mm and
    turned so that the pose's rotation points up: pixel (u, v) shows the point (u / s -
    width / 2, v / s - height / 2) mm from the pose's centre, in the card's own axes."""
    s, k = _CROP_SCALE, _PX_PER_MM
    w, h = size_mm
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    m = np.array([[c / s, -sn / s, 0.0], [sn / s, c / s, 0.0]])
    m[:, 2] = np.array([pose.x, pose.y]) - m[:, :2] @ (np.array([w, h]) * s / 2)
    size = (round(w * s), round(h * s))
    return cv2.warpAffine(image, m * k, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


def _true_up(grey: np.ndarray, pose: Pose) -> Pose | None:
    """`pose` moved so that the card's frame lies where it must: each of its four outer
    edges is where paper turns to ink most steeply, going into the card, within
    _TRUE_UP_MM of its place (a profile averaged along the edge's middle). The frame's
    outer edge always has the white margin outside it, whatever is printed inside. None
    when the edges found are not a frame's size apart: no card of ours."""
    s = _CROP_SCALE
    size = (_FRAME_OUTER[0] + 4 * _TRUE_UP_MM, _FRAME_OUTER[1] + 4 * _TRUE_UP_MM)
    crop = _upright(grey, pose, size)
    found = []
    for axis, along in ((0, 10.0), (1, 20.0)):
        half = _FRAME_OUTER[axis] / 2
        middle = size[1 - axis] * s / 2
        band = slice(round(middle - along * s), round(middle + along * s))
        profile = _mean(crop[band, :], 0) if axis == 0 else _mean(crop[:, band], 1)
        ends = frame_edges(profile, half, s, _TRUE_UP_MM)
        if abs((ends[1] - ends[0]) - 2 * half) > 2.0:
            return None
        found.append((ends[0] + ends[1]) / 2)
    dx, dy = found
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    return Pose(pose.x + dx * c - dy * sn, pose.y + dx * sn + dy * c, pose.rotation)


@dataclass(frozen=True)
class _Read:
    """A card as `_read_card` read it, before trains are made: its printed code (`E`, `W`,
    a railcar card's printed code, or UNSURE) and pose (rotation: its printed top)."""

    printed: str
    pose: Pose


def _card_grid(top: np.ndarray, pose: Pose, bend: Bend | None = None) -> np.ndarray:
    """The card at `pose` measured: the mean BGR (ROWS, COLUMNS, 3) of the middle of each
    grid cell, the card upright (its top where `pose.rotation` points). One warp cuts the
    grid out at _CELL_PX pixels a cell each way, and the middle _CELL_MIDDLE of them
    each way are averaged: a cell's edges blur into its neighbours. A card that does not
    lie flat is cut out following its `bend` (bend.frame_bend)."""
    cw, ch = art.cell_mm()
    b = _CELL_PX
    a = math.radians(pose.rotation)
    c, sn = math.cos(a), math.sin(a)
    turn = np.array([[c, -sn], [sn, c]])
    m = np.empty((2, 3))
    m[:, :2] = turn @ np.diag([cw / b, ch / b])
    corner = np.array([0.5 * cw / b - art.COLUMNS * cw / 2, 0.5 * ch / b - art.ROWS * ch / 2])
    m[:, 2] = np.array([pose.x, pose.y]) + turn @ corner
    size = (art.COLUMNS * b, art.ROWS * b)
    if bend is None:
        flags = cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
        grid = cv2.warpAffine(top, m * _PX_PER_MM, size, flags=flags)
    else:
        grid = bent_crop(top, pose, (art.COLUMNS * cw, art.ROWS * ch), bend, size, _PX_PER_MM)
    # each cell's middle summed (whole grey levels, so in any order exactly) down its rows,
    # then across: the mean np.mean takes, at half its cost
    edge = (b - _CELL_MIDDLE) // 2
    rows = grid.reshape(art.ROWS, b, -1)[:, edge : b - edge].sum(axis=1, dtype=np.uint16)
    sums = rows.reshape(art.ROWS, art.COLUMNS, b, 3)[:, :, edge : b - edge].sum(axis=2)
    return sums.astype(np.float32) / np.float32(_CELL_MIDDLE**2)


def _read_card(
    top: np.ndarray,
    pose: Pose,
    config: ReaderConfig,
    eye: np.ndarray | None = None,
    cells: np.ndarray | None = None,
) -> _Read:
    """Which card lies at `pose` and which way round (art.py's grid), or UNSURE. A card
    that does not lie flat turns part of its face from the lamp, which darkens one end by
    up to a third, and bent, off a flat card's grid: a card unsure as measured is read
    again cut out along its frame's edges (bend.frame_bend), with its light made even
    (`_even_light`), and a little moved and turned; every check still applies, so it is
    read surely or not at all. `cells`: its `_card_grid`, when already measured."""
    cells = _card_grid(top, pose) if cells is None else cells
    read = _read_cells(cells, pose, config)
    if read.printed != UNSURE:
        return read
    bend = frame_bend(top, pose, _FRAME_OUTER, eye, _PX_PER_MM)
    read = _read_bent(top, pose, bend, config)
    if read.printed != UNSURE:
        return read
    # its frame's edges place a bent card to a millimetre or so, which a grid of 8 mm
    # cells can miss: read it a little moved and turned, never as far as a neighbouring
    # cell's middle; taken only when every sure reading agrees and two do at least
    readings = [_read_bent(top, Pose(pose.x + dx, pose.y + dy, pose.rotation + turn), bend, config)
                for dx, dy, turn in _NUDGES]  # fmt: skip
    sure = [r for r in readings if r.printed != UNSURE]
    ways = {(r.printed, round((r.pose.rotation - pose.rotation) % 360.0 / 180.0) % 2) for r in sure}
    if len(sure) >= 2 and len(ways) == 1:
        return sure[0]
    return read


_NUDGE_MM, _NUDGE_DEG = (-1.5, -0.75, 0.0, 0.75, 1.5), (-1.5, 0.0, 1.5)
_NUDGES = [(dx, dy, t) for dx in _NUDGE_MM for dy in _NUDGE_MM for t in _NUDGE_DEG if dx or dy or t]


def _read_bent(top: np.ndarray, pose: Pose, bend: Bend | None, config: ReaderConfig) -> _Read:
    """The card at `pose` read cut out along its `bend` (as flat without one), then, if
    unsure, with its light evened."""
    cells = _card_grid(top, pose, bend)
    read = _read_cells(cells, pose, config)
    if read.printed != UNSURE:
        return read
    evened = _even_light(cells)
    return read if evened is None else _read_cells(evened, pose, config)


_GREY = np.array([0.114, 0.587, 0.299], np.float32)  # BGR to grey, as OpenCV weighs them
# the terms of `_even_light`'s plane over the card's cells, one row a cell: 1, row, column
_LIGHT_TERMS = (
    np.stack([np.ones((art.ROWS, art.COLUMNS)), *np.mgrid[0 : art.ROWS, 0 : art.COLUMNS]], -1)
    .reshape(-1, 3)
    .astype(np.float32)
)


def _even_light(cells: np.ndarray) -> np.ndarray | None:
    """The card's cells (ROWS, COLUMNS, 3) as if its paper were lit evenly: the light over
    the card is fitted to its white cells as a plane (one card's face bends gently) and
    divided out, the white cells chosen anew under the fitted light, twice over; None
    when too few cells are white to fit it."""
    grey = (cells @ _GREY).ravel()
    order = np.sort(grey)
    middle = len(order) // 2  # the median of an even number of cells, as np.median takes it
    light = np.full_like(grey, float((order[middle - 1] + order[middle]) / 2))
    for _ in range(3):
        flat = grey / light
        order = np.sort(flat)
        white = flat >= (_mean(order[:3]) + _mean(order[-3:])) / 2
        columns = _LIGHT_TERMS[white, 2]
        if len(columns) < 6 or columns.min() == columns.max():
            return None
        fit, *_ = np.linalg.lstsq(_LIGHT_TERMS[white], grey[white], rcond=None)
        light = np.maximum(_LIGHT_TERMS @ fit, 1.0)
    scale = light.reshape(art.ROWS, art.COLUMNS, 1) / float(_mean(light))
    return (cells / scale).astype(np.float32)


def _spread(cells: np.ndarray) -> float:
    """Grey levels between a measured grid's black and white (`_black_white`)."""
    _, black, white = _black_white(cells)
    return white - black


def _black_white(cells: np.ndarray) -> tuple[np.ndarray, float, float]:
    """A measured grid's cells in grey, and its black and white (its three darkest and
    three brightest cells)."""
    grey = cells @ _GREY
    flat = np.sort(grey.ravel())
    return grey, float(_mean(flat[:3])), float(_mean(flat[-3:]))


def _mean(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """np.mean in float32 of `values` (float32, or whole grey levels, which float32 sums
    exactly) along `axis`, without its bookkeeping, a few microseconds a call and tens of
    calls a card: the same sum divided in float32, which rounds as np.mean's division
    does, so the very same number."""
    count = values.size if axis is None else values.shape[axis]
    return np.add.reduce(values, axis=axis, dtype=np.float32) / np.float32(count)


def _engine_strip(cells: np.ndarray) -> bool:
    """Whether a measured grid (`_card_grid`) shows an engine's strip either way round,
    however unsure its cells: a card's black and white apart by `_LEAST_SPREAD`, which
    bare wood and a gap between cards are not."""
    grey, black, white = _black_white(cells)
    if white - black < _LEAST_SPREAD:
        return False
    bits = (grey < (black + white) / 2).astype(int)
    return bool((bits[:2] == _ENGINE).all() or (bits[::-1, ::-1][:2] == _ENGINE).all())


def _read_cells(cells: np.ndarray, pose: Pose, config: ReaderConfig) -> _Read:
    """Which card its measured grid (`_card_grid`) shows and which way round, or UNSURE."""
    grey, black, white = _black_white(cells)
    spread = white - black
    unsure = _Read(UNSURE, pose)
    if spread < _LEAST_SPREAD:
        return unsure
    # the engine and the back: their strips, read against the card's black and white
    mid = (black + white) / 2
    bits = (grey < mid).astype(int)
    if (bits == _BACK).all():
        return _Read(cards.FACE_DOWN, pose) if _clear(grey, mid, spread).all() else unsure
    for strip, flip in ((bits[:2], 0.0), (bits[::-1, ::-1][:2], 180.0)):
        if (strip == _ENGINE).all():
            clear = _clear(grey, mid, spread)
            clear = clear[:2] if flip == 0.0 else clear[::-1, ::-1][:2]
            return _Read(cards.ENGINE, _turn(pose, flip)) if clear.all() else unsure
    # a railcar card: its colour lies along its printed bottom (rows 2-3)
    # the card's white, channel by channel: a quarter of the cells are white code cells,
    # and a yellow wagon is as bright but in red and green only
    paper = np.sort(cells.reshape(-1, 3), axis=0)[_PAPER_RANK] + 1.0
    ratio = cells / paper
    chroma = ratio.max(axis=2) - ratio.min(axis=2)
    wagons = [0, 2, 3, 5]  # the cells of a wagon clear of its value
    up, down = float(_mean(chroma[2, wagons])), float(_mean(chroma[1, wagons]))
    if max(up, down) < _COLOURFUL or min(up, down) > 0.5 * max(up, down):
        return unsure
    flip = 0.0 if up > down else 180.0
    oriented, colours = (grey, ratio) if flip == 0.0 else (grey[::-1, ::-1], ratio[::-1, ::-1])
    halves = []
    for half in (0, 1):
        strip = oriented[:2, 3 * half : 3 * half + 3].ravel()
        order = np.sort(strip)
        if order[3] - order[2] < _SURE_GAP * (_mean(order[3:]) - _mean(order[:3])):
            return unsure
        word = tuple(map(int, (strip <= order[2]).tolist()))
        railcar = art.railcar_of_word(word)
        if railcar is None or _cargo(_mean(colours[2, [3 * half, 3 * half + 2]], 0)) != railcar[0]:
            return unsure
        halves.append(railcar)
    printed = cards.code(halves[0], halves[1])
    if printed not in config.deck:
        return unsure
    return _Read(printed, _turn(pose, flip))


def _clear(grey: np.ndarray, mid: float, spread: float) -> np.ndarray:
    """Which of a grid's cells (grey) lie clear of its middle grey `mid`, by `_SURE_GAP` of
    half its black-to-white `spread`: an engine's or back's cells must, all of them."""
    return np.abs(grey - mid) >= _SURE_GAP * spread / 2


_BACK = np.array(art.BACK_ROWS + (art.BACK_ROWS[1][::-1], art.BACK_ROWS[0][::-1]))
_ENGINE = np.array(art.ENGINE_ROWS)
# the card's white is the cells' 85th percentile, channel by channel (of 24 cells)
_PAPER_RANK = round(0.85 * (art.ROWS * art.COLUMNS - 1))


def _turn(pose: Pose, by: float) -> Pose:
    return Pose(pose.x, pose.y, (pose.rotation + by) % 360.0)


def _hue(ratio: np.ndarray) -> np.ndarray:
    """The direction (a unit vector) in which a colour, as a share of each channel of the
    card's white, leaves grey: its hue. Blur, JPEG and a dim lamp wash a colour towards
    grey, which shortens this vector but hardly turns it."""
    share = ratio / (ratio.sum() + 1e-6) - 1.0 / 3.0
    return share / (float(np.sqrt(share.dot(share))) + 1e-6)  # np.linalg.norm's own sum


_CARGO_HUES = np.stack(
    [
        _hue(np.array(colour, np.float32) / np.array(art.PAPER, np.float32))
        for colour in art.CARGO.values()
    ]
)
_HUE_NEAR = math.cos(math.radians(30.0))  # a wagon's hue this near its cargo's, at least
_HUE_APART = math.radians(15.0)  # and this much nearer it than any other cargo's


def _cargo(ratio: np.ndarray) -> str | None:
    """The cargo colour of a wagon seen at `ratio` of the card's white (per channel): the
    printed colour nearest in hue, or None when none is near or two are about as near."""
    angles = np.arccos(np.clip(_CARGO_HUES @ _hue(ratio), -1.0, 1.0))
    best, second = np.partition(angles, 1)[:2]
    if math.cos(best) < _HUE_NEAR or second - best < _HUE_APART:
        return None
    return list(art.CARGO)[int(np.argmin(angles))]


def _chains(found: list[_Read]) -> tuple[list[SeenTrain], list[SeenCard]]:
    """The trains: from each engine, the cards end to end in a row, each the previous
    one's neighbour along the row; a gap of one or two cards' length with a card beyond
    it is as many unsure cards (a hand over them). Cards in no engine's row are loose."""
    pitch = art.CARD_MM[0] + sum(_GAP_MM) / 2
    centres = np.array([(r.pose.x, r.pose.y) for r in found]).reshape(-1, 2)
    used: set[int] = set()
    trains = []

    def at(point: np.ndarray, axis_deg: float) -> int | None:
        """The unused card whose centre lies near `point`, lying along `axis_deg`."""
        if not len(centres):
            return None
        distance = np.hypot(*(centres - point).T)
        for index in np.argsort(distance):
            if distance[index] > _JOIN_MM:
                return None
            turn = (found[index].pose.rotation - axis_deg) % 180.0
            if index not in used and min(turn, 180.0 - turn) < 12.0:
                return int(index)
        return None

    def ahead(point: np.ndarray, step: np.ndarray, axis_deg: float) -> tuple[int, int] | None:
        """The next card along the row from `point`, and how many steps on it lies: a hand
        may hide up to `_HIDDEN_MOST` cards between."""
        for steps in range(1, _HIDDEN_MOST + 2):
            index = at(point + steps * step, axis_deg)
            if index is not None:
                return steps, index
        return None

    for start, read in enumerate(found):
        if read.printed != cards.ENGINE:
            continue
        used.add(start)
        here = np.array(read.pose[:2])
        heading = None
        for direction in (1.0, -1.0):  # the engine's neighbour says which way the train runs
            step = _lengthwise(direction * pitch, read.pose.rotation)
            if ahead(here, step, read.pose.rotation) is not None:
                heading = step
                break
        row: list[tuple[int | None, Pose]] = [(start, read.pose)]
        if heading is None:  # an engine alone: it is laid upright for its owner
            rotation = read.pose.rotation
        else:
            rotation = math.degrees(math.atan2(heading[1], heading[0])) % 360.0
            while len(row) < 12:
                last = np.array(row[-1][1][:2])
                nxt = ahead(last, heading, row[-1][1].rotation)
                if nxt is None:
                    break
                steps, index = nxt
                for hidden in range(1, steps):  # cards under a hand: unsure
                    x, y = last + hidden * heading
                    row.append((None, Pose(float(x), float(y), rotation)))
                used.add(index)
                row.append((index, found[index].pose))
                step = (np.array(found[index].pose[:2]) - last) / steps  # follow a row's drift
                heading = step / max(float(np.hypot(*step)), 1e-6) * pitch
        trains.append(SeenTrain(tuple(_as_laid(found, i, p, rotation) for i, p in row), rotation))
    loose = [_as_laid(found, i, found[i].pose, None) for i in range(len(found)) if i not in used]
    return trains, loose


def _as_laid(found: list[_Read], index: int | None, pose: Pose, owner: float | None) -> SeenCard:
    """A read card as it lies in a train whose owner's upright is `owner` (None: in no
    train, so its printed top is taken as upright): turned when its printed top points the
    other way."""
    if index is None or found[index].printed == UNSURE:
        return SeenCard(UNSURE, pose, False)
    read = found[index]
    printed = read.printed
    if printed in (cards.ENGINE, cards.FACE_DOWN) or owner is None:
        return SeenCard(printed, read.pose, True)
    off = (read.pose.rotation - owner) % 360.0
    turned = 90.0 < off < 270.0
    return SeenCard(cards.turned(printed) if turned else printed, read.pose, True, turned)
