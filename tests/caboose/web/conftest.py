"""The Caboose page's tests play on the web tests' table, app and client
(tests/web/conftest.py), as the shell's tests do."""

from tests.web.conftest import app, client, dealt, settings, table  # noqa: F401
