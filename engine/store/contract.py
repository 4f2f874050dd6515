"""The session store contract, and `MemoryStore`, its in-process fake.

`SqlStore` (engine/store/sql.py) is the real backend; both pass the same contract tests.
`commit` writes a whole turn or nothing and refuses a stale row version; `session_lock`
makes the writers of one session wait for each other (engine/store/locks.py), and `load_held`
loads a session holding that lock, as a turn does.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol, runtime_checkable

from engine.errors import ConflictError
from engine.models import (
    FlowRun,
    Message,
    RecordDraft,
    SessionState,
    SessionSummary,
    StoredRecord,
    TurnTrace,
    TurnWrite,
    utcnow,
)
from engine.store.locks import ThreadLocks
from engine.window import LOAD_LIMIT


@runtime_checkable
class Store(Protocol):
    """Where sessions, histories, runs, traces and records live."""

    url: str

    def load(self, bot: str, user: str) -> SessionState | None:
        """The session of `user` with `bot`, or None before their first turn."""
        ...

    def get(self, session_id: str) -> SessionState | None: ...

    def commit(self, write: TurnWrite) -> None:
        """Write the turn atomically; ConflictError if the row version moved."""
        ...

    def session_lock(self, bot: str, user: str, *, timeout_s: float) -> AbstractContextManager[None]:
        """Hold the writer lock of the session of `user` with `bot` for a `with` block.

        Exclusive among every thread and process using the database, and only for that
        session; waits at most `timeout_s`, then raises SessionBusy. Released when the block
        ends, and by the database or the OS when its holder dies. Not reentrant.
        """
        ...

    def load_held(
        self, bot: str, user: str, *, timeout_s: float
    ) -> tuple[SessionState | None, AbstractContextManager[None]]:
        """`load`, holding the session's writer lock (`session_lock`, entered): a turn's way in, one
        call. The caller gives the lock back with the hold's `__exit__` (an `ExitStack` may hold it)
        once its turn is committed or has failed; when the load fails, it is given back here."""
        ...

    def history(self, session_id: str, limit: int = LOAD_LIMIT) -> list[Message]:
        """The most recent `limit` main-history messages, oldest first."""
        ...

    def runs(self, session_id: str) -> list[FlowRun]: ...

    def traces(self, session_id: str, limit: int | None = None) -> list[TurnTrace]:
        """Turn traces, oldest first; with `limit`, only the most recent ones."""
        ...

    def records(
        self, kind: str | None = None, *, bot: str | None = None, user: str | None = None
    ) -> list[StoredRecord]:
        """Saved domain records, oldest first, filtered by what is given."""
        ...

    def latest(self, kind: str, *, bot: str, user: str) -> StoredRecord | None:
        """The user's most recent record of `kind` with `bot` (entry rules ask this every turn)."""
        ...

    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        """Save a record outside a turn (seeding a profile, imports)."""
        ...

    def sessions(self) -> list[SessionSummary]: ...

    def close(self) -> None: ...


def load_holding(
    hold: AbstractContextManager[None], load: Callable[[], SessionState | None]
) -> tuple[SessionState | None, AbstractContextManager[None]]:
    """`load` with `hold` (a session's writer lock) entered, and the hold, for the caller to give back
    when its turn is written; given back at once if the load fails. MemoryStore's `load_held` (SqlStore
    writes the same out, so that a turn's way in stays in sql.py)."""
    hold.__enter__()
    try:
        return load(), hold
    except BaseException:
        hold.__exit__(None, None, None)
        raise


def summarize(s: SessionState) -> SessionSummary:
    return SessionSummary(
        id=s.id,
        bot=s.bot,
        user=s.user,
        flow=s.active.flow if s.active else None,
        state=s.active.state if s.active else None,
        turns=s.turns,
        updated_at=s.updated_at,
    )


