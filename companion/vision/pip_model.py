"""The learned check of a die's pip count, for `pips.py` and the table's dice reader.

Why a learned check at all: the hand-made readers count pips from round blobs or a grid fit,
and miscount dice whose pips do not come out as round blobs (dark dice with red pips, glossy
or marbled dice, 1-faces with a logo), yet those faces are plain to see once the die is cut
out and squared up. The net behind it is the pip counter of `dice_net.py` (a small
convolutional net run by cv2.dnn); this module keeps the one call the readers make.
"""

from __future__ import annotations

import numpy as np

from companion.vision.dice_net import count_many


def count_chances(bgr: np.ndarray, rect: tuple) -> np.ndarray:
    """Chances (7,) that the die under `rect` (a `cv2.minAreaRect` result in `bgr`'s pixels)
    shows 0 (no die) to 6 pips; the same whichever corner the rectangle is named from."""
    return count_many(bgr, [rect])[0]
