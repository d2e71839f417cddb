"""The Caboose design on the synthetic table: its cards, caboose and railways as scenes.

The synthetic table (companion/synthetic/) draws any game's pieces; this module lays the
Caboose design's on it: a `Scene` says which card lies where (its code and pose), which
cards are the railway from back to front and which one the caboose stands on, so a test or
the demo knows the truth of every frame; `Scene.drawn()` gives the game-free scene the
renderer draws, with each card's face from card_art (our design) or `printed_card` (a
stand-in for a printed deck that is not ours). `random_scene` lays a legal railway by the
rules, the way a table in the middle of a game looks; `random_table` is the `Game`'s
scene for a synthetic camera with no game of its own to show.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion import synthetic
from companion.games.caboose import cards
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.rules import geometry
from companion.games.caboose.vision import card_art
from companion.games.caboose.vision.enrolment import Deck, die_wheels, pieces_of
from companion.games.caboose.vision.observation import VisionConfig
from companion.pose import Pose
from companion.synthetic import Camera, Hand, PlacedDie
from companion.vision.dice_art import Sprite, draw_printed_wheel_die, rounded_rect
from companion.vision.table import TableLayout, card_corners, lies_on, rotate

if TYPE_CHECKING:  # only eval-vision's real dice need the photographs' code
    from companion.synthetic.photo_dice import PhotoDie

DESIGNS = ("ours", "printed")
_TEACH_TRIES = 5  # times a pip die is laid to be taught before it is left untaught


@dataclass(frozen=True)
class PlacedCard:
    """A card on the table: its code (cards.parse) and where it lies."""

    code: str
    pose: Pose


@dataclass(frozen=True)
class Scene:
    """A table: every card with its pose, the railway as card indices back to front, the card
    the caboose stands on (and where), the dice, and any hands over the table."""

    cards: tuple[PlacedCard, ...]
    railway: tuple[int, ...]
    caboose: int | None = None  # index into `cards`
    caboose_at: tuple[float, float] | None = None
    dice: tuple[PlacedDie, ...] = ()
    hands: tuple[Hand, ...] = ()
    card_mm: tuple[float, float] = card_art.CARD_MM
    layout: TableLayout = field(default_factory=TableLayout)
    design: str = "ours"  # "ours" (card_art) or "printed" (printed_card: a deck we do not ship)
    # the wheel dice and the caboose token: "ours" (dice_art, card_art) or "printed"
    # (dice_art.draw_printed_wheel_die, `printed_caboose`: a box's own that we do not ship)
    pieces: str = "ours"

    def drawn(self) -> synthetic.Scene:
        """The game-free scene the synthetic table draws: each card a picture of its face
        at its pose, the caboose a token; ValueError for a design we do not draw."""
        if self.design not in DESIGNS:
            raise ValueError(f"unknown card design {self.design!r}: use ours or printed")
        laid = tuple(
            synthetic.Card(partial(_face, c.code, self.design, self.card_mm), c.pose, self.card_mm)
            for c in self.cards
        )
        if self.pieces not in DESIGNS:
            raise ValueError(f"unknown dice and token design {self.pieces!r}: use ours or printed")
        tokens: tuple[synthetic.Token, ...] = ()
        dice = self.dice
        if self.caboose_at is not None:
            x, y = self.caboose_at
            tokens = (synthetic.Token(_caboose_face, x, y, card_art.CABOOSE_MM),)
            if self.pieces == "printed":
                tokens = (synthetic.Token(_printed_caboose_face, x, y, PRINTED_CABOOSE_MM[0]),)
        if self.pieces == "printed":
            dice = tuple(
                replace(d, picture=partial(_printed_die_face, d.face)) if d.kind == "wheels" else d
                for d in dice
            )
        return synthetic.Scene(laid, tokens, dice, self.hands, self.layout)


def render(scene: Scene, seed: int, camera: Camera | None = None) -> np.ndarray:
    """The BGR frame an overhead camera sees of a Caboose table (synthetic.render of its
    drawn scene); the same seed gives the same image."""
    return synthetic.render(scene.drawn(), seed, camera)


@cache
def _face(code: str, design: str, card_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """A card's face as one BGRA image (one warp per paste), drawn once per scale."""
    draw = card_art.draw_card if design == "ours" else printed_card
    return np.dstack(draw(code, px_per_mm, card_mm))


