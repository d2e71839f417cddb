"""The switching-track game: simulated games per second on one core, bots against bots.

Run: .venv/bin/python bench/bench_switching.py [--games N] [--repeats R]
Prints a markdown table for bench/RESULTS.md. Machines of this kind differ 3-4x in speed, so
each rate is also given against a plain Python loop timed in the same run (bench_yardmaster's
`_reference`, a million additions): the ratio travels between machines, the rate does not.
The bots are those of `companion simulate --game switching` (greedy and random alternating
by seat, as its default `--policies`), each game's record kept as the simulator keeps it.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from bench_yardmaster import _reference  # the same yardstick: the two ratios compare

from companion.games.switching import board, simulate

TABLES = [  # (players, variant)
    (2, "full"),
    (3, "full"),
    (4, "full"),
    (2, "short-repair"),
    (4, "repair"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ours = board.load()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print(
        f"| players | variant | games | turns a game (mean) | games/s (best of {args.repeats}) "
        "| reference loop ms | games per reference loop |"
    )
    print("|---|---|---|---|---|---|---|")
    for players, variant in TABLES:
        policies = (["greedy", "random"] * 2)[:players]
        rates, loops, turns = [], [], []
        for repeat in range(args.repeats):
            loops.append(_reference())
            started = time.perf_counter()
            for game in range(args.games):
                played = simulate.play(ours, policies, f"bench{repeat}:{game}", variant)
                turns.append(len(played.doc["turns"]))
            rates.append(args.games / (time.perf_counter() - started))
        best, loop = max(rates), min(loops)
        print(
            f"| {players} | {variant} | {args.games} | {statistics.fmean(turns):.1f} "
            f"| {best:.0f} | {loop * 1e3:.1f} | {best * loop:.2f} |"
        )


if __name__ == "__main__":
    main()
