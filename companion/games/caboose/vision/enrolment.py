"""A Caboose box taught to the camera (`companion enroll`): its printed deck one card face
at a time, then each face of one of its wheel dice and its caboose token.

Why: the deck on a real table may not be our printable design, nor the dice and token
ours, and nothing may be downloaded, so the camera learns what it will have to tell apart.
The player lays one card alone on the table, portrait, its top towards the markers 0 and 1
(a curve's track must then end at the bottom and right edges, as the rules' geometry draws
it): the card is found by its outline and cut out straight. A die (each of its faces in
turn: blank, one wheel, two wheels, as the edition's `die_faces` has them) and the token
are laid alone the same way: each is the one thing unlike the table, cut out straight
with its outline, from which the colour, size and faces are learnt (vision/taught_dice.py,
caboose_token.TaughtToken). What is learnt is a catalogue folder (vision/catalogue.py,
`dice.json`, `token.json`) that `VisionConfig.for_edition(..., catalogue_folder)` loads.
The command itself (prompts, the camera, the files) is the application's,
companion/app/enroll.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.vision.caboose_token import TaughtToken
from companion.games.caboose.vision.card_identity import card_image
from companion.games.caboose.vision.card_outlines import card_poses
from companion.games.caboose.vision.catalogue import TEMPLATE_PX, Catalogue, normalise
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.off_the_cards import off_the_known
from companion.games.said import Said
from companion.vision.calibrate import Calibration, calibrate, top_down
from companion.vision.dice import PIPS as PIP_DIE
from companion.vision.dice import DieLook, DieReading, find_dice, look_at, read_dice
from companion.vision.table import TableLayout
from companion.vision.taught_dice import PX_PER_MM, TaughtDice, upright
from companion.vision.taught_pips import TaughtDie, TaughtPips
from companion.vision.unlike_table import unlike_table

TOKEN = "caboose"  # the token's face in an enrolment's faces
_DIE = "die-"  # a die's face, by the wheels it shows: die-0, die-1, die-2
PIPS = "pips"  # in --codes: each face of one of the family's own pip dice, pips-1 to pips-6
_PIPS = "pips-"  # a pip die's face, by the pips it shows
_PIECE_MM2 = 40.0  # less than this unlike the table is a speck, not a piece
# a thrown die read at least this surely is taught unasked: as surely as the table takes a
# die's count unasked during a game
_SURE = FollowConfig().die_unsure_below
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def faces_of(edition_id: str) -> list[str]:
    """Every distinct card face of an edition, in deck order."""
    return list(dict.fromkeys(editions.load(edition_id).deck))


def pieces_of(edition_id: str) -> list[str]:
    """An edition's dice and token to teach: each face of its wheel dice (die-0 blank,
    die-1, die-2 as its `die_faces` has them), then its caboose token."""
    wheels = sorted(set(editions.load(edition_id).die_faces))
    return [f"{_DIE}{w}" for w in wheels] + [TOKEN]


def box_of(edition_id: str) -> list[str]:
    """Everything of an edition's box to teach: its card faces, its dice and its token."""
    return faces_of(edition_id) + pieces_of(edition_id)


def die_wheels(face: str) -> int | None:
    """The wheels a die's face (die-N) shows; None for a card or the token."""
    if face.startswith(_DIE) and face[len(_DIE) :] in ("0", "1", "2"):
        return int(face[len(_DIE) :])
    return None


def pip_count(face: str) -> int | None:
    """The pips a pip die's face (pips-N) shows; None for anything else."""
    if face.startswith(_PIPS) and face[len(_PIPS) :] in ("1", "2", "3", "4", "5", "6"):
        return int(face[len(_PIPS) :])
    return None


def prompt(face: str) -> str:
    """What to lay on the table to teach `face`."""
    wheels, pips = die_wheels(face), pip_count(face)
    if pips is not None:
        return f"lay one of your pip dice alone on the table, showing {pips} pip" + "s" * (pips > 1)
    if face == TOKEN:
        return "lay the caboose token alone on the table"
    if wheels is not None:
        shows = "its blank face" if wheels == 0 else f"{wheels} wheel" + "s" * (wheels > 1)
        return f"lay one die alone on the table, showing {shows}"
    return f"lay card {face} alone on the table, top up"


