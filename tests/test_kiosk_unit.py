"""systemd/companion-kiosk.service, the screen beside the table: a user unit systemd reads
without a warning, started with the user's manager, restarting on failure, pointing at the
kiosk view; and its shell run for real: it waits for the desktop's Wayland socket and for
the companion to answer, then starts chromium-browser (Bookworm) or chromium (Trixie),
whichever exists, in kiosk mode on that socket, and says what to install when neither does.
The browser is a stand-in script that records how it was started (the one thing faked)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "companion-kiosk.service"
KIOSK_URL = "http://localhost:8000/?view=table"
# The tools the unit's shell uses besides its builtins, found where this machine has them.
TOOLS = ("ls", "head", "basename", "sleep", "curl")


def unit() -> dict[str, dict[str, list[str]]]:
    """The unit's sections, each key with its values in order (systemd allows repeats)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def shell(line: str) -> str:
    """The script of an `/bin/sh -c '...'` line as the shell gets it ($$ is one $)."""
    prefix = "/bin/sh -c '"
    assert line.startswith(prefix) and line.endswith("'"), line
    return line[len(prefix) : -1].replace("$$", "$")


def test_systemd_reads_the_unit_as_a_user_unit_without_a_warning(tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is part of systemd: install systemd"
    env = os.environ | {"XDG_RUNTIME_DIR": str(tmp_path)}
    done = subprocess.run(
        [analyze, "--user", "verify", str(UNIT)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""


def test_a_user_unit_started_with_the_users_manager_and_restarted_on_failure():
    sections = unit()
    service = sections["Service"]
    assert "User" not in service and "Group" not in service  # a user unit runs as its user
    assert sections["Install"]["WantedBy"] in (["default.target"], ["graphical-session.target"])
    assert sections["Unit"]["After"] == ["graphical-session.target"]
    assert service["Environment"] == [f"KIOSK_URL={KIOSK_URL}"]
    assert service["Restart"] == ["on-failure"]
    assert sections["Unit"]["StartLimitIntervalSec"] == ["0"]  # never gives up restarting
    assert service["TimeoutStartSec"] == ["infinity"]  # waiting for the companion is no failure


@contextmanager
def runtime_folder() -> Iterator[Path]:
    """An empty runtime folder of the user, short enough a path for a socket in it."""
    with tempfile.TemporaryDirectory(prefix="kiosk") as folder:
        yield Path(folder)


@pytest.fixture
def runtime() -> Iterator[Path]:
    """A user's runtime folder with the desktop's Wayland socket, wayland-0, listening."""
    with runtime_folder() as folder, closing(socket.socket(socket.AF_UNIX)) as wayland:
        wayland.bind(str(folder / "wayland-0"))
        wayland.listen()
        yield folder


def tools(folder: Path, browsers: tuple[str, ...]) -> Path:
    """A PATH of the shell's tools and stand-in browsers named `browsers`, each writing its
    name, WAYLAND_DISPLAY and arguments to started.txt beside it."""
    folder.mkdir(parents=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, f"{tool} is needed to run the unit's shell"
        (folder / tool).symlink_to(found)
    for name in browsers:
        stand_in = folder / name
        stand_in.write_text(
            f'#!/bin/sh\nprintf "%s\\n" "{name}" "$WAYLAND_DISPLAY" "$@" > "{folder}/started.txt"\n'
        )
        stand_in.chmod(0o755)
    return folder


def start(
    tmp_path: Path, runtime: Path, browsers: tuple[str, ...]
) -> tuple[subprocess.CompletedProcess, Path]:
    path = tools(tmp_path / "bin", browsers)
    env = {"PATH": str(path), "XDG_RUNTIME_DIR": str(runtime), "KIOSK_URL": KIOSK_URL}
    done = subprocess.run(
        ["/bin/sh", "-c", shell(unit()["Service"]["ExecStart"][0])],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done, path / "started.txt"


@pytest.mark.parametrize("browser", ["chromium-browser", "chromium"])
def test_the_browser_that_exists_starts_in_kiosk_mode_on_the_desktops_socket(
    tmp_path, runtime, browser
):
    done, started = start(tmp_path, runtime, (browser,))
    assert done.returncode == 0, done.stderr
    name, display, *arguments = started.read_text().splitlines()
    assert (name, display) == (browser, "wayland-0")
    assert arguments[-1] == KIOSK_URL
    assert {"--kiosk", "--noerrdialogs", "--ozone-platform=wayland"} <= set(arguments)


def test_chromium_browser_first_when_both_exist(tmp_path, runtime):
    done, started = start(tmp_path, runtime, ("chromium", "chromium-browser"))
    assert done.returncode == 0, done.stderr
    assert started.read_text().splitlines()[0] == "chromium-browser"


def test_no_browser_is_a_failure_that_says_what_to_install(tmp_path, runtime):
    done, started = start(tmp_path, runtime, ())
    assert done.returncode == 1
    assert "sudo apt install chromium-browser (Bookworm) or chromium (Trixie)" in done.stderr
    assert not started.exists()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        """Every page answers, as the companion's does once it runs."""
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"the kiosk view")

    def log_message(self, *args: object) -> None:
        """Quiet: the test's output is its assertions."""


@contextmanager
def companion() -> Iterator[int]:
    """Something answering HTTP on a free port of localhost, as the companion does; its port."""
    server = HTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        thread.join(5)


def waiting(tmp_path: Path, runtime: Path, url: str) -> subprocess.Popen:
    path = tools(tmp_path / "bin", ())
    env = {"PATH": str(path), "XDG_RUNTIME_DIR": str(runtime), "KIOSK_URL": url}
    return subprocess.Popen(["/bin/sh", "-c", shell(unit()["Service"]["ExecStartPre"][0])], env=env)


def test_the_browser_waits_until_the_companion_answers(tmp_path, runtime):
    with companion() as port:
        pass  # a port nothing listens on any more
    url = f"http://127.0.0.1:{port}/?view=table"
    wait = waiting(tmp_path, runtime, url)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            wait.wait(5)  # nothing answers: still waiting
    finally:
        wait.kill()
        wait.wait()
    with companion() as port:
        wait = waiting(tmp_path / "again", runtime, f"http://127.0.0.1:{port}/?view=table")
        assert wait.wait(30) == 0


def test_the_browser_waits_for_the_desktop(tmp_path):
    """No Wayland socket yet (the user manager started at boot, before the autologin)."""
    with runtime_folder() as empty, companion() as port:
        wait = waiting(tmp_path, empty, f"http://127.0.0.1:{port}/?view=table")
        try:
            with pytest.raises(subprocess.TimeoutExpired):
                wait.wait(5)
            with closing(socket.socket(socket.AF_UNIX)) as wayland:
                wayland.bind(str(empty / "wayland-1"))  # the desktop is up
                assert wait.wait(30) == 0
        finally:
            wait.kill()
            wait.wait()
