"""`companion markers OUT.png|OUT.pdf [--dpi 300]`: the printable A4 sheet of table markers.

The sheet holds the four ArUco markers (DICT_4X4_50, ids 0-3) at their true size
(`TableLayout.marker_mm`), each with its id and a 10 mm scale bar printed beside it, so that
a player can check with a ruler that the printer did not scale the page. Cut them out and
lay them at the table's corners: 0 top left, 1 top right, 2 bottom right, 3 bottom left as
the camera sees it, then measure where they ended up into the table configuration.

PNG carries its resolution in a pHYs chunk (written here, since OpenCV does not), so image
viewers and print dialogs print it at true size. PDF is laid out as `companion print` lays
every game's pieces (companion/app/printing.py: cut lines, a 10 cm ruler), from `group`,
which each game's printable pieces begin with when its camera reads the table markers.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

from companion.arguments import CommandLine
from companion.games.printables import Group, Piece
from companion.vision.table import TableLayout

A4_MM = (210.0, 297.0)
_MM_PER_INCH = 25.4
CORNERS = ("top left", "top right", "bottom right", "bottom left")  # ids 0-3, as the camera sees
QUIET_MM = 8.0  # white paper round a marker when cut out: the detector needs it
_WORDS = {
    "en": {
        "title": "Table markers: lay each at its corner of the table as the camera sees it, "
        "its number upright.",
        "corners": CORNERS,
    },
    "es": {
        "title": "Marcadores de la mesa: pon cada uno en su esquina de la mesa tal como la ve "
        "la cámara, con su número derecho.",
        "corners": (
            "arriba a la izquierda",
            "arriba a la derecha",
            "abajo a la derecha",
            "abajo a la izquierda",
        ),
    },
}


def marker(marker_id: int, px_per_mm: float, layout: TableLayout | None = None) -> np.ndarray:
    """One table marker at `layout.marker_mm` with QUIET_MM of white round it (grey)."""
    layout = layout or TableLayout()
    side = round(layout.marker_mm * px_per_mm)
    quiet = round(QUIET_MM * px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    drawn = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    return cv2.copyMakeBorder(drawn, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)


def group(px_per_mm: float, lang: str = "en", layout: TableLayout | None = None) -> Group:
    """The four table markers as printable pieces, each captioned with its corner."""
    layout = layout or TableLayout()
    side = layout.marker_mm + 2 * QUIET_MM
    words = _WORDS[lang]
    pieces = tuple(
        Piece(
            str(marker_id),
            marker(marker_id, px_per_mm, layout),
            (side, side),
            caption=f"{marker_id}: {words['corners'][marker_id]}",
        )
        for marker_id in range(4)
    )
    return Group(words["title"], pieces)


def sheet(dpi: int = 300, layout: TableLayout | None = None) -> np.ndarray:
    """The A4 sheet as a grey image at `dpi`: four markers of `layout.marker_mm`."""
    layout = layout or TableLayout()
    px = dpi / _MM_PER_INCH
    width, height = round(A4_MM[0] * px), round(A4_MM[1] * px)
    page = np.full((height, width), 255, np.uint8)
    side = round(layout.marker_mm * px)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id in range(4):
        column, row = marker_id % 2, marker_id // 2
        x0 = round((25.0 + column * 95.0) * px)
        y0 = round((30.0 + row * 120.0) * px)
        page[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(
            dictionary, marker_id, side
        )
        text_y = y0 + side + round(8 * px)
        cv2.putText(page, f"{marker_id}: {CORNERS[marker_id]}", (x0, text_y),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * dpi / 300, 0, max(1, dpi // 150),
                    cv2.LINE_AA)  # fmt: skip
        bar_y = text_y + round(6 * px)
        cv2.rectangle(page, (x0, bar_y), (x0 + round(10 * px), bar_y + round(1.5 * px)), 0, -1)
        cv2.putText(page, "10 mm", (x0 + round(12 * px), bar_y + round(2 * px)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6 * dpi / 300, 0, max(1, dpi // 300),
                    cv2.LINE_AA)  # fmt: skip
    footer = f"Caboose Companion table markers: {layout.marker_mm:g} mm, print at actual size"
    cv2.putText(page, footer, (round(25 * px), round(280 * px)), cv2.FONT_HERSHEY_SIMPLEX,
                0.7 * dpi / 300, 0, max(1, dpi // 300), cv2.LINE_AA)  # fmt: skip
    return page


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png(path: Path, image: np.ndarray, dpi: int) -> None:
    """A PNG whose pHYs chunk states `dpi`, so it prints at true size."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"could not encode {path}")
    data = encoded.tobytes()
    per_metre = round(dpi / 0.0254)
    phys = _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    end_of_header = 8 + 25  # signature, then the IHDR chunk (13 bytes of data + 12)
    path.write_bytes(data[:end_of_header] + phys + data[end_of_header:])


def png_dpi(path: Path) -> float | None:
    """The resolution a PNG states (its pHYs chunk), or None."""
    data = path.read_bytes()
    at = data.find(b"pHYs")
    if at < 0:
        return None
    x_per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    return x_per_metre * 0.0254 if unit == 1 else None


def main(argv: list[str] | None = None) -> int:
    parser = CommandLine(
        prog="companion markers",
        description="Write the printable A4 sheet of the four table markers.",
    )
    parser.add_argument("out", type=Path, help="where to write it: a .png or .pdf file")
    parser.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")
    args = parser.parse_args(argv)
    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".pdf"):
        parser.error(f"{args.out} must end in .png or .pdf")
    if not 72 <= args.dpi <= 1200:
        parser.error("--dpi must be between 72 and 1200")
    if not args.out.parent.is_dir():
        parser.error(f"folder {args.out.parent} does not exist")
    marker_mm = TableLayout().marker_mm
    try:
        if suffix == ".png":
            page = sheet(args.dpi)
            write_png(args.out, page, args.dpi)
            size = f"{page.shape[1]}x{page.shape[0]} px"
        else:
            # the layout every game's pieces are printed with: a part of the application,
            # loaded (with the PDF library) only when a PDF is asked for
            from companion.app.printing import PAPERS, lay_out, write_pdf

            pages = lay_out([group(args.dpi / _MM_PER_INCH)], PAPERS["a4"])
            write_pdf(pages, PAPERS["a4"], args.out, "Caboose Companion")
            size = "cut lines and a 10 cm ruler"
    except OSError as error:
        print(f"cannot write {args.out}: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: A4 at {args.dpi} dpi ({size}), markers {marker_mm:g} mm; "
          "print at actual size (100%, no fit to page)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
