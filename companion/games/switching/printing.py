"""Our switching-track board and pieces to print (`companion print switching`): what a
family needs to play at a real table the camera reads: the four table markers (the board
is read by its own, but `companion check` finds the table, and room for the dice beside the
board, by the table's), the board with its own corner
markers (700 x 700 mm for ours: in parts over sheets, with marks saying how they join),
the three panels (cut out along their edges and glued on card), the twelve trains (cut out
and stood on their spaces, or glued on the box's trains), the colour die's six faces
(stuck on a blank die; the two number dice are any white pip dice) and a key naming every
space and showing Start, Finish and the dead ends (the printed board has no words: the
camera reads it by its geometry). The pictures are art.py's, which the synthetic table
draws with."""

from __future__ import annotations

from companion.games.printables import Group, Piece, Printables
from companion.games.switching import art, rules
from companion.games.switching.board import draw, load
from companion.vision import markers
from companion.vision.dice_art import DIE_MM

# The board is drawn no finer than this: flat colours and shapes of 16 mm and more, which
# the camera sees at 1-2 px/mm; at 300 dpi its 700 mm would be 8000 pixels a side.
BOARD_PX_PER_MM = 4.0
KEY_MM = 180.0  # the key's width on paper: a schematic, not to scale

_WORDS = {
    "en": {
        "board": "The board",
        "panels": "Panels: cut each out along its edge and glue it on card; it lies in a slot "
        "of the board.",
        "trains": "Trains: three of each player's colour, cut out along their outline.",
        "die": "The colour die: stick the six faces on a blank 16 mm die.",
        "key": "Key: every space's name, Start, Finish and the dead ends (not to scale).",
    },
    "es": {
        "board": "El tablero",
        "panels": "Paneles: recorta cada uno por su borde y pégalo sobre cartulina; va en un "
        "hueco del tablero.",
        "trains": "Trenes: tres del color de cada jugador, recortados por su contorno.",
        "die": "El dado de colores: pega las seis caras sobre un dado liso de 16 mm.",
        "key": "Leyenda: el nombre de cada casilla, la salida, la meta y las vías muertas "
        "(sin escala).",
    },
}


def groups(edition_id: str | None, px_per_mm: float, lang: str) -> list[Group]:
    """The table markers, our board (this game has no editions: `edition_id` is None),
    its panels, the trains, the colour die's faces and the key, pictures at `px_per_mm`
    (the board no finer than BOARD_PX_PER_MM)."""
    del edition_id
    board = load()
    words = _WORDS[lang]
    picture = art.board_picture(board, min(px_per_mm, BOARD_PX_PER_MM))
    panels = []
    for panel in board.panels:
        drawn = art.panel_picture(board, panel.colour, px_per_mm)
        size = (drawn.shape[1] / px_per_mm, drawn.shape[0] / px_per_mm)
        panels.append(Piece(panel.colour, drawn, size))
    train_mm = art.TRAIN_MM
    trains = tuple(
        Piece(colour, art.train(colour, px_per_mm), train_mm, rules.TRAINS)
        for colour in rules.COLOURS
    )
    faces = tuple(
        Piece(panel.colour, art.colour_die(panel.colour, px_per_mm), (DIE_MM, DIE_MM), 2)
        for panel in board.panels
    )
    key = draw(board)
    key_mm = (KEY_MM, KEY_MM * key.shape[0] / key.shape[1])
    return [
        markers.group(px_per_mm, lang),
        Group(words["board"], (Piece("board", picture, board.size),)),
        Group(words["panels"], tuple(panels)),
        Group(words["trains"], trains),
        Group(words["die"], faces),
        Group(words["key"], (Piece("", key, key_mm),)),
    ]


PRINTABLES = Printables(editions=(), groups=groups)
