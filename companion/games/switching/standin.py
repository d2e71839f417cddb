"""A stand-in for a family's own switching-track box on the synthetic table: a board,
panels, trains and a colour die of another design than ours (art.py), as the Caboose
game's stand-in deck is (`--pieces printed`), so that reading a box the camera was taught
(vision/taught.py) is measured on pieces it was never tuned on.

What makes it another box:
- the board is smaller (`SCALE` of ours: 560 mm square) with its own layout in mm (its
  board file, `board()`, has our board's tracks and pieces, every distance scaled), printed
  on buff cardboard with a dark green border, the box's title, trees between the tracks,
  brown ballast with sleepers, cream spaces and blue-grey slot floors; it carries **no
  corner markers of ours**: the camera finds it among the table's four markers by its
  picture alone;
- it lies anywhere among the table's markers, any way round (any angle, not only quarter
  turns), on a table of `TABLE`'s size, its markers at least `MARKER_CLEAR_MM` from the
  board (the dice thrown beside it lie there);
- its panels are full-bleed prints of other shades of the colour die's three colours,
  with a darker border, brown pieces and the box's emblem (a white disc with a star) in
  one corner, which is all that says which way round a panel lies (its cyan panel's
  pieces look the same either way round): no black squares of ours;
- its trains are plastic locomotives of other shades of the players' four colours,
  smaller than ours (`TRAIN_MM`), with a round nose and a dark cab at the back;
- its colour die shows the panels' shades, or (`own_die`) shades of its own
  (`DIE_COLOURS`: a family's die need not be printed in its panels' exact shade, so its
  faces are taught, vision/taught.py `teach_die`); the number dice are the white pip dice
  every game throws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, partial
from itertools import pairwise

import cv2
import numpy as np

from companion import synthetic
from companion.games.switching import art, scenes
from companion.games.switching.board import DEAD_END, FINISH, START, Board, Layout, parse
from companion.games.switching.board import load as load_board
from companion.pose import Pose
from companion.synthetic import PlacedDie
from companion.vision.dice_art import DIE_MM, INK, fixed_point, rounded_rect
from companion.vision.table import TableLayout, rotate

SCALE = 0.8  # the stand-in board's millimetres per ours
TABLE = TableLayout(width=960.0, height=860.0)  # the family's table: markers round the box
MARKER_CLEAR_MM = 115.0  # the table's markers lie at least this far from the board
TRAIN_COLOURS: dict[str, tuple[int, int, int]] = {  # BGR: the box's plastic, other shades
    "red": (50, 30, 190),
    "blue": (185, 85, 35),
    "yellow": (20, 210, 225),
    "green": (55, 165, 40),
}
PANEL_COLOURS: dict[str, tuple[int, int, int]] = {
    "purple": (175, 55, 125),
    "cyan": (175, 160, 30),
    "orange": (25, 105, 230),
}
DIE_COLOURS: dict[str, tuple[int, int, int]] = {  # BGR: the colour die's own shades (`own_die`)
    "purple": (170, 30, 190),  # redder than the purple panel: outside its hue's reach
    "cyan": (130, 170, 20),  # greener than the cyan panel: outside its hue's reach
    "orange": (30, 125, 230),  # a little yellower than the orange panel
}
TRAIN_MM = (12.0, 23.0)  # width, length: a little smaller than ours
CAB_MM = (2.5, 10.0)  # the dark cab, from the train's centre towards its back
PAPER = (188, 212, 226)  # buff cardboard
BORDER = (70, 95, 70)  # a dark, dull green frame
BALLAST = (95, 115, 135)  # brown, dull: no piece's colour
SLEEPER = (45, 60, 75)  # dark: darker than a cab, beside every space (vision/taught.py)
SPACE = (222, 240, 246)  # cream
SLOT_FLOOR = (170, 160, 150)  # blue-grey
TREE = (60, 105, 85)
TITLE = "RANGIERSPIEL"
SPACE_MM = (22.0, 14.0)
BALLAST_MM = 22.0


def board_document() -> dict:
    """The stand-in board's file (`switching-board/1`): ours with every distance scaled by
    `SCALE`, named as a family's own."""
    doc = load_board().document()

    def scaled(points: list) -> list:
        return [[sid, round(x * SCALE, 2), round(y * SCALE, 2)] for sid, x, y in points]

    doc.update(id="standin", name="A family's own board, the synthetic stand-in",
               ours=False, note="Drawn by the synthetic table; not our design.")  # fmt: skip
    doc["size"] = [v * SCALE for v in doc["size"]]
    doc["slots"] = {
        "size": [v * SCALE for v in doc["slots"]["size"]],
        "at": {k: [v * SCALE for v in at] for k, at in doc["slots"]["at"].items()},
    }
    doc["ports"] = {k: [v * SCALE for v in p] for k, p in doc["ports"].items()}
    for panel in doc["panels"].values():
        for piece in panel["pieces"]:
            piece["spaces"] = scaled(piece["spaces"])
    for track in doc["tracks"]:
        track["spaces"] = scaled(track["spaces"])
    return doc