def learn_piece(
    frame: np.ndarray, config: VisionConfig, what: str, length_mm: tuple[float, float]
) -> tuple[np.ndarray, str | None]:
    """The one piece (`what`: a die, the caboose token) lying alone on the table in
    `frame`, cut out straight at taught_dice.PX_PER_MM as BGRA (its outline in alpha), or
    why not: it is the one region whose colour is unlike the table's, of a length (its
    outline's longer side, mm) within `length_mm`."""
    calibration = calibrate(frame, config.layout)
    if calibration is None or len(calibration.markers) < 4:
        return np.empty(0), "the four table markers are not all in view"
    k = PX_PER_MM
    top = top_down(frame, calibration, config.layout, k)
    mask = unlike_table(top, config.layout, k)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    pieces = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] / k**2 >= _PIECE_MM2]
    if not pieces:
        return np.empty(0), f"nothing found: lay {what} alone on the table"
    if len(pieces) > 1:
        return np.empty(0), f"{len(pieces)} things found: lay only {what} on the table"
    x, y, w, h = (int(v) for v in stats[pieces[0], :4])
    pad = 4
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    window = (slice(y0, y + h + pad), slice(x0, x + w + pad))
    body = (labels[window] == pieces[0]).astype(np.uint8) * 255
    picture, _, length = upright(np.dstack([top[window], body]), body)
    if not length_mm[0] <= length / k <= length_mm[1]:
        return np.empty(0), f"what lies there is {length / k:.0f} mm long: is it {what}?"
    return picture, None


