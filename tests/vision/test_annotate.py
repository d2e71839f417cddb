"""The camera picture's letters (companion/vision/annotate.py): the page's Spanish words
written with OpenCV's ASCII-only font, each accent drawn over its letter and ¿ ¡ turned
upside down, never a letter lost or replaced by a question mark."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.annotate import text_size, write

SCALE, LINE = 1.0, 2


def _written(text: str) -> np.ndarray:
    image = np.zeros((80, 260, 3), np.uint8)
    write(image, text, (10, 55), SCALE, (255, 255, 255), LINE)
    return image[..., 0] > 0


def _rows(mask: np.ndarray) -> np.ndarray:
    return np.nonzero(mask.any(axis=1))[0]


@pytest.mark.parametrize(
    "accented, plain", [("é", "e"), ("ñ", "n"), ("ú", "u"), ("Ú", "U"), ("ü", "u")]
)
def test_an_accent_is_drawn_over_its_letter(accented, plain):
    """The letter itself as it is, and the accent above it: ink higher than the letter's."""
    drawn, bare = _written(accented), _written(plain)
    assert (drawn & bare).sum() == bare.sum(), "the letter is all there"
    assert _rows(drawn).min() < _rows(bare).min(), "and something above it"
    assert text_size(accented, SCALE, LINE)[0] == text_size(plain, SCALE, LINE)[0]


@pytest.mark.parametrize("opening, closing", [("¿", "?"), ("¡", "!")])
def test_spanish_opening_marks_are_their_closing_ones_upside_down(opening, closing):
    drawn, upright = _written(opening), _written(closing)
    assert drawn.sum() > 0
    left = np.nonzero(upright.any(axis=0))[0]
    box = upright[_rows(upright).min() : _rows(upright).max() + 1, left.min() : left.max() + 1]
    turned = box[::-1, ::-1]
    height, width = turned.shape
    found = any(
        (drawn[y : y + height, x : x + width] == turned).mean() > 0.97
        for y in range(0, drawn.shape[0] - height)
        for x in range(0, drawn.shape[1] - width)
    )
    assert found


def test_a_spanish_sentence_keeps_every_letter():
    """Each letter takes its place: an accented word is as wide as the same word without."""
    assert text_size("¿Qué cámara?", SCALE, LINE)[0] == text_size("?Que camara?", SCALE, LINE)[0]
    assert text_size("furgón", SCALE, LINE)[0] == text_size("furgon", SCALE, LINE)[0]
