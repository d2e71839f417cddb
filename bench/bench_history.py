"""How the history scales (issue 31): a store of 10,000 games answers a page of its history
within 100 ms, and its file grows linearly with the games.

The store is filled through `Store` itself as the table fills it (each game started with a
real Caboose record, its last entry finishing it, its history row remembered), the players
drawn from a family of eight so the people repeat across games as at a real table. The
file's sync is turned off while filling only (the fill is not what is measured: at a real
table each of these writes waits for the SD card). Then, at several sizes, the file's
bytes per game, and the time of a page of the history (`GET /api/history` through the
Flask app, the JSON included; the newest page and one deep in the history), and of
the standings (`GET /api/players`, over every game), each the median of `--repeats`, and
as a ratio to a plain Python loop of a million additions timed in the same run
(bench_yardmaster's `_reference`): the ratio travels between machines, the time does not.

    .venv/bin/python bench/bench_history.py [--games 10000] [--repeats 20]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_yardmaster import _reference  # the same yardstick as the other benches

from companion.games.caboose.record import result
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.simulate import play_game
from companion.store import Store
from companion.table import Table
from web.app import Settings, create_app

FAMILY = ("Ana", "Ben", "Cleo", "Dani", "Eva", "Fede", "Gala", "Hugo")
SIZES = (1_000, 2_500, 5_000, 10_000)


def fill(store: Store, games: int, rng: random.Random) -> None:
    """`games` more finished Caboose games kept as the table keeps them."""
    records = {}
    for players in (2, 3, 4):
        done = play_game("loose-caboose", list(FAMILY[:players]), 1, [lambda state: Pass()] * 4)
        records[players] = done.record.as_json()
    for _ in range(games):
        players = rng.choice((2, 3, 4))
        names = rng.sample(FAMILY, players)
        doc = records[players] | {"players": names}
        number = store.start("caboose", doc)
        store.append(number, "turn", {"pass": True}, finished=True)
        store.remember(number, result(doc).as_json())


def median_ms(call: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=SIZES[-1])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    sizes = [size for size in SIZES if size < args.games] + [args.games]
    rng = random.Random(31)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process\n")
    print("| games | bytes per game | newest page ms | deep page ms | standings ms | ref ms |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="bench-history-") as folder:
        path = Path(folder) / "table.sqlite3"
        store = Store(path)
        store._db.execute("PRAGMA synchronous=OFF")  # the fill only: see the docstring
        client = create_app(Table(store), "000000", Settings()).test_client()
        kept = 0
        worst = 0.0
        for size in sizes:
            fill(store, size - kept, rng)
            kept = size
            store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            per_game = path.stat().st_size / size

            def page(before: str = "") -> None:
                answer = client.get(f"/api/history?count=20{before}")
                assert answer.status_code == 200 and len(answer.json["games"]) == 20

            newest = median_ms(page, args.repeats)
            deep = median_ms(lambda s=size: page(f"&before={s // 2}"), args.repeats)
            standings = median_ms(lambda: client.get("/api/players"), max(3, args.repeats // 5))
            reference = statistics.median(_reference() for _ in range(3)) * 1000
            worst = max(worst, newest, deep)
            print(
                f"| {size} | {per_game:.0f} | {newest:.1f} ({newest / reference:.2f}x ref) | "
                f"{deep:.1f} ({deep / reference:.2f}x ref) | {standings:.0f} "
                f"({standings / reference:.1f}x ref) | {reference:.1f} |"
            )
        store.close()
    print(f"\nworst page of the history: {worst:.1f} ms (the issue asks within 100 ms)")


if __name__ == "__main__":
    main()
