"""The synthetic table: what an overhead camera sees, rendered deterministically from a seed.

It stands in for the camera in the tests, the demo and `companion eval-vision`, for any
game: a game lays its own pieces as a game-free `Scene` (cards as pictures at poses,
tokens, dice, hands; companion/games/caboose/scenes.py lays the Caboose design's), and
`render(scene, seed, camera)` gives the frame. It imports no game and no hardware, so a
game's package may use it.

- scene.py: what a scene holds;
- surface.py: the table top seen from above (wood, markers, shadows, the pieces);
- camera.py: the camera over it (`Camera`, its presets, `camera_view`, `render`, and
  eval-vision's `--glare`, `--curl`, `--lens-error`);
- players.py: the table as a demo's scripted players touch it (`Hands`).
"""

from __future__ import annotations

from companion.synthetic.camera import Camera, View, add_camera_options, camera_view, render
from companion.synthetic.scene import Card, Hand, Picture, PlacedDie, Scene, Token

__all__ = [
    "Camera",
    "Card",
    "Hand",
    "Picture",
    "PlacedDie",
    "Scene",
    "Token",
    "View",
    "add_camera_options",
    "camera_view",
    "render",
]
