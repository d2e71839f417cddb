"""The readers are tuned on OpenCV 4 and must run on 4.8 to 5.x (`make test-opencv`). Where
OpenCV 5 reads a tuned table otherwise, never wrongly (a piece missed or asked, said), that
table's case is marked with `differs_on_opencv_5`: an expected failure there, strictly, so
the mark goes as soon as OpenCV 5 reads it as OpenCV 4 does."""

from __future__ import annotations

import cv2
import pytest


def differs_on_opencv_5(reason: str) -> pytest.MarkDecorator:
    """A strict expected failure on OpenCV 5, for `reason` (the issue left open and what
    OpenCV 5 does there)."""
    return pytest.mark.xfail(
        cv2.__version__.startswith("5."), reason=f"{reason}; tuned on OpenCV 4", strict=True
    )
