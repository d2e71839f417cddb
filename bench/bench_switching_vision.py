"""The switching-track game through the camera: how many trains, panels and dice are read
right on synthetic tables, how fast, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_switching_vision.py [--scenes N]
     [--seed S] [--easy]
Prints markdown for bench/RESULTS.md: `companion eval-vision --game switching` on hard (and
easy) scenes (1456x1088, our 700 mm board on a 900 x 800 mm table, random_table's trains,
panels and dice; a frame's time also as a ratio to a plain OpenCV pass over the same frame
timed in the same run, companion/vision/plain_pass.py, the figure that travels between
machines), then the CPU time of each step of `read_board` on hard scenes. OpenCV runs on
one thread (and numpy's BLAS should, hence the variable): one Pi core's budget.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import cv2
import numpy as np

from companion.games.switching import scenes
from companion.games.switching.vision import reader
from companion.games.switching.vision.eval_vision import evaluate
from companion.synthetic import Camera, render
from companion.vision.calibrate import calibrate, top_down
from companion.vision.frame_checks import glare_mask

# read_board's steps in its order, each taking what the ones before it left in `s`
_STEPS = (
    ("calibrate on the board's markers",
     lambda s: s.update(cal=calibrate(s["frame"], reader.reading_layout(s["board"])))),
    ("small top-down image, the paper's light", lambda s: s.update(light=reader._Light(
        top_down(s["frame"], s["cal"], reader.reading_layout(s["board"]),
                 reader._HALF_PX_PER_MM), s["board"]))),
    ("a lamp's reflection", lambda s: s.update(glare=glare_mask(s["frame"]))),
    ("panels: slots, colours, way round", lambda s: s.update(
        panels=reader._panels(s["frame"], s["board"], s["cal"], s["light"], s["glare"]))),
    ("trains: every space", lambda s: reader._trains(
        s["frame"], s["board"], s["cal"], s["light"], s["panels"], s["glare"])),
    ("dice beside the board", lambda s: reader._dice(
        s["frame"], s["board"], s["cal"], s["light"], s["glare"])),
)  # fmt: skip


def steps(scenes_n: int, seed: int) -> dict[str, float]:
    """Median CPU ms of each step of `read_board` (the same calls, in the same order)."""
    timings: dict[str, list[float]] = {name: [] for name, _ in _STEPS}
    for i in range(scenes_n):
        truth = scenes.random_table(seed + i)
        state = {"board": truth.board, "frame": render(truth.scene, seed + i, Camera.hard())}
        for name, step in _STEPS:
            start = time.process_time()
            step(state)
            timings[name].append((time.process_time() - start) * 1000)
    return {name: statistics.median(values) for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--easy", action="store_true", help="also easy scenes")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n")  # fmt: skip
    print("| difficulty | scenes | trains right | unsure / wrong and sure / extra | panels "
          "right | unsure / wrong | colour die right / unsure / wrong | number dice right / "
          "unsure / wrong | frame p50 / p95 | plain pass p50 | ratio p50 / p95 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for difficulty in ("hard", "easy") if args.easy else ("hard",):
        r = evaluate(args.scenes, args.seed, difficulty)
        print(
            f"| {difficulty} | {r['scenes']} ({r['hands']} with a hand) | "
            f"{r['trains_accuracy']:.2%} of {r['trains']} | {r['trains_unsure']} / "
            f"{r['trains_wrong']} / {r['trains_extra']} | {r['panels_accuracy']:.2%} of "
            f"{r['panels']} | {r['panels_unsure']} / {r['panels_wrong']} | "
            f"{r['colour_right']} / {r['colour_unsure']} / {r['colour_wrong']} | "
            f"{r['numbers_right']} / {r['numbers_unsure']} / {r['numbers_wrong']} | "
            f"{r['latency_ms_p50']} / {r['latency_ms_p95']} ms | {r['plain_pass_ms_p50']} ms | "
            f"{r['latency_ratio_p50']}x / {r['latency_ratio_p95']}x |"
        )
    print("\nCPU ms per step of `read_board`, median over 50 hard scenes:\n")
    print("| step | CPU ms |\n|---|---|")
    for name, ms in steps(50, args.seed).items():
        print(f"| {name} | {ms:.1f} |")


if __name__ == "__main__":
    main()
