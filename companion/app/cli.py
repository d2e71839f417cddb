"""The `companion` command line: replay a record, simulate games, and the tools of the table."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from companion import __version__
from companion.arguments import CommandLine, host_address, seconds
from companion.games import EXTRA, default, game, games, not_offered, offering, read_record
from companion.games.protocol import RecordProblem

# Commands that live with their subsystem: name -> (module, one-line help). Each module has
# `main(argv) -> int` with its own argparse, so `companion NAME --help` is the module's own.
DELEGATED: dict[str, tuple[str, str]] = {
    "eval-vision": (
        "companion.app.eval_vision",
        "render synthetic scenes, recognise them, report accuracy and latency",
    ),
    "markers": (
        "companion.vision.markers",
        "write the printable A4 sheet of the four table markers (PDF or PNG)",
    ),
    "check": (
        "companion.app.check",
        "check the table with the camera in place (markers, size, play area, focus, light, "
        "buttons, speaker); --save keeps what it measured",
    ),
    "print": (
        "companion.app.printing",
        "write a PDF of a game's pieces to print at true size (cards, dice, board, markers)",
    ),
    "enroll": (
        "companion.app.enroll",
        "teach the companion a printed deck by showing it each card face once",
    ),
    "eval-dice": (
        "companion.vision.eval_dice",
        "measure the pip-dice reader on a folder of labelled photographs",
    ),
    "history": (
        "companion.app.history",
        "list the games played at a table, newest first: points, winners, finished or not",
    ),
}


# The commands that play a game's own tool (`Game`'s optional fields), which not every
# game offers: name -> the tool.
GAME_TOOLS = {"simulate": "simulate", "demo": "demo"}


def port_number(text: str) -> int:
    """A TCP port to listen on. Only 1-65535: a larger number wraps round to another port
    and 0 lets the system choose one, so the address printed for the family would be
    wrong."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port: give a number from 1 to 65535, such as 8000"
        )
    return port


def table_pin(text: str) -> str:
    """The table's PIN, as the configuration's `web.pin` asks for it: digits a phone's
    number pad can type, at least 4 of them."""
    if not (text.isascii() and text.isdigit() and len(text) >= 4):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a PIN: give at least 4 digits, such as 482913, or leave "
            "--pin out for a new one"
        )
    return text


def seed_text(text: str) -> str:
    """A seed: any text, but text (a terminal in another encoding can pass bytes that are
    not, and the dealer's random numbers are seeded from its UTF-8)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not UTF-8 text: give a seed of letters and digits, such as 42"
        ) from None
    return text


def writable_file(example: str) -> Callable[[str], Path]:
    """The argument type of a file the command will write (a record, a store, a preview):
    checked while the command line is read, so that a wrong path never loses a game played
    first. Its folder must exist: a typo in a folder's name is then a message, not a new
    folder holding a new, empty table. `example` names a file for the message."""

    def check(text: str) -> Path:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"an empty path: give a file, such as {example}")
        path = Path(text)
        if path.is_dir():
            raise argparse.ArgumentTypeError(
                f"{path} is a folder: give a file in it, such as {path / example}"
            )
        in_the_way = _file_in_the_way(path.parent)
        if in_the_way is not None:
            raise argparse.ArgumentTypeError(
                f"{in_the_way} is a file, not a folder: give a path in a folder"
            )
        if not path.parent.is_dir():
            raise argparse.ArgumentTypeError(
                f"there is no folder {path.parent}: create it first (mkdir -p "
                f"{path.parent}) or give a file in a folder that exists"
            )
        existed = path.exists()
        try:
            with path.open("a"):  # appending changes nothing in a file already there
                pass
        except OSError as error:
            raise argparse.ArgumentTypeError(
                f"cannot write {path} ({error.strerror or error}): give a file in a folder "
                "you can write"
            ) from None
        if not existed:
            path.unlink()
        return path

    return check


def folder_path(text: str) -> Path:
    """A folder's path as typed. An empty one (an unset shell variable) is refused: it would
    mean the current folder, which nobody meant."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path: give a folder")
    return Path(text)


