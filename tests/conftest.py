"""Make the innerloop pytest plugin available in a bare checkout too."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.authoring.testing
from engine.clock import CLOCK_ENV
from tests.local_llm import LocalModel, find_server
from tests.pg import PgServer, skip_reason


def pytest_configure(config: pytest.Config) -> None:
    # pip install registers engine.authoring.testing through the pytest11 entry point; a checkout run
    # without installing (or with PYTEST_DISABLE_PLUGIN_AUTOLOAD) does not.
    if not config.pluginmanager.is_registered(engine.authoring.testing):
        config.pluginmanager.register(engine.authoring.testing, "innerloop")


# -- one local time for every test ------------------------------------------------------------

# A unit test that reads "today" through engine.clock passed or failed with the day the suite ran: a
# window proposed as "saturday morning" is already past on a Saturday afternoon (28 Nov 2026). Every
# test sees this Monday morning unless it pins its own time, moves the clock (tests/clocks.py, which
# unpins it for the replays) or unpins it to read the real one; subprocesses inherit it.
SUITE_NOW = "2026-03-02T09:00"
os.environ.setdefault(CLOCK_ENV, SUITE_NOW)


# -- the order files are handed to the workers -----------------------------------------------

# xdist's loadfile hands out whole files, by default those with the most tests first. The dearest
# files have few tests (the local model's 12 took a quarter of the suite's worker time), so they
# were handed out last and ran alone at the end while the other worker had nothing left: a long
# tail. Longest first (with --no-loadscope-reorder in pyproject) lets the cheap files fill in
# around them. Ordered by worker seconds in a full run (pytest --junitxml, summed per file).
DEAREST_FIRST = [
    "test_local_model.py",
    "test_concurrency.py",
    "test_bench.py",
    "test_queue.py",
    "test_pattern_shapes.py",
    "test_docs.py",
    "test_crash.py",
    "test_chat_terminal.py",
    "test_search_corpus.py",
    "test_place_data.py",
    "test_onboarding.py",
    "test_fuzz.py",
    "test_recordings.py",
    "test_understanding_bench.py",
    "test_coverage_ci.py",
    "test_postgres.py",
    "test_replay.py",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(DEAREST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


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
