"""A new camera's Caboose frame beside the plain pass, table by table, without step timers.

Run: cd bench && OPENBLAS_NUM_THREADS=1 ../.venv/bin/python bench_new_camera.py [--tables N]
[--seed S] [--save FILE] [--against FILE]
Each hard table's frame is read as a new camera's (`observe`, no calibration lent) and the
plain pass run over it (companion/vision/plain_pass.py), each three times, the least CPU
time of each kept: the table's ratio. `bench_vision.py --profile` gives the median frame's
total under its step timers, which a saving in a third of the tables (those with spots on
cards or many dice) need not move; this gives every table's own figure, and with `--save`
from one tree and `--against` that file from another, the milliseconds each table saved.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import cv2
from stage_profile import machine, tables_parser

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.vision.plain_pass import plain_pass


def least_ms(read, *args, times: int = 3, **kwargs) -> float:
    """The least CPU milliseconds of `times` calls of `read(*args, **kwargs)`."""
    spent = []
    for _ in range(times):
        start = time.process_time()
        read(*args, **kwargs)
        spent.append((time.process_time() - start) * 1000)
    return min(spent)


def tables(count: int, seed: int) -> list[tuple[float, float]]:
    """(observe ms, plain pass ms) of each of `count` hard tables from `seed`."""
    config = VisionConfig.for_edition("rollecate")
    camera = synthetic.Camera.preset("hard")
    warm = synthetic.random_scene(seed + count, "rollecate", n_cards=3, n_dice=1)
    observe(synthetic.render(warm, seed + count, camera), config)
    out = []
    for i in range(count):
        scene = synthetic.random_scene(seed + i, "rollecate", loose_cards=1)
        back = scene.cards[scene.railway[0]].pose
        frame = synthetic.render(scene, seed + i, camera)
        plain = least_ms(plain_pass, frame)
        read = least_ms(observe, frame, config, back=(back.x, back.y))
        out.append((read, plain))
    return out


def main() -> None:
    parser = tables_parser(__doc__, 153000)
    parser.add_argument("--save", type=Path, help="write each table's (ms, plain ms) here")
    parser.add_argument("--against", type=Path, help="another tree's --save: ms saved a table")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(machine())
    report(tables(args.tables, args.seed), f"seed {args.seed}", args.save, args.against)


def report(
    now: list[tuple[float, float]], what: str, save: Path | None, against: Path | None
) -> None:
    """Print the tables' (reading ms, plain pass ms) `now` as the ratio's median and mean;
    write them to `save`, and with `against` (another tree's `save`) the ms each saved."""
    ratios = [read / plain for read, plain in now]
    median, mean = statistics.median(ratios), statistics.mean(ratios)
    print(f"{len(now)} hard tables ({what}), a new camera's frame x the plain pass: "
          f"median {median:.2f}x, mean {mean:.2f}x")  # fmt: skip
    if save:
        save.write_text(json.dumps(now))
    if against:
        before = json.loads(against.read_text())
        saved = [old[0] - new[0] for old, new in zip(before, now, strict=True)]
        plain = statistics.median(p for _, p in before + now)
        print(f"ms saved a table against {against}: median {statistics.median(saved):.2f} "
              f"({statistics.median(saved) / plain:.2f}x), mean {statistics.mean(saved):.2f} "
              f"({statistics.mean(saved) / plain:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
