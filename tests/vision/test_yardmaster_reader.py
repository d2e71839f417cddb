"""Yardmaster Express through the camera: our cards' design (art.py), the trains on the
synthetic table (scenes.py) and the reader (vision/reader.py), on rendered frames."""

from __future__ import annotations

import json
from functools import cache
from itertools import product

import cv2
import numpy as np
import pytest

from companion.games.yardmaster import art, cards, scenes
from companion.games.yardmaster import edition as editions
from companion.games.yardmaster.vision import eval_vision, reader
from companion.games.yardmaster.vision.reader import UNSURE, Yard, read_yard
from companion.games.yardmaster.vision.scoring import score_yard
from companion.synthetic import Camera, Hand, render
from companion.vision.bend import frame_bend
from companion.vision.table import card_corners, rotate


def _train(side: str, lane: int, laid: list, offset: float = 0.0) -> scenes.TrainOnTable:
    """A train from its cards as PRINTED, each a code (face up as printed, or W) or a
    (printed code, True) pair for a card lying turned."""
    codes, turned = [cards.ENGINE], [False]
    for card in laid:
        printed, flip = card if isinstance(card, tuple) else (card, False)
        codes.append(cards.turned(printed) if flip else printed)
        turned.append(flip)
    seat = scenes.seat(side, lane, scenes.TABLE, offset)
    return scenes.TrainOnTable(seat, tuple(codes), tuple(turned))


# a train on every side, two sharing the right one; turned cards (one reads the same either
# way round as a code), face-down cards, nine-card trains, an engine alone
FIVE_TRAINS = (
    _train(
        "bottom",
        0,
        [
            "R3-B2",
            ("R4-R2", True),
            "W",
            "Y1-G4",
            ("B3-Y2", True),
            "G4-G2",
            "P3-P3",
            ("P2-R3", True),
        ],
    ),
    _train("left", 0, ["W", ("Y1-Y1", True), "G2-G3", "R1-R1"], offset=40.0),
    _train("top", 0, [("P1-P2", True), "B1-B1", "W", "W", "R1-G4"]),
    _train(
        "right",
        0,
        ["B4-B2", ("R3-G2", True), "Y2-Y3", "P4-B1", "W", "B1-Y4", ("G1-G1", True), "R2-R3"],
    ),
    _train("right", 1, []),
)


@cache
def _frame(difficulty: str, seed: int, hands: tuple[Hand, ...] = ()) -> tuple:
    laid = scenes.lay(FIVE_TRAINS, np.random.default_rng(seed))
    camera = Camera.preset(difficulty, glare=0.0)  # glare has a test of its own
    frame = render(scenes.drawn(laid, scenes.TABLE, hands), seed, camera)
    return laid, frame


def _seen_train(yard: Yard, laid: scenes.LaidTrain):
    engine = laid.cards[0].pose
    near = [t for t in yard.trains if np.hypot(*np.subtract(t.cards[0].pose[:2], engine[:2])) < 15]
    assert len(near) == 1, f"the {laid.seat.side} train's engine is not seen once"
    return near[0]


def test_no_railcar_code_reads_as_another_card_however_it_lies_or_with_one_cell_misread() -> None:
    words = set(art.CODE_WORDS)
    assert len(words) == len(art.CARGO) * len(art.VALUES) == 20
    for word in words:  # three black cells of six: one cell misread leaves two or four
        assert sum(word) == 3
        for cell in range(6):
            flipped = tuple(b ^ (i == cell) for i, b in enumerate(word))
            assert art.railcar_of_word(flipped) is None
    for rows in (art.ENGINE_ROWS, art.BACK_ROWS):  # their halves, either way round
        for strip in (rows, (rows[1][::-1], rows[0][::-1])):
            for half in (0, 1):
                word = strip[0][3 * half : 3 * half + 3] + strip[1][3 * half : 3 * half + 3]
                assert art.railcar_of_word(word) is None
    back = art.BACK_ROWS
    assert (back[1][::-1], back[0][::-1]) == back  # the back reads the same turned round
    for colour, value in product(art.CARGO, art.VALUES):
        assert art.railcar_of_word(art.railcar_word(colour, value)) == (colour, value)


