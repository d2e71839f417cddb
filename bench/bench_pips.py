"""Milliseconds per image for `read_pips` on the real dice photographs, one core.

Run: .venv/bin/python bench/bench_pips.py [--data DIR] [--repeats N]
Prints a markdown table for bench/RESULTS.md. OpenCV is pinned to one thread so the figure
is what one Pi core would do (times 5-10 for the Pi's slower core).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.eval_dice import image_paths
from companion.vision.pips import read_pips

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dice-real"
FOLDERS = ("overhead-tray", "webcam-table")


def time_folder(folder: Path, repeats: int) -> list[float]:
    """Per-image times in ms (best of `repeats` per image, so one-off hiccups don't count)."""
    images = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in image_paths(folder)]
    times = []
    for image in images:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            read_pips(image)
            best = min(best, time.perf_counter() - start)
        times.append(1000.0 * best)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA, help="the dice-real folder")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__}, one thread\n"
    )
    print(f"| folder | images | size | median ms | p95 ms | (best of {args.repeats}) |")
    print("|---|---|---|---|---|---|")
    for name in FOLDERS:
        folder = args.data / name
        if not folder.is_dir():
            print(f"| {name} | missing | | | | |")
            continue
        times = time_folder(folder, args.repeats)
        first = cv2.imread(str(image_paths(folder)[0]))
        size = f"{first.shape[1]}x{first.shape[0]}"
        p95 = float(np.percentile(times, 95))
        print(f"| {name} | {len(times)} | {size} | {statistics.median(times):.1f} | {p95:.1f} | |")


if __name__ == "__main__":
    main()
