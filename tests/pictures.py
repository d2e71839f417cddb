"""The camera's picture of a game's synthetic table (`Camera.draw`), and where its pieces truly
lie in the frame: the synthetic camera knows exactly where each table point lands, so a
test checks the drawing against the truth, not against what the reader read."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.games import game
from companion.games.protocol import CameraSetup
from companion.synthetic import camera as synthetic
from companion.vision.table import card_corners

SIZE = (960, 720)
CAMERA = replace(synthetic.Camera.easy(), frame_size=SIZE)


@dataclass(frozen=True)
class Filmed:
    """One frame of a game's scene, the watcher's reading of it, and the true camera."""

    game: Any
    scene: Any
    frame: np.ndarray
    reading: Any
    view: synthetic.View

    def drawn(self, lang: str = "en", reading: Any = None, view: Any = None) -> np.ndarray:
        """The frame as the game draws it (another `reading`, a view with a question)."""
        chosen = self.reading if reading is None else reading
        return self.game.camera.draw(self.frame, chosen, view or {}, lang)

    def sides(self, card: Any) -> np.ndarray:
        """The middles of a scene card's four sides, in frame pixels."""
        corners = card_corners(card.pose, card.size)
        return self.view.to_pixels((corners + np.roll(corners, -1, axis=0)) / 2)


def filmed(game_id: str, seed: int) -> Filmed:
    """The scene `seed` of the game, filmed by the synthetic camera and read by its watcher."""
    played = game(game_id)
    scene = played.camera.scene(seed)
    frame = synthetic.render(scene, seed, CAMERA)
    watcher = played.camera.watcher(CameraSetup(scene.layout, SIZE), played.options[0].id)
    watcher.see(frame, None)
    view = synthetic.camera_view(seed, CAMERA, scene.layout)
    return Filmed(played, scene, frame, watcher.reading, view)


def near(image: np.ndarray, point: np.ndarray, colour: tuple[int, int, int], reach: int) -> int:
    """Pixels of `colour` (give or take JPEG's blur) within `reach` px of `point`."""
    x, y = np.round(point).astype(int)
    window = image[max(y - reach, 0) : y + reach + 1, max(x - reach, 0) : x + reach + 1]
    return int((np.abs(window.astype(int) - np.array(colour)).sum(axis=2) < 110).sum())
