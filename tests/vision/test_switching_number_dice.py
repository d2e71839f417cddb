"""The switching game's second look at an asked white number die (switching/vision/
number_dice.py): a blurred template of each face fitted at the die's measured outline."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.switching.vision.number_dice import face_fits
from companion.vision.dice import CROP_PX_PER_MM, CROP_SIDE
from companion.vision.dice_art import DIE_MM, draw_pip_die


def _crop(face: int, turn: float, blur_mm: float, colour: str = "white") -> tuple:
    """A die of `face` drawn at CROP_PX_PER_MM on a wooden brown, turned `turn` degrees and
    blurred by `blur_mm`, in the middle of a reader's crop, with its outline's rectangle."""
    die, mask = draw_pip_die(face, CROP_PX_PER_MM, colour)
    crop = np.full((CROP_SIDE, CROP_SIDE, 3), (60, 100, 140), np.uint8)
    at = (CROP_SIDE - die.shape[0]) // 2
    window = crop[at : at + die.shape[0], at : at + die.shape[1]]
    window[mask > 127] = die[mask > 127]
    centre = (CROP_SIDE / 2 - 0.5, CROP_SIDE / 2 - 0.5)
    turned = cv2.getRotationMatrix2D(centre, -turn, 1.0)
    crop = cv2.warpAffine(crop, turned, crop.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    crop = cv2.GaussianBlur(crop, (0, 0), blur_mm * CROP_PX_PER_MM)
    side = DIE_MM * CROP_PX_PER_MM
    return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (centre, (side, side), turn)


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize(("turn", "blur_mm"), [(0.0, 0.5), (30.0, 1.5), (65.0, 2.0)])
def test_a_blurred_white_die_s_face_explains_it_best(face, turn, blur_mm):
    grey, rect = _crop(face, turn, blur_mm)
    fits = face_fits(grey, rect)
    assert int(np.argmax(fits)) + 1 == face
    assert fits.max() >= 0.85


def test_a_die_whose_pips_are_lighter_than_its_body_is_no_face_it_knows():
    grey, rect = _crop(5, 20.0, 1.0, colour="blue")
    assert face_fits(grey, rect).max() == 0.0


def test_a_far_blurred_six_the_learned_count_agrees_on_is_read():
    """Tuning table 2003 of the stand-in box, hard camera: a far 6 (0.64 px/mm), its pips
    blurred into two dark streaks, fits the picture of a 6 only 0.76, far better than any
    other face, and the learned count takes it for a 6 at 0.89: it is read, not asked."""
    from companion.games.switching.vision import eval_vision
    from companion.synthetic import Camera, render
    from companion.vision.dice import PIPS

    table, read = eval_vision.reader_of("printed")
    truth = table(2003)
    seen, _ = read(render(truth.scene, 2003, Camera.preset("hard")), None)
    thrown = sorted(die.face for die in truth.scene.dice if die.kind == PIPS)
    assert thrown == [1, 6]
    assert sorted(die.face for die in seen.dice.pips) == thrown
