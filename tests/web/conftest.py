"""A table and its web app on a temporary store, and a client that knows the PIN."""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.store import Store
from companion.table import Table
from tests.tables import ROLLECATE_TWO
from web.app import Settings, create_app
from web.serve import listen

PIN = "246810"
HEADERS = {"X-Table-Pin": PIN}

RECORD = ROLLECATE_TWO


def record(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(RECORD)
    doc.update(changes)
    return doc


@pytest.fixture
def table(tmp_path) -> Table:
    return Table(Store(tmp_path / "table.sqlite3"))


@pytest.fixture
def settings() -> Settings:
    return Settings(heartbeat=0.05, stream_seconds=0.3, max_upload=64 * 1024)


@pytest.fixture
def app(table, settings):
    return create_app(table, PIN, settings)


@pytest.fixture
def client(app) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def dealt(client, table) -> Table:
    """The hand-dealt Rollecate table above, loaded through the API."""
    answer = client.post("/api/import", json={"record": record()}, headers=HEADERS)
    assert answer.status_code == 200, answer.json
    return table


@contextmanager
def served(app, **options: Any) -> Iterator[int]:
    """The app under waitress as `companion serve` binds it (`web.serve.listen`, given
    `options`); its port."""
    server = listen(app, "127.0.0.1", 0, **options)

    def run() -> None:
        with suppress(OSError):  # its sockets closed under the loop by close(): how it stops
            server.run()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        server.close()
        thread.join(2)
