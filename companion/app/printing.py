"""`companion print GAME [--edition E] [--paper a4|letter] OUT.pdf`: everything a game's
camera knows as ours, as a PDF to print at true size.

A game declares its pieces (`Game.printables`, companion/games/printables.py); this module
lays them out for any game: each group on pages of its own, the pieces in rows side by
side, a thin grey cut line round each (one cut parts two neighbours, and an A4 page holds
nine poker-sized cards), a header in words saying what the page holds, and at the foot of
every page a 10 cm ruler, so that anyone can check with a ruler of their own that the
printer did not scale the page ("actual size", never "fit to page"). A piece larger than
the page (the switching board) is tiled over several pages, each part named (A1, A2, ...:
rows by letters, columns by numbers) with marks on its edges saying which part joins
there, so the parts are cut, laid edge to edge and taped behind.

The layout is pure (`lay_out`: pages of placed pieces in millimetres); `write_pdf` draws it
with fpdf2, a well-kept pure-Python PDF library: pictures embedded losslessly (Flate, as
PNG is), each distinct picture stored once however many times it is printed; the cut
lines, ruler and words as vector lines and text, sharp at any resolution.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fpdf import FPDF
from PIL import Image

from companion.arguments import CommandLine
from companion.games.printables import DPI, MM_PER_INCH, Group, Piece, on_paper

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
SIDE_MM = 10.0  # round the page: what most printers leave unprinted, and a little more
HEADER_MM = 15.5  # the top band: the page's header
FOOTER_MM = 17.0  # the bottom band: the ruler and what it is for
CAPTION_MM = 5.0  # under a piece with a caption, and round a part for its joins
HEADING_MM = 8.0  # a group's title over its pieces, when it begins under another's: 2 lines
RULER_MM = 100.0
RULER_BAR_MM = 1.0  # the ruler's bar: its length is what a person (and a test) measures
CUT_GREY = 150  # the cut lines' grey: seen, yet lighter than any piece's frame

WORDS = {
    "en": {
        "page": "page {n} of {total}",
        "actual_size": "Print at 100 % (actual size), never 'fit to page'. Cut along the grey "
        "lines.",
        "ruler": "This bar is 10 cm long: if your ruler says otherwise, the printer scaled "
        "the page. Print it again at 100 %.",
        "part": "{title}: part {name} of {rows} x {columns}. Lay the parts edge to edge as "
        "the words and marks beside their edges say, and tape them behind.",
        "joins": "joins {name}",
        "wrote": "wrote {path}: {pages} pages of {paper} ({what}); print at 100 % (actual "
        "size), never 'fit to page'",
    },
    "es": {
        "page": "página {n} de {total}",
        "actual_size": "Imprime al 100 % (tamaño real), nunca 'ajustar a la página'. Recorta "
        "por las líneas grises.",
        "ruler": "Esta barra mide 10 cm: si tu regla dice otra cosa, la impresora cambió la "
        "escala. Vuelve a imprimir al 100 %.",
        "part": "{title}: parte {name} de {rows} x {columns}. Junta las partes borde con "
        "borde como dicen las palabras y marcas junto a sus bordes, y pégalas por detrás con "
        "cinta.",
        "joins": "se une a {name}",
        "wrote": "escrito {path}: {pages} páginas {paper} ({what}); imprime al 100 % "
        "(tamaño real), nunca 'ajustar a la página'",
    },
}


@dataclass(frozen=True)
class Placed:
    """A piece (or a part of one, `part`: x0, y0, x1, y1 in mm of the piece) at x, y mm
    from the page's top left, `width` x `height` mm. A part has its `name` (A1) and the
    names of the parts its edges join (`joins`: side -> name, sides top right bottom
    left)."""

    piece: Piece
    x: float
    y: float
    width: float
    height: float
    part: tuple[float, float, float, float] | None = None
    name: str = ""
    joins: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Page:
    """One page: its header (words: what its first group is), what lies on it, and the
    title of each further group that begins on it, with the height (mm from the page's
    top) of the line it is printed on, above that group's pieces."""

    title: str
    placed: tuple[Placed, ...]
    headings: tuple[tuple[float, str], ...] = ()


def area(paper: tuple[float, float]) -> tuple[float, float, float, float]:
    """The part of a page pieces lie in: left, top, right, bottom in mm."""
    width, height = paper
    return SIDE_MM, HEADER_MM, width - SIDE_MM, height - FOOTER_MM


def ruler_at(paper: tuple[float, float]) -> tuple[float, float]:
    """The top left corner (mm) of the ruler's bar on every page."""
    return SIDE_MM, paper[1] - FOOTER_MM + 7.0


