"""Writer locks per session: the turns of one session run one at a time, each exactly once.

Without them, writers of one session race to the row-version compare-and-swap and every loser
plays its whole turn again (8 processes on one PostgreSQL session replayed 414 of 960 turns,
the slowest waiting 9 s). With them, a turn waits for the session's previous turn to finish,
then loads, plays and commits once; the version check stays as the safety net for a lock that
was lost (a dropped connection) or a writer that takes none.

A lock is held across the whole turn, which may wait seconds on a model, so it never blocks
more than its own session, and it dies with its holder (kill -9 included):

- `ThreadLocks`: one process only (MemoryStore, SQLite in memory); a threading lock per key.
- `RangeLocks`: a SQLite file, on Linux; an open-file-description byte-range lock (fcntl
  `F_OFD_SETLK`) at the session's offset of one file, `<database>-locks.bin`, kept open for
  the store's life. Taking and giving back an uncontended lock is two system calls (~2 µs),
  where a file per session cost an open, a stat, an unlink and a close (~70 µs, a quarter of
  a turn). The kernel releases the lock when the last descriptor of its holder closes.
- `FileLocks`: a SQLite file elsewhere (no OFD locks); flock(2) on a file per session in
  `<database>-locks/`, which the kernel releases when the holder's process dies. The holder
  removes the file before it lets go, so the directory holds only the sessions being written.
- `AdvisoryLocks`: PostgreSQL; a session-level advisory lock on a connection of its own, which
  the server releases when that connection ends, however it ends.
- `ThreadsFirst`: in front of either of the last two, so the threads of one process queue on a
  threading lock and only one of them at a time waits on the database or the file.

Waiting is bounded: past `timeout_s` the caller gets `SessionBusy` (a ConflictError).
Locks are not reentrant: a holder asking again for its own session waits out its timeout.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import struct
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.errors import SessionBusy, StoreError

# The first key of our two-key advisory locks: keeps them apart from any other advisory lock
# in the database (PostgreSQL's one-key and two-key locks are separate spaces besides).
ADVISORY_SPACE = 0x1A_100C
# SQLite: how often a waiter checks that its lock file is still the session's
STALE_CHECK_S = 0.05
# what a StoreError of a lock names as its `operation` (the Store method)
OPERATION = "session_lock"
# PostgreSQL: SQLSTATE of "canceling statement due to lock timeout"
LOCK_NOT_AVAILABLE = "55P03"


class SessionLocks(Protocol):
    """What a store holds its sessions' writer locks with."""

    def hold(self, bot: str, user: str, timeout_s: float) -> AbstractContextManager[None]: ...

    def close(self) -> None: ...


def lock_digest(bot: str, user: str) -> bytes:
    """A fixed-size name of the session of `user` with `bot` (any characters, any length)."""
    return hashlib.blake2b(f"{bot}\x00{user}".encode(), digest_size=16).digest()


class ThreadLocks:
    """Per-session locks among the threads of one process."""

    hold: Callable[..., AbstractContextManager[None]]  # (bot, user, timeout_s): see _HOLDS_MADE

    def __init__(self) -> None:
        self._guard = threading.Lock()
        # a key's lock and how many threads hold or wait for it; dropped when none do
        self._locks: dict[bytes, _Users] = {}
        self._forks = FORKS[0]
        self.hold = functools.partial(_ThreadHold, self)

    def _acquire(self, key: bytes, bot: str, user: str, timeout_s: float) -> threading.Lock:
        """Hold the key's lock (SessionBusy past `timeout_s`); give it back with `_release`."""
        if self._forks != FORKS[0]:
            # forked: what the parent's threads held is not held here (and never released)
            self._guard, self._locks, self._forks = threading.Lock(), {}, FORKS[0]
        with self._guard:
            users = self._locks.get(key)
            if users is None:
                # the usual turn: nobody holds or waits for the session, so its lock is made
                # and taken here, under the guard, with no second look at the table
                lock = threading.Lock()
                lock.acquire()
                self._locks[key] = _Users(lock)
                return lock
            users.count += 1
            lock = users.lock
        try:
            if not lock.acquire(timeout=max(timeout_s, 0.0)):
                raise SessionBusy(bot, user, timeout_s)
        except BaseException:
            self._leave(key, lock)
            raise
        return lock

    def _leave(self, key: bytes, lock: threading.Lock) -> None:
        with self._guard:
            users = self._locks.get(key)
            if users is None or users.lock is not lock:  # a table remade by a fork since
                return
            if users.count <= 1:
                del self._locks[key]
            else:
                users.count -= 1

    def _release(self, key: bytes, lock: threading.Lock) -> None:
        try:
            lock.release()
        finally:
            self._leave(key, lock)

    def close(self) -> None:
        pass


