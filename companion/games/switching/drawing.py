"""The switching-track game's camera picture (`Camera.draw`, `GET /api/camera.jpg`): the
frame with what the reader read of it drawn on it, in the page's words: each panel's slot
outlined and named by the panel's colour, each train ringed and named by its colour, the
board's four markers and the board itself, the dice beside it in a line under the picture;
a train or a space not read surely in the unsure colour; then what the turn at the table
asks the players to fix and what the camera could not see.

What to draw is the watcher's `Reading` of that frame (camera.py keeps it), never the game:
the picture shows what the camera saw, so a misread train is seen misread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from companion.games.said import session_said
from companion.games.switching.board import Board
from companion.games.switching.view import colour
from companion.games.switching.vision.reader import APRON_MM, SeenBoard, reading_layout
from companion.games.switching.words import say
from companion.vision.annotate import READ, UNSURE, Sketch
from companion.vision.table import TableLayout

_TRAIN_MM = 12.0  # a ring this far round a train's space
_WHITE = (255, 255, 255)


class Reading(NamedTuple):
    """What the camera read of one frame, and the board it looked for: ours, placed by its
    corner markers, or a family's own, `taught` (found by its picture among the table's
    markers: it has no markers of ours to draw)."""

    seen: SeenBoard
    board: Board
    taught: bool = False


class _Unmarked(TableLayout):
    """A taught board's frame: none of our corner markers (the table's own, which placed
    it, are said in the caption when hidden)."""

    def marker_corners(self) -> dict[int, np.ndarray]:
        return {}


def draw(frame: np.ndarray, reading: Reading, view: Mapping[str, Any], lang: str) -> np.ndarray:
    """A copy of `frame` with `reading` drawn on it in `lang`, and what `view`'s turn at the
    table asks (see the module's docstring)."""
    seen, board, taught = reading
    sketch = Sketch(frame, seen.calibration)
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if seen.calibration is not None:
        width, height = board.size
        area = (APRON_MM, APRON_MM, APRON_MM + width, APRON_MM + height)
        layout = reading_layout(board)
        if taught:
            layout = _Unmarked(layout.width, layout.height)
        sketch.table(layout, seen.calibration.markers, area, lang)
        for panel in seen.panels.values():
            if panel.sure and panel.slot is not None:
                slot = board.slots[panel.slot]
                corners = np.array(
                    [
                        [slot.x, slot.y],
                        [slot.x + slot.width, slot.y],
                        [slot.x + slot.width, slot.y + slot.height],
                        [slot.x, slot.y + slot.height],
                    ]
                )
                sketch.outline(corners + APRON_MM, READ)
                middle = (slot.x + slot.width / 2 + APRON_MM, slot.y + 10.0 + APRON_MM)
                sketch.label(middle, say(lang, "place_panel", panel=colour(lang, panel.colour)),
                             READ, slot.width)  # fmt: skip
        for train in seen.trains:
            at = _centre(board, seen, train.space)
            if at is None:
                continue
            sure = train.sure and train.colour is not None
            tint = READ if sure else UNSURE
            sketch.ring(at, _TRAIN_MM, tint)
            name = (
                say(lang, "camera_train", colour=colour(lang, train.colour)) if train.colour else ""
            )
            sketch.label((at[0], at[1] + 2 * _TRAIN_MM), name if sure else f"{name}?".strip(),
                         tint, 4 * _TRAIN_MM)  # fmt: skip
        for space in seen.unseen:  # a hand over it, or a train half read: not known
            at = _centre(board, seen, space)
            if at is not None:
                sketch.ring(at, _TRAIN_MM * 0.6, UNSURE)
        dice = seen.dice
        numbers = " · ".join(map(str, dice.numbers)) if dice.numbers else "?"
        said = say(lang, "camera_dice", colour=colour(lang, dice.colour) if dice.colour else "?",
                   numbers=numbers)  # fmt: skip
        lines.append((said, READ if dice.sure else UNSURE))
    problem, told = session_said(view.get("session"))
    lines += [(problem, UNSURE)] if problem else []
    return sketch.finish(lines + [(text, _WHITE) for text in told])


def _centre(board: Board, seen: SeenBoard, space: str) -> tuple[float, float] | None:
    """Where a space's centre lies in the reader's millimetres (the board's, with the apron
    round it), or None for a panel's space while the panels' lie is not read."""
    found = board.spaces.get(space)
    if found is None or (found.panel is not None and seen.layout is None):
        return None
    x, y = board.centre(space, seen.layout or board.home)
    return x + APRON_MM, y + APRON_MM
