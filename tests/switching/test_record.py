"""switching-record/1: records read, checked by turn and rule, replayed to the spec's object
(docs/switching-record.md); a simulated game's record replays to the simulator's final
position and writes back as the same document."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.protocol import RecordProblem
from companion.games.records import parse_document
from companion.games.switching import board as boards
from companion.games.switching import bots, record, rules, simulate


def ours() -> dict[str, Any]:
    """Our board's file as a record embeds it, read here from the file itself."""
    text = (files("companion.games.switching") / "boards" / "ours.json").read_text()
    return json.loads(text)


# The spec's own example document (docs/switching-record.md), with our board in full.
SPEC: dict[str, Any] = {
    "format": "switching-record/1",
    "board": ours(),
    "players": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
    "variant": "repair",
    "setup": {"purple": "upright", "cyan": "upright", "orange": "upright"},
    "turns": [
        {"colour": "purple", "dice": [2, 3], "enter": "D1"},
        {"colour": "purple", "dice": [1, 2], "enter": "D1"},
        {"colour": "purple", "dice": [2, 2], "move": "D5"},
        {"stop": True},
        {"colour": "purple", "dice": [3, 4], "move": "D3"},
        {"colour": "cyan", "dice": [6, 3], "move": "E2"},
        {"colour": "purple", "dice": [5, 5], "move": "p3"},
        {"repair": "orange", "dice": [2, 1], "enter": "A1", "reroll": True},
        {"colour": "purple", "dice": [1, 2], "enter": "D1"},
    ],
}

# What the spec says `companion replay --json` prints for it.
SPEC_REPLAYED = {
    "game": "switching", "board": "ours", "variant": "repair", "over": False, "turns": 9,
    "to_move": "Ben", "reroll": None,
    "panels": {"purple": {"slot": "NE", "turned": False},
               "cyan": {"slot": "SE", "turned": False},
               "orange": {"slot": "NW", "turned": False}},
    "players": [
        {"name": "Ana", "colour": "red", "trains": [{"space": "D3", "facing": 1}],
         "supply": 1, "depot": 1, "repair_tiles": 0},
        {"name": "Ben", "colour": "blue", "trains": [{"space": "A3", "facing": 1}],
         "supply": 2, "depot": 0, "repair_tiles": 0},
    ],
    "winner": None,
}  # fmt: skip


