"""The switching-track game through the camera: how many trains, panels and dice are read
right on synthetic tables, how fast, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_switching_vision.py [--scenes N]
     [--seed S] [--easy] [--profile N] [--profile-only] [--pieces ours|printed] [--still]
Prints markdown for bench/RESULTS.md: `companion eval-vision --game switching` on hard (and
easy) scenes (1456x1088, our 700 mm board on a 900 x 800 mm table, random_table's trains,
panels and dice; a frame's time also as a ratio to a plain OpenCV pass over the same frame
timed in the same run, companion/vision/plain_pass.py, the figure that travels between
machines), then the CPU time of each step of `read_board` on hard scenes (`--profile` of
them; `--profile-only`: only that), timed on read_board's own path (stage_profile.py).
`--pieces printed`: the stand-in box taught to the camera (eval-vision's `--pieces`), its
board found by its picture (vision/taught.py's steps profiled too). `--still`: the profile
of a still camera's next frame after a train was put down instead: the same table without
its first train, with fresh sensor noise and compressed again as a still camera gives it,
read first, untimed; then the frame read again with what that reading left (the
calibration, a taught board's pose, and what each slot and space read: vision/unchanged.py
reads again only where the picture changed); and how many of those next frames were read
as they are without that memo (the calibration and pose kept, everything read again).
OpenCV runs on one thread (and numpy's BLAS should, hence the variable): one Pi core's
budget.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from functools import partial

import cv2
import numpy as np
from stage_profile import Stages, machine, print_steps

from companion.games.switching.scenes import Shown
from companion.games.switching.vision import reader, taught
from companion.games.switching.vision.eval_vision import PIECES, evaluate, reader_of
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass

_NOISE = 3.0  # grey levels of fresh sensor noise in a still camera's frame before (sigma)
_JPEG_QUALITY = 70  # as the hard camera compresses

# read_board's steps (what reader.py calls, by the names it calls them), timed on its own
# path (stage_profile.py): a copy of its calls had drifted from it once
_STEPS = (
    ("as_bgr", "frame checks"),
    ("colourless", "frame checks"),
    ("calibrate", "calibrate on the board's markers"),
    ("top_down", "small top-down image, the paper's light"),
    ("Light", "small top-down image, the paper's light"),
    ("glare_mask", "a lamp's reflection"),
    ("_panels", "panels: slots, colours, way round"),
    ("_lie", "panels: slots, colours, way round"),
    ("_trains", "trains: every space"),
    ("_dice", "dice beside the board"),
)


# a taught box's own steps (vision/taught.py), by the names read_taught calls
_TAUGHT_STEPS = (
    ("calibrate", "calibrate on the table's markers"),
    ("top_down", "taught board found: the table from above"),
    ("_orb", "taught board found: ORB features"),
    ("_matched", "taught board found: matched, RANSAC"),
    ("_aligned", "taught board found: its print aligned"),
    ("_near", "taught board found again near where it lay"),
    ("_alike", "taught board kept: its print compared"),
)


def steps(
    scenes_n: int, seed: int, pieces: str = "ours", still: bool = False
) -> tuple[dict[str, float], float, int | None]:
    """Median CPU ms of each step of `read_board` (or, `pieces` "printed", of a taught
    stand-in box's `read_taught`) on hard scenes (each frame a new camera, as eval-vision
    times it; `still`: each as a still camera's next frame after a train was put down,
    `_before`), the median CPU ms of the plain pass over the same frames, and (`still`)
    how many of those frames read as they read without the memo."""
    profile = Stages()
    for name, label in _STEPS:
        profile.watch(reader, name, label)
    if pieces == "printed":
        for name, label in _TAUGHT_STEPS:
            profile.watch(taught, name, label)
    table, read = reader_of(pieces)
    warm = table(seed + scenes_n)
    read(render(warm.scene, seed + scenes_n, Camera.hard()), None)
    plain: list[float] = []
    alike: list[bool] = []
    rng = np.random.default_rng(seed)
    with profile.timing():
        for i in range(scenes_n):
            truth = table(seed + i)
            frame = render(truth.scene, seed + i, Camera.hard())
            start = time.process_time()
            plain_pass(frame)
            plain.append((time.process_time() - start) * 1000)
            left = read(_before(truth, seed + i, rng), None)[1] if still else None
            seen = profile.frame(partial(read, frame, left))
            if getattr(left, "memo", None) is not None:
                alike.append(seen[0] == read(frame, dataclasses.replace(left, memo=None))[0])
    return profile.medians(), statistics.median(plain), sum(alike) if alike else None


def _before(truth: Shown, seed: int, rng: np.random.Generator) -> np.ndarray:
    """A still camera's frame of `truth`'s table before its first train was put down (the
    same picture without it), with fresh sensor noise and compressed again."""
    first = 1 + len(truth.board.panels)  # the scene's board, its panels, then its trains
    cards = truth.scene.cards
    if truth.trains:
        cards = cards[:first] + cards[first + 1 :]
    frame = render(dataclasses.replace(truth.scene, cards=cards), seed, Camera.hard())
    noisy = cv2.add(frame, rng.normal(0, _NOISE, frame.shape), dtype=cv2.CV_8U)
    _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, _JPEG_QUALITY])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--easy", action="store_true", help="also easy scenes")
    parser.add_argument("--profile", type=int, default=50, help="scenes profiled per step")
    parser.add_argument("--profile-only", action="store_true", help="only the profile")
    parser.add_argument(
        "--still", action="store_true", help="profile a still camera's next frame instead"
    )
    parser.add_argument(
        "--pieces", choices=PIECES, default="ours", help="ours, or printed: a taught stand-in box"
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(machine())
    if not args.profile_only:
        _print_eval(args.scenes, args.seed, args.easy, args.pieces)
    _print_steps(args.profile, args.seed, args.pieces, args.still)


def _print_eval(scenes_n: int, seed: int, easy: bool, pieces: str) -> None:
    """eval-vision's figures on hard (and easy) scenes, as a markdown table."""
    print("| difficulty | scenes | trains right | unsure / wrong and sure / extra | panels "
          "right | unsure / wrong | colour die right / unsure / wrong | number dice right / "
          "unsure / wrong | frame p50 / p95 | plain pass p50 | ratio p50 / p95 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for difficulty in ("hard", "easy") if easy else ("hard",):
        r = evaluate(scenes_n, seed, difficulty, pieces=pieces)
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


def _print_steps(scenes_n: int, seed: int, pieces: str, still: bool) -> None:
    """`steps` as a markdown table, each step also as a ratio to the plain pass."""
    results, plain, alike = steps(scenes_n, seed, pieces, still)
    reading = "read_taught" if pieces == "printed" else "read_board"
    frames = "a still camera's next frame" if still else "a new camera's frame"
    print_steps(reading, frames, scenes_n, seed, results, plain)
    if alike is not None:
        print(f"\n{alike} of {scenes_n} next frames read as without the memo")


if __name__ == "__main__":
    main()
