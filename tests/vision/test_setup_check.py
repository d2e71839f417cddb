"""The setup check's findings on synthetic frames: a table ready, and each thing a person
gets wrong when placing the camera (a marker out of view, too dark, blurred, glare, the
game's area cut off, the table measured other than configured), said in both languages
with what to do."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games import game
from companion.games.protocol import CameraSetup
from companion.synthetic import Camera, Scene, camera_view, render
from companion.vision.setup_check import Finding, Report, check_frame, check_setup, play_area
from companion.vision.setup_words import WORDS
from companion.vision.table import TableLayout
from tests.words_checks import fields

SMALL = replace(Camera.easy(), frame_size=(728, 544))
TABLE = TableLayout()


def frame_of(scene: Scene, seed: int = 3) -> np.ndarray:
    return render(scene, seed, SMALL)


def checked(frame: np.ndarray, game_id: str = "caboose", layout: TableLayout = TABLE) -> Report:
    chosen = game(game_id)
    frame_size = (frame.shape[1], frame.shape[0]) if isinstance(frame, np.ndarray) else None
    setup = CameraSetup(layout, frame_size or SMALL.frame_size)
    return check_setup(frame, setup, chosen, chosen.options[0].id)


def found(report: Report, key: str) -> list[Finding]:
    return [finding for finding in report.findings if finding.key == key]


def test_a_table_in_view_is_ready_and_says_so() -> None:
    report = checked(frame_of(Scene()))
    assert report.ready and report.first_fix is None
    assert report.frame_size == (728, 544)
    assert [f.params["id"] for f in found(report, "marker") if f.ok] == [0, 1, 2, 3]
    assert report.findings[0].said() == "Camera found: 728 x 544 pixels."
    assert "728 x 544" in report.findings[0].said("es")
    assert {f.key for f in report.findings} >= {"table_size", "area", "focus", "exposure", "glare"}
    assert all(f.fix() is None for f in report.findings)


def test_a_hidden_marker_is_named_by_where_it_lies_first() -> None:
    scene = Scene()
    frame = frame_of(scene)
    view = camera_view(3, SMALL, scene.layout)
    quad = view.to_pixels(scene.layout.marker_corners()[1])  # top right
    colour = tuple(int(c) for c in frame[frame.shape[0] // 2, frame.shape[1] // 2])
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), colour)
    report = checked(frame)
    assert not report.ready
    first = report.first_fix
    assert first is not None and first.key == "marker" and first.params["id"] == 1
    assert first.said() == "Marker 1 (top right) is missing."
    assert "top right is in view" in (first.fix() or "")
    assert "arriba a la derecha" in (first.fix("es") or "")
    assert [f.params["id"] for f in found(report, "marker") if f.ok] == [0, 2, 3]
    assert not found(report, "table_size")  # not measured with a marker missing


def test_the_size_measured_from_the_markers_is_the_table_laid_out() -> None:
    laid = TableLayout(width=900.0, height=700.0)
    report = checked(frame_of(Scene(layout=laid)))
    size = found(report, "table_size")[0]
    assert not size.ok and report.first_fix == size
    assert report.measured is not None
    assert abs(report.measured.width - 900) <= 12 and abs(report.measured.height - 700) <= 12
    assert "configuration says 840 x 630 mm" in size.said()
    assert "--save" in (size.fix() or "")
    page = report.as_json("es")
    assert page["ready"] is False and page["first_fix"]["key"] == "table_size"
    assert page["first_fix"]["said"].startswith("La mesa mide")
    assert page["measured"] == {"width": report.measured.width, "height": report.measured.height}
    assert page["frame_size"] == [728, 544] and len(page["findings"]) == len(report.findings)
    json.dumps(page)  # a page's JSON as it is
    assert checked(frame_of(Scene(layout=laid)), layout=report.measured).ready


def test_a_dark_picture_asks_for_light() -> None:
    frame = (frame_of(Scene()) * 0.2).astype(np.uint8)
    exposure = found(checked(frame), "exposure")[0]
    assert not exposure.ok and exposure.params["level"] == "dark"
    assert exposure.said() == "The picture is too dark."
    assert "lamp" in (exposure.fix() or "") and "lámpara" in (exposure.fix("es") or "")


def test_an_overexposed_picture_is_too_bright_not_glare() -> None:
    frame = cv2.convertScaleAbs(frame_of(Scene()), alpha=3.0)
    report = checked(frame)
    exposure = found(report, "exposure")[0]
    assert not exposure.ok and exposure.params["level"] == "bright"
    assert not found(report, "glare")


def test_a_blurred_picture_asks_for_focus() -> None:
    frame = cv2.GaussianBlur(frame_of(Scene()), (0, 0), 2.5)
    report = checked(frame)
    focus = found(report, "focus")[0]
    assert not focus.ok, focus
    assert "focus ring" in (focus.fix() or "")
    sharp = found(checked(frame_of(Scene())), "focus")[0]
    assert sharp.ok and sharp.params["blur_px"] < focus.params["blur_px"]


def test_a_lamp_reflected_on_the_table_is_glare_with_where_it_is() -> None:
    frame = frame_of(Scene())
    height, width = frame.shape[:2]
    cv2.circle(frame, (width // 2, height // 2), 18, (255, 255, 255), -1)
    glare = found(checked(frame), "glare")[0]
    assert not glare.ok and glare.params == {"spots": 1, "place": "centre"}
    assert "largest at the centre" in glare.said()
    assert "tilt the camera" in (glare.fix() or "")
    assert found(checked(frame_of(Scene())), "glare")[0].ok


@pytest.mark.parametrize(
    ("size", "level", "ready"),
    [((1456, 1088), "good", True), ((728, 544), "coarse", True), ((700, 300), "too_coarse", False)],
)
def test_how_finely_the_camera_sees_the_table_is_said(
    size: tuple[int, int], level: str, ready: bool
) -> None:
    """Pixels a centimetre of table: the default camera's reads as tuned, a smaller frame's
    asks about dice more often, under 5 the camera reads nothing and the check says so."""
    report = checked(render(Scene(), 3, replace(Camera.easy(), frame_size=size)))
    (density,) = found(report, "density")
    assert density.params["level"] == level and report.ready == ready
    if level == "too_coarse":
        assert report.first_fix == density
        assert "4.1 pixels a centimetre, at least 5 are needed" in density.said()
        assert "Acerca la cámara" in (density.fix("es") or "")
    if level == "coarse":
        assert "dice are asked about more often than at 8.5" in density.said()


def test_a_play_area_cut_off_names_the_side() -> None:
    frame = frame_of(Scene())[:, :600]  # the right of the table out of the picture
    report = checked(frame)
    area = found(report, "area")[0]
    assert not area.ok and area.params["cut"] == ("right",)
    assert "cut off at the right of the picture" in area.said()
    assert "towards the right" in (area.fix() or "")
    assert "la derecha" in area.said("es")
    assert [f.params["place"] for f in found(report, "marker") if not f.ok] == [
        "top_right",
        "bottom_right",
    ]


def test_the_switching_game_needs_its_board_and_the_dice_beside_it_in_view() -> None:
    chosen = game("switching")
    frame = render(chosen.camera.scene(2), 2, SMALL)  # the board lies turned in it
    assert found(checked(frame, "switching"), "area")[0].ok
    # the board still whole, but not the room on the table's left where the dice are thrown
    dice_cut = found(checked(frame[:, 100:], "switching"), "area")[0]
    assert not dice_cut.ok and dice_cut.params["cut"] == ("left",)
    board_cut = found(checked(frame[:, 200:], "switching"), "area")[0]
    assert not board_cut.ok and board_cut.params["cut"] == ("left",)
    bare = found(checked(frame_of(Scene()), "switching"), "area_unplaced")[0]
    assert not bare.ok and "Lay the board" in (bare.fix() or "")


def test_the_room_beside_a_board_is_the_table_s_left_and_right() -> None:
    chosen = game("switching")
    frame = render(chosen.camera.scene(2), 2, SMALL)[:, 100:]
    area = play_area(chosen, CameraSetup(TABLE, SMALL.frame_size), chosen.options[0].id)
    assert area.beside > 0
    board_alone = check_frame(frame, TABLE, replace(area, beside=0.0))
    assert found(board_alone, "area")[0].ok


def test_no_picture_is_said() -> None:
    report = checked(None)  # type: ignore[arg-type]
    assert not report.ready and report.first_fix == Finding("camera_none", False)


def test_any_picture_a_camera_gives_is_checked_and_a_tiny_one_is_said() -> None:
    frame = frame_of(Scene())
    with_alpha = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    assert checked(with_alpha).ready
    assert checked(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).ready
    tiny = checked(frame[:48, :60]).first_fix
    assert (
        tiny is not None
        and tiny.said() == "Camera found, but its pictures are only 60 x 48 pixels."
    )


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_finding_is_said_in_both_languages(lang: str) -> None:
    assert WORDS["en"].keys() == WORDS["es"].keys()
    frames = [frame_of(Scene()), (frame_of(Scene()) * 0.2).astype(np.uint8)]
    for frame in frames:
        for finding in checked(frame).findings:
            said = finding.as_json(lang)
            assert said["said"] and "{" not in said["said"]
            assert said["ok"] or said["fix"]


# One finding of every kind the check makes, each way it can be said.
EVERY_FINDING = [
    Finding("camera_none", False),
    Finding("camera", True, {"width": 1456, "height": 1088, "least": 640}),
    Finding("camera", False, {"width": 320, "height": 240, "least": 640}),
    *[
        Finding(
            "frame_size",
            ok,
            {"width": 728, "height": 544, "configured_width": 1456, "configured_height": 1088},
        )
        for ok in (True, False)
    ],
    *[Finding("marker", ok, {"id": 2, "place": "bottom_right"}) for ok in (True, False)],
    *[
        Finding(
            "table_size",
            ok,
            {"width": 900, "height": 700, "configured_width": 840, "configured_height": 630},
        )
        for ok in (True, False)
    ],
    Finding("area", True, {"game": "Yardmaster Express", "cut": ()}),
    Finding("area", False, {"game": "Yardmaster Express", "cut": ("top", "left")}),
    Finding("area_unplaced", False, {"game": "Switching tracks", "board": True}),
    Finding("area_unplaced", False, {"game": "Yardmaster Express", "board": False}),
    *[Finding("focus", ok, {"blur_px": 2.4}) for ok in (True, False)],
    Finding("exposure", True, {"level": "good", "median": 120}),
    Finding("exposure", False, {"level": "dark", "median": 12}),
    Finding("exposure", False, {"level": "bright", "median": 250}),
    Finding("glare", True, {"spots": 0, "place": None}),
    Finding("glare", False, {"spots": 2, "place": "top_left"}),
    *[
        Finding(
            "density",
            level != "too_coarse",
            {"per_cm": per_cm, "fine": 8.5, "least": 5, "level": level},
        )
        for per_cm, level in ((9.6, "good"), (6.3, "coarse"), (3.9, "too_coarse"))
    ],
    Finding("pins", True, {"why": "none"}),
    Finding("pins", True, {"why": "mock"}),
    Finding("button", True, {"button": "pass", "pin": 17, "seconds": 20.0, "seen": None}),
    Finding("button", False, {"button": "pass", "pin": 17, "seconds": 20.0, "seen": "confirm"}),
    Finding("button", False, {"button": "confirm", "pin": 27, "seconds": 20.0}),
    Finding("led", True, {"pin": 22}),
    Finding("buzzer", True, {"pin": 23}),
    Finding("speaker", True, {"sentence": "Hello"}),
    Finding("speaker", False),
    Finding("speaker", False, {"problem": "speech: espeak-ng failed"}),
]


def test_both_languages_have_the_same_words_with_the_same_parameters() -> None:
    assert WORDS["en"].keys() == WORDS["es"].keys()
    for key, english in WORDS["en"].items():
        assert fields(english) == fields(WORDS["es"][key]), key


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_finding_is_said_in_words_with_what_to_do(lang: str) -> None:
    for finding in EVERY_FINDING:
        said = finding.as_json(lang)
        for text in (said["said"], said["fix"] or ""):
            assert "{" not in text and "_" not in text.replace("gpio.pin_factory", ""), text
        assert said["ok"] == (said["fix"] is None), finding
    board, table = (f for f in EVERY_FINDING if f.key == "area_unplaced")
    assert board.fix(lang) != table.fix(lang)  # lay the board; bring the table's markers in view