def with_turns(turns: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    return copy.deepcopy(SPEC) | {"turns": turns} | changes


def problem(doc: Any) -> RecordProblem:
    with pytest.raises(RecordProblem) as raised:
        record.replay_json(doc)
    return raised.value


def test_the_spec_example_replays_to_the_specs_object() -> None:
    """Ana enters at D1 with 5 (S-8: D1 counts); Ben enters behind her; Ana's doubles take
    her round purple's curve to E1 and she stops; Ben's 7 reaches her on E1 and bumps her one
    on (S-10); she finishes from E2 with 9 (S-12); Ben's doubles slide purple into NE and
    carry his train on p3 off behind C's Start (S-14): a repair tile (S-19), and the
    re-roll enters anew after he plays the tile on orange (S-16, S-20)."""
    assert record.replay_json(SPEC) == SPEC_REPLAYED


def test_the_spec_example_goes_through_json_text_as_it_is() -> None:
    assert record.replay_json(parse_document(json.dumps(SPEC))) == SPEC_REPLAYED


def test_each_turns_events_are_kept_in_order() -> None:
    replayed = record.replay(record.from_json(SPEC))
    keys = [[e.key for e in events] for events in replayed.events]
    assert keys[4] == ["stayed", "moved", "bumped"]
    assert keys[6] == ["slid", "moved", "started_over", "repair_taken", "may_roll_again"]
    assert keys[7] == ["repair_played", "slid", "moved"]
    assert replayed.movers == ("red", "blue", "red", "red", "blue", "red", "blue", "blue", "red")


def test_a_record_ending_on_doubles_leaves_the_reroll_pending() -> None:
    out = record.replay_json(with_turns(SPEC["turns"][:3]))
    assert (out["to_move"], out["reroll"]) == ("Ana", {"train": "E1"})
    out = record.replay_json(with_turns(SPEC["turns"][:7]))
    assert (out["to_move"], out["reroll"]) == ("Ben", {"train": None})


def test_a_panel_turned_at_setup_is_kept_turned() -> None:
    doc = with_turns([], setup={"purple": "turned", "cyan": "upright", "orange": "upright"})
    assert record.replay_json(doc)["panels"]["purple"] == {"slot": "NW", "turned": True}


def test_the_record_replays_on_its_own_board_not_the_shipped_one() -> None:
    """A family's board (here: ours with purple and cyan's homes swapped, named "kitchen")
    is in no package: the record carries it, and replays on it."""
    kitchen = ours() | {"id": "kitchen", "ours": False}
    kitchen["panels"]["purple"]["home"], kitchen["panels"]["cyan"]["home"] = "NE", "NW"
    out = record.replay_json(with_turns([], board=kitchen))
    assert out["board"] == "kitchen"
    assert out["panels"]["purple"]["slot"] == "NE" and out["panels"]["cyan"]["slot"] == "NW"
    # ours changed but still called "ours": the record's own version decides, too
    changed = kitchen | {"id": "ours"}
    assert record.replay_json(with_turns([], board=changed))["panels"]["cyan"]["slot"] == "NW"


def test_a_record_writes_back_as_the_same_document() -> None:
    played = record.from_json(SPEC)
    replayed = record.replay(played)
    actions = [turn.action for turn in played.turns]
    again = record.to_json(
        played.start, played.names, list(zip(actions, replayed.events, strict=True))
    )
    assert again == SPEC


def test_a_tables_own_board_is_written_into_its_record() -> None:
    kitchen = ours() | {"id": "kitchen", "ours": False}
    kitchen["panels"]["purple"]["home"], kitchen["panels"]["cyan"]["home"] = "NE", "NW"
    doc = with_turns([], board=kitchen)
    played = record.from_json(doc)
    assert record.to_json(played.start, played.names, []) == doc


@pytest.mark.parametrize(
    "entry",
    [
        {"colour": "cyan", "dice": [2, 5], "move": "c2"},
        {"colour": "cyan", "dice": [1, 2], "enter": "A1"},
        {"colour": "orange", "dice": [4, 1], "pass": True},
        {"repair": "orange", "dice": [3, 3], "move": "A4"},
        {"repair": "cyan", "dice": [6, 2], "pass": True, "reroll": True},
        {"colour": "purple", "dice": [5, 1], "enter": "B1", "reroll": True},
        {"stop": True},
    ],
)
def test_every_kind_of_turn_reads_and_writes_back_as_it_is(entry: dict[str, Any]) -> None:
    """A turn lost (S-17) is rare between bots on our board (four Starts to block), so the
    kinds of turn are each read and written here as well as in whole games."""
    turn = record.to_turn(entry, 1)
    entered = rules.Moved("red", "A1", "A2", True, ("A2",))
    moved = rules.Moved("red", "A4", "A6", False, ("A5", "A6"))
    events = (entered,) if turn.enter else (moved,)
    assert record.turn_json(turn.action, events, turn.reroll) == entry


@pytest.mark.parametrize(
    ("turn", "entry", "rule", "says"),
    [
        # enter where Ana's train stands, move where no train stands
        (3, {"colour": "purple", "dice": [2, 2], "enter": "D5"}, "S-15", "stands on D5"),
        (2, {"colour": "purple", "dice": [1, 2], "move": "D1"}, "S-9", '"enter": "D1"'),
        (2, {"colour": "purple", "dice": [1, 2], "move": "D5"}, "S-9", "red's, not blue's"),
        (2, {"colour": "purple", "dice": [1, 2], "move": "Z9"}, "S-9", "no space 'Z9'"),
        (1, {"colour": "purple", "dice": [0, 3], "enter": "D1"}, "S-3", "white number die"),
        (1, {"colour": "pink", "dice": [1, 3], "enter": "D1"}, "S-3", "not 'pink'"),
        (1, {"colour": "purple", "dice": [1, 3], "pass": True}, "S-17", "red can move"),
        (1, {"colour": "purple", "dice": [1, 3], "enter": "D1", "reroll": True}, "S-16",
         "no re-roll"),
        (4, {"colour": "cyan", "dice": [1, 3], "move": "D3"}, "S-16", "re-roll"),
        (4, {"colour": "cyan", "dice": [1, 3], "move": "D3", "reroll": True}, "S-16",
         "the same train"),
        (2, {"stop": True}, "S-16", "no re-roll to decline"),
        (2, {"repair": "cyan", "dice": [1, 2], "enter": "C1"}, "S-20", "holds no repair tile"),
        (1, {"colour": "purple", "dice": [2, 3]}, "record", "exactly one of"),
        (1, {"colour": "purple", "dice": [2, 3], "enter": "D1", "pass": True}, "record",
         "exactly one of"),
        (1, {"dice": [2, 3], "enter": "D1"}, "record", "not both and not neither"),
        (1, {"colour": "purple", "repair": "cyan", "dice": [2, 3], "enter": "D1"}, "record",
         "not both"),
        (1, {"colour": "purple", "dice": [2, 3, 4], "enter": "D1"}, "record", "two number dice"),
        (1, {"colour": "purple", "dice": [2, True], "enter": "D1"}, "record", "two number dice"),
        (1, {"colour": "purple", "dice": [2, 3], "enter": "D1", "reroll": False}, "record",
         "left out"),
        (1, {"colour": "purple", "dice": [2, 3], "enter": 7}, "record", "a space"),
        (1, {"colour": "purple", "dice": [2, 3], "pass": 1}, "record", '"pass": true'),
        (1, {"colour": "purple", "dice": [2, 3], "move": "D1", "how": "fast"}, "record",
         "unknown turn fields ['how']"),
        (1, {"stop": True, "colour": "purple"}, "record", "alone"),
        (1, ["purple", 2, 3], "record", "a turn is"),
    ],
)  # fmt: skip
def test_a_bad_turn_is_named_with_its_rule(turn: int, entry: Any, rule: str, says: str) -> None:
    turns = copy.deepcopy(SPEC["turns"][: turn - 1]) + [entry]
    found = problem(with_turns(turns))
    assert (found.turn, found.rule) == (turn, rule), found.message
    assert says in found.message
    assert found.as_json()["error"] == {"turn": turn, "rule": rule, "message": found.message}


def test_a_train_on_a_start_blocks_it_for_every_player() -> None:
    """S-15, S-10: Ana enters at D1 and goes to D3; Ben's 3 stops behind her on D2; Ana's
    next train at D1 meets Ben's at once and pushes the chain on, staying on the Start
    herself; Ben cannot enter there now."""
    turns = [
        {"colour": "purple", "dice": [1, 2], "enter": "D1"},
        {"colour": "purple", "dice": [1, 2], "enter": "D1"},
        {"colour": "purple", "dice": [2, 3], "enter": "D1"},
    ]
    out = record.replay_json(with_turns(turns))
    trains = {p["name"]: [t["space"] for t in p["trains"]] for p in out["players"]}
    assert trains == {"Ana": ["D1", "D5"], "Ben": ["D2"]}
    found = problem(with_turns([*turns, {"colour": "purple", "dice": [1, 2], "enter": "D1"}]))
    assert (found.turn, found.rule) == (4, "S-15")
    assert found.message.startswith("red's train stands on D1: a train enters only at a free")


def test_a_turn_after_the_winner_is_refused() -> None:
    won = simulate.play(boards.load(), ["greedy", "greedy"], 11, "short").doc
    extra = copy.deepcopy(won)
    extra["turns"].append({"colour": "cyan", "dice": [1, 2], "enter": "C1"})
    found = problem(extra)
    assert (found.turn, found.rule) == (len(won["turns"]) + 1, "S-18")


@pytest.mark.parametrize(
    ("change", "rule", "says"),
    [
        ({"format": "switching-record/2"}, "record", "the format must be"),
        ({"colour": "red"}, "record", "unknown fields ['colour']"),
        ({"board": "ours"}, "board", "a board file is a JSON object"),
        ({"board": ours() | {"slots": {"size": [160, 160], "at": {"NW": [190, 190]}}}},
         "board", "the record's board"),
        ({"players": ["Ana", "Ben"]}, "record", "players is a list"),
        ({"players": [{"name": "Ana", "colour": "red"}]}, "S-1", "2 to 4 players"),
        ({"players": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "red"}]},
         "S-1", "same colour"),
        ({"players": [{"name": "Ana", "colour": "red"}, {"name": "Ana", "colour": "blue"}]},
         "record", "same name"),
        ({"players": [{"name": "  ", "colour": "red"}, {"name": "Ben", "colour": "blue"}]},
         "record", "player 1's name"),
        ({"players": [{"name": "Ana", "colour": "pink"}, {"name": "Ben", "colour": "blue"}]},
         "S-1", "no train colour"),
        ({"variant": "long"}, "S-21", "variant is one of"),
        ({"setup": {"purple": "upright", "cyan": "upright"}}, "S-5", "each panel lies"),
        ({"setup": {"purple": "upright", "cyan": "sideways", "orange": "upright"}}, "S-5",
         '"upright" or "turned"'),
        ({"turns": {"1": {}}}, "record", "turns must be a list"),
    ],
)  # fmt: skip
def test_a_bad_document_is_named_at_turn_zero(change: dict[str, Any], rule: str, says) -> None:
    found = problem(copy.deepcopy(SPEC) | change)
    assert (found.turn, found.rule) == (0, rule), found.message
    assert says in found.message