def test_every_card_of_the_box_is_drawn_and_a_card_we_do_not_print_is_refused() -> None:
    for code in (*editions.load().deck, cards.ENGINE, cards.FACE_DOWN):
        image, mask = art.draw_card(code, 2.0)
        assert image.shape[:2] == mask.shape == (82, 126)
    with pytest.raises(ValueError, match="colours R, B, Y, G, P and values 1-4"):
        art.draw_card("R5-B2", 2.0)
    with pytest.raises(ValueError, match="not a railcar card"):
        art.draw_card("hello", 2.0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_seat_holds_a_nine_card_train_inside_the_table_and_clear_of_the_others(
    players: int,
) -> None:
    seats = scenes.seat_poses(players, scenes.TABLE)
    trains = [scenes.TrainOnTable(seat, ("E",) + ("W",) * 8) for seat in seats]
    laid = scenes.lay(trains, np.random.default_rng(players), jitter_mm=0, jitter_deg=0)
    left, top, right, bottom = scenes.TABLE.play_area()
    boxes = []
    for train in laid:
        for card in train.cards:
            corners = card_corners(card.pose, art.CARD_MM)
            assert corners.min(axis=0).tolist() >= [left - 0.01, top - 0.01]
            assert corners.max(axis=0).tolist() <= [right + 0.01, bottom + 0.01]
            boxes.append((corners.min(axis=0), corners.max(axis=0), train.seat))
    for (low, high, seat), (other_low, other_high, other_seat) in product(boxes, boxes):
        if seat != other_seat:
            apart = np.any(high <= other_low) or np.any(other_high <= low)
            assert apart, f"the {seat.side} and {other_seat.side} trains overlap"
    with pytest.raises(ValueError, match="2 to 5 players"):
        scenes.seat_poses(6)


@pytest.mark.parametrize("difficulty, seed", [("easy", 3), ("hard", 11), ("hard", 12)])
def test_five_trains_on_every_side_are_read_card_by_card(difficulty: str, seed: int) -> None:
    laid, frame = _frame(difficulty, seed)
    yard = read_yard(frame)
    assert len(yard.trains) == 5 and not yard.loose and yard.problems == ()
    for train in laid:
        seen = _seen_train(yard, train)
        assert seen.codes == train.codes
        assert [c.turned for c in seen.cards] == [c.turned for c in train.cards]
        assert seen.sure
        turn = (seen.rotation - train.seat.engine.rotation + 180) % 360 - 180
        assert abs(turn) < 5
        for card, truth in zip(seen.cards, train.cards, strict=True):
            assert np.hypot(card.pose.x - truth.pose.x, card.pose.y - truth.pose.y) < 6
            if card.code != cards.FACE_DOWN:  # a back has no top
                assert abs((card.pose.rotation - truth.pose.rotation + 180) % 360 - 180) < 5


def test_a_hand_over_a_card_makes_it_unsure_never_wrong_and_the_train_goes_on() -> None:
    laid = scenes.lay(FIVE_TRAINS, np.random.default_rng(11))
    bottom = laid[0]
    under = bottom.cards[4].pose  # the fifth card of the bottom train
    hand = Hand(under.x, under.y - 10.0, 0.0, 0.8)  # fingers up the table, palm on the card
    yard = read_yard(render(scenes.drawn(laid, scenes.TABLE, (hand,)), 11, Camera.hard()))
    seen = _seen_train(yard, bottom)
    assert len(seen.cards) == len(bottom.cards)
    for card, truth in zip(seen.cards, bottom.cards, strict=True):
        assert card.code in (truth.code, UNSURE)  # right or unsure: never another card
        assert card.sure == (card.code != UNSURE)
    assert seen.cards[4].code == UNSURE and not seen.cards[4].sure
    assert seen.codes[6:] == bottom.codes[6:]  # past the hand
    assert any(p.key == "cards_unsure" for p in yard.problems)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_hand_reaching_over_any_card_never_makes_a_card_read_wrong(seed: int) -> None:
    rng = np.random.default_rng(seed + 99)
    truth = scenes.random_yard(seed, hand_chance=0.0)
    train = truth.trains[int(rng.integers(len(truth.trains)))]
    card = train.cards[int(rng.integers(len(train.cards)))]
    reach = rotate(
        np.array([[rng.uniform(-45, 45), rng.uniform(-10, 60)]]), train.seat.engine.rotation
    )
    hand = Hand(card.pose.x + reach[0, 0], card.pose.y + reach[0, 1], train.seat.engine.rotation)
    frame = render(scenes.drawn(truth.trains, scenes.TABLE, (hand,)), seed, Camera.hard())
    yard = read_yard(frame)
    for laid in truth.trains:
        engine = laid.cards[0].pose
        seen = [
            t for t in yard.trains if np.hypot(*np.subtract(t.cards[0].pose[:2], engine[:2])) < 15
        ]
        for got, true in zip(seen[0].cards if seen else (), laid.cards, strict=False):
            assert got.code == UNSURE or (got.code, got.turned) == (true.code, true.turned)
        assert not seen or len(seen[0].cards) <= len(laid.cards)
    assert len(yard.trains) <= len(truth.trains)


def test_a_card_missing_from_the_middle_of_a_train_is_unsure_not_skipped() -> None:
    laid = scenes.lay(FIVE_TRAINS, np.random.default_rng(12))
    top = laid[2]
    gap = scenes.LaidTrain(top.seat, top.cards[:2] + top.cards[3:])  # the third card taken
    trains = (*laid[:2], gap, *laid[3:])
    yard = read_yard(render(scenes.drawn(trains, scenes.TABLE), 12, Camera.hard()))
    seen = _seen_train(yard, top)
    assert seen.codes == (top.codes[:2] + (UNSURE,) + top.codes[3:])
    assert not seen.cards[2].sure


def test_a_colour_cast_changes_nothing() -> None:
    laid, frame = _frame("hard", 12)
    cast = (frame * np.array([1.0, 0.85, 0.6])).astype(np.uint8)  # a cold lamp, no clipping
    yard = read_yard(cast)
    for train in laid:
        assert _seen_train(yard, train).codes == train.codes


def test_a_frame_without_colour_is_said_and_its_cards_asked_never_guessed() -> None:
    laid, frame = _frame("hard", 12)
    yard = read_yard(cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))
    assert [p.key for p in yard.problems] == ["no_colour", "cards_unsure"]
    assert "switch the camera's colour on" in yard.problems[0].text()
    for train in laid:
        for got, true in zip(_seen_train(yard, train).cards, train.cards, strict=False):
            assert got.code == UNSURE or (got.code, got.turned) == (true.code, true.turned)
    assert read_yard(frame).problems == ()


