"""R-8: where a card may join the railway, on the table's geometry."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.caboose.rules import engine
from companion.games.caboose.rules.edition import load
from companion.games.caboose.rules.geometry import (
    PlacementError,
    Pose,
    check_play,
    extend,
    first_railway_layout,
    legal_placements,
    open_ends,
    rail_ends,
)
from companion.games.caboose.rules.state import Play, RuleError

LC = load("loose-caboose")
RC = load("rollecate")
W, H = LC.card_mm  # 63 x 88


def test_a_straight_runs_between_the_middles_of_its_short_edges():
    assert rail_ends("2/s", Pose(100, 100, 0), LC.card_mm) == (
        (100, 100 - H / 2),
        (100, 100 + H / 2),
    )
    (x0, y0), (x1, y1) = rail_ends("2/s", Pose(100, 100, 90), LC.card_mm)
    assert (round(x0, 6), round(y0, 6), round(x1, 6), round(y1, 6)) == (
        100 + H / 2, 100, 100 - H / 2, 100,
    )  # fmt: skip


def test_a_curve_joins_the_bottom_short_edge_to_the_right_long_edge():
    assert rail_ends("3/c", Pose(0, 0, 0), LC.card_mm) == ((0, H / 2), (W / 2, 0))


def _base() -> tuple[list[str], list[Pose]]:
    """Two straights running down the table: the open end is (0, H/2)."""
    return ["1/s", "1/s"], [Pose(0, -H, 0), Pose(0, 0, 0)]


def test_a_straight_after_a_straight_continues_the_line():
    railway, layout = _base()
    assert legal_placements(LC, railway, layout, "2/s") == [Pose(0, H, 0)]


def test_a_curve_can_turn_either_way():
    """Entered by its short edge a curve turns one way, by its long edge the other."""
    railway, layout = _base()
    options = legal_placements(LC, railway, layout, "2/c")
    assert len(options) == 2
    exits = []
    for pose in options:
        ends = rail_ends("2/c", pose, LC.card_mm)
        joined = [e for e in ends if abs(e[0]) + abs(e[1] - H / 2) < 1e-6]
        assert len(joined) == 1  # each joins the open end (0, H/2)
        exits += [e for e in ends if e not in joined]
    assert sorted(x for x, _ in exits) == [-W / 2, H / 2]


def test_a_card_without_a_shape_may_be_either():
    railway, layout = _base()
    assert len(legal_placements(LC, railway, layout, "2")) == 3


def test_the_open_end_is_the_one_not_joined_to_the_card_before():
    railway, layout = ["1/s", "2/s"], [Pose(0, 0, 0), Pose(0, H, 0)]
    assert open_ends(railway, layout, LC.card_mm) == ((0, H + H / 2),)
    # Laid the other way round: the open end is now at the top.
    railway, layout = ["1/s", "2/s"], [Pose(0, 0, 0), Pose(0, -H, 0)]
    assert open_ends(railway, layout, LC.card_mm) == ((0, -H - H / 2),)


def _closing_placement(railway, layout, depth):
    """Search railways of straights and curves for a card that would close a ring: legal
    where loops are allowed, refused in Loose Caboose."""
    for code in ("1/c", "1/s"):
        options = legal_placements(RC, railway, layout, code)
        refused = [p for p in options if p not in legal_placements(LC, railway, layout, code)]
        if refused:
            return railway, layout, code, refused[0]
        for pose in options if depth else ():
            found = _closing_placement([*railway, code], [*layout, pose], depth - 1)
            if found:
                return found
    return None


def test_no_loop_in_loose_caboose_but_loops_allowed_elsewhere():
    found = _closing_placement(*_base(), depth=5)
    assert found, "a railway can come back to where it started"
    railway, layout, code, closing = found
    check_play(RC, railway, layout, [code], [closing])
    with pytest.raises(PlacementError, match="loop"):
        check_play(LC, railway, layout, [code], [closing])


def test_a_card_may_not_overlap_another():
    railway = ["4/s", "1/s", "1/s"]
    layout = [Pose(0, 1.9 * H, 0), Pose(0, -H, 0), Pose(0, 0, 0)]  # card 1 lies below the front
    with pytest.raises(PlacementError, match="on top of railway card 1"):
        check_play(LC, railway, layout, ["2/s"], [Pose(0, H, 0)])
    assert legal_placements(LC, railway, layout, "2/s") == []
    assert legal_placements(LC, railway[1:], layout[1:], "2/s") == [Pose(0, H, 0)]


def test_cards_seen_by_the_camera_are_checked_with_a_tolerance():
    railway, layout = _base()
    check_play(LC, railway, layout, ["2/s"], [Pose(1.5, H + 2, 3.0)])  # a little off
    with pytest.raises(PlacementError, match="does not join"):
        check_play(LC, railway, layout, ["2/s"], [Pose(30, H, 0)])
    with pytest.raises(PlacementError, match="degrees"):
        check_play(LC, railway, layout, ["2/s"], [Pose(0, H, 45)])


def test_several_cards_join_one_after_the_other():
    railway, layout = _base()
    check_play(LC, railway, layout, ["3/s", "3/s"], [Pose(0, H, 0), Pose(0, 2 * H, 180)])
    with pytest.raises(PlacementError, match="card 2 played"):
        check_play(LC, railway, layout, ["3/s", "3/s"], [Pose(0, H, 0), Pose(0, H, 0)])


def test_a_run_of_cards_is_laid_one_after_the_other_until_one_does_not_fit():
    railway, layout = _base()
    assert extend(LC, railway, layout, ["3/s", "3/s"]) == [Pose(0, H, 0), Pose(0, 2 * H, 0)]
    # Card 1 lies where the second card would go: the first is laid, the second is not.
    blocked = ["4/s", *railway], [Pose(0, 2.9 * H, 0), *layout]
    assert extend(LC, *blocked, ["3/s", "3/s"]) == [Pose(0, H, 0)]


def test_an_unknown_front_makes_the_first_card_the_anchor():
    """R-12: a record's setup has no poses; the first card placed is taken as it lies."""
    check_play(LC, ["1/s", "2/s"], [None, None], ["2/s"], [Pose(500, 500, 90)])
    # After the anchor, both its ends are candidates: the card before it is unknown.
    assert len(open_ends(["1/s", "2/s"], [None, Pose(500, 500, 90)], LC.card_mm)) == 2


