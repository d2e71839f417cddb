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


def steps(scenes_n: int, seed: int) -> dict[str, float]:
    """Median CPU ms of each step of `read_yard` (the same calls, in the same order)."""
    config = reader.ReaderConfig()
    timings: dict[str, list[float]] = {}

    def timed(name: str, work):
        start = time.process_time()
        result = work()
        timings.setdefault(name, []).append((time.process_time() - start) * 1000)
        return result

    for i in range(scenes_n):
        frame = render(scenes.random_yard(seed + i).scene, seed + i, Camera.hard())
        cal = timed(
            "calibrate (markers, homography, lens)", lambda f=frame: calibrate(f, config.layout)
        )
        top = timed("top-down warp, 1 px/mm", lambda f=frame, c=cal: top_down(f, c, config.layout))
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        poses = timed("find the cards' frames", lambda t=top, g=grey: reader._card_poses(t, g))
        read = timed(
            "read each card's grid",
            lambda t=top, p=poses: [reader._read_card(t, q, config) for q in p],
        )
        read += timed(
            "look along the rows", lambda t=top, g=grey, r=read: reader._along_rows(t, g, r, config)
        )
        timed("chain the trains", lambda r=read: reader._chains(r))
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
