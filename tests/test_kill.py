"""Never lose a game: SIGKILL the companion at random points of a demo game, restart it on
the same store, and check that every turn it had announced as accepted is still there and
that the game finishes exactly as the same game played without interruption.

Also `companion run`: a bad configuration or a missing camera is a message and exit 2,
and the real service loop runs on the synthetic camera and mock pins."""

from __future__ import annotations

import http.client
import json
import os
import random
import shlex
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import chdir, closing, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import ConfigError, load
from companion.games.caboose.record import replay, summary
from companion.games.caboose.snapshot import stored_record
from companion.games.protocol import Start
from companion.store import Store
from companion.table import Table
from tests.test_demo import COMPANION, SEED, state_only, uninterrupted
from tests.web.test_games_api import GAMES as EVERY_GAME
from tests.web.test_games_api import last_turn

GAME = ("--edition", "loose-caboose", "--players", "3")


def journaled(store: Path) -> list[dict]:
    """The turns of the newest game in the store, as a fresh process would read them."""
    kept = Store(store)
    try:
        games = kept.games()
        return stored_record(kept, games[-1][0]).turns if games else []
    finally:
        kept.close()


def start(store: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*COMPANION, "demo", "--headless", "--json", "--seed", SEED, *GAME]
        + ["--store", str(store), "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_sigkill_at_random_points_loses_no_accepted_turn(tmp_path):
    store = tmp_path / "table.sqlite3"
    rng = random.Random(5)
    announced = 0  # the highest turn any run said was accepted
    kept: list[dict] = []  # the turns journaled when the last run was killed
    kills = 0
    while True:
        process = start(store)
        if kills == 3:
            break  # this run plays the game to its end
        wanted = rng.randint(1, 5)
        heard = 0
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("accepted turn"):
                announced = max(announced, int(line.split()[-1]))
                heard += 1
                if heard == wanted:
                    break
        else:
            break  # the game ended before this kill
        time.sleep(rng.uniform(0.0, 0.6))  # anywhere in the next turn
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        kills += 1
        turns = journaled(store)
        assert len(turns) >= announced, "a turn announced as accepted was lost"
        assert turns[: len(kept)] == kept, "a journaled turn changed after a restart"
        kept = turns
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    assert kills >= 2, "the game ended before it could be killed twice"
    resumed = json.loads(out)
    assert journaled(store)[: len(kept)] == kept
    reference, _ = uninterrupted(GAME)
    assert state_only(resumed) == state_only(reference)
    # and the store holds the same game as its record replays
    record = Store(store)
    done = replay(stored_record(record, record.games()[-1][0]))
    assert summary(done.state, done.lines) == state_only(reference)
    # a restart after the end only reports the finished game
    again = subprocess.run(
        [*COMPANION, "demo", "--headless", "--json", "--seed", SEED, *GAME]
        + ["--store", str(store)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert state_only(json.loads(again.stdout)) == state_only(reference)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def run(config: Path, timeout: float = 60.0) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*COMPANION, "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[camera]\nsorce = 'usb:0'\n", "unknown key ['sorce']"),
        ("[gpio]\npin_factory = 'mock'\npass = 5\nconfirm = 5\n", "two devices share one pin"),
        ("[web]\nport = 'eighty'\n", "web.port"),
        ("[camera\n", "not valid TOML"),
        ("[table]\nedition = 'uno'\n", "table.edition"),
        ("[session]\npip_wheels = { '1' = 1 }\n", "every face 1 to 6"),
        ("[speech]\non = 'yes'\n", "speech.on: true or false"),
        ("[speech]\nlang = 'fr'\n", "speech.lang: 'fr' is not en or es"),
        ("[speech]\nvoice = '-w /etc/passwd'\n", "speech.voice"),
        ("[speech]\nspeed = 1000\n", "speech.speed: 1000 words a minute"),
        ("[speech]\nvolume = -1\n", "speech.volume"),
    ],
)
def test_a_bad_configuration_is_a_message_and_exit_2(tmp_path, text, says):
    with pytest.raises(ConfigError, match=None) as error:
        load(write(tmp_path, text))
    assert says in str(error.value)
    done = run(write(tmp_path, text))
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr


def test_a_missing_camera_is_a_message_and_exit_2(tmp_path):
    config = write(
        tmp_path,
        f"[camera]\nsource = 'folder:{tmp_path / 'none'}'\n[gpio]\npin_factory = 'mock'\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n",
    )
    done = run(config)
    assert done.returncode == 2
    assert "camera" in done.stderr and "Traceback" not in done.stderr


def test_the_example_configuration_is_valid_and_documents_every_key():
    example = Path(__file__).parents[1] / "examples" / "companion.toml"
    config = load(example)
    assert config.gpio.pins == {"pass": 17, "confirm": 27, "led": 22, "buzzer": 23}
    assert not config.speech.on  # a table is silent unless asked to speak
    text = example.read_text()
    for section, keys in {
        "camera": ("source", "frame_size", "fps"),
        "table": ("width", "height", "marker_mm", "inset_mm", "zone", "catalogue", "edition"),
        "tracker": ("still_frames", "card_mm", "die_mm"),
        "session": ("unsure_below", "dice_per_roll", "pip_wheels"),
        "gpio": ("pin_factory", "pass", "confirm", "led", "buzzer", "debounce", "hold"),
        "store": ("path",),
        "web": ("host", "port", "pin"),
        "speech": ("on", "lang", "voice", "speed", "volume"),
    }.items():
        assert f"[{section}]" in text
        for key in keys:
            assert f"{key} =" in text, f"{section}.{key} is not documented"


