"""`companion serve`: the table's page under waitress, one process (later the only one that
may own the camera), with a thread pool sized for a family's phones.

Each open page holds one thread for its event stream, so streams are capped below the pool
size (`Settings.max_streams`), end after a few minutes (the browser reconnects by itself),
and make room for a new page once they have run a while (`web.api.Streams`).

A stuck phone must not stop the table. waitress stops accepting connections at its
`connection_limit` (100 by default) and closes an idle one only after `channel_timeout`
(120 s), so 100 connections that say nothing (phones asleep, a broken script) kept every
other phone out for two minutes. Here the limit is far above what a table opens
(`CONNECTIONS`, within the process's file limit: `connection_limit`), an idle connection
is closed after `IDLE_SECONDS`, and waitress watches its sockets with poll(), which has no
ceiling on their numbers (select() fails past descriptor 1023).
"""

from __future__ import annotations

import errno
import io
import logging
import resource
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

import segno

from companion import games
from companion.store import Store, StoreError
from companion.table import Table
from web.app import Settings, create_app, new_pin
from web.network import local_name, machine_addresses, page_url, phone_urls

THREADS = 16
# Each open page holds a thread for its event stream: leave some for ordinary requests.
MAX_STREAMS = THREADS - 4
# Connections open at once: a family's phones open a few each; the rest is headroom for
# stuck ones, each costing a file descriptor and a few kB, never a thread.
CONNECTIONS = 1000
# Descriptors kept for everything else (the store and its journal, the camera, the log,
# Python's own files), below the process's limit.
SPARE_FILES = 128
# Seconds a connection may stay open without a request before it is closed; a phone's next
# tap opens another at once (its browser does), so only a stuck one ever notices.
IDLE_SECONDS = 15
DEFAULT_DB = Path.home() / ".local" / "share" / "caboose-companion" / "table.sqlite3"


def deal_demo(table: Table, turns: int = 6, seed: str = "demo") -> None:
    """A game in progress (the default game's sample: bots playing a few turns, dice rolled
    from `seed`), so the page opens with something to look at."""
    games.default().sample(table, turns, seed)


class ServeError(OSError):
    """The page cannot listen where it was asked to."""


