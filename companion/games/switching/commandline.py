"""The switching-track game on the command line: what `companion replay` prints for a
`switching-record/1` (exactly as docs/switching-record.md says), and the options and
output of `companion simulate --game switching`."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.games.switching import board, bots, record, rules
from companion.games.switching.rules import (
    Bumped,
    Event,
    Finished,
    MayRollAgain,
    Moved,
    RepairTaken,
    Slid,
    StartedOver,
    Stayed,
    Stop,
    TurnLost,
    Won,
)
from companion.games.switching.simulate import play
from companion.games.switching.vision import enrolment

_ACCIDENT = {
    board.DEAD_END: "hits a dead end",
    board.OFF_TRACK: "runs off the track",
    board.FINISH: "is bumped into Finish",
}


def _again(train: str | None) -> str:
    """What a re-roll after doubles moves (S-16): the same train, or it entered anew."""
    return f"with the train on {train}" if train else "and enter the train again"


def _said(event: Event, name: Mapping[str, str]) -> str | None:
    """One event in words (None: said with the roll already, or by the turn's end)."""
    match event:
        case Slid(panel=panel, origin=origin, slot=slot, turned=turned):
            turning = f", turning the train on {', '.join(turned)} round" if turned else ""
            return f"{panel} slides {origin} -> {slot}{turning}"
        case Stayed(panel=panel):
            return f"{panel} stays (not next to the empty slot)"
        case Moved(origin=origin, to=to, entered=True, path=path):
            return (
                f"enters at {origin}, moves to {to}" if path else f"enters at {origin}, stays put"
            )
        case Moved(origin=origin, to=to, path=path):
            return f"moves {origin} -> {to}" if path else f"the train on {origin} stays put"
        case Bumped(player=owner, origin=origin, to=to):
            return f"bumps {name[owner]}'s train {origin} -> {to}"
        case StartedOver(player=owner, origin=origin, reason=reason):
            return f"{name[owner]}'s train on {origin} {_ACCIDENT[reason]} and starts over"
        case Finished(player=owner, space=space):
            return f"{name[owner]}'s train reaches Finish ({space})"
        case RepairTaken(player=owner):
            return f"{name[owner]} takes a repair tile"
        case TurnLost():
            return "no move possible: the turn is lost"
        case MayRollAgain(train=train):
            return f"doubles: may roll again {_again(train)}"
        case Won(player=owner):
            return f"{name[owner]} wins"
    return None  # RepairPlayed: the turn's first words say it


def turn_text(
    number: int, who: str, turn: record.Turn, events: Sequence[Event], name: Mapping[str, str]
) -> str:
    """One turn of a record in words, as `companion replay` prints it."""
    action = turn.action
    if isinstance(action, Stop):
        return f"turn {number}: {who} does not roll again"
    roll = action.roll
    rolls = "rolls again" if turn.reroll else "rolls"
    if action.repair is not None:
        head = f"plays a repair tile, {rolls} {roll.white}+{roll.black}"
    else:
        head = f"{rolls} {roll.colour} {roll.white}+{roll.black}"
    said = [text for event in events if (text := _said(event, name)) is not None]
    return f"turn {number}: {who} {head}: {'; '.join(said)}"


def replay_text(doc: Mapping[str, Any], as_json: bool) -> str:
    """The replay of a record: the spec's JSON object, or each turn, each player's trains
    and the winner in words. A malformed record or the first turn that breaks a rule
    raises `RecordProblem`."""
    played = record.from_json(doc)
    replayed = record.replay(played)
    summed = record.summary(played, replayed.end)
    if as_json:
        return json.dumps(summed)
    name = dict(zip(played.start.players, played.names, strict=True))
    lines = []
    turns = zip(played.turns, replayed.events, replayed.movers, strict=True)
    for number, (turn, events, colour) in enumerate(turns, 1):
        lines.append(turn_text(number, f"{name[colour]} ({colour})", turn, events, name))
    lines.append("")
    repairs = played.start.variant.repair_tiles
    for player in summed["players"]:
        spaces = [train["space"] for train in player["trains"]]
        trains = f"trains on {', '.join(spaces)}" if spaces else "no train on the board"
        tiles = f", repair tiles {player['repair_tiles']}" if repairs else ""
        lines.append(
            f"{player['name']} ({player['colour']}): depot {player['depot']}, {trains}, "
            f"supply {player['supply']}{tiles}"
        )
    if summed["over"]:
        winner = next(p for p in summed["players"] if p["name"] == summed["winner"])
        lines.append(f"winner: {winner['name']} ({winner['colour']})")
    else:
        mover = next(p for p in summed["players"] if p["name"] == summed["to_move"])
        again = ""
        if summed["reroll"] is not None:
            train = summed["reroll"]["train"]
            again = f", may roll again {_again(train)}"
        lines.append(f"not over: {mover['name']} ({mover['colour']}) to move{again}")
    return "\n".join(lines)


PIECES = ("ours", "printed")  # our printed board and pieces, or a family's own box, taught


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    """This game's options of `companion simulate` and `companion demo`: the players, the
    short game, the repair tiles; the bots' policies for simulate. `companion enroll`'s
    are the taught box's (vision/enrolment.py)."""
    if command == "enroll":
        enrolment.add_arguments(parser)
        return
    least, most = rules.PLAYERS
    parser.add_argument("--players", type=int, default=2, help=f"{least}-{most} (default 2)")
    parser.add_argument(
        "--short", action="store_true", help="the short game: two trains at Finish win (S-21)"
    )
    parser.add_argument(
        "--repair", action="store_true", help="the bonus level's repair tiles (S-19, S-20)"
    )
    if command == "demo":
        parser.add_argument(
            "--pieces",
            choices=PIECES,
            default="ours",
            help="the box played: our printed board and pieces (default); printed: a family's "
            "own box (the synthetic table's stand-in), which the players first teach the camera",
        )
    if command == "simulate":
        parser.add_argument(
            "--policies",
            default="greedy,random",
            help=f"bots by seat, comma-separated, repeating ({', '.join(bots.POLICIES)})",
        )


def variant_of(args: argparse.Namespace) -> str:
    """The rules' variant id (`rules.VARIANTS`) of --short and --repair."""
    short, repair = args.short, args.repair
    return {
        (False, False): "full",
        (True, False): "short",
        (False, True): "repair",
        (True, True): "short-repair",
    }[short, repair]


def simulate(args: argparse.Namespace) -> int:
    """`companion simulate --game switching`: whole games between bots on our board, each
    game's record written with `--records`, summarised (wins by seat, turns a game,
    games a second)."""
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in bots.POLICIES]
    if unknown or not policies:
        print(f"unknown policy {unknown}: use {', '.join(bots.POLICIES)}", file=sys.stderr)
        return 2
    least, most = rules.PLAYERS
    if not least <= args.players <= most:
        print(f"--players: the game is for {least} to {most} players", file=sys.stderr)
        return 2
    by_seat = [policies[seat % len(policies)] for seat in range(args.players)]
    variant = variant_of(args)
    ours = board.load()
    wins = [0] * args.players
    turns = []
    began = time.perf_counter()
    for number in range(args.games):
        game = play(ours, by_seat, f"{args.seed}:{number}", variant)
        if args.records is not None:
            path = Path(args.records) / f"switching-{number + 1:05d}.json"
            path.write_text(json.dumps(game.doc, indent=1) + "\n", encoding="utf-8")
        wins[game.end.players.index(game.end.winner)] += 1
        turns.append(len(game.doc["turns"]))
    elapsed = time.perf_counter() - began
    doc = {
        "game": record.GAME_ID,
        "board": ours.id,
        "variant": variant,
        "games": args.games,
        "players": args.players,
        "policies": by_seat,
        "wins": [w / args.games for w in wins],
        "turns": {"mean": statistics.fmean(turns), "min": min(turns), "max": max(turns)},
        "games_per_second": args.games / elapsed if elapsed > 0 else None,
    }
    if args.json:
        print(json.dumps(doc))
        return 0
    print(
        f"{args.games} games of the switching-track game ({variant}) on board {ours.id}, "
        f"{args.players} players ({', '.join(by_seat)})"
    )
    for seat, (policy, share) in enumerate(zip(by_seat, doc["wins"], strict=True)):
        print(f"  seat {seat + 1} ({policy}, {rules.COLOURS[seat]}): wins {share:.0%}")
    t = doc["turns"]
    print(f"  turns a game: mean {t['mean']:.1f}, fewest {t['min']}, most {t['max']}")
    if doc["games_per_second"] is not None:
        print(f"  games per second {doc['games_per_second']:.0f}")
    return 0
