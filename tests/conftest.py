"""Make the innerloop pytest plugin available in a bare checkout too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.authoring.testing
from tests.local_llm import LocalModel, find_server
from tests.pg import PgServer, skip_reason


def pytest_configure(config: pytest.Config) -> None:
    # pip install registers engine.authoring.testing through the pytest11 entry point; a checkout run
    # without installing (or with PYTEST_DISABLE_PLUGIN_AUTOLOAD) does not.
    if not config.pluginmanager.is_registered(engine.authoring.testing):
        config.pluginmanager.register(engine.authoring.testing, "innerloop")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # With pytest-xdist's loadgroup (pyproject's addopts), tests that share something dear run on
    # one worker: the local model's, so its server starts once and its CPU-bound calls never
    # compete with a second copy; and a module's tests that share a module- or class-scoped
    # fixture (a replay of every script for coverage, a corpus read through every bot), which
    # each worker would otherwise build again. The rest spread over the workers one by one.
    for item in items:
        if "local_model" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("local_llm"))
        elif _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)  # pytest's own record of the fixtures a test uses
    if info is None:
        return False
    return any(d.scope in ("module", "class") for defs in info.name2fixturedefs.values() for d in defs)


# -- a real local model for the `local_llm` tests --------------------------------------------


@pytest.fixture(scope="session")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalModel]:
    """llama-cpp-python's server with a small model, for the session; skips saying why not."""
    spec = find_server()
    if isinstance(spec, str):
        pytest.skip(f"local model not tested: {spec}")
    server = LocalModel(spec, tmp_path_factory.mktemp("llm") / "server.log")
    yield server
    server.stop()


# -- the store backends every store test runs on ---------------------------------------------

BACKENDS = ["sqlite-file", "memory", "postgres"]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the session, started on first use; skips saying why not."""
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    server = PgServer()
    yield server
    server.close()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database."""
    return pg_server.database()


@pytest.fixture(params=[b for b in BACKENDS if b != "memory"])  # the memory fake has no URL
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL on each SQL backend."""
    if request.param == "postgres":
        server: PgServer = request.getfixturevalue("pg_server")
        return server.database()
    return str(tmp_path / "s.db")
