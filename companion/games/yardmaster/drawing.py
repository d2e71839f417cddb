"""Yardmaster Express's camera picture (`Camera.draw`, `GET /api/camera.jpg`): the frame with
what the reader read of it drawn on it, in the page's words: each card of each train
outlined and named as the page names it (the engine, a railcar card's two railcars, a card
face down), the table's four markers and its play area; a card not read surely, or lying
apart from every train, in the unsure colour; under it all, what the turn at the table
asks the players to fix and what the camera could not see.

What to draw is the watcher's `Reading` of that frame (camera.py keeps it), never the game:
the picture shows what the camera saw, so a misread card is seen misread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from companion.games.said import session_said
from companion.games.yardmaster import art, cards
from companion.games.yardmaster.edition import Edition
from companion.games.yardmaster.edition import load as load_edition
from companion.games.yardmaster.view import colour_initial
from companion.games.yardmaster.vision.reader import UNSURE as UNREAD
from companion.games.yardmaster.vision.reader import SeenCard, Yard
from companion.games.yardmaster.words import say
from companion.vision.annotate import READ, UNSURE, Sketch
from companion.vision.table import TableLayout, card_corners


class Reading(NamedTuple):
    """What the camera read of one frame, where the table's markers lie, and the edition
    whose cards it looked for (their colours' names)."""

    yard: Yard
    layout: TableLayout
    edition: str


def draw(frame: np.ndarray, reading: Reading, view: Mapping[str, Any], lang: str) -> np.ndarray:
    """A copy of `frame` with `reading` drawn on it in `lang`, and what `view`'s turn at the
    table asks (see the module's docstring)."""
    yard, layout, edition_id = reading
    sketch = Sketch(frame, yard.calibration)
    if yard.calibration is not None:
        sketch.table(layout, yard.calibration.markers, layout.play_area(), lang)
        edition = load_edition(edition_id)
        for train in yard.trains:
            for card in train.cards:
                _card(sketch, card, card.sure and card.code != UNREAD, edition, lang)
        for card in yard.loose:  # apart from every train: the players are asked to join it
            _card(sketch, card, False, edition, lang)
    problem, said = session_said(view.get("session"))
    lines = [(problem, UNSURE)] if problem else []
    return sketch.finish(lines + [(text, (255, 255, 255)) for text in said])


def _card(sketch: Sketch, card: SeenCard, sure: bool, edition: Edition, lang: str) -> None:
    colour = READ if sure else UNSURE
    sketch.outline(card_corners(card.pose, art.CARD_MM), colour)
    name = _name(edition, card.code, lang)
    sketch.label(
        card.pose[:2], name if sure or name.endswith("?") else f"{name}?", colour, art.CARD_MM[0]
    )


def _name(edition: Edition, code: str, lang: str) -> str:
    """A card as it lies, in the page's words made short enough to write on it: the
    engine, face down, a railcar card's colour initials and values (as the page's railcars
    show them to a colour-blind player), a question mark for one not read."""
    if code == cards.ENGINE:
        return say(lang, "engine_said")
    if code == cards.FACE_DOWN:
        return say(lang, "camera_face_down")
    try:
        railcars = cards.railcars(code)
    except cards.CardCodeError:
        return say(lang, "camera_unread")
    return " · ".join(
        say(lang, "camera_railcar", initial=colour_initial(edition, colour, lang), value=value)
        for colour, value in railcars
    )