def _dice_on_table(
    frame: np.ndarray, config: VisionConfig
) -> tuple[Calibration | None, list[DieReading]]:
    """The table's calibration in `frame` (None when its four markers are not all in view)
    and the dice on it as the table's dice reader finds and reads them (dice.find_dice,
    read_dice: a dark die on dark wood is no piece unlike the table, yet the reader finds
    it)."""
    calibration = calibrate(frame, config.layout)
    if calibration is None or len(calibration.markers) < 4:
        return None, []
    k = config.px_per_mm
    top = top_down(frame, calibration, config.layout, k)
    half = cv2.resize(top, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    spots, faint = find_dice(half, off_the_known(top.shape[:2], config, [], None), k / 2)
    return calibration, read_dice(frame, calibration, spots, faint)


def _pictured(look: DieLook) -> np.ndarray:
    """A die as the reader sees it: its crop of the original frame (BGRA, CROP_SIDE square
    at CROP_PX_PER_MM) with the rectangle it found the die in filled in alpha."""
    outline = np.zeros(look.crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(outline, cv2.boxPoints(look.rect).round().astype(np.int32), 255)
    return np.dstack([look.crop, outline])


def learn_pip_die(frame: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, Said | None]:
    """The one pip die lying alone on the table in `frame` as the table's dice reader finds
    and sees it (`_dice_on_table`, `_pictured`), or why not (a `Said`: the setup page says
    it in its words)."""
    calibration, found = _dice_on_table(frame, config)
    if calibration is None:
        return np.empty(0), Said("pips_markers", "the four table markers are not all in view")
    look = look_at(frame, calibration, found[0].x, found[0].y) if len(found) == 1 else None
    if len(found) > 1:
        return np.empty(0), Said("pips_many", f"{len(found)} dice found: lay only one pip die "
                                 "alone on the table", (("n", len(found)),))  # fmt: skip
    if look is None:
        return np.empty(0), Said("pips_none", "no die found: lay one pip die alone on the table")
    return _pictured(look), None


@dataclass(frozen=True, eq=False)
class ThrownDie:
    """One pip die of a throw: its picture as the reader sees it (`_pictured`), where it
    lies in words a player finds it by ("at the top left", "the second from the left at
    the top left"), and the pips it shows when the reader is sure of them (None: the
    companion asks)."""

    picture: np.ndarray
    where: str
    pips: int | None


def _region(x: float, y: float, layout: TableLayout) -> str:
    """Where table point (x, y) mm lies, in words: the table in thirds each way, its top
    the side of the markers 0 and 1."""
    across = ("left", "", "right")[min(max(int(3 * x / layout.width), 0), 2)]
    down = ("top", "", "bottom")[min(max(int(3 * y / layout.height), 0), 2)]
    words = " ".join(word for word in (down, across) if word)
    return f"at the {words}" if words else "in the middle"


def thrown_dice(frame: np.ndarray, config: VisionConfig) -> tuple[list[ThrownDie], str | None]:
    """The pip dice thrown anywhere on the table in `frame`, each with where it lies and
    the pips it shows when the reader is sure of them (`_SURE`), left to right; or why
    none (the markers unseen, no die)."""
    calibration, found = _dice_on_table(frame, config)
    if calibration is None:
        return [], "the four table markers are not all in view"
    seen = []
    for reading in sorted((r for r in found if r.kind == PIP_DIE), key=lambda r: r.x):
        look = look_at(frame, calibration, reading.x, reading.y)
        if look is not None:
            sure = reading.confidence >= _SURE
            seen.append((reading, _pictured(look), reading.face if sure else None))
    if not seen:
        return [], "no pip die found: throw your pip dice onto the table, inside the markers"
    regions = [_region(r.x, r.y, config.layout) for r, _, _ in seen]
    dice = []
    for i, ((_, picture, pips), region) in enumerate(zip(seen, regions, strict=True)):
        alike = [j for j, other in enumerate(regions) if other == region]
        where = region
        if len(alike) > 1:
            nth = alike.index(i)
            ordinal = _ORDINALS[nth] if nth < len(_ORDINALS) else f"number {nth + 1}"
            where = f"the {ordinal} from the left {region}"
        dice.append(ThrownDie(picture, where, pips))
    return dice, None


def learn_card(frame: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, str | None]:
    """The portrait image of the one card lying on the table in `frame`, or why not."""
    calibration = calibrate(frame, config.layout)
    if calibration is None or len(calibration.markers) < 4:
        return np.empty(0), "the four table markers are not all in view"
    k = 4.0  # learn at a finer scale than recognition needs; the catalogue shrinks it
    top = top_down(frame, calibration, config.layout, k)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    outlines = unlike_table(top, config.layout, k)
    poses = card_poses(grey, VisionConfig(config.layout, config.card_mm, px_per_mm=k), outlines)
    if not poses:
        return np.empty(0), "no card found: lay one card alone on the table, face up"
    if len(poses) > 1:
        return np.empty(0), f"{len(poses)} cards found: lay exactly one card on the table"
    w, h = TEMPLATE_PX
    big = card_image(top, poses[0], config.card_mm, k)
    return cv2.resize(big, (w * 2, h * 2), interpolation=cv2.INTER_AREA), None


def preview(codes: Sequence[str], images: Sequence[np.ndarray]) -> np.ndarray:
    """A contact sheet of the faces learnt so far, each labelled with its code."""
    w, h = TEMPLATE_PX[0] * 3, TEMPLATE_PX[1] * 3
    columns = 8
    rows = max(1, (len(images) + columns - 1) // columns)
    sheet = np.full((rows * (h + 24), columns * (w + 8), 3), 255, np.uint8)
    for i, (code, image) in enumerate(zip(codes, images, strict=True)):
        x, y = (i % columns) * (w + 8), (i // columns) * (h + 24)
        if image.shape[2] == 4:  # a die or the token: shown at its own shape, on white
            image = _on_card_paper(image)
        sheet[y : y + h, x : x + w] = cv2.resize(normalise(image), (w, h))
        cv2.putText(sheet, code, (x + 4, y + h + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0),
                    1, cv2.LINE_AA)  # fmt: skip
    return sheet


def _on_card_paper(piece: np.ndarray) -> np.ndarray:
    """A BGRA piece laid in the middle of a white portrait card's shape, for the preview."""
    side = max(piece.shape[:2])
    w, h = side * 3 // 2, side * 2
    paper = np.full((h, w, 3), 255, np.uint8)
    y, x = (h - piece.shape[0]) // 2, (w - piece.shape[1]) // 2
    alpha = piece[..., 3:].astype(np.float32) / 255
    spot = paper[y : y + piece.shape[0], x : x + piece.shape[1]]
    spot[:] = (piece[..., :3] * alpha + spot * (1 - alpha)).astype(np.uint8)
    return paper


class Deck:
    """What of a box to learn (`companion.games.protocol.Enrolment`): card faces by code,
    die faces (die-N) and the caboose token (`TOKEN`), for the card size of `config`."""

    def __init__(self, faces: Sequence[str], config: VisionConfig) -> None:
        self.faces = tuple(faces)
        self.config = config

    def prompt(self, face: str) -> str:
        return prompt(face)

    def learn(self, face: str, frame: np.ndarray) -> tuple[np.ndarray, str | None]:
        if face == TOKEN:
            return learn_piece(frame, self.config, "the caboose token", (8.0, 60.0))
        if die_wheels(face) is not None:
            return learn_piece(frame, self.config, "one die", (8.0, 30.0))
        if pip_count(face) is not None:
            picture, said = learn_pip_die(frame, self.config)
            return picture, None if said is None else said.text
        return learn_card(frame, self.config)

    def preview(self, faces: Sequence[str], pictures: Sequence[np.ndarray]) -> np.ndarray:
        return preview(faces, pictures)

    def save(self, pictures: Sequence[np.ndarray], folder: Path) -> None:
        """The card faces as a catalogue, the dice's faces as `dice.json`, the token as
        `token.json`, the pip dice as `pips.json`, each only when taught (what the folder
        holds of the others stays)."""
        learnt = dict(zip(self.faces, pictures, strict=True))
        codes = [f for f in self.faces if f != TOKEN and die_wheels(f) is None
                 and pip_count(f) is None]  # fmt: skip
        if codes:
            Catalogue(codes, [learnt[c] for c in codes]).save(folder)
        dice = {w: learnt[f] for f in self.faces if (w := die_wheels(f)) is not None}
        if dice:
            TaughtDice.learn(dice).save(folder)
        if TOKEN in learnt:
            TaughtToken.learn(learnt[TOKEN], PX_PER_MM).save(folder)
        pips = [
            _taught_die(count, picture)
            for face, picture in zip(self.faces, pictures, strict=True)
            if (count := pip_count(face)) is not None
        ]
        if pips:
            TaughtPips(pips).save(folder)


class PipLesson:
    """The family's own pip dice taught from the setup page (`companion.games.protocol.
    PipLesson`), as `companion enroll --codes pips` teaches them: each face of one die laid
    alone in turn, then written into the table's folder as `pips.json`."""

    def learn(self, frame: np.ndarray, layout: TableLayout) -> tuple[np.ndarray, Said | None]:
        return learn_pip_die(frame, VisionConfig(layout))

    def save(self, learnt: Mapping[int, np.ndarray], folder: Path) -> None:
        TaughtPips([_taught_die(pips, learnt[pips]) for pips in sorted(learnt)]).save(folder)


class PipThrows:
    """The family's own pip dice taught from throws (`companion enroll --codes pips
    --thrown`): any number of them thrown anywhere on the table, each face the reader is
    sure of taught unasked, the family asked the pips of each die it is unsure of, until
    every face 1-6 is taught. A face the family answered is kept over one read unasked: the
    dice the reader is unsure of are what teaching it is for."""

    def __init__(self, config: VisionConfig) -> None:
        self.config = config
        self.learnt: dict[int, np.ndarray] = {}
        self._answered: set[int] = set()

    def look(self, frame: np.ndarray) -> tuple[list[ThrownDie], str | None]:
        """The dice of one throw (`thrown_dice`), or why none."""
        return thrown_dice(frame, self.config)

    def missing(self) -> list[int]:
        """The faces 1-6 not taught yet."""
        return [pips for pips in range(1, 7) if pips not in self.learnt]

    def take(self, pips: int, picture: np.ndarray, answered: bool) -> bool:
        """Teach `picture` as the face `pips` (`answered`: the family said it), unless that
        face is taught already (by an answer, or unasked and this is not one); whether it
        was."""
        if pips in self._answered or (pips in self.learnt and not answered):
            return False
        self.learnt[pips] = picture
        if answered:
            self._answered.add(pips)
        return True

    def preview(self) -> np.ndarray:
        """The faces taught so far (`preview`)."""
        faces = sorted(self.learnt)
        return preview([f"{_PIPS}{pips}" for pips in faces], [self.learnt[p] for p in faces])

    def save(self, folder: Path) -> None:
        """Write the faces taught as `pips.json` (`PipLesson.save`)."""
        PipLesson().save(self.learnt, folder)


def _taught_die(pips: int, picture: np.ndarray) -> TaughtDie:
    """A pip die as `learn_pip_die` learnt it: its crop, and its rectangle from the alpha."""
    contours, _ = cv2.findContours(picture[..., 3], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rect = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    return TaughtDie(pips, np.ascontiguousarray(picture[..., :3]), rect)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`companion enroll`'s options for this game: whose box, or which of its faces."""
    parser.add_argument("--edition", choices=editions.EDITIONS, default="rollecate")
    parser.add_argument(
        "--codes",
        help="comma-separated faces instead of the edition's every card, die face and token: "
        "card codes (1/s,C2), a die's face by its wheels (die-0,die-1,die-2), caboose, "
        "your own pip dice (pips: each face of one, or pips-1 to pips-6)",
    )
    parser.add_argument(
        "--thrown",
        action="store_true",
        help="with --codes pips: throw your pip dice freely instead of laying each face; the "
        "companion reads the faces it can and asks you the pips of the dice it cannot",
    )


def enrolment(args: argparse.Namespace) -> Deck | PipThrows:
    """What `companion enroll`'s options ask to teach: the edition's every card face, die
    face and token, or the faces given, or the family's pip dice thrown freely (`--thrown`
    with `--codes pips`); ValueError names a code that is none of them, codes that name
    none, or `--thrown` with other codes."""
    if getattr(args, "thrown", False):
        if (args.codes or "").replace(" ", "") != PIPS:
            raise ValueError("--thrown teaches only your pip dice: give it with --codes pips")
        return PipThrows(VisionConfig.for_edition(args.edition))
    codes = box_of(args.edition)
    if args.codes:
        given = [c.strip() for c in args.codes.split(",") if c.strip()]
        every_pip = [f"{_PIPS}{n}" for n in range(1, 7)]
        codes = [face for c in given for face in (every_pip if c == PIPS else [c])]
        for code in codes:
            if code != TOKEN and die_wheels(code) is None and pip_count(code) is None:
                cards.parse(code)  # CardCodeError, a ValueError, says what a code must be
        if not codes:
            raise ValueError(f"--codes {args.codes!r} names no card: give codes such as 1/s,2/c")
    return Deck(codes, VisionConfig.for_edition(args.edition))