def test_a_hand_on_a_marker_is_said_and_the_trains_are_still_read() -> None:
    laid = scenes.lay(FIVE_TRAINS, np.random.default_rng(11))
    hand = Hand(35.0, 40.0, 90.0, 0.8)  # on the top left marker, the arm off the table
    yard = read_yard(render(scenes.drawn(laid, scenes.TABLE, (hand,)), 11, Camera.hard()))
    assert [p.as_json()["params"] for p in yard.problems] == [{"markers": "0"}]
    for train in laid:
        assert _seen_train(yard, train).codes == train.codes


def test_a_still_camera_reuses_its_calibration_and_reads_the_same() -> None:
    _, frame = _frame("hard", 11)
    first = read_yard(frame)
    again = read_yard(frame, calibration=first.calibration)
    assert again.calibration is first.calibration
    assert again.trains == first.trains


@pytest.mark.parametrize(
    "frame, key",
    [
        (None, "no_image"),
        (np.full((100, 100, 3), None, object), "no_image"),
        (np.zeros((10, 10, 3), np.uint8), "frame_tiny"),
        (np.zeros((480, 640, 3), np.uint8), "too_dark"),
        (np.full((480, 640, 3), 255, np.uint8), "overexposed"),
        (np.random.default_rng(0).integers(60, 200, (480, 640, 3)).astype(np.uint8), "no_table"),
    ],
)
def test_a_frame_that_shows_no_table_says_why_and_reads_no_train(frame, key: str) -> None:
    yard = read_yard(frame)
    assert yard.trains == () and yard.loose == ()
    assert key in [p.key for p in yard.problems]
    assert all(p.text() and p.as_json()["text"] == p.text() for p in yard.problems)


