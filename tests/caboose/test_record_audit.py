"""`companion replay` of records an auditor wrote by hand (issue 10): impossible games are
refused naming the turn and the rule, and hostile JSON is one clear line, never a traceback."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main


def record(edition: str, setup: dict, turns: list, players=("Ana", "Ben"), variant=None) -> dict:
    doc = {"format": "caboose-record/1", "edition": edition, "players": list(players)}
    if variant:
        doc["variant"] = variant
    return doc | {"setup": setup, "turns": turns}


def replay_json(tmp_path, capsys, doc) -> tuple[int, dict]:
    path = tmp_path / "game.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


LAURA_WITH_CARDS = record(
    "loknroll",
    {"railway": ["1", "2", "1", "2"], "caboose": 2, "hands": [["4", "4"], ["2", "3"]],
     "draw": ["1"]},
    [{"play": ["1"], "roll": []}],
    players=("Laura", "Ana"),
    variant="solo-laura",
)  # fmt: skip


def test_R10_a_loknroll_record_giving_laura_cards_is_refused_at_setup(tmp_path, capsys):
    code, out = replay_json(tmp_path, capsys, LAURA_WITH_CARDS)
    assert code == 2
    assert out["error"]["turn"] == 0 and out["error"]["rule"] == "R-10"
    assert "Laura" in out["error"]["message"] and "never holds a hand" in out["error"]["message"]


LOOSE = {"railway": ["1", "2", "3"], "caboose": 1, "hands": [["4"], ["1"]], "draw": ["1", "2"]}
ROLLECATE = {"railway": ["1", "2", "1", "2"], "caboose": 2, "hands": [["4"], ["1"]], "draw": ["1"]}


@pytest.mark.parametrize(
    ("doc", "rule", "words"),
    [
        (record("loose-caboose", LOOSE, [{"pass": True, "order": ["1"]}]), "R-13", "no discard"),
        (record("loose-caboose", LOOSE, [{"pass": True, "drawn": ["1"]}]), "R-3", "reshuffled"),
        (record("rollecate", ROLLECATE, [{"pass": True, "drawn": ["1"]}]), "R-3", "reshuffled"),
    ],
)
def test_a_turn_is_refused_for_its_real_reason(tmp_path, capsys, doc, rule, words):
    code, out = replay_json(tmp_path, capsys, doc)
    assert code == 2
    assert out["error"]["turn"] == 1 and out["error"]["rule"] == rule
    assert words in out["error"]["message"]


@pytest.mark.parametrize(
    ("setup_change", "words"),
    [
        ({"railway": ["1", "2!", "1", "2"]}, "'2!' is not a card code"),  # `!` is for order
        ({"hands": [["4!"], ["1"]]}, "'4!' is not a card code"),
        ({"railway": ["1", "2", "C1", "2"]}, "chaos cards are never track"),
        ({"railway": ["4/c"] * 6}, "6 of card 4/c"),  # the box has five curved 4s
    ],
)
def test_an_impossible_setup_is_refused_at_turn_0(tmp_path, capsys, setup_change, words):
    code, out = replay_json(tmp_path, capsys, record("rollecate", ROLLECATE | setup_change, []))
    assert code == 2 and out["error"]["turn"] == 0
    assert words in out["error"]["message"]


def test_a_mark_that_is_not_an_order_is_refused_in_a_turn(tmp_path, capsys):
    doc = record("rollecate", ROLLECATE, [{"pass": True, "drawn": ["1!"]}])
    code, out = replay_json(tmp_path, capsys, doc)
    assert code == 2 and out["error"]["turn"] == 1 and "'1!'" in out["error"]["message"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000, "nests lists or objects more than"),
        ('{"format": ' + "[" * 500 + "]" * 500 + "}", "nests lists or objects more than"),
        ("1" * 5000, "a number with thousands of digits"),
        (json.dumps(record("rollecate", ROLLECATE, [])).replace('"caboose": 2', '"caboose": '
         + "9" * 5000), "a number with thousands of digits"),
    ],
)  # fmt: skip
def test_hostile_json_is_one_clear_line_and_exit_2(tmp_path, capsys, text, words):
    path = tmp_path / "game.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.err.startswith("error in the record (record): ") and words in captured.err


@pytest.mark.parametrize(
    ("setup_change", "rule", "words"),
    [
        ({"draw": []}, "R-14", "draw pile is empty"),
        ({"discard": ["3", "3", "1"]}, "R-1", "odd number of 1s"),
    ],
)
def test_a_setup_no_game_could_reach_is_refused(tmp_path, capsys, setup_change, rule, words):
    doc = record("rollecate", ROLLECATE | setup_change, [{"pass": True}])
    code, out = replay_json(tmp_path, capsys, doc)
    assert code == 2 and out["error"]["turn"] == 0 and out["error"]["rule"] == rule
    assert words in out["error"]["message"]


def test_a_huge_wrong_value_is_quoted_short(tmp_path, capsys):
    """The message stays one readable line, whatever the record held."""
    doc = record("rollecate", ROLLECATE, []) | {"edition": "x" * 1_000_000}
    code, out = replay_json(tmp_path, capsys, doc)
    assert code == 2 and "edition must be one of" in out["error"]["message"]
    assert len(out["error"]["message"]) < 200
