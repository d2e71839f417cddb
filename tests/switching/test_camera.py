"""The switching game's camera at a table with a family's own box taught: the box taught
anew while the service runs (the setup page adds the colour die's faces) is read from the
next frame on, as the page says, with no restart."""

from __future__ import annotations

import numpy as np

from companion.games.protocol import CameraSetup
from companion.games.switching import standin
from companion.games.switching.camera import Camera
from companion.games.switching.demo import teach_standin
from companion.games.switching.vision import taught
from companion.synthetic import Camera as Filming
from companion.synthetic import render

FRAME_SIZE = (1456, 1088)


def _colour_read(camera: Camera, frame: np.ndarray) -> str | None:
    camera.see(frame, None)
    assert camera.reading is not None
    return camera.reading.seen.dice.colour


def test_the_colour_die_taught_while_the_service_runs_is_read_from_the_next_frame(tmp_path):
    setup = CameraSetup(standin.TABLE, FRAME_SIZE, catalogue=tmp_path / "box")
    teach_standin(setup)  # the box, its colour die not taught yet
    camera = Camera.over(setup, "ours")
    shown = standin.random_table(3001, own_die=True, hand_chance=0.0)  # a cyan roll
    frame = render(shown.scene, 3001, Filming.preset("hard", glare=0.0))
    assert shown.roll[0] == "cyan"
    before = _colour_read(camera, frame)
    box = taught.TaughtBox.load(setup.catalogue)
    hues = {colour: taught.teach_die(render(standin.die_lesson(colour).scene, 901,
                                            Filming.easy()), box, standin.TABLE, colour)[0]
            for colour in standin.PANEL_COLOURS}  # fmt: skip
    taught.with_dice(box, hues).save(setup.catalogue)  # the page saves the faces
    assert _colour_read(camera, frame) == "cyan" != before  # the same picture, read anew