def test_the_service_loop_runs_on_the_synthetic_camera_and_mock_pins(tmp_path):
    from companion.app.run import main

    config = write(
        tmp_path,
        "[camera]\nsource = 'synthetic:3'\nfps = 100\n[gpio]\npin_factory = 'mock'\n"
        f"[store]\npath = '{tmp_path / 'table.sqlite3'}'\n",
    )
    assert main(config, frames=4, serve=False) == 0
    assert (tmp_path / "table.sqlite3").exists()


# --- `companion serve` killed and started again --------------------------------------------

PIN = "135790"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(store: Path, port: int) -> list[str]:
    """The command line of `companion serve` on `store`, listening on this machine."""
    return [*COMPANION, "serve", "--host", "127.0.0.1", "--port", str(port)] + [
        "--db",
        str(store),
        "--pin",
        PIN,
    ]


@contextmanager
def serving(store: Path, inside: tuple[str, ...] = ()) -> Iterator[tuple[str, subprocess.Popen]]:
    """`companion serve` on `store` (run by the command `inside`, if any): its address and
    its process. It is killed (SIGKILL: a power cut, as far as the store can tell) when the
    block ends."""
    port = free_port()
    command = serve(store, port)
    if inside:
        command = [*inside[:-1], f"{inside[-1]} {shlex.join(command)}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the address: it listens from now on
        assert "open http" in line, process.stderr.read() if process.stderr else line
        yield f"http://127.0.0.1:{port}", process
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)