def test_a_table_seen_too_coarsely_is_said_rather_than_a_train_left_out() -> None:
    """A 720p webcam over the whole Yardmaster table, tilted: 5.2 pixels a centimetre, where
    the cards' white margins blur shut and a whole train of six went unseen, nothing said."""
    truth = scenes.random_yard(7001)
    yard = read_yard(render(truth.scene, 7001, Camera.preset("hard", frame_size=(1280, 720))))
    # (OpenCV 4.8's marker detector also misses a 22 px marker here: said as well)
    coarse = [p for p in yard.problems if p.key == "too_coarse"]
    assert len(coarse) == 1 and {p.key for p in yard.problems} <= {"too_coarse", "markers_hidden"}
    assert "5.2 pixels a centimetre, at least 5.5" in coarse[0].text()
    assert yard.trains == () and yard.loose == ()


def _assert_engine_read_or_asked(train: scenes.LaidTrain, yard: Yard) -> None:
    """The true `train`'s engine is one card of `yard`, read as an engine or asked, and
    an asked one is said."""
    engine = train.cards[0].pose
    seen = [c for t in yard.trains for c in t.cards] + list(yard.loose)
    near = [c for c in seen if np.hypot(c.pose.x - engine.x, c.pose.y - engine.y) < 10]
    assert len(near) == 1 and near[0].code in (UNSURE, cards.ENGINE)
    if near[0].code == UNSURE:
        assert "cards_unsure" in [p.key for p in yard.problems]


def test_a_card_whose_open_frame_cannot_be_read_is_asked_rather_than_left_out() -> None:
    """A 720p webcam (5.5 pixels a centimetre) whose lens its calibration does not quite
    undo: on table 7040 the engine of a two-card train at the far edge shows an open frame
    and one blurred code cell. It was left out, its train unseen and nothing said (the
    watcher would take the table without it); it is a card, asked, and the frame says so."""
    camera = Camera.preset("hard", frame_size=(1280, 720))
    truth = scenes.random_yard(7040)
    yard = read_yard(render(truth.scene, 7040, camera))
    assert "too_coarse" not in [p.key for p in yard.problems]
    (train,) = [t for t in truth.trains if t.cards[0].pose.x > 700 and t.cards[0].pose.y > 550]
    _assert_engine_read_or_asked(train, yard)


def test_an_engine_unread_at_a_rows_end_is_asked_rather_than_its_train_taken_for_loose() -> None:
    """A 720p webcam with the cards curled (table 7041, 6.2 pixels a centimetre): a five-card
    train's engine at the row's end is blurred past reading and its frame found by no
    outline. Its four cars had been read as loose cards and nothing said, so the watcher
    took the table without that train; the frame at the row's end is a card, asked."""
    camera = Camera.preset("hard", frame_size=(1280, 720))
    truth = scenes.random_yard(7041)
    yard = read_yard(render(truth.scene, 7041, camera))
    (train,) = [t for t in truth.trains if len(t.cards) == 5]
    _assert_engine_read_or_asked(train, yard)


