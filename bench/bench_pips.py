"""Milliseconds per image for `read_pips` on the real dice photographs, one core, and the
same as a ratio to a plain OpenCV pass over each image timed in the same run.

Run: .venv/bin/python bench/bench_pips.py [--data DIR] [--repeats N]
Prints a markdown table for bench/RESULTS.md. OpenCV is pinned to one thread so the figure
is what one Pi core would do (times 5-10 for the Pi's slower core); the ratio to the plain
pass (companion/vision/plain_pass.py) is what travels between machines.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.eval_dice import PHOTOS, image_paths
from companion.vision.pips import read_pips
from companion.vision.plain_pass import plain_pass_ms

FOLDERS = ("overhead-tray", "webcam-table")


def time_folder(folder: Path, repeats: int) -> tuple[list[float], list[float]]:
    """Per-image times in ms of the reader and of the plain pass, each the best of `repeats`
    (so one-off hiccups don't count), taken in turn so both see the same load."""
    images = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in image_paths(folder)]
    reader, plain = [], []
    for image in images:
        best, best_plain = float("inf"), float("inf")
        for _ in range(repeats):
            best_plain = min(best_plain, plain_pass_ms(image))
            start = time.perf_counter()
            read_pips(image)
            best = min(best, time.perf_counter() - start)
        reader.append(1000.0 * best)
        plain.append(best_plain)
    return reader, plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=PHOTOS, help="the dice-real folder")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__}, one thread\n"
    )
    print(f"best of {args.repeats} per image\n")
    print("| folder | images | size | median ms | p95 ms | plain pass median, p95 ms | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in FOLDERS:
        folder = args.data / name
        if not folder.is_dir():
            print(f"| {name} | missing | | | | | |")
            continue
        times, plain = time_folder(folder, args.repeats)
        first = cv2.imread(str(image_paths(folder)[0]))
        size = f"{first.shape[1]}x{first.shape[0]}"
        median, p95 = statistics.median(times), float(np.percentile(times, 95))
        plain_median, plain_p95 = statistics.median(plain), float(np.percentile(plain, 95))
        print(
            f"| {name} | {len(times)} | {size} | {median:.1f} | {p95:.1f} | "
            f"{plain_median:.2f}, {plain_p95:.2f} | {median / plain_median:.1f}x "
            f"(p95 {p95 / plain_p95:.1f}x) |"
        )


if __name__ == "__main__":
    main()
