"""The page under waitress, as `companion serve` runs it: streams end when a phone goes
away, so the fixed thread pool is never used up; the demo starts a game in progress."""

from __future__ import annotations

import http.client
import itertools
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import waitress
import waitress.server
from flask import Flask

import web.serve
from companion.app.cli import main
from companion.app.demo import _serve as demo_page
from companion.app.service import FrameLoop
from companion.games.caboose.rules.state import Pass
from companion.store import Store
from companion.table import Table
from tests.playing import act, match
from tests.web.conftest import HEADERS, PIN, served
from tests.web.test_security import stream_status
from web.app import Settings, create_app
from web.serve import MAX_STREAMS, deal_demo, say_where, where_to_open


@contextmanager
def serving(app: Flask, threads: int = 4) -> Iterator[int]:
    """The app under waitress on a free port of localhost; its port."""
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)
    stopped = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # its sockets closed under the loop by close(): the way it stops
            if not stopped.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        stopped.set()
        server.close()
        thread.join(2)


def open_stream(port: int) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/api/events")
    return connection.getresponse()


def test_a_closed_page_frees_its_stream(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    deal_demo(table, turns=2)
    settings = Settings(heartbeat=0.1, stream_seconds=30, max_streams=1)
    with serving(create_app(table, "1111", settings)) as port:
        first = open_stream(port)
        assert first.status == 200
        assert first.readline().startswith(b"retry:")
        assert open_stream(port).status == 503  # the one stream is taken
        first.close()  # the phone goes away: the next heartbeat fails and frees the stream
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            again = open_stream(port)
            if again.status == 200:
                break
            again.close()
            time.sleep(0.1)
        assert again.status == 200
        again.close()


def test_an_event_reaches_a_stream_under_waitress(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    deal_demo(table, turns=0)
    with serving(create_app(table, "1111", Settings(heartbeat=5))) as port:
        stream = open_stream(port)
        lines = [stream.readline() for _ in range(5)]  # retry, blank, id, event, data
        assert lines[3] == b"event: state\n"
        version = table.version
        act(table, match(table).snap.state.to_move, Pass())
        started = time.monotonic()
        while not stream.readline().startswith(b"id: "):
            pass
        assert time.monotonic() - started < 1
        assert table.version > version
        stream.close()


def test_demo_plays_a_few_turns(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    deal_demo(table, turns=6)
    assert match(table).snap.state.turn == 6
    assert len(match(table).snap.lines) == 6


@pytest.fixture
def not_bound(monkeypatch) -> dict[str, Any]:
    """What `companion serve` asks of waitress (`create_server`'s arguments, and whether it
    ran the server), nothing bound: the server's run() returns at once."""
    asked: dict[str, Any] = {}

    class Bound:
        def run(self) -> None:
            asked["ran"] = True

    def create_server(app, **kw):
        asked.update(kw, app=app)
        return Bound()

    monkeypatch.setattr(waitress.server, "create_server", create_server)
    return asked


def local_addresses() -> set[str]:
    """This machine's own IPv4 addresses as the kernel's routing table lists them (each a
    `/32 host LOCAL` entry), loopback left out: where a phone of its networks reaches it."""
    lines = Path("/proc/net/fib_trie").read_text().splitlines()
    found = {
        line.split()[-1] for line, under in itertools.pairwise(lines) if "/32 host LOCAL" in under
    }
    return {address for address in found if not address.startswith("127.")}


def test_serve_command(tmp_path, not_bound, capsys):
    db = tmp_path / "t.sqlite3"
    assert main(["serve", "--port", "8123", "--db", str(db), "--pin", "9999", "--demo"]) == 0
    out = capsys.readouterr().out
    assert "table PIN: 9999" in out
    assert not_bound["host"] == "0.0.0.0" and not_bound["port"] == 8123
    assert not_bound["threads"] == 16 and not_bound["ran"]
    assert not_bound["app"].extensions["caboose.pin"] == "9999"
    assert match(Table(Store(db))).snap.state.turn == 6
    # Every address a phone can open is printed, localhost only as this machine's own.
    printed = re.findall(r"http://([^/]+):8123/", out)
    assert local_addresses(), "this test needs a machine on a network"
    assert set(printed) - {"localhost"} == local_addresses()
    assert "http://localhost:8123/ on this machine" in out


def test_a_page_on_this_machine_only_says_so_and_how_to_open_it(tmp_path, not_bound, capsys):
    args = ["serve", "--host", "127.0.0.1", "--port", "8123", "--db", str(tmp_path / "t")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "open http://127.0.0.1:8123/ on this machine only" in out
    assert "which no phone can reach" in out and "start it with --host 0.0.0.0" in out
    # The demo listens on this machine unless told otherwise: it says so too.
    table = Table(Store(tmp_path / "demo.sqlite3"))
    demo_page("127.0.0.1", 8124, "9999", sys.stdout)(FrameLoop(table, lambda game: None))
    out = capsys.readouterr().out
    assert out.startswith(
        "Caboose Companion demo: open http://127.0.0.1:8124/ on this machine only"
    )
    assert 'add --host 0.0.0.0 (make demo DEMO_ARGS="--host 0.0.0.0")' in out
    assert "table PIN: 9999" in out


def test_where_phones_open_the_page():
    lines = where_to_open("0.0.0.0", 80, "", ["127.0.0.1", "192.168.1.20", "10.0.0.5"], "pi.local")
    assert lines == [
        "open the page on a phone of the table's network at:",
        "  http://192.168.1.20:80/",
        "  http://10.0.0.5:80/",
        "  http://pi.local:80/",
        "  or at http://localhost:80/ on this machine",
    ]
    (alone,) = where_to_open("0.0.0.0", 80, "", ["127.0.0.1"], "pi.local")
    assert "phones cannot reach it yet: this machine has no network address" in alone
    assert where_to_open("192.168.1.20", 80, "", [], None) == [
        "open http://192.168.1.20:80/ on a phone of the table's network"
    ]
    (loopback,) = where_to_open("::1", 80, "use --host 0.0.0.0", [], None)
    assert loopback.startswith("open http://[::1]:80/ on this machine only")
    assert loopback.endswith("use --host 0.0.0.0")


def scanned(drawn: str) -> str:
    """What a phone's camera reads from a QR code drawn in half blocks, each character two
    modules (upper, lower), light where the character is: decoded by OpenCV, not by the
    library that drew it."""
    upper, lower = {"█": 1, "▀": 1, "▄": 0, " ": 0}, {"█": 1, "▀": 0, "▄": 1, " ": 0}
    rows = [[halves[c] for c in line] for line in drawn for halves in (upper, lower)]
    light = np.array(rows, dtype=np.uint8) * 255
    big = cv2.resize(light, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, *_ = cv2.QRCodeDetector().detectAndDecode(big)
    return text


def test_the_service_prints_a_qr_code_a_phone_scans_to_open_the_page(monkeypatch, capsys):
    monkeypatch.setattr(web.serve, "machine_addresses", lambda: ["127.0.0.1", "192.168.1.20"])
    monkeypatch.setattr(web.serve, "local_name", lambda: "pi.local")
    say_where("Caboose Companion: ", "0.0.0.0", 8000, "")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Caboose Companion: open the page on a phone of the table's network at:"
    scan = out.index("or scan this with a phone's camera to open http://192.168.1.20:8000/:")
    drawn = out[scan + 1 :]
    assert len(drawn) >= 10 and all(set(line) <= set("█▀▄ ") for line in drawn)
    assert scanned(drawn) == "http://192.168.1.20:8000/"
    say_where("Caboose Companion: ", "127.0.0.1", 8000, "use --host 0.0.0.0")
    (only,) = capsys.readouterr().out.splitlines()  # no phone can open it: nothing to scan
    assert "on this machine only" in only


def test_a_port_in_use_is_a_clear_message(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "t")]
        assert main(args) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "another port" in err


# --- a stuck phone must not stop the table ---------------------------------------------------


@contextmanager
def held_open(port: int, count: int, sent: bytes = b"") -> Iterator[list[socket.socket]]:
    """`count` connections to the page that send `sent` and then nothing more, never reading
    (phones asleep with the page open, a script, a broken Wi-Fi), until the block ends."""
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            held[-1].sendall(sent)
        yield held
    finally:
        for connection in held:
            connection.close()


@contextmanager
def a_game_served(tmp_path, settings: Settings) -> Iterator[tuple[Table, int]]:
    """A game in progress under waitress as `companion serve` binds it; the table, the port."""
    table = Table(Store(tmp_path / "t.sqlite3"))
    deal_demo(table, turns=2)
    with served(create_app(table, PIN, settings)) as port:
        yield table, port


# A phone kept out waits until the server closes an idle connection (web.serve.IDLE_SECONDS,
# 15 s) and its request times out first (5 s); one let in is answered in well under a second
# on an idle machine, and within a few on CI's loaded one (2.7 s seen at a load of 9).
NOT_KEPT_OUT = 4.5


def a_turn_by_the_pin_holder(table: Table, port: int) -> float:
    """The seconds the PIN holder's phone waits for a pass to be taken (and the table to
    move on)."""
    turn = match(table).snap.state.turn
    body = json.dumps({"seat": match(table).snap.state.to_move})
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request(
            "POST", "/api/pass", body, {**HEADERS, "Content-Type": "application/json"}
        )
        assert connection.getresponse().status == 200
    finally:
        connection.close()
    assert match(table).snap.state.turn == turn + 1
    return time.monotonic() - started


def test_two_hundred_idle_connections_do_not_keep_the_pin_holder_out(tmp_path):
    settings = Settings(max_streams=MAX_STREAMS)
    with a_game_served(tmp_path, settings) as (table, port), held_open(port, 200):
        assert a_turn_by_the_pin_holder(table, port) < NOT_KEPT_OUT
        # and as many more sending half a request each (its headers never end)
        with held_open(port, 200, b"GET /api/state HTTP/1.1\r\nHost: table\r\n"):
            assert a_turn_by_the_pin_holder(table, port) < NOT_KEPT_OUT


def test_many_open_event_streams_do_not_keep_the_pin_holder_or_a_new_page_out(tmp_path):
    settings = Settings(max_streams=MAX_STREAMS, stream_settle=1.0)
    streams = b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n"
    # 150 pages open the event stream and then never read it
    with a_game_served(tmp_path, settings) as (table, port), held_open(port, 150, streams):
        assert a_turn_by_the_pin_holder(table, port) < NOT_KEPT_OUT
        # A new page: refused while every stream is young, its stream is served once the
        # oldest has run `stream_settle` s (the page retries by itself: web/static/shell.js)
        started = time.monotonic()
        while (status := stream_status(port)) != 200:
            assert status == 503
            assert time.monotonic() - started < settings.stream_settle + 3
            time.sleep(0.2)
        assert a_turn_by_the_pin_holder(table, port) < NOT_KEPT_OUT


def test_an_idle_connection_is_closed_after_the_idle_timeout(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite3"))
    with served(create_app(table, PIN), idle_seconds=1) as port, held_open(port, 1) as (idle,):
        started = time.monotonic()
        assert idle.recv(1) == b""  # closed by the server, having said nothing
        assert 0.9 < time.monotonic() - started < 3.5
