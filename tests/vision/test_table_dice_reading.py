"""How the table's dice reader makes one pip count of its two readers (the layout fit and
the learned count), and that looking for faint dice finds none where none lie."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.caboose import scenes as synthetic
from companion.games.caboose.session import SessionConfig
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.vision.dice import _agreed

UNSURE = SessionConfig().die_unsure_below  # a die read less surely is asked about


def _chances(face: int, sure: float) -> np.ndarray:
    """A learned count `sure` of `face`, the rest spread over the other counts and 0."""
    chances = np.full(7, (1.0 - sure) / 6)
    chances[face] = sure
    return chances


def _errors(best: int, error: float, others: float) -> np.ndarray:
    """A layout fit whose count `best` fits with `error`, every other count with `others`."""
    errors = np.full(6, others)
    errors[best - 1] = error
    return errors


def test_a_layout_that_fits_cleanly_is_believed_over_the_learned_count() -> None:
    # a drawn die: its layout fits all but exactly, the learned count says otherwise
    face, confidence = _agreed(_errors(4, 0.01, 1.0), _chances(2, 0.8))
    assert face == 4 and confidence >= UNSURE


def test_a_layout_that_fits_loosely_lets_the_learned_count_decide() -> None:
    # a real die (marbled, coloured pips): every layout fits about as badly
    face, confidence = _agreed(_errors(3, 0.9, 1.2), _chances(5, 0.9))
    assert face == 5 and confidence >= UNSURE


def test_two_readers_that_disagree_make_the_count_unsure_so_it_is_asked() -> None:
    face, confidence = _agreed(_errors(6, 0.1, 0.9), _chances(4, 0.5))
    assert face in (4, 6) and confidence < UNSURE


def test_no_layout_fitting_at_all_leaves_the_learned_count() -> None:
    face, confidence = _agreed(np.full(6, np.inf), _chances(6, 0.9))
    assert face == 6 and confidence >= UNSURE


@pytest.mark.parametrize("seed", [5001, 5002, 5003])
def test_faint_dice_are_not_made_of_wood_grain(seed: int) -> None:
    # the faint search looks at blobs only a little darker than the wood: with no die on
    # the table under the hard camera, none of them may become a die
    scene = synthetic.random_scene(seed, n_dice=0, loose_cards=1)
    frame = synthetic.render(scene, seed, synthetic.Camera.preset("hard"))
    assert observe(frame, VisionConfig.for_edition("rollecate")).dice == ()
