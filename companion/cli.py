"""The `companion` command line: replay a record, simulate games, and the tools of the table."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from companion import __version__
from companion.rules.edition import EDITIONS

# Commands that live with their subsystem: name -> (module, one-line help). Each module has
# `main(argv) -> int` with its own argparse, so `companion NAME --help` is the module's own.
DELEGATED: dict[str, tuple[str, str]] = {
    "eval-vision": (
        "companion.vision.eval_vision",
        "render synthetic scenes, recognise them, report accuracy and latency",
    ),
    "markers": (
        "companion.vision.markers",
        "write the printable A4 sheet of the four table markers (PDF or PNG)",
    ),
    "enroll": (
        "companion.vision.enroll",
        "teach the companion a printed deck by showing it each card face once",
    ),
    "eval-dice": (
        "companion.vision.eval_dice",
        "measure the pip-dice reader on a folder of labelled photographs",
    ),
}


def _replay(args: argparse.Namespace) -> int:
    from companion.record import RecordError, load, replay, summary

    try:
        result = replay(load(args.file))
    except RecordError as error:
        return _record_error(error, args.json)
    if result.error is not None:
        return _record_error(result.error, args.json)
    doc = summary(result.state, result.lines)
    if args.json:
        print(json.dumps(doc))
    else:
        print("\n".join(doc["log"]))
        print()
        for player in doc["players"]:
            print(
                f"{player['name']}: score {player['score']} ({player['cards']} cards, "
                f"{player['derailments']} derailments)"
            )
        if doc["over"]:
            print(f"winners: {', '.join(doc['winners']) or 'nobody'}")
        else:
            print(f"not over: turn {doc['turn'] + 1}, {doc['draw']} cards left to draw")
    return 0


def _record_error(error, as_json: bool) -> int:
    if as_json:
        print(json.dumps(error.as_json()))
    else:
        where = f"turn {error.turn}" if error.turn else "the record"
        print(f"error in {where} ({error.rule}): {error.message}", file=sys.stderr)
    return 2


def _simulate(args: argparse.Namespace) -> int:
    from companion.bots import POLICIES
    from companion.rules.state import RuleError
    from companion.simulate import simulate

    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        print(f"unknown policy {unknown}: use {', '.join(POLICIES)}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    try:
        result = simulate(
            args.edition, args.players, args.games, args.seed, policies, args.records, args.variant
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


def _serve(args: argparse.Namespace) -> int:
    from web.serve import serve

    return serve(args.host, args.port, args.db, args.pin, args.demo)


def _demo(args: argparse.Namespace) -> int:
    from companion.demo import main as demo_main

    return demo_main(args)


def _run(args: argparse.Namespace) -> int:
    from companion.run import main as run_main

    return run_main(args.config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Caboose Companion: referee Loose Caboose, Rollecate and LOK'n'ROLL.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser(
        "replay",
        help="replay a caboose-record/1 file and print the final state",
        description="Replay a caboose-record/1 game record. Exit 2 if it is malformed or "
        "breaks a rule, naming the first turn at fault.",
    )
    replay.add_argument("file", type=Path, help="the record (JSON)")
    replay.add_argument("--json", action="store_true", help="print the spec's JSON object")
    replay.set_defaults(run=_replay)

    sim = sub.add_parser(
        "simulate",
        help="play whole games between bots and summarise them",
        description="Play whole games between bot players and print mean scores, "
        "derailments, turns and speed.",
    )
    sim.add_argument("--edition", choices=EDITIONS, default="loose-caboose")
    sim.add_argument("--players", type=int, default=4, help="2-4 (default 4)")
    sim.add_argument("--variant", choices=("solo", "solo-hard", "solo-laura"), default=None)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="0", help="any text; the same seed plays the same games")
    sim.add_argument(
        "--policies", default="cautious,greedy", help="bots by seat, comma-separated, repeating"
    )
    sim.add_argument("--records", type=Path, help="write each game's record into this folder")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=_simulate)

    serve = sub.add_parser(
        "serve",
        help="serve the table's web page (waitress)",
        description="Serve the table's web page under waitress and print its URL and PIN.",
    )
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--db",
        type=Path,
        help="the table's SQLite file (default ~/.local/share/caboose-companion/table.sqlite3)",
    )
    serve.add_argument("--pin", help="the table's PIN (default: a new one, printed)")
    serve.add_argument("--demo", action="store_true", help="start with a game in progress")
    serve.set_defaults(run=_serve)

    demo = sub.add_parser(
        "demo",
        help="bots play a whole game on the synthetic table, through camera, buttons and page",
        description="Scripted players play a whole game on the synthetic table; everything "
        "goes through the real vision, tracker, session, engine, store and (unless "
        "--headless) the web page. Exit 2 if the companion stopped following the table.",
    )
    from companion.demo import build_parser as demo_parser

    demo_parser(demo)
    demo.set_defaults(run=_demo)

    run = sub.add_parser(
        "run",
        help="the companion at a real table: camera, GPIO buttons, page (on a Pi)",
        description="Run the companion from a TOML configuration (see examples/companion.toml)."
        " Exit 2 with a message if the configuration or the camera is at fault.",
    )
    run.add_argument("--config", type=Path, required=True, help="the TOML configuration")
    run.set_defaults(run=_run)

    for name, (module, help_text) in DELEGATED.items():
        delegated = sub.add_parser(name, help=help_text, add_help=False)
        delegated.add_argument("rest", nargs=argparse.REMAINDER)
        delegated.set_defaults(run=_delegate(module))
    return parser


def _delegate(module: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        return import_module(module).main(args.rest)

    return run


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in DELEGATED:
        # Handed over whole: argparse's REMAINDER would swallow `--help` and other options.
        return _delegate(DELEGATED[argv[0]][0])(argparse.Namespace(rest=argv[1:]))
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
