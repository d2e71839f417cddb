"""Yardmaster Express: simulated games per second on one core, bots against bots.

Run: .venv/bin/python bench/bench_yardmaster.py [--games N] [--repeats R]
Prints a markdown table for bench/RESULTS.md. Machines of this kind differ 3-4x in speed, so
each rate is also given against a plain Python loop timed in the same run (`_reference`:
a million additions): the ratio travels between machines, the rate does not. The bots weigh
a card once per train end and keep it (bots._offers), so a process's first games are
slower: the first repeat's rate is printed too.
"""

from __future__ import annotations

import argparse
import platform
import time

from companion.games.yardmaster import edition, simulate

POLICIES = {
    2: ["run", "value"],
    3: ["run", "value", "run"],
    4: ["run", "value"] * 2,
    5: ["run", "value"] * 2 + ["run"],
}


def _reference() -> float:
    """Seconds for a plain Python loop of a million additions (the yardstick)."""
    started = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    deck = edition.load()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print(
        f"| players | games | games/s (best of {args.repeats}) | first repeat games/s "
        "| reference loop ms | games per reference loop |"
    )
    print("|---|---|---|---|---|---|")
    for players, policies in POLICIES.items():
        rates, loops = [], []
        for repeat in range(args.repeats):
            loops.append(_reference())
            started = time.perf_counter()
            for game in range(args.games):
                simulate.play(deck, policies, f"bench{repeat}:{game}", with_caboose=True)
            rates.append(args.games / (time.perf_counter() - started))
        best, loop = max(rates), min(loops)
        print(
            f"| {players} | {args.games} | {best:.0f} | {rates[0]:.0f} "
            f"| {loop * 1e3:.1f} | {best * loop:.1f} |"
        )


if __name__ == "__main__":
    main()
