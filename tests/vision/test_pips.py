"""The pip-dice reader: synthetic dice with known answers, bad frames, a floor on real photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.eval_dice import PHOTOS, evaluate, load_labels, main, match
from companion.vision.pips import PipDie, read_pips

# Pip places on a face, in face-size units from its centre (standard die layouts).
LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
FACE, PIP, OFFSET = 48, 10, 13  # face side, pip diameter, pip offset from the centre (px)


def draw_die(
    image: np.ndarray, centre: tuple[int, int], pips: int, body=(235, 235, 235), ink=(20, 20, 20)
) -> list[tuple[int, int]]:
    """Draw a flat die face; return its pip centres."""
    cx, cy = centre
    half = FACE // 2
    cv2.rectangle(image, (cx - half, cy - half), (cx + half, cy + half), body, -1)
    places = [(cx + dx * OFFSET, cy + dy * OFFSET) for dx, dy in LAYOUTS[pips]]
    for place in places:
        cv2.circle(image, place, PIP // 2, ink, -1, cv2.LINE_AA)
    return places


def table(width: int = 640, height: int = 480) -> np.ndarray:
    """A plain mid-brown table top with a little noise, like a real frame."""
    rng = np.random.default_rng(7)
    image = np.full((height, width, 3), (90, 120, 150), np.uint8)
    noise = rng.integers(-4, 5, image.shape, dtype=np.int16)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("pips", range(1, 7))
def test_reads_one_synthetic_die(pips: int) -> None:
    image = table()
    places = draw_die(image, (300, 220), pips)
    dice = read_pips(image)
    assert len(dice) == 1
    die = dice[0]
    assert isinstance(die, PipDie)
    assert die.pips == pips
    expected = np.mean(places, axis=0)
    assert abs(die.x - expected[0]) < 2 and abs(die.y - expected[1]) < 2
    assert 0.0 <= die.confidence <= 1.0
    assert FACE / 2 < die.size < 2 * FACE


def test_reads_six_dice_in_a_frame_including_light_pips_on_a_dark_die() -> None:
    image = table()
    centres = [(100, 100), (250, 100), (400, 100), (100, 300), (250, 300), (400, 300)]
    for pips, centre in enumerate(centres, start=1):
        if pips == 4:  # white pips on a red die
            draw_die(image, centre, pips, body=(40, 40, 190), ink=(245, 245, 245))
        else:
            draw_die(image, centre, pips)
    dice = sorted(read_pips(image), key=lambda d: (round(d.y / 100), d.x))
    assert [d.pips for d in dice] == [1, 2, 3, 4, 5, 6]
    for die, (cx, cy) in zip(dice, centres, strict=True):
        assert abs(die.x - cx) < 3 and abs(die.y - cy) < 3


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((480, 640, 3), np.uint8),
        np.full((480, 640, 3), 255, np.uint8),
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((480, 640, 2), np.uint8),
        np.zeros((480, 640), np.float64),
        np.full((480, 640, 3), 60000, np.uint16),
    ],
    ids=["black", "overexposed", "1x1", "empty", "two-channel", "float-grey", "uint16"],
)
def test_blank_and_odd_frames_give_no_dice(frame: np.ndarray) -> None:
    assert read_pips(frame) == []


def test_noise_frame_does_not_raise() -> None:
    noise = np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert all(isinstance(d, PipDie) for d in read_pips(noise))


def test_grey_and_bgra_frames_are_read() -> None:
    image = table()
    draw_die(image, (320, 240), 5)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    bgra = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    assert [d.pips for d in read_pips(grey)] == [5]
    assert [d.pips for d in read_pips(bgra)] == [5]


def test_non_array_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="numpy image array"):
        read_pips("frame.jpg")  # type: ignore[arg-type]


def test_eval_cli_reports_missing_folder_with_exit_2(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "nowhere")]) == 2
    assert main([str(tmp_path)]) == 2  # exists but holds no images
    assert "no images" in capsys.readouterr().err


def test_eval_counts_a_synthetic_folder(tmp_path: Path, capsys) -> None:
    image = table()
    draw_die(image, (200, 200), 3)
    draw_die(image, (400, 300), 6)
    cv2.imwrite(str(tmp_path / "a.png"), image)
    h, w = image.shape[:2]
    box = f"{FACE / w} {FACE / h}"
    (tmp_path / "a.txt").write_text(f"2 {200 / w} {200 / h} {box}\n5 {400 / w} {300 / h} {box}\n")
    result = evaluate(tmp_path, boxes="die")
    assert (result["dice"], result["read"], result["images"], result["exact"]) == (2, 2, 1, 1)
    assert main([str(tmp_path), "--json", "--boxes", "die"]) == 0
    assert '"accuracy": 1.0' in capsys.readouterr().out


# Measured on the held-out half (every second image from the first; the other half is where
# the reader was tuned and the pip counter trained) minus about one point: a regression floor,
# not a target. Measured in session 11 with OpenCV 4.8.1, 4.11 and 5.0 alike: overhead-tray
# 0.951 (692 of 728), webcam-table 0.973 (462 of 475); versions have resampled a little
# differently before (5.0 once read overhead-tray 0.2 points lower), hence the point.
FLOORS = {"overhead-tray": 0.94, "webcam-table": 0.965}


@pytest.mark.slow  # about 20 s of CPU: 255 photographs
@pytest.mark.parametrize("folder", sorted(FLOORS))
def test_accuracy_floor_on_real_photographs(folder: str) -> None:
    path = PHOTOS / folder
    if not path.is_dir():
        pytest.skip(f"real dice photographs not present at {path}")
    result = evaluate(path, every=2)
    assert result["accuracy"] >= FLOORS[folder], result


def test_a_speck_on_the_tray_is_not_read_as_a_one() -> None:
    """A dark speck on the grey tray, in many of its photographs, was reported as a 1 by the
    pips-first reader; the counter must be sure of a lone pip (a training-half image)."""
    path = PHOTOS / "overhead-tray" / "IMG_20191208_112020.jpg"
    if not path.is_file():
        pytest.skip(f"real dice photographs not present at {path.parent}")
    image = cv2.imread(str(path))
    dice = read_pips(image)
    assert not [d for d in dice if abs(d.x - 110) < 15 and abs(d.y - 343) < 15], dice
    labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
    assert match(dice, labels, "die") == len(labels) == 7  # every die still read


def test_a_white_die_on_the_light_tray_is_found_from_what_the_die_mask_leaves() -> None:
    """A white 6 on the light grey tray shows only its pips, merged in rows, in the die mask:
    no die blob and no round pips, yet the counter reads it at the typical die size (a
    training-half image)."""
    path = PHOTOS / "overhead-tray" / "IMG_20191208_112205.jpg"
    if not path.is_file():
        pytest.skip(f"real dice photographs not present at {path.parent}")
    image = cv2.imread(str(path))
    dice = read_pips(image)
    assert [d.pips for d in dice if abs(d.x - 221) < 12 and abs(d.y - 209) < 12] == [6], dice
    labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
    assert match(dice, labels, "die") == len(labels) == len(dice) == 7  # nothing else reported


def test_a_photograph_from_a_camera_without_colour_reads_as_in_colour() -> None:
    """Turned grey, a black die's red pips are faint (the 3 here, read as a 1 before grey
    cut-outs were scaled up for the counter); the frame reads as in colour, whether it comes
    as one channel or three equal ones (a training-half image)."""
    path = PHOTOS / "overhead-tray" / "IMG_20191208_112135.jpg"
    if not path.is_file():
        pytest.skip(f"real dice photographs not present at {path.parent}")
    image = cv2.imread(str(path))
    labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    for frame in (image, grey, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        dice = read_pips(frame)
        assert match(dice, labels, "die") == len(labels) == len(dice) == 6, dice


def turned_die(
    image: np.ndarray,
    centre: np.ndarray,
    side: float,
    pips: int,
    body: tuple,
    ink: tuple,
    turn: float,
    pip_radius: int,
    spread: float,
) -> None:
    """Draw a die `side` pixels wide turned `turn` degrees, its pips `pip_radius` wide and
    their places `spread` of the side from its centre (per axis), in BGR colours."""
    rotation = cv2.getRotationMatrix2D((0, 0), turn, 1.0)[:, :2]
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * side / 2 @ rotation.T + centre
    cv2.fillConvexPoly(image, np.rint(corners).astype(np.int32), body, cv2.LINE_AA)
    for place in LAYOUTS[pips]:
        x, y = np.array(place) * side * spread @ rotation.T + centre
        cv2.circle(image, (round(x), round(y)), pip_radius, ink, -1, cv2.LINE_AA)


def test_a_white_four_found_by_its_pips_is_shown_to_the_counter_whole() -> None:
    """A white die on a pale tray makes no die blob, so its pips are linked into a face and
    the counter checks it. The face's size guessed from its pips is the pip pattern's, about
    0.8 of the die: cut out that tight, a 4 was taken for a 2 (0.73 sure). The counter is
    shown at least the typical die side of the frame's die blobs (the red dice here)."""
    image = np.full((400, 400, 3), (196, 198, 200), np.uint8)
    red, white = ((40, 40, 200), (240, 240, 240)), ((232, 232, 230), (30, 30, 30))
    dice = [((80, 80), 5, 0.0, red), ((300, 90), 3, 10.0, red), ((90, 300), 2, 20.0, red)]
    dice += [((310, 310), 6, 30.0, red), ((200, 200), 4, 20.0, white)]
    for centre, pips, turn, (body, ink) in dice:
        # 30-pixel dice with small pips (radius 2), about an overhead-tray photograph's
        turned_die(image, np.array(centre), 30.0, pips, body, ink, turn, 2, 0.26)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    dice = read_pips(image)
    assert [d.pips for d in dice if abs(d.x - 200) < 12 and abs(d.y - 200) < 12] == [4], dice
    assert sorted(d.pips for d in dice) == [2, 3, 4, 5, 6], dice
