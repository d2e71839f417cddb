"""Yardmaster Express in our design, to print (`companion print yardmaster`): the table
markers, the railcar cards (each once, as the box has them), an engine for each seat, a
back for every railcar card (a card laid face down shows it), the caboose cards and the
start player's token. The cards the camera reads (art.py) are drawn by the code the
synthetic table draws with; the caboose cards and the token, which the camera never
reads, are framed unlike a card (no dark frame: nothing the reader could take for one)
and carry their words, printed in the chosen language."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.printables import Group, Piece, Printables, with_outline
from companion.games.yardmaster import art, cards
from companion.games.yardmaster.edition import EDITIONS
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.view import condition_words
from companion.games.yardmaster.words import caboose_name
from companion.vision import markers
from companion.vision.dice_art import rounded_rect

TOKEN_MM = 30.0  # the start player's token: a disc that a hand finds on the table
_EDGE = (150, 150, 150)  # a caboose card's and the token's rim: grey, no reader's ink

_WORDS = {
    "en": {
        "railcars": "Railcar cards: {n} cards. Glue each on card, with a back (on the pages "
        "of backs) on its other side.",
        "engines": "Engines: one for each player ({n}).",
        "backs": "Card backs: glue one on the back of each railcar card.",
        "extras": "Caboose cards and the start player's token.",
        "points": "{n} points",
        "start": ("Start", "player"),
    },
    "es": {
        "railcars": "Cartas de vagón: {n} cartas. Pega cada una sobre cartulina, con un "
        "reverso (en las páginas de reversos) por detrás.",
        "engines": "Locomotoras: una para cada jugador ({n}).",
        "backs": "Reversos: pega uno detrás de cada carta de vagón.",
        "extras": "Cartas de furgón de cola y la ficha de jugador inicial.",
        "points": "{n} puntos",
        "start": ("Jugador", "inicial"),
    },
}


def groups(edition_id: str | None, px_per_mm: float, lang: str) -> list[Group]:
    """The markers, the edition's railcar cards, its engines and backs, its caboose cards
    and the start player's token, pictures at `px_per_mm`."""
    edition = load_edition(edition_id or EDITIONS[0])
    words = _WORDS[lang]

    def card(code: str, count: int = 1) -> Piece:
        return Piece(code, with_outline(art.draw_card(code, px_per_mm)), art.CARD_MM, count)

    seats = edition.players[1]
    cabooses = tuple(
        Piece(
            "",
            _plain(art.CARD_MM, px_per_mm),
            art.CARD_MM,
            lines=(
                caboose_name(c.name, lang),
                words["points"].format(n=c.points),
                condition_words(edition, c.condition, lang),
            ),
        )
        for c in edition.cabooses
    )
    token = Piece("", _plain((TOKEN_MM, TOKEN_MM), px_per_mm, disc=True), (TOKEN_MM, TOKEN_MM),
                  lines=words["start"])  # fmt: skip
    return [
        markers.group(px_per_mm, lang),
        Group(words["railcars"].format(n=len(edition.deck)), tuple(map(card, edition.deck))),
        Group(words["engines"].format(n=seats), (card(cards.ENGINE, seats),)),
        Group(words["backs"], (card(cards.FACE_DOWN, len(edition.deck)),)),
        Group(words["extras"], (*cabooses, token)),
    ]


def _plain(size_mm: tuple[float, float], px_per_mm: float, disc: bool = False) -> np.ndarray:
    """A blank piece of paper with a grey rim, for words (BGRA: its outline in alpha)."""
    width, height = round(size_mm[0] * px_per_mm), round(size_mm[1] * px_per_mm)
    image = np.full((height, width, 3), art.PAPER, np.uint8)
    rim = max(1, round(1.0 * px_per_mm))
    if disc:
        mask = np.zeros((height, width), np.uint8)
        centre, radius = (width // 2, height // 2), min(width, height) // 2
        cv2.circle(mask, centre, radius, 255, -1, cv2.LINE_AA)
        cv2.circle(image, centre, radius - rim, _EDGE, rim, cv2.LINE_AA)
    else:
        mask = rounded_rect((height, width), round(art.CORNER_MM * px_per_mm))
        cv2.rectangle(image, (rim, rim), (width - 1 - rim, height - 1 - rim), _EDGE, rim)
    return np.dstack([image, mask])


PRINTABLES = Printables(editions=EDITIONS, groups=groups)