def lay_out(groups: Sequence[Group], paper: tuple[float, float], lang: str = "en") -> list[Page]:
    """Every group's pieces, each as many times as its count, on pages of `paper` (mm):
    in rows from the top left, a group beginning under the last one's pieces, below its
    own title, when the page has room for its first row (a few dice need no page of their
    own); a piece larger than the page in parts over pages of their own."""
    pages: list[Page] = []
    for group in groups:
        copies = [p for p in group.pieces for _ in range(p.count)]
        pages += _parts(group.title, [p for p in copies if not _fits(p, paper)], paper, lang)
        fitting = [p for p in copies if _fits(p, paper)]
        if fitting:
            pages = _rows(group.title, fitting, paper, pages)
    return pages


def _tall(piece: Piece) -> float:
    """The height a piece takes on a page: its own and its caption's."""
    return piece.size_mm[1] + (CAPTION_MM if piece.caption else 0.0)


def _fits(piece: Piece, paper: tuple[float, float]) -> bool:
    left, top, right, bottom = area(paper)
    return piece.size_mm[0] <= right - left and _tall(piece) <= bottom - top


def _rows(
    title: str, pieces: list[Piece], paper: tuple[float, float], pages: list[Page]
) -> list[Page]:
    """`pages` and the pieces after them in rows, left to right and top to bottom: on the
    last page under its pieces if it has room for the title and the first row (never on
    a page of a piece's part), then on new pages."""
    left, top, right, bottom = area(paper)
    placed: list[Placed] = []
    headings: list[tuple[float, str]] = []
    header, y = title, top
    last = pages[-1] if pages else None
    if last is not None and all(p.part is None for p in last.placed):
        below = max(p.y + _tall(p.piece) for p in last.placed) + 1.0
        if below + HEADING_MM + _tall(pieces[0]) <= bottom:
            pages = pages[:-1]
            placed, header = list(last.placed), last.title
            headings = [*last.headings, (below, title)]
            y = below + HEADING_MM
    x, row = left, 0.0
    for piece in pieces:
        width, height = piece.size_mm
        if x + width > right + 1e-6:  # the next row
            x, y, row = left, y + row, 0.0
        if y + _tall(piece) > bottom + 1e-6:  # the next page
            pages = [*pages, Page(header, tuple(placed), tuple(headings))]
            placed, headings, header = [], [], title
            x, y, row = left, top, 0.0
        placed.append(Placed(piece, x, y, width, height))
        x += width
        row = max(row, _tall(piece))
    return [*pages, Page(header, tuple(placed), tuple(headings))]


def _parts(
    title: str, pieces: list[Piece], paper: tuple[float, float], lang: str
) -> Iterator[Page]:
    """Each piece too large for a page cut into equal parts that fit, one a page, named by
    row letter and column number."""
    left, top, right, bottom = area(paper)
    room = (right - left, bottom - top - 2 * CAPTION_MM)  # bands above and below name joins
    for piece in pieces:
        width, height = piece.size_mm
        columns, rows = math.ceil(width / room[0]), math.ceil(height / room[1])
        part_w, part_h = width / columns, height / rows

        def name(row: int, column: int) -> str:
            return f"{chr(ord('A') + row)}{column + 1}"

        for row in range(rows):
            for column in range(columns):
                joins = {
                    side: name(row + dr, column + dc)
                    for side, dr, dc in (
                        ("top", -1, 0),
                        ("right", 0, 1),
                        ("bottom", 1, 0),
                        ("left", 0, -1),
                    )
                    if 0 <= row + dr < rows and 0 <= column + dc < columns
                }
                part = (column * part_w, row * part_h, (column + 1) * part_w, (row + 1) * part_h)
                words = WORDS[lang]["part"].format(
                    title=title, name=name(row, column), rows=rows, columns=columns
                )
                placed = Placed(piece, left + (room[0] - part_w) / 2, top + CAPTION_MM,
                                part_w, part_h, part, name(row, column), joins)  # fmt: skip
                yield Page(words, (placed,))


