"""The switching and Yardmaster readers through a camera that did not move: a new camera's
frame and the same camera's next frame (fresh sensor noise, compressed again, the last
calibration handed in, as each game's camera watcher does), each as a ratio to a plain
OpenCV pass over the same frame (companion/vision/plain_pass.py; the goal, issue 32: at
most 1.5x).

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_still_camera.py [--tables N]
     [--seed S]
Hard synthetic tables (switching.scenes.random_table, yardmaster.scenes.random_yard), CPU
time on one thread, medians. The same camera's next frame of the Caboose game, and what
it takes from the last frame read, is bench_next_frame.py's.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

import cv2
import numpy as np
from bench_next_frame import next_frame
from stage_profile import machine, tables_parser

from companion.games.switching import scenes as switching
from companion.games.switching.vision.reader import read_board
from companion.games.yardmaster import scenes as yardmaster
from companion.games.yardmaster.vision.reader import ReaderConfig, read_yard
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass


def _cpu(work: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    result = work()
    return (time.process_time() - start) * 1000, result


def _table(game: str, seed: int) -> tuple[np.ndarray, Callable]:
    """A hard table's frame, and its reader (frame, calibration or None -> reading)."""
    if game == "switching":
        truth = switching.random_table(seed)
        board = truth.board
        return render(truth.scene, seed, Camera.hard()), lambda f, c: read_board(
            f, board, calibration=c
        )
    yard, config = yardmaster.random_yard(seed), ReaderConfig()
    return render(yard.scene, seed, Camera.hard()), lambda f, c: read_yard(f, config, calibration=c)


def still_camera(game: str, tables: int, seed: int) -> dict[str, float]:
    """Median CPU ms of a new camera's frame and of the same camera's next frame, and
    each as a ratio to the median plain pass over the same frames."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    new, same, plain = [], [], []
    for i in range(tables):
        frame, read = _table(game, seed + i)
        if i == 0:
            read(frame, None)  # imports and caches: not a frame's cost
        plain.append(_cpu(partial(plain_pass, frame))[0])
        ms, first = _cpu(partial(read, frame, None))
        new.append(ms)
        again = next_frame(frame, rng)
        plain.append(_cpu(partial(plain_pass, again))[0])
        same.append(_cpu(partial(read, again, first.calibration))[0])
    reference = statistics.median(plain)
    return {
        "new_ms": statistics.median(new),
        "new_ratio": statistics.median(new) / reference,
        "same_ms": statistics.median(same),
        "same_ratio": statistics.median(same) / reference,
        "plain_ms": reference,
    }


def main() -> None:
    parser = tables_parser(__doc__, 9000)
    args = parser.parse_args()
    print(machine())
    print("| game | tables | new camera CPU p50 | same camera's next frame | plain pass p50 |")
    print("|---|---|---|---|---|")
    for game in ("switching", "yardmaster"):
        r = still_camera(game, args.tables, args.seed)
        new, same = f"{r['new_ms']:.2f} ms, {r['new_ratio']:.2f}x", f"{r['same_ms']:.2f} ms"
        print(f"| {game} | {args.tables} | {new} | {same}, {r['same_ratio']:.2f}x | "
              f"{r['plain_ms']:.2f} ms |")  # fmt: skip


if __name__ == "__main__":
    main()
