"""yardmaster-record/1: records read, checked by turn and rule, replayed to the spec's object;
a simulated game's record replays to the simulator's scores."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.protocol import RecordProblem
from companion.games.yardmaster import edition, record, rules, simulate

# The spec's own example document (../shared/spec/yardmaster-record.md).
SPEC = {
    "format": "yardmaster-record/1",
    "players": ["Ana", "Ben", "Cleo"],
    "variant": None,
    "caboose": {
        "name": "Oil baron", "points": 4, "condition": {"kind": "run", "colour": "Y", "length": 3}
    },
    "setup": {"hand": ["R3-B2", "Y1-Y1", "B2-P4"], "draw": ["G2-R1", "Y4-B4", "R2-R2"]},
    "turns": [{"add": "R3-B2"}, {"add": "Y1-Y1", "turned": True}, {"add": "W", "card": "B2-P4"}],
}  # fmt: skip


def problem(doc) -> RecordProblem:
    with pytest.raises(RecordProblem) as raised:
        record.replay_json(doc)
    return raised.value


def test_the_spec_example_replays_to_its_trains_and_live_scores() -> None:
    out = record.replay_json(SPEC)
    assert out["game"] == "yardmaster-express" and out["over"] is False
    assert (out["round"], out["rounds"], out["to_move"]) == (2, 6, "Ana")
    trains = {p["name"]: p["train"] for p in out["players"]}
    assert trains == {"Ana": ["E", "R3-B2"], "Ben": ["E", "Y1-Y1"], "Cleo": ["E", "W"]}
    ben = out["players"][1]
    assert (ben["train_value"], ben["longest_run"], ben["run_bonus"], ben["score"]) == (2, 2, 2, 4)
    assert out["winners"] == [] and out["longest_run"] == 2


def test_a_turned_card_is_written_as_it_lies() -> None:
    doc = copy.deepcopy(SPEC)
    doc["turns"][0] = {"add": "R3-B2", "turned": True}
    assert record.replay_json(doc)["players"][0]["train"] == ["E", "B2-R3"]


@pytest.mark.parametrize(
    ("turns", "turn", "rule"),
    [
        ([{"add": "G2-R1"}, {"add": "Y4-B4"}, {"add": "G9-G9"}], 3, "Y-6"),  # not in the hand
        # a fourth turn finds the draw deck the record lists empty
        ([{"add": "G2-R1"}, {"add": "Y4-B4"}, {"add": "W", "card": "R2-R2"}, {"add": "R3-B2"}],
         4, "Y-6"),
        ([{"add": "W", "card": "R3-B2", "turned": True}], 1, "Y-4"),
        ([{"add": "R3"}], 1, "record"),
        ([{"add": "R3-B2", "how": "sideways"}], 1, "record"),
    ],
)  # fmt: skip
def test_a_bad_turn_is_named_with_its_rule(turns, turn: int, rule: str) -> None:
    doc = copy.deepcopy(SPEC) | {"turns": turns}
    found = problem(doc)
    assert (found.turn, found.rule) == (turn, rule)
    assert found.as_json()["error"]["turn"] == turn


def test_a_card_that_does_not_join_is_refused_at_its_turn() -> None:
    doc = copy.deepcopy(SPEC)
    doc["setup"]["draw"].append("Y1-Y1")
    # Ana lays R3-B2; Ben and Cleo lay face down; Ana then holds Y1-Y1, G2-R1, Y4-B4, R2-R2.
    doc["turns"][1] = {"add": "W", "card": "Y1-Y1"}
    doc["turns"].append({"add": "G2-R1"})  # green 2 after blue 2: joins by value
    assert record.replay_json(doc)["players"][0]["train"] == ["E", "R3-B2", "G2-R1"]
    doc["turns"][3] = {"add": "Y4-B4", "turned": True}  # blue 4 after blue 2: by colour
    assert record.replay_json(doc)["players"][0]["train"] == ["E", "R3-B2", "B4-Y4"]
    doc["turns"][3] = {"add": "Y4-B4"}  # yellow 4 after blue 2
    found = problem(doc)
    assert (found.turn, found.rule) == (4, "Y-5") and "Y4-B4 does not join R3-B2" in found.message


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"format": "caboose-record/1"}, "record"),
        ({"players": ["Ana"]}, "Y-7"),
        ({"players": ["Ana", "Ana", "Ben"]}, "setup"),
        ({"setup": {"hand": ["R3-B2"], "draw": []}}, "Y-6"),
        ({"caboose": {"name": "x", "points": 1, "condition": {"kind": "speed"}}}, "Y-12"),
        ({"variant": "strategic-2"}, "Y-11"),
        ({"carried": [1, 2, 3]}, "Y-11"),
        ({"colour": "red"}, "record"),
    ],
)
def test_a_bad_document_is_named_at_turn_zero(change, rule: str) -> None:
    found = problem(copy.deepcopy(SPEC) | change)
    assert (found.turn, found.rule) == (0, rule)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    policies=st.lists(st.sampled_from(["run", "value"]), min_size=2, max_size=5),
    caboose=st.booleans(),
    strategic=st.booleans(),
)
def test_a_simulated_record_replays_to_the_simulators_scores(
    seed: int, policies: list[str], caboose: bool, strategic: bool
) -> None:
    games = simulate.play(edition.load(), policies, seed, caboose, strategic)
    for played in games:
        out = record.replay_json(played.doc)
        assert out["over"] and [p["score"] for p in out["players"]] == [
            s.score for s in rules.score(played.end)
        ]
        assert out["winners"] == rules.ranking(played.end)[0]
    if strategic:
        first, second = games
        firsts = {s.name: s.score for s in rules.score(first.end)}
        assert second.doc["variant"] == "strategic-2"
        assert second.doc["carried"] == [firsts[name] for name in second.doc["players"]]
        assert firsts[second.doc["players"][0]] == min(firsts.values())
