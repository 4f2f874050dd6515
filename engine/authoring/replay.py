"""Running replay scripts, and turning conversations back into scripts.

`run_script` plays a script against a store and an LLM and returns typed `Failure`s; a
turn saying exactly `/reset` runs the chat's /reset meta-command, and a `restart: true`
entry swaps the engine and the store for fresh ones on the same database.
`script_from_traces` / `session_script` turn a conversation that happened into a script
expecting what happened (the chat's /save, `innerloop sessions export --replay`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from pydantic import JsonValue

from engine.authoring.expect import Failure, check_history, check_records, check_turn
from engine.authoring.script import AgentTurn, ExpectEnd, RestartTurn, Script, load_script
from engine.bot import MAIN
from engine.clock import CLOCK_ENV, local_now, pinned_clock
from engine.errors import EngineError, LLMUnavailable, ScriptError, SessionNotFound, StoreError
from engine.llm import LLM, make_llm
from engine.llm.factory import recording_llm, replaying_llm
from engine.models import JsonObject, Message, RecordDraft, Resources, StoredRecord, TurnTrace
from engine.registry import Registry
from engine.runtime import Engine, TurnResult
from engine.store import Store
from engine.store.sql import SqlStore

if TYPE_CHECKING:
    from engine.llm.cassette import Cassette, ReplayTransport

# history() takes a limit; a replay wants the whole main history, however long.
ALL_HISTORY = 1_000_000
# Rows seeded before the first turn belong to no session yet.
SEED_SESSION = ""
# A turn saying exactly this is the chat's /reset meta-command, so a saved chat replays as it ran.
RESET = "/reset"
# An agent turn saying exactly this hands the session back (`innerloop sessions release`).
RELEASE = "/release"


# -- running ------------------------------------------------------------------------------


@dataclass
class ScriptResult:
    """The outcome of one script: every turn's result and every failed expectation."""

    script: Script
    results: list[TurnResult] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def seed_profile(store: Store, bot: str, user: str, profile: JsonObject) -> None:
    """Store `profile` as the user's `profile` record, as onboarding would have."""
    store.add_record(bot, user, SEED_SESSION, RecordDraft(kind="profile", data=profile))


@contextmanager
def temporary_store() -> Iterator[SqlStore]:
    """A SqlStore on a fresh SQLite file that is deleted afterwards.

    synchronous=OFF: the file is deleted when the script ends, so a commit has nothing to make
    durable, and its fsyncs were the largest part of replaying a script (the rows written and
    read are the same; a restart entry reopens the file in this process, where no write is lost)."""
    with tempfile.TemporaryDirectory(prefix="innerloop-") as d:
        store = SqlStore(str(Path(d) / "replay.db"), synchronous="OFF")
        try:
            yield store
        finally:
            store.close()


def run_script(
    script: Script, store: Store, llm: LLM, *, bots: Registry | None = None, wording: bool = True
) -> ScriptResult:
    """Play `script` on `store`; an engine error ends the run as a failure of that turn.

    At a `restart` entry `store` is closed and the rest of the script, `expect_end`
    included, runs on a new engine over a new `SqlStore` on the same URL (closed here
    before returning), so the caller's store must be a database that outlives it.
    `llm` is kept: a backend holds no conversation, and a test's scripted queue must
    carry on across the restart. `wording`: check `reply_contains`; a real model words replies
    its own way, and the phrase guard holds them to their templates' facts instead.
    """
    with pinned_clock(script.now):
        return _run(script, store, llm, bots, wording)


def _run(script: Script, store: Store, llm: LLM, bots: Registry | None, wording: bool) -> ScriptResult:
    result = ScriptResult(script)
    bot = script.bot
    if script.profile is not None:
        seed_profile(store, bot, script.user, script.profile)
    engine = Engine(store, llm, script.resources, bots=bots)
    try:
        for number, step in enumerate(script.turns, start=1):
            try:
                if isinstance(step, RestartTurn):
                    engine = _restarted(engine)
                    continue
                if isinstance(step, AgentTurn):
                    outcome = _agent(engine, bot, script.user, step.agent)
                elif step.user.strip() == RESET:
                    outcome = engine.reset(bot, script.user)
                else:
                    outcome = engine.turn(bot, script.user, step.user)
            except EngineError as e:
                what, expected = ("restart", "a fresh engine") if isinstance(step, RestartTurn) else ("turn", "a reply")
                result.failures.append(Failure(number, what, expected, f"{type(e).__name__}: {e}"))
                return result
            result.results.append(outcome)
            if step.expect:
                result.failures.extend(check_turn(step.expect, outcome, number, wording=wording))
        if script.expect_end is not None:
            result.failures.extend(_check_end(script.expect_end, script, engine))
    finally:
        if engine.store is not store:
            engine.store.close()
    return result