@cache
def board() -> Board:
    """The stand-in box's board, checked as any board file is."""
    return parse(board_document(), "the stand-in box's board")


# --- the pictures -----------------------------------------------------------------------


def _draw_chain(sheet: art._Sheet, box: Board, chain_id: str) -> None:
    """A track or piece in the box's style: brown ballast, dark sleepers between the
    spaces, cream spaces, a bar at a dead end, a chequer past a Finish, a green arrow
    behind a Start."""
    chain = box.chains[chain_id]
    points = art._chain_points(box, chain, box.home)
    sheet.band(points, BALLAST_MM, BALLAST)
    centres = [art._frame_point(box, s, box.home) for s in chain.spaces]
    for (x0, y0), (x1, y1) in pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        heading = ((x1 - x0) / max(length, 1e-6), (y1 - y0) / max(length, 1e-6))
        for t in np.arange(3.0, length, 6.0):
            at = (x0 + heading[0] * t, y0 + heading[1] * t)
            if min(math.dist(at, c) for c in centres) > SPACE_MM[0] / 2 + 2.0:
                sheet.box(at, (-heading[1], heading[0]), (BALLAST_MM + 2.0, 2.0), SLEEPER)
    for end, index, outward in ((chain.back, 0, -1.0), (chain.front, -1, 1.0)):
        dx, dy = box.heading(chain.spaces[index], box.home)
        out = (outward * dx, outward * dy)
        x, y = points[index]
        if end == DEAD_END:
            sheet.box((x, y), (-out[1], out[0]), (BALLAST_MM + 4.0, 3.0), SLEEPER)
        elif end == FINISH:
            for k in range(3):
                sheet.box((x - out[0] * 2.0 + -out[1] * (k - 1) * 5.0,
                           y - out[1] * 2.0 + out[0] * (k - 1) * 5.0), out, (4.0, 5.0),
                          INK if k % 2 == 0 else SPACE)  # fmt: skip
        elif end == START:
            tip = (x - out[0] * 6.0, y - out[1] * 6.0)
            side = (-out[1] * 5.0, out[0] * 5.0)
            sheet.poly([(x + side[0], y + side[1]), (x - side[0], y - side[1]), tip], BORDER)
    for space, (x, y) in zip(chain.spaces, centres, strict=True):
        sheet.box((x, y), box.heading(space, box.home), SPACE_MM, SPACE)


def _clear_spots(box: Board, count: int) -> list[tuple[float, float]]:
    """Where the board's trees stand: fixed spots well clear of the border, the slots,
    every track and the Start, Finish and dead-end marks (the same every drawing)."""
    rng = np.random.default_rng(33)
    lines = [np.array(art._chain_points(box, c, box.home)) for c in box.chains.values()
             if c.panel is None]  # fmt: skip
    width, height = box.size
    spots: list[tuple[float, float]] = []
    for _ in range(4000):
        x, y = rng.uniform(30, width - 30), rng.uniform(60, height - 30)
        if any(s.x - 15 < x < s.x + s.width + 15 and s.y - 15 < y < s.y + s.height + 15
               for s in box.slots.values()):  # fmt: skip
            continue
        near = min(_distance_to(line, (x, y)) for line in lines)
        if near > 30.0 and all(math.dist((x, y), s) > 26.0 for s in spots):
            spots.append((x, y))
        if len(spots) == count:
            break
    return spots


def _distance_to(line: np.ndarray, point: tuple[float, float]) -> float:
    """How far `point` lies from the polyline `line` (mm)."""
    p = np.asarray(point)
    a, b = line[:-1], line[1:]
    ab = b - a
    t = np.clip(((p - a) * ab).sum(1) / np.maximum((ab * ab).sum(1), 1e-9), 0, 1)
    return float(np.hypot(*(a + ab * t[:, None] - p).T).min())


