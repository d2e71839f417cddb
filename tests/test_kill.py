"""Never lose a game: SIGKILL the companion at random points of a demo game, restart it on
the same store, and check that every turn it had announced as accepted is still there and
that the game finishes exactly as the same game played without interruption.

Also `companion run`: a bad configuration or a missing camera is a message and exit 2,
and the real service loop runs on the synthetic camera and mock pins."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import ConfigError, load
from companion.games.caboose.journal import stored_record
from companion.games.caboose.record import replay, summary
from companion.store import Store
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


@contextmanager
def serving(store: Path) -> Iterator[str]:
    """`companion serve` on `store`, listening on this machine: its address. It is killed
    (SIGKILL: a power cut, as far as the store can tell) when the block ends."""
    port = free_port()
    process = subprocess.Popen(
        [*COMPANION, "serve", "--host", "127.0.0.1", "--port", str(port)]
        + ["--db", str(store), "--pin", PIN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the address: it listens from now on
        assert "open http" in line, process.stderr.read() if process.stderr else line
        yield f"http://127.0.0.1:{port}"
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
    with serving(store) as address:
        assert call(address, "import", {"record": doc})[0] == 200
        for step in last:
            route, body = step(call(address, "state")[1])
            assert call(address, route, body)[0] == 200
        over = call(address, "state")[1]
        assert over["over"]
        assert call(address, "undo", {"turn": over["turn"]})[0] == 200
        shown = call(address, "export")[1]
    with serving(store) as address:
        status, view = call(address, "state")
        assert status == 200 and view["game_kind"] == game and not view["over"]
        assert call(address, "export")[1] == shown
