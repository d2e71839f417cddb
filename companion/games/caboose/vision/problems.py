"""What the camera could not see, as kinds with parameters rather than sentences.

Recognition (`observe.py`) reports each problem of a frame as a `Problem`: a key of
`PROBLEMS` and its parameters. Its English (`Problem.text`) is what the journal, the logs
and the API's English fields have always carried; the page says the same key in its own
language (`companion/games/caboose/words.py`, `CAMERA`). Kept apart from recognition so
that the page's words need no OpenCV.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Each problem in English, by key; `{n}`-counted words have a `_one` form as the page's do.
PROBLEMS: dict[str, str] = {
    "no_image": "no usable image came from the camera",
    "frame_tiny": "the frame is only {width}x{height} pixels",
    "frame_channels": "the frame has {channels} colour channels, not 3",
    "frame_size": "the frame is {width}x{height}, not the configured "
    "{want_width}x{want_height}: check the camera mode",
    "too_dark": "the picture is almost black: is the light on and the lens uncovered?",
    "overexposed": "the picture is overexposed: dim the light or lower the camera's exposure",
    "no_colour": "the picture has no colour, and the caboose and the dice are found by their "
    "colour: switch the camera's colour on or use a colour camera",
    "markers_hidden_one": "table marker {markers} not seen: is something lying on it?",
    "markers_hidden": "table markers {markers} not seen: is something lying on it?",
    "no_table": "cannot place the table: fewer than two markers are visible",
    "too_coarse": "the camera sees the table too coarsely ({per_cm} pixels a centimetre, at "
    "least {least} are needed): bring the camera nearer the table or choose a larger picture size",
    "frame_unread": "this frame could not be read ({error})",
    "cards_unread_one": "1 card could not be read: is something lying on it?",
    "cards_unread": "{n} cards could not be read: is something lying on it?",
    "caboose_unseen": "the caboose is not seen",
    "caboose_off": "the caboose is not on a railway card",
    "covered": "something covers {percent}% of the table (a hand?): what lies under it is not seen",
    "glare": "a reflection hides part of the table: move the lamp or tilt the camera",
}


@dataclass(frozen=True)
class Problem:
    """One thing a frame could not show: `key` (of `PROBLEMS`) and its parameters. The
    percentage of `covered` changes with every frame a hand moves; whoever announces
    problems compares it by size, not equality (`Following.seen_problems`)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """In English, as the logs and the API have always said it."""
        return PROBLEMS[self.key].format_map(self.params)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


def counted(key: str, n: int, **params: Any) -> Problem:
    """The problem `key` about `n` things, in its `_one` form when `n` is 1."""
    return Problem(f"{key}_one" if n == 1 else key, {"n": n, **params})
