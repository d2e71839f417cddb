"""What the service's recognised frames cost: the next frame of a camera that did not move,
after dice were thrown or a card was laid, as a ratio to a plain OpenCV pass over the same
frame (companion/vision/plain_pass.py; the goal, issue 32: at most 1.5x), and what it read.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_next_frame.py [--tables N] [--seed S]
Each table is eval-vision's hard one (scenes.random_scene, one card apart). The frame before
is the same table without its dice (they are about to be thrown) or without the railway's
front card (it is about to be laid), drawn by the same camera (the synthetic camera draws
its position, light and noise from the seed alone, so only what changed differs); the next
frame is the whole table, with fresh sensor noise and compressed again. It is read four
ways, each timed (CPU, one thread) beside the plain pass over it:
- a new camera (what eval-vision times: calibration and warp tables from scratch);
- the same camera (the last calibration handed in, its warp tables reused);
- the same camera with the last frame's reading (`observe(previous=...)`, as the service's
  FrameReader calls it: what did not change stands, vision/unchanged.py);
and each reading is scored as eval-vision scores it (cards, railway, caboose, dice right).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace
from functools import partial

import cv2
import numpy as np
from stage_profile import machine, tables_parser

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.vision.eval_vision import score_scene
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.vision.plain_pass import plain_pass

_NOISE = 3.0  # grey levels of fresh sensor noise in the next frame (sigma)
_JPEG_QUALITY = 70  # as the hard camera compresses
WAYS = ("new camera", "same camera", "same camera, last reading lent")
_SCORED = ("cards", "cards_right", "railway_exact", "caboose_right", "dice", "dice_right")


def before(scene: synthetic.Scene, change: str) -> synthetic.Scene | None:
    """The table a moment before `change` ("dice" thrown, "card" laid at the front); None
    when the caboose stands on the front card (it would stand on bare table before)."""
    if change == "dice":
        return replace(scene, dice=())
    front = scene.railway[-1]
    if scene.caboose == front:
        return None
    cards = scene.cards[:front] + scene.cards[front + 1 :]
    railway = tuple(i - (i > front) for i in scene.railway[:-1])
    caboose = None if scene.caboose is None else scene.caboose - (scene.caboose > front)
    return replace(scene, cards=cards, railway=railway, caboose=caboose)


def next_frame(drawn: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The frame `drawn` as a still camera gives it again: fresh sensor noise, compressed
    again."""
    noisy = cv2.add(drawn, rng.normal(0, _NOISE, drawn.shape), dtype=cv2.CV_8U)
    _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, _JPEG_QUALITY])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def next_frames(tables: int, seed: int) -> dict[str, dict]:
    """Per change and way: CPU ms medians, the ratio to the plain pass, and the scores."""
    cv2.setNumThreads(1)
    config = VisionConfig.for_edition("rollecate")
    camera = synthetic.Camera.preset("hard")
    rng = np.random.default_rng(seed)
    config.faces()
    results: dict[str, dict] = {}
    for change in ("dice", "card"):
        times: dict[str, list[float]] = {way: [] for way in (*WAYS, "plain pass")}
        scores = {way: dict.fromkeys(_SCORED, 0) for way in WAYS}
        for i in range(tables):
            scene = synthetic.random_scene(seed + i, "rollecate", loose_cards=1)
            earlier = before(scene, change)
            if earlier is None:
                continue
            back = scene.cards[scene.railway[0]].pose
            last = observe(
                synthetic.render(earlier, seed + i, camera), config, back=(back.x, back.y)
            )
            frame = next_frame(synthetic.render(scene, seed + i, camera), rng)
            at = (back.x, back.y)
            calls = {
                "plain pass": partial(plain_pass, frame),
                WAYS[0]: partial(observe, frame, config, back=at),
                WAYS[1]: partial(observe, frame, config, calibration=last.calibration, back=at),
                WAYS[2]: partial(
                    observe, frame, config, calibration=last.calibration, back=at, previous=last
                ),
            }
            for way, call in calls.items():
                start = time.process_time()
                seen = call()
                times[way].append((time.process_time() - start) * 1000)
                if way in scores:
                    result = score_scene(scene, seen)
                    for key in _SCORED:
                        scores[way][key] += int(result[key])
        plain = statistics.median(times["plain pass"])
        results[change] = {
            way: {
                "frames": len(times[way]),
                "ms_p50": round(statistics.median(times[way]), 2),
                "ratio_p50": round(statistics.median(times[way]) / plain, 2),
                **scores[way],
            }
            for way in WAYS
        } | {"plain pass": {"ms_p50": round(plain, 2)}}
    return results


def main() -> None:
    parser = tables_parser(__doc__, 1000)
    args = parser.parse_args()
    print(machine())
    print("| change | read as | frames | CPU p50 | x plain pass p50 | cards right | "
          "railway exact | caboose right | dice right |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for change, ways in next_frames(args.tables, args.seed).items():
        plain = ways.pop("plain pass")["ms_p50"]
        for way, r in ways.items():
            print(f"| {change} | {way} | {r['frames']} | {r['ms_p50']} ms | {r['ratio_p50']}x "
                  f"(plain {plain} ms) | {r['cards_right']} of {r['cards']} | "
                  f"{r['railway_exact']} | {r['caboose_right']} | {r['dice_right']} of "
                  f"{r['dice']} |")  # fmt: skip


if __name__ == "__main__":
    main()
