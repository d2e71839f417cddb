"""Whether a frame is worth looking at before any card is looked for in it: an image at
all, large enough, in colour, of the size the camera was set to, neither black nor
overexposed (whether it differs from the last frame recognised at all is every game's:
companion/vision/frame_checks.py `ChangeGate`).

A failed check is a `Problem` a player can act on (the light, the lens, the camera's
mode), never an exception: the referee must keep running on whatever the camera gives.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.caboose.vision.problems import Problem
from companion.vision.frame_checks import colourless


def as_frame(frame: object, problems: list[Problem]) -> np.ndarray | None:
    """`frame` as an 8-bit BGR image, whatever a frame source gave (grey, BGRA, floats);
    None, with the reason added to `problems`, when it is no usable image."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        problems.append(Problem("no_image"))
        return None
    if min(frame.shape[:2]) < 64:
        problems.append(Problem("frame_tiny", {"width": frame.shape[1], "height": frame.shape[0]}))
        return None
    if frame.dtype != np.uint8:
        frame = np.clip(np.nan_to_num(frame.astype(np.float32)), 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        problems.append(Problem("frame_channels", {"channels": frame.shape[2]}))
        return None
    return frame


def size_problem(frame: np.ndarray, want: tuple[int, int]) -> Problem | None:
    """A frame of another size (width, height) than `want`, the one the camera was set to:
    its mode changed. The markers still place the table, so recognition goes on."""
    height, width = frame.shape[:2]
    if (width, height) == want:
        return None
    want_width, want_height = want
    size = {"width": width, "height": height}
    return Problem("frame_size", size | {"want_width": want_width, "want_height": want_height})


def exposure_problem(frame: np.ndarray) -> Problem | None:
    """A picture too dark or too bright to find anything in (read on a thumbnail: every 8th
    pixel of every 8th row, OpenCV taking the rows as they lie)."""
    small = cv2.cvtColor(frame[::8], cv2.COLOR_BGR2GRAY)[:, ::8]
    if float(small.mean()) < 20 or _dim(small):
        return Problem("too_dark")
    if float((small > 250).mean()) > 0.5:
        return Problem("overexposed")
    return None


def _dim(small: np.ndarray) -> bool:
    """Whether the 99th percentile of the grey thumbnail `small` is under 40 levels (a few
    bright spots in the dark), as `np.percentile` says; told from how many pixels are under
    40 where that settles it (the percentile interpolates between the sorted values either
    side of 0.99 of the way), which costs a tenth of numpy's percentile."""
    place = 0.99 * (small.size - 1)  # where the percentile lies among the sorted values
    under = np.count_nonzero(small < 40)
    if under <= place - 2:  # the values either side of it are 40 or more
        return False
    if under >= place + 3:  # both under 40
        return True
    return float(np.percentile(small, 99)) < 40


def colour_problem(frame: np.ndarray) -> Problem | None:
    """A picture without colour (a mono camera, or one set to black and white): the cards
    are still read, but the caboose and the dice are found by their colour, so the family
    is told why they are not seen (30 hard tables through a grey camera, seed 900: cards
    99.5 %, the caboose 0 of 30, drawn dice 47 % read and none wrong yet sure)."""
    return Problem("no_colour") if colourless(frame) else None
