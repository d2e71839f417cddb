"""Teaching a family's own pip dice: each set of the photographs' dice taught from six of
its dice, the rest read, with and without what was taught.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_taught_pips.py [--half even|odd]
     [--draws N] [--dice-photos DIR]
     OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_taught_pips.py --table [--half H]
     [--scenes N] [--seed S]

The sets are bench/pip_dice_sets.json (the overhead-tray photographs' dice grouped by colour
and style; the file says how). For each set and each of `--draws` draws, six of its dice are
taught (one of each face where the set has one, chosen at random with the draw's seed), as
`companion enroll --codes pips` teaches them, and its other dice are read: each die at its
face's rectangle in its photograph (as the readers find it), the learned count
(dice_net.count_many) alone and adapted by what was taught (taught_pips.TaughtPips.adapt). A
die is right when the most likely count is its label, sure when that count's chance is at
least 0.8 (what the table takes unasked from the learned count), asked otherwise. And what the
teaching does to dice it was not taught: every die of the other sets read with this set taught,
against the count alone. Tune on `--half odd`; the even half is held out.

`--thrown`: the six taught as `companion enroll --codes pips --thrown` takes them: the set's
dice in the draw's order thrown THROW at a time, the family asked the pips of each die the
count alone is unsure of (below SURE) and each face read surely taught unasked
(enrolment.PipThrows.take), until every face the set shows is taught.

`--table`: the same at the table. For each set, `companion eval-vision --dice real --dice-set
SET` (its dice on hard synthetic tables, the six taught dice left out) without and with
`--teach-pips` (the six taught first, as `companion enroll --codes pips` does, under the
same camera), `--scenes` scenes from `--seed` (which also draws the six): the dice read right
(found, with the right pips, whether asked or not), those asked (read less surely than the
table takes unasked) and those read wrong yet surely.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose.vision.enrolment import PipThrows
from companion.games.caboose.vision.observation import VisionConfig
from companion.synthetic.photo_dice import TAUGHT, PhotoDice, taught_first
from companion.vision.dice_net import count_many
from companion.vision.eval_dice import PHOTOS
from companion.vision.taught_pips import TaughtDie, TaughtPips

SETS = Path(__file__).with_name("pip_dice_sets.json")
SURE = 0.8  # the learned count's chance the table takes a die unasked at (dice._LOOSE_SURE)
THROW = 6  # `--thrown`: dice a throw


def set_dice(half: str, photos: Path) -> dict[str, list[tuple[np.ndarray, tuple, int]]]:
    """Each set's dice of `half`: (its photograph, its face's rectangle, its pips)."""
    sets = json.loads(SETS.read_text())["sets"]
    which = {source: name for name, halves in sets.items() for source in halves[half]}
    dice = PhotoDice(photos, half)
    images: dict[Path, np.ndarray] = {}
    found: dict[str, list[tuple[np.ndarray, tuple, int]]] = defaultdict(list)
    for index in range(len(dice)):
        name = which.get(dice.source(index))
        where = None if name is None else dice.found(index)
        if where is None:
            continue
        path, rect = where
        image = images.setdefault(path, cv2.imread(str(path), cv2.IMREAD_COLOR))
        found[name].append((image, rect, dice.pips(index)))
    return dict(found)


def pick(dice: list, seed: int) -> tuple[list, list]:
    """The dice to teach (photo_dice.taught_first: one of each face the set has), each with
    the pips it is taught as, and the rest, to read."""
    taught = taught_first(dice, lambda die: die[2], seed)
    return [(die[2], die) for die in taught], [d for d in dice if not any(d is t for t in taught)]


def pick_thrown(dice: list, alone: np.ndarray, seed: int) -> tuple[list, list]:
    """The dice taught from throws (`--thrown`), each with the pips it is taught as, and the
    rest: `alone` the count's chances of each die say which the family is asked about."""
    order = list(range(len(dice)))
    random.Random(seed).shuffle(order)
    lesson = PipThrows(VisionConfig())
    shown = {die[2] for die in dice}
    for start in range(0, len(order), THROW):
        if not shown - set(lesson.learnt):
            break
        throw = order[start : start + THROW]
        read_as = {i: int(alone[i, 1:].argmax()) + 1 for i in throw}
        for i in throw:
            if alone[i, read_as[i]] < SURE:
                lesson.take(dice[i][2], dice[i], answered=True)
        for i in throw:
            if alone[i, read_as[i]] >= SURE:
                lesson.take(read_as[i], dice[i], answered=False)
    taught = list(lesson.learnt.items())  # a die read surely but wrong: taught as read
    return taught, [d for d in dice if not any(d is t for _, t in taught)]


def read(dice: list, taught: TaughtPips | None) -> np.ndarray:
    """The chances (n, 7) of each die, adapted by `taught` when given."""
    rows = []
    for image, rect, _ in dice:
        chances = count_many(image, [rect])
        rows.append(chances if taught is None else taught.adapt(image, [rect], chances))
    return np.concatenate(rows) if rows else np.zeros((0, 7))


