"""A settled die the camera reads with low confidence is asked on the page, as an unsure card
is: its face is the players' answer, never a guess, and the roll enters the game only once
every die is sure or answered."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.caboose.commands import Answer, parse
from companion.games.caboose.follow import ASKING, LED_NEEDS_CONFIRMATION, STAGED, FollowConfig
from companion.games.caboose.refusals import TableError
from companion.games.caboose.tracker import DICE_SETTLED
from companion.games.caboose.vision.observation import SeenDie
from companion.games.caboose.words import SESSION
from companion.games.protocol import Malformed
from companion.store import Store
from tests.caboose.test_follow import event, lay, see, start
from tests.playing import match

FACE_MAP = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}


def throw(table, view, dice):
    """Dice settling where the camera sees them."""
    see(table, event(DICE_SETTLED, replace(view, dice=dice), dice=dice))


def pip_dice(faces, confidences):
    return tuple(
        SeenDie("pips", face, (400.0 + 40 * i, 560.0), sure)
        for i, (face, sure) in enumerate(zip(faces, confidences, strict=True))
    )


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "table.sqlite3")


@pytest.fixture
def staged(store):
    """A table with cards laid and waiting for its pip dice (R-6 face map)."""
    table, session, _, play = start(store)
    session.config = FollowConfig(pip_wheels=FACE_MAP)
    view = lay(table, play)
    assert session.phase == STAGED
    return table, session, view, match(table).staged.dice


def test_an_unsure_die_is_asked_and_the_answer_enters_the_roll(staged):
    table, session, view, needed = staged
    faces = [5] + [6] * (needed - 1)
    throw(table, view, pip_dice(faces, [0.2] + [0.9] * (needed - 1)))
    assert session.phase == ASKING and not match(table).snap.record.turns
    status = session.status()
    assert status["led"] == LED_NEEDS_CONFIRMATION
    question = status["question"]
    assert question["die"] == 0 and question["card"] is None and question["kind"] == "pips"
    assert question["options"][0] == 5 and sorted(question["options"]) == [1, 2, 3, 4, 5, 6]
    assert question["at"] == [400.0, 560.0]
    assert "die 1: is it a 5?" in question["prompt"] and "20%" in question["prompt"]
    assert status["said"]["prompt"]["key"] == "ask_die"
    table.handle(Answer(face=3))  # it showed a 3, not the 5 the camera guessed
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[3]] + [FACE_MAP[6]] * (
        needed - 1
    )


def test_sure_dice_are_not_asked(staged):
    table, session, view, needed = staged
    throw(table, view, pip_dice([4] * needed, [0.8] * needed))
    assert session.question is None
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[4]] * needed


def test_a_wrong_answer_is_refused_and_changes_nothing(staged):
    table, session, view, needed = staged
    throw(table, view, pip_dice([2] * needed, [0.1] * needed))
    before = session.status()
    with pytest.raises(TableError) as refused:
        table.handle(Answer(face=0))  # a pip die shows 1 to 6
    assert refused.value.rule == "answer"
    with pytest.raises(TableError):
        table.handle(Answer(code="2"))  # a card's code is no die's face
    assert session.status() == before and not match(table).snap.record.turns


def test_each_unsure_die_is_asked_in_turn_and_a_new_throw_is_read_anew(staged):
    table, session, view, needed = staged
    throw(table, view, pip_dice([1] * needed, [0.3] * needed))
    for die in range(needed):
        assert session.question.die == die
        table.handle(Answer(face=2))
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[2]] * needed


def test_dice_thrown_again_while_asked_about_are_read_again(staged):
    table, session, view, needed = staged
    throw(table, view, pip_dice([1] * needed, [0.3] * needed))
    assert session.phase == ASKING
    moved = tuple(replace(d, position=(d.position[0], 500.0), confidence=0.95) for d in
                  pip_dice([5] * needed, [0.95] * needed))  # fmt: skip
    throw(table, view, moved)
    assert session.question is None
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[5]] * needed


def test_an_unsure_wheel_die_offers_the_editions_faces(store):
    table, session, _, play = start(store)
    view = lay(table, play)
    needed = match(table).staged.dice
    dice = tuple(SeenDie("wheels", 1, (400.0 + 40 * i, 560.0), 0.1) for i in range(needed))
    throw(table, view, dice)
    question = session.status()["question"]
    assert question["kind"] == "wheels" and question["options"] == [1, 0, 2]
    assert question["prompt"].startswith("die 1: wheels shown: 1?")


def test_the_question_is_said_in_spanish_too():
    assert {"ask_die", "ask_die_wheels"} <= SESSION["es"].keys()
    said = SESSION["es"]["ask_die"].format(n=1, face=5, percent=20)
    assert "¿es un 5?" in said


def test_the_page_answers_a_die_by_its_face():
    assert parse("session/answer", {"face": 4}) == Answer(face=4)
    assert parse("session/answer", {"code": "3"}) == Answer(code="3")
    for bad in ({"face": 7}, {"face": True}, {"face": "4"}, {}, {"face": 4, "code": "3"}):
        with pytest.raises(Malformed):
            parse("session/answer", bad)


def test_the_camera_is_told_which_pip_faces_count_alike(staged) -> None:
    """The table's face map goes to the camera with the game's hint, so that a pip die is
    asked about only when the wheels it stands for are in doubt (a 3 or a 4 is one wheel
    either way): the camera reads by it from its next frame."""
    from companion.games.caboose.tracker import FrameReader
    from companion.games.caboose.vision.observation import VisionConfig

    table, *_ = staged
    hint = match(table).hint()
    assert hint.alike == ((1, 2), (3, 4), (5, 6))  # FACE_MAP: a blank, one wheel, two
    reader = FrameReader(VisionConfig())
    reader.see(None, hint)
    assert reader.vision.alike == hint.alike
