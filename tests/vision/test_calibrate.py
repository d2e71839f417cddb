"""Calibration: pixels to table millimetres from the four markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.caboose.scenes import random_scene, render
from companion.synthetic import Camera, camera_view
from companion.vision import calibrate as calibrate_module
from companion.vision.calibrate import _table_maps, calibrate, find_markers, top_down
from companion.vision.table import TableLayout

GRID = np.stack(np.meshgrid(np.linspace(80, 760, 9), np.linspace(80, 550, 7)), -1).reshape(-1, 2)


def _worst_error(camera: Camera, seed: int) -> float:
    """How far (mm) the calibration of a table filmed by `camera` puts the grid's points,
    at worst; every marker must be found."""
    scene = random_scene(seed, n_cards=5, n_dice=1)
    calibration = calibrate(render(scene, seed, camera))
    assert calibration is not None and calibration.markers == (0, 1, 2, 3)
    view = camera_view(seed, camera, scene.layout)
    return float(np.abs(calibration.to_table(view.to_pixels(GRID)) - GRID).max())


@pytest.mark.parametrize(("difficulty", "limit_mm"), [("easy", 0.8), ("hard", 2.5)])
def test_calibration_places_table_points_within_millimetres(
    difficulty: str, limit_mm: float
) -> None:
    camera = Camera.preset(difficulty)
    for seed in (1, 2, 3):
        error = _worst_error(camera, seed)
        assert error < limit_mm, f"seed {seed}: {error:.2f} mm"


def test_a_webcam_frame_places_table_points_as_well_as_the_default_camera() -> None:
    """A 1280x720 frame sees a 50 mm marker 22-35 pixels wide: its corners alone were up to
    3.5 px (4 mm of table) off, its whole pattern aligned is within a pixel."""
    camera = Camera.preset("hard", frame_size=(1280, 720))
    for seed in (7001, 7002, 7003):
        error = _worst_error(camera, seed)
        assert error < 2.0, f"seed {seed}: {error:.2f} mm"


def test_the_frame_density_is_pixels_per_table_millimetre() -> None:
    """Pixels per mm of table: what a camera's frame size and height come to."""
    scene = random_scene(4, n_cards=5, n_dice=1)
    for size in ((1456, 1088), (1280, 720)):
        camera = Camera.preset("easy", frame_size=size)
        view = camera_view(4, camera, scene.layout)
        marker = TableLayout().marker_corners()[0]
        across = np.linalg.norm(np.diff(view.to_pixels(marker), axis=0), axis=1).mean()
        density = calibrate(render(scene, 4, camera)).px_per_mm((420.0, 315.0))
        assert density == pytest.approx(across / 50.0, rel=0.1)
    assert 0.95 < density < 1.1  # a 720p frame that holds the whole table: about 1 px/mm


def test_top_down_shows_the_markers_where_the_layout_puts_them() -> None:
    scene = random_scene(4, n_cards=5, n_dice=1)
    frame = render(scene, 4, Camera.hard())
    top = top_down(frame, calibrate(frame), px_per_mm=1.0)
    assert top.shape == (630, 840, 3)
    seen = find_markers(top.mean(axis=2).astype(np.uint8))
    for marker_id, corners in TableLayout().marker_corners().items():
        assert np.abs(seen[marker_id] - corners).max() < 2.5


def test_top_down_is_the_frame_remapped_pixel_for_pixel() -> None:
    """The top-down image is made through a fourth channel where that is faster: its pixels
    must be exactly those of OpenCV's remap of the frame as it is (every reading rests on
    them), at the table's edge where the frame cuts it off too, on each OpenCV CI runs."""
    scene = random_scene(4, n_cards=5, n_dice=1)
    whole = render(scene, 4, Camera.hard())
    calibration = calibrate(whole)
    for frame in (whole, np.ascontiguousarray(whole[150:-60, 250:-40])):
        for scale, interpolation in ((1.0, cv2.INTER_LINEAR), (2.0, cv2.INTER_NEAREST)):
            size = (round(840 * scale), round(630 * scale))
            maps = _table_maps(calibration, size, scale)
            fast = top_down(frame, calibration, px_per_mm=scale, interpolation=interpolation)
            plain = cv2.remap(frame, *maps, interpolation, borderValue=(0, 0, 0))
            assert np.array_equal(fast, plain)


