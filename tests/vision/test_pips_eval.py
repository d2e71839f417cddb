"""eval-dice reports its time per image beside a plain OpenCV pass timed in the same run."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.eval_dice import evaluate, main, timing


def test_timing_gives_medians_p95s_and_their_ratios() -> None:
    result = timing([10.0, 20.0, 30.0], [1.0, 2.0, 4.0])
    assert result["ms_p50"] == 20.0 and result["plain_pass_ms_p50"] == 2.0
    assert result["latency_ratio_p50"] == 10.0
    assert result["latency_ratio_p95"] == round(result["ms_p95"] / result["plain_pass_ms_p95"], 1)


def test_eval_dice_reports_its_time_against_the_plain_pass(tmp_path: Path, capsys) -> None:
    image = np.full((240, 320, 3), (90, 120, 150), np.uint8)
    cv2.rectangle(image, (140, 100), (188, 148), (235, 235, 235), -1)
    cv2.circle(image, (164, 124), 5, (20, 20, 20), -1, cv2.LINE_AA)
    for name in ("a.png", "b.png"):
        cv2.imwrite(str(tmp_path / name), image)
    threads = cv2.getNumThreads()
    result = evaluate(tmp_path, boxes="die")
    assert result["plain_pass_ms_p50"] > 0 and result["ms_p50"] > 0
    ratio = result["ms_p50"] / result["plain_pass_ms_p50"]  # of the rounded times
    assert abs(result["latency_ratio_p50"] - ratio) <= 0.05 + 0.01 * ratio
    assert cv2.getNumThreads() == threads  # timed on one thread, then given back
    assert main([str(tmp_path), "--json", "--boxes", "die"]) == 0
    reported = json.loads(capsys.readouterr().out)
    assert {"ms_p95", "plain_pass_ms_p95", "latency_ratio_p95"} <= reported.keys()
    assert main([str(tmp_path), "--boxes", "die"]) == 0
    assert "a plain OpenCV pass" in capsys.readouterr().out


def test_eval_dice_grey_reads_each_photograph_as_a_camera_without_colour(
    tmp_path: Path, capsys
) -> None:
    """--grey measures what a colourless camera would read: a green die whose red pips are as
    bright as its face is read in colour and, turned grey, is a plain square with no pips."""
    image = np.full((240, 320, 3), (90, 120, 150), np.uint8)
    cv2.rectangle(image, (140, 100), (188, 148), (0, 100, 0), -1)
    for centre in ((152, 112), (176, 136)):
        cv2.circle(image, centre, 5, (0, 0, 196), -1, cv2.LINE_AA)  # luminance of the face
    cv2.imwrite(str(tmp_path / "a.png"), image)
    (tmp_path / "a.txt").write_text("1 0.5125 0.5166 0.15 0.2\n")  # a 2 at the die's box
    assert evaluate(tmp_path, boxes="die")["read"] == 1
    grey = evaluate(tmp_path, boxes="die", grey=True)
    assert grey["grey"] and grey["read"] == 0
    assert main([str(tmp_path), "--boxes", "die", "--grey"]) == 0
    assert "turned grey" in capsys.readouterr().out