def write_pdf(
    pages: Sequence[Page], paper: tuple[float, float], path: Path, heading: str, lang: str = "en"
) -> None:
    """The pages as a PDF of `paper` (mm) at `path`, `heading` (the game, the edition)
    atop every page. OSError if it cannot be written."""
    words = WORDS[lang]
    pdf = FPDF(unit="mm", format=paper)
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_title(_latin(heading))
    pdf.set_creator("Caboose Companion")
    images: dict[tuple[int, tuple[float, ...] | None], Image.Image] = {}
    for number, page in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_text_color(0)
        pdf.set_font("helvetica", "B", 11)
        pdf.text(SIDE_MM, 7.5, _latin(heading))
        pdf.set_font("helvetica", "", 8)
        total = words["page"].format(n=number, total=len(pages))
        pdf.text(paper[0] - SIDE_MM - pdf.get_string_width(_latin(total)), 7.5, _latin(total))
        pdf.set_xy(SIDE_MM, 8.5)
        pdf.set_font("helvetica", "", 7.5)
        pdf.multi_cell(paper[0] - 2 * SIDE_MM, 3.2, _latin(f"{page.title} {words['actual_size']}"))
        pdf.set_font("helvetica", "B", 8)
        for y, heading_words in page.headings:
            pdf.set_xy(SIDE_MM, y)
            pdf.multi_cell(paper[0] - 2 * SIDE_MM, 3.2, _latin(heading_words))
        for placed in page.placed:
            key = (id(placed.piece), placed.part)
            if key not in images:
                images[key] = _image(placed)
            pdf.image(images[key], x=placed.x, y=placed.y, w=placed.width, h=placed.height)
            _cut_line(pdf, placed)
            _words_on(pdf, placed, words)
        _ruler(pdf, paper, words)
    path.write_bytes(bytes(pdf.output()))


def _latin(text: str) -> str:
    """Text the PDF's built-in fonts can set (Latin-1: English and Spanish)."""
    return text.encode("latin-1", "replace").decode("latin-1")


def _image(placed: Placed) -> Image.Image:
    """The placed piece's picture (or its part: cut before it is put on paper, so a board
    is never copied whole) on white paper, as an RGB PIL image."""
    picture = placed.piece.picture
    if placed.part is not None:
        height, width = picture.shape[:2]
        sx, sy = width / placed.piece.size_mm[0], height / placed.piece.size_mm[1]
        x0, y0, x1, y1 = placed.part
        picture = picture[round(y0 * sy) : round(y1 * sy), round(x0 * sx) : round(x1 * sx)]
    return Image.fromarray(np.ascontiguousarray(on_paper(picture)[..., ::-1]))


def _cut_line(pdf: FPDF, placed: Placed) -> None:
    """The grey line round a piece; on a part, its name above it, and on each edge that
    joins another part two black triangles pointing at the edge from outside (at a
    quarter and three quarters of it, where the neighbour's own point from its side): the
    marks are cut away with the paper round the part, and leave nothing on the board the
    camera could take for a piece."""
    pdf.set_draw_color(CUT_GREY)
    pdf.set_line_width(0.2)
    pdf.rect(placed.x, placed.y, placed.width, placed.height)
    if placed.part is None:
        return
    pdf.set_fill_color(0)
    x0, y0 = placed.x, placed.y
    x1, y1 = placed.x + placed.width, placed.y + placed.height
    for side in placed.joins:
        for share in (0.25, 0.75):
            if side in ("top", "bottom"):
                x, y = x0 + share * placed.width, y0 if side == "top" else y1
                back = y - 3.0 if side == "top" else y + 3.0
                corners = ((x - 2.0, back), (x + 2.0, back), (x, y))
            else:
                x, y = x0 if side == "left" else x1, y0 + share * placed.height
                back = x - 3.0 if side == "left" else x + 3.0
                corners = ((back, y - 2.0), (back, y + 2.0), (x, y))
            pdf.polygon(corners, style="F")
    pdf.set_text_color(0)
    pdf.set_font("helvetica", "B", 12)
    pdf.text(x0, y0 - 1.0, placed.name)  # above the part: its art is the camera's


def _words_on(pdf: FPDF, placed: Placed, words: dict[str, str]) -> None:
    """A piece's caption under it and its lines on it; a part's joins beside its edges."""
    piece = placed.piece
    pdf.set_text_color(0)
    if piece.caption and placed.part is None:
        pdf.set_font("helvetica", "", 8)
        pdf.text(placed.x, placed.y + placed.height + 3.5, _latin(piece.caption))
    if piece.lines and placed.part is None:
        pdf.set_font("helvetica", "B", 8)
        text, width = _latin("\n".join(piece.lines)), placed.width - 10.0
        tall = pdf.multi_cell(width, 3.6, text, dry_run=True, output="HEIGHT")
        pdf.set_xy(placed.x + 5.0, placed.y + (placed.height - tall) / 2)  # in the middle
        pdf.multi_cell(width, 3.6, text, align="C")
    if placed.part is not None:
        pdf.set_font("helvetica", "", 7)
        x0, y0 = placed.x, placed.y
        x1, y1 = placed.x + placed.width, placed.y + placed.height
        for side, neighbour in placed.joins.items():
            text = _latin(words["joins"].format(name=neighbour))
            half = pdf.get_string_width(text) / 2
            if side == "top":
                pdf.text((x0 + x1) / 2 - half, y0 - 1.0, text)
            elif side == "bottom":
                pdf.text((x0 + x1) / 2 - half, y1 + 3.0, text)
            else:
                # turned a quarter round, its letters towards the page's left
                x = x0 - 1.0 if side == "left" else x1 + 3.5
                with pdf.rotation(90, x, (y0 + y1) / 2):
                    pdf.text(x - half, (y0 + y1) / 2, text)


