"""What the camera asks about as a die may be no die at all (issue 30, point 6): a card's
printed digit a 720p camera takes for pips, a crumb, a bead. The players say so
(`Answer(no_die=True)`, `POST /api/command/session/answer` with `{"no_die": true}`): the
thing is dropped from the throw, which is read on as if the camera had never seen it, and
the same thing lying still is not asked about again. The session and the engine are the
real ones; the views are built by hand (as tests/caboose/test_follow.py builds them), and
at the end the synthetic table's camera films a bead it takes for a die."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from companion.app.service import FrameLoop
from companion.games import default
from companion.games.caboose import scenes
from companion.games.caboose.commands import Answer, parse
from companion.games.caboose.follow import ASKING, STAGED, FollowConfig
from companion.games.caboose.refusals import TableError
from companion.games.caboose.vision.observation import SeenDie
from companion.games.protocol import CameraSetup, Malformed, Setting
from companion.pose import Pose
from companion.store import Store
from companion.synthetic import PlacedDie
from companion.table import Table
from companion.vision.table import TableLayout
from tests.caboose import test_unsure_dice
from tests.caboose.test_follow import OFFSET, first_play, lay, start
from tests.caboose.test_unsure_dice import FACE_MAP, throw
from tests.playing import match, new_game

# a table with cards laid, waiting for its pip dice (R-6 face map), as an unsure die's tests
# have it
store, staged = test_unsure_dice.store, test_unsure_dice.staged
PHANTOM = SeenDie("pips", 6, (252.0, 173.0), 0.0)  # a card's "4" read as six pips, unsure


def true_dice(faces, y: float = 560.0) -> tuple[SeenDie, ...]:
    """Pip dice thrown and read surely."""
    return tuple(SeenDie("pips", f, (400.0 + 40 * i, y), 0.95) for i, f in enumerate(faces))


def test_a_phantom_die_said_to_be_no_die_is_dropped_and_the_true_roll_enters(staged):
    table, session, view, needed = staged
    faces = [5, 2, 6, 3][:needed]
    throw(table, view, (PHANTOM, *true_dice(faces)))
    question = session.status()["question"]
    assert session.phase == ASKING and question["die"] == 0 and question["at"] == [252.0, 173.0]
    assert question["no_die"] is True  # the page offers the answer beside the faces
    table.handle(Answer(no_die=True))
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[f] for f in faces]
    assert session.not_dice == ((252.0, 173.0),)


def test_the_dice_answered_before_keep_their_answers(staged):
    table, session, view, needed = staged
    unsure = replace(true_dice([4])[0], confidence=0.2)
    rest = true_dice([1] * (needed - 1), y=600.0)
    throw(table, view, (unsure, PHANTOM, *rest))
    assert session.question.die == 0
    table.handle(Answer(face=5))  # the unsure die showed a 5
    assert session.question.die == 1 and session.question.at == PHANTOM.position
    table.handle(Answer(no_die=True))
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[5]] + [FACE_MAP[1]] * (
        needed - 1
    )


def test_the_same_thing_lying_there_is_not_asked_again_throw_after_throw(staged):
    """A throw short of the dice the play needs waits for the rest, as any roll not yet
    fully seen; the dice picked up leave the phantom alone on the table, then the rest are
    thrown beside it: it is asked about once. It wavers as a still reading does."""
    table, session, view, needed = staged
    assert needed >= 2
    throw(table, view, (PHANTOM, *true_dice([5])))
    table.handle(Answer(no_die=True))
    assert session.phase == STAGED and session.status()["roll"]["seen"] == [FACE_MAP[5]]
    assert session.question is None and not match(table).snap.record.turns
    wavering = replace(PHANTOM, face=3, position=(253.5, 171.0))
    throw(table, view, (wavering,))  # the dice picked up: the phantom alone lies still
    assert session.phase == STAGED and session.question is None
    assert session.status()["roll"]["seen"] == [FACE_MAP[5]]
    throw(table, view, (PHANTOM, *true_dice([2] * (needed - 1), y=600.0)))
    assert session.question is None
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[5]] + [FACE_MAP[2]] * (
        needed - 1
    )


def test_a_die_read_surely_on_the_spot_counts_and_one_read_unsurely_is_waited_for(staged):
    table, session, view, needed = staged
    throw(table, view, (PHANTOM, *true_dice([6] * (needed - 1), y=600.0)))
    table.handle(Answer(no_die=True))
    assert session.status()["roll"]["seen"] == [FACE_MAP[6]] * (needed - 1)
    thrown_there = SeenDie("pips", 3, (255.0, 170.0), 0.97)  # a die rolled onto the spot
    throw(table, view, (thrown_there,))
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[6]] * (needed - 1) + [
        FACE_MAP[3]
    ]


def test_the_spot_is_forgotten_once_nothing_lies_there(staged):
    table, session, view, needed = staged
    assert needed >= 3
    throw(table, view, (PHANTOM, *true_dice([5])))
    table.handle(Answer(no_die=True))
    throw(table, view, true_dice([5], y=600.0))  # the crumb brushed away: nothing there now
    assert session.not_dice == ()
    throw(table, view, (PHANTOM, *true_dice([5])))  # something there again: asked
    assert session.phase == ASKING and session.question.at == PHANTOM.position


def test_a_card_question_cannot_be_answered_no_die_and_nothing_changes(tmp_path):
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    lay(table, play, confidence=0.1)
    assert session.phase == ASKING and session.question.card == 0
    assert session.status()["question"]["no_die"] is False
    before = session.status(), table.version
    with pytest.raises(TableError) as refused:
        table.handle(Answer(no_die=True))
    assert refused.value.rule == "answer" and refused.value.key == "no_die_card"
    assert "asks about a card, not a die" in refused.value.message
    assert (session.status(), table.version) == before


def test_no_die_with_no_question_is_refused(staged):
    table, session, _, _ = staged
    before = session.status()
    with pytest.raises(TableError) as refused:
        table.handle(Answer(no_die=True))
    assert refused.value.key == "no_question" and session.status() == before


def test_the_page_says_no_die_alone():
    assert parse("session/answer", {"no_die": True}) == Answer(no_die=True)
    for bad in ({"no_die": False}, {"no_die": 1}, {"no_die": True, "face": 3},
                {"no_die": True, "code": "3"}):  # fmt: skip
        with pytest.raises(Malformed):
            parse("session/answer", bad)


# --- the synthetic table's camera: a bead taken for a die -----------------------------------

FRAME = (1280, 720)  # a 720p webcam's frames, where such phantoms are seen
BEAD_AT = (600.0, 520.0)  # table mm, among where the dice are thrown
RENDER_SEED = 0  # a camera under which the hard camera takes the bead for a pip die


@cache
def _bead(px_per_mm: float) -> np.ndarray:
    """A white bead 14 mm across, lit from one side: no die, but die-sized and pale."""
    side = max(3, round(14.0 * px_per_mm))
    bead = np.zeros((side, side, 4), np.uint8)
    cv2.circle(bead, (side // 2, side // 2), side // 2, (235, 235, 235, 255), -1, cv2.LINE_AA)
    cv2.circle(bead, (side // 3, side // 3), max(1, side // 8), (255, 255, 255, 255), -1)
    return bead


def _scene(state, laid, dice) -> scenes.Scene:
    """The game's railway where the engine lays it (moved by OFFSET), the cards laid, the
    dice, and the bead."""

    def on_table(pose: Pose) -> Pose:
        return Pose(pose.x + OFFSET[0], pose.y + OFFSET[1], pose.rotation)

    cards = [
        scenes.PlacedCard(c, on_table(p)) for c, p in zip(state.railway, state.layout, strict=True)
    ]
    cards += [scenes.PlacedCard(c, on_table(p)) for c, p in laid]
    caboose = cards[state.caboose].pose
    bead = PlacedDie("pips", 0, *BEAD_AT, 30.0, picture=_bead)
    return scenes.Scene(
        tuple(cards),
        tuple(range(len(cards))),
        state.caboose,
        (caboose.x, caboose.y),
        (*dice, bead),
    )


def test_the_camera_s_phantom_is_said_to_be_no_die_and_the_roll_read_goes_on(tmp_path):
    """Through the frame loop of `companion run`: the hard camera at 1280x720 takes a bead
    beside the dice for a pip die it is unsure of; the players say it is no die, and the
    two dice thrown are the roll so far; the next throw, beside the same bead, completes
    the roll without a question."""
    seed, play = first_play("loose-caboose")
    store = Store(tmp_path / "table.sqlite3")
    game = default()
    table = Table(store, Setting(False, FollowConfig(pip_wheels=FACE_MAP)))
    new_game(table, "loose-caboose", ["Ana", "Ben"], seed=seed)
    watcher = game.camera.watcher(CameraSetup(TableLayout(), FRAME), "loose-caboose")
    loop = FrameLoop(table, lambda _: watcher)
    camera = replace(scenes.Camera.preset("hard"), frame_size=FRAME)
    state = match(table).snap.state
    laid = list(zip(play.cards, play.place, strict=True))
    session = match(table).following

    def film(dice) -> None:
        frame = scenes.render(_scene(state, laid, dice), RENDER_SEED, camera)
        for _ in range(3):  # long enough to lie still
            loop.step(frame)

    film(())
    assert session.phase == STAGED, session.status()["message"]
    needed = match(table).staged.dice
    assert needed >= 3
    film((PlacedDie("pips", 5, 420.0, 525.0, 20.0), PlacedDie("pips", 2, 480.0, 530.0, 60.0)))
    question = session.status()["question"]
    assert question is not None and question["no_die"], session.status()["message"]
    assert math.dist(question["at"], BEAD_AT) < 8.0, "the camera did not take the bead for a die"
    table.handle(Answer(no_die=True))
    assert session.phase == STAGED and session.question is None
    assert session.status()["roll"]["seen"] == [FACE_MAP[5], FACE_MAP[2]]
    rest = tuple(
        PlacedDie("pips", 6, 640.0 + 35 * i, 515.0 + 10 * (i % 2), 40.0) for i in range(needed - 2)
    )
    film(rest)
    assert session.question is None, session.status()["message"]
    assert match(table).snap.record.turns[-1]["roll"] == [FACE_MAP[5], FACE_MAP[2]] + [
        FACE_MAP[6]
    ] * (needed - 2)
    store.close()
