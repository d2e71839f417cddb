"""The Caboose game's journal in the store: the kinds of its entries, keeping a new game,
and folding a stored game's journal into its record now (`record_now`, `stored_record`),
which is what a restart resumes and what a killed demo left.
"""

from __future__ import annotations

from typing import Any

from companion.games.caboose.record import Record, RecordError, from_json
from companion.store import Kept, Store

GAME_ID = "caboose"  # the registry's id of the Caboose design: the store keeps it per game
# The kinds of the Caboose journal's entries (`Store.append`): a turn, the last one taken
# back, the last one corrected (a mistyped roll, another discard order), a deal fixed by
# what the table showed (`deal.py`).
TURN, UNDO, CORRECT, DEAL = "turn", "undo", "correct", "deal"


def begin(store: Store, record: Record) -> int:
    """Keep a new game in the store (which finishes the one left unfinished): its record
    without turns, and each turn as a journal entry."""
    doc = record.as_json()
    turns = doc.pop("turns")
    return store.start(GAME_ID, doc, [(TURN, turn) for turn in turns])


def record_now(kept: Kept) -> Record:
    """A Caboose game's record now: its journal folded over the record it started from
    (a turn added, an undo taking the last one back, a correction replacing it, a deal
    fixing the setup). A game of another design, or an entry no Caboose game writes, is a
    RecordError."""
    if kept.game != GAME_ID:
        raise RecordError(
            0, "store", f"game {kept.number} is one of {kept.game!r}, not of the Caboose design"
        )
    doc = dict(kept.record)
    turns: list[dict[str, Any]] = []
    for entry in kept.journal:
        if entry.kind == TURN:
            turns.append(entry.doc)
        elif entry.kind == UNDO:
            turns.pop()
        elif entry.kind == CORRECT:
            turns[-1] = entry.doc
        elif entry.kind == DEAL:
            doc["setup"] = entry.doc["setup"]
        else:
            raise RecordError(0, "store", f"game {kept.number} holds an entry {entry.kind!r}")
    doc["turns"] = turns
    return from_json(doc)


def stored_record(store: Store, number: int) -> Record:
    """Game `number` of the store as its record now: what a restart resumes, what a
    killed demo left."""
    return record_now(store.kept(number))