@cache
def board_picture(px_per_mm: float) -> np.ndarray:
    """The stand-in board as printed, as one BGRA image (a `synthetic.Picture`): its
    cardboard, border, title and trees, the slots' floors and the fixed tracks."""
    box = board()
    width, height = box.size
    sheet = art._Sheet(box.size, px_per_mm, PAPER)
    for inset, colour in ((0.0, BORDER), (9.0, PAPER)):
        sheet.poly([(inset, inset), (width - inset, inset), (width - inset, height - inset),
                    (inset, height - inset)], colour)  # fmt: skip
    scale = 0.9 * px_per_mm
    (text_w, _), _ = cv2.getTextSize(TITLE, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
    origin = (round(width * px_per_mm / 2 - text_w / 2), round(34 * px_per_mm))
    cv2.putText(sheet.image, TITLE, origin, cv2.FONT_HERSHEY_DUPLEX, scale, BORDER,
                max(1, round(1.6 * px_per_mm)), cv2.LINE_AA)  # fmt: skip
    for k, (x, y) in enumerate(_clear_spots(box, 40)):
        radius = round((7.0 + 3.0 * (k % 3)) * px_per_mm * 16)
        cv2.circle(sheet.image, sheet.at(x, y), radius, TREE, -1, cv2.LINE_AA, 4)
        cv2.circle(sheet.image, sheet.at(x - 2, y - 2), radius // 3, (90, 140, 120), -1,
                   cv2.LINE_AA, 4)  # fmt: skip
    for slot in box.slots.values():
        x0, y0, x1, y1 = slot.x, slot.y, slot.x + slot.width, slot.y + slot.height
        sheet.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], SLOT_FLOOR)
    for chain in box.chains.values():
        if chain.panel is None:
            _draw_chain(sheet, box, chain.id)
    return np.dstack([sheet.image, np.full(sheet.image.shape[:2], 255, np.uint8)])


@cache
def panel_picture(colour: str, px_per_mm: float) -> np.ndarray:
    """One stand-in panel, upright, as one BGRA image: its colour to the edge, a darker
    border, its pieces in the box's style and the box's emblem in its top left corner."""
    box = board()
    slot = next(iter(box.slots.values()))
    inset = art.PANEL_INSET_MM
    shade = PANEL_COLOURS[colour]
    sheet = art._Sheet((slot.width, slot.height), px_per_mm, tuple(int(c * 0.6) for c in shade))
    w, h = slot.width, slot.height
    sheet.poly([(inset + 4, inset + 4), (w - inset - 4, inset + 4), (w - inset - 4, h - inset - 4),
                (inset + 4, h - inset - 4)], shade)  # fmt: skip
    for chain_id in box.panel(colour).pieces:
        _draw_chain(sheet, box, chain_id)
    centre = sheet.at(inset + 15.0, inset + 15.0)
    cv2.circle(sheet.image, centre, round(10.0 * px_per_mm * 16), (245, 248, 248), -1,
               cv2.LINE_AA, 4)  # fmt: skip
    star = [(inset + 15.0 + r * math.sin(math.radians(36 * k)),
             inset + 15.0 - r * math.cos(math.radians(36 * k)))
            for k, r in zip(range(10), [7.5, 3.0] * 5, strict=True)]  # fmt: skip
    sheet.poly(star, INK)
    cut = round(inset * px_per_mm)
    image = sheet.image[cut : cut + round((h - 2 * inset) * px_per_mm),
                        cut : cut + round((w - 2 * inset) * px_per_mm)]  # fmt: skip
    return np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])


@cache
def train(colour: str, px_per_mm: float) -> np.ndarray:
    """A stand-in train of `colour` seen from above, nose up, as one BGRA image: a body
    with a round nose, its dark cab over its back and a lamp at its nose."""
    width, length = TRAIN_MM
    size = (round(length * px_per_mm), round(width * px_per_mm))
    origin = (width / 2, length / 2)
    w, half = width / 2, length / 2
    nose = [(w * math.sin(a), -half + w - w * math.cos(a)) for a in np.linspace(-1.5, 1.5, 9)]
    body = [(-w, half - 1.0), *nose, (w, half - 1.0), (w - 1.0, half), (-w + 1.0, half)]
    front, back = CAB_MM
    cab = [(-w + 1.2, front), (w - 1.2, front), (w - 1.2, back), (-w + 1.2, back)]

    def points(polygon: Sequence[tuple[float, float]]) -> np.ndarray:
        return np.array([fixed_point(x, y, px_per_mm, origin) for x, y in polygon], np.int32)

    image = np.zeros((*size, 3), np.uint8)
    mask = np.zeros(size, np.uint8)
    cv2.fillPoly(mask, [points(body)], 255, cv2.LINE_AA, 4)
    cv2.fillPoly(image, [points(body)], TRAIN_COLOURS[colour], cv2.LINE_AA, 4)
    cv2.fillPoly(image, [points(cab)], (40, 40, 45), cv2.LINE_AA, 4)
    lamp = fixed_point(0.0, -half + 2.0, px_per_mm, origin)
    cv2.circle(image, lamp, round(1.2 * px_per_mm * 16), (200, 245, 250), -1, cv2.LINE_AA, 4)
    return np.dstack([image, mask])


