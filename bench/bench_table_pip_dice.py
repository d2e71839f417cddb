"""How well the table reads standard pip dice of every colour, and how its two pip readers
(the layout fit and the photograph reader's learned count) compare on them.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_table_pip_dice.py [--scenes N]
     [--seed S] [--difficulty easy|hard]

Each scene is a table of `companion eval-vision` (random_scene, one card apart) whose every
die is a pip die of a colour drawn from dice_art.PIP_COLOURS; `white` runs the same tables
with white dice only. Every die the table reads where a die lies is scored three ways: the
face the table reports, the layout fit alone and the learned count alone
(dice_net.count_many on the same rectangle). Prints markdown for bench/RESULTS.md: dice
right by colour, the two readers alone and where they disagree, and how many wrong faces
the session would ask about (confidence below FollowConfig.die_unsure_below) rather than
enter into the game.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

import companion.vision.dice as dice_reader
from companion.games.caboose import scenes as synthetic
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.vision import off_the_cards
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.vision.dice import PIPS
from companion.vision.dice_art import PIP_COLOURS

_SAME_DIE_MM = 10.0


def run(scenes: int, seed: int, difficulty: str, colours: tuple[str, ...]) -> dict:
    """Counts over `scenes` tables whose pip dice are of `colours`."""
    cv2.setNumThreads(1)
    camera = synthetic.Camera.preset(difficulty)
    config = VisionConfig.for_edition("rollecate")
    unsure = FollowConfig().die_unsure_below
    readings: list[tuple[int, int]] = []  # (fit, learned) of each die read, in order
    read_dice = off_the_cards.read_dice

    def reading(
        frame: np.ndarray, calibration: object, spots: list, faint: list, *on_a_card: object
    ) -> list:
        got = read_dice(frame, calibration, spots, faint, *on_a_card)
        looks = [dice_reader.look_at(frame, calibration, x, y) for x, y in spots]
        looks += [dice_reader.look_at(frame, calibration, x, y, faint=True) for x, y in faint]
        looks = [look for look in looks if look is not None]
        learned = dice_reader.count_looks(looks, counts=True)  # what the table counts with
        for read in got:  # the look each reading came from: the one read where it lies
            i = min(range(len(looks)), key=lambda i: math.dist(
                (looks[i].reading.x, looks[i].reading.y), (read.x, read.y)))  # fmt: skip
            fit = looks[i].reading
            pips = fit.kind == PIPS
            readings.append((fit.face, int(np.argmax(learned[i]))) if pips else (-1, -1))
        return got

    off_the_cards.read_dice = reading
    tally: Counter = Counter()
    try:
        for i in range(scenes):
            scene = synthetic.random_scene(seed + i, loose_cards=1, pip_colours=colours)
            faces = np.random.default_rng([seed + i, 7]).integers(1, 7, len(scene.dice))
            dice = tuple(
                replace(d, kind="pips", face=int(f)) for d, f in zip(scene.dice, faces, strict=True)
            )
            scene = replace(scene, dice=dice)
            frame = synthetic.render(scene, seed + i, camera)
            readings.clear()
            seen = observe(frame, config).dice
            read = list(zip(seen, readings, strict=True))
            for die in dice:
                tally[die.colour, "dice"] += 1
                near = [
                    (s, r) for s, r in read if math.dist(s.position, (die.x, die.y)) < _SAME_DIE_MM
                ]
                if not near:
                    tally[die.colour, "unseen"] += 1
                    continue
                got, (fit, learned) = near[0]
                right = got.kind == "pips" and got.face == die.face
                tally[die.colour, "right"] += right
                tally["fit_right"] += fit == die.face
                tally["learned_right"] += learned == die.face
                tally["read"] += 1
                if fit != learned:
                    tally["disputed"] += 1
                    tally["disputed_fit_right"] += fit == die.face
                    tally["disputed_learned_right"] += learned == die.face
                if not right:
                    tally["wrong"] += 1
                    tally["wrong_asked"] += got.confidence < unsure
                elif got.confidence < unsure:
                    tally["right_asked"] += 1
    finally:
        off_the_cards.read_dice = read_dice
    return dict(tally)


def share(part: int, whole: int) -> str:
    """A percentage, or a dash where a few tables held no die of that colour."""
    return f"{part / whole:.1%}" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=150)
    parser.add_argument("--seed", type=int, default=6000)
    parser.add_argument("--difficulty", choices=("easy", "hard"), default="hard")
    args = parser.parse_args()
    print(f"{args.scenes} {args.difficulty} tables from seed {args.seed}, all dice pip dice\n")
    print(
        "| dice | colour | dice | read right | not found | fit alone | learned alone "
        "| disputed: fit right / learned right | wrong faces asked | right faces asked |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, colours in (("white", ("white",)), ("any colour", tuple(PIP_COLOURS))):
        t = run(args.scenes, args.seed, args.difficulty, colours)
        for colour in colours:
            n = t.get((colour, "dice"), 0)
            right = t.get((colour, "right"), 0)
            unseen = t.get((colour, "unseen"), 0)
            print(f"| {name} | {colour} | {n} | {share(right, n)} | {unseen} | | | | | |")
        n = sum(t.get((c, "dice"), 0) for c in colours)
        right = sum(t.get((c, "right"), 0) for c in colours)
        read = t.get("read", 0)
        print(
            f"| {name} | all | {n} | **{share(right, n)}** | "
            f"{sum(t.get((c, 'unseen'), 0) for c in colours)} | "
            f"{share(t.get('fit_right', 0), read)} | {share(t.get('learned_right', 0), read)} | "
            f"{t.get('disputed', 0)}: {t.get('disputed_fit_right', 0)} / "
            f"{t.get('disputed_learned_right', 0)} | "
            f"{t.get('wrong_asked', 0)} of {t.get('wrong', 0)} | {t.get('right_asked', 0)} |"
        )


if __name__ == "__main__":
    main()
