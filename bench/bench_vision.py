"""Recognition accuracy and latency on synthetic tables, and where the time goes.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_vision.py [--scenes N] [--seed S]
Prints markdown for bench/RESULTS-vision.md: `companion eval-vision` on easy and hard
scenes (1456x1088, 3-20 railway cards, one card apart, 1-4 dice; a frame's time also as a
ratio to a plain OpenCV pass over it, companion/vision/plain_pass.py), then the CPU time of each
step of `observe` on the same hard tables, timed on observe's own path (stage_profile.py),
each also as a ratio to the plain pass over the same frames. `--profile` prints only that
table (`--glare 0.03`: every table with a lamp's reflection). OpenCV runs on one thread (and
numpy's BLAS should, hence the variable): the budget of one Pi core.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from functools import partial

import cv2
import numpy as np
from bench_next_frame import before, next_frame
from stage_profile import Stages

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision import observe
from companion.games.caboose.vision.eval_vision import evaluate
from companion.games.caboose.vision.observation import VisionConfig
from companion.vision.plain_pass import plain_pass


def stages(
    scenes: int, seed: int, glare: float | None = None, after: str | None = None
) -> tuple[dict[str, float], float]:
    """Median CPU ms of each step of `observe` on eval-vision's hard tables (timed on its
    own path, stage_profile.py), and the median CPU ms of the plain pass over the same
    frames: each frame a new camera, as eval-vision times it; or, `after` a change ("dice"
    thrown, a "card" laid: bench_next_frame.py), the next frame of a camera that did not
    move, read with the last frame's reading lent, as the service reads it."""
    config = VisionConfig.for_edition("rollecate")
    camera = synthetic.Camera.preset("hard", glare=glare)
    profile = Stages()
    for module, name, label in _STEPS:
        profile.watch(module, name, label)
    plain = []
    warm = synthetic.random_scene(seed + scenes, "rollecate", n_cards=3, n_dice=1)
    observe.observe(synthetic.render(warm, seed + scenes, camera), config)
    rng = np.random.default_rng(seed)
    with profile.timing():
        for i in range(scenes):
            scene = synthetic.random_scene(seed + i, "rollecate", loose_cards=1)
            back = scene.cards[scene.railway[0]].pose
            at = (back.x, back.y)
            last = None
            if after is not None:
                earlier = before(scene, after)
                if earlier is None:
                    continue
                last = observe.observe(synthetic.render(earlier, seed + i, camera), config, back=at)
            frame = synthetic.render(scene, seed + i, camera)
            if last is not None:
                frame = next_frame(frame, rng)
            start = time.process_time()
            plain_pass(frame)
            plain.append((time.process_time() - start) * 1000)
            lent = {} if last is None else {"calibration": last.calibration, "previous": last}
            profile.frame(partial(observe.observe, frame, config, back=at, **lent))
    return profile.medians(), statistics.median(plain)


# observe's steps (what observe.py calls, by the names it calls them)
_STEPS = (
    (observe, "as_frame", "frame checks"),
    (observe, "exposure_problem", "frame checks"),
    (observe, "colour_problem", "frame checks"),
    (observe, "calibrate", "calibrate (markers, homography, lens)"),
    (observe, "top_down", "top-down warp (frame, glare mask)"),
    (observe, "_glare_top", "glare mask"),
    (observe, "_washed_out", "glare mask"),
    (observe, "card_poses", "find card frames"),
    (observe, "find_caboose", "caboose"),
    (observe, "match_faces", "crop + match cards"),
    (observe, "_laid_flat", "cards laid flat (bent)"),
    (observe, "off_the_known", "off the cards (mask)"),
    (observe, "dice_on_the_cards", "dice on the cards (where)"),
    (observe, "_dice_on_laid_flat", "dice on cards laid flat (bent)"),
    (observe, "dice_off_the_cards", "dice (find and read)"),
    (observe, "_read_under_dice", "cards under dice, glare read again"),
    (observe, "railway_order", "railway"),
    (observe, "cards_unfound", "cards unfound check"),
    (observe, "covered_area", "covered-table check"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--profile", action="store_true", help="only the CPU time of each step (hard tables)"
    )
    parser.add_argument(
        "--glare", type=float, help="with --profile: glare on every table, at most this share"
    )
    parser.add_argument(
        "--after",
        choices=("dice", "card"),
        help="with --profile: the next frame of a still camera after dice were thrown or a "
        "card was laid, the last reading lent (bench_next_frame.py)",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n")  # fmt: skip
    if args.profile:
        print_stages(args.scenes, args.seed, args.glare, args.after)
        return
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
    print_stages(min(args.scenes, 30), args.seed)


def print_stages(
    scenes: int, seed: int, glare: float | None = None, after: str | None = None
) -> None:
    """The table of `stages`, with the plain pass beside it and each step as its share."""
    results, plain = stages(scenes, seed, glare, after)
    print(f"\nCPU ms per step of `observe`, median over {scenes} hard tables (seed {seed}), "
          f"and as a ratio to the plain pass over the same frames ({plain:.2f} ms):\n")  # fmt: skip
    print("| step | CPU ms | x plain pass |")
    print("|---|---|---|")
    for name, ms in results.items():
        print(f"| {name} | {ms:.2f} | {ms / plain:.2f} |")
    print(f"| plain pass | {plain:.2f} | 1.00 |")


if __name__ == "__main__":
    main()
