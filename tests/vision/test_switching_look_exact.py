"""The switching reader's colours, dice masks and washed-out glare are made through
shortcuts (session 24: a cut-out converted as one long row, the saturation's floor or'ed
in, a taught die's hue taken from the conversion already made, the dice's masks made only
in their bands, the clipped white only round the reflection): each must give the very
values the plain formulas give, bit for bit, or a train, a panel or a die could be read
otherwise. Checked on hard tables' own images (our board, a lamp on every table) and on
random cut-outs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.switching import scenes, standin
from companion.games.switching.board import load
from companion.games.switching.vision import reader
from companion.synthetic import Camera, render
from companion.vision.calibrate import calibrate, top_down
from companion.vision.frame_checks import clipped_white, glare_mask

_SEEDS = (2000, 2001, 2002)


def _plain_look(light: reader.Light, bgr: np.ndarray) -> tuple[np.ndarray, ...]:
    """`Light.look` as written before the shortcuts: the cut-out as it lies, numpy's masked
    assignment."""
    hsv = cv2.cvtColor(cv2.LUT(bgr, light.balance), cv2.COLOR_BGR2HSV)
    hue, saturation, value = cv2.split(hsv)
    classes = cv2.LUT(hue, light.pieces.classes)
    classes[saturation < round(reader._COLOURFUL * 255)] = reader._NONE
    return classes, value, saturation


def _plain_die(light: reader.Light, half: np.ndarray) -> np.ndarray:
    """`Light._die_colours` as written before: a taught die's hue converted again."""
    classes, _, saturation = light.half
    trains = len(reader._TRAIN_NAMES)
    if light.pieces.dice is None:
        panel = (classes >= trains) & (classes != reader._NONE)
        return np.where(panel, classes - trains, reader._NONE).astype(np.uint8)
    hue = cv2.cvtColor(cv2.LUT(half, light.balance), cv2.COLOR_BGR2HSV)[..., 0]
    die = cv2.LUT(hue, light.pieces.dice)
    die[(saturation < round(reader._COLOURFUL * 255)) | (classes < trains)] = reader._NONE
    return die


def _plain_band(board, shape: tuple[int, ...]) -> np.ndarray:
    """`dice_band` as written before: OpenCV's filled rectangles."""
    k = reader.HALF_PX_PER_MM
    width, height = board.size
    a, (near, far), c = reader.APRON_MM, reader._DICE_BAND_MM, reader._DICE_CORNER_MM
    band = np.zeros(shape[:2], np.uint8)
    for x0, y0, x1, y1 in (
        (a - far, a + c, a - near, a + height - c),
        (a + width + near, a + c, a + width + far, a + height - c),
        (a + c, a - far, a + width - c, a - near),
        (a + c, a + height + near, a + width - c, a + height + far),
    ):
        cv2.rectangle(band, (round(x0 * k), round(y0 * k)), (round(x1 * k), round(y1 * k)), 1, -1)
    return band


def _plain_die_masks(board, light: reader.Light) -> tuple[np.ndarray, np.ndarray]:
    """`_dice`'s masks as written before: over the whole image, then cut to the band."""
    band = _plain_band(board, light.level.shape)
    _, value, saturation = light.half
    white = (light.white_saturation < reader._DIE_WHITE[1] * 255) & (
        value >= reader._DIE_WHITE[0] * light.level
    )
    die = light.die
    colourful = (saturation >= reader._DIE_COLOURFUL * 255) & (die != reader._NONE)
    orange = reader._PANEL_NAMES.index("orange")
    colourful &= (die != orange) | (saturation >= reader.ORANGE_DIE * 255)
    return white & (band > 0), (white | colourful) & (band > 0)


def _same(got: tuple[np.ndarray, ...], want: tuple[np.ndarray, ...]) -> bool:
    return len(got) == len(want) and all(
        g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
        for g, w in zip(got, want, strict=True)
    )


