"""Where should the table take a real pip die unasked? Its sure thresholds swept on one set of
hard tables, each table rendered once and read once per setting.

Run: OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python bench/bench_dice_sure.py
     [--scenes N] [--seed S] [--counter ONNX] [--dice-photos DIR] [--dice-half odd|even]
     [--setting LOOSE,FAINT,CARD ...]

A setting is dice.py's `_LOOSE_SURE`, `_FAINT_SURE` and `_ON_CARD_SURE` (the learned count's
chance of the face from which a loosely fitting, a faint and a card's die is taken unasked).
The tables are `companion eval-vision --dice real`'s (the same scenes, dice and scoring), so
a setting's row is what that command would print with it. Why a bench of its own: thresholds
chosen on dice the counter was trained on ask too little of dice it never saw (issue 30,
point 1), so they are chosen here on dice it never saw, e.g. data/dice-extra/tray-colour's
even half (`--dice-photos data/dice-extra/tray-colour --dice-half even`) for a counter trained
on its odd half, or all of it for one trained on shared/data/dice-real alone. `--counter`
runs another table counter (dice_net.TABLE_COUNTER). Prints one JSON object: per setting,
dice laid, read right, asked, wrong yet surely, not found.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

import companion.vision.dice as dice_reader
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.rules import edition as editions
from companion.games.caboose.rules.dice import face_map_for
from companion.games.caboose.vision.eval_vision import photo_dice_stream, score_scene
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.synthetic.photo_dice import PhotoDice
from companion.vision import dice_net

EDITION = "rollecate"  # eval-vision's default
SHIPPED = (dice_reader._LOOSE_SURE, dice_reader._FAINT_SURE, dice_reader._ON_CARD_SURE)
COUNTS = {"dice": "dice", "right": "dice_right", "asked": "dice_asked"}
COUNTS |= {"wrong_sure": "dice_wrong_sure", "unseen": "dice_unseen"}


def real_dice_tables(
    scenes: int, seed: int, photos: PhotoDice, camera: synthetic.Camera
) -> Iterator[tuple[int, synthetic.Scene, np.ndarray, tuple[float, float]]]:
    """`companion eval-vision --dice real`'s tables from `seed` (the same scenes, with real
    dice from `photos` laid as it lays them), filmed by `camera`: each table's seed, scene,
    frame and where its railway's back card lies (what `observe` is told)."""
    stream = photo_dice_stream(photos, seed, set(), None)
    for scene_seed in range(seed, seed + scenes):
        scene = synthetic.random_scene(scene_seed, EDITION, loose_cards=1)
        scene = synthetic.with_photo_dice(scene, stream)
        back = scene.cards[scene.railway[0]].pose
        yield scene_seed, scene, synthetic.render(scene, scene_seed, camera), (back.x, back.y)


def sweep(
    scenes: int, seed: int, photos: PhotoDice, settings: list[tuple[float, float, float]]
) -> dict[str, dict[str, int]]:
    """Per setting (joined by commas), the dice counts of `scenes` hard tables from `seed`
    with real dice from `photos`; dice.py's thresholds are put back afterwards."""
    cv2.setNumThreads(1)
    face_map = face_map_for(editions.load(EDITION))
    camera = synthetic.Camera.preset("hard")
    config = VisionConfig.for_edition(EDITION, frame_size=camera.frame_size)
    totals = {s: dict.fromkeys(COUNTS, 0) for s in settings}
    try:
        for _, scene, frame, back in real_dice_tables(scenes, seed, photos, camera):
            for setting in settings:
                (
                    dice_reader._LOOSE_SURE,
                    dice_reader._FAINT_SURE,
                    dice_reader._ON_CARD_SURE,
                ) = setting
                seen = observe(frame, config, back=back)
                result = score_scene(scene, seen, face_map)
                for name, key in COUNTS.items():
                    totals[setting][name] += int(result[key])
    finally:
        dice_reader._LOOSE_SURE, dice_reader._FAINT_SURE, dice_reader._ON_CARD_SURE = SHIPPED
    return {",".join(f"{v:g}" for v in s): counts for s, counts in totals.items()}


def setting(text: str) -> tuple[float, float, float]:
    """LOOSE,FAINT,CARD as three chances from 0 to 1."""
    values = tuple(float(v) for v in text.split(","))
    if len(values) != 3 or not all(0.0 < v < 1.0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: give three chances, e.g. 0.8,0.87,0.9")
    return values  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=61000)
    parser.add_argument("--counter", type=Path, default=None, help="another table counter")
    parser.add_argument("--dice-photos", type=Path, default=None, help="a dice-real folder")
    parser.add_argument("--dice-half", choices=("odd", "even"), default="odd")
    parser.add_argument("--setting", type=setting, nargs="+", default=[SHIPPED])
    args = parser.parse_args()
    if args.counter is not None:
        dice_net.TABLE_COUNTER = args.counter
    photos = PhotoDice(args.dice_photos, args.dice_half)
    print(json.dumps(sweep(args.scenes, args.seed, photos, args.setting)))


if __name__ == "__main__":
    main()
