"""What a family prints is what the camera reads: `companion print GAME` writes a PDF whose
pages, rendered back to pixels, hold every piece at its true size where the layout says,
and every piece the camera knows is read back by the game's own recognition (the card
catalogue for the Caboose design, the wheel-dice reader, the caboose finder, Yardmaster's
card reader, the switching reader on the board assembled from its parts, the marker
detector); each page's ruler measures 10 cm."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from companion.app import cli, printing
from companion.games import game
from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_caboose
from companion.games.caboose.vision import card_art, catalogue
from companion.games.caboose.vision.caboose_token import find_caboose
from companion.games.printables import Piece
from companion.games.switching import art as switching_art
from companion.games.switching.board import load as load_board
from companion.games.switching.vision.reader import APRON_MM, read_board
from companion.games.yardmaster import cards as yard_cards
from companion.games.yardmaster import edition as yard_edition
from companion.games.yardmaster import words as yard_words
from companion.games.yardmaster.view import condition_words
from companion.games.yardmaster.vision import reader as yard_reader
from companion.vision import dice, markers
from companion.vision.dice_art import DIE_MM

DRAWN_DPI = 100  # the pictures' resolution: a modest one keeps the test quick
PX_PER_MM = 4.0  # the pages are rendered at the dice reader's own scale (101.6 dpi)
TABLE = (90, 120, 150)  # BGR: a wooden table the pieces are laid on


def _printed(tmp_path: Path, game_id: str, *options: str) -> tuple[list, list[np.ndarray]]:
    """`companion print GAME` written and rendered: the layout's pages and each page's
    pixels (BGR at PX_PER_MM). The images in the PDF lie exactly where the layout placed
    them, at their size: each piece's true size on paper."""
    out = tmp_path / f"{game_id}.pdf"
    assert cli.main(["print", game_id, str(out), "--dpi", str(DRAWN_DPI), *options]) == 0
    edition = options[options.index("--edition") + 1] if "--edition" in options else None
    printables = game(game_id).printables
    edition = edition or (printables.editions[0] if printables.editions else None)
    groups = printables.groups(edition, DRAWN_DPI / 25.4, "en")
    paper = printing.PAPERS["letter" if "letter" in options else "a4"]
    pages = printing.lay_out(groups, paper)
    document = pdfium.PdfDocument(out)
    assert len(document) == len(pages)
    rendered = []
    for page, laid in zip(document, pages, strict=True):
        width, height = page.get_size()
        assert (width, height) == pytest.approx(tuple(mm / 25.4 * 72 for mm in paper), abs=0.01)
        images = list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
        assert {tuple(image.get_filters()) for image in images} <= {("FlateDecode",)}  # lossless
        boxes = sorted(tuple(round(v / 72 * 25.4, 2) for v in i.get_bounds()) for i in images)
        wanted = sorted(
            (round(p.x, 2), round(paper[1] - p.y - p.height, 2), round(p.x + p.width, 2),
             round(paper[1] - p.y, 2))
            for p in laid.placed
        )  # fmt: skip
        # left, bottom, right, top in mm, to a fiftieth of a millimetre
        assert np.abs(np.subtract(boxes, wanted)).max(initial=0.0) <= 0.02
        pixels = np.asarray(page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"))
        rendered.append(np.ascontiguousarray(pixels[..., ::-1]))
        _assert_the_ruler_measures_10_cm(rendered[-1], paper)
    return pages, rendered


def _assert_the_ruler_measures_10_cm(page: np.ndarray, paper: tuple[float, float]) -> None:
    x, y = printing.ruler_at(paper)
    row = page[round((y + printing.RULER_BAR_MM / 2) * PX_PER_MM), :, :].min(axis=1) < 128
    start = int(np.argmax(row))
    length = int(np.argmin(row[start:]))  # the bar: dark from its start to its end
    assert start == pytest.approx(x * PX_PER_MM, abs=1.5)
    assert length / PX_PER_MM == pytest.approx(printing.RULER_MM, abs=0.5)


def _cut_out(page: np.ndarray, placed: printing.Placed) -> np.ndarray:
    """A placed piece cut out of its rendered page along its cut line."""
    x0, y0 = round(placed.x * PX_PER_MM), round(placed.y * PX_PER_MM)
    x1 = round((placed.x + placed.width) * PX_PER_MM)
    y1 = round((placed.y + placed.height) * PX_PER_MM)
    return page[y0:y1, x0:x1]


def _laid(page_pieces, kinds: set[str] | None = None) -> list[tuple[Piece, np.ndarray]]:
    """Every placed piece (of a group whose pieces' codes are among `kinds`) with its
    cut-out."""
    return [
        (placed.piece, _cut_out(pixels, placed))
        for laid, pixels in page_pieces
        for placed in laid.placed
        if kinds is None or placed.piece.code in kinds
    ]


def _on_table(piece: np.ndarray, side_px: int) -> np.ndarray:
    """A cut-out laid in the middle of a square of table `side_px` wide."""
    table = np.full((side_px, side_px, 3), TABLE, np.uint8)
    y, x = (side_px - piece.shape[0]) // 2, (side_px - piece.shape[1]) // 2
    table[y : y + piece.shape[0], x : x + piece.shape[1]] = piece
    return table


def _assert_the_markers_read_at_true_size(page: np.ndarray) -> None:
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
    assert sorted(np.asarray(ids).ravel().tolist()) == [0, 1, 2, 3]
    for quad in corners:
        side_px = np.linalg.norm(np.diff(quad.reshape(4, 2), axis=0), axis=1).mean()
        assert side_px / PX_PER_MM == pytest.approx(50.0, abs=0.5)


def _caboose_edition_reads_back(tmp_path: Path, edition_id: str) -> None:
    edition = load_caboose(edition_id)
    pages, rendered = _printed(tmp_path, "caboose", "--edition", edition_id)
    _assert_the_markers_read_at_true_size(rendered[0])
    laid = list(zip(pages, rendered, strict=True))
    deck = _laid(laid, set(edition.deck))
    faces = catalogue.ours(tuple(edition.card_mm))
    read = [faces.match(cut) for _, cut in deck]
    assert [(m.code, m.turned) for m in read] == [(p.code, False) for p, _ in deck]
    assert min(m.confidence for m in read) > 0.5
    assert Counter(m.code for m in read) == Counter(edition.deck)  # each as often as the box
    die_side = dice.CROP_SIDE
    wheels = [(p, cut) for p, cut in _laid(laid, {"0", "1", "2"}) if p.size_mm[0] == DIE_MM]
    for piece, cut in wheels:
        look = dice.look_in(_on_table(cut, die_side), (0.0, 0.0), False)
        assert look is not None and look.reading.kind == dice.WHEELS
        assert look.reading.face == int(piece.code)
    assert Counter(int(p.code) for p, _ in wheels) == Counter(edition.die_faces * 4)
    [(_, disc)] = _laid(laid, {"caboose"})
    side = round(60 * PX_PER_MM)
    centre = find_caboose(_on_table(disc, side), PX_PER_MM)
    assert centre == pytest.approx((30.0, 30.0), abs=1.0)
    assert disc.shape[0] / PX_PER_MM == pytest.approx(card_art.CABOOSE_MM, abs=0.5)


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_each_caboose_deck_its_dice_and_disc_read_back_as_printed(
    tmp_path: Path, edition_id: str, capsys
) -> None:
    _caboose_edition_reads_back(tmp_path, edition_id)
    assert "print at 100 % (actual size)" in capsys.readouterr().out


def test_companion_markers_writes_its_pdf_as_companion_print_does(tmp_path: Path) -> None:
    out = tmp_path / "markers.pdf"
    assert markers.main([str(out), "--dpi", "100"]) == 0
    document = pdfium.PdfDocument(out)
    assert len(document) == 1
    assert document[0].get_size() == pytest.approx((595.28, 841.89), abs=0.01)  # A4 in points
    page = np.asarray(document[0].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"))
    _assert_the_markers_read_at_true_size(np.ascontiguousarray(page[..., ::-1]))
    _assert_the_ruler_measures_10_cm(page, printing.PAPERS["a4"])


def test_the_yardmaster_deck_reads_back_as_printed(tmp_path: Path) -> None:
    edition = yard_edition.load()
    pages, rendered = _printed(tmp_path, "yardmaster-express", "--paper", "letter")
    _assert_the_markers_read_at_true_size(rendered[0])
    codes = {*edition.deck, yard_cards.ENGINE, yard_cards.FACE_DOWN}
    laid = _laid(list(zip(pages, rendered, strict=True)), codes)
    # the cards laid on a table apart, seen from above at the reader's 1 px/mm
    across, pitch = 10, (75, 55)
    rows = -(-len(laid) // across)
    top = np.full((rows * pitch[1] + 20, across * pitch[0] + 20, 3), TABLE, np.uint8)
    for index, (_, cut) in enumerate(laid):
        small = cv2.resize(cut, (63, 41), interpolation=cv2.INTER_AREA)
        x, y = 10 + (index % across) * pitch[0], 10 + (index // across) * pitch[1]
        top[y : y + 41, x : x + 63] = small
    found = yard_reader._our_cards(top, yard_reader.ReaderConfig(), None)  # seen from above
    seen = {}
    for read in found:
        x, y = read.pose.x, read.pose.y
        seen[(round((x - 10 - 31.5) / pitch[0]), round((y - 10 - 20.5) / pitch[1]))] = read.printed
    wanted = {(i % across, i // across): piece.code for i, (piece, _) in enumerate(laid)}
    assert seen == wanted
    assert Counter(wanted.values()) == Counter(
        {**Counter(edition.deck), "E": edition.players[1], "W": len(edition.deck)}
    )


def test_the_switching_board_assembled_from_its_parts_reads_back(tmp_path: Path) -> None:
    board = load_board()
    pages, rendered = _printed(tmp_path, "switching")
    # the table's markers too: `companion check` finds the table, and room for the dice
    # beside the board, by them
    _assert_the_markers_read_at_true_size(rendered[0])
    laid = list(zip(pages, rendered, strict=True))
    width, height = (round(mm * PX_PER_MM) for mm in board.size)
    apron = round(APRON_MM * PX_PER_MM)
    frame = np.full((height + 2 * apron, width + 2 * apron, 3), TABLE, np.uint8)
    parts = [(p, pixels) for laid_page, pixels in laid for p in laid_page.placed if p.part]
    assert sorted(p.name for p, _ in parts) == [f"{r}{c}" for r in "ABC" for c in "1234"]
    for placed, pixels in parts:  # laid edge to edge as their names say
        x0, y0 = (round(v * PX_PER_MM) + apron for v in placed.part[:2])
        cut = _cut_out(pixels, placed)
        frame[y0 : y0 + cut.shape[0], x0 : x0 + cut.shape[1]] = cut
    colours = {panel.colour for panel in board.panels}
    panels = {p.code: cut for p, cut in _laid(laid, colours) if p.size_mm[0] > DIE_MM}
    for panel in board.panels:  # each panel cut out and laid in its home slot
        cut = panels[panel.colour]
        slot = board.slots[panel.home]
        x0 = round((slot.x + switching_art.PANEL_INSET_MM) * PX_PER_MM) + apron
        y0 = round((slot.y + switching_art.PANEL_INSET_MM) * PX_PER_MM) + apron
        frame[y0 : y0 + cut.shape[0], x0 : x0 + cut.shape[1]] = cut
    trains = _laid(laid, {"red", "blue", "yellow", "green"})
    assert Counter(p.code for p, _ in trains) == Counter(
        {"red": 3, "blue": 3, "yellow": 3, "green": 3}
    )
    spaces = ("A2", "B2", "C2", "D2")
    for (_, cut), space in zip(trains[::3], spaces, strict=True):
        _stand(frame, cut, board, space, apron)
    faces = [(p, cut) for p, cut in _laid(laid) if p.size_mm == (DIE_MM, DIE_MM)]
    assert sorted(p.code for p, _ in faces) == sorted([panel.colour for panel in board.panels] * 2)
    for copies, read in ((trains, trains[::3]), (faces, faces[::2])):
        for piece, cut in copies:  # every copy printed as the one of its colour that is read
            [twin] = [c for p, c in read if p.code == piece.code]
            # alike but for where a page's pixels fall on its edges
            assert np.abs(cut.astype(int) - twin).mean() < 3
    for piece, cut in faces[::2]:  # each colour's face, thrown beside the board
        thrown = frame.copy()
        x0 = apron + width // 2 - cut.shape[1] // 2
        y0 = apron + height + round(30 * PX_PER_MM)
        thrown[y0 : y0 + cut.shape[0], x0 : x0 + cut.shape[1]] = cut
        seen = read_board(thrown, board)
        assert seen.layout == board.home and not seen.unseen
        assert sorted((t.space, t.colour, t.facing) for t in seen.trains) == [
            (space, piece_.code, 1) for (piece_, _), space in zip(trains[::3], spaces, strict=True)
        ]
        assert seen.dice.colour == piece.code


def _stand(frame: np.ndarray, cut: np.ndarray, board, space: str, apron: int) -> None:
    """A train cut out along its outline (the paper round it left) and stood on `space`,
    nose towards its chain's front."""
    x, y = board.centre(space, board.home)
    dx, dy = board.heading(space, board.home)
    angle = float(np.degrees(np.arctan2(dx, -dy)))
    h, w = cut.shape[:2]
    outline = (cut.min(axis=2) < 235).astype(np.uint8) * 255
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    side = round(max(w, h) * 1.5)
    turn[:, 2] += (side - w) / 2, (side - h) / 2
    turned = cv2.warpAffine(cut, turn, (side, side))
    alpha = cv2.warpAffine(outline, turn, (side, side))[..., None] / 255.0
    x0 = round(x * PX_PER_MM) + apron - side // 2
    y0 = round(y * PX_PER_MM) + apron - side // 2
    under = frame[y0 : y0 + side, x0 : x0 + side]
    frame[y0 : y0 + side, x0 : x0 + side] = (turned * alpha + under * (1 - alpha)).astype(np.uint8)


def test_the_pages_say_in_spanish_what_they_hold_and_the_caboose_cards_in_words(
    tmp_path: Path,
) -> None:
    out = tmp_path / "yardmaster.pdf"
    assert cli.main(["print", "yardmaster-express", str(out), "--lang", "es", "--dpi", "100"]) == 0
    document = pdfium.PdfDocument(out)
    said = [page.get_textpage().get_text_range() for page in document]
    assert all("Imprime al 100 % (tamaño real)" in text for text in said)
    assert all("Esta barra mide 10 cm" in text for text in said)
    assert "Marcadores de la mesa" in said[0] and "0: arriba a la izquierda" in said[0]
    # the caboose cards and the start player's token (which no camera reads), in words
    extras = " ".join(" ".join(said[-2:]).split())
    edition = yard_edition.load()
    for card in edition.cabooses:
        assert yard_words.caboose_name(card.name, "es") in extras
        assert condition_words(edition, card.condition, "es") in extras
    assert "Jugador" in extras and "inicial" in extras


def test_a_game_with_nothing_to_print_and_a_wrong_edition_are_refused_in_one_line(
    tmp_path: Path, capsys
) -> None:
    out = str(tmp_path / "x.pdf")
    assert cli.main(["print", "caboose", out, "--edition", "no-such"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "has no edition 'no-such'" in said and "rollecate" in said
    assert cli.main(["print", "switching", out, "--edition", "ours"]) == 2
    assert "has no editions: leave --edition out" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
    with pytest.raises(SystemExit) as stop:
        cli.main(["print", "caboose", str(tmp_path / "nowhere" / "x.pdf")])
    assert stop.value.code == 2 and "create it first" in capsys.readouterr().err
