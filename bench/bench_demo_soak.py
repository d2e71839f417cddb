"""The demo soak: whole demo games over many seeds of every edition and variant, counting
the games that did not end as the players' true game.

Each game is `companion demo --headless` in-process (`run_demo`): the synthetic camera,
the tracker, the session, the mock buttons, the engine and the store, nothing skipped. A
game fails when the demo stops (the companion stopped following the table: exit 2 on the
command line), crashes, or ends with the camera having misread a turn or with a game other
than the true one.

Run: .venv/bin/python bench/bench_demo_soak.py [--seeds N] [--workers N] [--write]
Prints the failures and a markdown table; `--write` puts it into bench/RESULTS.md (its
"The demo soak" section, replaced on each run).
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from companion.app.demo import DemoError, run_demo
from companion.games.caboose.demo import ScriptedGame
from companion.games.caboose.players import DemoOptions

# Every game the demo can play: each edition for 2-4 players, and LOK'n'ROLL's solo
# variants (Loose Caboose and Rollecate have no solo variant).
GAMES: list[tuple[str, int, str | None]] = [
    *(
        (edition, players, None)
        for edition in ("loose-caboose", "rollecate", "loknroll")
        for players in (2, 3, 4)
    ),
    ("loknroll", 1, "solo"),
    ("loknroll", 1, "solo-hard"),
    ("loknroll", 1, "solo-laura"),
]
RESULTS = Path(__file__).with_name("RESULTS.md")
SECTION = "## The demo soak: every edition and variant, many seeds (issue 10)"


def label(edition: str, players: int, variant: str | None) -> str:
    return f"{edition} {variant}" if variant else f"{edition} {players}p"


def play(game: tuple[str, int, str | None], seed: str) -> tuple[str, float, int]:
    """One demo game: what went wrong ("" when nothing did), its seconds and turns."""
    edition, players, variant = game
    options = DemoOptions(edition=edition, players=players, variant=variant, seed=seed)
    start = time.perf_counter()
    try:
        doc, _ = run_demo(ScriptedGame(options))
    except DemoError as error:
        return f"stopped: {error}", time.perf_counter() - start, 0
    except Exception:  # a crash is what the soak is for: reported, not raised
        return f"crashed: {traceback.format_exc(limit=3)}", time.perf_counter() - start, 0
    seconds = time.perf_counter() - start
    if not doc["over"]:
        return "did not finish", seconds, doc["turn"]
    if not doc["truth_matched"]:
        return "ended with another game than the true one", seconds, doc["turn"]
    if not doc["camera_matched_every_turn"]:
        return f"camera: {doc['camera']}", seconds, doc["turn"]
    return "", seconds, doc["turn"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=8, help="seeds per game (default 8)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    seeds = [str(seed) for seed in range(args.first, args.first + args.seeds)]
    jobs = [(game, seed) for game in GAMES for seed in seeds]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(play, *zip(*jobs, strict=True)))
    wall = time.perf_counter() - start
    failures = [
        (game, seed, why) for (game, seed), (why, _, _) in zip(jobs, outcomes, strict=True) if why
    ]
    for game, seed, why in failures:
        print(f"FAILED {label(*game)} seed {seed}: {why}", file=sys.stderr)
    rows = [
        "| game | seeds | failed | turns/game | s/game |",
        "|---|---|---|---|---|",
    ]
    for game in GAMES:
        mine = [out for (g, _), out in zip(jobs, outcomes, strict=True) if g == game]
        failed = sum(1 for why, _, _ in mine if why)
        turns = sum(t for _, _, t in mine) / len(mine)
        seconds = sum(s for _, s, _ in mine) / len(mine)
        rows.append(f"| {label(*game)} | {len(mine)} | {failed} | {turns:.1f} | {seconds:.1f} |")
    command = (
        f".venv/bin/python bench/bench_demo_soak.py --seeds {args.seeds} --first {args.first} "
        f"--workers {args.workers} --write"
    )
    text = "\n".join(
        [
            SECTION,
            "",
            "```",
            command,
            "```",
            "",
            f"{len(jobs)} whole demo games (seeds {seeds[0]}-{seeds[-1]} of each game below), "
            f"{args.workers} processes, {wall / 60:.1f} min on {platform.machine()} "
            f"(Python {platform.python_version()}), on a machine shared with other jobs: "
            f"**{len(failures)} failed**. A game fails when the demo stops, crashes, or ends "
            "with a turn misread or another game than the true one.",
            "",
            *rows,
            "",
        ]
    )
    print(text)
    print(f"failures: {len(failures)} of {len(jobs)}")
    if args.write:
        old = RESULTS.read_text()
        kept = re.sub(rf"\n{re.escape(SECTION)}\n.*?(?=\n## |\Z)", "", old, flags=re.S)
        RESULTS.write_text(kept.rstrip("\n") + "\n\n" + text)


if __name__ == "__main__":
    main()
