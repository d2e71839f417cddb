"""Recognition on rendered tables: cards, railway, caboose, dice, and frames gone wrong."""

from __future__ import annotations

import math
import warnings
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.scenes import PlacedCard, Scene, random_scene, render
from companion.games.caboose.vision.observation import Observation, VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.games.caboose.vision.problems import Problem
from companion.pose import Pose
from companion.synthetic import Camera, Hand, PlacedDie, camera_view
from companion.vision.frame_checks import ChangeGate, colourless
from tests.opencv_versions import differs_on_opencv_5
from tests.vision.scenes import explicit_frame, explicit_scene, random_frame


def _match(scene: Scene, seen: Observation) -> dict[int, int]:
    """True card index -> seen card index, by position."""
    found = {}
    for i, card in enumerate(scene.cards):
        near = [
            j
            for j, got in enumerate(seen.cards)
            if math.dist((got.pose.x, got.pose.y), (card.pose.x, card.pose.y)) < 5.0
        ]
        if near:
            found[i] = near[0]
    return found


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hard_table_every_card_its_code_pose_railway_caboose_and_dice(seed: int) -> None:
    scene, frame = random_frame(seed)
    back = scene.cards[scene.railway[0]].pose
    seen = observe(frame, back=(back.x, back.y))
    assert seen.problems == ()
    found = _match(scene, seen)
    assert len(found) == len(scene.cards) == len(seen.cards)
    for i, j in found.items():
        truth, got = scene.cards[i], seen.cards[j]
        assert got.code == truth.code
        assert math.dist((got.pose.x, got.pose.y), (truth.pose.x, truth.pose.y)) < 3.0
        turn = (got.pose.rotation - truth.pose.rotation + 180) % 360 - 180
        assert abs(turn) < 3.0, (truth, got)
        assert 0 < got.confidence <= 1
    assert [found[i] for i in scene.railway] == list(seen.railway)
    assert seen.railway[seen.caboose] == found[scene.caboose]
    assert math.dist(seen.caboose_at, scene.caboose_at) < 3.0
    faces = sorted((d.kind, d.face) for d in seen.dice)
    assert faces == sorted((d.kind, d.face) for d in scene.dice)


@pytest.mark.parametrize(
    ("edition", "seed"),
    [("rollecate", 7003), ("rollecate", 7001), ("rollecate", 7099),
     pytest.param("loose-caboose", 7000, marks=differs_on_opencv_5(
         "issue 30, left open: on OpenCV 5 the inside of table 7000's blurred frame has a "
         "notch (fill 0.87, under 0.9), so the card stays unseen (said, not misread)")),
     ("loose-caboose", 7016)],
)  # fmt: skip
def test_a_webcam_frame_reads_every_card_its_railway_caboose_and_dice(
    edition: str, seed: int
) -> None:
    """1280x720 holds the table at about 0.6 px/mm on a hard camera, where a card's 3 mm
    frame is under two pixels and blurred fainter than at the default camera's density:
    five cards of the first table went unfound and their print was taken for a dozen
    dice; in the others a card's frame in its shadowed corner was blurred open (by up to
    a centimetre in the third), the card unseen and its print taken for dice; in the last
    two the frame blurred into the card's shadow and the grain beside it, so that only
    its inside was still a rectangle (the card unseen, said unread)."""
    camera = Camera.preset("hard", glare=0.0, frame_size=(1280, 720))
    cards = {"n_cards": 20, "n_dice": 4} if seed == 7003 else {}
    scene = random_scene(seed, edition, loose_cards=1, **cards)
    back = scene.cards[scene.railway[0]].pose
    config = VisionConfig.for_edition(edition, frame_size=(1280, 720))
    seen = observe(render(scene, seed, camera), config, back=(back.x, back.y))
    assert seen.problems == ()
    found = _match(scene, seen)
    assert len(found) == len(scene.cards) == len(seen.cards)
    assert all(seen.cards[j].code == scene.cards[i].code for i, j in found.items())
    assert [found[i] for i in scene.railway] == list(seen.railway)
    assert seen.railway[seen.caboose] == found[scene.caboose]
    assert len(seen.dice) == len(scene.dice)  # none seen where none lies
    for die in scene.dice:  # each found; read right, or asked (coarse pips may be unsure)
        got = min(seen.dice, key=lambda d: math.dist(d.position, (die.x, die.y)))
        assert math.dist(got.position, (die.x, die.y)) < 5.0
        right = (got.kind, got.face) == (die.kind, die.face)
        assert right or got.confidence < FollowConfig().die_unsure_below, (die, got)