@pytest.fixture(scope="module")
def tables() -> list[tuple[np.ndarray, reader.Light, np.ndarray, object]]:
    """Hard tables of our board, a lamp on every one: each frame, its light, its small
    top-down image and its calibration."""
    board = load()
    found = []
    for seed in _SEEDS:
        frame = render(scenes.random_table(seed).scene, seed, Camera.preset("hard", glare=0.03))
        calibration = calibrate(frame, reader.reading_layout(board))
        assert calibration is not None
        half = top_down(frame, calibration, reader.reading_layout(board), reader.HALF_PX_PER_MM)
        found.append((frame, reader.Light(half, board), half, calibration))
    return found


def test_a_cut_out_looks_as_the_plain_formula_says(tables) -> None:
    """The small image, the slots' and the spaces' stacked cut-outs (28 px wide), and
    random ones (odd shapes, a view that is not contiguous), every pixel the same."""
    rng = np.random.default_rng(24)
    for frame, light, half, _ in tables:
        assert _same(light.half, _plain_look(light, half))
        assert _same(light.look(half), _plain_look(light, half))
        for rows, columns in ((3420, 28), (640, 160), (7, 3), (1, 1)):
            cut = rng.integers(0, 256, (rows, columns, 3), dtype=np.uint8)
            assert _same(light.look(cut), _plain_look(light, cut))
        view = frame[100:400:2, 50:300]
        assert _same(light.look(view), _plain_look(light, view))


def test_a_taught_die_is_told_by_the_hue_of_the_one_conversion(tables) -> None:
    """A colour die taught (`Pieces.dice`) and ours (the panels' colours): the same
    colour die classes as converting the small image again."""
    board = load()
    taught_die = reader.hue_classes(np.array([3, 20, 60, 100, 130, 160]))
    for _, ours, half, _ in tables:
        assert np.array_equal(ours.die, _plain_die(ours, half))
        pieces = reader.Pieces(reader.OURS.classes, dice=taught_die)
        light = reader.Light(half, board, pieces)
        assert (light.die != reader._NONE).any()
        assert np.array_equal(light.die, _plain_die(light, half))


def test_the_dice_masks_are_the_whole_images_within_the_bands(tables) -> None:
    """The bands as OpenCV filled them (our board, the stand-in's, small odd images too),
    and the dice's masks made in them as over the whole image, cut to the bands."""
    boards = (load(), standin.random_table(0).board)
    for board in boards:
        for shape in ((460, 460), (431, 481, 3), (120, 90), (30, 500)):
            assert np.array_equal(reader.dice_band(board, shape), _plain_band(board, shape))
    board = load()
    for _, light, _, _ in tables:
        white, spots = reader.die_masks(board, light)
        assert spots.any()
        assert _same((white, spots), _plain_die_masks(board, light))


def test_the_washed_out_mask_is_the_whole_frames(tables) -> None:
    """What a reflection clipped white, widened, made only round it: the same mask as
    over the whole frame, a reflection at the frame's edge too."""
    board = load()
    for frame, _, _, calibration in tables:
        glare = glare_mask(frame)
        assert glare is not None
        centre = (board.size[0] / 2 + reader.APRON_MM, board.size[1] / 2 + reader.APRON_MM)
        reach = 2 * round(reader._WASHED_MM * calibration.px_per_mm(centre)) + 1
        ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
        # the halo as the reader gets it, one moved to the frame's corner, and one no wider
        # than what clipped (the widening reaches past its box)
        moved = np.roll(glare, (-glare.shape[0] // 2, glare.shape[1] // 2), (0, 1))
        for lamp in (glare, moved, cv2.bitwise_and(clipped_white(frame), glare)):
            washed = reader._washed_out(frame, lamp, calibration, board)
            plain = cv2.dilate(cv2.bitwise_and(clipped_white(frame), lamp), ellipse)
            assert np.array_equal(washed, plain)
        assert reader._washed_out(frame, glare, calibration, board).any()
