"""The table before any game (`companion.games.protocol.Match`): every command is refused,
there being no game, and the view is empty, so the shell opens the start form. A game
whose table shows something before its first game (the Caboose design: what the camera
cannot see while the table is set up) offers its own `Game.idle`, built on this one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.protocol import Game, Match, Refusal, Setting


class Lobby:
    """The match before a game's first game."""

    over = False
    id = 0

    def handle(self, command: object) -> bool:
        raise no_game()

    def view(self, lang: str) -> dict[str, Any]:
        """Nothing to draw: the shell opens the start form."""
        return {"game": None, "session": None}

    def record(self) -> Mapping[str, Any]:
        raise no_game()

    def hint(self) -> None:
        """Nothing to look for but the table itself."""
        return None


def no_game() -> Refusal:
    """The refusal of a command, or of an export, before any game."""
    return Refusal("game", "no game is being played: start one first", key="no_game_yet")


def before_any_game(game: Game, setting: Setting) -> Match:
    """The table's match before its first game: the game's own `idle`, else the lobby."""
    return Lobby() if game.idle is None else game.idle(setting)
