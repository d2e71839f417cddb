"""`companion eval-vision --game yardmaster-express`: how well the camera reads synthetic
tables of Yardmaster Express whose truth is known.

Each scene is drawn by yardmaster.scenes.random_yard from its own seed (2-5 trains on any
side of the table, each the engine and up to eight cards, a fifth of them face down and a
third of the rest turned, touching or nearly, a hand reaching over the middle of the
table now and then), rendered through an easy or hard camera and read by `read_yard`.

A true train is the seen train whose engine lies within `SAME_CARD_MM` of its engine; its
cards are compared in order. A card is right when its code as it lies and whether it is
turned are; unsure when the reader said so (the watcher waits for another frame: no harm
done), wrong when read surely as something else (the misreads that would reach the
game), missing when the seen train ends before it. A train is exact when every card is
right and no card is seen after its last.

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
import math
import sys
import time
from typing import Any

import cv2

from companion.arguments import CommandLine
from companion.games.yardmaster import cards, scenes
from companion.games.yardmaster.vision.reader import UNSURE, ReaderConfig, Yard, read_yard
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass_ms, times

SAME_CARD_MM = 15.0  # a seen engine this close to a true engine's centre is that engine
KINDS = ("engine", "face_up", "turned", "face_down")


def _kind(card: scenes.LaidCard) -> str:
    if card.code == cards.ENGINE:
        return "engine"
    if card.code == cards.FACE_DOWN:
        return "face_down"
    return "turned" if card.turned else "face_up"


def score_yard(truth: scenes.Yard, seen: Yard) -> dict:
    """Per-scene counts: cards right, unsure, wrong (and sure), missing, by kind; trains
    exact; seen trains with no true engine under them; cards seen after a train's end."""
    counts = {f"{kind}_{what}": 0 for kind in KINDS for what in ("cards", "right")}
    counts |= {"unsure": 0, "wrong": 0, "missing": 0, "extra_cards": 0, "trains_exact": 0}
    matched: set[int] = set()
    for train in truth.trains:
        engine = train.cards[0].pose
        match = None
        for index, candidate in enumerate(seen.trains):
            pose = candidate.cards[0].pose
            if index not in matched and math.dist(pose[:2], engine[:2]) < SAME_CARD_MM:
                match = index
        got = () if match is None else seen.trains[match].cards
        if match is not None:
            matched.add(match)
        exact = len(got) == len(train.cards)
        for index, card in enumerate(train.cards):
            kind = _kind(card)
            counts[f"{kind}_cards"] += 1
            if index >= len(got):
                counts["missing"] += 1
                exact = False
                continue
            read = got[index]
            if (read.code, read.turned) == (card.code, card.turned) and read.sure:
                counts[f"{kind}_right"] += 1
            elif not read.sure or read.code == UNSURE:
                counts["unsure"] += 1
                exact = False
            else:
                counts["wrong"] += 1
                exact = False
        extra = got[len(train.cards) :]
        counts["extra_cards"] += len(extra)
        counts["wrong"] += sum(card.sure for card in extra)
        counts["trains_exact"] += exact
    counts["trains"] = len(truth.trains)
    counts["trains_extra"] = len(seen.trains) - len(matched)
    return counts


def evaluate(scenes_n: int, seed: int, difficulty: str) -> dict:
    """Render and read `scenes_n` scenes from `seed` on: the summary `--json` prints."""
    cv2.setNumThreads(1)
    camera = Camera.preset(difficulty)
    config = ReaderConfig()
    warm = scenes.random_yard(seed + scenes_n)  # the first frame pays for imports and caches
    read_yard(render(warm.scene, seed + scenes_n, camera), config)
    totals: dict[str, int] = {}
    wall, cpu, still, plain, render_ms = [], [], [], [], []
    failures = []
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
        tally(totals, failures, scene_seed, truth, seen)
    return {
        "game": "yardmaster-express",
        "scenes": scenes_n,
        "seed": seed,
        "difficulty": difficulty,
        "frame_size": list(camera.frame_size),
        "table_mm": [config.layout.width, config.layout.height],
        **summary(totals),
        **times(
            latency_ms=wall,
            cpu_ms=cpu,
            still_camera_ms=still,
            plain_pass_ms=plain,
            render_ms=render_ms,
        ),
        "failures": failures[:20],
    }


def tally(
    totals: dict[str, int], failures: list[dict], scene_seed: int, truth: Any, seen: Any
) -> None:
    """One scene's reading (`seen`, a reader.Yard) scored against its truth (a
    scenes.Yard) into the run's `totals`, and kept among the `failures` if a train of it
    was not read exactly: what every design's evaluation counts."""
    result = score_yard(truth, seen)
    for key, value in result.items():
        totals[key] = totals.get(key, 0) + value
    if result["trains_exact"] < result["trains"] or result["trains_extra"]:
        failures.append({
            "seed": scene_seed,
            "truth": [list(t.codes) for t in truth.trains],
            "seen": [list(t.codes) for t in seen.trains],
        })  # fmt: skip


def summary(totals: dict[str, int]) -> dict[str, Any]:
    """A run's `totals` (`tally`) as the report's cards and trains."""
    n_cards = sum(totals[f"{kind}_cards"] for kind in KINDS)
    right = sum(totals[f"{kind}_right"] for kind in KINDS)
    by_kind = {
        kind: {"cards": totals[f"{kind}_cards"], "right": totals[f"{kind}_right"]} for kind in KINDS
    }
    return {
        "cards": n_cards,
        "cards_right": right,
        "cards_accuracy": round(right / n_cards, 4) if n_cards else 1.0,
        "by_kind": by_kind,
        "cards_unsure": totals["unsure"],
        "cards_wrong_sure": totals["wrong"],
        "cards_missing": totals["missing"],
        "cards_extra": totals["extra_cards"],
        "trains": totals["trains"],
        "trains_exact": round(totals["trains_exact"] / totals["trains"], 4),
        "trains_extra": totals["trains_extra"],
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
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.design == "printed":
        from companion.games.yardmaster.vision.eval_printed import evaluate_printed

        result = evaluate_printed(args.scenes, args.seed, args.difficulty)
    else:
        result = evaluate(args.scenes, args.seed, args.difficulty)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['scenes']} {args.difficulty} scenes of Yardmaster Express, seed "
          f"{args.seed}, {args.design} cards")  # fmt: skip
    print(f"cards    {result['cards_accuracy']:.2%} of {result['cards']} read right: "
          + ", ".join(f"{kind.replace('_', ' ')} {v['right']}/{v['cards']}"
                      for kind, v in result["by_kind"].items()))  # fmt: skip
    print(f"         {result['cards_unsure']} unsure (asked, never guessed), "
          f"{result['cards_wrong_sure']} read wrong and sure, {result['cards_missing']} "
          f"missing, {result['cards_extra']} seen past a train's end")  # fmt: skip
    print(f"trains   {result['trains_exact']:.2%} of {result['trains']} exact "
          f"({result['trains_extra']} seen that are not there)")  # fmt: skip
    r = result
    print(f"time     {r['latency_ms_p50']} ms a frame, {r['latency_ratio_p50']}x a plain OpenCV "
          f"pass over it ({r['plain_pass_ms_p50']} ms); p95 {r['latency_ms_p95']} ms, "
          f"{r['latency_ratio_p95']}x; one thread")  # fmt: skip
    for failure in result["failures"]:
        print(f"  seed {failure['seed']}: {failure}", file=sys.stderr)
    return 0