def test_a_new_camera_s_markers_are_found_in_windows_at_the_whole_search_s_corners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new camera's frame is not searched whole for its markers (a wooden table's grain
    makes that slow): a quarter-size search and a window round each marker find them, at
    the very corners a search of the whole half-size frame gives, so the calibration is
    the same bit for bit."""
    known = TableLayout().marker_corners()
    searched: list[tuple[int, int]] = []
    search = calibrate_module._detect

    def watched(detector: cv2.aruco.ArucoDetector, grey: np.ndarray, ids: frozenset[int]) -> dict:
        searched.append(grey.shape)
        return search(detector, grey, ids)

    monkeypatch.setattr(calibrate_module, "_detect", watched)
    for seed in (3000, 3001, 3002):
        grey = cv2.cvtColor(
            render(random_scene(seed), seed, Camera.preset("hard")), cv2.COLOR_BGR2GRAY
        )
        calibrate_module._LARGEST.clear()
        searched.clear()
        windowed = find_markers(grey, known=known)
        assert sorted(windowed) == [0, 1, 2, 3]
        assert (544, 728) not in searched, f"seed {seed}: the whole half-size frame searched"
        whole = find_markers(grey)
        assert (544, 728) in searched
        for marker in range(4):
            assert np.array_equal(windowed[marker], whole[marker]), f"seed {seed}: {marker}"


def test_the_lens_is_fitted_in_a_few_fits_to_the_whole_grid_s_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lens parameter is walked down its one valley, not tried at all 13 values (each a
    homography refined): the same parameter and homography as the least error of all."""
    fitted: list[float] = []
    fit = calibrate_module._fit

    def counted(pixels: np.ndarray, table: np.ndarray, k1: float, size: tuple) -> tuple:
        fitted.append(k1)
        return fit(pixels, table, k1, size)

    monkeypatch.setattr(calibrate_module, "_fit", counted)
    for seed in (3000, 3001, 3002):
        frame = render(random_scene(seed), seed, Camera.preset("hard"))
        fitted.clear()
        walked = calibrate(frame)
        assert len(fitted) <= 8, f"seed {seed}: {len(fitted)} fits"
        pixels = walked.corners
        table = np.concatenate(list(TableLayout().marker_corners().values()))
        size = walked.frame_size
        step = float(calibrate_module._K1_GRID[1] - calibrate_module._K1_GRID[0])
        grid = [0.0, *map(float, calibrate_module._K1_GRID)]
        best = min(grid, key=lambda k1: fit(pixels, table, k1, size)[1])
        around = [best + step * o for o in (-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75)]
        best = min(around, key=lambda k1: fit(pixels, table, k1, size)[1])
        assert walked.k1 == best, f"seed {seed}"
        assert np.array_equal(walked.homography, fit(pixels, table, best, size)[0])


def test_no_markers_no_calibration() -> None:
    assert calibrate(np.full((1088, 1456, 3), 128, np.uint8)) is None


def test_a_still_camera_keeps_its_calibration_and_a_moved_one_does_not() -> None:
    scene = random_scene(6, n_cards=5, n_dice=1)
    here = render(scene, 6, Camera.hard())
    first = calibrate(here)
    assert calibrate(here, previous=first) is first  # warp tables are reused
    elsewhere = render(scene, 7, Camera.hard())  # another camera position
    moved = calibrate(elsewhere, previous=first)
    assert moved is not first and moved.markers == (0, 1, 2, 3)
    view = camera_view(7, Camera.hard(), scene.layout)
    assert np.abs(moved.to_table(view.to_pixels(GRID)) - GRID).max() < 2.5


def test_a_still_camera_s_next_frame_is_known_by_its_markers_and_a_nudged_one_is_not() -> None:
    """A still camera's next frame (fresh sensor noise, compressed again) keeps the very
    calibration, found without looking for the markers again; a camera nudged by half a
    pixel, or a marker under a hand, is looked at again as any frame."""
    scene = random_scene(6, n_cards=5, n_dice=1)
    here = render(scene, 6, Camera.hard())
    first = calibrate(here)
    noisy = cv2.add(here, np.random.default_rng(1).normal(0, 3.0, here.shape), dtype=cv2.CV_8U)
    _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert calibrate(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), previous=first) is first
    nudged = cv2.warpAffine(here, np.float32([[1, 0, 0.5], [0, 1, 0]]), here.shape[1::-1])
    again = calibrate(nudged, previous=first)
    assert again is not first and again.markers == (0, 1, 2, 3)
    assert np.abs(again.corners - first.corners - (0.5, 0.0)).max() < 0.25
    covered = here.copy()
    x0, y0 = first.corners[:4].min(axis=0).astype(int)
    covered[y0 : y0 + 25, x0 : x0 + 25] = (90, 120, 160)  # a hand over marker 0's corner
    assert calibrate(covered, previous=first) is not first


@pytest.mark.parametrize("seed", [4, 7])
def test_the_calibration_knows_where_the_camera_stands(seed: int) -> None:
    """From the markers alone, the camera's foot on the table and its height, as the
    synthetic camera stood: what says which way a card's raised part looks displaced."""
    scene = random_scene(seed, n_cards=5, n_dice=1)
    seen = calibrate(render(scene, seed, Camera.hard()))
    assert seen is not None
    eye, true = seen.eye(), camera_view(seed, Camera.hard(), scene.layout).eye()
    assert eye is not None
    assert np.hypot(*(eye[:2] - true[:2])) < 15 and abs(eye[2] - true[2]) < 30
