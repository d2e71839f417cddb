"""Something a game's turn flow says on the page (a problem to fix, why the camera waits,
what it could not see): a key of the game's words with its parameters, and the English
beside them for logs and the API's message. Shared, so every game's camera says things
the same way and no game package imports another's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Said:
    """A key of the game's words, its English, and the parameters the words take."""

    key: str
    text: str
    params: tuple[tuple[str, object], ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "params": dict(self.params), "text": self.text}


def session_said(session: Mapping[str, Any] | None) -> tuple[str | None, list[str]]:
    """What the turn at the table of a followed game (`FollowedMatch`'s `session` in a
    view) says, in the view's language: the problem to fix (what the page asks of the
    players, None when there is none), then why the camera waits and what it could not
    see; what the camera's picture writes under what it read."""
    if not session:
        return None, []
    problem = session.get("problem")
    said = [session["waiting"]] if session.get("waiting") else []
    said += list(session.get("camera") or ())
    return (problem["said"] if problem else None), [doc["said"] for doc in said]