def tally(chances: np.ndarray, dice: list) -> np.ndarray:
    """(right, right and sure, wrong yet sure, asked) counts."""
    truth = np.array([pips for _, _, pips in dice])
    face = chances[:, 1:].argmax(axis=1) + 1
    sure = chances[np.arange(len(face)), face] >= SURE
    right = face == truth
    return np.array([right.sum(), (right & sure).sum(), (~right & sure).sum(), (~sure).sum()])


def table(half: str, photos: Path, scenes: int, seed: int) -> None:
    """Print the table's figures of each set, untaught and taught (`--table`)."""
    from companion.games.caboose.vision.eval_vision import evaluate

    print(f"{half} half at the table: {scenes} hard scenes a set from seed {seed}\n")
    print("| set | dice | untaught: right / asked / wrong yet sure | dice taught | taught: right "
          "/ asked / wrong yet sure | frame / plain pass untaught, taught |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    total = np.zeros((2, 4), int)
    for name in json.loads(SETS.read_text())["sets"]:
        runs = [evaluate(scenes, seed, "hard", "rollecate", "real", photos, half,
                         dice_set=name, teach_pips=teach) for teach in (False, True)]  # fmt: skip
        counts = np.array(
            [[r["dice"], r["dice_right"], r["dice_asked"], r["dice_wrong_sure"]] for r in runs]
        )
        total += counts
        untaught, taught = (f"{100 * c[1] / max(c[0], 1):.1f} % / {c[2]} / {c[3]}" for c in counts)
        print(f"| {name} | {counts[0, 0]} | {untaught} | {runs[1]['pips_taught']} | {taught} | "
              f"{runs[0]['latency_ratio_p50']}x, {runs[1]['latency_ratio_p50']}x |")  # fmt: skip
    untaught, taught = (f"{100 * c[1] / max(c[0], 1):.1f} % / {c[2]} / {c[3]}" for c in total)
    print(f"| all | {total[0, 0]} | {untaught} | | {taught} | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--half", choices=("even", "odd"), default="even")
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--dice-photos", type=Path, default=PHOTOS)
    parser.add_argument("--table", action="store_true", help="measure at the table")
    parser.add_argument("--thrown", action="store_true", help="teach as thrown freely")
    parser.add_argument("--scenes", type=int, default=20, help="--table: scenes a set")
    parser.add_argument("--seed", type=int, default=1000, help="--table: the first scene")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.table:
        table(args.half, args.dice_photos, args.scenes, args.seed)
        return
    sets = set_dice(args.half, args.dice_photos)
    alone = {name: read(dice, None) for name, dice in sets.items()}
    taught_how = "dice taught from throws" if args.thrown else f"{TAUGHT} taught dice"
    print(f"{args.half} half, {sum(map(len, sets.values()))} dice in {len(sets)} sets, "
          f"{args.draws} draws of {taught_how} a set\n")  # fmt: skip
    print(
        "| set | dice read | count alone: right / sure wrong / asked | taught: right / "
        "sure wrong / asked | other sets' dice: sure wrong alone -> taught, right -> wrong |"
    )
    print("|---|---|---|---|---|")
    total = np.zeros((2, 4), int)
    read_total = 0
    others_total = np.zeros(3, int)
    for name, dice in sets.items():
        mine = np.zeros((2, 4), int)
        others = np.zeros(3, int)
        count = 0
        for draw in range(args.draws):
            teach, rest = pick_thrown(dice, alone[name], draw) if args.thrown else pick(dice, draw)
            taught = TaughtPips([TaughtDie(p, image, rect) for p, (image, rect, _) in teach])
            rest_alone = alone[name][[i for i, d in enumerate(dice) if any(d is r for r in rest)]]
            mine += np.stack([tally(rest_alone, rest), tally(read(rest, taught), rest)])
            count += len(rest)
            for other, their in sets.items():
                if other == name:
                    continue
                before, after = alone[other], read(their, taught)
                truth = np.array([p for _, _, p in their])
                was = before[:, 1:].argmax(axis=1) + 1 == truth
                now = after[:, 1:].argmax(axis=1) + 1 == truth
                others += (tally(before, their)[2], tally(after, their)[2], (was & ~now).sum())
        total += mine
        read_total += count
        others_total += others
        print(f"| {name} | {count} | " + " | ".join(
            f"{100 * m[0] / count:.1f} % / {m[2]} / {m[3]}" for m in mine
        ) + f" | {others[0]} -> {others[1]}, {others[2]} |")  # fmt: skip
    print(f"| all | {read_total} | " + " | ".join(
        f"{100 * m[0] / read_total:.1f} % / {m[2]} / {m[3]}" for m in total
    ) + f" | {others_total[0]} -> {others_total[1]}, {others_total[2]} |")  # fmt: skip


if __name__ == "__main__":
    main()
