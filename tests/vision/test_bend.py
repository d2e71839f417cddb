"""A card that does not lie flat, measured from its printed frame (companion/vision/bend.py)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.pose import Pose
from companion.vision.bend import bend_size, bent_crop, flatten, frame_bend, frame_edges

CARD_MM, FRAME_MM = (63.0, 88.0), (55.0, 80.0)  # a frame inset 4 mm, 3 mm wide


def _bowed_card(bow: float) -> np.ndarray:
    """A top-down grey image (1 px/mm) of a card on a dark table, centred at (100, 100),
    its middle seen `bow` mm to the right of its ends (a parabola along its length)."""
    s = 4  # drawn finer, then shrunk: edges as a camera blurs them
    flat = np.full((200 * s, 200 * s), 70, np.uint8)
    half = np.array(CARD_MM) / 2
    cv2.rectangle(
        flat, tuple(((100 - half) * s).astype(int)), tuple(((100 + half) * s).astype(int)), 230, -1
    )
    for inset in range(4 * s, 7 * s):  # the dark frame, 3 mm wide
        lo, hi = (100 - half) * s + inset, (100 + half) * s - inset
        cv2.rectangle(flat, tuple(lo.astype(int)), tuple(hi.astype(int)), 40, 1)
    flat = cv2.resize(flat, (200, 200), interpolation=cv2.INTER_AREA)
    x, y = np.meshgrid(np.arange(200, dtype=np.float32), np.arange(200, dtype=np.float32))
    along = np.clip((y - 100) / 40, -1, 1)
    return cv2.remap(flat, x - bow * (1 - along * along), y, cv2.INTER_LINEAR)


def test_a_bowed_frame_is_measured_and_laid_flat_again() -> None:
    image = _bowed_card(2.0)
    pose = Pose(100.0, 100.0, 0.0)
    bend = frame_bend(image, pose, FRAME_MM, None)
    assert bend is not None
    middle, end = bend(np.array([0.0, 0.0]), np.array([0.0, 36.0]))[0]
    assert abs(middle - 2.0) < 0.6 and abs(end - 2.0 * (1 - 0.9**2)) < 0.6
    flat = frame_bend(_bowed_card(0.0), pose, FRAME_MM, None)
    assert flat is not None and bend_size(flat, FRAME_MM) < 0.8  # a flat card is flat
    laid = image.copy()
    flatten(laid, pose, CARD_MM, bend)
    again = frame_bend(laid, pose, FRAME_MM, None)
    assert again is not None and bend_size(again, FRAME_MM) < bend_size(bend, FRAME_MM) / 2


def test_a_card_tried_laid_flat_in_place_is_put_back_pixel_for_pixel() -> None:
    """The Caboose reader tries a curled card laid flat in the table's own top-down image
    and keeps the image as it lay when that reads no better (it copied the whole table
    for each try before): what `flatten` gives back puts every pixel back, and the card
    laid flat in place is the card laid flat in a copy."""
    image = cv2.cvtColor(_bowed_card(2.0), cv2.COLOR_GRAY2BGR)
    image[::7, ::5] = (10, 200, 90)  # colour, so that every channel must come back
    pose = Pose(100.0, 100.0, 3.0)
    bend = frame_bend(image, pose, FRAME_MM, None)
    assert bend is not None
    as_it_lay, in_a_copy = image.copy(), image.copy()
    flatten(in_a_copy, pose, CARD_MM, bend)
    undo = flatten(image, pose, CARD_MM, bend)
    assert np.array_equal(image, in_a_copy) and not np.array_equal(image, as_it_lay)
    undo()
    assert np.array_equal(image, as_it_lay)
    off = flatten(image, Pose(-80.0, -80.0, 0.0), CARD_MM, bend)  # wholly off the image
    off()
    assert np.array_equal(image, as_it_lay)


def test_a_bent_card_cut_out_again_a_little_moved_works_its_bend_out_once() -> None:
    """Yardmaster's reader cuts an unsure bent card out 74 times a little moved and turned
    (a hard table's frame spent most of its time so): where the bend shows each pixel is
    the same wherever the card lies, so it is worked out once, and each crop is what it
    was when it was worked out every time."""
    image = cv2.cvtColor(_bowed_card(2.0), cv2.COLOR_GRAY2BGR)
    bend = frame_bend(image, Pose(100.0, 100.0, 0.0), FRAME_MM, None)
    assert bend is not None
    calls = []

    def counted(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(x.shape)
        return bend(x, y)

    poses = [
        Pose(100.0 + dx, 100.0 - dx, turn) for dx in (-1.5, 0.0, 1.5) for turn in (-1.5, 0, 1.5)
    ]
    crops = [bent_crop(image, pose, CARD_MM, counted, (60, 80)) for pose in poses]
    assert len(calls) == 1
    for pose, crop in zip(poses, crops, strict=True):  # as a crop of its own
        assert np.array_equal(
            crop, bent_crop(image, pose, CARD_MM, lambda x, y: bend(x, y), (60, 80))
        )


def test_a_frame_edge_is_found_by_its_ink_not_by_the_shadow_beside_a_shaded_margin() -> None:
    """A card's raised end turned from the lamp shades its own margin (117 grey levels
    where the next card's is 188): the next card's bright margin falls as many levels into
    the hair's shadow between the two cards (98) as the shaded margin falls into the frame
    (31), but by a far smaller share. The edge is the frame's (24-28 mm from the middle,
    where a flat card's lies at 28.5), not the shadow's (31.5); a Yardmaster card on hard table 12
    was lost so, its two edges found 6 mm more than its frame apart."""
    # across one card at 2 px/mm: table, frame, the card's print, frame, shaded margin,
    # the shadow between two cards, the next card's lit margin (measured on that table)
    right = [126, 125, 117, 106, 87, 68, 50, 36, 31, 32, 44, 60, 80, 99, 111, 117, 111, 104,
             98, 98, 114, 134, 161, 183, 188, 183, 159, 130, 97]  # fmt: skip
    left = [161, 183, 201, 211, 216, 214, 204, 182, 154, 119, 86, 62, 44, 41, 44, 57, 74, 101]
    profile = np.array(left + [130.0] * (142 - len(left) - len(right)) + right)
    near, far = frame_edges(profile, 28.5, 2.0, 3.5)
    assert 25.0 <= far <= 28.0  # on the frame's fall (24-28 mm), not the shadow's (31.5)
    assert abs((far - near) - 57.0) <= 2.0  # a frame's size apart: the card is found


def _evenly_lit_plainly(pixels: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`bend._evenly_lit` as it was written plainly (numpy's mean over the channels, the
    paper's rows taken by a boolean index): what the faster one must equal bit for bit."""
    grey = pixels.astype(np.float32)
    grey = grey.mean(axis=1) if grey.ndim == 2 else grey
    terms = np.stack([np.ones_like(x), x, y], 1)
    light = np.full_like(grey, float(np.median(grey)))
    for _ in range(3):
        ratio = grey / light
        paper = ratio >= np.median(ratio)
        fit, *_ = np.linalg.lstsq(terms[paper], grey[paper], rcond=None)
        light = np.maximum(terms @ fit, 1.0).astype(np.float32)
    scale = float(light.mean()) / light
    scale = scale[:, None] if pixels.ndim == 2 else scale
    return np.clip(pixels * scale, 0, 255).astype(pixels.dtype)


def test_a_card_is_lit_evenly_as_the_plain_formula_lights_it_bit_for_bit() -> None:
    """A curled card's light is evened with its channels' mean added one by one and the
    paper's rows gathered column by column (faster, on every card the Caboose reader lays
    flat): the same pixels as the plain formula's, on colour cards lit unevenly and on
    grey ones, for any brightness."""
    from companion.vision.bend import _evenly_lit

    rng = np.random.default_rng(245000)
    for trial in range(40):
        n = int(rng.integers(200, 6000))
        x, y = rng.uniform(-31.5, 31.5, n), rng.uniform(-44.0, 44.0, n)
        shade = 1.0 - 0.3 * (y + 44.0) / 88.0 * rng.uniform(0.0, 1.0)
        pixels = rng.integers(0, 256, (n, 3)) * shade[:, None] * rng.uniform(0.2, 1.0)
        pixels = pixels.clip(0, 255).astype(np.uint8)
        if trial % 4 == 3:
            pixels = pixels[:, 0].copy()  # a grey card
        assert np.array_equal(_evenly_lit(pixels, x, y), _evenly_lit_plainly(pixels, x, y))
