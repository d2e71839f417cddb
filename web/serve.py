"""`companion serve`: the table's page under waitress, one process (later the only one that
may own the camera), with a thread pool sized for a family's phones.

Each open page holds one thread for its event stream, so streams are capped below the pool
size (`Settings.max_streams`) and end after a few minutes; the browser reconnects by itself.
"""

from __future__ import annotations

import errno
import logging
import sys
import threading
from pathlib import Path
from typing import Any

from companion import games
from companion.store import Store, StoreError
from companion.table import Table
from web.app import Settings, create_app, new_pin

THREADS = 16
# Each open page holds a thread for its event stream: leave some for ordinary requests.
MAX_STREAMS = THREADS - 4
DEFAULT_DB = Path.home() / ".local" / "share" / "caboose-companion" / "table.sqlite3"


def deal_demo(table: Table, turns: int = 6, seed: str = "demo") -> None:
    """A game in progress (the default game's sample: for the Caboose design, bots playing
    a few turns of Rollecate, dice rolled from `seed`), so the page opens with something to
    look at."""
    games.default().sample(table, turns, seed)


class ServeError(OSError):
    """The page cannot listen where it was asked to."""


def listen(app: Any, host: str, port: int) -> Any:
    """A waitress server bound to `host:port`, not yet serving. Binding here, before any
    thread starts, turns a port in use into one clear message instead of a dead thread.
    `channel_request_lookahead` keeps reading a connection while its request runs, so a
    page that goes away is noticed at once and its event stream ends (`web.api.events`)."""
    from waitress.server import create_server

    try:
        return create_server(
            app, host=host, port=port, threads=THREADS, ident="caboose", channel_request_lookahead=1
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
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    print(f"Caboose Companion: open http://{shown}:{port}/ (on the table's network too)")
    print(f"table PIN: {pin}")
    sys.stdout.flush()
    server.run()
    return 0
