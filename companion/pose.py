"""Where a flat thing lies on the table: its centre in table mm and its rotation.

A table position, not a rule: the rules (where a card may join a railway), the camera (where
it saw one), the synthetic table (where it draws one) and a record (where a card was laid)
all speak of it, so it lives here, below all of them. Conventions: table millimetres, x to
the right, y down as the camera sees it, rotation in degrees clockwise seen from above,
rotation 0 = the thing upright (a card portrait).
"""

from __future__ import annotations

import math
from typing import NamedTuple


class Pose(NamedTuple):
    """Where a card lies: its centre in table mm and its rotation in degrees clockwise.
    A named tuple rather than a dataclass: bots and the engine make and compare many of
    them on every turn, and tuples are several times cheaper to build and hash."""

    x: float
    y: float
    rotation: float

    def as_list(self) -> list[float]:
        return [self.x, self.y, self.rotation]

    @classmethod
    def from_list(cls, value: object) -> Pose:
        """A pose from a record's `[x, y, rotation]`; ValueError says what is wrong."""
        if not isinstance(value, list | tuple) or len(value) != 3:
            raise ValueError(f"a position is [x, y, rotation], not {value!r}")
        for number in value:
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise ValueError(f"a position holds three numbers, not {value!r}")
            if not math.isfinite(number):
                raise ValueError(f"a position holds finite numbers, not {value!r}")
        x, y, rotation = value
        return cls(float(x), float(y), float(rotation) % 360.0)
