"""Does a table with real dice cost the camera more than one with our drawn dice?

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_real_dice.py [--scenes N] [--seed S]
     [--dice-photos DIR]

Each hard scene of `companion eval-vision` is rendered twice, once with its drawn dice and
once with real dice cut from the labelled photographs (companion/synthetic/photo_dice.py),
and each frame is recognised right after a plain OpenCV pass over it (plain_pass.py), the
two kinds alternating, so both see the same machine load. Prints markdown for
bench/RESULTS.md: per kind the median and p95 ms of a frame and of the plain pass, their
ratio, and the median and p95 of the paired per-scene ratio real / drawn, in wall time and
in this process's CPU time (which another job's load on the machine does not inflate).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import cv2
import numpy as np

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.eval_vision import photo_dice_stream
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.synthetic.photo_dice import PhotoDice
from companion.vision.eval_dice import PHOTOS
from companion.vision.plain_pass import plain_pass_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--dice-photos", type=Path, default=PHOTOS)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    camera = synthetic.Camera.hard()
    config = VisionConfig.for_edition("rollecate")
    config.faces()
    photos = photo_dice_stream(PhotoDice(args.dice_photos), args.seed, set())
    frame_ms: dict[str, list[float]] = {"drawn": [], "real": []}
    cpu_ms: dict[str, list[float]] = {"drawn": [], "real": []}
    plain_ms: dict[str, list[float]] = {"drawn": [], "real": []}
    for i in range(args.scenes):
        seed = args.seed + i
        drawn = synthetic.random_scene(seed, "rollecate", loose_cards=1)
        tables = {"drawn": drawn, "real": synthetic.with_photo_dice(drawn, photos)}
        back = drawn.cards[drawn.railway[0]].pose
        order = ("drawn", "real") if i % 2 == 0 else ("real", "drawn")
        for kind in order:
            frame = synthetic.render(tables[kind], seed, camera)
            if i == 0:
                observe(frame, config)  # warm-up: not a frame's latency
            plain_ms[kind].append(plain_pass_ms(frame))
            start, start_cpu = time.perf_counter(), time.process_time()
            observe(frame, config, back=(back.x, back.y))
            frame_ms[kind].append((time.perf_counter() - start) * 1000)
            cpu_ms[kind].append((time.process_time() - start_cpu) * 1000)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, one thread; {args.scenes} hard scenes from seed "
          f"{args.seed}, 1456x1088\n")  # fmt: skip
    print("| dice | frame p50 / p95 ms | plain pass p50 / p95 ms | frame / plain pass (p50) |")
    print("|---|---|---|---|")
    for kind in ("drawn", "real"):
        f50, f95 = np.percentile(frame_ms[kind], [50, 95])
        p50, p95 = np.percentile(plain_ms[kind], [50, 95])
        print(f"| {kind} | {f50:.1f} / {f95:.1f} | {p50:.1f} / {p95:.1f} | {f50 / p50:.2f}x |")
    print()
    for name, times in (("wall", frame_ms), ("CPU", cpu_ms)):
        paired = np.array(times["real"]) / np.array(times["drawn"])
        r95, d95 = np.percentile(times["real"], 95), np.percentile(times["drawn"], 95)
        print(f"real / drawn, {name} time: the same scene median {np.median(paired):.2f}x, "
              f"p95 {np.percentile(paired, 95):.2f}x; frame p95 {r95:.1f} / {d95:.1f} ms "
              f"= {r95 / d95:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
