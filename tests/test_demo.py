"""`companion demo` end to end, in every edition: whole games through the synthetic camera,
the tracker, the session, the mock buttons, the engine and the store. Each game ends as
replaying its record ends, with every turn seen right by the camera."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.app.demo import terminal_lines
from companion.store import Store
from companion.table import Table
from tests.words_checks import codes_in

COMPANION = [sys.executable, "-m", "companion"]
# More seeds and editions of a check `make test` keeps one or two of: `make test-long`.
LONG = pytest.mark.long
CAMERA_FIELDS = ("camera_matched_every_turn", "camera", "truth_matched")
SEED = "e2e"

GAMES = [
    pytest.param(["--edition", "loose-caboose", "--players", "3"], id="loose-caboose"),
    pytest.param(["--edition", "rollecate", "--players", "2"], id="rollecate", marks=LONG),
    pytest.param(["--edition", "loknroll", "--players", "4"], id="loknroll", marks=LONG),
    pytest.param(
        ["--edition", "loknroll", "--variant", "solo-laura"], id="loknroll-laura", marks=LONG
    ),
]


def demo(*args: str, seed: str = SEED, timeout: float = 240.0) -> dict[str, Any]:
    """A whole headless demo game of that seed; its JSON, once it exited 0."""
    done = subprocess.run(
        [*COMPANION, "demo", "--headless", "--json", "--seed", seed, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@cache
def uninterrupted(args: tuple[str, ...]) -> tuple[dict[str, Any], Path]:
    """One whole demo game and its record, played once per test run (the kill test
    compares its interrupted game with this one)."""
    record = Path(tempfile.mkdtemp(prefix="caboose-e2e-")) / "record.json"
    return demo(*args, "--record", str(record)), record


def state_only(doc: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in doc.items() if key not in CAMERA_FIELDS}


@pytest.mark.slow
@pytest.mark.parametrize("args", GAMES)
def test_a_whole_demo_game_ends_as_its_record_replays(args):
    doc, record = uninterrupted(tuple(args))
    assert doc["over"] is True
    replayed = subprocess.run(
        [*COMPANION, "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert state_only(doc) == json.loads(replayed.stdout)
    camera = doc["camera"]
    assert doc["camera_matched_every_turn"] is True, camera
    # the companion played on a deal of its own and ended with the true game
    assert doc["truth_matched"] is True
    assert camera["turns"] == doc["turn"] == camera["matched"]
    assert camera["asked"] == 0 and camera["mismatched_turns"] == []
    # the frames were really looked at, and repeated frames were not recognised again
    assert camera["rendered"] >= doc["turn"] and camera["frames"] > camera["rendered"]
    # every play carries the poses the camera measured, for the geometry checks
    turns = json.loads(record.read_text())["turns"]
    assert all("place" in turn for turn in turns if "play" in turn)


def test_a_demo_that_cannot_start_says_why_and_exits_2(tmp_path):
    done = subprocess.run(
        [*COMPANION, "demo", "--headless", "--edition", "rollecate", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "for 2 to 4 players" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "args"),
    [
        pytest.param(
            "a", ["--edition", "loose-caboose", "--players", "4"], id="hands-in-zone", marks=LONG
        ),
        pytest.param(
            "b", ["--edition", "loose-caboose", "--players", "2"], id="4-from-draw", marks=LONG
        ),
        pytest.param(
            "g", ["--edition", "loknroll", "--variant", "solo-laura"], id="laura-edge", marks=LONG
        ),
        pytest.param(
            "a", ["--edition", "loknroll", "--players", "4"], id="dice-near-cards", marks=LONG
        ),
        pytest.param(
            "22", ["--edition", "rollecate", "--players", "3"], id="turned-railway", marks=LONG
        ),
        pytest.param("21", ["--edition", "loose-caboose", "--players", "4"], id="slid-railway"),
    ],
)
def test_games_that_once_tripped_the_companion_end_as_the_true_game(seed, args):
    """Games whose tables once fooled the demo or the companion: hands shown side by side
    in the zone at the end, more cards taken from the draw pile than the zone holds, a
    solo railway reaching the table's edge, a railway reaching down to the dice, railways
    moved to make room that once left part of themselves off the table."""
    doc = demo(*args, seed=seed)
    assert doc["over"] and doc["camera_matched_every_turn"] and doc["truth_matched"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed", ["2", *(pytest.param(seed, marks=LONG) for seed in ("23", "28", "31"))]
)
def test_laura_lays_every_card_the_rules_say_she_must(seed):
    """R-10: Laura plays the card she turns up whenever it has a legal placement. Her
    railway once grew longer than the synthetic table is deep, or ran into the marked zone,
    and her players passed instead, which the companion rightly refused ("Laura must play
    3/s this turn, not pass"): now they turn the railway on the table to make room. In
    seed 2 it is nearly as long as the table is wide, and fits only centred by its cards'
    edges, not their middles."""
    doc = demo("--edition", "loknroll", "--variant", "solo-laura", seed=seed)
    assert doc["over"] and doc["camera_matched_every_turn"] and doc["truth_matched"]


def test_a_press_is_waited_for_however_slow_the_buttons_timers(tmp_path):
    """On a busy machine the buttons' debounce timers run late: a press as short as the
    demo's once was (50 ms) is then shorter than the debounce sees it, and was dropped.
    Here the debounce (0.3 s) is longer than that press: the demo holds the button until
    the controls see it down and waits for the table to deal with it, so it is slower,
    never wrong; a press the game refuses is said at once, with the session's words."""
    from companion.app.demo import Filming, SyntheticTable
    from companion.games import default
    from companion.games.caboose.demo import ScriptedGame
    from companion.games.caboose.players import DemoOptions
    from companion.store import Store

    store = Store(tmp_path / "table.sqlite3")
    players = ScriptedGame(DemoOptions(edition="loose-caboose", players=2, seed="slow"))
    hands = SyntheticTable(default(), players, store, Filming(debounce=0.3))
    try:
        assert hands.press("pass", lambda: players._accepted(0)), players.following.status()
        assert "pass" in players.match.snap.record.turns[0]
        # the pass waits for CONFIRM: PASS now is refused, and said so, not waited for
        assert not hands.press("pass", lambda: players._accepted(1))
        assert players.following.status()["said"]["problem"]["key"] == "pass_not_now"
        assert len(players.match.snap.record.turns) == 1
    finally:
        hands.close()
        store.close()


@pytest.mark.slow
@LONG  # `make test` kills a game at random points in tests/test_kill.py
def test_a_demo_killed_six_times_ends_as_the_same_game(tmp_path):
    """Same seed, same game, however often it is killed: where the players have slid or
    turned the railway, and where their dice land, come from the game's turns, never from
    how far this run has watched it. Rollecate seed 21 once ended with other scores."""
    import signal
    import time

    game = ["--edition", "rollecate", "--players", "3", "--seed", "21"]
    command = [*COMPANION, "demo", "--headless", "--json", *game]
    reference = subprocess.run(command, capture_output=True, text=True, timeout=240, check=True)
    store = tmp_path / "table.sqlite3"
    for turns, wait in ((2, 0.0), (5, 0.3), (3, 0.1), (6, 0.5), (4, 0.2), (7, 0.4)):
        process = subprocess.Popen(
            [*command, "--store", str(store), "--progress"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        heard = 0
        for line in process.stderr:
            heard += line.startswith("accepted turn")
            if heard == turns:
                break
        time.sleep(wait)  # into the next turn: mid-play, mid-roll or mid-confirm
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        assert heard == turns, "the game ended before its six kills"
    resumed = subprocess.run(
        [*command, "--store", str(store)], capture_output=True, text=True, timeout=240, check=True
    )
    assert state_only(json.loads(resumed.stdout)) == state_only(json.loads(reference.stdout))


def test_laura_plays_her_card_when_her_railway_outgrows_the_table():
    """Six straights in a line and Laura's 3/s after them: 616 mm, longer than the table
    is deep (500 mm between the marker rows). The rules do not bound a railway, so she
    must play it (R-10); her players turn the railway a quarter turn on the table to lay
    it, where they once passed and the companion refused the pass."""
    from dataclasses import replace

    from companion.games.caboose.players import LAURA_AREA, DemoOptions, Players
    from companion.games.caboose.rules import engine, geometry

    state = engine.start(
        "loknroll",
        ["Laura", "Ana"],
        ["1/s", "2/s", "3/s", "4/s", "1/s", "2/s"],
        0,
        [[], ["4/c", "1/c", "2/c"]],
        ["3/s", "4/s", "2/c"],
        variant="solo-laura",
    )
    state = replace(state, layout=geometry.first_railway_layout(state.edition, state.railway))
    players = Players(DemoOptions(edition="loknroll", variant="solo-laura"))
    players.centre(state, LAURA_AREA)
    action = players.choose(state)
    assert action == engine.laura_action(state)
    left, top, right, bottom = LAURA_AREA
    for pose in [*state.layout, *action.place]:
        on_table = players.on_table(pose)
        assert left < on_table.x < right and top < on_table.y < bottom


# One small game of each: two players, seeds whose games end soon (Loose Caboose's "2" in
# 25 turns).
ENDINGS = [
    pytest.param(
        ["--game", "caboose", "--edition", "loose-caboose", "--players", "2", "--seed", "2"],
        id="caboose",
    ),
    pytest.param(
        ["--game", "yardmaster-express", "--players", "2", "--seed", SEED],
        id="yardmaster-express",
    ),
    pytest.param(["--game", "switching", "--short", "--seed", SEED], id="switching"),
]


def endings(*long: str) -> list[Any]:
    """Each game's ending, in words and in JSON (ids such as "caboose-words"); those named
    in `long` run in `make test-long` only."""
    return [
        pytest.param(
            ending.values[0],
            as_json,
            id=f"{ending.id}-{form}",
            marks=LONG if f"{ending.id}-{form}" in long else (),
        )
        for ending in ENDINGS
        for as_json, form in ((False, "words"), (True, "json"))
    ]


def replayed(record: Path, *args: str) -> str:
    """What `companion replay` prints of a record."""
    return subprocess.run(
        [*COMPANION, "replay", str(record), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout


@pytest.mark.slow
# The JSON of Loose Caboose's and the switching game's demos is compared with their replays
# in the tests above and in tests/switching/test_demo.py.
@pytest.mark.parametrize(("game", "as_json"), endings("caboose-json", "switching-json"))
def test_every_games_headless_demo_ends_showing_its_ranking(game, as_json, tmp_path):
    """Yardmaster's demo without --json once ended in KeyError: 'log' instead of its
    ranking. Every game's demo prints its game as `companion replay` does, ranking last;
    with --json, stdout is the one JSON object, the same game."""
    record = tmp_path / "record.json"
    args = [*COMPANION, "demo", "--headless", *game, "--record", str(record)]
    done = subprocess.run(
        args + (["--json"] if as_json else []),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    if as_json:
        doc = json.loads(done.stdout)
        assert doc["over"] is True
        assert state_only(doc).items() >= json.loads(replayed(record, "--json")).items()
    else:
        # The replay's own last line names the winners (the switching game's with their
        # colour); the demo says them by name at the end of its ranking.
        winners = replayed(record).splitlines()[-1].split(": ", 1)[1]
        shown = done.stdout.splitlines()
        assert "ranking:" in shown and shown[-3].startswith("winner")
        assert winners.startswith(shown[-3].split(": ", 1)[1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
# Served, words and JSON differ only in where the address is said: each is served twice.
@pytest.mark.parametrize(
    ("game", "as_json"), endings("caboose-json", "yardmaster-express-words", "switching-json")
)
def test_every_games_served_demo_ends_showing_its_ranking_and_stops_on_ctrl_c(game, as_json):
    """Served, the demo prints the game's end, ranking included, and keeps its page up
    with the ranking on it until Ctrl-C, which ends it with exit 0. With --json, stdout
    holds the one JSON object alone (where to watch goes to stderr)."""
    port = free_port()
    args = [*COMPANION, "demo", *game, "--delay", "0", "--port", str(port)]
    demo = subprocess.Popen(
        args + (["--json"] if as_json else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as at a terminal: a test run started in the background by a script inherits
        # SIGINT ignored, which Python keeps, and the demo would never hear its Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    watchdog = threading.Timer(240, demo.kill)  # a hang fails the test, never stalls it
    watchdog.start()
    try:
        said = demo.stderr if as_json else demo.stdout
        assert said is not None
        lines = []
        for line in said:
            lines.append(line)
            if "until Ctrl-C" in line:
                break
        assert lines and "until Ctrl-C" in lines[-1], "".join(lines)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as answer:
            state = json.load(answer)
        assert state["over"] is True and state["ranking"]  # the page shows the ranking
        demo.send_signal(signal.SIGINT)
        out, err = demo.communicate(timeout=60)
    finally:
        watchdog.cancel()
        demo.kill()
    assert demo.returncode == 0, err
    assert "Traceback" not in err
    if as_json:
        assert json.loads(out)["over"] is True
    else:
        shown = "".join(lines)
        assert f"http://127.0.0.1:{port}/" in shown and "ranking:" in shown and "winner" in shown


@pytest.mark.parametrize("game_id", ["caboose", "yardmaster-express", "switching"])
def test_the_terminal_says_each_turn_as_the_page_does(game_id, tmp_path):
    """Issue 27: the demo's terminal lines are the page's log, oldest first, in English:
    the same turn numbers and railway card numbers (the Caboose terminal said "caboose
    1 -> 3" where the page said "2 -> 4"; the switching terminal's turn 9 was the page's
    17), cards and spaces in words, never the record's codes."""
    table = Table(Store(tmp_path / "table.sqlite3"))
    game = games.game(game_id)
    game.sample(table, 12, "terminal")
    lines = terminal_lines(game, table.record()[2])
    assert lines == [entry["text"] for entry in reversed(table.view("en")["log"])]
    assert lines and not [line for line in lines if codes_in(line)]