def test_the_engine_refuses_an_illegal_placement_and_keeps_the_state():
    state = engine.start(
        "loose-caboose", ["Ana", "Bo"], ["1/s", "1/s", "2/s"], 0,
        [["2/s", "3/s", "3/s", "4/s", "4/s"], ["1/s", "1/s", "2/s", "2/s", "3/s"]],
        ["4/s", "1/c"],
    )  # fmt: skip
    state = replace(state, layout=first_railway_layout(LC, state.railway))
    front = state.layout[-1]
    wrong = Pose(front.x + 200, front.y, 0)
    with pytest.raises(RuleError) as error:
        engine.apply(state, Play(("2/s",), (0, 0), place=(wrong,)))
    assert error.value.rule == "placement"
    good = legal_placements(LC, state.railway, state.layout, "2/s")[0]
    after, _ = engine.apply(state, Play(("2/s",), (0, 0), place=(good,)))
    assert after.layout[-1] == good
    assert after.railway[-1] == "2/s"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["1/s", "2/c", "3/s", "4/c"]), min_size=1, max_size=30),
       st.integers(0, 7))  # fmt: skip
def test_every_listed_placement_passes_the_check(codes, pick):
    """Build railways from listed placements: each one is legal by `check_play`, no two
    cards ever overlap, and the railway stays connected."""
    railway, layout = _base()
    for code in codes:
        options = legal_placements(LC, railway, layout, code)
        for pose in options:
            check_play(LC, railway, layout, [code], [pose])
        if not options:
            continue
        railway.append(code)
        layout.append(options[pick % len(options)])
    boxes = [_box(p) for p in layout]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x <= 1e-6 or overlap_y <= 1e-6


def _box(pose: Pose) -> tuple[float, float, float, float]:
    half_w, half_h = (W / 2, H / 2) if pose.rotation % 180 == 0 else (H / 2, W / 2)
    return pose.x - half_w, pose.y - half_h, pose.x + half_w, pose.y + half_h


def test_first_railway_layout_lays_the_dealt_railway():
    layout = first_railway_layout(LC, ["1/s", "2/c", "3/s"])
    assert layout is not None and len(layout) == 3
    assert first_railway_layout(LC, ["1", "2/s"]) is None  # no shape, no geometry


def test_a_pose_from_a_record_is_checked():
    assert Pose.from_list([1, 2.5, 450]) == Pose(1.0, 2.5, 90.0)
    for bad in ([1, 2], "1,2,3", [1, True, 3], [1, float("nan"), 0]):
        with pytest.raises(ValueError):
            Pose.from_list(bad)
