"""The table's examples for the pip counter: what the table's dice reader asks the learned
count about, with the truth, on synthetic tables.

Run: python -m companion.games.caboose.vision.dice_examples --out /tmp/table_dice.npz
     [--scenes N] [--seed S] [--dice-photos DIR]

Why: the counter (companion/vision/dice_net.py) was trained on dice cut from photographs by
the photograph reader, but at the table it is handed another window: a crop of the original
frame at the dice reader's scale (dice.CROP_SIDE pixels, dice.CROP_PX_PER_MM) and the
rectangle the reader's outline gave, through a tilted, blurred camera. These examples are
exactly those (crop, rectangle) pairs, so the counter can learn the table's view too.

Each scene is a table of `eval-vision` (random_scene, one card apart), under the easy or
the hard camera by turns, with pip dice of every colour the table reads
(dice_art.PIP_COLOURS) and our wheel dice; every other scene's dice are mostly real dice
cut from the ODD half of the labelled photographs (photo_dice.PhotoDice(half="odd"): the
even half is held out and must never reach a trainer). The scene is recognised as the
table does (observe), the dice finder run on what it left free, and each die it finds
looked at by the reader (dice.look_at; its faint blobs too, which the learned count must
accept or refuse): its (crop, rectangle) is an example, labelled with
the true pips of the die lying there, or 0 (not a pip die) for our wheel dice and for
anything found where no die lies. A die the finder misses is an example too, its crop cut
around where it truly lies and its rectangle the true one, so the counter learns the dice
the finder's outline gets wrong. A few windows where no die lies (a card's corner, the
caboose, bare table; one a scene) are 0s, their rectangle what the reader's outline makes of them.

The file (npz): `crops` uint8 (N, S, S, 3) BGR, `rects` float32 (N, 5) cx, cy, w, h, angle
in crop pixels, `labels` int64 (N,) 0-6, `source` str (N,) "drawn", "photo" or "other"
(the contract with the counter's trainer), and for measuring the table's reader: `found`
bool (the finder found it), `fit_face` int64 and `fit_confidence` float32 (the layout
fit's reading, -1 and 0 where it read none), `fit_kind` str ("pips", "wheels" or ""),
`camera` str, `colour` str (a drawn pip die's colour, "photo", "wheels" or ""), `origin`
str (a real die's photograph and label line, else "").
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.arguments import CommandLine
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.eval_vision import SAME_DIE_MM
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.games.caboose.vision.off_the_cards import off_the_known
from companion.synthetic import PlacedDie
from companion.synthetic.photo_dice import PhotoDice, PhotoDiceMissing, PhotoDie, photo_dice_stream
from companion.vision.calibrate import Calibration, top_down
from companion.vision.dice import CROP_PX_PER_MM, CROP_SIDE, DieLook, crop_at, find_dice, look_at
from companion.vision.dice_art import DIE_MM, PIP_COLOURS
from companion.vision.eval_dice import PHOTOS

_PHOTO_SHARE = 0.75  # in a scene of real dice, the share of its dice that are real


def _with_photos(scene: synthetic.Scene, photos: Iterator[PhotoDie], rng) -> synthetic.Scene:
    """The scene with most dice (`_PHOTO_SHARE`) replaced by real ones lying where they lay;
    the rest stay our wheel dice or drawn pip dice, so real and drawn dice share frames."""
    dice = []
    for die in scene.dice:
        if rng.random() < _PHOTO_SHARE:
            photo = next(photos)
            die = replace(die, kind="pips", face=photo.pips, picture=photo.picture)
        dice.append(die)
    return replace(scene, dice=tuple(dice))


def _truth_rect(die: PlacedDie, x: float, y: float) -> tuple:
    """The true rectangle (crop pixels) of `die` in the crop centred on (x, y) mm."""
    centre = (
        CROP_SIDE / 2 + (die.x - x) * CROP_PX_PER_MM,
        CROP_SIDE / 2 + (die.y - y) * CROP_PX_PER_MM,
    )
    side = DIE_MM * CROP_PX_PER_MM
    return (centre, (side, side), die.rotation % 90.0)


def _source(die: PlacedDie | None) -> str:
    if die is None or die.kind != "pips":
        return "other"
    return "photo" if die.picture is not None else "drawn"


def _colour(die: PlacedDie | None) -> str:
    if die is None:
        return ""
    if die.kind != "pips":
        return "wheels"
    return "photo" if die.picture is not None else die.colour


def _origin(die: PlacedDie | None) -> str:
    """The photograph a real die was cut from, else "": a real die's picture is its
    PhotoDie's bound `picture` (scenes.with_photo_dice, `_with_photos`)."""
    photo = None if die is None else getattr(die.picture, "__self__", None)
    return photo.source if isinstance(photo, PhotoDie) else ""


