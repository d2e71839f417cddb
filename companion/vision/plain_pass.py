"""A plain OpenCV pass over an image: the yardstick our readers' times are given against.

Absolute times do not travel between machines (the same code runs 3-4x faster or slower on
another x86 box, 5-10x slower on a Pi core), but the ratio to a fixed piece of ordinary
OpenCV work over the same image size, timed in the same run, does. The pass is what any
table-reading program does at least once per frame: grey, a top-down warp, an adaptive
threshold and the contours of what it leaves, on one thread (the caller sets
cv2.setNumThreads(1), as the readers are timed).
"""

from __future__ import annotations

import time

import cv2
import numpy as np


def plain_pass(image: np.ndarray) -> int:
    """Grey, warp top-down (a fixed homography of the image's own size: its corners pulled
    in by a twentieth, as a camera's table is), adaptive threshold, contours; how many
    contours (so nothing is optimised away)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    height, width = grey.shape[:2]
    inset = 0.05 * np.array([width, height], np.float32)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    table = frame + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32) * inset
    homography = cv2.getPerspectiveTransform(table, frame)
    top = cv2.warpPerspective(grey, homography, (width, height), flags=cv2.INTER_LINEAR)
    binary = cv2.adaptiveThreshold(
        top, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 10
    )
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    return len(contours)


def plain_pass_ms(image: np.ndarray) -> float:
    """Wall milliseconds of one `plain_pass` over `image`."""
    start = time.perf_counter()
    plain_pass(image)
    return (time.perf_counter() - start) * 1000


def times(**named: list[float]) -> dict[str, float]:
    """Each list of milliseconds' median and 95th percentile (`NAME_p50`, `NAME_p95`),
    and a reader's (`latency_ms`) beside the plain pass's (`plain_pass_ms`) as their ratio
    (`latency_ratio_p50`, `_p95`): what every game's eval-vision reports."""
    out = {
        f"{name}_p{q}": round(float(np.percentile(values, q)), 2)
        for name, values in named.items()
        for q in (50, 95)
    }
    for q in (50, 95):
        out[f"latency_ratio_p{q}"] = round(
            out[f"latency_ms_p{q}"] / max(out[f"plain_pass_ms_p{q}"], 1e-3), 2
        )
    return out
