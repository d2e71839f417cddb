"""Where the laid cards lie in the engine's frame, so that the rules judge a placement the
camera saw. The engine lays its railway from its own origin and the table lies wherever it
lies; the two are matched on the railway's front card by a quarter-turn rotation and a
shift.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.games.caboose.rules import geometry
from companion.games.caboose.rules.state import GameState
from companion.games.caboose.tracker import TableView
from companion.pose import Pose

if TYPE_CHECKING:
    from companion.games.caboose.vision.observation import SeenCard


def engine_poses(
    state: GameState, view: TableView, laid: tuple[SeenCard, ...]
) -> tuple[Pose, ...] | None:
    """The laid cards' poses in the engine's frame. The engine lays its first railway from
    its own origin, the table lies wherever it lies: the two frames are matched on the
    front card (its centre and its open rail end), so a placement is judged against the
    railway as the engine knows it. None when the engine knows no poses (a record's setup)."""
    move = to_engine(state, view)
    return None if move is None else tuple(move(card.pose) for card in laid)


def to_engine(state: GameState, view: TableView) -> Callable[[Pose], Pose] | None:
    """The motion from the table's frame into the engine's (the one the page draws the
    railway in), matched on the front card: a laid card's pose, or where a thrown die lies
    beside the railway. None when the engine knows no poses or the view shows too little
    of the railway."""
    count = len(state.railway)
    seen = view.railway[:count]
    if not state.layout or state.layout[-1] is None or len(seen) < count:
        return None
    size = state.edition.card_mm
    engine_ends = geometry.open_ends(state.railway, state.layout, size)
    table_ends = geometry.open_ends([c.code for c in seen], [c.pose for c in seen], size)
    if not engine_ends or not table_ends:
        return None
    return _matching(seen[-1].pose, table_ends[0], state.layout[-1], engine_ends[0])


def _matching(
    table_front: Pose,
    table_end: tuple[float, float],
    engine_front: Pose,
    engine_end: tuple[float, float],
) -> Callable[[Pose], Pose]:
    """The rigid motion (a quarter-turn rotation and a shift) that takes the table's front
    card and its open end onto the engine's."""
    a_table = math.atan2(table_end[1] - table_front.y, table_end[0] - table_front.x)
    a_engine = math.atan2(engine_end[1] - engine_front.y, engine_end[0] - engine_front.x)
    turn = (round(math.degrees(a_engine - a_table) / 90.0) * 90) % 360
    c, s = round(math.cos(math.radians(turn))), round(math.sin(math.radians(turn)))

    def moved(pose: Pose) -> Pose:
        dx, dy = pose.x - table_front.x, pose.y - table_front.y
        return Pose(
            round(engine_front.x + dx * c - dy * s, 2),
            round(engine_front.y + dx * s + dy * c, 2),
            round((pose.rotation + turn) % 360.0, 2),
        )

    return moved
