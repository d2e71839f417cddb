"""The view's own arithmetic: the discard order a turn used, the other orders offered, the
schematic railway, and the log with its corrections in place."""

from __future__ import annotations

from companion.games.caboose import view
from companion.games.caboose.record import from_json
from companion.games.caboose.rules.state import CANCELLED, PILED, Event
from companion.games.caboose.snapshot import snapshot_of
from tests.web.conftest import record


def test_the_order_used_marks_a_card_that_did_not_combine():
    steps = [Event(PILED, 0, ("3",)), Event(CANCELLED, 0, ("2", "2"))]
    assert view._used_order(["3"], steps) == ["3!", "2"]


def test_order_options_best_first_with_the_chosen_one():
    options = view.order_options([], ["3", "3"], ["3", "3!"])
    assert [o["pile"] for o in options] == [[], ["3", "3"]]
    assert [o["points"] for o in options] == [0, 6]
    assert [o["chosen"] for o in options] == [False, True]
    assert options[0]["cancels"] == [["3", "3"]]


def test_many_order_options_are_cut_to_the_best_and_the_chosen():
    taken = ["1", "2", "3", "4", "1", "2"]
    options = view.order_options(["1", "2", "3"], taken, taken)
    assert len(options) == view.MAX_ORDER_OPTIONS + 1
    assert options[-1]["chosen"]


def test_a_railway_without_poses_is_drawn_schematic():
    snap = snapshot_of(from_json(record()), 0)
    railway = view.railway(snap.state)
    assert railway["schematic"] is True
    assert len({tuple(c["pose"]) for c in railway["cards"]}) == len(railway["cards"])
    assert view.placements(snap.state, ["2"]) is None


def test_corrections_follow_the_turn_they_correct():
    snap = snapshot_of(from_json(record(turns=[{"pass": True}, {"pass": True}])), 2)
    snap = type(snap)(**{**snap.__dict__, "notes": ("turn 1: discard order changed to ['2!']",)})
    lines = view.log(snap, "en")
    assert [(e["turn"], bool(e.get("correction"))) for e in lines] == [
        (2, False),
        (1, True),
        (1, False),
    ]