def _ruler(pdf: FPDF, paper: tuple[float, float], words: dict[str, str]) -> None:
    """The 10 cm ruler: a black bar with a tick at every millimetre, longer at 5 and 10."""
    x, y = ruler_at(paper)
    pdf.set_fill_color(0)
    pdf.rect(x, y, RULER_MM, RULER_BAR_MM, style="F")
    pdf.set_draw_color(0)
    pdf.set_line_width(0.15)
    for mm in range(0, int(RULER_MM) + 1):
        tall = 3.0 if mm % 10 == 0 else 2.0 if mm % 5 == 0 else 1.0
        pdf.line(x + mm, y, x + mm, y - tall)
    pdf.set_font("helvetica", "", 7)
    for cm in range(0, 11):
        label = str(cm)
        pdf.text(x + cm * 10 - pdf.get_string_width(label) / 2, y - 3.6, label)
    pdf.set_xy(x + RULER_MM + 4.0, y - 4.0)
    pdf.multi_cell(paper[0] - 2 * SIDE_MM - RULER_MM - 4.0, 3.0, _latin(words["ruler"]))


def main(argv: list[str] | None = None) -> int:
    # Imported here: the registry loads every game, which `--help` of other commands skips.
    from companion.games import game, games, offering

    known = tuple(games())
    parser = CommandLine(
        prog="companion print",
        description="Write a PDF of everything the camera knows as a game's own pieces, at "
        "true size: the table markers, the cards of the chosen edition (each as many times "
        "as the box has it), our dice's faces, tokens, the switching board (in parts over "
        "several sheets, with marks saying how they join), its panels and trains. Every "
        "page has cut lines and a 10 cm ruler to check the printer's scale: print at 100 % "
        "(actual size), never 'fit to page'.",
        epilog="Games with something to print: " + ", ".join(offering("printables")) + ".",
    )
    parser.add_argument("game", choices=known, metavar="GAME", help=f"one of {', '.join(known)}")
    parser.add_argument("out", type=Path, metavar="OUT.pdf", help="the PDF file to write")
    editions = "; ".join(
        f"{g.id}: {', '.join(g.printables.editions)}"
        for g in games().values()
        if g.printables is not None and g.printables.editions
    )
    parser.add_argument(
        "--edition",
        help=f"the edition whose pieces to print, for a game with editions (default its "
        f"first): {editions}",
    )
    parser.add_argument("--paper", choices=tuple(PAPERS), default="a4", help="default a4")
    parser.add_argument(
        "--lang", choices=("en", "es"), default="en", help="the language of the pages' words"
    )
    parser.add_argument(
        "--dpi", type=int, default=DPI, help=f"the pictures' resolution, 100-600 (default {DPI})"
    )
    args = parser.parse_args(argv)
    chosen = game(args.game)
    printables = chosen.printables
    if printables is None:
        others = " or ".join(offering("printables")) or "none here"
        print(f"companion print: {chosen.name} offers no print: use companion print {others}",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.edition is not None and args.edition not in printables.editions:
        if printables.editions:
            known_editions = ", ".join(printables.editions)
            print(f"companion print: {chosen.name} has no edition {args.edition!r}: give one "
                  f"of {known_editions}", file=sys.stderr)  # fmt: skip
        else:
            print(f"companion print: {chosen.name} has no editions: leave --edition out",
                  file=sys.stderr)  # fmt: skip
        return 2
    if args.out.suffix.lower() != ".pdf":
        parser.error(f"{args.out} must end in .pdf")
    if not 100 <= args.dpi <= 600:
        parser.error("--dpi must be between 100 and 600")
    if not args.out.parent.is_dir():
        parser.error(f"there is no folder {args.out.parent}: create it first")
    edition = args.edition or (printables.editions[0] if printables.editions else None)
    paper = PAPERS[args.paper]
    groups = printables.groups(edition, args.dpi / MM_PER_INCH, args.lang)
    pages = lay_out(groups, paper, args.lang)
    named = {option.id: option.name for option in chosen.options}
    heading = chosen.name
    if edition is not None and named.get(edition, edition) != chosen.name:
        heading = f"{chosen.name}: {named.get(edition, edition)}"
    try:
        write_pdf(pages, paper, args.out, heading, args.lang)
    except OSError as error:
        print(f"companion print: cannot write {args.out}: {error.strerror or error}",
              file=sys.stderr)  # fmt: skip
        return 2
    what = ", ".join(group.title.split(":")[0].rstrip(".") for group in groups)
    print(WORDS[args.lang]["wrote"].format(path=args.out, pages=len(pages),
                                           paper=args.paper.upper(), what=what))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
