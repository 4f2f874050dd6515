"""The one exception tree of innerloop.

EngineError                      flow, state, session: where it happened
├── DefinitionError              a flow or bot definition is wrong (raised at registration)
├── DataFileError                a data file (course, knowledge base, bank) is invalid; path
├── UnknownNameError             no bot or flow of that name; name, known
├── SessionNotFound              no stored session matches an id or prefix; session
├── InputRejected                a user message was refused (empty, too long, ...); reason
├── SlotRejected                 flow code set a slot to a value its model refuses; slots, reason
├── StoreError                   the session store failed; operation
│   ├── ConflictError            another writer changed the session first (row version)
│   │   └── SessionBusy          another writer held the session's lock too long; bot, user
│   └── SchemaError              the database schema is newer, foreign or not migratable
├── LLMError                     the language model backend failed; backend
│   ├── LLMUnavailable           transport failed after retries (timeout, 429, 5xx)
│   ├── LLMResponseError         the answer was not valid for the schema after repair
│   └── UnexpectedLLMCall        the scripted backend got a call it had no answer for
│       └── UnrecordedLLMCall    a replayed recording holds no answer to a request
└── ScriptError                  a replay script is malformed; path, turn
"""

from __future__ import annotations


class EngineError(Exception):
    """Root of every error innerloop raises on purpose."""

    def __init__(
        self,
        message: str,
        *,
        flow: str | None = None,
        state: str | None = None,
        session: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.flow = flow
        self.state = state
        self.session = session

    def __str__(self) -> str:
        where = [
            f"{label}={value}"
            for label, value in (("flow", self.flow), ("state", self.state), ("session", self.session))
            if value
        ]
        return f"{self.message} [{', '.join(where)}]" if where else self.message


class DefinitionError(EngineError):
    """A flow or bot definition is invalid; the message says what to fix."""


class DataFileError(EngineError):
    """A data file failed validation; `path` names it, `problems` lists each fault."""

    def __init__(self, path: str, problems: list[str]) -> None:
        listed = problems[0] if len(problems) == 1 else "".join(f"\n  - {p}" for p in problems)
        super().__init__(f"{path}: {listed}")
        self.path = path
        self.problems = problems


class SessionNotFound(EngineError):
    """No stored session has this id, or starts with this prefix."""

    def __init__(self, session: str) -> None:
        super().__init__(f"no session matches {session!r}", session=session)


class UnknownNameError(EngineError):
    """A bot or flow name that is not registered."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(sorted(known)) or 'none'}")
        self.kind = kind
        self.name = name
        self.known = known


class InputRejected(EngineError):
    """A user message the engine refuses; `reason` is what the user is told."""

    def __init__(self, reason: str, *, session: str | None = None) -> None:
        super().__init__(reason, session=session)
        self.reason = reason


class SlotRejected(EngineError):
    """Flow code set slots to values their model refuses (a field's type or a model validator).

    Raised where the assignment happens, so no half-valid slots go on; the turn that raised
    it is played again as a reprompt saying `reason` (see `Engine.turn`).
    """

    def __init__(self, model: str, slots: dict[str, object], reason: str) -> None:
        names = ", ".join(slots)
        super().__init__(f"{model} refuses {names}: {reason}")
        self.model = model
        self.slots = slots
        self.reason = reason


class StoreError(EngineError):
    """The session store (or a text index in its database) failed; `operation` names the public
    method that did ("load", "commit", "sessions", "search", ...), None until one sets it."""

    def __init__(
        self,
        message: str,
        *,
        operation: str | None = None,
        flow: str | None = None,
        state: str | None = None,
        session: str | None = None,
    ) -> None:
        super().__init__(message, flow=flow, state=state, session=session)
        self.operation = operation


class ConflictError(StoreError):
    """The session row changed under this turn (compare-and-swap failed)."""

    expected_version: int | None  # None when no version was compared (SessionBusy)

    def __init__(self, session: str, expected_version: int) -> None:
        super().__init__(
            f"session was changed by another writer (expected row version {expected_version})",
            operation="commit",
            session=session,
        )
        self.expected_version = expected_version


class SessionBusy(ConflictError):
    """Another writer of the session held its lock for longer than this turn could wait.

    A ConflictError, so a caller that retries a conflicted turn later retries this one too.
    """

    def __init__(self, bot: str, user: str, waited_s: float) -> None:
        StoreError.__init__(
            self,
            f"the session of {user!r} with {bot} was busy with another turn for {waited_s:g} s",
            operation="session_lock",
        )
        self.bot = bot
        self.user = user
        self.waited_s = waited_s
        self.expected_version = None


class SchemaError(StoreError):
    """The database cannot be used by this build without losing data."""


class LLMError(EngineError):
    """The language model backend failed."""

    def __init__(self, message: str, *, backend: str, **where: str | None) -> None:
        super().__init__(message, **where)
        self.backend = backend
        # what the failed call cost, for its trace entry (the adapter fills these in)
        self.elapsed_ms = 0.0
        self.attempts = 0
        self.tokens = (0, 0)


class LLMUnavailable(LLMError):
    """Timeouts, rate limits or server errors outlasted the retries."""


class LLMResponseError(LLMError):
    """The model's answer did not fit the schema, even after one repair."""


class UnexpectedLLMCall(LLMError):
    """The scripted backend was called with nothing (or something else) queued."""


class UnrecordedLLMCall(UnexpectedLLMCall):
    """A replay of recorded LLM calls met a request the recording does not hold."""


class ScriptError(EngineError):
    """A replay script is malformed; the message names the file, the turn and the problem."""

    def __init__(self, path: str, problem: str, *, turn: int | None = None) -> None:
        where = f"{path}, turn {turn}" if turn is not None else path
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.turn = turn
        self.problem = problem
