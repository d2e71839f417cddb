"""The Caboose camera's picture (`Camera.draw`, `GET /api/camera.jpg`): the frame with what
recognition read of it drawn on it, in the page's words: each card outlined and named as
the page names it, each die with its wheels (a pip die with its face), the caboose token,
the table's four markers and its play area; a card or die the camera is unsure of in the
unsure colour, and the question the page asks about it in a caption with what the camera
could not see.

What to draw is the watcher's `Reading` of that frame (camera.py keeps it), never the game:
the picture shows what the camera saw, so a misread card is seen misread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from companion.games.caboose import cards
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.vision.observation import Observation, SeenCard
from companion.games.caboose.words import TEXT, card_words
from companion.vision.annotate import READ, UNSURE, Sketch
from companion.vision.table import TableLayout, card_corners

_DIE_MM = 16.0  # a ring this wide round a die: our wheel dice are 16 mm, pip dice about
_TOKEN_MM = 14.0  # round the caboose token
_UNSURE_BELOW = FollowConfig().unsure_below  # a card read less surely is asked about


class Reading(NamedTuple):
    """What the camera read of one frame, and what drawing it needs of the table: where
    its markers lie and the size of the cards it looked for."""

    observation: Observation
    layout: TableLayout
    card_mm: tuple[float, float]


def draw(frame: np.ndarray, reading: Reading, view: Mapping[str, Any], lang: str) -> np.ndarray:
    """A copy of `frame` with `reading` drawn on it in `lang`, and the question `view`'s
    turn at the table asks (see the module's docstring)."""
    seen = reading.observation
    sketch = Sketch(frame, seen.calibration)
    session = view.get("session") or {}
    question = session.get("question")
    if seen.calibration is not None:
        layout = reading.layout
        sketch.table(layout, seen.calibration.markers, layout.play_area(), lang)
        asked = _asked_card(seen, session)
        for index, card in enumerate(seen.cards):
            unsure = index == asked or card.confidence < _UNSURE_BELOW
            colour = UNSURE if unsure else READ
            sketch.outline(card_corners(card.pose, reading.card_mm), colour)
            name = _name(card, lang)
            said = say(lang, "camera_unsure", card=name) if unsure else name
            sketch.label(card.pose[:2], said, colour, reading.card_mm[0])
        for die in seen.dice:
            asked_die = (
                question is not None
                and question.get("at") is not None
                and np.allclose(question["at"], die.position, atol=1.0)
            )
            colour = UNSURE if asked_die else READ
            sketch.ring(die.position, _DIE_MM * 0.75, colour)
            face = _face(die.kind, die.face, lang)
            under = (die.position[0], die.position[1] + _DIE_MM)  # the die itself left in sight
            said = say(lang, "camera_unsure", card=face) if asked_die else face
            sketch.label(under, said, colour, _DIE_MM * 3)
        if seen.caboose_at is not None:
            sketch.ring(seen.caboose_at, _TOKEN_MM * 0.75, READ)
            under = (seen.caboose_at[0], seen.caboose_at[1] + _TOKEN_MM)
            sketch.label(under, TEXT[lang]["camera_caboose"], READ, _DIE_MM * 3)
    lines = (
        [(question["prompt"], UNSURE)] if question is not None and question.get("prompt") else []
    )
    lines += [(text, (255, 255, 255)) for text in session.get("camera") or ()]
    return sketch.finish(lines)


def say(lang: str, key: str, **params: Any) -> str:
    return TEXT[lang][key].format(**params)


def _name(card: SeenCard, lang: str) -> str:
    """A card as the page names it; one whose code is no card's (never from our reader)
    as its code."""
    try:
        return card_words(card.code, lang)
    except cards.CardCodeError:
        return card.code


def _face(kind: str, face: int, lang: str) -> str:
    """A die's face in words: its wheels, or a pip die's pips."""
    key = "die_wheels" if kind == "wheels" else "camera_pips"
    return TEXT[lang][f"{key}_one" if face == 1 else key].format(n=face)


def _asked_card(seen: Observation, session: Mapping[str, Any]) -> int | None:
    """The card the turn at the table asks about (the one read as the question's code, the
    least sure of them), or None."""
    prompt = ((session.get("said") or {}).get("prompt") or {}).get("params") or {}
    code = prompt.get("code") if (session.get("question") or {}).get("card") is not None else None
    if code is None:
        return None
    alike = [i for i, card in enumerate(seen.cards) if card.code == code]
    return min(alike, key=lambda i: seen.cards[i].confidence, default=None)
