"""Which die the camera asks about: "die 2: is it a 6?" names no die a family can find
among three on the table, so the question carries where each settled die lies in the
frame the page draws the railway in (`question.drawn`), and the page marks them there.
The table lies any way round under the camera; the railway's drawing is the engine's.
The session and the engine are the real ones; the views are built by hand."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from companion.games.caboose.follow import ASKING
from companion.games.caboose.vision.observation import SeenCard, SeenDie
from companion.pose import Pose
from tests.caboose.test_unsure_dice import staged, store, throw  # noqa: F401 (fixtures)
from tests.playing import match


def quarter_turned(view, centre=(420.0, 315.0)):
    """The same table turned a quarter clockwise under the camera."""
    cx, cy = centre

    def turned(x: float, y: float) -> tuple[float, float]:
        return cx - (y - cy), cy + (x - cx)

    def card(seen: SeenCard) -> SeenCard:
        x, y = turned(seen.pose.x, seen.pose.y)
        return replace(seen, pose=Pose(x, y, (seen.pose.rotation + 90.0) % 360.0))

    return replace(view, railway=tuple(card(c) for c in view.railway))


def test_each_die_is_drawn_where_it_lies_beside_the_railway(staged):  # noqa: F811
    table, session, view, needed = staged
    view = quarter_turned(view)
    front = view.railway[-1].pose
    spots = [(front.x + 150.0, front.y + 40.0 * i) for i in range(needed)]
    dice = tuple(
        SeenDie("pips", 3, spot, 0.2 if i == needed - 1 else 0.95) for i, spot in enumerate(spots)
    )
    throw(table, view, dice)
    question = session.status()["question"]
    assert session.phase == ASKING and question["die"] == needed - 1
    drawn = question["drawn"]
    assert len(drawn) == needed
    # as far from every card of the railway as on the table: the railway's drawing is the
    # table's own layout, moved, so the family finds the asked die beside the right card
    state = match(table).snap.state
    for spot, place in zip(spots, drawn, strict=True):
        for seen, pose in zip(view.railway, state.layout, strict=False):
            on_table = math.dist(spot, (seen.pose.x, seen.pose.y))
            assert math.dist(place, (pose.x, pose.y)) == pytest.approx(on_table, abs=0.05)


def test_with_too_little_of_the_railway_seen_no_die_is_drawn(staged):  # noqa: F811
    table, session, view, needed = staged
    count = len(match(table).snap.state.railway)
    short = replace(view, railway=view.railway[: count - 1])
    dice = tuple(SeenDie("pips", 3, (400.0 + 40 * i, 560.0), 0.2) for i in range(needed))
    throw(table, short, dice)
    question = session.status()["question"]
    assert question["die"] == 0 and question["drawn"] is None  # asked, but not drawn
