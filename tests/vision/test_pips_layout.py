"""Small unit tests of the die-first reader's pieces: layout check, splitting, voting."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.dice_net import count_chances
from companion.vision.eval_dice import main
from companion.vision.pips import (
    _CELL_COUNTS,
    LAYOUT_TOL,
    LAYOUTS,
    _die_blobs,
    _die_mask,
    _grid_margins,
    _layout_error,
    read_pips,
)

SIDE = 48.0  # die side in pixels for the layout tests
OFFSET = 11.0  # corner pip offset per axis: 0.23 of the side, as on real dice


def placed(count: int, angle_deg: float = 0.0, jitter: float = 0.0) -> np.ndarray:
    """The standard layout of `count` pips, rotated, moved, and optionally jittered."""
    angle = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    points = np.array(LAYOUTS[count], float) @ rot.T * OFFSET + (200.0, 150.0)
    return points + np.random.default_rng(count).uniform(-jitter, jitter, points.shape)


@pytest.mark.parametrize("count", range(2, 7))
@pytest.mark.parametrize("angle", [0.0, 17.0, 45.0, 80.0])
def test_standard_layouts_fit_at_any_rotation(count: int, angle: float) -> None:
    assert _layout_error(placed(count, angle, jitter=1.0), SIDE) < LAYOUT_TOL


def test_wrong_shapes_do_not_fit() -> None:
    line_of_four = np.array([[0, 0], [10, 0], [20, 0], [30, 0]], float) + 100
    assert _layout_error(line_of_four, SIDE) > LAYOUT_TOL
    bent_three = np.array([[0, 0], [11, 11], [22, 0]], float) + 100  # a V, not a diagonal
    assert _layout_error(bent_three, SIDE) > LAYOUT_TOL
    five_without_centre_shift = placed(5)
    five_without_centre_shift[2] += (8.0, 0.0)  # centre pip far off centre
    assert _layout_error(five_without_centre_shift, SIDE) > LAYOUT_TOL


def test_pip_spacing_must_suit_the_die_size() -> None:
    assert _layout_error(placed(4), SIDE) < LAYOUT_TOL
    assert _layout_error(placed(4), 3 * SIDE) == float("inf")  # pips far too close for it
    assert _layout_error(placed(4), SIDE / 3) == float("inf")


def tray(width: int = 640, height: int = 480) -> np.ndarray:
    """A plain light-grey tray like the overhead photographs."""
    noise = np.random.default_rng(3).integers(-3, 4, (height, width, 3), dtype=np.int16)
    return np.clip(np.full((height, width, 3), 200, np.int16) + noise, 0, 255).astype(np.uint8)


def square_die(image: np.ndarray, centre: tuple[int, int], pips: int, body: tuple) -> None:
    """A 44 px die face with white pips, axis-aligned."""
    cx, cy = centre
    cv2.rectangle(image, (cx - 22, cy - 22), (cx + 22, cy + 22), body, -1)
    for dx, dy in LAYOUTS[pips]:
        cv2.circle(image, (cx + 11 * dx, cy + 11 * dy), 4, (250, 250, 250), -1, cv2.LINE_AA)


def test_touching_dice_are_cut_apart_and_read() -> None:
    image = tray()
    square_die(image, (300, 240), 3, (40, 40, 180))
    square_die(image, (345, 240), 5, (160, 60, 20))  # shares an edge with the first
    square_die(image, (150, 120), 2, (40, 140, 40))  # a lone die sets the typical size
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    assert len(_die_blobs(_die_mask(image, lab))) == 3
    dice = sorted(read_pips(image), key=lambda d: d.x)
    assert [d.pips for d in dice] == [2, 3, 5]
    assert abs(dice[1].x - 300) < 4 and abs(dice[2].x - 345) < 4


def test_dice_inside_a_tray_with_a_dark_rim_are_found() -> None:
    """A tray's dark rim is a closed ring in the die mask: filling every hole made the whole
    tray one blob, too big for a die, and the dice in it that stand out only from the tray
    (a blue or a purple die) were never found die-first (overhead-tray's photographs)."""
    image = tray()
    cv2.rectangle(image, (40, 30), (600, 450), (45, 40, 40), 14)  # the tray's wall
    square_die(image, (200, 200), 3, (150, 80, 30))
    square_die(image, (420, 280), 5, (110, 40, 90))
    square_die(image, (300, 120), 2, (40, 40, 180))
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    centres = sorted((x + part.shape[1] // 2, y + part.shape[0] // 2) for x, y, part, _ in
                     _die_blobs(_die_mask(image, lab)))  # fmt: skip
    assert len(centres) == 3 and all(
        abs(x - cx) <= 2 and abs(y - cy) <= 2
        for (x, y), (cx, cy) in zip(centres, [(200, 200), (300, 120), (420, 280)], strict=True)
    ), centres
    assert sorted((round(d.x), d.pips) for d in read_pips(image)) == [(200, 3), (300, 2), (420, 5)]


def test_blob_touching_the_frame_edge_is_not_read_die_first() -> None:
    image = tray()
    square_die(image, (15, 240), 4, (40, 40, 180))  # cut off by the left edge
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    assert _die_blobs(_die_mask(image, lab)) == []


def test_grid_margin_is_best_for_the_whole_layout_on_the_right_grid() -> None:
    five = np.array([0.0] * 9)
    five[[0, 2, 4, 6, 8]] = 50.0  # corners and centre stand out
    shifted = np.roll(five, 1)  # the same values on a grid off by one place
    margins, grid = _grid_margins(np.stack([shifted, five + 1.0]))
    best = int(np.argmax(margins))
    assert _CELL_COUNTS[best] == 5 and grid[best] == 1
    four = int(np.flatnonzero(_CELL_COUNTS == 4)[0])  # a subset of the 5 has the centre empty
    assert margins[four] <= 0 < margins[best]


# The counter is sure this drawn die, dark with quartered pips, showing 2, is no die at all,
# and a blob it is sure is no die is dropped (on the photographs that drops more false
# reports than it loses dice: RESULTS-pips.md). The 3, 4 and 6 are read since the counter
# scales a cut-out by the die's own colour, not the tray's.
NOT_A_DIE = pytest.mark.xfail(strict=True, reason="the counter sees no die (RESULTS-pips.md)")


@pytest.mark.parametrize("pips", [pytest.param(2, marks=NOT_A_DIE), 3, 4, 5, 6])
def test_pips_broken_into_pieces_are_read_by_the_grid(pips: int) -> None:
    """Dark-red pips cut into quarters (as a light rim or glare cuts them on translucent dice)
    make no round blob, so no layout is voted for; the grid still sees them."""
    image = tray()
    cx, cy = 300, 240
    cv2.rectangle(image, (cx - 18, cy - 18), (cx + 18, cy + 18), (45, 35, 35), -1)
    for dx, dy in LAYOUTS[pips]:
        px, py = cx + 10 * dx, cy + 10 * dy
        cv2.circle(image, (px, py), 4, (50, 50, 170), -1, cv2.LINE_AA)
        cv2.line(image, (px - 5, py), (px + 5, py), (45, 35, 35), 2)
        cv2.line(image, (px, py - 5), (px, py + 5), (45, 35, 35), 2)
    dice = read_pips(image)
    assert [d.pips for d in dice] == [pips]
    assert abs(dice[0].x - cx) < 4 and abs(dice[0].y - cy) < 4


def test_eval_cli_unreadable_image_is_exit_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    assert main([str(tmp_path)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    assert main([str(tmp_path), "--json"]) == 2
    assert "cannot read image" in capsys.readouterr().out


def test_learned_check_gives_chances_that_do_not_depend_on_the_rectangle_corner() -> None:
    image = tray()
    square_die(image, (300, 240), 5, (40, 40, 180))
    chances = count_chances(image, ((300.0, 240.0), (45.0, 45.0), 0.0))
    assert chances.shape == (7,) and abs(float(chances.sum()) - 1.0) < 1e-5
    assert int(np.argmax(chances)) == 5
    # The same square named from another corner is a quarter turn of the cut-out.
    turned = count_chances(image, ((300.0, 240.0), (45.0, 45.0), 90.0))
    assert np.allclose(chances, turned, atol=0.02)  # up to the resampling of the cut-out


def test_a_die_with_a_side_face_is_kept_for_the_learned_check_only() -> None:
    image = tray()
    square_die(image, (150, 120), 2, (40, 140, 40))  # a lone die sets the typical size
    square_die(image, (300, 240), 3, (40, 40, 180))
    cv2.rectangle(image, (278, 263), (322, 282), (30, 30, 120), -1)  # a side face below it
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    shaped = sorted((x, is_square) for x, _, _, is_square in _die_blobs(_die_mask(image, lab)))
    assert shaped == [(128, True), (278, False)]
