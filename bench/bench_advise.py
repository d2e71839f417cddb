"""What one question to the private advisor costs, beside what the table's page already
pays for the same table: each Caboose question (`advise.advice`: every play's odds, passing
played through the engine, R-7's orders of each derailment's penalty cards) is timed next
to `view.movers_hand` (the odds the mover's phone is shown for their own hand, `GET
/api/hand`) on the same states, and each Yardmaster question next to `view.hand`. States
come from real games played by the bots;
the hand asked about is the mover's whole hand with the card drawn, the largest a phone can
type. The advisor's rate limit (web/app.py `Settings.advise_rate`) is weighed against this.

    .venv/bin/python bench/bench_advise.py [--games 20] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from companion.games.caboose import advise as caboose_advise
from companion.games.caboose import view as caboose_view
from companion.games.caboose.bots import cautious
from companion.games.caboose.rules.engine import apply, deal
from companion.games.caboose.rules.state import GameState, Play
from companion.games.yardmaster import advise as yard_advise
from companion.games.yardmaster import bots as yard_bots
from companion.games.yardmaster import edition, rules
from companion.games.yardmaster import view as yard_view
from companion.games.yardmaster.snapshot import Snapshot


def caboose_states(games: int, edition_id: str) -> list[GameState]:
    """Every state before a human's turn in `games` bot games of `edition_id`."""
    dice = random.Random(7)
    found = []
    for number in range(games):
        state = deal(edition_id, ["Ana", "Ben", "Cleo"], f"bench-{number}")
        while not state.over:
            found.append(state)
            action = cautious(state)
            if isinstance(action, Play):
                count = state.edition.dice_for(action.cards)
                faces = state.edition.die_faces
                action = replace(action, roll=tuple(dice.choice(faces) for _ in range(count)))
            state = apply(state, action)[0]
    return found


def yard_snaps(games: int) -> list[Snapshot]:
    """Every moment before a card is added in `games` bot games of three players."""
    kind = edition.load()
    found = []
    for number in range(games):
        start = rules.deal(kind, ["Ana", "Ben", "Cleo"], f"bench-{number}")
        adds: list[rules.Add] = []
        rng = random.Random(number)
        yard = start
        while not yard.over:
            found.append(Snapshot(kind, start, tuple(adds)))
            add = yard_bots.choose(yard, "value", rng)
            adds.append(add)
            yard = rules.apply(yard, add)
    return found


def timed(work: Callable[[], object], repeats: int) -> float:
    """The fastest of `repeats` runs, in ms (the machine is shared: the fastest is the
    cost, the others are waits)."""
    best = float("inf")
    for _ in range(repeats):
        begun = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - begun)
    return best * 1000


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"{name:<34} n={len(times):<5} median {statistics.median(times):7.3f} ms  "
        f"p95 {p95:7.3f} ms  max {ordered[-1]:7.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for edition_id in ("rollecate", "loose-caboose", "loknroll"):
        asked, reference = [], []
        for state in caboose_states(args.games, edition_id):
            if state.player.laura:
                continue
            hand = list(state.player.hand + state.draw[:1])
            seat = state.to_move
            asked.append(
                timed(lambda s=state, h=hand, i=seat: caboose_advise.advice(s, i, h), args.repeats)
            )
            reference.append(timed(lambda s=state: caboose_view.movers_hand(s), args.repeats))
        print(summary(f"{edition_id}: advice", asked))
        print(summary(f"{edition_id}: view.movers_hand (ref)", reference))
    asked, reference = [], []
    for snap in yard_snaps(args.games):
        yard = snap.yard
        hand = list(yard.in_hand)
        mover = yard.to_move
        asked.append(
            timed(lambda s=snap, h=hand, i=mover: yard_advise.advice(s, i, h), args.repeats)
        )
        reference.append(timed(lambda s=snap: yard_view.hand(s, "en"), args.repeats))
    print(summary("yardmaster: advice", asked))
    print(summary("yardmaster: view.hand (ref)", reference))


if __name__ == "__main__":
    main()
