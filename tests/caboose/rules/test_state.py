"""The engine's quick makers of its frozen values give exactly what the classes give."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.caboose.rules.edition import load
from companion.games.caboose.rules.state import (
    _EVENT_FIELDS,
    _PLAY_FIELDS,
    _SEAT_FIELDS,
    _STATE_FIELDS,
    Event,
    GameState,
    Play,
    Seat,
    make_event,
    make_play,
    make_seat,
    make_state,
)
from companion.pose import Pose


def test_the_makers_set_every_field_of_their_class_in_order():
    # A field added to one of these classes must be added to its maker too.
    assert tuple(f.name for f in dataclasses.fields(Event)) == _EVENT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(GameState)) == _STATE_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Seat)) == _SEAT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Play)) == _PLAY_FIELDS


@pytest.mark.parametrize(
    ("cls", "maker", "names", "values"),
    [
        (Seat, make_seat, _SEAT_FIELDS, ("Laura", (), ("3/s", "1/c"), ("2x/s",), 3, True)),
        (Play, make_play, _PLAY_FIELDS, (("2/s", "2/c"), (1, 0, 1, 1), None, None, ())),
        (Play, make_play, _PLAY_FIELDS, (("1/s",), (1,), ("3/s!",), (Pose(1.0, 2.0, 90.0),), ())),
    ],
)
def test_a_made_seat_or_play_is_what_the_class_makes_and_stays_frozen(cls, maker, names, values):
    made = maker(*values)
    assert made == cls(*values) and hash(made) == hash(cls(*values))
    assert [getattr(made, name) for name in names] == list(values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, names[0], values[0])


def test_a_made_event_is_the_event_the_class_makes_and_stays_frozen():
    values = ("took", 2, ("3/s",), 1, {"source": "railway", "cause": "derail"})
    made = make_event(*values)
    assert made == Event(*values) and made.detail == values[4]
    assert [getattr(made, f) for f in _EVENT_FIELDS] == list(values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.what = "drew"  # type: ignore[misc]


def test_a_made_state_is_the_state_the_class_makes_and_stays_frozen():
    values = (
        load("rollecate"),
        None,
        ("1/s", "3x/s"),
        1,
        (Seat("Ana", ("2/c",)), Seat("Ben")),
        ("4/s",),
        ("2/s", "2/c"),
        ("1/c",),
        (Pose(0.0, 0.0, 0.0), Pose(0.0, 88.0, 0.0)),
        1,
        7,
        False,
        False,
    )
    made = make_state(*values)
    assert made == GameState(*values) and hash(made.seats) == hash(values[4])
    assert [getattr(made, f) for f in _STATE_FIELDS] == list(values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.turn = 8  # type: ignore[misc]
