"""Tables dealt by hand that several test modules play on."""

from __future__ import annotations

from typing import Any

# A Rollecate table: Ana holds 1 and a chaos card and draws a 2; Ben holds two 3s. The
# caboose stands on the 3rd card, two cards from the front.
ROLLECATE_TWO: dict[str, Any] = {
    "format": "caboose-record/1",
    "edition": "rollecate",
    "players": ["Ana", "Ben"],
    "setup": {
        "railway": ["2", "3", "4", "3"],
        "caboose": 2,
        "hands": [["1", "C2"], ["3", "3"]],
        "draw": ["2", "1", "4", "2", "1", "3", "4"],
    },
    "turns": [],
}
