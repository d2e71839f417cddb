"""The printable marker sheet: true size at the stated resolution."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import markers


def test_png_sheet_is_a4_at_the_stated_dpi_with_markers_at_true_size(tmp_path: Path) -> None:
    out = tmp_path / "markers.png"
    assert markers.main([str(out), "--dpi", "150"]) == 0
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert image.shape == (round(297 / 25.4 * 150), round(210 / 25.4 * 150))
    assert markers.png_dpi(out) == pytest.approx(150, abs=0.05)  # whole pixels per metre
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(image)
    assert sorted(np.asarray(ids).ravel().tolist()) == [0, 1, 2, 3]
    for quad in corners:
        side_px = np.linalg.norm(np.diff(quad.reshape(4, 2), axis=0), axis=1).mean()
        assert side_px / 150 * 25.4 == pytest.approx(50.0, abs=0.5)  # mm on paper


@pytest.mark.parametrize("argv", [["sheet.svg"], ["sheet.png", "--dpi", "10"]])
def test_bad_requests_exit_2(tmp_path: Path, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        markers.main([str(tmp_path / argv[0]), *argv[1:]])
    assert stop.value.code == 2
