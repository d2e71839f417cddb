"""Where the table top does not show: what lies on it, found by colour whatever it is.

A game's printed pieces that carry no mark of ours (an enrolled deck of the box's own cards)
are found as regions unlike the table; the Caboose design's and Yardmaster Express's
taught decks both start from this mask.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.table import TableLayout

_UNLIKE_CHROMA = 0.09  # chromaticity distance from the table's beyond which a pixel is no table


def unlike_table(top: np.ndarray, layout: TableLayout, k: float) -> np.ndarray:
    """A top-down mask, 255 where the colour is unlike the table top's, markers left out.

    Colour, not brightness: light falls off across a table and shadows darken it, but both
    scale red, green and blue alike, so the share of each in a pixel (its chromaticity)
    stays the table's wherever the table shows, while a card's print (sky, grass, a grey
    track, white paper) has other shares. The table's own is the commonest colour of the
    image. A deck printed in the table's very colour at its edges would not be found."""
    colour = top.astype(np.float32)
    colour += 1.0
    sample = colour[::8, ::8].reshape(-1, 3)
    table = np.median(sample / sample.sum(axis=1, keepdims=True), axis=0).astype(np.float32)
    # |x / sum(x) - table| > limit, as |x - table * sum(x)|^2 > (limit * sum(x))^2: all in
    # OpenCV, a few milliseconds for the whole table
    total = cv2.transform(colour, np.ones((1, 3), np.float32))
    off = cv2.transform(colour, np.eye(3, dtype=np.float32) - table[:, None])
    spread = cv2.transform(cv2.multiply(off, off), np.ones((1, 3), np.float32))
    far = cv2.compare(spread, cv2.multiply(total, total, scale=_UNLIKE_CHROMA**2), cv2.CMP_GT)
    # noise makes specks and pinholes; smoothing before the threshold instead would move
    # the outline out by the smoothing's reach
    square = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(far, cv2.MORPH_OPEN, square)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    for corners in layout.marker_corners().values():
        lo, hi = corners.min(axis=0) - 8, corners.max(axis=0) + 8  # the marker's white paper
        cv2.rectangle(mask, tuple((lo * k).astype(int)), tuple((hi * k).astype(int)), 0, -1)
    return mask
