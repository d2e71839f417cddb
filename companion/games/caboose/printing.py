"""The Caboose design's pieces to print (`companion print caboose --edition E`): the table
markers, the chosen edition's deck in our design (each card as many times as the box has
it, at the edition's card size), the faces of the four wheel dice (stuck on blank dice)
and the caboose disc: everything the camera reads as ours (vision/card_art.py,
companion/vision/dice_art.py), drawn by the same code the synthetic table draws with."""

from __future__ import annotations

from collections import Counter

from companion.games.caboose.rules.edition import EDITIONS
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.vision import card_art
from companion.games.printables import Group, Piece, Printables, with_outline
from companion.vision import dice_art, markers

DICE = 4  # every edition's box holds four wheel dice (each rulebook's contents)

_WORDS = {
    "en": {
        "cards": "Track cards of {edition}: {n} cards. Glue each on card, or print on card.",
        "dice": "Wheel dice and caboose: stick six faces on each of {dice} blank 16 mm dice, "
        "each die {faces}; the red disc is the caboose.",
        "wheels": ("{n} blank", "{n} with one wheel", "{n} with two wheels"),
    },
    "es": {
        "cards": "Cartas de vía de {edition}: {n} cartas. Pega cada una sobre cartulina, o "
        "imprime en cartulina.",
        "dice": "Dados de ruedas y furgón: pega seis caras sobre cada uno de {dice} dados lisos "
        "de 16 mm, cada dado {faces}; el disco rojo es el furgón.",
        "wheels": ("{n} en blanco", "{n} con una rueda", "{n} con dos ruedas"),
    },
}


def groups(edition_id: str | None, px_per_mm: float, lang: str) -> list[Group]:
    """The markers, the deck of `edition_id` (the first edition if None), the dice's faces
    and the caboose, pictures at `px_per_mm`."""
    edition = load_edition(edition_id or EDITIONS[0])
    words = _WORDS[lang]
    card_mm = tuple(edition.card_mm)
    deck = tuple(
        Piece(code, with_outline(card_art.draw_card(code, px_per_mm, card_mm)), card_mm, count)
        for code, count in Counter(edition.deck).items()
    )
    die_mm = (dice_art.DIE_MM, dice_art.DIE_MM)
    faces = tuple(
        Piece(str(face), with_outline(dice_art.draw_wheel_die(face, px_per_mm)), die_mm)
        for face in edition.die_faces
    )
    caboose_mm = (card_art.CABOOSE_MM, card_art.CABOOSE_MM)
    caboose = Piece("caboose", with_outline(card_art.draw_caboose(px_per_mm)), caboose_mm)
    return [
        markers.group(px_per_mm, lang),
        Group(words["cards"].format(edition=edition.name, n=len(edition.deck)), deck),
        Group(
            words["dice"].format(dice=DICE, faces=_faces(edition.die_faces, lang)),
            faces * DICE + (caboose,),
        ),
    ]


def _faces(die_faces: tuple[int, ...], lang: str) -> str:
    """What one die's faces show, in words: "2 blank, 2 with one wheel, 2 with two"."""
    counts = Counter(die_faces)
    return ", ".join(
        _WORDS[lang]["wheels"][wheels].format(n=counts[wheels]) for wheels in sorted(counts)
    )


PRINTABLES = Printables(editions=EDITIONS, groups=groups)