def test_a_table_seen_too_coarsely_is_said_and_nothing_is_read() -> None:
    """480x270 holds the table at under 4 pixels a centimetre: a die's pips are a pixel,
    so the camera says so rather than read the cards and dice wrong."""
    scene = random_scene(5, "rollecate", n_cards=8, n_dice=2)
    frame = render(scene, 5, Camera.preset("easy", frame_size=(480, 270)))
    seen = observe(frame, VisionConfig(frame_size=(480, 270)))
    assert [p.key for p in seen.problems] == ["too_coarse"]
    assert "3.9 pixels a centimetre, at least 5" in seen.problems[0].text()
    assert seen.cards == () and seen.dice == () and seen.caboose is None


def test_touching_cards_chaos_card_and_every_die_face() -> None:
    scene = explicit_scene()
    seen = observe(explicit_frame("hard"))
    found = _match(scene, seen)
    assert {scene.cards[i].code: seen.cards[j].code for i, j in found.items()} == {
        c.code: c.code for c in scene.cards
    }
    # the two joined cards are the railway; the chaos card and the side-by-side ones are not
    assert seen.railway == (found[0], found[1])
    assert seen.caboose == 0
    for die in scene.dice:
        near = [d for d in seen.dice if math.dist(d.position, (die.x, die.y)) < 4]
        assert [(d.kind, d.face) for d in near] == [(die.kind, die.face)]


def test_railway_back_is_the_hinted_end_or_else_the_top_end() -> None:
    scene = explicit_scene()
    frame = explicit_frame("easy")
    top_first = observe(frame)
    assert [top_first.cards[i].code for i in top_first.railway] == ["3/s", "2/c"]
    hinted = observe(frame, back=(420.0, 400.0))
    assert [hinted.cards[i].code for i in hinted.railway] == ["2/c", "3/s"]
    assert hinted.caboose == 1  # the caboose stays on the 3/s, now the front
    assert scene.cards[scene.caboose].code == "3/s"


def _problems(frame: object, **kwargs) -> tuple[str, ...]:
    """The frame's problems in English, as the logs and the API say them."""
    seen = observe(frame, **kwargs)
    assert isinstance(seen, Observation)
    return tuple(problem.text() for problem in seen.problems)


def test_black_overexposed_and_non_frames_give_problems_not_exceptions() -> None:
    assert _problems(np.zeros((1088, 1456, 3), np.uint8)) == (
        "the picture is almost black: is the light on and the lens uncovered?",
    )
    assert "overexposed" in " ".join(_problems(np.full((1088, 1456, 3), 255, np.uint8)))
    assert _problems(None) == ("no usable image came from the camera",)
    assert _problems("frame") == _problems(None)
    assert _problems(np.zeros((10, 10), np.uint8)) == ("the frame is only 10x10 pixels",)
    assert _problems(np.zeros((1088, 1456, 5), np.uint8)) == (
        "the frame has 5 colour channels, not 3",
    )


def test_a_dim_frame_is_too_dark_exactly_when_its_brightest_hundredth_is_dim() -> None:
    """Too dark is the thumbnail's 99th percentile under 40 levels (a few lit spots in the
    dark): told by counting where that settles it, it must say what the percentile says,
    with the lit share just either side of a hundredth and the lit spots just either side
    of 40 levels."""
    from companion.games.caboose.vision.frame_checks import exposure_problem

    rng = np.random.default_rng(5)
    said = set()
    for share in np.linspace(0.005, 0.015, 41):
        for lit in (38, 39, 40, 41, 90):
            frame = np.full((1088, 1456, 3), 30, np.uint8)
            thumb = frame[::8, ::8]
            spots = rng.random(thumb.shape[:2]) < share
            thumb[spots] = lit
            small = cv2.cvtColor(np.ascontiguousarray(frame[::8, ::8]), cv2.COLOR_BGR2GRAY)
            dark = float(np.percentile(small, 99)) < 40
            assert (exposure_problem(frame) == Problem("too_dark")) == dark, (share, lit)
            said.add(dark)
    assert said == {True, False}


def test_only_a_frame_without_any_colour_is_colourless() -> None:
    """One coloured pixel anywhere (here off the quick check's sample grid) makes a frame a
    colour frame: a dim room's washed-out colour is not said to be no colour."""
    frame = np.full((64, 64, 3), 128, np.uint8)
    assert colourless(frame)
    frame[30, 30] = (128, 128, 140)
    assert not colourless(frame)


