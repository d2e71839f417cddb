"""The tracker: events only from a still table, never from a hand passing over it.

First on observations built by hand (exact, fast), then on frames rendered by the
synthetic table and read by the real recognition, with a hand moving over the cards."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from companion.games.caboose.tracker import (
    CABOOSE_MOVED,
    CARDS_LAID,
    CARDS_LIFTED,
    CARDS_SHOWN,
    CARDS_TAKEN,
    DICE_SETTLED,
    RAILWAY_CHANGED,
    TABLE_SEEN,
    CameraHint,
    FrameReader,
    TableView,
    Tracker,
    TrackerConfig,
)
from companion.games.caboose.vision.observation import Observation, SeenCard, SeenDie, VisionConfig
from companion.games.caboose.vision.problems import Problem
from companion.pose import Pose

ZONE = (70.0, 495.0, 360.0, 565.0)
HAND = (Problem("covered", {"percent": 6}),)

# A straight railway running down the table: back at the top.
RAILWAY = [SeenCard(code, 0.9, Pose(400.0, 100.0 + 88.0 * i, 0.0)) for i, code in
           enumerate(["2/s", "3/s", "1/s", "4/s"])]  # fmt: skip


def seen(
    railway=RAILWAY,
    caboose: int | None = 1,
    dice: tuple[SeenDie, ...] = (),
    loose: tuple[SeenCard, ...] = (),
    problems: tuple[Problem, ...] = (),
    jitter: float = 0.0,
) -> Observation:
    """An observation: the railway (listed in a shuffled order, as recognition may),
    the caboose, dice, cards lying apart, and what could not be seen."""
    moved = [replace(c, pose=Pose(c.pose.x + jitter, c.pose.y - jitter, c.pose.rotation))
             for c in railway]  # fmt: skip
    cards = tuple(moved[::-1]) + loose
    order = tuple(len(moved) - 1 - i for i in range(len(moved)))
    return Observation(cards, order, caboose, dice, problems)


def die(face: int, x: float, y: float = 530.0) -> SeenDie:
    return SeenDie("wheels", face, (x, y), 1.0)


def feed(tracker: Tracker, observation: Observation, times: int) -> list:
    events = []
    for _ in range(times):
        events += tracker.feed(observation)
    return events


@pytest.fixture
def tracker() -> Tracker:
    t = Tracker(TrackerConfig(still_frames=3, zone=ZONE))
    assert [e.what for e in feed(t, seen(), 3)] == [TABLE_SEEN]
    return t


def test_the_first_still_view_is_seen_after_enough_frames():
    t = Tracker(TrackerConfig(still_frames=3))
    assert feed(t, seen(), 2) == []
    (event,) = t.feed(seen(jitter=1.0))  # noise within the tolerance is the same table
    assert event.what == TABLE_SEEN and event.view.codes == ("2/s", "3/s", "1/s", "4/s")
    assert feed(t, seen(), 10) == []  # still, and nothing new


def test_cards_laid_at_the_front(tracker):
    laid = SeenCard("4/c", 0.8, Pose(400.0, 452.0, 0.0))
    assert feed(tracker, seen([*RAILWAY, laid]), 2) == []
    (event,) = tracker.feed(seen([*RAILWAY, laid]))
    assert event.what == CARDS_LAID and event.cards == (laid,)


def test_a_hand_over_the_cards_triggers_nothing(tracker):
    # the hand hides cards and is seen as a problem, frame after frame, even held still
    hidden = seen(RAILWAY[:2], caboose=None, problems=HAND)
    assert feed(tracker, hidden, 10) == []
    # a card that vanishes for a frame or two without any problem reported
    assert feed(tracker, seen(RAILWAY[:3]), 2) == []
    assert feed(tracker, seen(), 5) == []
    assert feed(tracker, seen(RAILWAY[1:], caboose=0), 1) == []
    assert feed(tracker, seen(), 5) == []


def test_a_problem_frame_restarts_the_count(tracker):
    laid = [*RAILWAY, SeenCard("4/c", 0.8, Pose(400.0, 452.0, 0.0))]
    events = feed(tracker, seen(laid), 2)
    events += tracker.feed(seen(laid, problems=HAND))
    events += feed(tracker, seen(laid), 2)
    assert events == []
    assert [e.what for e in tracker.feed(seen(laid))] == [CARDS_LAID]


def test_cards_taken_from_the_back_and_the_caboose_moved(tracker):
    after = seen(RAILWAY[2:], caboose=1)  # the caboose went from "3/s" to "4/s"
    events = feed(tracker, after, 3)
    assert [e.what for e in events] == [CARDS_TAKEN, CABOOSE_MOVED]
    assert [c.code for c in events[0].cards] == ["2/s", "3/s"]
    assert events[1].caboose == 1


def test_a_railway_read_backwards_after_cards_left_the_back_is_turned_round(tracker):
    backwards = list(reversed(RAILWAY[1:]))
    observation = Observation(tuple(backwards), (0, 1, 2), 2)
    events = feed(tracker, observation, 3)
    assert [e.what for e in events] == [CARDS_TAKEN]
    assert events[0].view.codes == ("3/s", "1/s", "4/s") and events[0].view.caboose == 0


def test_cards_lifted_from_the_front(tracker):
    laid = [*RAILWAY, SeenCard("4/c", 0.8, Pose(400.0, 452.0, 0.0))]
    feed(tracker, seen(laid), 3)
    events = feed(tracker, seen(), 3)
    assert [e.what for e in events] == [CARDS_LIFTED]


def test_a_card_moved_in_the_middle_is_an_unexplained_change(tracker):
    moved = list(RAILWAY)
    moved[2] = replace(moved[2], pose=Pose(460.0, 276.0, 0.0))
    assert [e.what for e in feed(tracker, seen(moved), 3)] == [RAILWAY_CHANGED]


def test_tumbling_dice_trigger_nothing_settled_dice_do(tracker):
    for frame in range(8):  # dice rolling: another place and face every frame
        assert tracker.feed(seen(dice=(die(frame % 3, 400.0 + 30 * frame),))) == []
    settled = seen(dice=(die(2, 500.0), die(0, 600.0)))
    events = feed(tracker, settled, 3)
    assert [e.what for e in events] == [DICE_SETTLED]
    assert sorted(d.face for d in events[0].dice) == [0, 2]
    assert feed(tracker, settled, 5) == []
    # the same dice thrown again to other places are a new roll
    again = seen(dice=(die(2, 420.0), die(0, 680.0)))
    assert [e.what for e in feed(tracker, again, 3)] == [DICE_SETTLED]


def test_cards_shown_in_the_zone_left_to_right(tracker):
    right = SeenCard("C3", 0.9, Pose(250.0, 530.0, 90.0))
    left = SeenCard("C1", 0.9, Pose(120.0, 530.0, 90.0))
    outside = SeenCard("C4", 0.9, Pose(700.0, 300.0, 0.0))
    events = feed(tracker, seen(loose=(right, outside, left)), 3)
    assert [e.what for e in events] == [CARDS_SHOWN]
    assert [c.code for c in events[0].cards] == ["C1", "C3"]


def test_the_config_refuses_nonsense():
    with pytest.raises(ValueError):
        TrackerConfig(still_frames=0)
    with pytest.raises(ValueError):
        TrackerConfig(zone=(10.0, 10.0, 5.0, 20.0))


def test_the_hint_gives_the_back_of_the_last_still_view_and_the_games_railway():
    (event,) = Tracker(TrackerConfig(still_frames=1)).feed(seen())
    hint = CameraHint.of(["2", "3", "1", "4"], event.view)
    assert hint == CameraHint(("2", "3", "1", "4"), (400.0, 100.0))
    assert CameraHint.of(["2"], None) == CameraHint(("2",), None)
    assert CameraHint.of([], TableView()).back is None


def test_the_frame_reader_reads_the_railway_from_the_end_the_hint_names():
    """The hint is all the frame reader knows of the back: the same frame is read top end
    first without it, and from the hinted end with it (the caboose index follows)."""
    from tests.vision.scenes import explicit_frame

    frame = explicit_frame("easy")
    codes = []
    for hint in (None, CameraHint(back=(420.0, 400.0))):
        reader = FrameReader(VisionConfig(), Tracker(TrackerConfig(still_frames=1)))
        (event,) = reader.see(frame, hint)
        codes.append((event.view.codes, event.view.caboose))
    assert codes == [(("3/s", "2/c"), 0), (("2/c", "3/s"), 1)]


def test_a_railway_that_reads_the_same_both_ways_is_read_with_the_game_s_caboose():
    """After a restart nothing says where the back of a 3 4 4 3 railway lay: it is read
    with the caboose on the card the game has it on, not the mirror card (a demo killed
    and resumed once stopped on "the caboose belongs on card 4; the camera sees card 1")."""
    codes = ["3/c", "4/c", "4/c", "3/c"]
    palindrome = [replace(card, code=code) for card, code in zip(RAILWAY, codes, strict=True)]
    for game_caboose, read in ((3, 3), (0, 0)):
        tracker = Tracker(TrackerConfig(still_frames=1))
        (event,) = tracker.feed(seen(palindrome, caboose=0), codes, game_caboose)
        assert event.view.caboose == read
    # once the table has been seen still, the game's caboose overrules no reading
    tracker = Tracker(TrackerConfig(still_frames=1))
    tracker.feed(seen(palindrome, caboose=0), codes, 0)
    (event,) = tracker.feed(seen(palindrome, caboose=1), codes, 3)
    assert event.view.caboose == 1


def test_before_any_still_view_the_hints_railway_says_which_end_is_the_back():
    flipped = Tracker(TrackerConfig(still_frames=1))
    (event,) = flipped.feed(seen(), ["4", "1", "3", "2"])
    assert event.view.codes == ("4/s", "1/s", "3/s", "2/s")
    assert event.view.caboose == 2


# --- rendered frames --------------------------------------------------------------------

FRAME = (960, 720)


@cache
def rendered():
    """A railway with the caboose and two dice, and the same table with a hand moving
    over the cards (six places, some held still): every frame through the real vision."""
    from companion.games.caboose import scenes as synthetic

    camera = replace(synthetic.Camera.easy(), frame_size=FRAME)
    scene = synthetic.random_scene(11, "rollecate", n_cards=8, n_dice=2)
    front = scene.cards[scene.railway[-1]].pose
    still = synthetic.render(scene, 3, camera)
    moves = [(0, 0, 200, 1.0), (60, -40, 160, 1.0), (-80, 30, 220, 0.8), (0, 120, 180, 1.1),
             (150, 150, 120, 1.0), (-200, -100, 250, 0.9)]  # fmt: skip
    hands = [
        synthetic.render(
            replace(scene, hands=(synthetic.Hand(front.x + dx, front.y + dy, turn, scale),)),
            3,
            camera,
        )
        for dx, dy, turn, scale in moves
    ]
    return scene, still, hands


@pytest.mark.slow
def test_rendered_frames_with_a_hand_moving_over_the_table_trigger_nothing():
    scene, still, hands = rendered()
    reader = FrameReader(VisionConfig(frame_size=FRAME), Tracker(TrackerConfig(still_frames=2)))
    events = reader.see(still) + reader.see(None)
    assert [e.what for e in events] == [TABLE_SEEN]
    assert len(events[0].view.railway) == len(scene.railway)
    hint = CameraHint.of(events[0].view.codes, events[0].view)  # as the game tells it
    seen_after: list = []
    for index, frame in enumerate(hands):
        seen_after += reader.see(frame, hint)
        if index % 2:  # a hand held still over the cards for a while
            seen_after += reader.see(None, hint) + reader.see(None, hint)
    seen_after += reader.see(still, hint) + reader.see(None, hint) + reader.see(None, hint)
    assert seen_after == []


@pytest.mark.slow
def test_rendered_frames_a_card_taken_after_the_hand_leaves_is_seen():
    """The other half: the same pipeline does report a change once the hand is gone (so
    the test above cannot pass by seeing nothing at all)."""
    from companion.games.caboose import scenes as synthetic

    scene, still, hands = rendered()
    camera = replace(synthetic.Camera.easy(), frame_size=FRAME)
    reader = FrameReader(VisionConfig(frame_size=FRAME), Tracker(TrackerConfig(still_frames=2)))
    (first,) = reader.see(still) + reader.see(None)
    back = first.view.railway[0]  # whichever end recognition took for the back
    gone = min(
        range(len(scene.cards)),
        key=lambda i: (
            abs(scene.cards[i].pose.x - back.pose.x) + abs(scene.cards[i].pose.y - back.pose.y)
        ),
    )
    if gone == scene.caboose:
        pytest.skip("the caboose stands on the back card of this scene")
    kept = [i for i in range(len(scene.cards)) if i != gone]
    fewer = replace(
        scene,
        cards=tuple(scene.cards[i] for i in kept),
        railway=tuple(kept.index(i) for i in scene.railway if i != gone),
        caboose=kept.index(scene.caboose),
    )
    frame = synthetic.render(fewer, 3, camera)
    hint = CameraHint.of(first.view.codes, first.view)  # as the game tells it
    events = reader.see(hands[0], hint) + reader.see(frame, hint) + reader.see(None, hint)
    assert [e.what for e in events] == [CARDS_TAKEN]
    assert [c.code for c in events[0].cards] == [back.code]


def test_a_railway_slid_as_a_whole_is_read_as_it_lay():
    """Two straights in a line read the same both ways: only where they lay tells the
    back; after the players slide the railway, it is still the same end."""
    pair = [SeenCard("3/s", 0.9, Pose(400.0, 100.0, 0.0)),
            SeenCard("3/s", 0.9, Pose(400.0, 188.0, 180.0))]  # fmt: skip
    t = Tracker(TrackerConfig(still_frames=1))
    (first,) = t.feed(Observation(tuple(pair), (0, 1), 1), expected=["3/s", "3/s"])
    assert first.view.railway[0].pose.y == 100.0
    slid = [replace(c, pose=Pose(c.pose.x - 150.0, c.pose.y + 40.0, c.pose.rotation))
            for c in pair]  # fmt: skip
    (event,) = t.feed(Observation(tuple(slid), (1, 0), 0), expected=["3/s", "3/s"])
    assert event.what == RAILWAY_CHANGED
    assert event.view.railway[0].pose.y == 140.0 and event.view.caboose == 1


def test_the_first_view_is_read_as_the_games_railway():
    t = Tracker(TrackerConfig(still_frames=1))
    backwards = Observation(tuple(RAILWAY), (3, 2, 1, 0), 0)
    (event,) = t.feed(backwards, expected=["2/s", "3/s", "1/s", "4/s"])
    assert event.view.codes == ("2/s", "3/s", "1/s", "4/s") and event.view.caboose == 3


@pytest.mark.slow
def test_a_lamp_s_glare_over_the_railway_is_said_and_waited_out_never_taken_as_a_move():
    """A reflection that hides railway cards (this hard table loses four under it) makes
    no event: the frame says the glare, so the table is not still, and no card is taken
    for lifted; once the lamp is moved the same railway is no news."""
    from companion.games.caboose import scenes as synthetic

    scene = synthetic.random_scene(5009, "rollecate", loose_cards=1)
    plain = synthetic.render(scene, 5009, replace(synthetic.Camera.hard(), glare=0.0))
    glared = synthetic.render(scene, 5009, synthetic.Camera.preset("hard", glare=0.03))
    reader = FrameReader(VisionConfig(), Tracker(TrackerConfig(still_frames=2)))
    (first,) = reader.see(plain) + reader.see(None)
    assert first.what == TABLE_SEEN and len(first.view.railway) == len(scene.railway)
    hint = CameraHint.of(first.view.codes, first.view)
    events = reader.see(glared, hint) + reader.see(None, hint) + reader.see(None, hint)
    assert events == []
    assert "glare" in [p.key for p in reader.last.problems]
    assert len(reader.last.cards) < len(scene.cards)  # the glare truly hides cards here
    assert reader.see(plain, hint) + reader.see(None, hint) + reader.see(None, hint) == []
