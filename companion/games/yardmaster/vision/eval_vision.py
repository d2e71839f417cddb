"""`companion eval-vision --game yardmaster-express`: how well the camera reads synthetic
tables of Yardmaster Express whose truth is known.

Each scene is drawn by yardmaster.scenes.random_yard from its own seed (2-5 trains on any
side of the table, each the engine and up to eight cards, a fifth of them face down and a
third of the rest turned, touching or nearly, a hand reaching over the middle of the
table now and then), rendered through an easy or hard camera and read by `read_yard`.

Each reading is scored against its truth as scoring.py says (a train exact when every card
of it is read right, in order).

Latency is one thread's, as the Pi's budget for one core, wall and CPU time; each scene
is a new camera position, so every frame calibrates and builds its warp tables from
scratch (`still_camera_ms_p50` reads the same frame again as a fixed camera's next
frame). Beside each frame's time a plain OpenCV pass over the same frame
(companion/vision/plain_pass.py) is timed in the same run: their ratio travels between
machines, absolute times do not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import cv2

from companion.arguments import CommandLine
from companion.games.yardmaster import scenes
from companion.games.yardmaster.vision.eval_printed import evaluate_printed
from companion.games.yardmaster.vision.reader import ReaderConfig, read_yard
from companion.games.yardmaster.vision.scoring import summary, tally, under_lamp
from companion.hardware import FRAME_SIZE
from companion.synthetic import Camera, add_camera_options, render
from companion.vision.plain_pass import plain_pass_ms, times


def evaluate(
    scenes_n: int,
    seed: int,
    difficulty: str,
    glare: float | None = None,
    frame_size: tuple[int, int] = FRAME_SIZE,
    curl: float | None = None,
    lens_error: float | None = None,
) -> dict:
    """Render and read `scenes_n` scenes from `seed` on, a lamp's reflection over `glare` of
    the frame at most on every table (None: the camera's own), filmed at `frame_size`, cards
    curled up to `curl` mm and a lens error of up to `lens_error` px (each None: the camera's
    own): the summary `--json`
    prints."""
    cv2.setNumThreads(1)
    camera = Camera.preset(
        difficulty, glare=glare, frame_size=frame_size, curl=curl, lens_error=lens_error
    )
    config = ReaderConfig()
    warm = scenes.random_yard(seed + scenes_n)  # the first frame pays for imports and caches
    read_yard(render(warm.scene, seed + scenes_n, camera), config)
    totals: dict[str, int] = {}
    wall, cpu, still, plain, render_ms = [], [], [], [], []
    failures = []
    coarse = 0  # frames that said the table is seen too coarsely (their cards are missing)
    for i in range(scenes_n):
        scene_seed = seed + i
        truth = scenes.random_yard(scene_seed)
        start = time.perf_counter()
        frame = render(truth.scene, scene_seed, camera)
        render_ms.append((time.perf_counter() - start) * 1000)
        plain.append(plain_pass_ms(frame))
        start, start_cpu = time.perf_counter(), time.process_time()
        seen = read_yard(frame, config)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        start = time.perf_counter()
        read_yard(frame, config, calibration=seen.calibration)  # a still camera's next frame
        still.append((time.perf_counter() - start) * 1000)
        tally(
            totals, failures, scene_seed, truth, seen, under_lamp(truth, scene_seed, camera, frame)
        )
        coarse += any(p.key == "too_coarse" for p in seen.problems)
    return {
        "game": "yardmaster-express",
        "scenes": scenes_n,
        "seed": seed,
        "difficulty": difficulty,
        "frame_size": list(camera.frame_size),
        "glare": camera.glare,
        "glare_odds": round(camera.glare_odds, 4),  # the share of tables with it
        "curl": camera.curl,
        "curl_odds": round(camera.curl_odds, 4),  # the share of tables with curled cards
        "lens_error": camera.lens_error,
        "lens_odds": round(camera.lens_odds, 4),  # the share of tables with a lens error
        "table_mm": [config.layout.width, config.layout.height],
        **summary(totals),
        "frames_too_coarse": coarse,
        **times(
            latency_ms=wall,
            cpu_ms=cpu,
            still_camera_ms=still,
            plain_pass_ms=plain,
            render_ms=render_ms,
        ),
        "failures": failures[:20],
    }


def _at_least(least: int):
    """An argparse type: a whole number no smaller than `least`."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value

    return number


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion eval-vision --game yardmaster-express",
        description="Render synthetic Yardmaster Express tables and measure how well the "
        "camera reads their trains.",
    )
    parser.add_argument("--scenes", type=_at_least(1), default=100, help="how many (default 100)")
    parser.add_argument("--seed", type=_at_least(0), default=0, help="seed of the first scene")
    parser.add_argument("--difficulty", choices=("easy", "hard"), default="hard")
    parser.add_argument(
        "--design",
        choices=("ours", "printed"),
        default="ours",
        help="our printable cards (default), or a stand-in for a box printed in another "
        "design, taught first as `companion enroll` teaches a box (vision/eval_printed.py)",
    )
    add_camera_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    chosen = (args.scenes, args.seed, args.difficulty, args.glare, args.frame_size)
    chosen += (args.curl, args.lens_error)
    result = evaluate_printed(*chosen) if args.design == "printed" else evaluate(*chosen)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['scenes']} {args.difficulty} scenes of Yardmaster Express, seed "
          f"{args.seed}, {args.design} cards, {'x'.join(map(str, args.frame_size))}")  # fmt: skip
    print(f"cards    {result['cards_accuracy']:.2%} of {result['cards']} read right: "
          + ", ".join(f"{kind.replace('_', ' ')} {v['right']}/{v['cards']}"
                      for kind, v in result["by_kind"].items()))  # fmt: skip
    print(f"         {result['cards_unsure']} unsure (asked, never guessed), "
          f"{result['cards_wrong_sure']} read wrong and sure, {result['cards_missing']} "
          f"missing, {result['cards_extra']} seen past a train's end")  # fmt: skip
    print(f"trains   {result['trains_exact']:.2%} of {result['trains']} exact "
          f"({result['trains_extra']} seen that are not there)")  # fmt: skip
    if result.get("frames_too_coarse"):
        print(f"         {result['frames_too_coarse']} frames said the camera sees the table "
              "too coarsely (their cards count as missing)")  # fmt: skip
    r = result
    if r["glare"] and r["glare_odds"]:
        print(f"lamp     where its reflection touches none of the card: "
              f"{r['cards_clear_accuracy']:.2%} of {r['cards'] - r['cards_lamp']} read right; "
              f"under it {r['cards_lamp_right']} of {r['cards_lamp']} right, "
              f"{r['cards_lamp_unsure']} asked, {r['cards_lamp_missing']} missing, "
              f"{r['cards_lamp_wrong']} wrong and sure")  # fmt: skip
        print(f"         trains it touches none of: {r['trains_clear_exact']:.2%} of "
              f"{r['trains'] - r['lamp_trains']} exact")  # fmt: skip
    print(f"time     {r['latency_ms_p50']} ms a frame, {r['latency_ratio_p50']}x a plain OpenCV "
          f"pass over it ({r['plain_pass_ms_p50']} ms); p95 {r['latency_ms_p95']} ms, "
          f"{r['latency_ratio_p95']}x; one thread")  # fmt: skip
    for failure in result["failures"]:
        print(f"  seed {failure['seed']}: {failure}", file=sys.stderr)
    return 0