@cache
def colour_die(colour: str, px_per_mm: float, own: bool = False) -> np.ndarray:
    """The box's colour die showing `colour` in its panels' shade (or, `own`, in its own:
    `DIE_COLOURS`), as one BGRA image."""
    size = round(DIE_MM * px_per_mm)
    image = np.empty((size, size, 3), np.uint8)
    image[:] = (DIE_COLOURS if own else PANEL_COLOURS)[colour]
    return np.dstack([image, rounded_rect((size, size), round(2.0 * px_per_mm))])


# --- the table --------------------------------------------------------------------------


def _fits(box: Board, pose: Pose, layout: TableLayout) -> bool:
    """Whether the board at `pose` lies on the table with the table's markers at least
    `MARKER_CLEAR_MM` from it (and the dice's band beside it on the table)."""
    corners = scenes.to_table(box, pose, [(0, 0), (box.size[0], 0), box.size, (0, box.size[1])])
    far = (layout.width - 15.0, layout.height - 15.0)
    if corners.min() < 15.0 or (corners.max(axis=0) > far).any():
        return False
    for marker in layout.marker_corners().values():
        local = rotate(marker - (pose.x, pose.y), -pose.rotation) + np.array(box.size) / 2
        gap = np.maximum(np.maximum(-local, local - box.size), 0.0)
        if float(np.hypot(*gap.T).min()) < MARKER_CLEAR_MM:
            return False
    return True


def random_pose(box: Board, rng: np.random.Generator, layout: TableLayout = TABLE) -> Pose:
    """Anywhere the board fits among the table's markers (`_fits`), any way round."""
    while True:
        pose = Pose(float(rng.uniform(0, layout.width)), float(rng.uniform(0, layout.height)),
                    float(rng.uniform(0, 360)))  # fmt: skip
        if _fits(box, pose, layout):
            return pose


def _beside(box: Board, pose: Pose, edge: int, along: float, out: float) -> np.ndarray:
    """A table point `out` mm beyond the board's `edge` (0 top, 1 right, 2 bottom, 3 left,
    as the board lies upright), `along` mm along it from its start (clockwise)."""
    width, height = box.size
    point = [(along, -out), (width + out, along), (width - along, height + out),
             (-out, height - along)][edge]  # fmt: skip
    return scenes.to_table(box, pose, [point])[0]


def _on_table(point: np.ndarray, layout: TableLayout, margin: float) -> bool:
    left, top, right, bottom = layout.play_area()
    x, y = point
    return bool(left + margin <= x <= right - margin and top + margin <= y <= bottom - margin)


def _thrown(
    box: Board, pose: Pose, roll: tuple[str | None, int, int], rng: np.random.Generator,
    layout: TableLayout, own_die: bool = False,
) -> tuple[PlacedDie, ...]:  # fmt: skip
    """The three dice beside one edge of the board that has room for them on the table,
    apart from each other and clear of the board's corners (the colour die in its own
    shades when `own_die`)."""
    edges = [e for e in range(4) if _on_table(_beside(box, pose, e, box.size[0] / 2, 50.0),
                                              layout, DIE_MM)]  # fmt: skip
    spots: list[np.ndarray] = []
    while len(spots) < 3:
        edge = int(rng.choice(edges))
        side = box.size[edge % 2 == 1]
        point = _beside(box, pose, edge, rng.uniform(90.0, side - 90.0),
                        rng.uniform(14.0 + DIE_MM / 2, 60.0))  # fmt: skip
        if _on_table(point, layout, DIE_MM / 2) and all(
            np.hypot(*(point - other)) > 2.0 * DIE_MM for other in spots
        ):
            spots.append(point)
    colour, white, black = roll
    turn = rng.uniform(0, 360, 3)
    dice = [PlacedDie("pips", white, *map(float, spots[0]), float(turn[0])),
            PlacedDie("pips", black, *map(float, spots[1]), float(turn[1]))]  # fmt: skip
    if colour is not None:
        dice.append(PlacedDie(scenes.COLOUR_DIE, scenes.PANEL_ORDER.index(colour),
                              *map(float, spots[2]), float(turn[2]),
                              picture=partial(colour_die, colour, own=own_die)))  # fmt: skip
    return tuple(dice)


