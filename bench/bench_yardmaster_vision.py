"""Yardmaster Express through the camera: how many cards and trains are read right on
synthetic tables, how fast, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python bench/bench_yardmaster_vision.py
     [--scenes N] [--seed S] [--easy] [--profile N] [--profile-only] [--still]
Prints markdown for bench/RESULTS.md: `companion eval-vision --game yardmaster-express` on
hard (and easy) scenes (1456x1088, 2-5 trains of the engine and up to eight cards on an
840x790 mm table; a frame's time also as a ratio to a plain OpenCV pass over the same
frame timed in the same run, companion/vision/plain_pass.py, the figure that travels
between machines), then the CPU time of each step of `read_yard` on hard scenes
(`--profile` of them; `--profile-only`: only that), timed on read_yard's own path
(stage_profile.py: a copy of its calls had drifted from it and no longer ran), beside the
plain pass over the same frames. `--still`: the profile of a still camera's next frame
instead (each frame read once, untimed, then read again with its calibration, as
eval-vision's `still_camera_ms` times it). OpenCV runs on one thread (and numpy's BLAS
should, hence the variables): one Pi core's budget.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial

import cv2
from stage_profile import Stages, machine, print_steps

from companion.games.yardmaster import scenes
from companion.games.yardmaster.vision import reader
from companion.games.yardmaster.vision.eval_vision import evaluate
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass

# read_yard's steps (what reader.py calls, by the names it calls them), timed on its own
# path; a step's time is its own, what the watched steps it calls took being theirs
_STEPS = (
    ("_as_frame", "frame checks"),
    ("colourless", "frame checks"),
    ("calibrate", "calibrate (markers, homography, lens)"),
    ("top_down", "top-down warp, 1 px/mm"),
    ("_card_poses", "cards' frames: threshold, outlines"),
    ("_frame_outlines", "cards' frames: threshold, outlines"),
    ("_true_up", "cards' frames trued up"),
    ("_card_grid", "each card's grid cut out"),
    ("_read_cells", "each card's grid read"),
    ("frame_bend", "a bent card's bend measured"),
    ("_even_light", "a bent card's light evened"),
    ("_along_rows", "look along the rows"),
    ("glare_mask", "a lamp's reflection"),
    ("_chains", "chain the trains"),
)


def steps(scenes_n: int, seed: int, still: bool = False) -> tuple[dict[str, float], float]:
    """Median CPU ms of each step of `read_yard` on hard scenes (each frame a new camera, as
    eval-vision times it; `still`: each frame read again as a still camera's next, with its
    calibration), and the median CPU ms of the plain pass over the same frames."""
    profile = Stages()
    for name, label in _STEPS:
        profile.watch(reader, name, label)
    config = reader.ReaderConfig()
    warm = scenes.random_yard(seed + scenes_n)  # imports and caches
    reader.read_yard(render(warm.scene, seed + scenes_n, Camera.hard()), config)
    plain = []
    with profile.timing():
        for i in range(scenes_n):
            frame = render(scenes.random_yard(seed + i).scene, seed + i, Camera.hard())
            start = time.process_time()
            plain_pass(frame)
            plain.append((time.process_time() - start) * 1000)
            kept = reader.read_yard(frame, config).calibration if still else None
            profile.frame(partial(reader.read_yard, frame, config, calibration=kept))
    return profile.medians(), statistics.median(plain)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--easy", action="store_true", help="also easy scenes")
    parser.add_argument("--profile", type=int, default=50, help="scenes profiled per step")
    parser.add_argument("--profile-only", action="store_true", help="only the profile")
    parser.add_argument(
        "--still", action="store_true", help="profile a still camera's next frame instead"
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(machine())
    if not args.profile_only:
        _print_eval(args.scenes, args.seed, args.easy)
    _print_steps(args.profile, args.seed, args.still)


def _print_eval(scenes_n: int, seed: int, easy: bool) -> None:
    """eval-vision's figures on hard (and easy) scenes, as a markdown table."""
    print("| difficulty | scenes | cards | cards right | face up / turned / face down / "
          "engines right | unsure | wrong and sure | trains exact | frame p50 / p95 | "
          "plain pass p50 | ratio p50 / p95 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for difficulty in ("hard", "easy") if easy else ("hard",):
        r = evaluate(scenes_n, seed, difficulty)
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


def _print_steps(scenes_n: int, seed: int, still: bool) -> None:
    """`steps` as a markdown table, each step also as a ratio to the plain pass."""
    results, plain = steps(scenes_n, seed, still)
    frames = "a still camera's next frame" if still else "a new camera's frame"
    print_steps("read_yard", frames, scenes_n, seed, results, plain)


if __name__ == "__main__":
    main()
