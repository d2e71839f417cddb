"""A printed Yardmaster Express deck taught to the camera (`companion enroll`) and its
trains read with what was learnt: the stand-in for a real box (printed_art.py), enrolment
(vision/enrolment.py), the catalogue folder and the reader of taught faces
(vision/taught.py), on rendered frames of the synthetic table."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import synthetic
from companion.app import enroll
from companion.games.yardmaster import cards, printed_art, scenes
from companion.games.yardmaster import edition as editions
from companion.games.yardmaster.vision.enrolment import Deck, add_arguments, enrolment
from companion.games.yardmaster.vision.eval_printed import (
    evaluate_printed,
    printed_table,
    teach_stand_in,
)
from companion.games.yardmaster.vision.reader import UNSURE, Yard
from companion.games.yardmaster.vision.scoring import score_yard
from companion.games.yardmaster.vision.taught import Catalogue, CatalogueError, read_taught
from companion.pose import Pose
from companion.synthetic import Camera, Hand, render
from hw.frames import FolderFrames

# a few faces, some alike but for a numeral (R3-B2, R1-B4) or a colour (B2-B3, G2-G3)
FACES = ("E", "W", "R3-B2", "R1-B4", "B2-B3", "G2-G3", "Y1-Y1", "P2-P4")
MIDDLE = Pose(scenes.TABLE.width / 2, scenes.TABLE.height / 2, 0.0)


@cache
def _taught() -> Catalogue:
    deck, pictures = teach_stand_in(faces=FACES)
    return Catalogue(dict(zip(deck.faces, pictures, strict=True)))


def _alone(*placed: tuple[str, Pose], camera: Camera | None = None, seed: int = 5) -> np.ndarray:
    """A frame of the table with these stand-in faces lying on it."""
    laid = tuple(
        synthetic.Card(partial(printed_art.face, code), pose, printed_art.CARD_MM)
        for code, pose in placed
    )
    scene = synthetic.Scene(cards=laid, layout=scenes.TABLE)
    return render(scene, seed, camera or Camera.easy())


def _train(side: str, lane: int, laid: list[str], offset: float = 0.0) -> scenes.TrainOnTable:
    """A train from its cards as PRINTED after the engine; `~` after a code: lying turned."""
    turned = [code.endswith("~") for code in laid]
    printed = [code.rstrip("~") for code in laid]
    codes = [cards.turned(c) if t else c for c, t in zip(printed, turned, strict=True)]
    seat = scenes.seat(side, lane, scenes.TABLE, offset)
    return scenes.TrainOnTable(seat, (cards.ENGINE, *codes), (False, *turned))


# every side, two trains sharing the left one, turned and face-down cards, an engine alone
TRAINS = (
    _train("bottom", 0, ["R3-B2", "R1-B4~", "W", "B2-B3", "G2-G3~", "Y1-Y1"]),
    _train("left", 0, ["W", "Y1-Y1~", "G2-G3", "R1-B4"], offset=30.0),
    _train("left", 1, ["P2-P4~", "B2-B3"]),
    _train("top", 0, ["P2-P4", "W", "W", "R3-B2~", "R1-B4", "G2-G3"]),
    _train("right", 0, []),
)


def _table(seed: int, difficulty: str, hands: tuple[Hand, ...] = ()) -> tuple[scenes.Yard, Yard]:
    laid = scenes.lay(TRAINS, np.random.default_rng(seed))
    truth = scenes.Yard(laid, printed_table(laid, scenes.TABLE, hands))
    frame = render(truth.scene, seed, Camera.preset(difficulty, glare=0.0))
    return truth, read_taught(frame, _taught())


def test_the_stand_in_is_not_our_design_and_each_of_its_faces_differs_either_way_round() -> None:
    """Full bleed (its edge is the art's colour, no white margin), rounded corners, every
    face unlike every other and unlike itself turned round but for the back."""
    faces = [*dict.fromkeys(editions.load().deck), cards.ENGINE, cards.FACE_DOWN]
    drawn = {}
    for code in faces:
        image, mask = printed_art.draw_card(code, 2.0)
        assert image.shape[:2] == mask.shape == (82, 126)
        assert mask[0, 0] == 0 and mask[41, 0] == 255  # a rounded corner, the edge is card
        edge = image[41, 1].astype(int)
        assert not (edge > 200).all(), f"{code} has a white margin"
        drawn[code] = image.astype(int)
    for code, image in drawn.items():
        # turned round about the card's middle, which lies between pixels 62 and 63
        turned_apart = np.abs(image[1:, 1:] - image[::-1, ::-1][:-1, :-1]).mean()
        assert (turned_apart < 10) == (code == cards.FACE_DOWN), code
        for other, picture in drawn.items():
            if other != code:
                assert np.abs(image - picture).mean() > 3, (code, other)
    with pytest.raises(ValueError, match="not a railcar card"):
        printed_art.draw_card("hello")


def test_enroll_learns_each_face_from_the_camera_and_writes_a_catalogue(tmp_path: Path) -> None:
    faces = ("E", "W", "R3-B2", "R1-B4")
    frames = tmp_path / "frames"
    frames.mkdir()
    for number, face in enumerate(faces):  # each laid alone, somewhere new, a little crooked
        pose = Pose(300.0 + 60 * number, 250.0 + 50 * number, (-4.0, 3.0, 0.0, 6.0)[number])
        cv2.imwrite(str(frames / f"{number:02d}.png"), _alone((face, pose), seed=40 + number))
    said: list[str] = []
    deck = Deck(faces)
    with FolderFrames(frames) as source:
        pictures = enroll.enroll(source, deck, say=said.append, preview_path=tmp_path / "p.png")
    assert said[-1] == "[4/4] learnt R1-B4"
    assert cv2.imread(str(tmp_path / "p.png")) is not None
    deck.save(pictures, tmp_path / "deck")
    doc = json.loads((tmp_path / "deck" / "catalogue.json").read_text())
    assert doc["format"] == "yardmaster-catalogue/1"
    loaded = Catalogue.load(tmp_path / "deck")
    assert loaded.codes == faces
    # what was learnt is the card upright, as printed: it matches its own drawing best
    for code in faces:
        drawn = cv2.resize(printed_art.draw_card(code)[0], loaded.pictures[code].shape[1::-1])
        apart = {c: np.abs(p.astype(int) - drawn).mean() for c, p in loaded.pictures.items()}
        assert min(apart, key=apart.__getitem__) == code


@pytest.mark.parametrize(
    ("what", "frame", "said"),
    [
        ("empty", lambda: _alone(), "no card found: lay one card alone"),
        (
            "two cards",
            lambda: _alone(("R3-B2", Pose(250, 300, 0)), ("W", Pose(550, 450, 0))),
            "2 things found: lay exactly one card",
        ),
        (
            "two cards touching",
            lambda: _alone(("R3-B2", Pose(380, 400, 0)), ("W", Pose(444, 400, 0))),
            "not a card of 63 x 41 mm",
        ),
        (
            "blurred",
            lambda: _alone(("R3-B2", MIDDLE), camera=replace(Camera.easy(), blur=7.0)),
            "the picture is blurred",
        ),
        ("no markers", lambda: np.full((600, 800, 3), 90, np.uint8), "markers are not all in view"),
    ],
)
def test_learning_refuses_a_frame_that_shows_no_card_alone_and_says_what_to_do(
    what: str, frame, said: str
) -> None:
    picture, why = Deck(("R3-B2",)).learn("R3-B2", frame())
    assert why is not None and said in why, what
    assert picture.size == 0


def test_a_card_laid_the_other_way_round_from_the_cards_taught_before_is_refused() -> None:
    deck = Deck(("R3-B2", "B2-B3", "Y1-Y1"))
    for number, face in enumerate(deck.faces[:2]):
        assert deck.learn(face, _alone((face, MIDDLE), seed=60 + number))[1] is None
    upside_down = _alone(("Y1-Y1", Pose(MIDDLE.x, MIDDLE.y, 178.0)), seed=62)
    picture, why = deck.learn("Y1-Y1", upside_down)
    assert picture.size == 0
    assert why is not None and "lies the other way round" in why and "bottom edge" in why
    assert deck.learn("Y1-Y1", _alone(("Y1-Y1", MIDDLE), seed=63))[1] is None
    # the engine and the back are not railcar cards: either way round is theirs
    assert deck.learn("E", _alone(("E", Pose(MIDDLE.x, MIDDLE.y, 180.0)), seed=64))[1] is None


def test_teaching_more_faces_into_a_folder_keeps_the_faces_it_holds(tmp_path: Path) -> None:
    catalogue = _taught()
    Deck(("E", "W")).save([catalogue.pictures["E"], catalogue.pictures["W"]], tmp_path)
    Deck(("R3-B2", "E")).save([catalogue.pictures["R3-B2"], catalogue.pictures["W"]], tmp_path)
    loaded = Catalogue.load(tmp_path)
    assert set(loaded.codes) == {"E", "W", "R3-B2"}
    # E taught again (here: wrongly, with the back's picture) replaces its own picture only
    assert np.array_equal(loaded.pictures["E"], loaded.pictures["W"])
    assert np.array_equal(loaded.pictures["R3-B2"], catalogue.pictures["R3-B2"])


def test_a_catalogue_folder_that_cannot_be_used_says_why_and_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match=r"cannot read .*catalogue\.json.*companion enroll"):
        Catalogue.load(tmp_path / "nowhere")
    (tmp_path / "catalogue.json").write_text("{not json")
    with pytest.raises(CatalogueError, match="cannot read"):
        Catalogue.load(tmp_path)
    (tmp_path / "catalogue.json").write_text(json.dumps({"format": "caboose-catalogue/1"}))
    with pytest.raises(CatalogueError, match="is not a yardmaster-catalogue/1 file"):
        Catalogue.load(tmp_path)
    catalogue = _taught()
    Deck(("E", "R3-B2")).save([catalogue.pictures["E"], catalogue.pictures["R3-B2"]], tmp_path)
    with pytest.raises(CatalogueError, match=r"of 3 of the box's faces \(R1-B4, Y1-Y1, W\).*"
                       r"companion enroll .* --codes R1-B4,Y1-Y1,W"):  # fmt: skip
        Catalogue.load(tmp_path, deck=("R3-B2", "R1-B4", "Y1-Y1"))
    doc = json.loads((tmp_path / "catalogue.json").read_text())
    (tmp_path / "catalogue.json").write_text(json.dumps(doc).replace('"R3-B2"', '"R3B2"'))
    with pytest.raises(CatalogueError, match="not a railcar card"):
        Catalogue.load(tmp_path)
    (tmp_path / "catalogue.json").write_text(json.dumps(doc))
    (next(tmp_path.glob("*-R3-B2.png"))).unlink()
    with pytest.raises(CatalogueError, match=r"R3-B2\.png is missing or no image"):
        Catalogue.load(tmp_path)


def test_enroll_options_ask_for_the_whole_box_or_the_faces_named() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    whole = enrolment(parser.parse_args([]))
    assert whole.faces == (*dict.fromkeys(editions.load().deck), "E", "W")
    assert "R3-B2 alone" in whole.prompt("R3-B2") and "face down" in whole.prompt("W")
    assert enrolment(parser.parse_args(["--codes", "W, R3-B2,W"])).faces == ("W", "R3-B2")
    with pytest.raises(ValueError, match="'R9-B2' is no face of yardmaster-express"):
        enrolment(parser.parse_args(["--codes", "R3-B2,R9-B2"]))
    with pytest.raises(ValueError, match="names no card"):
        enrolment(parser.parse_args(["--codes", " , "]))


@pytest.mark.parametrize(("seed", "difficulty"), [(1, "easy"), (2, "hard"), (3, "hard")])
def test_trains_of_a_taught_deck_are_read_card_by_card_on_every_side(
    seed: int, difficulty: str
) -> None:
    truth, yard = _table(seed, difficulty)
    assert yard.problems == () and yard.loose == ()
    score = score_yard(truth, yard)
    assert score["trains_exact"] == score["trains"] == len(yard.trains) == 5
    for train in truth.trains:
        engine = train.cards[0].pose
        seen = next(
            t for t in yard.trains if np.hypot(*np.subtract(t.cards[0].pose[:2], engine[:2])) < 15
        )
        assert seen.codes == train.codes
        assert [c.turned for c in seen.cards] == [c.turned for c in train.cards]
        for card, laid in zip(seen.cards, train.cards, strict=True):
            assert np.hypot(card.pose.x - laid.pose.x, card.pose.y - laid.pose.y) < 4


def test_a_hand_over_a_train_leaves_its_cards_unsure_or_unseen_never_wrong() -> None:
    bottom = scenes.lay(TRAINS, np.random.default_rng(2))[0]
    over = bottom.cards[3].pose  # the face-down card in the middle of the bottom train
    truth, yard = _table(2, "hard", hands=(Hand(over.x, over.y + 40, 0.0, 1.0),))
    score = score_yard(truth, yard)
    assert score["wrong"] == 0
    assert score["trains_exact"] == 4  # the other trains
    seen = [c.code for t in yard.trains for c in t.cards] + [c.code for c in yard.loose]
    assert UNSURE in seen or score["missing"]


def test_a_hand_on_a_marker_is_said_and_the_last_calibration_still_places_the_trains() -> None:
    laid = scenes.lay(TRAINS, np.random.default_rng(3))
    before = render(printed_table(laid), 3, Camera.hard())
    calibration = read_taught(before, _taught()).calibration
    marker = scenes.TABLE.marker_corners()[0].mean(axis=0)
    hand = Hand(float(marker[0]), float(marker[1]), 135.0, 0.8)
    truth = scenes.Yard(laid, printed_table(laid, scenes.TABLE, (hand,)))
    yard = read_taught(render(truth.scene, 3, Camera.hard()), _taught(), calibration=calibration)
    assert [p.key for p in yard.problems] == ["markers_hidden"]
    assert yard.problems[0].params == {"markers": "0"}
    score = score_yard(truth, yard)
    assert score["trains_exact"] == score["trains"] == 5


def test_a_frame_that_shows_nothing_usable_is_said_never_raised() -> None:
    for junk in (None, np.zeros((10, 10, 3), np.uint8), np.zeros((600, 800, 3), np.uint8)):
        yard = read_taught(junk, _taught())
        assert yard.trains == () and yard.problems


@pytest.mark.slow
def test_the_whole_stand_in_deck_is_taught_and_hard_tables_of_it_read_right() -> None:
    """eval-vision's figures on a few hard scenes of random trains (every kind of card):
    every card right, none wrong; the time beside a plain pass is reported."""
    result = evaluate_printed(8, 3000, "hard")
    assert result["faces_taught"] == 34
    assert result["cards_wrong_sure"] == 0
    assert result["cards_right"] == result["cards"] > 100
    assert result["trains_exact"] == 1.0
    assert result["latency_ratio_p50"] > 0
