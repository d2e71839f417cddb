"""Reading a record of any game: the JSON document, checked only for what every game's
record shares (valid JSON, an object, nesting no deeper than a record ever does, no number
with thousands of digits), so each game's reader sees a sane document and every bad file
fails with one line that says what is wrong."""

from __future__ import annotations

import json
import reprlib
from collections.abc import Set
from pathlib import Path
from typing import Any

from companion.games.protocol import RecordProblem

# Caboose records nest 5 deep (the document, turns, a turn, place, a pose); a switching-track
# record 8 (the board it carries: board, panels, a panel, pieces, a piece, spaces, a space):
# the limit leaves room for a family's board file, and still refuses absurd nesting.
MAX_DEPTH = 12
TOO_DEEP = f"not a record: its JSON nests lists or objects more than {MAX_DEPTH} deep"


def depth(doc: Any) -> int:
    """How deeply lists and objects nest in a parsed document, counted without recursion
    (a hostile document must not exhaust the stack)."""
    deepest = 0
    stack = [(doc, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, level + 1) for item in items)
    return deepest


def header_problem(doc: Any, format: str, fields: Set[str]) -> str | None:
    """What is wrong with a parsed record before its game reads it, or None: not an object,
    nesting too deep (checked before any message could quote such a value), another format,
    a field the format does not have."""
    if not isinstance(doc, dict):
        return "a record is a JSON object"
    if depth(doc) > MAX_DEPTH:
        return TOO_DEEP
    if doc.get("format") != format:
        return f"the format must be {format!r}, not {reprlib.repr(doc.get('format'))}"
    unknown = set(doc) - fields
    if unknown:
        return f"unknown fields {sorted(unknown)}: a record has {sorted(fields)}"
    return None


def parse_document(text: str | bytes) -> Any:
    """JSON text as a document, or `RecordProblem` (turn 0, rule `record`) saying why not."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordProblem(0, "record", f"not valid JSON: {error}") from None
    except RecursionError:
        # The parser recurses once per `[` or `{`, and gives up long before 100000 of them.
        raise RecordProblem(0, "record", TOO_DEEP) from None
    except ValueError:
        # An integer too long to convert (over sys.get_int_max_str_digits() digits).
        raise RecordProblem(
            0, "record", "not a record: it holds a number with thousands of digits"
        ) from None
    if depth(doc) > MAX_DEPTH:
        raise RecordProblem(0, "record", TOO_DEEP)  # before any message could quote it
    return doc


def read_document(path: str | Path) -> Any:
    """A record file's document (see `parse_document`); an unreadable file is a
    `RecordProblem` naming the file."""
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise RecordProblem(0, "record", f"cannot read {path}: {error.strerror}") from None
    return parse_document(text)
