"""A real PostgreSQL server for the suite: `initdb` + `pg_ctl` in a temporary directory, on a free port.

Debian's `postgresql` package puts the binaries in /usr/lib/postgresql/<version>/bin.
`initdb` refuses to run as root, so as root the cluster is made and run by `nobody`.
`PgServer.database()` creates a fresh, empty database per test. When the binaries or the
driver (`innerloop[postgres]`, psycopg 3) are missing, the tests that need a server skip
and say which, unless `INNERLOOP_REQUIRE_POSTGRES=1` (set by `.ci/run`, on a machine that can
install PostgreSQL), where a missing server fails the run instead of hiding its tests.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, newest version first; None when there is none."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


REQUIRED = "INNERLOOP_REQUIRE_POSTGRES"


def why_not() -> str | None:
    """Why no PostgreSQL server can be started here, or None when one can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'innerloop[postgres]')"
    if find_binaries() is None:
        return "no PostgreSQL server binaries (apt-get install postgresql)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One PostgreSQL cluster for the test session."""

    def __init__(self) -> None:
        bins = find_binaries()
        assert bins is not None
        self.bins = bins
        self.root = Path(tempfile.mkdtemp(prefix="innerloop-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            # initdb and postgres refuse root; the cluster belongs to nobody
            self._as = ["runuser", "-u", "nobody", "--"]
            os.chmod(self.root, 0o777)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self._as, str(self.bins / tool), *args]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=self.root)
        if out.returncode != 0:
            raise RuntimeError(f"{tool} failed ({out.returncode}): {out.stderr or out.stdout}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=100 -c shared_buffers=16MB"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def database(self, owner: str = "postgres") -> str:
        """A new empty database (its tables `owner`'s to make); its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        for attempt in range(50):
            try:
                with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                                     autocommit=True) as conn:  # fmt: skip
                    conn.execute(f'CREATE DATABASE "{name}" OWNER "{owner}"')
                break
            except psycopg.OperationalError:
                if attempt == 49:
                    raise
                time.sleep(0.1)  # just restarted: not accepting connections yet
        return self.url(name)

    def password_role(self, role: str, password: str) -> None:
        """A role that must give `password` (scram) over TCP; every other role keeps trust."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:  # fmt: skip
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            verb = "ALTER" if exists else "CREATE"
            conn.execute("SET password_encryption = 'scram-sha-256'")
            conn.execute(f"{verb} ROLE \"{role}\" LOGIN CREATEDB PASSWORD '{password}'")
        hba = self.data / "pg_hba.conf"
        line = f"host all {role} 127.0.0.1/32 scram-sha-256\n"
        rules = hba.read_text()
        if line not in rules:
            hba.write_text(line + rules)  # the first matching line wins
            self._run("pg_ctl", "-D", str(self.data), "reload")
            time.sleep(0.2)  # the postmaster rereads pg_hba.conf on SIGHUP, asynchronously

    def close(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def skip_reason() -> str | None:
    """The reason to skip the PostgreSQL tests, or None when they run.

    Raises `pytest.fail` instead when PostgreSQL is required (`INNERLOOP_REQUIRE_POSTGRES=1`):
    in CI a failed install must turn the run red, not green with 64 tests skipped.
    """
    import pytest

    reason = why_not()
    if reason is not None and os.environ.get(REQUIRED) == "1":
        pytest.fail(f"PostgreSQL is required ({REQUIRED}=1) but {reason}", pytrace=False)
    return None if reason is None else f"PostgreSQL backend not tested: {reason}"
