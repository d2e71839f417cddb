"""Our switching-track board and pieces as files to print at true size: what a family needs
to play the game at a real table the camera reads (the board with its own corner markers,
the three panels, the twelve trains and the colour die's six faces), with a key naming
every space and showing Start, Finish and the dead ends (the printed board has no words:
the camera reads it by its geometry).

    python -m companion.games.switching.printing FOLDER [--board ours] [--dpi 150]

Each file is a PNG whose header states its resolution (pHYs), so a print dialog at 100 %
("actual size", never "fit to page") prints it at its size in millimetres: the board is a
poster (700 x 700 mm for ours: a print shop's poster, or a printer's poster mode that tiles
it over A4 sheets, trimmed and taped), the panels are cut out along their edges and glued
on card, the trains are cut out and stood on their spaces (or glued on the box's trains),
and the colour die's faces are stuck on a blank die.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from companion.arguments import CommandLine
from companion.games.switching import art, rules
from companion.games.switching.board import BOARDS, draw
from companion.games.switching.board import load as load_board
from companion.vision.markers import write_png

_GAP_MM = 6.0  # between two pieces on a sheet: room for the scissors
KEY = "key.png"  # not to scale: printed 180 mm wide, to fit an A4 page
_KEY_MM = 180.0


def _on_paper(image: np.ndarray) -> np.ndarray:
    """A BGRA picture as printed on white paper (BGR)."""
    alpha = image[..., 3:4].astype(np.float32) / 255.0
    return (image[..., :3] * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)


def _row(pictures: list[np.ndarray], gap: int) -> np.ndarray:
    """Pictures side by side on white paper, `gap` pixels apart, tops aligned."""
    height = max(p.shape[0] for p in pictures)
    width = sum(p.shape[1] for p in pictures) + gap * (len(pictures) + 1)
    sheet = np.full((height + 2 * gap, width, 3), 255, np.uint8)
    x = gap
    for picture in pictures:
        sheet[gap : gap + picture.shape[0], x : x + picture.shape[1]] = _on_paper(picture)
        x += picture.shape[1] + gap
    return sheet


def sheets(board_id: str, dpi: int) -> dict[str, np.ndarray]:
    """Every file to print, by name: the board and its key, each panel, the trains (three
    of each player colour in a row), the colour die's faces (each panel colour twice)."""
    board = load_board(board_id)
    px = dpi / 25.4
    gap = round(_GAP_MM * px)
    found = {
        "board.png": _on_paper(art.board_picture(board, px)),
        # the key: where Start, Finish and the dead ends are, each space named (not to scale)
        KEY: np.asarray(draw(board)),
    }
    for panel in board.panels:
        found[f"panel-{panel.colour}.png"] = _row([art.panel_picture(board, panel.colour, px)], gap)
    trains = [_row([art.train(colour, px)] * rules.TRAINS, gap) for colour in rules.COLOURS]
    width = max(t.shape[1] for t in trains)
    padded = [np.pad(t, ((0, 0), (0, width - t.shape[1]), (0, 0)), constant_values=255)
              for t in trains]  # fmt: skip
    found["trains.png"] = np.vstack(padded)
    faces = [art.colour_die(p.colour, px) for p in board.panels for _ in range(2)]
    found["colour-die.png"] = _row(faces, gap)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="python -m companion.games.switching.printing",
        description="Write our switching-track board and pieces as PNG files that print at "
        "true size (print at 100 %, never 'fit to page').",
    )
    parser.add_argument("folder", type=Path, help="an existing folder to write them into")
    parser.add_argument("--board", choices=BOARDS, default="ours", help="the board (default ours)")
    parser.add_argument("--dpi", type=int, default=150, help="print resolution (default 150)")
    args = parser.parse_args(argv)
    if not 72 <= args.dpi <= 600:
        parser.error("--dpi must be between 72 and 600")
    if not args.folder.is_dir():
        parser.error(f"folder {args.folder} does not exist: make it first")
    for name, image in sheets(args.board, args.dpi).items():
        dpi = round(image.shape[1] / (_KEY_MM / 25.4)) if name == KEY else args.dpi
        try:
            write_png(args.folder / name, image, dpi)
        except OSError as error:
            print(f"could not write {args.folder / name}: {error}", file=sys.stderr)
            return 2
        height, width = image.shape[:2]
        print(f"{args.folder / name}: {width / dpi * 25.4:.0f} x {height / dpi * 25.4:.0f} mm")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