@cache
def _caboose_face(px_per_mm: float) -> np.ndarray:
    return np.dstack(card_art.draw_caboose(px_per_mm))


@cache
def _printed_caboose_face(px_per_mm: float) -> np.ndarray:
    return np.dstack(printed_caboose(px_per_mm))


@cache
def _printed_die_face(face: int, px_per_mm: float) -> np.ndarray:
    return np.dstack(draw_printed_wheel_die(face, px_per_mm))


PRINTED_CABOOSE_MM = (22.0, 13.0)  # the printed box's locomotive, seen from above
_LOCOMOTIVE = (50, 170, 20)  # a bright green: not our caboose's red, unlike wood and cards


@cache
def printed_caboose(px_per_mm: float = 4.0) -> Sprite:
    """The caboose token of a box that is not ours, as a stand-in for LOK'n'ROLL's
    locomotive: a green engine seen from above, longer than wide with rounded ends, a black
    cab roof at its back and a black chimney at its front. Our reader, which looks for a
    red disc, must not find it; a token taught by `companion enroll` is found instead."""
    w_mm, h_mm = PRINTED_CABOOSE_MM
    w, h = round(w_mm * px_per_mm), round(h_mm * px_per_mm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _LOCOMOTIVE
    cab = round(6.0 * px_per_mm)
    img[:, w - cab :] = (35, 35, 35)
    chimney = (round(4.5 * px_per_mm * 16), round(h / 2 * 16))
    cv2.circle(img, chimney, round(2.0 * px_per_mm * 16), (35, 35, 35), -1, cv2.LINE_AA, 4)
    return img, rounded_rect((h, w), round(3.0 * px_per_mm))


# the printed deck's colours: sky and ground of each kind's art (BGR), all unlike the wood
_PRINTED_SKY = {cards.TRACK: (240, 214, 168), cards.BROKEN: (214, 216, 212),
                cards.CHAOS: (226, 178, 214)}  # fmt: skip
_PRINTED_GROUND = {cards.TRACK: (112, 182, 124), cards.BROKEN: (150, 142, 128),
                   cards.CHAOS: (166, 92, 148)}  # fmt: skip
_PRINTED_BADGE = {cards.TRACK: (90, 50, 20), cards.BROKEN: (20, 60, 120),
                  cards.CHAOS: (90, 20, 70)}  # fmt: skip


@cache
def printed_card(
    code: str, px_per_mm: float = 4.0, card_mm: tuple[float, float] = card_art.CARD_MM
) -> Sprite:
    """A face of a commercial-looking deck that is not ours, as a stand-in for the real printed
    decks whose art we do not ship: full-bleed art to the cut edge (no white border, no inset
    frame), a sky over a hilly ground whose colours say the kind, a ballasted track with
    sleepers between geometry's rail ends (a gap and a warning board when broken, a lightning
    bolt and no track on a chaos card), the value as a big white numeral on a dark badge top
    right and a small one upside down bottom left (the only difference between the values:
    the art is the same), rounded corners. Two such cards laid edge to edge show no band
    between them: only the art changing at the cut, and the table where the hand left a
    gap. Portrait, rotation 0, as card_art.draw_card."""
    value, kind, shape = cards.parse(code)
    w_mm, h_mm = card_mm
    h, w = round(h_mm * px_per_mm), round(w_mm * px_per_mm)

    def pt(x: float, y: float) -> tuple[int, int]:  # card mm from the centre, 1/16 px
        return (round((x + w_mm / 2) * px_per_mm * 16), round((y + h_mm / 2) * px_per_mm * 16))

    def mm(length: float) -> int:
        return max(1, round(length * px_per_mm))

    img = np.empty((h, w, 3), np.uint8)
    img[:] = _PRINTED_SKY[kind]
    xs = np.linspace(-w_mm / 2, w_mm / 2, 60)
    horizon = 0.1 * h_mm + 4.0 * np.sin(xs * 2 * np.pi / 40.0)  # hills
    ground = [pt(x, y) for x, y in zip(xs, horizon, strict=True)]
    ground += [pt(w_mm / 2, h_mm / 2), pt(-w_mm / 2, h_mm / 2)]
    cv2.fillPoly(img, [np.array(ground, np.int32)], _PRINTED_GROUND[kind], cv2.LINE_AA, 4)
    cv2.ellipse(img, pt(-12, -28), (mm(9) * 16, mm(4) * 16), 0, 0, 360,
                (250, 250, 250), -1, cv2.LINE_AA, 4)  # fmt: skip
    if kind == cards.CHAOS:
        bolt = [(-4, -22), (9, -22), (2, -4), (11, -4), (-7, 24), (-2, 3), (-10, 3)]
        cv2.fillPoly(img, [np.array([pt(x, y) for x, y in bolt], np.int32)], (250, 250, 250),
                     cv2.LINE_AA, 4)  # fmt: skip
    else:
        path = card_art.track_path(shape, w_mm, h_mm)  # the rail ends' line
        poly = np.array([pt(x, y) for x, y in path], np.int32)
        cv2.polylines(img, [poly], False, (132, 136, 140), mm(14), cv2.LINE_AA, 4)  # ballast
        steps = np.hypot(*np.diff(path, axis=0).T)
        along = np.concatenate([[0.0], np.cumsum(steps)])
        for at in np.arange(2.0, along[-1] - 1.0, 4.5):
            i = min(max(int(np.searchsorted(along, at)), 1), len(path) - 1)
            d = (path[i] - path[i - 1]) / max(steps[i - 1], 1e-6)
            mid, n = path[i - 1] + d * (at - along[i - 1]), np.array([-d[1], d[0]]) * 5.5
            cv2.line(img, pt(*(mid - n)), pt(*(mid + n)), (50, 62, 80), mm(1.6), cv2.LINE_AA, 4)
        normals = np.gradient(path, axis=0)[:, ::-1] * (1, -1)
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        for side in (-2.6, 2.6):
            rail = np.array([pt(*(p + side * q)) for p, q in zip(path, normals, strict=True)])
            cv2.polylines(img, [rail.astype(np.int32)], False, (196, 196, 200), mm(0.9),
                          cv2.LINE_AA, 4)  # fmt: skip
        if kind == cards.BROKEN:
            centre = path[len(path) // 2]
            cv2.circle(img, pt(*centre), mm(8) * 16, _PRINTED_GROUND[kind], -1, cv2.LINE_AA, 4)
            x, y = centre
            cv2.rectangle(img, pt(x - 10, y - 3), pt(x + 10, y + 3), (20, 20, 20), -1,
                          cv2.LINE_AA, 4)  # fmt: skip
            for stripe in range(-8, 10, 6):
                cv2.rectangle(img, pt(x + stripe - 1.5, y - 2), pt(x + stripe + 1.5, y + 2),
                              (30, 200, 240), -1, cv2.LINE_AA, 4)  # fmt: skip
    font = cv2.FONT_HERSHEY_SIMPLEX
    for centre, height, turn in (((w_mm / 2 - 13, -h_mm / 2 + 14), 15.0, False),
                                 ((-w_mm / 2 + 7, h_mm / 2 - 7), 5.0, True)):  # fmt: skip
        badge = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(badge, pt(*centre), mm(height * 0.85) * 16, 255, -1, cv2.LINE_AA, 4)
        thick = mm(height / 6)
        (_, th), _ = cv2.getTextSize(str(value), font, 1.0, thick)
        scale = height * px_per_mm / th
        (tw, th), _ = cv2.getTextSize(str(value), font, scale, thick)
        digit = np.zeros(img.shape[:2], np.uint8)
        cx, cy = pt(*centre)
        org = (round(cx / 16 - tw / 2), round(cy / 16 + th / 2))
        cv2.putText(digit, str(value), org, font, scale, 255, thick, cv2.LINE_AA)
        if turn:
            digit = cv2.warpAffine(digit, cv2.getRotationMatrix2D((cx / 16, cy / 16), 180, 1),
                                   (w, h))  # fmt: skip
        img[badge > 127] = _PRINTED_BADGE[kind]
        alpha = (digit.astype(np.float32) / 255)[..., None]
        img = (img * (1 - alpha) + 250 * alpha).astype(np.uint8)
    return img, rounded_rect((h, w), mm(card_art.CORNER_MM))


def _inside(pose: Pose, card_mm: tuple[float, float], area: tuple[float, ...]) -> bool:
    corners = card_corners(pose, card_mm)
    left, top, right, bottom = area
    low, high = corners.min(axis=0), corners.max(axis=0)
    return bool(low[0] >= left and low[1] >= top and high[0] <= right and high[1] <= bottom)


def _touches_other_end(
    codes: list[str], poses: list[Pose], code: str, pose: Pose, card_mm: tuple[float, float]
) -> bool:
    """Whether a new card's rail ends would touch any rail end but the front's open one:
    a loop, legal in some editions, but then the picture alone cannot order the railway."""
    ends = geometry.rail_ends(code, pose, card_mm)
    for index, (other_code, other) in enumerate(zip(codes, poses, strict=True)):
        for end in geometry.rail_ends(other_code, other, card_mm):
            if index == len(codes) - 1 and end in geometry.open_ends(codes, poses, card_mm):
                continue
            if any(math.dist(end, new) < 5.0 for new in ends):
                return True
    return False


def lay_railway(
    rng: np.random.Generator,
    n: int,
    ed: editions.Edition,
    layout: TableLayout,
    budget: int = 4000,
) -> list[PlacedCard] | None:
    """A railway of `n` track cards of the edition's deck laid by the rules
    (geometry.legal_placements: each card joins the front's open rail end, edge to edge, none
    overlapping) inside the play area and without loops: a depth-first search over random
    cards and placements; None when `budget` placements were tried without success."""
    size = ed.card_mm
    area = layout.play_area()
    left, top, right, bottom = area
    track = sorted({c for c in ed.deck if not cards.is_chaos(c)})
    weights = np.array([sum(1 for d in ed.deck if d == c) for c in track], np.float64)
    first = Pose(
        float(rng.uniform(left + 120, right - 120)),
        float(rng.uniform(top + 120, bottom - 120)),
        float(rng.choice([0.0, 90.0, 180.0, 270.0])),
    )
    laid: list[str] = [str(rng.choice(track, p=weights / weights.sum()))]
    poses: list[Pose] = [first]
    tried = 0

    def extend() -> bool:
        nonlocal tried
        if len(laid) == n:
            return True
        order = rng.choice(len(track), size=len(track), replace=False, p=weights / weights.sum())
        for code in (track[i] for i in order[:4]):
            options = geometry.legal_placements(ed, laid, poses, code)
            for index in rng.permutation(len(options)):
                pose = options[index]
                tried += 1
                if tried > budget:
                    return False
                if not _inside(pose, size, area) or _touches_other_end(
                    laid, poses, code, pose, size
                ):
                    continue
                laid.append(code)
                poses.append(pose)
                if extend():
                    return True
                laid.pop()
                poses.pop()
        return False

    if not extend():
        return None
    return [PlacedCard(c, p) for c, p in zip(laid, poses, strict=True)]


def _clear_of(point: np.ndarray, radius: float, placed: list[PlacedCard], card_mm) -> bool:
    for card in placed:
        local = rotate((point - (card.pose.x, card.pose.y))[None, :], -card.pose.rotation)[0]
        gap = np.maximum(np.abs(local) - np.array(card_mm) / 2, 0)
        if np.hypot(*gap) < radius:
            return False
    return True


def _on_a_card(
    rng: np.random.Generator,
    placed: list[PlacedCard],
    card_mm: tuple[float, float],
    dice: list[PlacedDie],
    caboose_at: tuple[float, float],
    otherwise: np.ndarray,
) -> np.ndarray:
    """A die's centre (mm) wholly on one of the `placed` cards (any turn of a 16 mm die fits:
    12 mm in from each edge), 35 mm from every other die and 25 mm from the caboose; the
    point `otherwise` when no such place is found."""
    for _try in range(100):
        card = placed[int(rng.integers(len(placed)))]
        local = rng.uniform(-1, 1, 2) * (np.array(card_mm) / 2 - 12.0)
        xy = rotate(local[None, :], card.pose.rotation)[0] + (card.pose.x, card.pose.y)
        if math.dist(xy, caboose_at) > 25 and all(
            math.hypot(d.x - xy[0], d.y - xy[1]) > 35 for d in dice
        ):
            return xy
    return otherwise


def card_under(scene: Scene, x: float, y: float) -> int | None:
    """The index of the card of `scene` that the point (x, y) mm lies on (a die's centre),
    or None when it lies on none."""
    for index, card in enumerate(scene.cards):
        if lies_on(card.pose, scene.card_mm, (x, y)):
            return index
    return None


def random_scene(
    seed: int,
    edition: str = "rollecate",
    n_cards: int | None = None,
    n_dice: int | None = None,
    *,
    loose_cards: int = 0,
    jitter_mm: float = 0.8,
    jitter_deg: float = 1.5,
    layout: TableLayout | None = None,
    pip_colours: Sequence[str] = ("white",),
    dice_on_cards: float = 0.0,
) -> Scene:
    """A table in the middle of a game: a legal railway of `n_cards` track cards (3-20 drawn
    from the seed when None) laid edge to edge by geometry.legal_placements, each nudged by
    up to `jitter_mm` and `jitter_deg` as a hand lays it; the caboose on one railway card;
    `n_dice` dice (1-4 when None, wheel or pip dice, a pip die of one of `pip_colours`,
    dice_art.PIP_COLOURS) and `loose_cards` cards lying apart (a chaos card, a card put
    down), all off the railway, the dice off every card too. The colours are drawn apart from
    the rest, so the same seed lays the same table whatever colours are allowed. With
    `dice_on_cards` (0-1) that share of the dice, drawn apart as well, then lie on a card
    instead (a railway card or a loose one, wholly on it, clear of the caboose), as a rolled
    die often does: the same dice, moved, so 0 lays exactly the table it always did."""
    rng = np.random.default_rng(seed)
    layout = layout or TableLayout()
    ed = editions.load(edition)
    n = int(rng.integers(3, 21)) if n_cards is None else n_cards
    if not 1 <= n <= 20:
        raise ValueError(f"a scene holds 1 to 20 railway cards, not {n}")
    if n_dice is not None and not 0 <= n_dice <= 4:
        raise ValueError(f"a scene holds 0 to 4 dice, not {n_dice}")
    if not 0.0 <= dice_on_cards <= 1.0:
        raise ValueError(f"the share of dice on cards is 0 to 1, not {dice_on_cards}")
    railway = None
    for _attempt in range(50):
        railway = lay_railway(rng, n, ed, layout)
        if railway is not None:
            break
    if railway is None:
        raise ValueError(f"could not lay {n} cards on a {layout.width}x{layout.height} table")
    placed = [
        PlacedCard(
            c.code,
            Pose(
                c.pose.x + float(rng.uniform(-jitter_mm, jitter_mm)),
                c.pose.y + float(rng.uniform(-jitter_mm, jitter_mm)),
                (c.pose.rotation + float(rng.uniform(-jitter_deg, jitter_deg))) % 360.0,
            ),
        )
        for c in railway
    ]
    size = ed.card_mm
    left, top, right, bottom = layout.play_area()
    for _ in range(loose_cards):
        for _try in range(300):
            pose = Pose(float(rng.uniform(left + 50, right - 50)),
                        float(rng.uniform(top + 50, bottom - 50)),
                        float(rng.uniform(0, 360)))  # fmt: skip
            if _inside(pose, size, layout.play_area()) and _clear_of(
                np.array([pose.x, pose.y]), 70.0, placed, size
            ):
                placed.append(PlacedCard(str(rng.choice(ed.deck)), pose))
                break
    caboose = int(rng.integers(0, len(railway)))
    on = placed[caboose].pose
    jitter = rotate(rng.uniform(-5, 5, (1, 2)), on.rotation)[0]
    caboose_at = (on.x + float(jitter[0]), on.y + float(jitter[1]))
    dice: list[PlacedDie] = []
    colours = np.random.default_rng([seed, 6])  # a pip die's colour (dice_art.PIP_COLOURS)
    onto = np.random.default_rng([seed, 7])  # which dice lie on a card, and where
    rolled: list[np.ndarray] = []  # where each die would lie off the cards
    for _ in range(int(rng.integers(1, 5)) if n_dice is None else n_dice):
        for _try in range(500):
            xy = np.array([rng.uniform(left + 15, right - 15), rng.uniform(top + 15, bottom - 15)])
            if _clear_of(xy, 22.0, placed, size) and all(
                math.hypot(*(other - xy)) > 35 for other in rolled
            ):
                rolled.append(xy)
                kind = "wheels" if rng.random() < 0.5 else "pips"
                face = int(rng.integers(0, 3)) if kind == "wheels" else int(rng.integers(1, 7))
                turn = float(rng.uniform(0, 90))
                colour = str(colours.choice(pip_colours))  # apart: the scene stays as it was
                if dice_on_cards > 0 and onto.random() < dice_on_cards:
                    # a die off the cards lies 22 mm from any card, one on a card 12 mm in
                    # from its edges: the two never overlap
                    xy = _on_a_card(onto, placed, size, dice, caboose_at, xy)
                dice.append(PlacedDie(kind, face, float(xy[0]), float(xy[1]), turn, colour))
                break
    return Scene(
        cards=tuple(placed),
        railway=tuple(range(len(railway))),
        caboose=caboose,
        caboose_at=caboose_at,
        dice=tuple(dice),
        card_mm=size,
        layout=layout,
    )


def with_photo_dice(scene: Scene, photos: Iterator[PhotoDie]) -> Scene:
    """The scene with each die replaced by the next real die of `photos` (cut from a
    photograph: companion/synthetic/photo_dice.py), lying and turned where the drawn die
    was: a pip die showing the photographed die's pips."""
    dice = []
    for die in scene.dice:
        photo = next(photos)
        dice.append(replace(die, kind="pips", face=photo.pips, picture=photo.picture))
    return replace(scene, dice=tuple(dice))


def random_table(seed: int) -> synthetic.Scene:
    """A Rollecate table in the middle of a game, from a seed: what the synthetic camera
    shows a service that has no game of its own to lay out (`synthetic:SEED`)."""
    return random_scene(seed).drawn()


def teach_printed_box(
    edition_id: str, layout: TableLayout, frame_size: tuple[int, int], folder: Path
) -> None:
    """Teach a camera over `layout`'s table the printed box's wheel dice and caboose token
    (`Scene.pieces`) as a family does before its first game (`companion enroll --codes
    die-0,…,caboose`): each face of the edition's dice on one die, then the token, laid
    alone in the middle of the table under a well lit camera, learnt and kept in `folder`;
    ValueError says which could not be learnt."""
    deck = Deck(pieces_of(edition_id), VisionConfig(layout=layout))
    camera = replace(Camera.easy(), frame_size=frame_size)
    middle = (layout.width / 2, layout.height / 2)
    pictures = []
    for number, face in enumerate(deck.faces):
        wheels = die_wheels(face)
        dice = () if wheels is None else (PlacedDie("wheels", wheels, *middle, 25.0),)
        token = middle if wheels is None else None
        alone = Scene(cards=(), railway=(), dice=dice, caboose_at=token, layout=layout,
                      pieces="printed")  # fmt: skip
        picture, why = deck.learn(face, render(alone, 90 + number, camera))
        if why is not None:
            raise ValueError(f"the camera could not learn the box's {face}: {why}")
        pictures.append(picture)
    deck.save(pictures, folder)


def teach_pip_dice(
    dice: Sequence[PhotoDie], layout: TableLayout, camera: Camera, folder: Path
) -> list[PhotoDie]:
    """Teach `camera` over `layout`'s table a family's own pip dice (`companion enroll
    --codes pips`): each of `dice` (real dice cut from photographs, one of each face as a
    family lays them) alone in the middle of the table, under the camera and light the
    family plays with, learnt and kept in `folder`. A die the camera cannot learn is laid
    again, up to _TEACH_TRIES times in all (a hard camera's shadow may hide it), then left
    untaught, as a family would go on without it; the dice taught. ValueError when none
    could be."""
    middle = (layout.width / 2, layout.height / 2)
    learnt: list[tuple[PhotoDie, str, np.ndarray]] = []
    for number, die in enumerate(dice):
        face = f"pips-{die.pips}"
        deck = Deck([face], VisionConfig(layout=layout))
        placed = PlacedDie("pips", die.pips, *middle, 25.0, picture=die.picture)
        alone = Scene(cards=(), railway=(), dice=(placed,), layout=layout)
        for again in range(_TEACH_TRIES):
            picture, why = deck.learn(face, render(alone, 90 + number + 10 * again, camera))
            if why is None:
                learnt.append((die, face, picture))
                break
    if not learnt:
        raise ValueError("the camera could not learn any of the pip dice")
    deck = Deck([face for _, face, _ in learnt], VisionConfig(layout=layout))
    deck.save([picture for _, _, picture in learnt], folder)
    return [die for die, _, _ in learnt]


def with_printed_box(scene: Scene, edition_id: str) -> Scene:
    """The scene with the printed box's pieces (`Scene.pieces`): each die one of its wheel
    dice lying where the drawn die was, showing one of the edition's faces, and its
    locomotive for our caboose."""
    faces = sorted(set(editions.load(edition_id).die_faces))
    dice = tuple(replace(d, kind="wheels", face=faces[d.face % len(faces)]) for d in scene.dice)
    return replace(scene, dice=dice, pieces="printed")
