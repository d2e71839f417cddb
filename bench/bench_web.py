"""How live is the page? Time from an accepted action to its event reaching a connected
Server-Sent Events client, and requests per second for the state endpoint, both against the
real app under waitress (the server `companion serve` runs), on this machine's loopback.

"Accepted" is the instant the table announces the change (after the store's commit), taken
from inside the table; "reached" is when a client thread has read the whole event off its
socket. Bots play real turns (companion.games.caboose.bots) so each event carries a real view.

    .venv/bin/python bench/bench_web.py [--actions 300] [--clients 1,8] [--seconds 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import waitress

from companion.games.caboose import view
from companion.games.caboose.bots import cautious
from companion.games.caboose.commands import Act
from companion.games.caboose.rules.state import Play
from companion.games.protocol import Start
from companion.store import Store
from companion.table import Table
from web.app import Settings, create_app
from web.serve import THREADS


class TimedTable(Table):
    """A table that notes when each version was announced."""

    def __init__(self, store: Store) -> None:
        self.announced: dict[int, float] = {}
        super().__init__(store)

    def _bump(self) -> None:
        super()._bump()
        self.announced[self.version] = time.perf_counter()


class Listener(threading.Thread):
    """One phone: reads the event stream and notes when each version arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        version = None
        while True:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                version = int(line[4:])
            elif line == b"\n" and version is not None:
                self.arrived[version] = time.perf_counter()
                version = None
                self.ready.set()


def play_one(table: Table, dice: random.Random) -> None:
    """One real turn by a bot (a new game when the last one ended)."""
    state = table.match.snap.state
    if state.over:
        table.start("caboose", Start(("Ana", "Ben", "Cleo"), "rollecate", seed=dice.random()))
        return
    action = cautious(state)
    if isinstance(action, Play):
        count = state.edition.dice_for(action.cards)
        action = replace(
            action, roll=tuple(dice.choice(state.edition.die_faces) for _ in range(count))
        )
    table.handle(Act(state.to_move, action))


def latency(table: TimedTable, port: int, actions: int, clients: int) -> list[float]:
    listeners = [Listener(port) for _ in range(clients)]
    for listener in listeners:
        listener.start()
    for listener in listeners:
        listener.ready.wait(5)
    dice = random.Random(1)
    versions = []
    for _ in range(actions):
        play_one(table, dice)
        versions.append(table.version)
        time.sleep(0.02)  # players act seconds apart; keep the events separate
    time.sleep(0.5)
    delays = []
    for listener in listeners:
        # A stream sends the newest state when it wakes, so a version announced while the
        # previous event was on its way arrives inside the next one: count the first event
        # that includes it.
        arrivals = sorted(listener.arrived.items())
        for version in versions:
            shown = next((at for seen, at in arrivals if seen >= version), None)
            if shown is None:
                raise SystemExit(f"version {version} never reached a client")
            delays.append((shown - table.announced[version]) * 1000)
    return delays


def throughput(port: int, seconds: float, workers: int) -> float:
    counts = [0] * workers
    stop = time.perf_counter() + seconds

    def work(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while time.perf_counter() < stop:
            connection.request("GET", "/api/state")
            response = connection.getresponse()
            json.loads(response.read())
            counts[index] += 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def build_time(table: Table, repeats: int = 200) -> float:
    """Median ms to build the view once (what a change costs before the cache serves it)."""
    snap = table.match.snapshot()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        json.dumps(view.build(snap, "en"))
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--clients", default="1,8", help="SSE clients, comma-separated runs")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=4, help="clients asking /api/state")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        table = TimedTable(Store(Path(tmp) / "bench.sqlite3"))
        table.start("caboose", Start(("Ana", "Ben", "Cleo"), "rollecate", seed=1))
        app = create_app(table, "0000", Settings(max_streams=THREADS - 4))
        server = waitress.create_server(app, host="127.0.0.1", port=0, threads=THREADS)
        port = server.effective_port
        threading.Thread(target=server.run, daemon=True).start()  # ends with the process

        for clients in (int(c) for c in args.clients.split(",")):
            delays = latency(table, port, args.actions, clients)
            delays.sort()
            p95 = delays[int(0.95 * (len(delays) - 1))]
            print(
                f"action accepted -> event at {clients} SSE client(s): "
                f"median {statistics.median(delays):.1f} ms, p95 {p95:.1f} ms, "
                f"max {delays[-1]:.1f} ms ({len(delays)} events)"
            )
        print(f"view built in {build_time(table):.2f} ms (median, one change, cache miss)")
        rate = throughput(port, args.seconds, args.workers)
        print(f"GET /api/state: {rate:.0f} requests/s ({args.workers} keep-alive clients)")


if __name__ == "__main__":
    main()
