"""Whether a camera frame is worth reading at all, for any game's reader: an image, large
enough, turned into 8-bit BGR whatever the frame source gave, neither black nor
overexposed.

Game-free: a failed check is a key and its parameters, which each game's reader turns into
its own problem (its words say them), never an exception; the referee must keep running on
whatever the camera gives. (The Caboose reader still carries its own, which also refuses a
frame of an odd channel count by name: companion/games/caboose/vision/frame_checks.py.)
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

FRAME_KEYS = ("no_image", "frame_tiny", "too_dark", "overexposed")
_TO_BGR = {1: cv2.COLOR_GRAY2BGR, 3: None, 4: cv2.COLOR_BGRA2BGR}  # by channel count


def as_image(frame: object) -> tuple[np.ndarray | None, tuple[str, dict[str, Any]] | None]:
    """(`frame` as an 8-bit BGR image, None) or (None, (key, params)) saying why it is no
    picture to read: `no_image` (not an image of numbers), `frame_tiny` {width, height}
    (under 64 pixels a side). Its light is not judged: `as_bgr` does that for a reader,
    the setup check in its own words."""
    shape = getattr(frame, "shape", ())
    channels = shape[2] if len(shape) == 3 else 1
    if (
        not isinstance(frame, np.ndarray)
        or frame.dtype.kind not in "biuf"
        or len(shape) not in (2, 3)
        or channels not in _TO_BGR
        or frame.size == 0
    ):
        return None, ("no_image", {})
    height, width = shape[:2]
    if min(height, width) < 64:
        return None, ("frame_tiny", {"width": width, "height": height})
    if frame.dtype != np.uint8:
        frame = np.clip(np.nan_to_num(frame.astype(np.float32)), 0, 255).astype(np.uint8)
    convert = _TO_BGR[channels]
    return (frame if convert is None else cv2.cvtColor(frame, convert)), None


def as_bgr(frame: object) -> tuple[np.ndarray | None, tuple[str, dict[str, Any]] | None]:
    """(`frame` as an 8-bit BGR image, None) or (None, (key, params)) saying why it cannot
    be read: `as_image`'s, or `too_dark` (its brightest hundredth under 40 grey levels),
    `overexposed` (more than half of it white)."""
    frame, problem = as_image(frame)
    if frame is None:
        return None, problem
    thumb = cv2.cvtColor(frame[::8, ::8], cv2.COLOR_BGR2GRAY)
    if float(np.percentile(thumb, 99)) < 40:
        return None, ("too_dark", {})
    if float((thumb > 250).mean()) > 0.5:
        return None, ("overexposed", {})
    return frame, None


def colourless(image: np.ndarray) -> bool:
    """Whether a 3-channel frame has no colour at all (its channels are equal everywhere), as
    a camera without colour gives it. A dim room's washed-out colour is still colour."""
    sample = image[::7, ::7]  # a colour frame fails here, at a fiftieth of the full check's cost
    for probe in (sample, image):
        if not (
            np.array_equal(probe[..., 0], probe[..., 1])
            and np.array_equal(probe[..., 1], probe[..., 2])
        ):
            return False
    return True
