"""Every bad command line is one clear line on stderr and exit status 2, never a traceback,
and changes nothing: a family typing a wrong path or number reads what was wrong and what to
do, and a game kept on disk stays as it was.

Each invocation goes through the command's own entry point (`companion.app.cli.main`, what
`python -m companion` runs) with the output captured at the file descriptors, as Flask's
CLI runner tests a command; those whose refusal depends on the process itself (an argument
that is no UTF-8, the command name as typed, a pipe nobody writes) run as a user runs them,
in a process of their own. A refusal that hangs fails after a minute either way. Outputs
(record folders, the demo's --record and --store) are checked before any game is played,
and a command that would serve a page fails before it listens, so the table stays quick.
As root, `chmod` does not stop a write: a path under a regular file or under /proc is what
cannot be written.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.games.caboose.match import load
from companion.games.caboose.record import record_of
from companion.games.caboose.rules.engine import deal
from companion.games.protocol import Setting
from companion.games.records import MAX_FILE_BYTES
from companion.store import Store, StoreError

ROOT = Path(__file__).parents[1]
YARDMASTER_RECORD = {
    "format": "yardmaster-record/1",
    "players": ["Ana", "Ben"],
    "setup": {"hand": ["R3-B2", "Y1-Y1"], "draw": ["G2-R1", "Y4-B4"]},
    "turns": [{"add": "R3-B2"}],
}
SWITCHING_RECORD = {
    "format": "switching-record/1",
    "board": json.loads((files("companion.games.switching") / "boards" / "ours.json").read_text()),
    "players": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
    "variant": "full",
    "setup": {"purple": "upright", "cyan": "upright", "orange": "upright"},
    "turns": [{"colour": "purple", "dice": [2, 3], "enter": "D1"}],
}
COMPANION = [sys.executable, "-m", "companion"]
# A documentation address (TEST-NET-1) is no address of this machine, unless the kernel is
# told to let programs bind addresses they do not have.
NOT_OURS = "192.0.2.1"
_NONLOCAL = Path("/proc/sys/net/ipv4/ip_nonlocal_bind")
BINDS_ANY = _NONLOCAL.exists() and _NONLOCAL.read_text().strip() == "1"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of bad inputs, shared by the table below (no invocation may change it)."""
    place = tmp_path_factory.mktemp("bad-inputs")
    (place / "afile").write_text("a regular file: nothing can be made under it\n")
    (place / "not-sqlite.sqlite3").write_text("a shopping list, not a table's store\n")
    other = sqlite3.connect(place / "other-program.sqlite3")
    other.execute("CREATE TABLE bookmarks (url TEXT)")
    other.commit()
    other.close()
    (place / "binary.toml").write_bytes(bytes(range(128, 256)))
    (place / "deep.toml").write_text("a = " + "[" * 100_000 + "\n")
    (place / "digits.toml").write_text("[web]\nport = " + "1" * 5000 + "\n")
    (place / "host.toml").write_text("[web]\nhost = '256.1.1.1'\n")
    (place / "nan.toml").write_text("[camera]\nfps = nan\n")
    # Values the service would take and fail on only later (gpiozero, numpy, the camera).
    usable = "[gpio]\npin_factory = 'mock'\n[camera]\nsource = 'synthetic:1'\n"
    (place / "pin.toml").write_text(usable.replace("'mock'", "'mock'\npass = 99"))
    (place / "frame.toml").write_text(usable + "frame_size = [0, 0]\n")
    (place / "wide.toml").write_text(usable + "[table]\nwidth = 1e308\n")
    (place / "unsure.toml").write_text(usable + "[session]\nunsure_below = 5\n")
    (place / "store.toml").write_text(
        f"[store]\npath = '{place / 'not-sqlite.sqlite3'}'\n"
        "[gpio]\npin_factory = 'mock'\n[camera]\nsource = 'synthetic:1'\n"
    )
    (place / "nested.json").write_text("[" * 100_000)
    os.mkfifo(place / "fifo.json")  # nobody writes to it: reading it would wait for ever
    (place / "huge.json").write_bytes(b" " * (MAX_FILE_BYTES + 1))
    # Records whose first player's name would write escape codes to a terminal, or half of
    # a character no terminal can write (JSON escapes it; POST /api/game once took it).
    records = {
        "caboose": record_of(deal("rollecate", ["Ana", "Ben"], "names")).as_json(),
        "yardmaster": YARDMASTER_RECORD,
        "switching": SWITCHING_RECORD,
    }
    (place / "switching-record.json").write_text(json.dumps(SWITCHING_RECORD))
    for game, doc in records.items():
        for kind, name in (("escape", "\u001b[2J"), ("surrogate", "A\ud800")):
            bad = json.loads(json.dumps(doc))
            if game == "switching":
                bad["players"][0]["name"] = name
            else:
                bad["players"][0] = name
            (place / f"{game}-{kind}.json").write_text(json.dumps(bad))
    (place / "big-number.json").write_text("1" * 5000)
    # The game `companion demo` deals by default (Loose Caboose, three players, seed "demo").
    store = Store(place / "loose-caboose-3.sqlite3")
    load(
        store, record_of(deal("loose-caboose", ["Ana", "Ben", "Cleo"], "demo")).as_json(), Setting()
    )
    store.close()
    return place