def test_eval_vision_on_a_seeded_hard_run_reads_above_its_measured_floor(capsys) -> None:
    # measured (OpenCV 4.11): 20 hard scenes from seed 1000 without a lamp's reflection, 393
    # cards, 393 right, none wrong; the floor leaves a few cards for other OpenCV versions'
    # rounding
    assert eval_vision.main(["--scenes", "20", "--seed", "1000", "--glare", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cards_wrong_sure"] == 0
    assert doc["cards_accuracy"] >= 0.99
    assert doc["trains_exact"] >= 0.95
    assert doc["by_kind"]["turned"]["cards"] > 0 and doc["by_kind"]["face_down"]["cards"] > 0
    assert 0 < doc["latency_ms_p50"] <= doc["latency_ms_p95"]
    assert doc["plain_pass_ms_p50"] > 0


def test_eval_vision_refuses_a_bad_scene_count() -> None:
    with pytest.raises(SystemExit) as stop:
        eval_vision.main(["--scenes", "0"])
    assert stop.value.code == 2


def test_under_a_lamp_s_glare_the_reflection_is_said_and_no_card_is_misread() -> None:
    """A frame with glare says so (the watcher then takes no view of the table, so a train
    whose last card the glare hides is not taken as shorter), and what the glare washes
    out is unsure or not found, never read as another card."""
    for seed in (5003, 5008):
        truth = scenes.random_yard(seed)
        seen = read_yard(render(truth.scene, seed, Camera.preset("hard", glare=0.03)))
        assert "glare" in [p.key for p in seen.problems]
        assert score_yard(truth, seen)["wrong"] == 0
    plain = scenes.random_yard(5003)
    assert "glare" not in [p.key for p in read_yard(render(plain.scene, 5003)).problems]


@pytest.mark.parametrize("seed", [8005, 8014, 8023, 8106, 8122])
def test_cards_that_do_not_lie_flat_are_read_through_their_bend_and_shade(seed: int) -> None:
    """Curled cards (each bent or a corner lifted, up to 5 mm) under a lens error of up to
    3.5 px: every train read exactly, as on a flat table (these tables had cards unsure,
    unseen or cut off their train before the reader followed a card's bend and its light)."""
    truth = scenes.random_yard(seed)
    camera = Camera.preset("hard", glare=0.0, curl=5.0, lens_error=3.5)
    yard = read_yard(render(truth.scene, seed, camera))
    assert sorted(t.codes for t in yard.trains) == sorted(t.codes for t in truth.trains)
    assert all(t.sure for t in yard.trains) and not yard.loose


def test_eval_counts_apart_the_cards_a_lamps_reflection_touches() -> None:
    """Seed 5004 under a lamp: the train whose engine the reflection hides is missing (the
    reflection is said), and the lamp touches it; the train clear of the lamp is exact. The
    clear trains' share is what a reader is held to; every card is counted either way."""
    r = eval_vision.evaluate(1, 5004, "hard", glare=0.03)
    assert (r["trains"], r["lamp_trains"], r["trains_exact"]) == (2, 1, 0.5)
    assert r["trains_clear_exact"] == 1.0
    assert r["cards_lamp"] == r["cards_lamp_missing"] >= 1 and r["cards_lamp_right"] == 0
    assert r["cards_lamp"] < r["cards"] and r["cards_wrong_sure"] == 0


def test_bare_wood_past_a_rows_end_is_not_read_again_as_a_bent_card(monkeypatch) -> None:
    """Past each train's last card the table's grain can pass for a frame's edges. It was
    read again as a bent card (its bend measured, then 74 nudged readings): most of a
    frame's time on these hard tables, every card flat and read at once. Their cells show
    no card's ink: the trains are read as before, and no frame past a row's end is bent."""
    bends = []

    def counted_bend(*args, **kwargs):
        bends.append(args[1])
        return frame_bend(*args, **kwargs)

    monkeypatch.setattr(reader, "frame_bend", counted_bend)
    for seed in (3000, 3003, 3007):
        truth = scenes.random_yard(seed)
        yard = read_yard(render(truth.scene, seed, Camera.hard()))
        assert sorted(t.codes for t in yard.trains) == sorted(t.codes for t in truth.trains)
        assert all(t.sure for t in yard.trains) and not yard.loose
    assert bends == []