class _Users:
    """A session's threading lock, and how many threads hold or wait for it."""

    __slots__ = ("count", "lock")

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.count = 1


class ThreadsFirst:
    """`across` (processes), entered only by the one thread of this process that holds the session here.

    The other threads of the process wait on a threading lock rather than each on its own
    PostgreSQL connection or flock helper thread: a threaded server with many waiting turns
    of one busy session uses one connection for them, not one each.
    """

    hold: Callable[..., AbstractContextManager[None]]  # (bot, user, timeout_s): see _HOLDS_MADE

    def __init__(self, across: SessionLocks) -> None:
        self.here = ThreadLocks()
        self.across = across
        self.hold = functools.partial(_FirstHold, self)

    def close(self) -> None:
        self.across.close()


# _HOLDS_MADE: the holds below are context managers written as classes, not a generator-based
# @contextmanager (several microseconds more per turn), and made by a `functools.partial` of a
# slotted dataclass, whose generated __init__ is no code of this module: a turn enters this
# module twice (to take its lock, to give it back) and no more.


@dataclass(slots=True)
class _ThreadHold:
    locks: ThreadLocks
    bot: str
    user: str
    timeout_s: float
    _key: bytes = field(init=False)
    _lock: threading.Lock = field(init=False)

    def __enter__(self) -> None:
        key = self._key = lock_digest(self.bot, self.user)
        self._lock = self.locks._acquire(key, self.bot, self.user, self.timeout_s)

    def __exit__(self, *exc: object) -> None:
        self.locks._release(self._key, self._lock)


@dataclass(slots=True)
class _FirstHold:
    """The thread lock, then `across`'s; the session's digest is computed once for both, and
    RangeLocks (the SQLite file's usual locks) is entered without a hold object of its own."""

    first: ThreadsFirst
    bot: str
    user: str
    timeout_s: float
    _key: bytes = field(init=False)
    _lock: threading.Lock = field(init=False)
    _range: tuple[int, int, int | None] = field(init=False)
    _across: AbstractContextManager[None] = field(init=False)

    def __enter__(self) -> None:
        bot, user, timeout_s = self.bot, self.user, self.timeout_s
        start = time.monotonic()
        here = self.first.here
        key = self._key = lock_digest(bot, user)
        lock = self._lock = here._acquire(key, bot, user, timeout_s)
        try:
            left = max(timeout_s - (time.monotonic() - start), 0.0)
            across = self.first.across
            try:
                if isinstance(across, RangeLocks):
                    self._range = across._lock_key(key, bot, user, left)
                else:
                    self._across = across.hold(bot, user, left)
                    self._across.__enter__()
            except SessionBusy:
                raise SessionBusy(bot, user, timeout_s) from None  # the whole wait, not its last part
        except BaseException:
            here._release(key, lock)
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            # releasing does not depend on how the block ended
            if isinstance(self.first.across, RangeLocks):
                RangeLocks._unlock(*self._range)
            else:
                self._across.__exit__(None, None, None)
        finally:
            self.first.here._release(self._key, self._lock)


class _RangeHold:
    __slots__ = ("_bot", "_held", "_locks", "_timeout_s", "_user")

    def __init__(self, locks: RangeLocks, bot: str, user: str, timeout_s: float) -> None:
        self._locks, self._bot, self._user, self._timeout_s = locks, bot, user, timeout_s

    def __enter__(self) -> None:
        self._held = self._locks._lock(self._bot, self._user, self._timeout_s)

    def __exit__(self, *exc: object) -> None:
        RangeLocks._unlock(*self._held)


