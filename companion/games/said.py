"""Something a game's turn flow says on the page (a problem to fix, why the camera waits,
what it could not see): a key of the game's words with its parameters, and the English
beside them for logs and the API's message. Shared, so every game's camera says things
the same way and no game package imports another's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Said:
    """A key of the game's words, its English, and the parameters the words take."""

    key: str
    text: str
    params: tuple[tuple[str, object], ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "params": dict(self.params), "text": self.text}