def writable_folder(path: Path) -> str | None:
    """Why the command cannot write files into the folder `path`, made if need be; None if
    it can. Asked before the work whose results go there begins."""
    in_the_way = _file_in_the_way(path)
    if in_the_way is not None:
        return f"{in_the_way} is a file, not a folder: give a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as error:
        return (
            f"cannot make or write the folder {path} ({error.strerror or error}): give a "
            "folder you can write"
        )
    return None


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest of `path` and the folders above it that exists, if it is not a folder."""
    for place in (path, *path.parents):
        if place.exists():
            return None if place.is_dir() else place
    return None


def _replay(args: argparse.Namespace) -> int:
    """Any game's record: the registry finds the game by the record's format."""
    try:
        game, doc = read_record(args.file)
        print(game.replay(doc, args.json))
    except RecordProblem as error:
        return _record_error(error, args.json)
    return 0


def _record_error(error: RecordProblem, as_json: bool) -> int:
    if as_json:
        print(json.dumps(error.as_json()))
    else:
        where = f"turn {error.turn}" if error.turn else "the record"
        print(f"error in {where} ({error.rule}): {error.message}", file=sys.stderr)
    return 2


def _simulate(args: argparse.Namespace) -> int:
    """What every game's simulation shares is checked here, before any game is played;
    the rest (bots, options, the summary) is the game's."""
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if args.records is not None:
        problem = writable_folder(args.records)
        if problem is not None:  # said now, not after the games are played
            print(f"companion simulate: --records: {problem}", file=sys.stderr)
            return 2
    return game(args.game).simulate(args)


def refused_tool(command: str, chosen: str, tool: str) -> int | None:
    """Exit status 2, having said so in one line, when the game `chosen` offers no `tool`
    (its `Game` field) for `companion COMMAND`; None when it does."""
    refusal = not_offered(game(chosen), tool)
    if refusal is None:
        return None
    print(f"companion {command}: {refusal}", file=sys.stderr)
    return 2


def _serve(args: argparse.Namespace) -> int:
    # Imported when the page is served: the other commands start without loading Flask.
    from web.serve import serve

    return serve(args.host, args.port, args.db, args.pin, args.demo)


def _demo(args: argparse.Namespace) -> int:
    # Imported when the demo plays: the other commands start without loading OpenCV,
    # gpiozero and Flask.
    from companion.app.demo import main as demo_main

    return demo_main(args)


def _run(args: argparse.Namespace) -> int:
    # Imported when the service runs: the other commands start without loading the camera,
    # the pins and the page, and its configuration (companion.app.config) imports this
    # module.
    from companion.app.run import main as run_main

    return run_main(args.config)


def game_options(command: str, parser: argparse.ArgumentParser, chosen: str, tool: str) -> None:
    """`--game`, its help naming the games that offer `tool` (a `Game` field), and the
    chosen game's own options for `command` (simulate, demo, enroll), if it has any."""
    parser.add_argument(
        "--game",
        choices=tuple(games()),
        default=default().id,
        help=f"which game (default %(default)s; offered by {', '.join(offering(tool))})",
    )
    add_arguments = game(chosen).add_arguments
    if add_arguments is not None and getattr(game(chosen), tool) is not None:
        add_arguments(command, parser)


def chosen_game(argv: list[str]) -> str:
    """The `--game` a command line names, read before the parser is built, so that the
    parser offers that game's options; an unknown name is left to `--game`'s choices to
    refuse."""
    for index, word in enumerate(argv):
        named = argv[index + 1] if word == "--game" and index + 1 < len(argv) else None
        if word.startswith("--game="):
            named = word.removeprefix("--game=")
        if named in games():
            return named
    return default().id


