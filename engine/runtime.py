"""The session manager: load a session, run one turn, commit it; on a conflict, run it again on fresh state.

A message is checked here first (`check_turn`, below): a refused message is answered and
changes nothing. The checks live with the entry they guard, so a turn's walk starts and ends
in this module (bench/walk.py).
"""

from __future__ import annotations

import functools
import os
import random
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.bot import MAIN, Bot
from engine.errors import ConflictError, EngineError, InputRejected, SessionBusy, SlotRejected
from engine.handoff import hold_of
from engine.llm import LLM, RulesLLM, TextSink
from engine.load import idle_frames
from engine.models import JsonObject, Resources, SessionState, TurnTrace, TurnWrite
from engine.registry import Registry, default_registry
from engine.store import Store
from engine.turn import Turn
from engine.turn import play as play_turn

DEFAULT_DB = "innerloop.db"
# engine.models.utcnow, as C code: the clock a turn reads runs nothing of the project (bench/walk.py)
_utcnow = functools.partial(datetime.now, UTC)
# how many of a session's latest turns a repeated message id is looked for in
DUPLICATE_WINDOW = 50


def default_db() -> str:
    return os.environ.get("INNERLOOP_DB", DEFAULT_DB)


@dataclass(frozen=True)
class TurnResult:
    """What a caller sees of one turn (built from already-validated values, so no re-validation)."""

    reply: str
    session_id: str | None
    flow: str = MAIN
    state: str | None = None
    slots: JsonObject = field(default_factory=dict)
    rejected: bool = False
    trace_doc: JsonObject | None = None
    # True when the message id was committed before: the stored reply, nothing changed
    duplicate: bool = False
    # True when the turn's `on_text` has had the whole reply, as it was made; False when the
    # caller must show `reply` itself (no sink, a refused or duplicate message, a replay)
    streamed: bool = False

    @functools.cached_property
    def trace(self) -> TurnTrace | None:
        """What the turn did (validated on first read: a server that never looks pays nothing)."""
        return TurnTrace.model_validate(self.trace_doc) if self.trace_doc is not None else None


