"""What a family prints is what the camera reads: our board, panels and trains written by
`python -m companion.games.switching.printing` state their true size, and laid together
(each panel in its home slot, a train on a space) they are read as the game's position."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.games.switching import art, printing
from companion.games.switching.board import load
from companion.games.switching.vision.reader import read_board
from companion.vision.markers import png_dpi


def test_the_files_print_at_their_size_and_say_where_they_went(tmp_path: Path, capsys) -> None:
    assert printing.main([str(tmp_path), "--dpi", "72"]) == 0
    written = {path.name for path in tmp_path.iterdir()}
    assert written == {"board.png", "key.png", "trains.png", "colour-die.png"} | {
        f"panel-{colour}.png" for colour in ("purple", "cyan", "orange")
    }
    assert round(png_dpi(tmp_path / "board.png")) == 72  # pixels a metre, rounded
    board = cv2.imread(str(tmp_path / "board.png"))
    assert board.shape[:2] == (round(700 * 72 / 25.4),) * 2  # 700 mm at 72 dpi
    assert f"{tmp_path / 'board.png'}: 700 x 700 mm" in capsys.readouterr().out


def test_a_missing_folder_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    try:
        printing.main([str(tmp_path / "nowhere")])
    except SystemExit as stop:
        assert stop.code == 2
    assert "does not exist" in capsys.readouterr().err


def _lay(sheet: np.ndarray, picture: np.ndarray, centre: tuple[float, float], angle: float):
    """A cut-out BGRA piece laid on the printed sheet, centred, turned `angle` degrees."""
    h, w = picture.shape[:2]
    turned = cv2.warpAffine(picture, cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0), (w, h))
    alpha = turned[..., 3:4] / 255.0
    y, x = round(centre[1] - h / 2), round(centre[0] - w / 2)
    under = sheet[y : y + h, x : x + w]
    sheet[y : y + h, x : x + w] = (turned[..., :3] * alpha + under * (1 - alpha)).astype(np.uint8)


def test_the_printed_board_with_its_pieces_is_read_as_the_position() -> None:
    dpi = 60
    px = dpi / 25.4
    sheets = printing.sheets("ours", dpi)
    board = load()
    sheet = sheets["board.png"].copy()
    cut = round(printing._GAP_MM * px)
    for panel in board.panels:
        piece = sheets[f"panel-{panel.colour}.png"][cut:-cut, cut:-cut]
        slot = board.slots[panel.home]
        x, y = round((slot.x + art.PANEL_INSET_MM) * px), round((slot.y + art.PANEL_INSET_MM) * px)
        sheet[y : y + piece.shape[0], x : x + piece.shape[1]] = piece
    x, y = board.centre("D2", board.home)
    dx, dy = board.heading("D2", board.home)
    _lay(sheet, art.train("red", px), (x * px, y * px), float(np.degrees(np.arctan2(dx, -dy))))
    frame = cv2.copyMakeBorder(sheet, 150, 150, 150, 150, cv2.BORDER_CONSTANT, value=(90, 120, 150))
    seen = read_board(frame, board)
    assert seen.layout == board.home and not seen.unseen
    assert [(t.space, t.colour, t.facing) for t in seen.trains] == [("D2", "red", 1)]
