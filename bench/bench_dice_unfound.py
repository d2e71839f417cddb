"""Why real dice clear of the lamp are not found at the Caboose table, die by die (issue 30,
point 1). Each of eval-vision's hard tables (real dice, held-out half; same scenes and dice
as `companion eval-vision --dice real --seed S`) is read once, with the blobs `find_dice`
handed to the reader and the reader's answers kept, and every die not found clear of the
lamp is put in one class: no blob near it (the finder), a blob but no reading (the reading
lost it: no body, or a faint blob the learned count turned down), or read but not reported
(dropped after the reading: near the lamp's reflection, or beside another die). The dice
the lamp touches that are not found are counted apart: centre inside `glare_mask` (the
clipped white and the halo it washes out, where no die is read by design) or outside it.

Run: OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python bench/bench_dice_unfound.py
     [--scenes N] [--seed S]
Prints one JSON object: per class, the count and each die (table seed, where, its photograph).
"""

from __future__ import annotations

import argparse
import json
import math

import cv2
import numpy as np
from bench_dice_sure import EDITION, real_dice_tables  # the same tables, read otherwise

import companion.games.caboose.vision.off_the_cards as off_the_cards
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.eval_vision import SAME_DIE_MM, under_lamp
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.synthetic.photo_dice import PhotoDice
from companion.vision.frame_checks import glare_mask


def unfound(scenes: int, seed: int) -> dict[str, list[dict]]:
    """Each real die not found clear of the lamp on `scenes` hard tables from `seed`, by why."""
    cv2.setNumThreads(1)
    camera = synthetic.Camera.preset("hard")
    config = VisionConfig.for_edition(EDITION, frame_size=camera.frame_size)
    shipped = off_the_cards.read_dice
    heard: dict[str, list] = {}

    def listening(
        frame: object, calibration: object, spots: list, faint: list | None = None,
        *rest: object, **named: object,
    ) -> list:  # fmt: skip
        """The shipped reader, with what it was handed and what it read kept in `heard`."""
        readings = shipped(frame, calibration, spots, faint, *rest, **named)
        heard["blobs"] = list(spots) + list(faint or ())
        heard["read"] = [(r.x, r.y) for r in readings if r is not None]
        return readings

    classes: dict[str, list[dict]] = {"no blob": [], "blob, no reading": [], "read, dropped": []}
    # and the dice under the lamp not found: their centre in glare_mask (the clipped white
    # and the halo it washes out, where no die is read) or outside it (the lamp only near)
    classes |= {"lamp, in the glare mask": [], "lamp, outside the glare mask": []}
    off_the_cards.read_dice = listening
    try:
        tables = real_dice_tables(scenes, seed, PhotoDice(None, "even"), camera)
        for scene_seed, scene, frame, back in tables:
            heard.clear()
            seen = observe(frame, config, back=back)
            lit = under_lamp(scene, scene_seed, camera, frame)
            glare = glare_mask(frame) if lit[1] else None  # once a table, if a die lies lit
            for index, die in enumerate(scene.dice):

                def near(points: list) -> bool:
                    return any(math.dist((die.x, die.y), p[:2]) < SAME_DIE_MM for p in points)  # noqa: B023

                if near([d.position for d in seen.dice]):
                    continue
                source = getattr(getattr(die.picture, "__self__", None), "source", "")
                record = {"table": scene_seed, "at": [round(die.x), round(die.y)], "photo": source}
                if index in lit[1]:
                    pixel = seen.calibration.to_pixels(np.array([[die.x, die.y]]))[0]
                    x, y = (round(float(v)) for v in pixel)
                    white = (
                        glare is not None and bool(glare[y, x])
                        if 0 <= y < frame.shape[0] and 0 <= x < frame.shape[1]
                        else False
                    )
                    where = "in" if white else "outside"
                    classes[f"lamp, {where} the glare mask"].append(record)
                    continue
                why = (
                    "no blob"
                    if not near(heard.get("blobs", []))
                    else "blob, no reading"
                    if not near(heard.get("read", []))
                    else "read, dropped"
                )
                classes[why].append(record)
    finally:
        off_the_cards.read_dice = shipped
    return {why: {"count": len(dice), "dice": dice} for why, dice in classes.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=61000)
    args = parser.parse_args()
    print(json.dumps(unfound(args.scenes, args.seed)))


if __name__ == "__main__":
    main()
