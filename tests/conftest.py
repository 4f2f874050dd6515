"""Make the innerloop pytest plugin available in a bare checkout too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.authoring.testing
from tests.pg import PgServer, why_not


def pytest_configure(config: pytest.Config) -> None:
    # pip install registers engine.authoring.testing through the pytest11 entry point; a checkout run
    # without installing (or with PYTEST_DISABLE_PLUGIN_AUTOLOAD) does not.
    if not config.pluginmanager.is_registered(engine.authoring.testing):
        config.pluginmanager.register(engine.authoring.testing, "innerloop")


# -- the store backends every store test runs on ---------------------------------------------

BACKENDS = ["sqlite-file", "memory", "postgres"]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the session, started on first use; skips saying why not."""
    reason = why_not()
    if reason is not None:
        pytest.skip(f"PostgreSQL backend not tested: {reason}")
    server = PgServer()
    yield server
    server.close()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database."""
    return pg_server.database()


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL on each SQL backend (the memory fake has none: it is skipped here)."""
    if request.param == "memory":
        pytest.skip("the memory store has no database URL")
    if request.param == "postgres":
        server: PgServer = request.getfixturevalue("pg_server")
        return server.database()
    return str(tmp_path / "s.db")
