"""The table in millimetres: where the four ArUco markers lie, and where a card's corners are.

Both the synthetic table (which draws) and recognition (which measures) use these, so a card
the renderer lays at a pose is the card recognition must report at that pose. Poses are
companion/pose.py's (x right, y down as seen from the camera, rotation in degrees clockwise
seen from above, rotation 0 = portrait), the same the games' rules use, so the vision and
the rules never disagree on where a card lies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.pose import Pose


@dataclass(frozen=True)
class TableLayout:
    """The printed markers: ArUco DICT_4X4_50 ids 0-3 at the top left, top right, bottom right
    and bottom left corners of a `width` x `height` mm table, each `marker_mm` wide and
    `inset_mm` from both table edges. A real table measures these and writes them in its
    configuration; the defaults are the synthetic table's and the printed sheet's spacing
    does not matter, only where the markers end up."""

    width: float = 840.0
    height: float = 630.0
    marker_mm: float = 50.0
    inset_mm: float = 10.0

    def marker_corners(self) -> dict[int, np.ndarray]:
        """The 4 corners of each marker in table mm, in ArUco's order (clockwise from the
        marker's own top left), markers laid upright."""
        m, i = self.marker_mm, self.inset_mm
        origins = {
            0: (i, i),
            1: (self.width - i - m, i),
            2: (self.width - i - m, self.height - i - m),
            3: (i, self.height - i - m),
        }
        square = np.array([[0, 0], [m, 0], [m, m], [0, m]], np.float64)
        return {k: square + np.array(o) for k, o in origins.items()}

    def play_area(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in mm where cards and dice may lie: clear of markers."""
        edge = self.inset_mm + self.marker_mm + 5.0
        return edge, edge, self.width - edge, self.height - edge


def rotate(points: np.ndarray, degrees: float) -> np.ndarray:
    """Rotate (x, y) points clockwise on screen (y down) by `degrees`: geometry's turn."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return points @ np.array([[c, s], [-s, c]])


def on_card(pose: Pose, point: tuple[float, float]) -> tuple[float, float]:
    """A table point (mm) in the own frame of the card laid at `pose`: mm from its centre,
    x to its right and y to its bottom as it reads, whichever way it was turned."""
    a = math.radians(pose.rotation)
    dx, dy = point[0] - pose.x, point[1] - pose.y
    return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)


def lies_on(pose: Pose, card_mm: tuple[float, float], point: tuple[float, float]) -> bool:
    """Whether the table point (mm) lies on the card laid at `pose`."""
    x, y = on_card(pose, point)
    return abs(x) <= card_mm[0] / 2 and abs(y) <= card_mm[1] / 2


def card_corners(pose: Pose, card_mm: tuple[float, float]) -> np.ndarray:
    """The 4 corners of a card laid at `pose`, in table mm, clockwise from the card's own top
    left (the corner with the value digit in our design)."""
    w, h = card_mm
    square = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return rotate(square, pose.rotation) + (pose.x, pose.y)
