"""Recognition accuracy and latency on synthetic tables, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_vision.py [--scenes N] [--seed S]
Prints markdown for bench/RESULTS-vision.md: `companion eval-vision` on easy and hard
scenes (1456x1088, 3-20 railway cards, one card apart, 1-4 dice; a frame's time also as a
ratio to a plain OpenCV pass over it, companion/vision/plain_pass.py), then the CPU time of each
stage of `observe` on hard 20-card, 4-dice tables. OpenCV runs on one thread (and numpy's
BLAS should, hence the variable): the budget of one Pi core.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import cv2
import numpy as np

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.caboose_token import find_caboose
from companion.games.caboose.vision.card_identity import card_image, hidden_by_token
from companion.games.caboose.vision.card_outlines import card_poses
from companion.games.caboose.vision.eval_vision import evaluate
from companion.games.caboose.vision.observation import SeenCard, VisionConfig
from companion.games.caboose.vision.off_the_cards import (
    covered_area,
    dice_off_the_cards,
    off_the_known,
)
from companion.vision.calibrate import calibrate, top_down


def stages(scenes: int, seed: int) -> dict[str, float]:
    """Median CPU ms of each stage of `observe` (the same calls, in the same order)."""
    config = VisionConfig()
    catalogue = config.faces()
    timings: dict[str, list[float]] = {}

    def timed(name: str, work):
        start = time.process_time()
        result = work()
        timings.setdefault(name, []).append((time.process_time() - start) * 1000)
        return result

    for i in range(scenes):
        scene = synthetic.random_scene(seed + i, n_cards=20, n_dice=4, loose_cards=1)
        frame = synthetic.render(scene, seed + i, synthetic.Camera.hard())
        cal = timed("calibrate (markers, homography, lens)", lambda f=frame: calibrate(f))
        top = timed("top-down warp", lambda f=frame, c=cal: top_down(f, c))
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        poses = timed("find card frames", lambda g=grey: card_poses(g, config))
        half = cv2.resize(top, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        token = timed("caboose", lambda h=half: find_caboose(h, 0.5))
        timed(
            "crop + match cards",
            lambda t=top, p=poses, tok=token: catalogue.match_all(
                [card_image(t, pose, config.card_mm, 1.0) for pose in p],
                [hidden_by_token(pose, tok, config.card_mm) for pose in p],
            ),
        )
        seen = [SeenCard("1/s", 1.0, pose) for pose in poses]
        free = off_the_known(grey.shape, config, seen, token)
        timed("dice", lambda f=frame, h=half, c=cal, m=free: dice_off_the_cards(f, h, c, config, m))
        timed("covered-table check", lambda h=half, m=free: covered_area(h, m, 0.5))
    return {name: statistics.median(values) for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n")  # fmt: skip
    print(
        "| difficulty | scenes | cards | cards right | railway exact | caboose right | "
        "dice | dice right | pose p95 | latency p50 / p95 | CPU p50 / p95 | "
        "frame / plain pass p50 | render p50 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    for difficulty in ("easy", "hard"):
        r = evaluate(args.scenes, args.seed, difficulty, "rollecate")
        print(
            f"| {difficulty} | {r['scenes']} | {r['cards']} | {r['cards_accuracy']:.2%} | "
            f"{r['railway_exact']:.2%} | {r['caboose_accuracy']:.2%} | {r['dice']} | "
            f"{r['dice_accuracy']:.2%} | {r['position_err_mm_p95']} mm, "
            f"{r['rotation_err_deg_p95']} deg | {r['latency_ms_p50']} / {r['latency_ms_p95']} ms "
            f"| {r['cpu_ms_p50']} / {r['cpu_ms_p95']} ms | {r['latency_ratio_p50']}x "
            f"| {r['render_ms_p50']} ms |"
        )
        for failure in r["failures"]:
            print(f"<!-- {difficulty} failure: {failure} -->")
    print("\nCPU ms per stage, median over hard 20-card 4-dice tables:\n")
    print("| stage | CPU ms |")
    print("|---|---|")
    results = stages(min(args.scenes, 30), args.seed)
    for name, ms in results.items():
        print(f"| {name} | {ms:.1f} |")
    print(f"| total | {sum(results.values()):.1f} |")


if __name__ == "__main__":
    main()
