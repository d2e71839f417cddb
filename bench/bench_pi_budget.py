"""The frame budget on a Raspberry Pi 4, estimated (issue 32, point 4): does the service keep
up with the camera at 5 frames a second on one core, with the page, the store and the
speaker beside it?

Nothing here runs on a Pi. What carries over is each cost as a ratio to a reference timed in
the same run (the plain OpenCV pass over the same frame, companion/vision/plain_pass.py),
and two published Pi 4 figures that this machine is measured against in the same run:

- scalar work: `sysbench cpu --threads=1` (sysbench 1.0.20, primes up to 10,000): a Pi 4
  does 1477.83 events/s (leoncode.co.uk/articles/raspberry-pi-benchmarks); run here if
  sysbench is installed (`apt install sysbench`), else this bound is left out;
- memory: tinymembench's "C copy" on a Pi 4, 2776.9 MB/s (github.com/geerlingguy/
  sbc-reviews issue 110); here a numpy copy of 256 MB (memcpy).

A Pi 4 core is then between these two factors slower than this one for the plain pass:
OpenCV's image work runs vectorised (NEON there, AVX2 here) over frames larger than the
Pi's 1 MB cache, so it is bound partly by the core and partly by the memory. The page, the
store and the speaker are timed here too (CPU of one turn through a real table and store;
espeak-ng's CPU for one sentence, if installed), and scaled by the scalar factor.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_pi_budget.py [--tables N] [--seed S]
"""

from __future__ import annotations

import random
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_next_frame import WAYS, next_frames
from bench_still_frame import still_frames
from bench_web import play_one
from stage_profile import machine, tables_parser

from companion.games.protocol import Start
from companion.store import Store
from companion.table import Table

PI4_SYSBENCH = 1477.83  # events/s, sysbench 1.0.20 cpu, one thread (published)
PI4_COPY_MBS = 2776.9  # MB/s, tinymembench C copy (published)
FPS = 5  # the camera's frames a second the service must keep up with, on one core
SENTENCE = "Ana plays three and five. Ben is next."


def sysbench_here() -> float | None:
    """Events a second of `sysbench cpu --threads=1` here (best of 3), or None without it."""
    if shutil.which("sysbench") is None:
        return None
    best = 0.0
    for _ in range(3):
        out = subprocess.run(
            ["sysbench", "cpu", "--threads=1", "--time=5", "run"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        best = max(best, float(re.search(r"events per second:\s*([\d.]+)", out).group(1)))
    return best


def copy_here() -> float:
    """MB/s (10^6 bytes) of a numpy copy of 256 MiB, best of 5: far beyond any cache."""
    source = np.ones(256 * 2**20, np.uint8)
    target = np.zeros_like(source)
    best = min(_timed(lambda: np.copyto(target, source)) for _ in range(5))
    return source.nbytes / best / 1e6


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def turn_ms(turns: int) -> float:
    """Median CPU ms of one bot's turn through a real table and store (the journal's commit,
    the view built for the page), as the service takes a move."""
    dice = random.Random(1)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite3")
        table = Table(store)
        table.start("caboose", Start(("Ana", "Ben", "Cleo"), "rollecate", seed=1))
        for _ in range(turns):
            start = time.process_time()
            play_one(table, dice)
            table.view("en")
            times.append((time.process_time() - start) * 1000)
        store.close()
    return statistics.median(times)


def speech_ms() -> float | None:
    """CPU ms espeak-ng takes to say one sentence into a file (median of 5), or None."""
    if shutil.which("espeak-ng") is None:
        return None
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(5):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(["espeak-ng", "-w", str(Path(tmp) / "s.wav"), SENTENCE], check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            times.append(used * 1000)
    return statistics.median(times)


def main() -> None:
    parser = tables_parser(__doc__.splitlines()[0], 153000)
    args = parser.parse_args()
    print(machine())
    scalar = sysbench_here()
    copy = copy_here()
    frames = next_frames(args.tables, args.seed)
    still = still_frames("caboose", args.tables, 3, args.seed)
    plain = statistics.median(
        [frames[change]["plain pass"]["ms_p50"] for change in frames] + [still["plain_pass_ms_p50"]]
    )
    turn, speech = turn_ms(200), speech_ms()

    factors = {"memory": copy / PI4_COPY_MBS}
    if scalar is not None:
        factors["scalar"] = scalar / PI4_SYSBENCH
    low, high = min(factors.values()), max(factors.values())
    side = factors.get("scalar", low)
    print(f"here: sysbench {scalar or 'not installed'} events/s, copy {copy:.0f} MB/s, "
          f"plain pass {plain:.2f} ms (CPU, median)")  # fmt: skip
    print("a Pi 4 core is slower by: " + ", ".join(f"{k} {v:.2f}x" for k, v in factors.items()))
    print(f"plain pass on a Pi 4: {plain * low:.0f}-{plain * high:.0f} ms\n")

    budget = 1000 / FPS
    print(f"| frame | x plain pass | ms here | Pi 4 ms (estimate) | of a {budget:.0f} ms slot |")
    print("|---|---|---|---|---|")
    rows = [
        ("a new camera (dice thrown)", frames["dice"][WAYS[0]]["ratio_p50"]),
        ("next frame, dice thrown", frames["dice"][WAYS[2]]["ratio_p50"]),
        ("next frame, a card laid", frames["card"][WAYS[2]]["ratio_p50"]),
        ("nothing moved", still["ratio_p50"]),
    ]
    for name, ratio in rows:
        pi = (ratio * plain * low, ratio * plain * high)
        print(f"| {name} | {ratio:.2f}x | {ratio * plain:.1f} | {pi[0]:.0f}-{pi[1]:.0f} | "
              f"{pi[0] / budget:.0%}-{pi[1] / budget:.0%} |")  # fmt: skip
    print(f"\na turn through the table and store: {turn:.2f} ms here, about "
          f"{turn * side:.0f} ms on a Pi 4")  # fmt: skip
    if speech is not None:
        pi = speech * side
        print(f"espeak-ng, one sentence: {speech:.0f} ms here, about {pi:.0f} ms on a Pi 4")


if __name__ == "__main__":
    main()
