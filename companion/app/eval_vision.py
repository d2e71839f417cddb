"""`companion eval-vision`: how well the camera reads synthetic tables whose truth is known.

What is measured (the pieces, the scenes drawn, how a reading is scored) is the game's:
`--game` names it (the default game if not given), and that game's `eval_vision` (for the
Caboose design, its editions' cards, dice and caboose: companion/games/caboose/vision/
eval_vision.py) parses the other options and reports.
"""

from __future__ import annotations

import sys

from companion.app.cli import refused_tool
from companion.arguments import CommandLine
from companion.games import default, game, games


def main(argv: list[str] | None = None) -> int:
    """`companion eval-vision [--game ID] ARGS`: that game's measure; its exit status. The
    game's own parser reads the other options (and says them in `--help`)."""
    parser = CommandLine(prog="companion eval-vision", add_help=False)
    parser.add_argument("--game", choices=list(games()), default=default().id)
    known, rest = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    refused = refused_tool("eval-vision", known.game, "eval_vision")
    if refused is not None:
        return refused
    eval_vision = game(known.game).eval_vision
    assert eval_vision is not None  # refused_tool said so otherwise
    return eval_vision(rest)


if __name__ == "__main__":
    raise SystemExit(main())
