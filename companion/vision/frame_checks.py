"""Whether a camera frame is worth reading at all, for any game's reader: an image, large
enough, turned into 8-bit BGR whatever the frame source gave, neither black nor
overexposed; where in it a lamp's reflection hides the table (`glare_mask`); and whether
it differs from the last frame read at all (`ChangeGate`).

Game-free: a failed check is a key and its parameters, which each game's reader turns into
its own problem (its words say them), never an exception; the referee must keep running on
whatever the camera gives. (The Caboose reader still carries its own, which also refuses a
frame of an odd channel count by name: companion/games/caboose/vision/frame_checks.py.)
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

FRAME_KEYS = ("no_image", "frame_tiny", "too_dark", "overexposed")
GLARE_KEY = "glare"  # every game's problem: a reflection hides part of the table
_CLIPPED = 250  # all three channels at this or more: the sensor clipped, white, no detail
_GLARE_LEAST = 2e-4  # of the frame, a clipped blob at least this large is a reflection (no
# printed white clips through the synthetic camera; a die's face 3e-4 would need a lamp)
_GLARE_HALO = 0.5  # round a clipped core, this much of its radius more is washed out
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


def glare_mask(frame: np.ndarray) -> np.ndarray | None:
    """A frame-size mask, 255 where a lamp's reflection hides the table, or None where
    there is none: every clipped white blob (all three channels at `_CLIPPED`) of at least
    `_GLARE_LEAST` of the frame, and round it the halo its light washes out (colours gone
    towards white, a pip or a print's edge faded): `_GLARE_HALO` of its radius more. What
    lies there cannot be read, however sure a reader would be: a reader takes a piece it
    touches as unseen or unsure, never as read, and says `GLARE_KEY`.

    Why clipping: a reflection is white whatever the table's colour, and where it is bright
    enough to hide anything the sensor clips; printed white (cards, dice, markers) does not
    clip in a frame whose exposure is right (`as_bgr` refuses one that is white all over)."""
    least = _GLARE_LEAST * frame.shape[0] * frame.shape[1]
    # a frame without glare ends here, cheaply: every 4th pixel of every 4th row (OpenCV
    # takes every 4th row as it lies, where numpy copied the sample pixel by pixel)
    sample = cv2.inRange(frame[::4], (_CLIPPED,) * 3, (255,) * 3)[:, ::4]
    if np.count_nonzero(sample) * 16 < least / 2:
        return None
    clipped = clipped_white(frame)
    # labelled only within the box round what clipped (a reflection and a few specks: 1-3 %
    # of a hard table's frame), not the whole frame: the same blobs at a fraction of the time
    bx, by, bw, bh = cv2.boundingRect(clipped)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(clipped[by : by + bh, bx : bx + bw])
    spots = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= least]
    if not spots:
        return None
    mask = np.zeros(frame.shape[:2], np.uint8)
    height, width = mask.shape
    for i in spots:
        x, y, w, h, area = (int(v) for v in stats[i])
        x, y = x + bx, y + by
        reach = round(_GLARE_HALO * math.sqrt(area / math.pi)) + 2
        x0, y0 = max(x - reach, 0), max(y - reach, 0)
        x1, y1 = min(x + w + reach, width), min(y + h + reach, height)
        elsewhere = np.ones((y1 - y0, x1 - x0), np.uint8)  # 0 on the spot
        lx0, ly0 = max(x0, bx), max(y0, by)  # the part of the window that was labelled
        lx1, ly1 = min(x1, bx + bw), min(y1, by + bh)
        labelled = labels[ly0 - by : ly1 - by, lx0 - bx : lx1 - bx] != i
        elsewhere[ly0 - y0 : ly1 - y0, lx0 - x0 : lx1 - x0] = labelled
        near = cv2.distanceTransform(elsewhere, cv2.DIST_L2, 3) <= reach
        mask[y0:y1, x0:x1][near] = 255
    return mask


def clipped_white(image: np.ndarray) -> np.ndarray:
    """A mask (255) of where `image` (BGR) is clipped white, all three channels at
    `_CLIPPED` or more: where a lamp's reflection left no detail at all. Within
    `glare_mask`'s halo, what is not clipped still shows, only paler."""
    return cv2.inRange(image, (_CLIPPED,) * 3, (255,) * 3)


def clipped_round(image: np.ndarray, glare: np.ndarray, reach: int) -> np.ndarray:
    """A mask (255) of where `image` (BGR) is clipped white within `glare` (its mask, of
    `image`'s size), widened by a disc `reach` pixels across: where a reflection left a
    piece nothing to read. Made only round the glare (its box, and as far as the widening
    reaches): nothing is clipped elsewhere that counts, so the same mask as over the whole
    image, without converting and widening the whole image."""
    x, y, w, h = cv2.boundingRect(glare)
    height, width = glare.shape
    x0, y0 = max(x - reach // 2, 0), max(y - reach // 2, 0)
    x1, y1 = min(x + w + reach // 2, width), min(y + h + reach // 2, height)
    washed = np.zeros_like(glare)
    clipped = cv2.bitwise_and(clipped_white(image[y0:y1, x0:x1]), glare[y0:y1, x0:x1])
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    washed[y0:y1, x0:x1] = cv2.dilate(clipped, disc)
    return washed


def glared(mask: np.ndarray | None, polygon: np.ndarray) -> bool:
    """Whether the frame polygon (N, 2 pixels: a piece's outline) overlaps `glare_mask`."""
    if mask is None:
        return False
    height, width = mask.shape
    points = np.round(np.asarray(polygon, np.float64)).astype(np.int32).reshape(-1, 2)
    x0, y0 = np.clip(points.min(axis=0), 0, (width, height))
    x1, y1 = np.clip(points.max(axis=0) + 1, 0, (width, height))
    if x1 <= x0 or y1 <= y0 or not mask[y0:y1, x0:x1].any():
        return False
    shape = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(shape, [points - (x0, y0)], 1)
    return bool((mask[y0:y1, x0:x1][shape > 0]).any())


class ChangeGate:
    """Tells whether a frame differs from the last one that was read, so a game's camera
    can skip reading it while nothing on the table moves. It compares grey thumbnails of
    about 160x120: each thumbnail pixel averages a square of `step` x `step` frame pixels
    (81 of a 1456x1088 frame), so sensor noise averages away (to a fraction of a grey level) while
    a die (~3 thumbnail pixels) moving changes a few of them by tens of grey levels. A
    whole number of frame pixels per thumbnail pixel is what makes the thumbnail cheap
    (OpenCV's area resize then only adds squares up): a still frame costs the grey
    conversion and that, about a tenth of a plain pass (bench/bench_still_frame.py)."""

    def __init__(self, threshold: float = 12.0, pixels: int = 2) -> None:
        self.threshold = threshold  # grey levels a thumbnail pixel must change by
        self.pixels = pixels  # how many thumbnail pixels must change
        self._last: np.ndarray | None = None

    def changed(self, frame_bgr: object) -> bool:
        """True when the frame should be recognised (and it becomes the reference)."""
        if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim not in (2, 3):
            return True
        grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        height, width = grey.shape[:2]
        step = max(min(width // _THUMB[0], height // _THUMB[1]), 1)
        size = (width // step, height // step)  # the frame's edge beyond whole squares left out
        whole = grey[: size[1] * step, : size[0] * step]
        thumb = cv2.resize(whole, size, interpolation=cv2.INTER_AREA).astype(np.int16)
        if self._last is not None and self._last.shape == thumb.shape:
            moved = int((np.abs(thumb - self._last) > self.threshold).sum())
            if moved < self.pixels:
                return False
        self._last = thumb
        return True


_THUMB = (160, 120)  # ChangeGate's thumbnail is at least this large (width, height)
