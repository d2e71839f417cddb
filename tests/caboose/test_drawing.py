"""The Caboose camera picture's words (companion/games/caboose/drawing.py): cards, dice and
the caboose named as the page names them, never by their codes. Where they are drawn is
tested through the API, tests/web/test_camera.py."""

from __future__ import annotations

import pytest

from companion.games.caboose.drawing import _face, _name
from companion.games.caboose.vision.observation import SeenCard
from companion.pose import Pose


@pytest.mark.parametrize(
    "code, lang, said",
    [
        ("3x/s", "es", "3 rota"),
        ("3x/s", "en", "broken 3"),
        ("2/c", "en", "2"),
        ("C2", "es", "carta de caos 2"),
    ],
)
def test_a_card_is_named_in_words(code, lang, said):
    assert _name(SeenCard(code, 0.9, Pose(0.0, 0.0, 0.0)), lang) == said


@pytest.mark.parametrize(
    "kind, face, lang, said",
    [
        ("wheels", 0, "es", "0 ruedas"),
        ("wheels", 1, "en", "1 wheel"),
        ("pips", 1, "es", "1 punto"),
        ("pips", 5, "en", "5 pips"),
    ],
)
def test_a_die_is_said_with_its_face(kind, face, lang, said):
    assert _face(kind, face, lang) == said
