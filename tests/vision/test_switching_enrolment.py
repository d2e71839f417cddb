"""`companion enroll --game switching`: a family's own switching box taught from one frame of
it laid out (switching/vision/enrolment.py), the stand-in box (switching/standin.py) for
theirs: the board file proposed from our layout fitted to its picture, checked as the board
tool checks one, drawn over the picture, and the folder the camera then reads it with."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import enroll
from companion.games.switching import board as boards
from companion.games.switching import scenes, standin
from companion.games.switching.vision import taught
from companion.games.switching.vision.enrolment import FACE, BoxLesson
from companion.games.switching.vision.eval_vision import score
from companion.synthetic import Camera, render

TABLE = ["--table", "960x860"]


def _frames(tmp_path: Path, lie=None) -> str:
    """A folder holding one frame of the stand-in box laid out to be taught (its panels
    at home, or as `lie` says)."""
    lesson = standin.teaching_table(3)
    scene = lesson.scene
    if lie is not None:
        scene = standin.table_scene(lesson.board, lesson.pose, lie, lesson.trains, None,
                                    np.random.default_rng(3))  # fmt: skip
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), render(scene, 77, Camera.easy()))
    return f"folder:{folder}"


def test_enroll_proposes_the_board_file_checks_it_draws_it_and_the_camera_reads_the_box(
    tmp_path, capsys
):
    out = tmp_path / "box"
    argv = [str(out), "--game", "switching", "--source", _frames(tmp_path), "--no-wait",
            "--size", "560x560", *TABLE]  # fmt: skip
    assert enroll.main(argv) == 0
    assert "learnt box" in capsys.readouterr().out
    assert boards.main(["--file", str(out / "board.json")]) == 0  # the board tool's check
    proposal = boards.read((out / "board.json").read_bytes())
    truth = standin.board()  # the stand-in is our layout at its own size: found as it is
    assert set(proposal.spaces) == set(truth.spaces) and not proposal.ours
    for space in truth.spaces:
        assert np.hypot(*np.subtract(proposal.centre(space, proposal.home),
                                     truth.centre(space, truth.home))) < 1.5  # fmt: skip
    assert cv2.imread(str(out / "preview-switching.png")) is not None  # the file over the picture
    box = taught.TaughtBox.load(out)
    shown = standin.random_table(7004, hand_chance=0.0)
    seen, _ = taught.read_taught(
        render(shown.scene, 7004, Camera.preset("hard", glare=0.0)), box, standin.TABLE
    )
    counts = score(shown, seen)
    assert counts["trains_right"] == counts["trains"] and counts["panels_right"] == 3


def test_enroll_asks_for_the_board_size_or_its_file(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        enroll.main([str(tmp_path / "box"), "--game", "switching", "--no-wait"])
    assert exit_.value.code == 2
    assert "give the board's size (--size WIDTHxHEIGHT in mm)" in capsys.readouterr().err


def test_enroll_refuses_a_board_file_that_is_no_board_naming_what_is_wrong(tmp_path, capsys):
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps({"format": "switching-board/1", "id": "mine"}))
    with pytest.raises(SystemExit) as exit_:
        enroll.main([str(tmp_path / "box"), "--game", "switching", "--board", str(bad)])
    assert exit_.value.code == 2 and "board 'mine', size" in capsys.readouterr().err


def test_panels_away_from_home_are_said_and_nothing_is_written(tmp_path, capsys):
    box = standin.board()
    lie = scenes.random_layout(box, np.random.default_rng(2))
    assert lie != box.home
    out = tmp_path / "box"
    argv = [str(out), "--game", "switching", "--source", _frames(tmp_path, lie), "--no-wait",
            "--size", "560x560", *TABLE]  # fmt: skip
    assert enroll.main(argv) == 2
    said = capsys.readouterr().err
    assert "panel is not seen in its home slot" in said and "lay it there" in said
    assert not (out / "board.json").exists()


def test_the_prompt_says_which_way_the_trains_face_when_taught():
    # a train's shape is learnt facing along its Start: one laid the other way round
    # would teach its shape backwards
    lesson = BoxLesson(standin.TABLE, None, standin.board())
    assert "A1, B1, C1, D1, each facing along its track" in lesson.prompt(FACE)


def test_enroll_teaches_the_colour_die_s_faces_one_by_one_beside_the_board(tmp_path, capsys):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(standin.teaching_table(3).scene, 77, Camera.easy()))
    for i, colour in enumerate(standin.PANEL_COLOURS, start=1):  # the die's order
        lesson = standin.die_lesson(colour, rng_seed=3)  # the board as it was taught
        cv2.imwrite(str(frames / f"{i}.png"), render(lesson.scene, 77 + i, Camera.easy()))
    out = tmp_path / "box"
    argv = [str(out), "--game", "switching", "--source", f"folder:{frames}", "--no-wait",
            "--size", "560x560", "--colour-die", *TABLE]  # fmt: skip
    assert enroll.main(argv) == 0
    said = capsys.readouterr().out
    assert "learnt die-purple" in said and "learnt die-orange" in said
    box = taught.TaughtBox.load(out)
    assert box.dice is not None and set(box.dice) == set(standin.PANEL_COLOURS)
    shown = standin.random_table(3001, own_die=True)  # a cyan roll, its own shade
    seen, _ = taught.read_taught(
        render(shown.scene, 3001, Camera.preset("hard", glare=0.0)), box, standin.TABLE
    )
    assert shown.roll[0] == "cyan" and seen.dice.colour == "cyan"


def test_a_colour_die_face_is_asked_for_alone_beside_the_board():
    lesson = BoxLesson(standin.TABLE, None, standin.board(), colour_die=True)
    assert lesson.faces == (FACE, "die-purple", "die-cyan", "die-orange")
    assert "lay the colour die alone beside it" in lesson.prompt("die-cyan")
    assert "cyan face up" in lesson.prompt("die-cyan")
    frame = render(standin.die_lesson("cyan").scene, 78, Camera.easy())
    picture, why = lesson.learn("die-cyan", frame)  # before the box: refused in words
    assert picture is None and why == "teach the box before its colour die"
