"""What the camera sees (`GET /api/camera.jpg`): the latest frame of the frame loop with what
the game read drawn on it, for the PIN holder alone, drawn where the pieces lie; and the
frame loop keeping it while pages ask from their threads."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.app.service import FrameLoop
from companion.games import game
from companion.games.caboose.drawing import Reading
from companion.games.caboose.rules.edition import load as load_edition
from companion.games.caboose.vision.observation import Observation
from companion.games.protocol import CameraSetup, Sight
from companion.store import Store
from companion.synthetic import camera as synthetic
from companion.synthetic.scene import Scene
from companion.table import Table
from companion.vision.annotate import READ, UNSURE
from companion.vision.calibrate import calibrate
from companion.vision.table import TableLayout, card_corners
from hw.frames import FrameSource
from tests.caboose.test_follow import lay, start
from tests.pictures import CAMERA, SIZE, near
from web import camera as web_camera
from web.app import Settings, create_app

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}
SEED = 7  # the scene's and the camera's


def _scene():
    return game("caboose").camera.scene(SEED)


def _frame() -> np.ndarray:
    return synthetic.render(_scene(), SEED, CAMERA)


class Frames(FrameSource):
    """The synthetic table's frames, `count` of them, then None."""

    def __init__(self, count: int) -> None:
        self.left = count

    def read(self) -> np.ndarray | None:
        if self.left <= 0:
            return None
        self.left -= 1
        return _frame()


def _loop(table: Table) -> FrameLoop:
    caboose = game("caboose")
    setup = CameraSetup(TableLayout(), SIZE, still_frames=2)
    watcher = caboose.camera.watcher(setup, caboose.options[0].id)
    return FrameLoop(table, lambda g: watcher)


@pytest.fixture
def table(tmp_path) -> Table:
    return Table(Store(tmp_path / "table.sqlite3"))


@pytest.fixture
def loop(table) -> FrameLoop:
    return _loop(table)


@pytest.fixture
def client(table, loop):
    return create_app(table, PIN, Settings(), loop.sight).test_client()


