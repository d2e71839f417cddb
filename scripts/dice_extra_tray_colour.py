"""Make data/dice-extra/tray-colour/ from the Rune55 dice set (CC BY 4.0), as stored.

Run: python scripts/dice_extra_tray_colour.py SRC OUT, where SRC is the export's folder
`datasets/dices` of github.com/N3VERS4YDIE/dice-recognition (commit aab5ae4f), itself
Roboflow Universe's "Rune55" v3 by rune-zkmvl (its README.dataset.txt and data.yaml give
the licence, CC BY 4.0).

Why only part of it: the export mixes several sets. Its IMG_2019* frames are nell-byler's
dice_detection photographs (shared/data/dice-real/overhead-tray's source, turned grey), so
they would leak held-out photographs into training; the other grey frames may be part of the
broader public set others measure the reader on. What is kept is the one colour set, the
PXL_* phone photographs of dice trays (99 photographs, about 1400 dice of many colours),
one copy of each (the export holds up to three turned or mirrored copies): the first file
name in sorted order. The export squeezed each photograph to 640 x 640; the dice boxes' median
width-to-height says which way (a phone's 3:4), so each is stretched back to 480 x 640 or
640 x 480 and its dice are square again (YOLO boxes are fractions: unchanged). The labels are
the export's (class = pips - 1, a box around each whole die), as dice-real's are.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import cv2
import numpy as np

SPLITS = ("train", "valid", "test")
KEEP = re.compile(r"^(PXL_\d+_\d+)_jpg\.rf\.")
QUALITY = 90  # JPEG quality of the stored photographs


def main(source: Path, out: Path) -> None:
    """Write one unsqueezed copy of each PXL photograph and its labels into `out`."""
    first: dict[str, Path] = {}
    for path in sorted(p for s in SPLITS for p in (source / s / "images").glob("*.jpg")):
        match = KEEP.match(path.name)
        if match and (match[1] not in first or path.name < first[match[1]].name):
            first[match[1]] = path
    out.mkdir(parents=True, exist_ok=True)
    for base, path in sorted(first.items()):
        labels = path.parent.parent / "labels" / (path.stem + ".txt")
        rows = np.loadtxt(labels, ndmin=2)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        ratio = float(np.median(rows[:, 3] / rows[:, 4])) if len(rows) else 1.0
        h, w = image.shape[:2]
        if ratio > 1.15:  # dice wider than tall: the photograph was squeezed across
            size = (round(w * 3 / 4), h)
        elif ratio < 1 / 1.15:
            size = (w, round(h * 3 / 4))
        else:
            size = (w, h)
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out / f"{base}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        (out / f"{base}.txt").write_text(labels.read_text().strip() + "\n")
    print(f"{len(first)} photographs written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