def test_what_is_no_record_at_all_is_said() -> None:
    assert problem([SPEC]).rule == "record"
    deep: Any = SPEC | {"turns": [[[[[[[[[[[[["deep"]]]]]]]]]]]]]}  # 14 deep: past the limit
    assert "nests" in problem(deep).message


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    policies=st.lists(st.sampled_from(bots.POLICIES), min_size=2, max_size=4),
    variant=st.sampled_from(sorted(rules.VARIANTS)),
)
def test_a_simulated_record_replays_to_the_simulators_final_position(
    seed: int, policies: list[str], variant: str
) -> None:
    """The property: whatever the bots did, the record the simulator kept replays (through
    JSON text) to exactly the position the simulator ended on, and writes back unchanged."""
    played = simulate.play(boards.load(), policies, seed, variant)
    doc = parse_document(json.dumps(played.doc))
    checked = record.from_json(doc)
    replayed = record.replay(checked)
    assert replayed.end == played.end and played.end.over
    out = record.summary(checked, replayed.end)
    assert out["winner"] == played.names[played.end.players.index(played.end.winner)]
    assert out["turns"] == len(doc["turns"])
    actions = [turn.action for turn in checked.turns]
    pairs = list(zip(actions, replayed.events, strict=True))
    assert record.to_json(checked.start, checked.names, pairs) == doc


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["D1", "D5", "purple", "cyan", "red", "stop"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


def paths(doc: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document (keys and list indices from the top), the board's left out
    (board.py's own tests try bad boards)."""
    found = [here]
    if isinstance(doc, dict):
        for key, value in doc.items():
            if here or key != "board":
                found += paths(value, (*here, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += paths(value, (*here, index))
    return found


PLACES = paths(SPEC)


@settings(max_examples=120, deadline=None)
@given(place=st.sampled_from(PLACES[1:]), value=JSON, drop=st.booleans())
def test_a_record_changed_anywhere_replays_or_is_refused_never_crashes(place, value, drop):
    """Bad input never crashes: any value put anywhere in the spec's example (or a field
    taken out) replays, or is refused as a RecordProblem naming a turn and a rule."""
    doc = copy.deepcopy(SPEC)
    parent = doc
    for key in place[:-1]:
        parent = parent[key]
    if drop:
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    try:
        out = record.replay_json(doc)
    except RecordProblem as found:
        turns = doc.get("turns")
        most = len(turns) if isinstance(turns, list) else 0
        assert 0 <= found.turn <= most and found.rule and found.message
    else:
        assert out["turns"] == len(doc["turns"])
