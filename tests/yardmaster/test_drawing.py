"""Yardmaster Express's camera picture (`Camera.draw`): every card outlined where it lies,
named in the page's words, and a card not read surely in the unsure colour."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.games.yardmaster import art
from companion.games.yardmaster.drawing import _name
from companion.games.yardmaster.edition import load
from companion.vision.annotate import READ, UNSURE
from tests.pictures import filmed, near

SEED = 3  # a table whose every card the reader reads


@pytest.fixture(scope="module")
def table():
    return filmed("yardmaster-express", SEED)


def test_every_card_is_outlined_where_it_lies(table):
    drawn = table.drawn()
    cards = [card for card in table.scene.cards if card.size == art.CARD_MM]
    assert len(cards) > 10
    for card in cards:
        for middle in table.sides(card):
            assert near(drawn, middle, READ, 4) > 0, f"no outline at {middle} of {card.pose}"
            assert near(table.frame, middle, READ, 4) == 0


def test_a_card_not_read_surely_is_in_the_unsure_colour(table):
    yard = table.reading.yard
    train = yard.trains[0]
    doubtful = replace(train.cards[1], sure=False)
    trains = (replace(train, cards=(train.cards[0], doubtful, *train.cards[2:])), *yard.trains[1:])
    unsure = table.reading._replace(yard=replace(yard, trains=trains))
    card = min(
        table.scene.cards, key=lambda c: np.hypot(*np.subtract(c.pose[:2], doubtful.pose[:2]))
    )
    middles = table.sides(card)
    assert all(near(table.drawn(reading=unsure), m, UNSURE, 4) > 0 for m in middles)
    assert all(near(table.drawn(), m, UNSURE, 4) == 0 for m in middles)


def test_cards_are_named_in_the_pages_words():
    edition = load()
    assert _name(edition, "R1-B3", "en") == "R1 · B3"
    assert _name(edition, "R1-B3", "es") == "R1 · Az3"
    assert _name(edition, "E", "es") == "locomotora"
    assert _name(edition, "W", "es") == "boca abajo"
    assert _name(edition, "?", "en") == "?"