def _agent(engine: Engine, bot: str, user: str, text: str) -> TurnResult:
    """A person's turn: `/release` hands the session back, anything else answers the user."""
    if text.strip() == RELEASE:
        return engine.release(bot, user)
    return engine.agent_reply(bot, user, text)


def _check_end(end: ExpectEnd, script: Script, engine: Engine) -> list[Failure]:
    bot, store = script.bot, engine.store
    failures: list[Failure] = []
    session = engine.session(bot, script.user)
    flow = session.active.flow if session and session.active else MAIN
    if end.flow is not None and end.flow != flow:
        failures.append(Failure(None, "flow", end.flow, flow))
    history = [m.content for m in store.history(session.id, ALL_HISTORY)] if session else []
    failures.extend(check_history(end.history_contains, history))
    for kind, rows in (end.records or {}).items():
        failures.extend(check_records(kind, rows, store.records(kind, bot=bot, user=script.user)))
    return failures


def _restarted(engine: Engine) -> Engine:
    """A new engine on a new store over `engine`'s database, as a new process would open them.

    The old store is closed first. StoreError when the database lives only as long as its
    store (memory), since the turns after the restart would silently start from nothing.
    """
    store = engine.store
    if not isinstance(store, SqlStore) or not _outlives_its_store(store.url):
        raise StoreError(f"a restart needs a database that outlives its store, such as a file; {store.url!r} does not")
    return Engine(store.reopen(), engine.llm, engine.resources, bots=engine.bots)


def _outlives_its_store(url: str) -> bool:
    """Whether a database at `url` keeps its rows once every connection to it is closed."""
    if not url.startswith("sqlite"):
        return True
    path = url.split("://", 1)[-1].lstrip("/")
    return path not in ("", ":memory:") and "mode=memory" not in path


def replay(
    script: Script,
    *,
    db: str | Path | None = None,
    llm: str | None = None,
    model: str | None = None,
    bots: Registry | None = None,
    record_llm: Path | None = None,
    replay_llm: Path | None = None,
    reuse_recorded: bool = False,
) -> ScriptResult:
    """Run `script` on `db` (a fresh temporary SQLite file when None) with `llm` or the script's backend.

    `record_llm`: a folder; the openai backend runs against its server and every exchange is
    saved there under the script's name (`recording_path`). `replay_llm`: a folder of such
    recordings; the openai backend is answered from it offline, and a request it does not
    hold, or an answer left unasked, fails the script. `reuse_recorded`: recording, the
    script's earlier recording answers the requests it holds (only new ones reach the
    server). An unavailable backend becomes a
    failure of the script rather than an exception.
    """
    cassette: Cassette | None = None
    transport: ReplayTransport | None = None
    if record_llm is not None and script.now is None:
        missing = "no `now:` key (add one: now: 2026-03-12T09:00)"
        # a prompt may name today's date or the next free hour; recorded on an unpinned clock it
        # matches only on the day it was made, and the suite turns red when the date moves
        return ScriptResult(
            script,
            failures=[Failure(None, "now", "a pinned clock to record against", missing)],
        )
    try:
        if replay_llm is not None:
            backend, transport = replaying_llm(recording_path(replay_llm, script))
        elif record_llm is not None:
            earlier = recording_path(record_llm, script) if reuse_recorded else None
            backend, cassette = recording_llm(model, reuse=earlier)
        else:
            backend = make_llm(llm or script.llm, model)
    except LLMUnavailable as e:
        return ScriptResult(script, failures=[Failure(None, "llm", f"a usable {e.backend} backend", e.message)])
    if db is None:
        with temporary_store() as store:
            result = run_script(script, store, backend, bots=bots, wording=_offline(backend))
    else:
        store = SqlStore(str(db))
        try:
            result = run_script(script, store, backend, bots=bots, wording=_offline(backend))
        finally:
            store.close()
    if cassette is not None and record_llm is not None:
        cassette.save(recording_path(record_llm, script))
    if transport is not None and transport.unused and result.passed:
        result.failures.append(
            Failure(None, "llm recording", "every recorded answer asked for", f"{transport.unused} left")
        )
    return result


def recording_path(folder: Path, script: Script) -> Path:
    """Where the recorded LLM calls of `script` live in `folder`: named by its folder and file."""
    source = script.path
    name = f"{source.parent.name}__{source.stem}" if source is not None else f"{script.bot}__{script.user}"
    return folder / f"{name}.json"


def _offline(llm: LLM) -> bool:
    """Whether replies are the templates' own words, so that wording checks apply."""
    return llm.name in ("rules", "scripted")


# -- saving a conversation as a script ----------------------------------------------------