def _other_spots(scene: synthetic.Scene, rng) -> list[tuple[float, float]]:
    """One spot where no die lies but the reader might look: a card's corner, the caboose
    or bare table (a random spot clear of every card and die)."""
    spots = []
    card = scene.cards[int(rng.integers(len(scene.cards)))]
    a = math.radians(card.pose.rotation)
    cx, cy = (
        (scene.card_mm[0] / 2) * rng.choice((-1, 1)),
        (scene.card_mm[1] / 2) * rng.choice((-1, 1)),
    )
    spots.append(
        (
            card.pose.x + cx * math.cos(a) - cy * math.sin(a),
            card.pose.y + cx * math.sin(a) + cy * math.cos(a),
        )
    )
    if scene.caboose_at is not None:
        spots.append(scene.caboose_at)
    left, top, right, bottom = scene.layout.play_area()
    for _ in range(100):
        xy = (float(rng.uniform(left + 20, right - 20)), float(rng.uniform(top + 20, bottom - 20)))
        clear_of_cards = all(math.dist(xy, (c.pose.x, c.pose.y)) > 75 for c in scene.cards)
        if clear_of_cards and all(math.dist(xy, (d.x, d.y)) > 30 for d in scene.dice):
            spots.append(xy)
            break
    return [spots[int(rng.integers(len(spots)))]]  # one a scene: dice are what is read


