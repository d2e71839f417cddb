"""Yardmaster Express through the camera: how many cards and trains are read right on
synthetic tables, how fast, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_yardmaster_vision.py [--scenes N]
     [--seed S]
Prints markdown for bench/RESULTS.md: `companion eval-vision --game yardmaster-express` on
hard (and easy) scenes (1456x1088, 2-5 trains of the engine and up to eight cards on an
840x790 mm table; a frame's time also as a ratio to a plain OpenCV pass over the same
frame timed in the same run, companion/vision/plain_pass.py, the figure that travels
between machines), then the CPU time of each step of `read_yard` on hard scenes. OpenCV
runs on one thread (and numpy's BLAS should, hence the variable): one Pi core's budget.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import cv2
import numpy as np

from companion.games.yardmaster import scenes
from companion.games.yardmaster.vision import reader
from companion.games.yardmaster.vision.eval_vision import evaluate
from companion.synthetic import Camera, render
from companion.vision.calibrate import calibrate, top_down

# read_yard's steps in its order, each taking what the ones before it left in `s`
_STEPS = (
    ("calibrate (markers, homography, lens)",
     lambda s: s.update(cal=calibrate(s["frame"], s["config"].layout))),
    ("top-down warp, 1 px/mm",
     lambda s: s.update(top=top_down(s["frame"], s["cal"], s["config"].layout))),
    ("find the cards' frames", lambda s: s.update(
        grey=(grey := cv2.cvtColor(s["top"], cv2.COLOR_BGR2GRAY)),
        poses=reader._card_poses(s["top"], grey))),
    ("read each card's grid", lambda s: s.update(
        read=[reader._read_card(s["top"], p, s["config"]) for ps in s["poses"] for p in ps])),
    ("look along the rows", lambda s: s["read"].extend(
        reader._along_rows(s["top"], s["grey"], s["read"], s["config"]))),
    ("chain the trains", lambda s: reader._chains(s["read"])),
)  # fmt: skip


def steps(scenes_n: int, seed: int) -> dict[str, float]:
    """Median CPU ms of each step of `read_yard` (the same calls, in the same order)."""
    timings: dict[str, list[float]] = {name: [] for name, _ in _STEPS}
    for i in range(scenes_n):
        state = {
            "config": reader.ReaderConfig(),
            "frame": render(scenes.random_yard(seed + i).scene, seed + i, Camera.hard()),
        }
        for name, step in _STEPS:
            start = time.process_time()
            step(state)
            timings[name].append((time.process_time() - start) * 1000)
    return {name: statistics.median(values) for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--easy", action="store_true", help="also easy scenes")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n")  # fmt: skip
    print("| difficulty | scenes | cards | cards right | face up / turned / face down / "
          "engines right | unsure | wrong and sure | trains exact | frame p50 / p95 | "
          "plain pass p50 | ratio p50 / p95 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for difficulty in ("hard", "easy") if args.easy else ("hard",):
        r = evaluate(args.scenes, args.seed, difficulty)
        kinds = r["by_kind"]
        parts = " / ".join(
            f"{kinds[k]['right']}/{kinds[k]['cards']}"
            for k in ("face_up", "turned", "face_down", "engine")
        )
        print(f"| {difficulty} | {r['scenes']} | {r['cards']} | {r['cards_accuracy']:.2%} | "
              f"{parts} | {r['cards_unsure']} | {r['cards_wrong_sure']} | "
              f"{r['trains_exact']:.2%} of {r['trains']} | {r['latency_ms_p50']} / "
              f"{r['latency_ms_p95']} ms | {r['plain_pass_ms_p50']} ms | "
              f"{r['latency_ratio_p50']}x / {r['latency_ratio_p95']}x |")  # fmt: skip
    print("\nCPU ms per step of `read_yard`, median over hard scenes:\n")
    print("| step | CPU ms |")
    print("|---|---|")
    for name, ms in steps(min(args.scenes, 50), args.seed).items():
        print(f"| {name} | {ms:.1f} |")


if __name__ == "__main__":
    main()