def table_scene(
    box: Board, pose: Pose, lie: Layout, trains: Sequence[scenes.OnBoard],
    roll: tuple[str | None, int, int] | None, rng: np.random.Generator,
    hands: Sequence[synthetic.Hand] = (), layout: TableLayout = TABLE, own_die: bool = False,
) -> synthetic.Scene:  # fmt: skip
    """The stand-in box on the table: its board at `pose`, its panels as `lie` says, its
    trains, and the dice of `roll` (None: none thrown) beside the board, the colour die in
    its own shades when `own_die`."""
    cards = [synthetic.Card(board_picture, pose, box.size, rigid=True)]
    cards += scenes.panel_cards(box, pose, lie, rng, lambda colour: partial(panel_picture, colour))
    cards += [scenes.train_card(box, pose, lie, t, rng, partial(train, t.colour), TRAIN_MM)
              for t in trains]  # fmt: skip
    dice = () if roll is None else _thrown(box, pose, roll, rng, layout, own_die)
    return synthetic.Scene(cards=tuple(cards), dice=dice, hands=tuple(hands), layout=layout)


def random_table(
    seed: int, *, hand_chance: float = 0.3, layout: TableLayout = TABLE, own_die: bool = False
) -> scenes.Shown:
    """The stand-in box in the middle of a game from a seed, as `scenes.random_table` lays
    ours: the board anywhere among the markers any way round, the panels in any lie,
    trains on any spaces, the three dice thrown beside it (the colour die in its own
    shades when `own_die`: the same table otherwise), now and then a hand over it (the
    depots' trains stand off the table the camera reads: none here)."""
    rng = np.random.default_rng(seed)
    box = board()
    pose = random_pose(box, rng, layout)
    lie = scenes.random_layout(box, rng)
    trains = scenes.random_trains(box, lie, rng)
    roll = (str(rng.choice(scenes.PANEL_ORDER)), int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    hands: tuple[synthetic.Hand, ...] = ()
    if rng.random() < hand_chance:
        hand = scenes.hand_clear_of(box, pose, lie, trains, rng, layout)
        hands = () if hand is None else (hand,)
    scene = table_scene(box, pose, lie, trains, roll, rng, hands, layout, own_die)
    return scenes.Shown(box, pose, lie, trains, roll, {}, scene)


def teaching_table(rng_seed: int = 0, layout: TableLayout = TABLE) -> scenes.Shown:
    """The stand-in box as a family lays it to be taught (vision/taught.py `teach`): the
    board square to the table (a few degrees and millimetres off its middle), its panels
    at home upright, a train of each colour on the Starts facing along them; no dice."""
    rng = np.random.default_rng(rng_seed)
    box = board()
    x, y = np.array([layout.width, layout.height]) / 2 + rng.uniform(-20, 20, 2)
    pose = Pose(float(x), float(y), float(rng.uniform(-4, 4)) % 360.0)
    starts = zip(art.TRAIN_COLOURS, box.starts, strict=False)
    trains = tuple(scenes.OnBoard(colour, space, 1) for colour, space in starts)
    scene = table_scene(box, pose, box.home, trains, None, rng, (), layout)
    return scenes.Shown(box, pose, box.home, trains, ("purple", 1, 1), {}, scene)


def die_lesson(colour: str, rng_seed: int = 0, layout: TableLayout = TABLE) -> scenes.Shown:
    """The stand-in box as a family lays it to teach one face of its colour die (vision/
    taught.py `teach_die`): the board as `teaching_table` lays it and the colour die alone
    beside it, in its own shade (`DIE_COLOURS`), showing `colour`."""
    shown = teaching_table(rng_seed, layout)
    rng = np.random.default_rng(rng_seed + 1)
    point = _beside(shown.board, shown.pose, 1, shown.board.size[1] / 2, 40.0)
    face = partial(colour_die, colour, own=True)
    die = PlacedDie(scenes.COLOUR_DIE, scenes.PANEL_ORDER.index(colour), *map(float, point),
                    float(rng.uniform(0, 360)), picture=face)  # fmt: skip
    scene = replace(shown.scene, dice=(die,))
    return replace(shown, roll=(colour, 1, 1), scene=scene)
