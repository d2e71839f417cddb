"""Simulated games per second on one core, and the cost of `derail_odds` per call.

Run: .venv/bin/python bench/bench_simulate.py [--games N] [--repeats R] [--check-replay]
Prints a markdown table for bench/RESULTS.md. Machines of this kind differ 3-4x in speed, so
each rate is also given against the plain Python loop of bench_yardmaster (`_reference`, a
million additions) timed before each repeat: games per reference loop is the figure that
travels between machines (issue 32 asks 300 for 4-player Rollecate). `--check-replay` then
simulates each case once more with its records written out and replays every record
(`companion replay`'s path): each must replay without a fault to the same final scores.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from pathlib import Path

from bench_yardmaster import _reference  # the same yardstick as the other benches

from companion.games.caboose.record import load, replay
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.odds import derail_odds
from companion.games.caboose.rules.scoring import score
from companion.games.caboose.simulate import simulate

CASES = [
    ("loose-caboose", 4, None),
    ("rollecate", 4, None),
    ("loknroll", 4, None),
    ("loknroll", 1, "solo-laura"),
]


def _replayed(edition: str, players: int, games: int, variant: str | None) -> str:
    """Simulate `games` games with their records kept, replay every record, and say how
    many replayed without a fault to the scores the simulation counted."""
    with tempfile.TemporaryDirectory() as folder:
        records = Path(folder)
        summary = simulate(edition, players, games, "replay", records=records, variant=variant)
        totals = [0.0] * len(summary.mean_score)  # Laura too, in a solo game
        faults = 0
        for path in sorted(records.glob("game-*.json")):
            replayed = replay(load(path))
            faults += replayed.error is not None or not replayed.state.over
            for i, seat in enumerate(replayed.state.seats):
                totals[i] += score(seat, True)
    same = [round(t / games, 6) for t in totals] == [round(s, 6) for s in summary.mean_score]
    scores = "the same mean scores" if same else "DIFFERENT mean scores"
    return f"{games - faults} of {games} replay, {scores}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check-replay", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print(
        f"| edition | players | games | games/s (best of {args.repeats}) | turns/game "
        "| reference loop ms | games per reference loop |"
    )
    print("|---|---|---|---|---|---|---|")
    for edition, players, variant in CASES:
        rates, loops = [], []
        for repeat in range(args.repeats):
            loops.append(_reference())
            result = simulate(edition, players, args.games, f"bench{repeat}", variant=variant)
            rates.append(result.games_per_second)
        best, loop = max(rates), min(loops)
        label = f"{players}" + (f" ({variant})" if variant else "")
        print(
            f"| {edition} | {label} | {args.games} | {best:.0f} "
            f"| {result.turns_per_game:.1f} | {loop * 1e3:.1f} | {best * loop:.1f} |"
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
    if args.check_replay:
        print()
        for edition, players, variant in CASES:
            label = f"{edition} {players}" + (f" ({variant})" if variant else "")
            print(f"{label}: {_replayed(edition, players, args.games, variant)}")


if __name__ == "__main__":
    main()