class Engine:
    """Runs turns for the bots of `bots` (the installed ones by default) against one store and one LLM."""

    def __init__(
        self,
        store: Store,
        llm: LLM | None = None,
        resources: Resources | None = None,
        *,
        bots: Registry | None = None,
        clock: Callable[[], datetime] = _utcnow,
        conflict_wait_s: float = 10.0,
        queue_writers: bool = True,
    ) -> None:
        self.clock = clock
        self.conflict_wait_s = conflict_wait_s
        # False: no session lock, writers of one session race to the row-version check and
        # the losers play their turn again (the old path; for benchmarks and the safety net's tests)
        self.queue_writers = queue_writers
        self.store = store
        self.llm: LLM = llm or RulesLLM()
        self.resources = resources or Resources()
        self.bots = bots if bots is not None else default_registry()

    def turn(
        self, bot: str, user: str, text: str, *, message_id: str | None = None, on_text: TextSink | None = None
    ) -> TurnResult:
        """Handle one user message; a refused message is answered and changes nothing.

        `on_text` gets the reply as it is made: a model's main-conversation reply piece by piece
        while it is generated, everything else whole, in order. The turn still commits once,
        after the reply is complete; an exception from `on_text` (Ctrl-C) leaves it uncommitted.

        With `message_id`, a client may send the same message again (a timeout, a retry): if
        a turn with that id is among the session's last `DUPLICATE_WINDOW` turns, its stored
        reply is returned and nothing changes. Checked again on every replay after a
        conflict, so two copies racing each other still make one turn.
        """
        b = self.bots.get(bot)
        clean = check_turn(user, text, message_id)
        if isinstance(clean, InputRejected):  # answered, and nothing is written
            return self._result(self.store.load(b.name, user), clean.reason, rejected=True)
        return self._commit(b, user, clean, Turn.run, message_id=message_id, on_text=on_text)

    def reset(self, bot: str, user: str) -> TurnResult:
        """Leave every running and suspended flow of the user's session, as one logged turn."""
        return self._commit(self.bots.get(bot), check_identifier(user), "/reset", Turn.reset)

    def _commit(
        self,
        b: Bot,
        user: str,
        text: str,
        entry: Callable[[Turn], TurnWrite],
        *,
        message_id: str | None = None,
        on_text: TextSink | None = None,
    ) -> TurnResult:
        """Play the turn on the stored session and commit it, holding the session's writer lock.

        Messages of one user that arrive together (double-texting, two devices, a retrying
        client) queue on the store's session lock: each turn waits for the one before it, then
        loads, plays and commits once. Past `conflict_wait_s` of waiting, SessionBusy (a
        ConflictError). The row-version check stays as the safety net: a turn that loses it
        anyway (a writer without the lock, a lock lost with its connection) is played again on
        the state the other left, until it commits or `conflict_wait_s` has passed.
        """
        deadline = time.monotonic() + self.conflict_wait_s
        if not self.queue_writers:
            stored = self.store.load(b.name, user)
            return self._play(b, user, text, entry, deadline, stored, message_id=message_id, on_text=on_text)
        # the store takes the session's lock and loads it in one call; the lock is given back as a
        # `with` block would give it back, committed or not (written out: an ExitStack costs more)
        stored, hold = self.store.load_held(b.name, user, timeout_s=self.conflict_wait_s)
        try:
            result = self._play(b, user, text, entry, deadline, stored, message_id=message_id, on_text=on_text)
        except BaseException as e:
            hold.__exit__(type(e), e, e.__traceback__)
            raise
        hold.__exit__(None, None, None)
        return result

    def _play(
        self,
        b: Bot,
        user: str,
        text: str,
        entry: Callable[[Turn], TurnWrite],
        deadline: float,
        loaded: SessionState | None,
        *,
        message_id: str | None,
        on_text: TextSink | None,
    ) -> TurnResult:
        pause = 0.001
        attempt = 0
        while True:
            # loaded with the lock for the first play; a play again after a conflict reads the state the other left
            stored = loaded if attempt == 0 else self.store.load(b.name, user)
            if stored is not None and message_id is not None:
                done = self._committed(stored, message_id)
                if done is not None:
                    return done
            session = stored or _new_session(b.name, user)
            # a turn played again after a conflict is not streamed twice: its caller shows `reply`
            sink = on_text if attempt == 0 else None
            now = self.clock()
            ports = (b, self.store, self.llm, self.resources)
            retried = attempt > 0
            try:
                write = play_turn(entry, *ports, session, text, now, retried=retried, message_id=message_id, sink=sink)
            except SlotRejected as rejected:
                # flow code set a slot its model refuses: nothing of that play is kept (it
                # changed the loaded session in place), and the message is played again on
                # the stored session as a reprompt saying why
                session = self.store.load(b.name, user) or _new_session(b.name, user)
                refuse = functools.partial(Turn.refuse, rejected=rejected)
                write = play_turn(refuse, *ports, session, text, now, retried=retried, message_id=message_id, sink=sink)
            try:
                self.store.commit(write)
            except ConflictError:
                if time.monotonic() >= deadline:
                    raise
                attempt += 1
                # jittered backoff: writers that collided do not collide again in lockstep
                time.sleep(random.uniform(0, pause))
                pause = min(pause * 2, 0.05)
                continue
            return self._result(
                write.session, write.reply, trace=write.trace_doc, streamed=on_text is not None and attempt == 0
            )

    def agent_reply(self, bot: str, user: str, text: str) -> TurnResult:
        """A person answers a session waiting for one; the user sees it with their next message."""
        b = self._waiting(bot, user)
        return self._commit(b, user, check_message(text), Turn.agent_reply)

    def release(self, bot: str, user: str) -> TurnResult:
        """A person hands a session back to the bot."""
        return self._commit(self._waiting(bot, user), user, "/release", Turn.release)

    def _waiting(self, bot: str, user: str) -> Bot:
        b = self.bots.get(bot)
        s = self.store.load(b.name, check_identifier(user))
        if s is None or hold_of(s) is None:
            raise EngineError(f"{user!r} is not waiting for an agent with {b.name}", session=s.id if s else None)
        return b

    def _committed(self, session: SessionState, message_id: str) -> TurnResult | None:
        """The stored turn that answered `message_id`, as a result; None when there is none."""
        for trace in reversed(self.store.traces(session.id, limit=DUPLICATE_WINDOW)):
            if trace.message_id == message_id:
                return self._result(session, trace.reply, trace=trace.doc(), duplicate=True)
        return None

    def expire_idle(self) -> int:
        """Close every stored run left idle past its flow's `idle_timeout`; how many sessions had one.

        Each such session gets one logged turn ("/expire"); its user is told on their next message.
        A session whose writer lock stays held for `conflict_wait_s` is skipped (a turn is under way).
        """
        expired = 0
        for summary in self.store.sessions():
            if summary.bot not in self.bots:
                continue
            b = self.bots.get(summary.bot)
            session = self.store.load(b.name, summary.user)
            if session is None or not idle_frames(b, session, self.clock()):
                continue
            try:
                self._commit(b, summary.user, "/expire", Turn.expire)
            except SessionBusy:
                continue  # a turn has held it all this time: it is not idle, and the sweep goes on
            expired += 1
        return expired

    def session(self, bot: str, user: str) -> SessionState | None:
        return self.store.load(self.bots.get(bot).name, check_identifier(user))

    def _result(
        self,
        s: SessionState | None,
        reply: str,
        *,
        rejected: bool = False,
        trace: JsonObject | None = None,
        duplicate: bool = False,
        streamed: bool = False,
    ) -> TurnResult:
        a = s.active if s else None
        return TurnResult(
            reply=reply,
            session_id=s.id if s else None,
            flow=a.flow if a else MAIN,
            state=a.state if a else None,
            slots=dict(a.slots) if a else {},
            rejected=rejected,
            trace_doc=trace,
            duplicate=duplicate,
            streamed=streamed,
        )


