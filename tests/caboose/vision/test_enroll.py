"""Enrollment: learn faces from the camera, store them, recognise with them."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import enroll
from companion.games.caboose.follow import FollowConfig
from companion.games.caboose.scenes import PlacedCard, Scene, render
from companion.games.caboose.vision.catalogue import Catalogue, CatalogueError
from companion.games.caboose.vision.enrolment import Deck, PipThrows
from companion.games.caboose.vision.observation import VisionConfig
from companion.games.caboose.vision.observe import observe
from companion.pose import Pose
from companion.synthetic import Camera, PlacedDie
from companion.synthetic.scene import Picture
from companion.vision.dice_art import PIP_COLOURS, draw_pip_die
from companion.vision.taught_pips import TaughtPips
from hw.frames import FolderFrames, SyntheticFrames
from tests.vision.scenes import printed_deck, printed_frame

CODES = ["1/s", "3/c", "4x/s", "C2"]


def _record_one_card_each(folder: Path) -> None:
    """What a player shows the camera: each card alone, portrait, top up."""
    folder.mkdir()
    for number, code in enumerate(CODES):
        scene = Scene(cards=(PlacedCard(code, Pose(380.0 + 20 * number, 300.0, 0.0)),), railway=())
        frame = render(scene, 40 + number, Camera.easy())
        cv2.imwrite(str(folder / f"{number:02d}.png"), frame)


def test_enroll_round_trip_recognises_with_the_learnt_catalogue(tmp_path: Path) -> None:
    _record_one_card_each(tmp_path / "frames")
    said: list[str] = []
    deck = Deck(CODES, VisionConfig())
    with FolderFrames(tmp_path / "frames") as source:
        pictures = enroll.enroll(source, deck, say=said.append, preview_path=tmp_path / "seen.png")
    assert said[-1] == "[4/4] learnt C2"
    assert cv2.imread(str(tmp_path / "seen.png")) is not None
    deck.save(pictures, tmp_path / "deck")
    loaded = Catalogue.load(tmp_path / "deck")
    assert loaded.codes == tuple(CODES)

    table = Scene(
        cards=(
            PlacedCard("3/c", Pose(250.0, 250.0, 90.0)),
            PlacedCard("1/s", Pose(450.0, 300.0, 180.0)),
            PlacedCard("4x/s", Pose(600.0, 420.0, 270.0)),
            PlacedCard("C2", Pose(250.0, 450.0, 0.0)),
        ),
        railway=(),
    )
    seen = observe(render(table, 9, Camera.hard()), VisionConfig(catalogue=loaded))
    for card in table.cards:
        near = [
            c for c in seen.cards if math.dist((c.pose.x, c.pose.y), (card.pose.x, card.pose.y)) < 4
        ]
        assert [c.code for c in near] == [card.code]
        turn = (near[0].pose.rotation - card.pose.rotation + 180) % 360 - 180
        assert abs(turn) < 3


@pytest.mark.parametrize(("difficulty", "seed"), [("easy", 5016), ("hard", 5003), ("hard", 5027)])
def test_a_railway_of_touching_cards_of_an_enrolled_printed_deck_is_read(
    tmp_path: Path, difficulty: str, seed: int
) -> None:
    """A deck without our inset frame: its cards laid edge to edge are one region unlike the
    table, which recognition takes apart card by card (the railways here turn back beside
    themselves, so cards also touch long edge to long edge without being joined)."""
    printed_deck().save(tmp_path / "deck")
    config = VisionConfig(catalogue=Catalogue.load(tmp_path / "deck"))
    scene, frame = printed_frame(seed, difficulty)
    back = scene.cards[scene.railway[0]].pose
    seen = observe(frame, config, back=(back.x, back.y))
    assert seen.problems == ()
    assert len(seen.cards) == len(scene.cards)
    found = {}
    for i, card in enumerate(scene.cards):
        near = [
            j
            for j, got in enumerate(seen.cards)
            if math.dist((got.pose.x, got.pose.y), (card.pose.x, card.pose.y)) < 3.0
        ]
        assert [seen.cards[j].code for j in near] == [card.code], (card, near)
        turn = (seen.cards[near[0]].pose.rotation - card.pose.rotation + 180) % 360 - 180
        assert abs(turn) < 3.0, (card, seen.cards[near[0]])
        found[i] = near[0]
    assert seen.railway == tuple(found[i] for i in scene.railway)
    assert seen.railway[seen.caboose] == found[scene.caboose]


@pytest.mark.parametrize("seed", [9056, 9061])
def test_the_card_under_the_caboose_of_a_printed_deck_is_read_with_sound_confidence(
    seed: int,
) -> None:
    """The token hides the middle of the card it stands on, where a printed deck's
    broken-track mark is; what is left must still tell its value from the other values of
    its kind (a small digit) and its kind from the other kind (colour all over), each on
    its own. Held-out scenes whose track card under the caboose came back unsure, so
    unreadable, which broke the railway."""
    scene, frame = printed_frame(seed, "hard")
    back = scene.cards[scene.railway[0]].pose
    seen = observe(frame, VisionConfig(catalogue=printed_deck()), back=(back.x, back.y))
    under = scene.cards[scene.caboose]
    near = [
        c for c in seen.cards if math.dist((c.pose.x, c.pose.y), (under.pose.x, under.pose.y)) < 3
    ]
    assert [c.code for c in near] == [under.code]
    assert near[0].confidence > FollowConfig().unsure_below
    assert seen.problems == ()


def test_enroll_command_writes_catalogue_and_preview(tmp_path: Path, capsys) -> None:
    _record_one_card_each(tmp_path / "frames")
    code = enroll.main([str(tmp_path / "deck"), "--source", f"folder:{tmp_path / 'frames'}",
                        "--codes", ",".join(CODES), "--no-wait"])  # fmt: skip
    assert code == 0
    assert (tmp_path / "deck" / "catalogue.json").is_file()
    assert (tmp_path / "deck" / "preview-caboose.png").is_file()
    out = capsys.readouterr().out
    assert "learnt 3/c" in out
    assert f"wrote {len(CODES)} faces to" in out
    code = enroll.main([str(tmp_path / "one"), "--source", f"folder:{tmp_path / 'frames'}",
                        "--codes", CODES[0], "--no-wait"])  # fmt: skip
    assert code == 0
    assert "wrote 1 face to" in capsys.readouterr().out


def test_enroll_stops_with_a_clear_message_when_no_card_is_shown(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    frame = render(Scene(cards=(), railway=()), 1, Camera.easy())
    cv2.imwrite(str(folder / "00.png"), frame)
    code = enroll.main([str(tmp_path / "deck"), "--source", f"folder:{folder}", "--codes", "2/s",
                        "--no-wait"])  # fmt: skip
    assert code == 2
    assert "no card found" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        enroll.main([str(tmp_path / "deck"), "--codes", "9/z"])
    assert stop.value.code == 2


def test_a_broken_catalogue_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="cannot read"):
        Catalogue.load(tmp_path)


def _faint(face: int) -> Picture:
    """A red pip die whose pips are all but the body's colour: found, not read surely."""

    def picture(px_per_mm: float) -> np.ndarray:
        bgr, outline = draw_pip_die(face, px_per_mm, "red")
        body = np.array(PIP_COLOURS["red"][0], np.float32)
        faded = body + (bgr.astype(np.float32) - body) * 0.1
        return np.dstack([faded.astype(np.uint8), outline])

    return picture


