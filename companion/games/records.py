"""Reading a record of any game: the JSON document, checked only for what every game's
record shares (valid JSON, an object, nesting no deeper than a record ever does, no number
with thousands of digits), so each game's reader sees a sane document and every bad file
fails with one line that says what is wrong."""

from __future__ import annotations

import json
import os
import reprlib
import stat
from collections.abc import Set
from pathlib import Path
from typing import Any

from companion.games.protocol import RecordProblem

# Caboose records nest 5 deep (the document, turns, a turn, place, a pose); a switching-track
# record 8 (the board it carries: board, panels, a panel, pieces, a piece, spaces, a space):
# the limit leaves room for a family's board file, and still refuses absurd nesting.
MAX_DEPTH = 12
# Records and boards are a few hundred kilobytes at most (a Caboose record of MAX_TURNS
# turns is under 2 MB): a larger file is none of them.
MAX_FILE_BYTES = 4 * 2**20


def _too_deep(what: str) -> str:
    """Why a document nested too deep is not `what` (a record, a board file)."""
    return f"not {what}: its JSON nests lists or objects more than {MAX_DEPTH} deep"


TOO_DEEP = _too_deep("a record")


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


def load_json(data: str | bytes, what: str = "a record") -> Any:
    """JSON text or UTF-8 bytes as a document a person's file may be (`what`: "a record",
    "a board file"), or `ValueError` saying in one line why not: not UTF-8, not JSON,
    nested too deep, a number of thousands of digits, half of a character (a lone
    surrogate, which JSON can escape but nothing can print or write)."""
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error}") from None
    except UnicodeDecodeError as error:
        raise ValueError(
            f"not UTF-8 text (byte {error.object[error.start]:#04x} at {error.start}): "
            "save it as UTF-8"
        ) from None
    except RecursionError:
        # The parser recurses once per `[` or `{`, and gives up long before 100000 of them.
        raise ValueError(_too_deep(what)) from None
    except ValueError:
        # An integer too long to convert (over sys.get_int_max_str_digits() digits).
        raise ValueError(f"not {what}: it holds a number with thousands of digits") from None
    if depth(doc) > MAX_DEPTH:
        raise ValueError(_too_deep(what))  # before any message could quote it
    try:
        json.dumps(doc, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise ValueError(
            f"not {what}: a text in it holds half of a character (a lone surrogate)"
        ) from None
    return doc


def parse_document(text: str | bytes) -> Any:
    """JSON text as a record's document, or `RecordProblem` (turn 0, rule `record`) saying
    why not (`load_json`)."""
    try:
        return load_json(text)
    except ValueError as error:
        raise RecordProblem(0, "record", str(error)) from None


def read_small_file(path: str | Path, most: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a file a person names (a record, a board): only a regular file, and at
    most `most` bytes, so that a FIFO cannot hang the command nor /dev/zero fill the
    memory. What the path is gets checked before it is opened (opening a device may do
    something), then again on the file opened, without blocking, should the name have
    been given to something else meanwhile. `OSError` whose message says what the file is
    and what to give instead."""
    try:
        mode = os.stat(path).st_mode
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK) if stat.S_ISREG(mode) else None
    except OSError as error:
        raise OSError(f"cannot read {path}: {error.strerror}") from None
    if handle is not None:
        mode = os.fstat(handle).st_mode
    if handle is None or not stat.S_ISREG(mode):
        if handle is not None:
            os.close(handle)
        raise OSError(f"{path} is {_kind(mode)}, not a file: give the path of a file")
    with os.fdopen(handle, "rb") as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise OSError(f"{path} is larger than {most // 2**20} MB: no record or board is that large")
    return data


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_document(path: str | Path) -> Any:
    """A record file's document (see `parse_document`); an unreadable file is a
    `RecordProblem` naming the file."""
    try:
        text = read_small_file(path)
    except OSError as error:
        raise RecordProblem(0, "record", str(error)) from None
    return parse_document(text)