def contents(folder: Path) -> dict[str, str]:
    """Every file under `folder` and a digest of its bytes: what a refusal must not touch."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# (the command line, words its one line must hold). {tmp} is the shared folder of bad
# inputs, {own} a folder of the test's own (for a store a command may make).
BAD = [
    # simulate: the records folder is checked before a game is played.
    (["simulate", "--games", "1", "--records", "/proc/caboose-records"], ["/proc/caboose-records"]),
    (["simulate", "--games", "1", "--records", "{tmp}/afile"], ["--records", "is a file"]),
    (["simulate", "--games", "1", "--records", "{tmp}/afile/games"], ["afile is a file"]),
    (["simulate", "--games", "1", "--records", ""], ["--records", "empty path"]),
    (["simulate", "--players", "x"], ["--players", "'x'"]),
    (["simulate", "--edition", "uno"], ["--edition", "'uno'"]),
    # run: a configuration that is no text, or holds values that cannot be used.
    (["run", "--config", "{tmp}/binary.toml"], ["binary.toml is not a text file"]),
    (["run", "--config", "{tmp}/deep.toml"], ["nested too deeply"]),
    (["run", "--config", "{tmp}/digits.toml"], ["too many digits"]),
    (["run", "--config", "{tmp}/host.toml"], ["web.host", "256.1.1.1"]),
    (["run", "--config", "{tmp}/nan.toml"], ["camera.fps", "nan"]),
    (["run", "--config", "{tmp}/store.toml"], ["not-sqlite.sqlite3 is not a table's store"]),
    (["run", "--config", "{tmp}/pin.toml"], ["gpio.pass", "0 to 27"]),
    (["run", "--config", "{tmp}/frame.toml"], ["camera.frame_size"]),
    (["run", "--config", "{tmp}/wide.toml"], ["table.width", "at most 5000"]),
    (["run", "--config", "{tmp}/unsure.toml"], ["session.unsure_below", "0 to 1"]),
    (["run"], ["--config"]),
    # serve: the address and the store, all before a port is opened.
    (["serve", "--port", "-1"], ["--port", "1 to 65535"]),
    (["serve", "--port", "99999"], ["--port", "'99999'"]),
    (["serve", "--port", "0"], ["--port", "1 to 65535"]),
    (["serve", "--port", "eighty"], ["--port", "'eighty'"]),
    (["serve", "--host", "256.1.1.1"], ["--host", "'256.1.1.1'"]),
    (["serve", "--host", "bad host"], ["--host", "'bad host'"]),
    (["serve", "--host", ""], ["--host", "''"]),
    (
        ["serve", "--host", NOT_OURS, "--port", "8765", "--db", "{own}/table.sqlite3"],
        [f"{NOT_OURS}:8765", "not an address of this machine"],
    ),
    (["serve", "--db", "{tmp}"], ["--db", "is a folder"]),
    (["serve", "--db", "{tmp}/not-sqlite.sqlite3"], ["not-sqlite.sqlite3 is not a table's store"]),
    (["serve", "--db", "{tmp}/other-program.sqlite3"], ["another program"]),
    (["serve", "--db", "{tmp}/missing/table.sqlite3"], ["--db", "no folder {tmp}/missing"]),
    (["serve", "--db", "{tmp}/afile/table.sqlite3"], ["--db", "afile is a file"]),
    (["serve", "--db", "/proc/table.sqlite3"], ["--db", "cannot write /proc/table.sqlite3"]),
    (["serve", "--pin", "12"], ["--pin", "4 digits"]),
    # demo: every file it will open or write, before the first card is dealt.
    (["demo", "--headless", "--store", "{tmp}/not-sqlite.sqlite3"], ["--store", "not a table's"]),
    (["demo", "--headless", "--store", "{tmp}/other-program.sqlite3"], ["another program"]),
    (["demo", "--headless", "--store", "{tmp}"], ["--store", "is a folder"]),
    (["demo", "--headless", "--delay", "-1"], ["--delay", "'-1'"]),
    (["demo", "--headless", "--delay", "nan"], ["--delay", "'nan'"]),
    (["demo", "--headless", "--record", "{tmp}/missing/game.json"], ["--record", "no folder"]),
    (["demo", "--headless", "--record", "/proc/game.json"], ["--record", "cannot write"]),
    (["demo", "--headless", "--record", "{tmp}"], ["--record", "is a folder"]),
    (["demo", "--headless", "--record", "{tmp}/afile/game.json"], ["--record", "is a file"]),
    (
        [
            "demo",
            "--headless",
            "--edition",
            "rollecate",
            "--store",
            "{tmp}/loose-caboose-3.sqlite3",
        ],
        ["holds a game of Loose Caboose for 3 players", "--edition loose-caboose --players 3"],
    ),
    (
        ["demo", "--headless", "--players", "4", "--store", "{tmp}/loose-caboose-3.sqlite3"],
        ["not of Loose Caboose for 4 players", "--players 3"],
    ),
    (
        ["demo", "--headless", "--seed", "other", "--store", "{tmp}/loose-caboose-3.sqlite3"],
        ["another seed than 'other'", "--seed"],
    ),
    (["demo", "--port", "99999"], ["--port", "'99999'"]),
    (["demo", "--host", "256.1.1.1"], ["--host", "'256.1.1.1'"]),
    (["demo", "--camera", "blurry"], ["--camera", "'blurry'"]),
    # enroll: the catalogue's folder and the preview, before the first card is asked for.
    (["enroll", "/proc/caboose-deck", "--no-wait"], ["cannot make or write", "/proc/caboose-deck"]),
    (["enroll", "{tmp}/afile/deck", "--no-wait"], ["afile is a file"]),
    (
        ["enroll", "{tmp}/deck", "--preview", "{tmp}/missing/preview.png", "--no-wait"],
        ["--preview", "no folder"],
    ),
    (
        ["enroll", "{tmp}/deck", "--preview", "{tmp}/preview.txt", "--no-wait"],
        ["--preview", "not an image file"],
    ),
    (["enroll", "{tmp}/deck", "--codes", ",", "--no-wait"], ["--codes", "names no card"]),
    (["enroll"], ["folder"]),
    # replay: records no parser should choke on.
    (["replay", "{tmp}/nested.json"], ["nest"]),
    (["replay", "{tmp}/big-number.json"], ["digits"]),
    (["replay", "{tmp}/missing.json"], ["cannot read"]),
    (["replay", "/dev/zero"], ["/dev/zero is a device, not a file"]),
    (["replay", "{tmp}"], ["is a folder, not a file"]),
    (["replay", "{tmp}/huge.json"], ["huge.json is larger than 4 MB"]),
    (["replay", "{tmp}/caboose-escape.json"], ["player 1's name holds a control character"]),
    (["replay", "{tmp}/yardmaster-escape.json"], ["player 1's name holds a control character"]),
    (["replay", "{tmp}/switching-escape.json"], ["player 1's name holds a control character"]),
    (["replay", "{tmp}/caboose-surrogate.json"], ["half of a character"]),
    (["replay", "{tmp}/yardmaster-surrogate.json"], ["half of a character"]),
    (["replay", "{tmp}/switching-surrogate.json"], ["half of a character"]),
    # a variant that seats its own number of players
    (
        ["demo", "--headless", "--edition", "loknroll", "--variant", "solo", "--players", "3"],
        ["--players 3", "the solo variant is for 1 player"],
    ),
    (
        ["simulate", "--edition", "loknroll", "--variant", "solo-laura", "--players", "2"],
        ["--players 2", "solo against Laura variant is for 1 player"],
    ),
    # the tools handed their own command lines: one line too, no usage block above it
    (["markers"], ["companion markers", "out"]),
    (["eval-dice"], ["companion eval-dice", "folder"]),
    (["eval-vision", "--scenes", "x"], ["companion eval-vision", "--scenes"]),
    (["eval-vision", "--game", "switching", "--bogus"], ["--bogus"]),
    # a game's own enroll options missing (a tool a game does not offer: tests/test_seam.py)
    (
        ["enroll", "{tmp}/deck", "--game", "switching", "--no-wait"],
        ["companion enroll: give the board's size (--size WIDTHxHEIGHT in mm)"],
    ),
]


# Refusals that depend on the process: arguments Python decoded from bytes that are no UTF-8,
# the command's name as the user typed it, a FIFO whose open would wait for a writer.
BAD_IN_A_PROCESS = [
    (["simulate", "--games", "1", "--seed", "\udcff"], ["--seed", "not UTF-8 text"]),
    (["demo", "--headless", "--seed", "\udcff"], ["--seed", "not UTF-8 text"]),
    (["replay", "{tmp}/fifo.json"], ["fifo.json is a pipe (FIFO), not a file"]),
    (["referee"], ["'referee'"]),
]


def refused(command: list[str]) -> subprocess.CompletedProcess[str]:
    """The command run as a user runs it, once it has refused as every command refuses:
    exit 2 and one line on stderr, no traceback, no hang."""
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done


def exit_status(code: object) -> int:
    """The status a process ends with when `SystemExit(code)` leaves it, as Python's own
    exit gives it: None is 0, a number itself, anything else (a message, which Python
    prints on stderr) 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def refused_here(argv: list[str], capfd: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """`companion ARGV` run through the command's entry point in this process, once it has
    refused as every command refuses (`refused`): its stdout and stderr."""

    def too_long(*_: object) -> None:
        raise TimeoutError(f"companion {' '.join(argv)} did not refuse within a minute")

    before = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(60)
    try:
        status = main(argv)
    except SystemExit as done:
        status = exit_status(done.code)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    out, err = capfd.readouterr()
    assert status == 2, err
    assert len(err.splitlines()) == 1, err
    return out, err


@pytest.mark.parametrize(("argv", "words"), BAD, ids=[" ".join(argv) for argv, _ in BAD])
def test_a_bad_command_line_is_one_clear_line_and_exit_2(
    place: Path,
    tmp_path: Path,
    argv: list[str],
    words: list[str],
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if NOT_OURS in argv and BINDS_ANY:
        pytest.skip("this kernel lets a program listen on an address it does not have")
    monkeypatch.chdir(ROOT)
    before = contents(place)
    out, err = refused_here([arg.format(tmp=place, own=tmp_path) for arg in argv], capfd)
    for word in words:
        assert word.format(tmp=place) in err
    assert out == ""  # nothing started: no address, no PIN, no game
    assert contents(place) == before


@pytest.mark.parametrize(
    ("argv", "words"), BAD_IN_A_PROCESS, ids=[" ".join(argv) for argv, _ in BAD_IN_A_PROCESS]
)
def test_a_bad_command_line_in_a_process_of_its_own_is_one_clear_line_and_exit_2(
    place: Path, argv: list[str], words: list[str]
) -> None:
    before = contents(place)
    done = refused([*COMPANION, *(arg.format(tmp=place) for arg in argv)])
    for word in words:
        assert word.format(tmp=place) in done.stderr
    assert done.stdout == ""
    assert contents(place) == before


def test_a_file_that_is_no_store_is_left_as_it_was(place: Path) -> None:
    """The store refuses another program's SQLite file before it would add its tables."""
    with pytest.raises(StoreError, match="another program"):
        Store(place / "other-program.sqlite3")
    other = sqlite3.connect(place / "other-program.sqlite3")
    tables = other.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    other.close()
    assert tables == [("bookmarks",)]


def test_output_read_by_a_command_that_stops_early_ends_without_a_traceback(
    place: Path,
) -> None:
    """`companion replay F | head -1`: the reader closes the pipe, the rest of the replay
    is not wanted; the command stops quietly rather than with a BrokenPipeError."""
    replay = subprocess.Popen(
        [*COMPANION, "replay", str(place / "switching-record.json"), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert replay.stdout is not None and replay.stderr is not None
    replay.stdout.close()  # before the command has written a word
    error = replay.stderr.read().decode()
    assert replay.wait(timeout=60) == 1
    assert error == ""
