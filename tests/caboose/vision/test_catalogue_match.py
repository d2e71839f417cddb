"""Matching a card against the catalogue (catalogue.py) when part of it is hidden: what the
catalogue keeps of each pair of faces between cards must not carry one card's hidden part
over to the next card matched against the same pair."""

from __future__ import annotations

import numpy as np

from companion.games.caboose.vision import catalogue
from companion.games.caboose.vision.catalogue import TEMPLATE_PX


def _seen_cards() -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Each face of our design as a camera might show it (darker, a colour cast, noise, half
    of them turned half round), every other one with a die-sized disc of it hidden."""
    faces = catalogue.ours().images
    rng = np.random.default_rng(5)
    crops, hidden = [], []
    for index, face in enumerate(faces):
        seen = face.astype(np.float32) * (0.7, 0.8, 0.75) + rng.normal(0, 6, face.shape)
        seen = seen.clip(0, 255).astype(np.uint8)
        crops.append(seen if index % 2 else seen[::-1, ::-1].copy())
        mask = None
        if index % 2 == 0:
            mask = np.zeros((TEMPLATE_PX[1], TEMPLATE_PX[0]), np.uint8)
            yy, xx = np.mgrid[: TEMPLATE_PX[1], : TEMPLATE_PX[0]]
            centre = (rng.integers(8, TEMPLATE_PX[0] - 8), rng.integers(10, TEMPLATE_PX[1] - 10))
            mask[(xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= 49] = 1
        hidden.append(mask)
    return crops, hidden


def test_cards_hidden_in_part_match_the_same_whichever_were_matched_before() -> None:
    crops, hidden = _seen_cards()
    plain = [None] * len(crops)
    first_hidden = catalogue.ours.__wrapped__()  # a catalogue of its own, nothing kept yet
    a = first_hidden.match_all(crops, hidden)
    a_plain = first_hidden.match_all(crops, plain)
    first_plain = catalogue.ours.__wrapped__()
    b_plain = first_plain.match_all(crops, plain)
    b = first_plain.match_all(crops, hidden)
    assert a == b and a_plain == b_plain
    assert first_hidden.match_all(crops, hidden) == a  # and again, with every pair kept
    # the faces read right, the hidden ones too (a disc of 7 template pixels, about a die)
    codes = list(catalogue.ours().codes)
    assert [m.code for m in a] == codes
    assert [m.turned for m in a] == [i % 2 == 0 for i in range(len(codes))]
