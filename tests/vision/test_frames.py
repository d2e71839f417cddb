"""Frame sources: recorded folders, the synthetic table, and cameras that are not there."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hw.frames import FolderFrames, FrameSourceError, SyntheticFrames, open_source


def test_folder_gives_its_images_in_name_order_then_none(tmp_path: Path) -> None:
    for value in (30, 10, 20):
        cv2.imwrite(str(tmp_path / f"frame-{value:03d}.png"), np.full((8, 8, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    with open_source(f"folder:{tmp_path}") as source:
        assert isinstance(source, FolderFrames)
        assert [int(source.read()[0, 0, 0]) for _ in range(3)] == [10, 20, 30]
        assert source.read() is None


def test_synthetic_source_renders_the_table_and_stops_when_closed() -> None:
    source = open_source("synthetic:4:hard")
    assert isinstance(source, SyntheticFrames)
    with source:
        frame = source.read()
        assert frame.shape == (1088, 1456, 3)
        assert np.array_equal(frame, source.read())  # a still table, a fixed camera
    assert source.read() is None


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("usb:63", "no camera at usb:63"),
        ("usb:first", "usb:N"),
        ("folder:/no/such/folder", "no folder"),
        ("video:/no/such.mp4", "no video file"),
        ("synthetic:x", "synthetic:SEED"),
        ("webcam", "unknown frame source"),
    ],
)
def test_a_missing_or_misnamed_source_raises_one_clear_error(spec: str, words: str) -> None:
    with pytest.raises(FrameSourceError, match=words):
        open_source(spec)


def test_picamera2_off_a_pi_says_what_to_install() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(FrameSourceError, match="python3-picamera2"):
            open_source("picamera2")
    else:
        pytest.skip("picamera2 is installed here")