def call(address: str, route: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One request to the API (a POST when `body` is given): its status and JSON."""
    data = None if body is None else json.dumps(body).encode()
    ask = urllib.request.Request(
        f"{address}/api/{route}",
        data=data,
        headers={"X-Table-Pin": PIN, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(ask, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_last_turn_taken_back_is_resumed_after_a_sigkill(tmp_path, game):
    """The last turn played, taken back, and the service killed at once: started again,
    it shows the game going on, as the page did when it was killed."""
    store = tmp_path / "table.sqlite3"
    doc, last = last_turn(game)
    with serving(store) as (address, _):
        assert call(address, "import", {"record": doc})[0] == 200
        for step in last:
            route, body = step(call(address, "state")[1])
            assert call(address, route, body)[0] == 200
        over = call(address, "state")[1]
        assert over["over"]
        assert call(address, "undo", {"turn": over["turn"]})[0] == 200
        shown = call(address, "export")[1]
    with serving(store) as (address, _):
        status, view = call(address, "state")
        assert status == 200 and view["game_kind"] == game and not view["over"]
        assert call(address, "export")[1] == shown


# When the kill falls after the last turn was sent: at once, as it is kept, once answered.
KILLED_AFTER = dict(zip(EVERY_GAME, (0.0, 0.012, 0.05), strict=True))


@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_game_ending_as_the_service_is_killed_is_in_the_history_after(tmp_path, game):
    """Issue 31: the service killed (SIGKILL) at a moment the game's last turn is kept,
    whenever it falls: started again, the history and the store agree. The game ended is in
    the history with its winners, or, when the kill came before its last turn was kept, the
    game goes on, is no history yet, and lands there once the turn is played again."""
    store = tmp_path / "table.sqlite3"
    doc, last = last_turn(game)
    with serving(store) as (address, _):
        assert call(address, "import", {"record": doc})[0] == 200
        for step in last[:-1]:
            assert call(address, *step(call(address, "state")[1]))[0] == 200
        ending = last[-1](call(address, "state")[1])
        sent = threading.Thread(target=lambda: _unanswered(address, *ending), daemon=True)
        sent.start()
        time.sleep(KILLED_AFTER[game])
    sent.join(timeout=30)
    with serving(store) as (address, _):
        view = call(address, "state")[1]
        history = call(address, "history")[1]["games"]
        if not view["over"]:  # killed before the last turn was kept: it is played again
            assert history == []
            assert call(address, *last[-1](view))[0] == 200
            history = call(address, "history")[1]["games"]
        (entry,) = history
        assert entry["game"] == game and entry["over"] and entry["winners"]
    with serving(store) as (address, _):  # and it stays there
        assert call(address, "history")[1]["games"] == history


def _unanswered(address: str, route: str, body: dict[str, Any]) -> None:
    """A request whose answer may never come, or come cut short: the service is killed
    meanwhile."""
    with suppress(OSError, ValueError, http.client.HTTPException):
        call(address, route, body)


# --- `companion serve` on storage that fails -----------------------------------------------


def cut(store: Path) -> None:
    """The store cut to nothing beside its write-ahead log, as a failing card leaves it."""
    store.write_bytes(b"")


def torn(store: Path) -> None:
    """One page of the store overwritten (its log folded in first, as a clean stop does)."""
    with closing(sqlite3.connect(store)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(store, "r+b") as file:
        file.seek(2 * 4096)
        file.write(b"\xff" * 512)


def passes(address: str, count: int) -> dict[str, Any]:
    """`count` turns passed on the page; the view after them."""
    for _ in range(count):
        assert call(address, "pass", {"seat": call(address, "state")[1]["to_move"]})[0] == 200
    return call(address, "state")[1]


def a_game_served(store: Path) -> dict[str, Any]:
    """A Loose Caboose game played on `companion serve` (a game only passed: it lasts 16
    turns) until the service has made its backup, then killed; the view it showed."""
    with serving(store) as (address, _):
        started = {"game": "caboose", "edition": "loose-caboose", "names": ["Ana", "Ben"]}
        assert call(address, "game", started | {"seed": 1})[0] == 200
        shown = passes(address, 10)  # with the deal, enough entries for a copy
        deadline = time.monotonic() + 20
        while not list(store.parent.glob(f"{store.name}.backup-1")):
            assert time.monotonic() < deadline, "companion serve made no backup"
            time.sleep(0.05)
    return shown


@pytest.mark.parametrize("damage", [cut, torn])
def test_serve_resumes_a_damaged_store_from_its_backup_and_says_so(tmp_path, damage):
    store = tmp_path / "table.sqlite3"
    shown = a_game_served(store)
    damage(store)
    with serving(store) as (address, process):
        status, view = call(address, "state")
    said = process.stderr.read() if process.stderr else ""
    assert status == 200 and view["game_kind"] == "caboose" and not view["over"]
    assert 9 <= view["turn"] <= shown["turn"]  # as far as the backup holds it
    assert f"{store} is damaged" in said and "resumed from its backup" in said
    assert len(list(tmp_path.glob("table.sqlite3.damaged-*"))) >= 1  # kept aside


@pytest.mark.parametrize("damage", [cut, torn])
def test_serve_refuses_a_damaged_store_without_a_backup_in_one_line(tmp_path, damage):
    store = tmp_path / "table.sqlite3"
    a_game_served(store)
    for copy in tmp_path.glob("table.sqlite3.backup-*"):
        copy.unlink()
    damage(store)
    before = store.read_bytes()
    done = subprocess.run(
        serve(store, free_port()), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert str(store) in done.stderr and "no good backup" in done.stderr
    assert "move it away" in done.stderr
    assert store.read_bytes() == before


def mounted_disk() -> tuple[str, ...]:
    """A command that runs its argument with a small disk of its own (1 MB of tmpfs) at the
    folder `disk/` below the working folder, or () where it cannot (no user namespaces)."""
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        return ()
    return ("unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs disk && exec")


def test_serve_refuses_a_change_on_a_full_disk_and_keeps_it_once_space_is_freed(tmp_path):
    inside = mounted_disk()
    if not inside:
        pytest.skip("no user namespaces here to mount a small disk")
    (tmp_path / "disk").mkdir()
    store = Path("disk") / "table.sqlite3"
    with chdir(tmp_path), serving(store, inside) as (address, process):
        disk = Path(f"/proc/{process.pid}/cwd/disk")  # the small disk, as serve sees it
        room = os.statvfs(disk)
        assert room.f_blocks * room.f_frsize <= 2**20, "not the small disk: nothing written"
        started = {"game": "caboose", "edition": "loose-caboose", "names": ["Ana", "Ben"]}
        assert call(address, "game", started | {"seed": 1})[0] == 200
        before = passes(address, 2)
        kept = call(address, "export")[1]
        with suppress(OSError), open(disk / "filler", "wb") as filler:
            for _ in range(256):  # the rest of the disk, as photos or logs fill an SD card
                filler.write(b"\0" * 4096)
                filler.flush()
        refused = call(address, "pass", {"seat": before["to_move"]})
        assert refused[0] == 507, refused
        assert refused[1]["error"]["key"] == "storage_full"
        assert call(address, "state")[1] == before and call(address, "export")[1] == kept
        (disk / "filler").unlink()  # space freed
        assert call(address, "pass", {"seat": before["to_move"]})[0] == 200
        assert call(address, "export")[1]["turns"][:-1] == kept["turns"]


def test_the_service_at_a_real_table_resumes_a_damaged_store_and_says_so(tmp_path, capsys):
    from companion.app.run import main

    store = tmp_path / "table.sqlite3"
    kept = Store(store)
    table = Table(kept)
    table.start("caboose", Start(("Ana", "Ben"), "rollecate", seed=1))
    game = table.record()[1]
    kept.close()  # its last entries copied on the way out
    torn(store)
    config = write(
        tmp_path,
        "[camera]\nsource = 'synthetic:3'\nfps = 100\n[gpio]\npin_factory = 'mock'\n"
        f"[store]\npath = '{store}'\n",
    )
    assert main(config, frames=2, serve=False) == 0
    said = capsys.readouterr().err
    assert f"companion run: the table's store {store} is damaged" in said
    assert "resumed from its backup" in said
    assert Store(store).current() == game