def test_a_frame_without_colour_is_read_and_says_why_the_caboose_is_not_seen() -> None:
    """A mono camera's frame: the cards are read, and instead of the caboose not being seen
    (it is found by its colour) the family is told the picture has no colour."""
    scene, frame = random_frame(0)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for mono in (grey, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        seen = observe(mono)
        assert [p.key for p in seen.problems] == ["no_colour"]
        assert "switch the camera's colour on" in seen.problems[0].text()
        assert len(seen.cards) >= len(scene.cards) - 1
    assert observe(frame).problems == ()


def test_wrong_frame_size_is_named_and_still_read() -> None:
    scene, frame = random_frame(0)
    small = cv2.resize(frame, (1200, 900), interpolation=cv2.INTER_AREA)
    seen = observe(small)
    assert seen.problems[0] == Problem(
        "frame_size", {"width": 1200, "height": 900, "want_width": 1456, "want_height": 1088}
    )
    assert seen.problems[0].text() == (
        "the frame is 1200x900, not the configured 1456x1088: check the camera mode"
    )
    assert len(seen.cards) >= len(scene.cards) - 2


def test_hand_over_half_the_table_is_reported() -> None:
    scene = random_scene(8, n_cards=16, n_dice=2)
    hand = Hand(420.0, 330.0, 60.0, 3.0)
    covered = Scene(scene.cards, scene.railway, scene.caboose, scene.caboose_at, scene.dice,
                    (hand,))  # fmt: skip
    frame = render(covered, 8, Camera.hard())
    seen = observe(frame)
    assert seen.problems
    assert len(seen.cards) < len(scene.cards)


def test_covered_markers_are_named_and_a_previous_calibration_is_used() -> None:
    scene, frame = random_frame(1, "easy")
    before = observe(frame)
    view = camera_view(1, Camera.easy(), scene.layout)
    covered = frame.copy()
    for marker_id in (1, 2, 3):
        corners = view.to_pixels(scene.layout.marker_corners()[marker_id])
        cv2.fillConvexPoly(covered, corners.round().astype(np.int32), (90, 120, 160))
    alone = observe(covered)
    hidden, placed = (p.text() for p in alone.problems)
    assert hidden.startswith("table markers ") and "1, 2, 3 not seen: is something" in hidden
    assert placed == "cannot place the table: fewer than two markers are visible"
    assert not alone.cards
    helped = observe(covered, calibration=before.calibration)
    assert helped.problems[0].key == "markers_hidden"
    assert "1, 2, 3" in helped.problems[0].params["markers"]
    assert sorted(c.code for c in helped.cards) == sorted(c.code for c in before.cards)


def test_change_gate_skips_still_frames_and_wakes_for_a_moved_die() -> None:
    scene = explicit_scene()
    frame = explicit_frame("easy")
    gate = ChangeGate()
    assert gate.changed(frame)
    assert not gate.changed(frame.copy())
    die = scene.dice[0]
    rolled = (PlacedDie(die.kind, die.face, 300.0, 420.0), *scene.dice[1:])
    moved = Scene(scene.cards, scene.railway, scene.caboose, scene.caboose_at, rolled)
    assert gate.changed(render(moved, 5, Camera.easy()))


def test_change_gate_takes_fresh_sensor_noise_for_a_still_table() -> None:
    """A still camera's next frame is the same picture with new noise, compressed again:
    the service must not read it again (a hard camera's frame, whose size is no whole
    number of the gate's thumbnail squares)."""
    scene = random_scene(3001, loose_cards=1)
    frame = render(scene, 3001, Camera.hard())
    gate = ChangeGate()
    assert gate.changed(frame)
    rng = np.random.default_rng(3)
    for _ in range(5):
        noisy = cv2.add(frame, rng.normal(0, 3.0, frame.shape), dtype=cv2.CV_8U)
        _, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])
        assert not gate.changed(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    die = scene.dice[0]
    rolled = (PlacedDie(die.kind, die.face, die.x + 40.0, die.y), *scene.dice[1:])
    moved = Scene(scene.cards, scene.railway, scene.caboose, scene.caboose_at, rolled)
    assert gate.changed(render(moved, 3001, Camera.hard()))


def test_another_card_size_from_the_edition() -> None:
    layout_scene = Scene(
        cards=(PlacedCard("2/s", Pose(300.0, 300.0, 90.0)),), railway=(0,), card_mm=(57.0, 89.0)
    )
    frame = render(layout_scene, 2, Camera.easy())
    seen = observe(frame, VisionConfig(card_mm=(57.0, 89.0)))
    assert [c.code for c in seen.cards] == ["2/s"]
    assert [p.text() for p in seen.problems] == ["the caboose is not seen"]


def test_cards_shown_side_by_side_in_the_zone_are_never_the_railway():
    """At the end of a game the railway may be one card, while a player shows three cards
    side by side in the marked zone, rail end against rail end: a longer chain, but cards
    shown, not laid."""
    zone = (60.0, 480.0, 380.0, 580.0)
    shown = ("3/s", "4/c", "1/s")
    side_by_side = [PlacedCard(c, Pose(118.0 + 88.0 * i, 530.0, 90.0)) for i, c in enumerate(shown)]
    scene = Scene(
        cards=(PlacedCard("2/s", Pose(500.0, 250.0, 0.0)), *side_by_side),  # railway: 1 card
        railway=(0,),
        caboose=0,
        caboose_at=(500.0, 250.0),
    )
    frame = render(scene, 3, Camera.preset("easy"))
    seen = observe(frame, back=(500.0, 250.0), apart=zone)
    assert [seen.cards[i].code for i in seen.railway] == ["2/s"]
    in_zone = sorted((c for c in seen.cards if c.pose.y > 480.0), key=lambda c: c.pose.x)
    assert tuple(c.code for c in in_zone) == shown
    unaware = observe(frame, back=(500.0, 250.0))  # without the zone, a longer chain wins
    assert len(unaware.railway) >= 2


@pytest.mark.parametrize("seed", [5013, 5020])
def test_under_a_lamp_s_glare_no_die_is_seen_where_none_lies_and_no_card_is_misread(
    seed: int,
) -> None:
    """A reflection's white spot is die-like, and it washes a card's print out: no die is
    found in it (these tables found one there), a card it touches is read from what it
    leaves or asked, and the frame says it is a reflection, not a hand."""
    scene = random_scene(seed, loose_cards=1)
    seen = observe(render(scene, seed, Camera.preset("hard", glare=0.03)))
    keys = [p.key for p in seen.problems]
    assert "glare" in keys and "covered" not in keys
    for die in seen.dice:
        assert min(math.dist(die.position, (d.x, d.y)) for d in scene.dice) < 15
    for i, j in _match(scene, seen).items():
        card = seen.cards[j]
        assert card.code == scene.cards[i].code or card.confidence < 0.25
    assert Problem("glare").text() == (
        "a reflection hides part of the table: move the lamp or tilt the camera"
    )


@pytest.mark.parametrize("seed", [61020, 61026])
def test_a_die_the_lamp_s_halo_only_nears_is_read(seed: int) -> None:
    """A die beside a lamp's reflection but clear of its white shows plainly: it is read,
    not left out with what the glare hides (these tables left one out 20-30 mm from it)."""
    scene = random_scene(seed, loose_cards=1)
    seen = observe(render(scene, seed, Camera.preset("hard", glare=0.03)))
    assert "glare" in [p.key for p in seen.problems]
    read = sorted((d.kind, d.face) for d in seen.dice)
    assert read == sorted((d.kind, d.face) for d in scene.dice)
    for die in seen.dice:
        assert min(math.dist(die.position, (d.x, d.y)) for d in scene.dice) < 8


@pytest.mark.parametrize(
    ("seed", "cards"),
    [
        pytest.param(
            5020,
            (0, 3),
            marks=differs_on_opencv_5(
                "issue 30, left open: on OpenCV 5 the glare-cut frame of table 5020 is not "
                "completed (the card unseen, said, not misread)"
            ),
        ),
        (5033, (5,)),
        (5003, (1,)),
    ],
)
def test_a_card_the_glare_washes_out_in_part_is_read_from_what_shows(
    seed: int, cards: tuple[int, ...]
) -> None:
    """A lamp's reflection clips part of these cards white (their frame broken, a corner or
    an end of the face gone, 10-30 % of the card): each is still found, its frame completed
    into the clipped part, and read surely from the rest of its face (these tables lost
    them), and the frame still says the reflection."""
    scene = random_scene(seed, loose_cards=1)
    camera = Camera.preset("hard", glare=0.03, curl=0.0, lens_error=0.0)  # glare alone
    seen = observe(render(scene, seed, camera))
    assert "glare" in [p.key for p in seen.problems]
    found = _match(scene, seen)
    for i in cards:
        assert i in found, f"card {i} ({scene.cards[i].code}) not found"
        card = seen.cards[found[i]]
        assert card.code == scene.cards[i].code and card.confidence >= 0.25
    for i, j in found.items():
        assert seen.cards[j].code == scene.cards[i].code or seen.cards[j].confidence < 0.25


def test_a_glare_cut_frame_is_weighed_near_its_outline_as_over_the_whole_image() -> None:
    """A frame the glare cut is checked only within the box round its rectangles: where the
    dark frame lies within a band of it must be what dilating it over the whole image says,
    at the image's edges too (a component in a corner, windows running off the image)."""
    from companion.games.caboose.vision.card_outlines import _near

    rng = np.random.default_rng(3)
    image = np.zeros((120, 160), np.uint8)
    for x, y in ((0, 0), (70, 40), (130, 95)):  # a corner, the middle, off the bottom right
        image[y : y + 25, x : x + 30] = rng.random((25, 30))[: 120 - y, : 160 - x] > 0.7
    band = 3
    for x, y in ((0, 0), (70, 40), (130, 95)):
        piece = image[y : y + 25, x : x + 30].copy()
        alone = np.zeros_like(image)
        alone[y : y + 25, x : x + 30] = piece
        own = cv2.dilate(alone, np.ones((2 * band + 1,) * 2, np.uint8)) > 0
        for window in ((0, 0, 160, 120), (0, 0, 20, 15), (60, 30, 110, 80), (140, 100, 160, 120)):
            x0, y0, x1, y1 = window
            assert np.array_equal(_near((piece, x, y), window, band), own[y0:y1, x0:x1])


@pytest.mark.parametrize("seed", [8011, 8023, 8024])
def test_cards_that_do_not_lie_flat_are_read_laid_flat(seed: int) -> None:
    """Curled cards (each bent or a corner lifted, up to 5 mm) under a lens error of up to
    3.5 px: every card read, the railway and the caboose right, and no die seen on a card
    where none lies (these tables had cards unread, the railway broken and dice seen on
    the bent cards before a weakly matched card was laid flat along its frame's edges)."""
    from companion.games.caboose.vision.eval_vision import score_scene

    scene = random_scene(seed, "rollecate", loose_cards=1)
    camera = Camera.preset("hard", glare=0.0, curl=5.0, lens_error=3.5)
    back = scene.cards[scene.railway[0]].pose
    config = VisionConfig.for_edition("rollecate")
    seen = observe(render(scene, seed, camera), config, back=(back.x, back.y))
    result = score_scene(scene, seen)
    assert result["cards_right"] == result["cards"] and result["cards_extra"] == 0
    assert result["railway_exact"] and result["caboose_right"]
    assert result["dice_extra"] == 0 and result["dice_wrong_sure"] == 0
    assert not any(p.key == "cards_unread" for p in seen.problems)


def _front_card_taken(scene: Scene) -> Scene:
    """`scene` a moment before its railway's front card was laid."""
    front = scene.railway[-1]
    cards = scene.cards[:front] + scene.cards[front + 1 :]
    railway = tuple(i - (i > front) for i in scene.railway[:-1])
    caboose = None if scene.caboose is None else scene.caboose - (scene.caboose > front)
    return replace(scene, cards=cards, railway=railway, caboose=caboose)


def test_the_next_frame_of_a_still_camera_reads_what_changed_as_a_fresh_frame_would() -> None:
    """The service hands each frame the last one's reading (FrameReader): where the picture
    did not change it stands, and what changed is read. Dice thrown, then a die picked up,
    then a card laid: each frame reads exactly as the same frame read from scratch, a die
    taken away is not kept from before, the card laid joins the railway."""
    scene = random_scene(3002, loose_cards=1)  # 12 cards, 3 dice; the same camera throughout
    back = (scene.cards[scene.railway[0]].pose.x, scene.cards[scene.railway[0]].pose.y)

    def read(table: Scene, previous: Observation | None) -> tuple[Observation, Observation]:
        frame = render(table, 3002, Camera.hard())
        calibration = None if previous is None else previous.calibration
        lent = observe(frame, calibration=calibration, back=back, previous=previous)
        return lent, observe(frame, back=back)

    before, _ = read(replace(scene, dice=()), None)
    assert not before.dice
    thrown, fresh = read(scene, before)
    assert thrown == fresh
    assert sorted((d.kind, d.face) for d in thrown.dice) == [
        ("pips", 5),
        ("pips", 6),
        ("wheels", 2),
    ]
    gone = scene.dice[0]
    picked_up, fresh = read(replace(scene, dice=scene.dice[1:]), thrown)
    assert picked_up == fresh
    assert all(math.dist(d.position, (gone.x, gone.y)) > 10.0 for d in picked_up.dice)
    assert len(picked_up.dice) == 2
    earlier = _front_card_taken(scene)
    shorter, _ = read(earlier, None)
    laid, fresh = read(scene, shorter)
    assert laid == fresh
    assert len(laid.railway) == len(shorter.railway) + 1 == len(scene.railway)


def test_a_card_read_only_once_laid_flat_is_read_so_on_the_next_frame_too() -> None:
    """Under a lamp's glare a card matched weakly is read only once laid flat (_laid_flat);
    the next frame lends it the match as it was before that, so it is laid flat and read
    again, not dropped as unreadable (seed 3142: the 4/c by the glare)."""
    scene = random_scene(3142, loose_cards=1)
    camera = Camera.preset("hard", glare=0.03)
    back = (scene.cards[scene.railway[0]].pose.x, scene.cards[scene.railway[0]].pose.y)
    before = observe(render(replace(scene, dice=()), 3142, camera), back=back)
    frame = render(scene, 3142, camera)
    lent = observe(frame, calibration=before.calibration, back=back, previous=before)
    fresh = observe(frame, calibration=before.calibration, back=back)
    assert [p.key for p in lent.problems] == [p.key for p in fresh.problems] == ["glare"]
    assert [c.code for c in lent.cards] == [c.code for c in fresh.cards]


def test_eval_counts_apart_the_cards_a_lamps_reflection_touches() -> None:
    """Table 5003 under a lamp: the one card not read lies under the reflection, which
    touches six of its eight cards; every card clear of it is read right. The clear share
    is what a reader is held to; every card is counted either way."""
    from companion.games.caboose.vision.eval_vision import evaluate

    r = evaluate(1, 5003, "hard", "rollecate", glare=0.03)
    assert (r["cards"], r["cards_lamp"], r["cards_lamp_right"]) == (8, 6, 5)
    assert r["cards_accuracy"] == 0.875 and r["cards_clear_accuracy"] == 1.0
    assert r["dice_lamp"] == 0 and r["dice_clear_accuracy"] == r["dice_accuracy"]
    assert r["dice_wrong_sure"] == r["dice_lamp_wrong_sure"] == 0


def test_a_card_hidden_in_part_is_scored_on_what_shows_of_it() -> None:
    # a card under the caboose, a die or a lamp's glare is matched on its seen pixels alone
    # (each colour channel's mean and spread there taken out): the faces' scores come from
    # their sums over those pixels, which must give that correlation
    catalogue = VisionConfig.for_edition("rollecate").faces()
    face = catalogue.images[catalogue.codes.index("3/c")]
    card = np.clip(face * 0.7 + (40, 20, 0), 0, 255).astype(np.uint8)  # a warm lamp
    hidden = np.zeros(face.shape[:2], np.uint8)
    cv2.circle(hidden, (20, 30), 9, 1, -1)
    card[hidden > 0] = (0, 200, 255)  # our yellow die on it

    def unit(image: np.ndarray) -> np.ndarray:
        seen = image.astype(np.float64)[hidden == 0]  # (pixels, 3)
        vector = ((seen - seen.mean(axis=0)) / (seen.std(axis=0) + 1e-3)).T.reshape(-1)
        return vector / np.linalg.norm(vector)

    match = catalogue.match(card, hidden)
    assert (match.code, match.turned) == ("3/c", False)
    blurred = cv2.GaussianBlur(card, (3, 3), 0)  # as the catalogue's own faces are
    assert match.score == pytest.approx(float(unit(blurred) @ unit(face)), abs=1e-5)


def test_a_card_wholly_hidden_matches_no_face_surely_and_quietly() -> None:
    # a card the lamp's clipped white covers entirely has no pixel to compare: it is like no
    # face (confidence 0, so it is asked), with no mean taken over no pixels (which warned)
    catalogue = VisionConfig.for_edition("rollecate").faces()
    card = np.full_like(catalogue.images[0], 255)
    hidden = np.ones(card.shape[:2], np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        match = catalogue.match(card, hidden)
    assert match.confidence == 0.0