def _new_session(bot: str, user: str) -> SessionState:
    # the first 12 hex digits of a random UUID are 6 random bytes (its version and variant bits come after
    # them), written in hex: made so directly, without a UUID object's arithmetic (a fifth of the cost)
    return SessionState(id=os.urandom(6).hex(), bot=bot, user=user)


# -- checks on a user message before anything runs: a refused message changes nothing ----------

MAX_CHARS = 4000


# Format characters real text uses: zero-width (non-)joiners in emoji and Persian,
# left-to-right/right-to-left marks in Hebrew and Arabic, the soft hyphen, BOM-free word joiner.
_TEXT_FORMAT = "\n\t\u200c\u200d\u200e\u200f\u00ad\u2060"
# tag characters spell out subdivision flags (🏴 + tags = Scotland)
_TAG, _TAG_END = "\U000e0020", "\U000e007f"


def check_message(text: str, max_chars: int = MAX_CHARS) -> str:
    """Return the message stripped of surrounding whitespace, or raise InputRejected."""
    if not isinstance(text, str):
        # a caller's bug (a JSON null, bytes): refused like any unusable message, and said plainly
        raise InputRejected(f"A message must be text (str), not {type(text).__name__}.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates are what undecodable terminal bytes become (surrogateescape).
        raise InputRejected("Your message is not valid UTF-8 text; please retype it.") from None
    # Windows and old-Mac line endings are line endings, not control characters
    stripped = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not stripped:
        raise InputRejected("Your message is empty; please type something.")
    if len(stripped) > max_chars:
        raise InputRejected(f"Your message is {len(stripped):,} characters long; please keep it under {max_chars:,}.")
    if stripped.replace("\n", "").replace("\t", "").isprintable():
        return stripped  # the common case; the loop below only names the offending character
    for c in stripped:
        if c not in _TEXT_FORMAT and unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co"} and not _TAG <= c <= _TAG_END:
            raise InputRejected(
                f"Your message contains a control character (U+{ord(c):04X}); please retype it as plain text."
            )
    return stripped


MAX_ID_CHARS = 200


def check_identifier(value: str, what: str = "user id", max_chars: int = MAX_ID_CHARS) -> str:
    """`value` if it can be stored as an id on every backend; InputRejected saying why otherwise.

    A lone surrogate cannot be encoded, a NUL is refused by PostgreSQL (and stored by SQLite),
    and control or format characters make ids that look alike differ.
    """
    if not isinstance(value, str):
        raise InputRejected(f"The {what} must be text (str), not {type(value).__name__}.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputRejected(f"The {what} is not valid UTF-8 text.") from None
    if not value.strip():
        raise InputRejected(f"The {what} is empty.")
    if len(value) > max_chars:
        raise InputRejected(f"The {what} is {len(value):,} characters long; the limit is {max_chars}.")
    if value != value.strip():
        raise InputRejected(f"The {what} {value!r} starts or ends with whitespace.")
    if value.isascii() and value.isprintable():
        return value  # the common case: printable ASCII holds none of the categories below
    for c in value:
        if unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}:
            raise InputRejected(f"The {what} contains a control or invisible character (U+{ord(c):04X}).")
    return value


def check_turn(user: str, text: str, message_id: str | None = None) -> str | InputRejected:
    """A turn's input in one call: the user id and the message id (InputRejected, raised, when
    either cannot be stored), then the message: stripped, or the InputRejected saying why it is
    refused, returned, for the user to be answered with (raised when it is no text at all: a
    caller's bug, and there is nobody to answer)."""
    check_identifier(user)
    if message_id is not None:
        check_identifier(message_id, "message id")
    try:
        return check_message(text)
    except InputRejected as refused:
        if not isinstance(text, str):
            raise
        return refused


def decode_terminal(raw: bytes) -> str:
    """Decode terminal bytes, keeping invalid ones as lone surrogates for check_message to refuse."""
    return raw.decode("utf-8", errors="surrogateescape")
