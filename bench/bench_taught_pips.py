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

`--table --cutouts`: what teaching could do at the table at all. The same tables, each die
of the set cut out where it lies as the table's reader cuts it (dice.look_at at its true
place: what finding it costs is left out) and counted by the table's counter (its argmax,
before the layout fit is weighed in): alone, adapted by the six taught through the camera,
and, the dice halved in the order they lie, the second half adapted by the first half
taught (a family that taught twenty dice at the table, each labelled), against the counter
alone on that half. And every other set's cut-outs read with this set's six taught: those
read wrong yet surely (the layout fit weighed in, dice._agreed) alone and taught.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.vision.enrolment import PipThrows
from companion.games.caboose.vision.observation import VisionConfig
from companion.synthetic import Camera
from companion.synthetic.photo_dice import (
    TAUGHT,
    PhotoDice,
    photo_dice_stream,
    set_sources,
    taught_first,
)
from companion.vision.calibrate import FINE_PX_PER_MM, calibrate
from companion.vision.dice import DieLook, _agreed, count_looks, look_at
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


def table_cutouts(
    half: str, photos: Path, name: str, scenes: int, seed: int
) -> tuple[TaughtPips, list[tuple[DieLook, int, bool]]]:
    """One set's six dice taught through the hard camera (as `eval-vision --teach-pips`
    teaches them) and its other dice on `scenes` hard tables from `seed`, each as the
    table's reader cuts it out where it lies (`dice.look_at`), with its pips and whether
    the frame is coarse there (below FINE_PX_PER_MM)."""
    camera = Camera.preset("hard")
    config = VisionConfig.for_edition("rollecate", frame_size=camera.frame_size)
    pool = PhotoDice(photos, half)
    members = set_sources(name, half)
    mine = [d for i in range(len(pool)) if pool.source(i) in members if (d := pool.die(i))]
    taught = taught_first(mine, lambda die: die.pips, seed)
    with tempfile.TemporaryDirectory(prefix="pip-dice-") as folder:
        synthetic.teach_pip_dice(taught, config.layout, camera, Path(folder))
        lesson = TaughtPips.load(Path(folder))
    assert lesson is not None  # teach_pip_dice raises when none could be taught
    stream = photo_dice_stream(pool, seed, set(), members - {d.source for d in taught})
    looks = []
    for scene_seed in range(seed, seed + scenes):
        scene = synthetic.random_scene(scene_seed, "rollecate", loose_cards=1)
        scene = synthetic.with_photo_dice(scene, stream)
        frame = synthetic.render(scene, scene_seed, camera)
        calibration = calibrate(frame, config.layout)
        for die in scene.dice if calibration is not None else ():
            look = look_at(frame, calibration, die.x, die.y)
            if look is not None:
                coarse = calibration.px_per_mm((die.x, die.y)) < FINE_PX_PER_MM
                looks.append((look, die.face, coarse))
    return lesson, looks


def table_reads(
    looks: list[tuple[DieLook, int, bool]], taught: TaughtPips | None
) -> tuple[np.ndarray, np.ndarray]:
    """Whether the table's counter's most likely pips of each cut-out are right, and whether
    the die is read wrong yet surely once its layout fit is weighed in (dice._agreed, as
    `read_dice` reads a die found on full evidence); adapted by `taught` when given."""
    chances = count_looks([look for look, _, _ in looks], taught, counts=True)
    counted = chances[:, 1:].argmax(axis=1) + 1 == np.array([pips for _, pips, _ in looks])
    unsure = FollowConfig().die_unsure_below
    wrong_sure = []
    for (look, pips, coarse), odds in zip(looks, chances, strict=True):
        face, confidence = _agreed(look.pip_errors, odds, coarse=coarse)
        wrong_sure.append(face != pips and confidence >= unsure)
    return counted, np.array(wrong_sure, bool)


def cutouts(half: str, photos: Path, scenes: int, seed: int) -> None:
    """Print what teaching could do for each set's table cut-outs (`--table --cutouts`)."""
    print(f"{half} half, each set's dice cut out at the table: {scenes} hard scenes from {seed}\n")
    print(
        "| set | dice | counter alone | six taught | second half: alone | second half, the "
        "first half taught | other sets' dice wrong yet surely: alone -> this set taught |"
    )
    print("|---|---|---|---|---|---|---|")  # fmt: skip
    sets = {
        name: table_cutouts(half, photos, name, scenes, seed)
        for name in json.loads(SETS.read_text())["sets"]
    }
    alone = {name: table_reads(looks, None) for name, (_, looks) in sets.items()}
    total = np.zeros(8, int)
    for name, (lesson, looks) in sets.items():
        first, second = looks[::2], looks[1::2]
        halved = TaughtPips([TaughtDie(pips, look.crop, look.rect) for look, pips, _ in first])
        others = [(other, their) for other, (_, their) in sets.items() if other != name]
        row = np.array([
            len(looks),
            alone[name][0].sum(),
            table_reads(looks, lesson)[0].sum(),
            len(second),
            alone[name][0][1::2].sum(),
            table_reads(second, halved)[0].sum(),
            sum(alone[other][1].sum() for other, _ in others),
            sum(table_reads(their, lesson)[1].sum() for _, their in others),
        ])  # fmt: skip
        total += row
        print(f"| {name} | {row[0]} | {row[1]} | {row[2]} | {row[4]} of {row[3]} | {row[5]} | "
              f"{row[6]} -> {row[7]} |")  # fmt: skip
    print(f"| all | {total[0]} | {100 * total[1] / total[0]:.1f} % | "
          f"{100 * total[2] / total[0]:.1f} % | {100 * total[4] / total[3]:.1f} % | "
          f"{100 * total[5] / total[3]:.1f} % | {total[6]} -> {total[7]} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--half", choices=("even", "odd"), default="even")
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--dice-photos", type=Path, default=PHOTOS)
    parser.add_argument("--table", action="store_true", help="measure at the table")
    parser.add_argument("--cutouts", action="store_true", help="--table: the cut-outs alone")
    parser.add_argument("--thrown", action="store_true", help="teach as thrown freely")
    parser.add_argument("--scenes", type=int, default=20, help="--table: scenes a set")
    parser.add_argument("--seed", type=int, default=1000, help="--table: the first scene")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.table and args.cutouts:
        cutouts(args.half, args.dice_photos, args.scenes, args.seed)
        return
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
