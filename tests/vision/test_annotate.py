"""The camera picture's letters (companion/vision/annotate.py): the page's Spanish words
written with OpenCV's ASCII-only font, each accent drawn over its letter and ¿ ¡ turned
upside down, never a letter lost or replaced by a question mark."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synthetic import camera as synthetic
from companion.synthetic.scene import Scene
from companion.vision.annotate import AREA, MARKER, UNSURE, Sketch, text_size, write
from companion.vision.calibrate import calibrate
from companion.vision.table import TableLayout
from tests.pictures import CAMERA, near

SCALE, LINE = 1.0, 2
SEED = 11


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


def test_the_tables_markers_and_area_are_drawn_where_they_lie():
    """Each marker outlined where it truly lies, in the markers' colour when the calibration
    saw it and in the unsure colour when not; the play area's sides in its own colour."""
    layout = TableLayout()
    frame = synthetic.render(Scene(layout=layout), SEED, CAMERA)
    calibration = calibrate(frame, layout)
    assert calibration is not None and len(calibration.markers) == 4
    sketch = Sketch(frame, calibration)
    sketch.table(layout, calibration.markers[1:], layout.play_area(), "es")  # the first hidden
    drawn = sketch.finish([])
    truth = synthetic.camera_view(SEED, CAMERA, layout)
    for number, corners in layout.marker_corners().items():
        colour = UNSURE if number == calibration.markers[0] else MARKER
        middles = truth.to_pixels((corners + np.roll(corners, -1, axis=0)) / 2)
        assert all(near(drawn, middle, colour, 3) > 0 for middle in middles), number
    left, top, right, bottom = layout.play_area()
    sides = [((left + right) / 2, bottom), (left, (top + bottom) / 2), (right, (top + bottom) / 2)]
    assert all(near(drawn, point, AREA, 3) > 0 for point in truth.to_pixels(np.array(sides)))
    assert np.array_equal(frame, synthetic.render(Scene(layout=layout), SEED, CAMERA))
