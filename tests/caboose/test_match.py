"""The Caboose match on the shared skeleton (companion/games/match.py): its journal is the
one the stores on families' tables hold, with no setting entry, so they resume as kept."""

from __future__ import annotations

from dataclasses import replace

from companion.games.caboose.bots import POLICIES
from companion.games.caboose.match import Match, load
from companion.games.caboose.record import record_of
from companion.games.caboose.rules.engine import deal
from companion.games.caboose.rules.state import Pass
from companion.games.caboose.simulate import play_game
from companion.games.protocol import Setting
from companion.store import Store


def test_a_game_is_kept_as_its_record_without_turns_then_one_entry_a_turn(tmp_path):
    """The store keeps the record it started from without its turns, each turn a `turn`
    entry, an undo an `undo` entry with no document: no `setting` entry first."""
    truth = play_game(
        "rollecate", ["Ana", "Ben"], "kept", [POLICIES["cautious"], POLICIES["greedy"]]
    ).record
    store = Store(tmp_path / "t.sqlite3")
    match = load(store, replace(truth, turns=truth.turns[:2]).as_json(), Setting())
    match.act(match.snap.state.to_move, Pass())
    match.undo()
    kept = store.kept(match.id)
    opening = truth.as_json()
    del opening["turns"]
    assert (kept.game, kept.record) == ("caboose", opening)
    assert [(e.kind, e.doc) for e in kept.journal] == [
        ("turn", truth.turns[0]),
        ("turn", truth.turns[1]),
        ("turn", {"pass": True}),
        ("undo", None),
    ]


def test_a_store_written_before_the_skeleton_resumes_on_the_same_turn(tmp_path):
    """A game kept as the companion kept them before (its record, then its turns as
    entries, a correction with its note): resumed on the same turn with the same log."""
    state = deal("rollecate", ["Ana", "Ben"], 4)
    doc = record_of(state).as_json()
    del doc["turns"]
    store = Store(tmp_path / "old.sqlite3")
    number = store.start("caboose", doc, [("turn", {"pass": True}), ("turn", {"pass": True})])
    store.append(number, "undo", finished=False)
    store.append(number, "correct", {"pass": True}, note="turn 1: corrected", finished=False)
    match = Match.resume(store, number, Setting())
    assert match.snap.record.turns == [{"pass": True}]
    assert match.snap.state.turn == 1 and match.snap.notes == ("turn 1: corrected",)
    assert match.id == number and not match.over