def connection_limit() -> int:
    """How many connections waitress may keep open: `CONNECTIONS`, the soft limit of open
    files raised for it if the hard limit allows (a Pi's service starts at 1024), and
    less if it does not, so that accepting phones never leaves the store without a file."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(THREADS, min(CONNECTIONS, soft - SPARE_FILES))


def listen(app: Any, host: str, port: int, idle_seconds: int = IDLE_SECONDS) -> Any:
    """A waitress server bound to `host:port`, not yet serving. Binding here, before any
    thread starts, turns a port in use into one clear message instead of a dead thread.
    `channel_request_lookahead` keeps reading a connection while its request runs, so a
    page that goes away is noticed at once and its event stream ends (`web.api.events`).
    Connections (the module's docstring): up to `connection_limit()`, watched with poll(),
    each closed after `idle_seconds` without a request, looked for every second."""
    from waitress.server import create_server

    # where it listens, for the join code (`web.join`): none a phone cannot open
    app.config["LISTENING_ON"] = host
    try:
        return create_server(
            app,
            host=host,
            port=port,
            threads=THREADS,
            ident="caboose",
            channel_request_lookahead=1,
            connection_limit=connection_limit(),
            channel_timeout=idle_seconds,
            cleanup_interval=1,
            asyncore_use_poll=True,
        )
    except ValueError:  # waitress's word for an address it could not look up
        raise ServeError(
            f"cannot listen on {host}:{port}: no address of this machine is called {host}; "
            "give 0.0.0.0 (every network) or 127.0.0.1 (this machine only)"
        ) from None
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port} {_why_not(error)}") from None


def _why_not(error: OSError) -> str:
    """What a refused bind means for the person who chose the address, and what to do."""
    if error.errno == errno.EADDRINUSE:
        return (
            "(the port is in use): another program, perhaps another companion, uses that "
            "port; stop it or choose another port"
        )
    if error.errno == errno.EACCES:
        return "(permission denied): ports below 1024 need root; choose another, such as 8000"
    if error.errno == errno.EADDRNOTAVAIL:
        return (
            "(not an address of this machine): give 0.0.0.0 (every network), 127.0.0.1 "
            "(this machine only) or one of this machine's addresses"
        )
    return f"({error.strerror or error}): choose another address or port"


# --- where phones open the page -------------------------------------------------------------


def where_to_open(
    host: str, port: int, opening: str, addresses: list[str], name: str | None
) -> list[str]:
    """What to print about a page listening on `host:port`, first line first: each address
    a phone of the table's network can open (`phone_urls`) and, on every network,
    localhost for this machine; on loopback, that no phone can open it and how to open it
    to them (`opening`: the flag or setting that does it). Never "localhost" alone: on a
    phone it names the phone itself."""
    here = page_url("localhost", port)
    urls = phone_urls(host, port, addresses, name)
    if host == "0.0.0.0" and not urls:
        return [
            f"open {here} on this machine; phones cannot reach it yet: this machine has "
            "no network address (join it to the table's network, then start again)"
        ]
    if host == "0.0.0.0":
        return [
            "open the page on a phone of the table's network at:",
            *(f"  {url}" for url in urls),
            f"  or at {here} on this machine",
        ]
    if host == "::":
        return [
            f"open {here} on this machine, or its IPv6 address on a phone; phones on IPv4 "
            f"cannot reach it: to open it to them, {opening}"
        ]
    if not urls:
        return [
            f"open {page_url(host, port)} on this machine only: it listens on {host}, which no "
            f"phone can reach; to open it to the table's phones, {opening}"
        ]
    return [f"open {urls[0]} on a phone of the table's network"]


def join_code(url: str) -> str:
    """`url` as a QR code drawn in text for a phone's camera (segno draws it in Unicode
    half blocks, light modules as blocks, for a terminal's dark background)."""
    drawn = io.StringIO()
    segno.make(url, error="m").terminal(out=drawn, compact=True)
    return drawn.getvalue().rstrip("\n")


def say_where(lead: str, host: str, port: int, opening: str, out: TextIO | None = None) -> None:
    """`where_to_open` for this machine, printed on `out` (standard output if None), the
    first line after `lead`; then, where a phone can open the page, a QR code of its first
    address to scan instead of typing it."""
    addresses, name = machine_addresses(), local_name()
    first, *rest = where_to_open(host, port, opening, addresses, name)
    print(f"{lead}{first}", *rest, sep="\n", file=out)
    urls = phone_urls(host, port, addresses, name)
    if urls:
        print(f"or scan this with a phone's camera to open {urls[0]}:", file=out)
        print(join_code(urls[0]), file=out)


def serve_in_background(app: Any, host: str, port: int) -> Any:
    """`listen`, then serve from a daemon thread (the camera loop keeps the main one)."""
    server = listen(app, host, port)
    threading.Thread(target=server.run, daemon=True, name="web").start()
    return server


def serve(
    host: str = "0.0.0.0",
    port: int = 8000,
    db: Path | None = None,
    pin: str | None = None,
    demo: bool = False,
) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        table = Table(Store(db or DEFAULT_DB))  # a game it cannot resume: a StoreError too
    except StoreError as error:
        print(f"companion serve: {error}", file=sys.stderr)
        return 2
    if table.store.restored is not None:  # a damaged store: said before anything else
        print(f"companion serve: {table.store.restored}", file=sys.stderr)
    if demo:
        deal_demo(table)
    pin = pin or new_pin()
    app = create_app(table, pin, Settings(max_streams=MAX_STREAMS))
    try:
        server = listen(app, host, port)
    except ServeError as error:
        print(f"companion serve: {error}", file=sys.stderr)
        return 2
    say_where("Caboose Companion: ", host, port, "start it with --host 0.0.0.0")
    print(f"table PIN: {pin}")
    sys.stdout.flush()
    server.run()
    return 0
