"""Yardmaster Express on the command line: what `companion replay` prints for a
`yardmaster-record/1` (exactly as shared/spec/yardmaster-record.md says), and the options
and output of `companion simulate --game yardmaster-express`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games.yardmaster import bots, record, rules
from companion.games.yardmaster.edition import EDITIONS
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.simulate import play
from companion.games.yardmaster.vision import enrolment


def replay_text(doc: Mapping[str, Any], as_json: bool) -> str:
    """The replay of a record: the spec's JSON object, or each turn, each train and score,
    and the winners in words. A malformed record or the first turn that breaks a rule
    raises `RecordProblem`."""
    played = record.from_json(doc)
    summed = record.summary(record.replay(played))
    if as_json:
        return json.dumps(summed)
    lines = []
    n = len(played.start.players)
    for number, add in enumerate(played.adds):
        player = played.start.players[number % n]
        how = " face down" if add.face_down else " turned" if add.turned else ""
        lines.append(f"turn {number + 1}: {player} adds {add.card}{how}")
    lines.append("")
    for player in summed["players"]:
        parts = f"train {player['train_value']}, run bonus {player['run_bonus']}"
        parts += f", caboose {player['caboose_bonus']}"
        if player["carried"]:
            parts += f", first game {player['carried']}"
        lines.append(f"{player['name']}: {' '.join(player['train'])}")
        lines.append(f"  score {player['score']} ({parts}; longest run {player['longest_run']})")
    if summed["over"]:
        how = " (a tie, broken by the seat: Y-10)" if summed["decided_by"] == "seat" else ""
        lines.append(f"winner: {', '.join(summed['winners'])}{how}")
    else:
        lines.append(
            f"not over: round {summed['round']} of {summed['rounds']}, {summed['to_move']} to move"
        )
    return "\n".join(lines)


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    """This game's options of `companion simulate` and `companion demo`: the edition, the
    players, a caboose card; the strategic variant and the bots' policies for simulate; and
    of `companion enroll` (which faces of the box to teach)."""
    if command == "enroll":
        enrolment.add_arguments(parser)
        return
    parser.add_argument("--edition", choices=EDITIONS, default="yardmaster-express")
    players = 5 if command == "simulate" else 3
    parser.add_argument("--players", type=int, default=players, help=f"2-5 (default {players})")
    parser.add_argument("--caboose", action="store_true", help="play with a caboose card (Y-12)")
    if command == "simulate":
        parser.add_argument(
            "--strategic",
            action="store_true",
            help="the strategic variant: two games, scores added up (Y-11)",
        )
        parser.add_argument(
            "--policies",
            default="run,value",
            help=f"bots by seat, comma-separated, repeating ({', '.join(bots.POLICIES)})",
        )


def simulate(args: argparse.Namespace) -> int:
    """`companion simulate --game yardmaster-express`: whole games between bots, each
    game's record written with `--records`, summarised (mean score and wins by seat)."""
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in bots.POLICIES]
    if unknown or not policies:
        print(f"unknown policy {unknown}: use {', '.join(bots.POLICIES)}", file=sys.stderr)
        return 2
    edition = load_edition(args.edition)
    least, most = edition.players
    if not least <= args.players <= most:
        print(f"--players: {edition.name} is for {least} to {most} players", file=sys.stderr)
        return 2
    by_seat = [policies[seat % len(policies)] for seat in range(args.players)]
    totals = [0] * args.players
    wins = [0] * args.players
    began = time.perf_counter()
    for number in range(args.games):
        games = play(edition, by_seat, f"{args.seed}:{number}", args.caboose, args.strategic)
        if args.records is not None:
            for part, game in enumerate(games, 1):
                suffix = f"-{part}" if len(games) > 1 else ""
                path = Path(args.records) / f"yardmaster-{number + 1:05d}{suffix}.json"
                path.write_text(json.dumps(game.doc, indent=1) + "\n", encoding="utf-8")
        # the bots are named by seat ("run-1"): their scores are summed by seat
        for score in rules.score(games[-1].end):
            seat = int(score.name.rsplit("-", 1)[1]) - 1
            totals[seat] += score.score
        for name in rules.ranking(games[-1].end)[0]:
            wins[int(name.rsplit("-", 1)[1]) - 1] += 1
    elapsed = time.perf_counter() - began
    doc = {
        "game": record.GAME_ID,
        "games": args.games,
        "players": args.players,
        "policies": by_seat,
        "mean_score": [t / args.games for t in totals],
        "wins": [w / args.games for w in wins],
        "games_per_second": args.games / elapsed if elapsed > 0 else None,
    }
    if args.json:
        print(json.dumps(doc))
        return 0
    kind = "strategic pairs of games" if args.strategic else "games"
    print(f"{args.games} {kind} of {edition.name}, {args.players} players ({args.policies})")
    for seat, (mean, share) in enumerate(zip(doc["mean_score"], doc["wins"], strict=True)):
        print(f"  seat {seat + 1} ({by_seat[seat]}): mean score {mean:.2f}, wins {share:.0%}")
    if doc["games_per_second"] is not None:
        print(f"  games per second {doc['games_per_second']:.0f}")
    return 0