def _throw(*dice: tuple[int, bool]) -> Scene:
    """Red pip dice thrown in a row across the table: (pips, faint) each."""
    return Scene(cards=(), railway=(), dice=tuple(
        PlacedDie("pips", pips, 120.0 + 200 * i, 250.0 + 80 * (i % 2), 23.0 * i + 5,
                  colour="red", picture=_faint(pips) if faint else None)
        for i, (pips, faint) in enumerate(dice)
    ))  # fmt: skip


def test_pip_dice_thrown_freely_are_taught_asking_only_the_faces_it_cannot_read(
    tmp_path: Path,
) -> None:
    camera = SyntheticFrames(40, "easy")
    throws = iter([_throw((1, False), (3, False), (3, False), (5, True)),
                   _throw((2, False), (6, True), (4, False), (1, False))])  # fmt: skip
    prompts: list[str] = []

    def throw_next(prompt: str) -> None:
        prompts.append(prompt)
        camera.show(next(throws).drawn())

    questions: list[str] = []
    answers = iter(["5", "six", "6"])  # a word is no answer: asked again

    def answer(question: str) -> str:
        questions.append(question)
        return next(answers)

    said: list[str] = []
    lesson = PipThrows(VisionConfig())
    enroll.enroll_thrown(camera, lesson, wait=throw_next, ask=answer, say=said.append,
                         preview_path=tmp_path / "seen.png")  # fmt: skip
    assert len(prompts) == 2 and "still to learn: 2, 4 and 6 pips" in prompts[1]
    # only the faint dice are asked about, each by where it lies (the faint 5 is the last
    # of the row, at the right; the faint 6 the first of two in the middle)
    assert questions[0] == "how many pips does the die at the right show? (1-6, Enter to skip) "
    assert questions[1:] == ["how many pips does the die the first from the left in the "
                             "middle show? (1-6, Enter to skip) "] * 2  # fmt: skip
    assert "'six' is not a face of a die: type a number from 1 to 6, or press Enter to skip" in said
    # the first three read teaches it, the second is not taken again
    assert [line for line in said if line.startswith("read 3")] == [
        "read 3 on the die the first from the left in the middle: learnt"
    ]
    assert said[-1] == "all six faces learnt"
    lesson.save(tmp_path / "box")
    taught = TaughtPips.load(tmp_path / "box")
    assert taught is not None and sorted(die.pips for die in taught.dice) == [1, 2, 3, 4, 5, 6]
    assert cv2.imread(str(tmp_path / "seen.png")) is not None


def test_thrown_frames_that_end_before_every_face_is_taught_say_which_are_left(
    tmp_path: Path, capsys
) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "00.png"), render(_throw((2, False), (4, False)), 3, Camera.easy()))
    code = enroll.main([str(tmp_path / "box"), "--source", f"folder:{folder}", "--codes", "pips",
                        "--thrown", "--no-wait"])  # fmt: skip
    assert code == 2
    assert "faces 1, 3, 5 and 6 still to learn" in capsys.readouterr().err
    assert not (tmp_path / "box" / "pips.json").exists()
    with pytest.raises(SystemExit) as stop:  # thrown teaches pip dice only
        enroll.main([str(tmp_path / "box"), "--codes", "1/s", "--thrown"])
    assert stop.value.code == 2