class MemoryStore:
    """A dict-backed store with the same contract; for fast tests, never for real use."""

    url = "memory://"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, SessionState] = {}
        self._keys: dict[tuple[str, str], str] = {}
        self._messages: dict[str, list[Message]] = {}
        self._runs: dict[str, list[FlowRun]] = {}
        self._traces: dict[str, list[TurnTrace]] = {}
        self._records: list[StoredRecord] = []
        self._writers = ThreadLocks()

    def load(self, bot: str, user: str) -> SessionState | None:
        with self._lock:
            sid = self._keys.get((bot, user))
            return copy.deepcopy(self._sessions[sid]) if sid else None

    def get(self, session_id: str) -> SessionState | None:
        """By id, or by a unique prefix of at least 4 characters (as SqlStore)."""
        with self._lock:
            s = self._sessions.get(session_id)
            if s is None and len(session_id) >= 4:
                found = [v for k, v in self._sessions.items() if k.startswith(session_id)]
                s = found[0] if len(found) == 1 else None
            return copy.deepcopy(s) if s else None

    def commit(self, write: TurnWrite) -> None:
        """Apply the turn's write under the lock; ConflictError if the session moved since it was loaded."""
        s = write.session
        with self._lock:
            current = self._sessions.get(s.id)
            if current is None and (s.bot, s.user) in self._keys:
                raise ConflictError(s.id, write.expected_version)
            current_version = current.version if current else 0
            if current_version != write.expected_version:
                raise ConflictError(s.id, write.expected_version)
            self._sessions[s.id] = copy.deepcopy(s)
            self._keys[(s.bot, s.user)] = s.id
            # copies, so the caller changing its objects later cannot rewrite what was stored
            self._messages.setdefault(s.id, []).extend(write.messages)
            self._runs.setdefault(s.id, []).extend(r.model_copy(deep=True) for r in write.runs)
            self._traces.setdefault(s.id, []).append(TurnTrace.model_validate(write.trace_doc))
            for draft in write.records:
                self._add(s.bot, s.user, s.id, draft)

    def session_lock(self, bot: str, user: str, *, timeout_s: float) -> AbstractContextManager[None]:
        return self._writers.hold(bot, user, timeout_s)

    def load_held(
        self, bot: str, user: str, *, timeout_s: float
    ) -> tuple[SessionState | None, AbstractContextManager[None]]:
        return load_holding(self._writers.hold(bot, user, timeout_s), lambda: self.load(bot, user))

    def _add(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        self._records.append(
            StoredRecord(
                id=len(self._records) + 1,
                kind=draft.kind,
                bot=bot,
                user=user,
                session_id=session_id,
                data=copy.deepcopy(draft.data),
                created_at=utcnow(),
            )
        )

    def history(self, session_id: str, limit: int = LOAD_LIMIT) -> list[Message]:
        with self._lock:
            return list(self._messages.get(session_id, [])[-limit:]) if limit else []

    def runs(self, session_id: str) -> list[FlowRun]:
        with self._lock:
            return copy.deepcopy(self._runs.get(session_id, []))

    def traces(self, session_id: str, limit: int | None = None) -> list[TurnTrace]:
        with self._lock:
            found = self._traces.get(session_id, [])
            return copy.deepcopy(found[-limit:] if limit else found)

    def records(
        self, kind: str | None = None, *, bot: str | None = None, user: str | None = None
    ) -> list[StoredRecord]:
        with self._lock:
            return [
                r.model_copy(deep=True)
                for r in self._records
                if (kind is None or r.kind == kind)
                and (bot is None or r.bot == bot)
                and (user is None or r.user == user)
            ]

    def latest(self, kind: str, *, bot: str, user: str) -> StoredRecord | None:
        found = self.records(kind, bot=bot, user=user)
        return found[-1] if found else None

    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        with self._lock:
            self._add(bot, user, session_id, draft)

    def sessions(self) -> list[SessionSummary]:
        with self._lock:
            return sorted((summarize(s) for s in self._sessions.values()), key=lambda x: x.updated_at, reverse=True)

    def close(self) -> None:
        pass