def script_from_traces(
    bot: str,
    user: str,
    traces: Sequence[TurnTrace],
    *,
    profile: JsonObject | None = None,
    resources: Resources | None = None,
    records: Sequence[StoredRecord] = (),
    history: Sequence[Message] = (),
    now: datetime | None = None,
) -> dict[str, JsonValue]:
    """A replay script (as plain data for YAML) whose expectations are what the traces show happened.

    Each turn expects the flow and state it ended in, the active flow's slots and, when the
    conversation ran on an offline backend, the bot's whole reply; a person's turns (a
    handoff's replies and release) are agent turns. `records` (those the session saved) and
    the main `history` (a model's own words left out) are expected at the end, and `now`
    pins the flows' clock. Values that are clock readings
    (`clock_reading`) are left out: a replay runs at another time. Replaying the script on a
    fresh store passes as long as the bot behaves the same, and fails when any of it differs.
    """
    offline = not any(c.backend == "openai" for t in traces for c in t.llm_calls)
    turns: list[JsonValue] = []
    flow_after: str = MAIN
    for t in sorted(traces, key=lambda t: t.turn):
        flow_after = t.flow_after or MAIN
        expect: dict[str, JsonValue] = {"flow": flow_after}
        if t.flow_after is not None and t.state_after is not None:
            expect["state"] = t.state_after
            if t.slots_after:
                expect["slots"] = _without_clock_readings(dict(t.slots_after))
        if offline:
            expect["reply"] = t.reply
        if t.route in AGENT_ROUTES:
            turns.append({"agent": RELEASE if t.route == AGENT_RELEASE else t.user_text, "expect": expect})
            continue
        text = RESET if t.route == "command:reset" else t.user_text
        turns.append({"user": text, "expect": expect})
    data: dict[str, JsonValue] = {"bot": bot, "user": user}
    if not offline:
        data["llm"] = "openai"
    if profile is not None:
        data["profile"] = dict(profile)
    for key, path in (resources or Resources()).model_dump().items():
        if path is not None:
            data[key] = str(Path(path).resolve())
    if now is not None:
        data["now"] = now.replace(tzinfo=None, microsecond=0).isoformat()
    data["turns"] = turns
    end: dict[str, JsonValue] = {"flow": flow_after}
    said: list[JsonValue] = [m.content for m in history if offline or m.role != "assistant"]
    if said:
        end["history_contains"] = said
    if records:
        saved: dict[str, list[JsonValue]] = {}
        for r in records:
            saved.setdefault(r.kind, []).append(_without_clock_readings(dict(r.data)))
        end["records"] = dict(saved)
    data["expect_end"] = end
    return data


# Routes of a person's turns (engine/turn.py): saved as agent turns, not as the user's.
AGENT_REPLY = "agent:reply"
AGENT_RELEASE = "agent:release"
AGENT_ROUTES = (AGENT_REPLY, AGENT_RELEASE)


def clock_reading(value: object) -> bool:
    """Whether `value` is a time read off a clock (to the second, or finer), not a time anyone said.

    People name days, hours and minutes; a date-time with seconds or a time zone is when
    something happened (a record's `at`, when a question was asked), which a replay at
    another moment cannot reproduce, so a saved script does not pin it.
    """
    if not isinstance(value, str) or "T" not in value:
        return False
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return False
    return when.second != 0 or when.microsecond != 0 or when.tzinfo is not None


def _without_clock_readings(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return {k: v for k, v in data.items() if not clock_reading(v)}


def session_script(store: Store, session_id: str, *, resources: Resources | None = None) -> dict[str, JsonValue]:
    """The replay script of a stored session (an id or a unique prefix); EngineError if there is none.

    The flows' clock is pinned to the one pinned now (`INNERLOOP_NOW`), or else to the local
    time of the session's first turn.
    """
    session = store.get(session_id)
    if session is None:
        raise SessionNotFound(session_id)
    traces = store.traces(session.id)
    if not traces:
        raise EngineError("the session has no turns to save yet", session=session.id)
    # A profile seeded before the first turn (a replay's `profile:`) is part of the setup.
    seeded = [r for r in store.records("profile", bot=session.bot, user=session.user) if r.session_id == SEED_SESSION]
    profile = seeded[-1].data if seeded else None
    saved = [r for r in store.records(bot=session.bot, user=session.user) if r.session_id == session.id]
    history = store.history(session.id, ALL_HISTORY)
    first = min(traces, key=lambda t: t.turn).at
    now = local_now() if os.environ.get(CLOCK_ENV, "").strip() else first.astimezone().replace(tzinfo=None)
    return script_from_traces(
        session.bot, session.user, traces, profile=profile, resources=resources, records=saved, history=history, now=now
    )


def write_script(path: str | Path, data: Mapping[str, JsonValue], comment: str = "") -> Script:
    """Write `data` as a replay script to `path` and load it back, so what was written is valid."""
    header = "".join(f"# {line}\n" for line in comment.splitlines())
    text = yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)
    p = Path(path)
    try:
        p.write_text(header + text, encoding="utf-8")
    except OSError as e:
        raise ScriptError(str(path), f"cannot write the file: {e}") from e
    return load_script(p)