def _demo_options(parser: argparse.ArgumentParser, chosen: str) -> None:
    """The options of `companion demo`."""
    game_options("demo", parser, chosen, "demo")
    parser.add_argument(
        "--seed", type=seed_text, default="demo", help="any text: the same seed, the same game"
    )
    parser.add_argument("--headless", action="store_true", help="play without serving the page")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument(
        "--store",
        type=writable_file("demo.sqlite3"),
        help="keep the game in this SQLite file (a killed demo resumes)",
    )
    parser.add_argument(
        "--record",
        type=writable_file("game.json"),
        help="write the game's record here (its game's record format; its folder must exist)",
    )
    parser.add_argument("--progress", action="store_true", help="say each accepted turn on stderr")
    parser.add_argument(
        "--host", type=host_address, default="127.0.0.1", help="where the page listens"
    )
    parser.add_argument("--port", type=port_number, default=8000, help="1-65535 (default 8000)")
    parser.add_argument(
        "--pin", type=table_pin, help="the table's PIN, 4 digits or more (default: a new one)"
    )
    parser.add_argument(
        "--delay", type=seconds, help="seconds per camera frame (default 0.4 served, 0 headless)"
    )
    parser.add_argument("--camera", choices=("easy", "hard"), default="easy")
    parser.add_argument(
        "--speak", action="store_true", help="say what happens aloud (espeak-ng; off by default)"
    )
    parser.add_argument(
        "--speak-to",
        type=Path,
        metavar="DIR",
        help="write each spoken phrase as a numbered WAV file in DIR instead (implies --speak)",
    )
    parser.add_argument(
        "--speak-lang", choices=("en", "es"), default="en", help="the voice's language"
    )


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; `chosen` is the game whose options simulate and demo offer
    (the default game if None)."""
    chosen = chosen or default().id
    parser = CommandLine(
        prog="companion",
        description="Caboose Companion: referee "
        + ", ".join(g.name for g in games().values())
        + " at a real table.",
        epilog=f"{EXTRA}: more games' packages, comma-separated (see companion.games). "
        "Not every game offers every command: `COMMAND --help` names the games that do.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser(
        "replay",
        help="replay a game record (any game's) and print the final state",
        description="Replay a game's record; its format names the game ("
        + ", ".join(g.record_format for g in games().values())
        + "). "
        "Exit 2 if it is malformed or breaks a rule, naming the first turn at fault.",
    )
    replay.add_argument("file", type=Path, help="the record (JSON)")
    replay.add_argument("--json", action="store_true", help="print the spec's JSON object")
    replay.set_defaults(run=_replay)

    sim = sub.add_parser(
        "simulate",
        help="play whole games between bots and summarise them",
        description="Play whole games of --game between bot players and print how each "
        "seat did (the Caboose design: mean scores and derailments; Yardmaster Express: "
        "mean scores; switching tracks: wins and turns) and the speed.",
    )
    game_options("simulate", sim, chosen, "simulate")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--seed", type=seed_text, default="0", help="any text; the same seed plays the same games"
    )
    sim.add_argument(
        "--records", type=folder_path, help="write each game's record into this folder"
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=_simulate)

    serve = sub.add_parser(
        "serve",
        help="serve the table's web page (waitress)",
        description="Serve the table's web page under waitress and print its URL and PIN.",
    )
    serve.add_argument("--host", type=host_address, default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8000, help="1-65535 (default 8000)")
    serve.add_argument(
        "--db",
        type=writable_file("table.sqlite3"),
        help="the table's SQLite file, in a folder that exists "
        "(default ~/.local/share/caboose-companion/table.sqlite3)",
    )
    serve.add_argument(
        "--pin", type=table_pin, help="the table's PIN, 4 digits or more (default: a new one)"
    )
    serve.add_argument("--demo", action="store_true", help="start with a game in progress")
    serve.set_defaults(run=_serve)

    demo = sub.add_parser(
        "demo",
        help="bots play a whole game on the synthetic table, through camera, buttons and page",
        description="Scripted players play a whole game on the synthetic table; everything "
        "goes through the real vision, tracker, session, engine, store and (unless "
        "--headless) the web page. Exit 2 if the companion stopped following the table.",
    )
    _demo_options(demo, chosen)
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
    try:
        status = _command(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # Whoever read the output went away (`companion replay F | head -1`): the rest is
        # not wanted, and Python would otherwise say so on stderr when it flushes at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


def _command(argv: list[str]) -> int:
    """The command `argv` names, run; its exit status."""
    if argv and argv[0] in DELEGATED:
        # Handed over whole: argparse's REMAINDER would swallow `--help` and other options.
        return _delegate(DELEGATED[argv[0]][0])(argparse.Namespace(rest=argv[1:]))
    chosen = chosen_game(argv)
    if argv and argv[0] in GAME_TOOLS:  # refused before its options, which the game lacks
        refused = refused_tool(argv[0], chosen, GAME_TOOLS[argv[0]])
        if refused is not None:
            return refused
    parser = build_parser(chosen)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
