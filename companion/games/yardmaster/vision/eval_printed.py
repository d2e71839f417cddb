"""How well the camera reads trains of a printed deck it was taught, on synthetic tables
whose truth is known (`companion eval-vision --game yardmaster-express --design printed`,
which prints it as it prints our design's).

The deck is the stand-in for a real box (printed_art.py: no frame, no code strip, full
bleed). First the camera is taught it as a family would with `companion enroll`: each
face laid alone in the middle of the table under a well lit camera (`teach_stand_in`).
Then each scene is laid by yardmaster.scenes.random_yard from its own seed, exactly as
eval_vision lays our design (2-5 trains on any side, up to eight cards after the engine,
touching or nearly, turned, face down, a hand now and then), drawn with the stand-in's
pictures (`printed_table`), rendered through the easy or hard camera and read by
taught.read_taught; scored by scoring.score_yard. Latency beside the plain OpenCV
pass over the same frame, timed in the same run, as eval_vision does.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial

import cv2
import numpy as np

from companion import synthetic
from companion.games.yardmaster import printed_art, scenes
from companion.games.yardmaster.vision.enrolment import Deck, faces_of
from companion.games.yardmaster.vision.reader import ReaderConfig
from companion.games.yardmaster.vision.scoring import summary, tally, under_lamp
from companion.games.yardmaster.vision.taught import Catalogue, read_taught
from companion.pose import Pose
from companion.synthetic import Camera, render
from companion.vision.plain_pass import plain_pass_ms, times
from companion.vision.table import TableLayout


def printed_table(
    trains: tuple[scenes.LaidTrain, ...],
    layout: TableLayout = scenes.TABLE,
    hands: tuple[synthetic.Hand, ...] = (),
) -> synthetic.Scene:
    """The scene of trains laid by scenes.lay, every card drawn as the stand-in deck
    prints it (`W`: its back)."""
    laid = tuple(
        synthetic.Card(partial(printed_art.face, card.printed), card.pose, printed_art.CARD_MM)
        for train in trains
        for card in train.cards
    )
    return synthetic.Scene(cards=laid, hands=hands, layout=layout)


def teach_stand_in(
    layout: TableLayout = scenes.TABLE, faces: tuple[str, ...] | None = None
) -> tuple[Deck, list[np.ndarray]]:
    """The stand-in deck taught as `companion enroll` teaches a box: each face (every
    printed card of the edition, the engine, the back; or `faces`) laid alone in the
    middle of the table, upright for a player at the bottom, under a well lit camera.
    Returns the enrolment and its pictures (Catalogue(dict(zip(deck.faces, pictures))),
    or deck.save); ValueError names a face the camera could not learn."""
    deck = Deck(faces or faces_of("yardmaster-express"), layout)
    middle = Pose(layout.width / 2, layout.height / 2, 0.0)
    pictures = []
    for number, face in enumerate(deck.faces):
        card = synthetic.Card(partial(printed_art.face, face), middle, printed_art.CARD_MM)
        frame = render(synthetic.Scene(cards=(card,), layout=layout), 90 + number, Camera.easy())
        picture, why = deck.learn(face, frame)
        if why is not None:
            raise ValueError(f"the camera could not learn {face}: {why}")
        pictures.append(picture)
    return deck, pictures


def evaluate_printed(
    scenes_n: int,
    seed: int,
    difficulty: str,
    glare: float | None = None,
    frame_size: tuple[int, int] | None = None,
    curl: float | None = None,
    lens_error: float | None = None,
) -> dict:
    """Teach the stand-in deck, then render and read `scenes_n` scenes from `seed` on (a
    lamp's reflection over `glare` of the frame at most, cards curled up to `curl` mm, a lens
    error of up to `lens_error` px, each None the camera's own), filmed at `frame_size`: the
    summary eval_vision.evaluate gives for our design, with the time teaching took."""
    cv2.setNumThreads(1)
    camera = Camera.preset(
        difficulty, glare=glare, frame_size=frame_size, curl=curl, lens_error=lens_error
    )
    start = time.perf_counter()
    deck, pictures = teach_stand_in()
    catalogue = Catalogue(dict(zip(deck.faces, pictures, strict=True)))
    teach_s = time.perf_counter() - start
    config = ReaderConfig()

    def scene(scene_seed: int) -> tuple[scenes.Yard, np.ndarray]:
        truth = scenes.random_yard(scene_seed)
        truth = replace(truth, scene=printed_table(truth.trains, hands=truth.scene.hands))
        return truth, render(truth.scene, scene_seed, camera)

    read_taught(scene(seed + scenes_n)[1], catalogue, config)  # imports, caches
    totals: dict[str, int] = {}
    wall, plain, failures = [], [], []
    for scene_seed in range(seed, seed + scenes_n):
        truth, frame = scene(scene_seed)
        plain.append(plain_pass_ms(frame))
        start = time.perf_counter()
        seen = read_taught(frame, catalogue, config)
        wall.append((time.perf_counter() - start) * 1000)
        tally(
            totals, failures, scene_seed, truth, seen, under_lamp(truth, scene_seed, camera, frame)
        )
    return {
        "game": "yardmaster-express",
        "design": "printed",
        "scenes": scenes_n,
        "seed": seed,
        "difficulty": difficulty,
        "glare": camera.glare,
        "glare_odds": round(camera.glare_odds, 4),  # the share of tables with it
        "faces_taught": len(deck.faces),
        "teach_s": round(teach_s, 1),
        **summary(totals),
        **times(latency_ms=wall, plain_pass_ms=plain),
        "failures": failures[:20],
    }
