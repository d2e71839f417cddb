"""A new camera's switching frame beside the plain pass, table by table, without step timers.

Run: cd bench && OPENBLAS_NUM_THREADS=1 ../.venv/bin/python bench_switching_new_camera.py
[--tables N] [--seed S] [--pieces ours|printed] [--save FILE] [--against FILE]
As bench_new_camera.py does for the Caboose frame: each hard table's frame read as a new
camera's (`eval-vision --game switching`'s reading, no calibration or pose lent) and the
plain pass run over it (companion/vision/plain_pass.py), each three times, the least CPU
time of each kept: the table's ratio, which a loaded machine's swings touch far less than
`bench_switching_vision.py --profile`'s median frame under its step timers. With `--save`
from one tree and `--against` that file from another, the milliseconds each table saved.
"""

from __future__ import annotations

from pathlib import Path

import cv2
from bench_new_camera import least_ms, report
from stage_profile import machine, tables_parser

from companion.games.switching.vision.eval_vision import PIECES, reader_of
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass


def tables(count: int, seed: int, pieces: str) -> list[tuple[float, float]]:
    """(reading ms, plain pass ms) of each of `count` hard tables from `seed`."""
    table, read = reader_of(pieces)
    warm = table(seed + count)
    read(render(warm.scene, seed + count, Camera.hard()), None)
    out = []
    for i in range(count):
        frame = render(table(seed + i).scene, seed + i, Camera.hard())
        out.append((least_ms(read, frame, None), least_ms(plain_pass, frame)))
    return out


def main() -> None:
    parser = tables_parser(__doc__, 2000)
    parser.add_argument("--pieces", choices=PIECES, default="printed")
    parser.add_argument("--save", type=Path, help="write each table's (ms, plain ms) here")
    parser.add_argument("--against", type=Path, help="another tree's --save: ms saved a table")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(machine())
    now = tables(args.tables, args.seed, args.pieces)
    report(now, f"seed {args.seed}, {args.pieces}", args.save, args.against)


if __name__ == "__main__":
    main()
