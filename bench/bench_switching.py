"""The switching-track game: simulated games per second on one core, bots against bots.

Run: .venv/bin/python bench/bench_switching.py [--games N] [--repeats R] [--batch B]
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


def _table(
    ours: board.Board, policies: list[str], variant: str, games: int, repeats: int, batch: int
) -> tuple[float, float, float]:
    """(games a second, reference loop seconds, mean turns a game) for one table. The same
    seeded games are played `repeats` times in batches, a reference loop timed before each
    batch; each batch's best time and the fastest loop count. On a shared machine the other
    sessions slow whole stretches of a run: the best of each short stretch, for the games and
    the yardstick alike, is what the machine does when left alone."""
    seeds = [f"bench:{game}" for game in range(games)]
    batches = [seeds[start : start + batch] for start in range(0, games, batch)]
    best = [float("inf")] * len(batches)
    loops, turns = [], []
    for repeat in range(repeats):
        for number, seeds_of_batch in enumerate(batches):
            loops.append(_reference())
            started = time.perf_counter()
            for seed in seeds_of_batch:
                played = simulate.play(ours, policies, seed, variant)
                if repeat == 0:
                    turns.append(len(played.doc["turns"]))
            best[number] = min(best[number], time.perf_counter() - started)
    return games / sum(best), min(loops), statistics.fmean(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=25, help="games between reference loops")
    args = parser.parse_args()
    ours = board.load()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print(
        "| players | variant | games | turns a game (mean) | games/s (best batches of "
        f"{args.repeats}) | reference loop ms (best) | games per reference loop |"
    )
    print("|---|---|---|---|---|---|---|")
    for players, variant in TABLES:
        policies = (["greedy", "random"] * 2)[:players]
        rate, loop, turns = _table(ours, policies, variant, args.games, args.repeats, args.batch)
        print(
            f"| {players} | {variant} | {args.games} | {turns:.1f} "
            f"| {rate:.0f} | {loop * 1e3:.1f} | {rate * loop:.2f} |"
        )


if __name__ == "__main__":
    main()
