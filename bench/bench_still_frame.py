"""What a frame in which nothing moved costs the service: the Caboose camera's watcher
(companion/games/caboose/camera.py, as the service's frame loop calls it) handed the next
frame of a still table, as a ratio to a plain OpenCV pass over the same frame
(companion/vision/plain_pass.py; the goal, issue 32: at most 0.2x).

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_still_frame.py [--tables N]
     [--frames N] [--seed S]
Each table is a hard synthetic one (eval-vision's), seen once (recognised); then `--frames`
more frames of it: the same picture with fresh sensor noise and compressed again, as a
still camera gives it. A still frame that the change gate lets through to recognition is
counted (it should be none), and timed with the rest. OpenCV runs on one thread.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import cv2
import numpy as np

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.camera import Camera
from companion.games.caboose.tracker import CameraHint
from companion.games.caboose.vision.observation import VisionConfig
from companion.vision.plain_pass import plain_pass

_NOISE = 3.0  # grey levels of fresh sensor noise in each still frame (sigma)
_JPEG_QUALITY = 70  # as the hard camera compresses


def still_frames(tables: int, frames: int, seed: int) -> dict[str, float]:
    """CPU ms per still frame through the watcher and of the plain pass over it (medians,
    and their ratio), and how many still frames were recognised again."""
    cv2.setNumThreads(1)
    config = VisionConfig.for_edition("rollecate")
    camera = synthetic.Camera.preset("hard")
    rng = np.random.default_rng(seed)
    watched, plain, recognised = [], [], 0
    for i in range(tables):
        scene = synthetic.random_scene(seed + i, "rollecate", loose_cards=1)
        first = synthetic.render(scene, seed + i, camera)
        back = scene.cards[scene.railway[0]].pose
        hint = CameraHint(back=(back.x, back.y))
        watcher = Camera(config)
        watcher.see(first, hint)
        for _ in range(frames):
            noisy = cv2.add(first, rng.normal(0, _NOISE, first.shape), dtype=cv2.CV_8U)
            _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, _JPEG_QUALITY])
            frame = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            start = time.process_time()
            plain_pass(frame)
            plain.append((time.process_time() - start) * 1000)
            before = watcher.last
            start = time.process_time()
            watcher.see(frame, hint)
            watched.append((time.process_time() - start) * 1000)
            recognised += watcher.last is not before
    still, reference = statistics.median(watched), statistics.median(plain)
    return {
        "still_frames": len(watched),
        "recognised_again": recognised,
        "still_frame_ms_p50": round(still, 3),
        "plain_pass_ms_p50": round(reference, 3),
        "ratio_p50": round(still / reference, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--frames", type=int, default=5, help="still frames per table")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread\n")  # fmt: skip
    r = still_frames(args.tables, args.frames, args.seed)
    print("| still frames | recognised again | still frame CPU p50 | plain pass p50 | ratio |")
    print("|---|---|---|---|---|")
    print(f"| {r['still_frames']} | {r['recognised_again']} | {r['still_frame_ms_p50']} ms | "
          f"{r['plain_pass_ms_p50']} ms | {r['ratio_p50']}x |")  # fmt: skip


if __name__ == "__main__":
    main()