def _picture(answer) -> np.ndarray:
    assert answer.status_code == 200, answer.data[:200]
    assert answer.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(answer.data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def _edge_midpoints(card) -> np.ndarray:
    """The middles of a card's four sides, in frame pixels (the true camera's)."""
    corners = card_corners(card.pose, card.size)
    middles = (corners + np.roll(corners, -1, axis=0)) / 2
    return synthetic.camera_view(SEED, CAMERA, TableLayout()).to_pixels(middles)


def test_the_picture_needs_the_pin_and_is_never_cached(client, loop):
    loop.step(_frame())
    refused = client.get("/api/camera.jpg")
    assert refused.status_code == 401
    assert refused.json["error"]["rule"] == "pin"
    wrong = client.get("/api/camera.jpg", headers={"X-Table-Pin": "000000"})
    assert wrong.status_code == 401
    answer = client.get("/api/camera.jpg", headers=HEADERS)
    assert answer.headers["Cache-Control"] == "no-store"
    assert _picture(answer).shape == (SIZE[1], SIZE[0], 3)


def test_each_card_is_outlined_where_it_lies(client, loop):
    """The drawn outline runs along each card's true sides (the synthetic camera's truth),
    where the plain frame has none of the outline's colour."""
    frame = _frame()
    loop.step(frame)
    drawn = _picture(client.get("/api/camera.jpg", headers=HEADERS))
    plain = cv2.imdecode(cv2.imencode(".jpg", frame)[1], cv2.IMREAD_COLOR)
    cards = _scene().cards
    assert cards
    for card in cards:
        for middle in _edge_midpoints(card):
            assert near(drawn, middle, READ, 4) > 0, f"no outline at {middle} of {card.pose}"
            assert near(plain, middle, READ, 4) == 0


def test_a_card_the_camera_is_unsure_of_is_drawn_in_the_unsure_colour(loop):
    """A card read unsurely is outlined in the unsure colour (not when read surely), and the
    question the page asks is the caption's, in the unsure colour."""
    frame = _frame()
    loop.step(frame)
    reading: Reading = loop.sight().reading
    cards = reading.observation.cards
    doubtful = replace(cards[0], confidence=0.05)
    unsure = reading._replace(
        observation=replace(reading.observation, cards=(doubtful, *cards[1:]))
    )
    question = {"session": {"question": {"prompt": "¿Es un 3?", "card": None}, "camera": []}}
    drawn = game("caboose").camera.draw(frame, unsure, question, "es")
    view = synthetic.camera_view(SEED, CAMERA, TableLayout())
    corners = view.to_pixels(card_corners(doubtful.pose, reading.card_mm))
    middles = (corners + np.roll(corners, -1, axis=0)) / 2
    assert all(near(drawn, middle, UNSURE, 3) > 0 for middle in middles)
    sure = game("caboose").camera.draw(frame, reading, {}, "es")
    assert all(near(sure, middle, UNSURE, 3) == 0 for middle in middles)
    bottom = drawn[-SIZE[1] // 12 :]
    assert (np.abs(bottom.astype(int) - np.array(UNSURE)).sum(axis=2) < 60).sum() > 50
    assert np.array_equal(frame, _frame()), "the kept frame itself is never drawn on"


def test_no_camera_and_no_frame_yet_are_said(table, loop):
    none = create_app(table, PIN, Settings()).test_client()
    answer = none.get("/api/camera.jpg", headers=HEADERS)
    assert answer.status_code == 404
    assert answer.json["error"]["key"] == "camera_none"
    waiting = create_app(table, PIN, Settings(), loop.sight).test_client()
    answer = waiting.get("/api/camera.jpg", headers=HEADERS)
    assert answer.status_code == 503
    assert answer.json["error"]["key"] == "camera_waiting"


def test_one_encoding_a_frame_however_many_phones_ask(client, loop, monkeypatch):
    encoded = []
    real = web_camera.encode_jpeg
    monkeypatch.setattr(web_camera, "encode_jpeg", lambda image: encoded.append(1) or real(image))
    loop.step(_frame())
    first = client.get("/api/camera.jpg", headers=HEADERS).data
    second = client.get("/api/camera.jpg", headers=HEADERS).data
    assert first == second and len(encoded) == 1
    loop.step(None)  # a dropped frame: the same picture
    assert client.get("/api/camera.jpg", headers=HEADERS).data == first and len(encoded) == 1
    loop.step(_frame())  # a new frame: a new picture
    client.get("/api/camera.jpg", headers=HEADERS)
    assert len(encoded) == 2


def test_pages_asking_while_the_loop_runs_get_whole_pictures(client, loop):
    """Phones ask from their threads while the loop steps frames: every answer is a whole
    picture (or, before the first frame, the word that none came yet), never an error."""
    running = threading.Thread(target=loop.run, args=(Frames(12),))
    answers: list[tuple[int, bytes]] = []
    failures: list[BaseException] = []

    def ask() -> None:
        try:
            while running.is_alive():
                answer = client.get("/api/camera.jpg", headers=HEADERS)
                answers.append((answer.status_code, answer.data))
                time.sleep(0.01)  # a phone asks again at once, but not in a busy loop
        except BaseException as error:
            failures.append(error)

    phones = [threading.Thread(target=ask) for _ in range(3)]
    running.start()
    for phone in phones:
        phone.start()
    running.join(120)
    for phone in phones:
        phone.join(30)
    assert not failures
    assert {status for status, _ in answers} <= {200, 503}
    pictures = [data for status, data in answers if status == 200]
    assert pictures
    for data in pictures:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert image is not None and image.shape == (SIZE[1], SIZE[0], 3)
    assert loop.sight().number == 12


def test_the_card_the_table_asks_about_is_drawn_unsure_with_the_pages_question(tmp_path):
    """A real turn at the table: the camera is unsure of a laid card and the match asks on
    the page; the picture outlines that card in the unsure colour where it lies and writes
    the page's question (the view's) under it."""
    table, session, _, play = start(Store(tmp_path / "table.sqlite3"))
    laid = lay(table, play, confidence=0.1)
    assert session.question is not None and session.question.card is not None
    asked = laid.railway[len(laid.railway) - len(play.cards) + session.question.card]
    layout = TableLayout()
    frame = synthetic.render(Scene(layout=layout), SEED, CAMERA)  # the bare table, filmed
    reading = Reading(
        Observation(cards=laid.railway, calibration=calibrate(frame, layout)),
        layout,
        load_edition("loose-caboose").card_mm,
    )
    app = create_app(table, PIN, Settings(), lambda: Sight(frame, reading, "caboose", 1))
    drawn = _picture(app.test_client().get("/api/camera.jpg?lang=es", headers=HEADERS))
    view = synthetic.camera_view(SEED, CAMERA, layout)
    corners = view.to_pixels(card_corners(asked.pose, reading.card_mm))
    for middle in (corners + np.roll(corners, -1, axis=0)) / 2:
        assert near(drawn, middle, UNSURE, 4) > 0, f"the asked card's side at {middle}"
    bottom = drawn[-SIZE[1] // 10 :]
    assert (np.abs(bottom.astype(int) - np.array(UNSURE)).sum(axis=2) < 110).sum() > 50
