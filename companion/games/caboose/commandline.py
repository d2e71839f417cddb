"""The Caboose design on the command line: what `companion replay` prints for a
`caboose-record/1` (exactly as shared/spec/game-record.md says), and the options and output
of `companion simulate` and `companion demo` for this game."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from companion.games.caboose.bots import POLICIES
from companion.games.caboose.players import DICE
from companion.games.caboose.record import from_json, replay, summary
from companion.games.caboose.rules.edition import EDITIONS, variant_ids
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.rules.state import RuleError
from companion.games.caboose.simulate import simulate as simulate_games
from companion.games.caboose.vision import enrolment


def replay_text(doc: Mapping[str, Any], as_json: bool) -> str:
    """The replay of a record as `companion replay` prints it: the spec's JSON object, or
    the log, each player's score and the winners. A malformed record or the first turn that
    breaks a rule raises `RecordError` (the turns before it are not printed, as before)."""
    result = replay(from_json(doc))
    if result.error is not None:
        raise result.error
    summed = summary(result.state, result.lines)
    if as_json:
        return json.dumps(summed)
    lines = [*summed["log"], ""]
    for player in summed["players"]:
        lines.append(
            f"{player['name']}: score {player['score']} ({player['cards']} cards, "
            f"{player['derailments']} derailments)"
        )
    if summed["over"]:
        lines.append(f"winners: {', '.join(summed['winners']) or 'nobody'}")
    else:
        lines.append(f"not over: turn {summed['turn'] + 1}, {summed['draw']} cards left to draw")
    return "\n".join(lines)


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    """This game's options of `companion simulate` and `companion demo` (the edition, the
    players and the variant; the bots' policies for simulate), and of `companion enroll`
    (whose deck)."""
    if command == "enroll":
        enrolment.add_arguments(parser)
        return
    parser.add_argument("--edition", choices=EDITIONS, default="loose-caboose")
    players = 4 if command == "simulate" else 3
    parser.set_defaults(default_players=players)
    parser.add_argument(
        "--players",
        type=int,
        help=f"2-4 (default {players}; a variant seats its own number, such as 1 for solo)",
    )
    parser.add_argument("--variant", choices=variant_ids(), default=None)
    if command == "demo":
        parser.add_argument(
            "--dice",
            choices=DICE,
            default="wheels",
            help="the dice thrown: our wheel dice (default); pips: standard pip dice, read "
            "through the edition's face map (R-6); printed: a box's own wheel dice and caboose "
            "token, not ours, which the players first teach the camera",
        )
        parser.add_argument(
            "--pieces",
            choices=("ours", "printed"),
            default="ours",
            help="the box played, as every game's demo names it: ours (default); printed: a "
            "box's own wheel dice and caboose token, which the players first teach the camera "
            "(the same as --dice printed)",
        )
    if command == "simulate":
        parser.add_argument(
            "--policies",
            default="cautious,greedy",
            help="bots by seat, comma-separated, repeating",
        )


def seats(args: argparse.Namespace) -> int:
    """How many play: the variant's own number (a solo variant seats one), else `--players`
    (default `default_players`). `--players` that says otherwise than the variant is a
    `ValueError` naming the variant's number, rather than a game of another size played
    silently. An unknown edition or variant is left to the deal to refuse."""
    variants = load_edition(args.edition).variants if args.edition in EDITIONS else {}
    variant = variants.get(args.variant) if args.variant is not None else None
    if variant is None:
        return args.default_players if args.players is None else args.players
    if args.players not in (None, variant.players):
        people = "1 player" if variant.players == 1 else f"{variant.players} players"
        raise ValueError(
            f"--players {args.players}: the {variant.name} variant is for {people}; "
            "leave --players out"
        )
    return variant.players


def simulate(args: argparse.Namespace) -> int:
    """`companion simulate` for this game: whole games between bots, summarised."""
    try:
        players = seats(args)
    except ValueError as error:
        print(f"cannot simulate: {error}", file=sys.stderr)
        return 2
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        print(f"unknown policy {unknown}: use {', '.join(POLICIES)}", file=sys.stderr)
        return 2
    try:
        result = simulate_games(
            args.edition, players, args.games, args.seed, policies, args.records, args.variant
        )
    except RuleError as error:
        print(f"cannot simulate: {error.message}", file=sys.stderr)
        return 2
    doc = result.as_json()
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"{doc['games']} games of {args.edition}, {doc['players']} players ({args.policies})")
    for seat, (mean, wins) in enumerate(zip(doc["mean_score"], doc["wins"], strict=True)):
        policy = policies[seat % len(policies)]
        print(f"  seat {seat + 1} ({policy}): mean score {mean:.2f}, wins {wins:.0%}")
    print(f"  derailments per game {doc['derailments_per_game']:.2f}")
    print(f"  turns per game {doc['turns_per_game']:.1f}")
    print(f"  games per second {doc['games_per_second']:.0f}")
    return 0
