"""What a frame in which nothing moved costs the service: each game's camera watcher (as
the service's frame loop calls it: `Game.camera.watcher`) handed the next frame of a still
table, as a ratio to a plain OpenCV pass over the same frame (companion/vision/plain_pass.py;
the goal, issue 32: at most 0.2x).

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_still_frame.py [--tables N]
     [--frames N] [--seed S]
Each table is the game's synthetic one (`Game.camera.scene`) through the hard camera, seen
once (read); then `--frames` more frames of it: the same picture with fresh sensor noise
and compressed again, as a still camera gives it. A still frame that the watcher reads
again (its `last` reading replaced) is counted (it should be none), and timed with the
rest. OpenCV runs on one thread.
"""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np
from stage_profile import machine, tables_parser

from companion.games import game, games
from companion.games.protocol import CameraSetup
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass

_NOISE = 3.0  # grey levels of fresh sensor noise in each still frame (sigma)
_JPEG_QUALITY = 70  # as the hard camera compresses


def still_frames(game_id: str, tables: int, frames: int, seed: int) -> dict[str, float]:
    """CPU ms per still frame through the game's watcher and of the plain pass over it
    (medians, and their ratio), and how many still frames were read again."""
    cv2.setNumThreads(1)
    played = game(game_id)
    camera = Camera.hard()
    rng = np.random.default_rng(seed)
    watched, plain, read_again = [], [], 0
    for i in range(tables):
        scene = played.camera.scene(seed + i)
        first = render(scene, seed + i, camera)
        setup = CameraSetup(scene.layout, camera.frame_size)
        watcher = played.camera.watcher(setup, played.options[0].id)
        watcher.see(first, None)
        for _ in range(frames):
            noisy = cv2.add(first, rng.normal(0, _NOISE, first.shape), dtype=cv2.CV_8U)
            _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, _JPEG_QUALITY])
            frame = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            start = time.process_time()
            plain_pass(frame)
            plain.append((time.process_time() - start) * 1000)
            before = watcher.last
            start = time.process_time()
            watcher.see(frame, None)
            watched.append((time.process_time() - start) * 1000)
            read_again += watcher.last is not before
    still, reference = statistics.median(watched), statistics.median(plain)
    return {
        "still_frames": len(watched),
        "read_again": read_again,
        "still_frame_ms_p50": round(still, 3),
        "plain_pass_ms_p50": round(reference, 3),
        "ratio_p50": round(still / reference, 3),
    }


def main() -> None:
    parser = tables_parser(__doc__, 1000)
    parser.add_argument("--frames", type=int, default=5, help="still frames per table")
    args = parser.parse_args()
    print(machine())
    print("| game | still frames | read again | still frame CPU p50 | plain pass p50 | ratio |")
    print("|---|---|---|---|---|---|")
    for game_id in games():
        if game(game_id).camera is None:
            continue
        r = still_frames(game_id, args.tables, args.frames, args.seed)
        print(f"| {game_id} | {r['still_frames']} | {r['read_again']} | "
              f"{r['still_frame_ms_p50']} ms | {r['plain_pass_ms_p50']} ms | "
              f"{r['ratio_p50']}x |")  # fmt: skip


if __name__ == "__main__":
    main()