class FileLocks:
    """Per-session flock(2) locks on files in `directory`, among any processes on this machine.

    A lock file is removed by its holder before it lets go; a waiter that then gets the lock
    on the removed file sees that the path now names another file (or none) and starts over
    on the path, so two writers never hold "the" lock of one session on two different files.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._made = False

    def _path(self, bot: str, user: str) -> Path:
        if not self._made:
            try:
                self.directory.mkdir(exist_ok=True)
            except OSError as e:
                raise StoreError(
                    f"cannot make the session lock folder {str(self.directory)!r}: {e}", operation=OPERATION
                ) from e
            self._made = True
        return self.directory / f"{lock_digest(bot, user).hex()}.lock"

    @contextmanager
    def hold(self, bot: str, user: str, timeout_s: float) -> Iterator[None]:
        path = self._path(bot, user)
        fd = self._acquire(path, bot, user, timeout_s)
        try:
            yield
        finally:
            # remove, then release: a waiter on this file starts over on a fresh one
            with suppress(FileNotFoundError):
                os.unlink(path)
            os.close(fd)

    def _acquire(self, path: Path, bot: str, user: str, timeout_s: float) -> int:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                # O_CLOEXEC: a program this process starts must not inherit (and keep) the lock
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as e:
                raise StoreError(f"cannot open the session lock file {str(path)!r}: {e}", operation=OPERATION) from e
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                got = _Wait(fd).until(deadline, path)  # the fd is the wait's from here on
                if got is None:
                    if time.monotonic() >= deadline:
                        raise SessionBusy(bot, user, timeout_s) from None
                    continue  # the file was removed while we waited: the one at the path now
            except OSError as e:
                os.close(fd)
                raise StoreError(f"cannot lock {str(path)!r}: {e}", operation=OPERATION) from e
            except BaseException:
                os.close(fd)
                raise
            if _names(path, fd):
                return fd
            os.close(fd)  # locked a file its holder had already removed

    def close(self) -> None:
        pass


# struct flock as Linux lays it out on 64-bit machines: type, whence, start, len, pid (+ padding)
_FLOCK = "@hhqqi4x"
# offsets are 56 bits of the session's digest: far below off_t's limit, and collisions between
# two sessions (which would only make them wait for each other) as good as never
_OFFSET_BYTES = 7


def range_locks_work() -> bool:
    """Whether this system has open-file-description locks (Linux 3.15+, 64-bit)."""
    return sys.platform == "linux" and hasattr(fcntl, "F_OFD_SETLK") and struct.calcsize(_FLOCK) == 32


def _set_range(fd: int, kind: int, offset: int, *, wait: bool) -> None:
    command = fcntl.F_OFD_SETLKW if wait else fcntl.F_OFD_SETLK
    fcntl.fcntl(fd, command, struct.pack(_FLOCK, kind, os.SEEK_SET, offset, 1, 0))


class RangeLocks:
    """Per-session locks as one-byte ranges of one file, among any processes on this machine.

    An open-file-description lock belongs to the open file, not to the process: the store's
    one descriptor takes every uncontended lock, and the threads of this process never share
    a session (`ThreadsFirst` lets one at a time through). A contended lock is waited for on
    a descriptor of its own in a helper thread, so the wait can be given up; the lock then
    lives exactly as long as that descriptor. A forked child closes the descriptors it
    inherited (they share the parent's locks), so a child that outlives its parent holds nobody.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._guard = threading.Lock()
        _OPEN_RANGE_LOCKS.add(self)

    def _open(self) -> int:
        try:
            # O_CLOEXEC: a program this process starts must not inherit (and keep) the locks
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as e:
            raise StoreError(f"cannot open the session lock file {str(self.path)!r}: {e}", operation=OPERATION) from e

    def _shared(self) -> int:
        if self._fd is None:
            with self._guard:
                if self._fd is None:
                    self._fd = self._open()
        return self._fd

    def hold(self, bot: str, user: str, timeout_s: float) -> AbstractContextManager[None]:
        return _RangeHold(self, bot, user, timeout_s)

    def _lock(self, bot: str, user: str, timeout_s: float) -> tuple[int, int, int | None]:
        return self._lock_key(lock_digest(bot, user), bot, user, timeout_s)

    def _lock_key(self, key: bytes, bot: str, user: str, timeout_s: float) -> tuple[int, int, int | None]:
        """Take the range of the session whose digest is `key`: its offset, the shared
        descriptor, and the descriptor of its own that a contended lock was waited for on
        (None: the shared one holds it)."""
        offset = int.from_bytes(key[:_OFFSET_BYTES], "big")
        shared = self._shared()
        own = None
        try:
            _set_range(shared, fcntl.F_WRLCK, offset, wait=False)
        except (BlockingIOError, PermissionError):  # EAGAIN or EACCES: another holder
            own = self._wait(offset, bot, user, timeout_s)
        except OSError as e:
            raise StoreError(f"cannot lock {str(self.path)!r}: {e}", operation=OPERATION) from e
        return offset, shared, own

    @staticmethod
    def _unlock(offset: int, shared: int, own: int | None) -> None:
        if own is not None:
            os.close(own)  # the description's lock goes with its last descriptor
        else:
            # a descriptor that fails here is not holding anything (try, not `suppress`: three calls less a turn)
            try:  # noqa: SIM105
                _set_range(shared, fcntl.F_UNLCK, offset, wait=False)
            except OSError:
                pass

    def _wait(self, offset: int, bot: str, user: str, timeout_s: float) -> int:
        fd = self._open()
        got = _Wait(fd, lambda f: _set_range(f, fcntl.F_WRLCK, offset, wait=True)).until(
            time.monotonic() + timeout_s, self.path, removable=False
        )
        if got is None:
            raise SessionBusy(bot, user, timeout_s)
        return got

    def _forget(self) -> None:
        """In a forked child: drop the parent's descriptor (and with it any hold on the parent's locks)."""
        fd, self._fd, self._guard = self._fd, None, threading.Lock()
        if fd is not None:
            with suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with suppress(OSError):
                os.close(fd)


_OPEN_RANGE_LOCKS: weakref.WeakSet[RangeLocks] = weakref.WeakSet()


# How many times this process's line has forked (a child counts its parent's forks and its own):
# state that a fork leaves to the parent is recognised by an integer compare instead of a
# getpid() system call on every turn.
# (A list read in place, `FORKS[0]`: the store's turn path reads it without a call.)
FORKS = [0]


def forks() -> int:
    """A number that changes in a child process each time a process forks one."""
    return FORKS[0]


def _after_fork_in_child() -> None:
    FORKS[0] += 1
    for locks in list(_OPEN_RANGE_LOCKS):
        locks._forget()


os.register_at_fork(after_in_child=_after_fork_in_child)


class _Wait:
    """A blocking flock(2) on `fd` in a thread of its own, so that the wait can be given up.

    flock has no timeout, and polling it with LOCK_NB both wakes late and lets a writer that
    comes back at once take the lock again ahead of the waiters. The kernel wakes a blocked
    flock the moment the holder lets go; the waiting thread only watches the clock, and that
    the file is still the session's. A wait given up leaves the fd to the thread, which
    closes it (releasing the lock at once) if it ever gets the lock.
    """

    def __init__(self, fd: int, block: Callable[[int], None] = lambda fd: fcntl.flock(fd, fcntl.LOCK_EX)) -> None:
        self.fd = fd
        self._lock = block
        self._guard = threading.Lock()
        self._done = threading.Event()
        self._given_up = False
        self._error: OSError | None = None
        threading.Thread(target=self._block, name="innerloop-session-lock", daemon=True).start()

    def _block(self) -> None:
        try:
            self._lock(self.fd)
        except OSError as e:
            self._error = e
        with self._guard:
            if self._given_up:
                os.close(self.fd)
                return
            self._done.set()

    def until(self, deadline: float, path: Path, *, removable: bool = True) -> int | None:
        """The fd, locked; None when the wait was given up (time is up, or the file was removed)."""
        try:
            while not self._done.wait(min(STALE_CHECK_S, max(deadline - time.monotonic(), 0.0))):
                if time.monotonic() < deadline and (not removable or _names(path, self.fd)):
                    continue
                if self._give_up():
                    return None
                break  # it got the lock just now
        except BaseException:  # interrupted (Ctrl-C): whoever has the fd lets the lock go
            if not self._give_up():
                os.close(self.fd)
            raise
        if self._error is not None:
            os.close(self.fd)
            raise StoreError(f"cannot lock {str(path)!r}: {self._error}", operation=OPERATION) from self._error
        return self.fd

    def _give_up(self) -> bool:
        """Leave the fd to the thread, unless it is done; whether it was left."""
        with self._guard:
            if self._done.is_set():
                return False
            self._given_up = True
            return True


def _names(path: Path, fd: int) -> bool:
    """Whether `path` still names the file open as `fd`."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev)


class AdvisoryLocks:
    """Per-session PostgreSQL advisory locks, each held on a connection of its own.

    Not on the store's own connection: that one is shared by the process's threads (an
    advisory lock is reentrant per connection, so two threads would both "hold" it) and a
    lock waited for there would stall every other read and write of the store. Lock
    connections are kept in autocommit and reused; `connect` makes a new one.
    """

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._guard = threading.Lock()
        self._idle: list[_LockConnection] = []
        self._pid = os.getpid()
        # connections a forked child inherited: never used nor closed there (closing would end
        # the parent's session on the server), only kept from the garbage collector
        self._inherited: list[_LockConnection] = []

    @contextmanager
    def hold(self, bot: str, user: str, timeout_s: float) -> Iterator[None]:
        key = int.from_bytes(lock_digest(bot, user)[:4], "big", signed=True)
        conn = self._lock(key, bot, user, timeout_s)
        try:
            yield
        finally:
            self._unlock(conn, key)

    def _lock(self, key: int, bot: str, user: str, timeout_s: float) -> _LockConnection:
        for attempt in range(2):
            conn = self._take()
            try:
                conn.set_timeout(timeout_s)
                conn.execute(f"SELECT pg_advisory_lock({ADVISORY_SPACE}, {key})")
                return conn
            except Exception as e:
                if _sqlstate(e) == LOCK_NOT_AVAILABLE:
                    self._give_back(conn)  # autocommit: the failed statement left nothing open
                    raise SessionBusy(bot, user, timeout_s) from e
                lost = conn.closed
                conn.close()
                if attempt == 0 and lost:
                    self._drop_idle()  # the server went away: the other idle ones are gone too
                    continue
                raise StoreError(
                    f"could not take the writer lock of {user!r} with {bot}: {e}", operation=OPERATION
                ) from e
            except BaseException:
                conn.close()  # interrupted while waiting: the lock may or may not be ours
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _unlock(self, conn: _LockConnection, key: int) -> None:
        try:
            conn.execute(f"SELECT pg_advisory_unlock({ADVISORY_SPACE}, {key})")
        except Exception:
            # the connection is gone, and the lock went with it
            conn.close()
            return
        self._give_back(conn)

    def _take(self) -> _LockConnection:
        with self._guard:
            if self._pid != os.getpid():
                self._inherited += self._idle
                self._idle, self._pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        return _LockConnection(self._connect())

    def _give_back(self, conn: _LockConnection) -> None:
        with self._guard:
            if self._pid == os.getpid():
                self._idle.append(conn)

    def _drop_idle(self) -> None:
        with self._guard:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def close(self) -> None:
        if self._pid == os.getpid():
            self._drop_idle()


class _LockConnection:
    """A DBAPI connection in autocommit that remembers the lock timeout it was last given."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.timeout_ms = -1

    @property
    def closed(self) -> bool:
        return bool(getattr(self.conn, "closed", False))

    def set_timeout(self, timeout_s: float) -> None:
        ms = max(1, round(timeout_s * 1000))  # 0 would mean "wait for ever"
        if ms != self.timeout_ms:
            self.execute(f"SET lock_timeout = {ms}")
            self.timeout_ms = ms

    def execute(self, sql: str) -> None:
        cur = self.conn.cursor()
        try:
            cur.execute(sql)
        finally:
            cur.close()

    def close(self) -> None:
        with suppress(Exception):  # already broken: nothing left to release
            self.conn.close()


def _sqlstate(e: BaseException) -> str | None:
    """The SQLSTATE of a PostgreSQL driver error (psycopg 3 `sqlstate`, psycopg2 `pgcode`)."""
    code = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
    return code if isinstance(code, str) else None
