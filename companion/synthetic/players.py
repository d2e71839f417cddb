"""The synthetic table as the scripted players of `companion demo` touch it: `Hands`.

The shared driver (companion/app/demo.py's `SyntheticTable`) lends it to a game's `Demo`
to play through; the games' demos type their players' moves with this protocol, so that a
game's package never imports the driver (which imports the games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Hands(Protocol):
    """What the players may do at the synthetic table: show the camera a scene, press a
    button, say that a turn was accepted; and how many frames the camera took."""

    frames: int  # frames the camera has taken
    rendered: int  # of them, pictures drawn anew (a still table is not drawn again)

    def look(self, scene: Any, attempt: int = 0, frames: int | None = None) -> None:
        """Show the camera a scene for `frames` frames (default: long enough to be still);
        `attempt` changes the camera's noise (a stuck camera's other picture)."""

    def look_until(self, scene: Any, done: Callable[[], bool]) -> bool:
        """Show a still scene until `done()`, a few pictures at most: whether it was."""

    def press(self, button: str, done: Callable[[], bool]) -> bool:
        """Press a button and wait until the table dealt with it: whether `done()`."""

    def announce(self, turns: int) -> None:
        """Say that turn `turns + 1` was accepted (only now may anyone rely on it)."""
