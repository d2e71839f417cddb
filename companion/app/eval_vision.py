"""`companion eval-vision`: how well the camera reads synthetic tables whose truth is known.

What is measured (the pieces, the scenes drawn, how a reading is scored) is the game's:
the default game's `eval_vision` (for the Caboose design, its editions' cards, dice and
caboose: companion/games/caboose/vision/eval_vision.py) parses the options and reports.
"""

from __future__ import annotations

import sys

from companion.games import default


def main(argv: list[str] | None = None) -> int:
    """`companion eval-vision ARGS`: the default game's measure; its exit status."""
    return default().eval_vision(sys.argv[1:] if argv is None else list(argv))


if __name__ == "__main__":
    raise SystemExit(main())
