"""Simulated games per second on one core, and the cost of `derail_odds` per call.

Run: .venv/bin/python bench/bench_simulate.py [--games N]
Prints a markdown table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.odds import derail_odds
from companion.games.caboose.simulate import simulate

CASES = [
    ("loose-caboose", 4, None),
    ("rollecate", 4, None),
    ("loknroll", 4, None),
    ("loknroll", 1, "solo-laura"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print(f"| edition | players | games | games/s (best of {args.repeats}) | turns/game |")
    print("|---|---|---|---|---|")
    for edition, players, variant in CASES:
        rates = []
        for repeat in range(args.repeats):
            result = simulate(edition, players, args.games, f"bench{repeat}", variant=variant)
            rates.append(result.games_per_second)
        label = f"{players}" + (f" ({variant})" if variant else "")
        print(
            f"| {edition} | {label} | {args.games} | {max(rates):.0f} "
            f"| {result.turns_per_game:.1f} |"
        )
    state = deal("rollecate", ["A", "B", "C", "D"], 1)
    times = []
    for _ in range(2000):
        started = time.perf_counter()
        derail_odds(state)
        times.append(time.perf_counter() - started)
    print(
        f"\nderail_odds on a dealt 4-player table: median {statistics.median(times) * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