def scene_examples(
    scene: synthetic.Scene, frame: np.ndarray, config: VisionConfig, rng
) -> list[dict]:
    """The examples of one rendered scene (each a dict of the file's fields)."""
    back = scene.cards[scene.railway[0]].pose
    seen = observe(frame, config, back=(back.x, back.y))
    calibration: Calibration | None = seen.calibration
    if calibration is None:
        return []
    k = config.px_per_mm
    top = top_down(frame, calibration, config.layout, k)
    half = cv2.resize(top, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    free = off_the_known(top.shape[:2], config, seen.cards, seen.caboose_at)
    spots, faint = find_dice(half, free, k / 2)
    looks = [look_at(frame, calibration, x, y) for x, y in spots]
    looks += [look_at(frame, calibration, x, y, faint=True) for x, y in faint]
    found: list[dict] = []
    matched: set[int] = set()
    for look in (lk for lk in looks if lk is not None):
        xy = (look.reading.x, look.reading.y)
        near = [i for i, d in enumerate(scene.dice) if math.dist(xy, (d.x, d.y)) < SAME_DIE_MM]
        die = scene.dice[near[0]] if near else None
        if near:
            matched.add(near[0])
        found.append(_example(look.crop, look.rect, die, look, True))
    for i, die in enumerate(scene.dice):
        if i not in matched:  # the finder missed it: the true window, so the counter learns it
            crop = crop_at(frame, calibration, die.x, die.y, CROP_SIDE / CROP_PX_PER_MM)
            found.append(_example(crop, _truth_rect(die, die.x, die.y), die, None, False))
    for x, y in _other_spots(scene, rng):
        look = look_at(frame, calibration, x, y)
        if look is None:
            crop = crop_at(frame, calibration, x, y, CROP_SIDE / CROP_PX_PER_MM)
            side = DIE_MM * CROP_PX_PER_MM
            rect = ((CROP_SIDE / 2, CROP_SIDE / 2), (side, side), float(rng.uniform(0, 90)))
            found.append(_example(crop, rect, None, None, False))
        elif all(math.dist((look.reading.x, look.reading.y), (d.x, d.y)) > 20 for d in scene.dice):
            found.append(_example(look.crop, look.rect, None, look, False))
    return found


def _example(
    crop: np.ndarray, rect: tuple, die: PlacedDie | None, look: DieLook | None, found: bool
) -> dict:
    (cx, cy), (w, h), angle = rect
    return {
        "crops": crop,
        "rects": np.array([cx, cy, w, h, angle], np.float32),
        "labels": die.face if die is not None and die.kind == "pips" else 0,
        "source": _source(die),
        "found": found,
        "fit_face": -1 if look is None else look.reading.face,
        "fit_confidence": 0.0 if look is None else look.reading.confidence,
        "fit_kind": "" if look is None else look.reading.kind,
        "colour": _colour(die),
        "origin": _origin(die),
    }


def make_examples(
    scenes: int, seed: int, dice_photos: Path | None = None, real_only: bool = False
) -> dict:
    """The examples of `scenes` tables from `seed`: the file's arrays. `real_only` lays real
    dice in every table under the hard camera (the table's hardest view of real dice, which
    the counter misreads most), not in every other table under the easy and hard by turns."""
    cv2.setNumThreads(1)
    photos = photo_dice_stream(PhotoDice(dice_photos, half="odd"), seed, set())
    config = VisionConfig.for_edition("rollecate")
    cameras = {name: synthetic.Camera.preset(name) for name in ("easy", "hard")}
    rows: list[dict] = []
    for i in range(scenes):
        scene_seed = seed + i
        rng = np.random.default_rng([scene_seed, 13])
        scene = synthetic.random_scene(
            scene_seed, loose_cards=1, n_dice=int(rng.integers(2, 5)),
            pip_colours=tuple(PIP_COLOURS),
        )  # fmt: skip
        if real_only or i % 2 == 1:
            scene = _with_photos(scene, photos, rng)
        name = "hard" if real_only or i % 3 else "easy"
        frame = synthetic.render(scene, scene_seed, cameras[name])
        rows += [row | {"camera": name} for row in scene_examples(scene, frame, config, rng)]
    return {
        "crops": np.stack([r["crops"] for r in rows]).astype(np.uint8),
        "rects": np.stack([r["rects"] for r in rows]).astype(np.float32),
        "labels": np.array([r["labels"] for r in rows], np.int64),
        "source": np.array([r["source"] for r in rows]),
        "found": np.array([r["found"] for r in rows], bool),
        "fit_face": np.array([r["fit_face"] for r in rows], np.int64),
        "fit_confidence": np.array([r["fit_confidence"] for r in rows], np.float32),
        "fit_kind": np.array([r["fit_kind"] for r in rows]),
        "camera": np.array([r["camera"] for r in rows]),
        "colour": np.array([r["colour"] for r in rows]),
        "origin": np.array([r["origin"] for r in rows]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="python -m companion.games.caboose.vision.dice_examples",
        description="Write the table's pip-counter examples (crops, rectangles, true pips).",
    )
    parser.add_argument("--out", type=Path, required=True, help="the npz file to write")
    parser.add_argument("--scenes", type=int, default=600, help="how many tables (default 600)")
    parser.add_argument("--seed", type=int, default=20000, help="seed of the first table")
    parser.add_argument(
        "--dice-photos",
        type=Path,
        default=PHOTOS,
        metavar="DIR",
        help=f"the dice-real folder; only its odd half is used (default {PHOTOS})",
    )
    parser.add_argument(
        "--real-only",
        action="store_true",
        help="real dice in every table, all under the hard camera (more of the hardest examples)",
    )
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    try:
        examples = make_examples(args.scenes, args.seed, args.dice_photos, args.real_only)
    except PhotoDiceMissing as missing:
        print(f"{parser.prog}: {missing}", file=sys.stderr)
        return 2
    np.savez_compressed(args.out, **examples)
    labels, source = examples["labels"], examples["source"]
    print(f"{len(labels)} examples in {args.out}: "
          + ", ".join(f"{s} {int((source == s).sum())}" for s in ("drawn", "photo", "other"))
          + f"; found by the finder {int(examples['found'].sum())}; by label "
          + " ".join(f"{n}:{int((labels == n).sum())}" for n in range(7)))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
