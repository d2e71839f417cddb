"""The table before any game of a game with nothing to show then (`companion.games.protocol
.Match`): every command is refused, there being no game, and the view is empty, so the
shell opens the start form. (The Caboose design has its own: it shows what the camera
cannot see while the table is set up.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.protocol import Refusal, Setting


class Lobby:
    """The match before a game's first game."""

    over = False
    id = 0

    def handle(self, command: object) -> bool:
        raise Refusal("game", "no game is being played: start one first", key="no_game_yet")

    def view(self, lang: str) -> dict[str, Any]:
        """Nothing to draw: the shell opens the start form."""
        return {"game": None, "session": None}

    def record(self) -> Mapping[str, Any]:
        raise Refusal("game", "no game is being played: start one first", key="no_game_yet")

    def hint(self) -> None:
        return None


def idle(setting: Setting) -> Lobby:
    """The table's match before its first game (`Game.idle`) of a game with nothing to show
    then; every table setting is alike to it."""
    return Lobby()
