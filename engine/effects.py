"""What a turn has done so far and how it reaches the outside: its reply, its main-history
messages, its runs and records, its trace, its way to a model (`engine/voice.py`), the
operations contexts may use, and the write stage that turns all of it into one `TurnWrite`.

`Effects` is held, not inherited: the executor (engine/turn.py) and the flow runner
(engine/flowrun.py) each get it, and pass the message they read (`Heard`) as a value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, JsonValue, ValidationError

from engine.bot import Bot
from engine.context import EntryContext
from engine.guard import unmark
from engine.handoff import hold_of, start_hold
from engine.llm import LLM
from engine.models import (
    MAX_KEPT,
    FlowRun,
    Heard,
    JsonObject,
    KeptRequest,
    Message,
    NoticeKind,
    RecordDraft,
    Resources,
    Role,
    SessionState,
    Slots,
    StoredRecord,
    TurnWrite,
)
from engine.store import Store
from engine.trace import TraceDraft
from engine.voice import Voice
from engine.window import LOAD_LIMIT, PARSE_WINDOW, SAY_WINDOW, WINDOW, build_prompt

if TYPE_CHECKING:
    from engine.extract import Parser
    from engine.flow import Flow

M = TypeVar("M", bound=BaseModel)
PromptUse = Literal["reply", "say", "parse"]

_new, _set = object.__new__, object.__setattr__
_ROLES = frozenset(("system", "user", "assistant"))
_WRITTEN = ("turns", "version", "updated_at")


def message(role: Role, content: str) -> Message:
    """`Message(role=role, content=content)`, as pydantic would make it, without validating two strings typed as
    such already: a turn makes one for every text it says and others for its history, and validation cost more than
    the rest of `emit` (`model_construct`, through its loop over aliases and defaults, more still). Anything but a
    known role and a `str` is validated, and refused as the model refuses it."""
    if type(content) is not str or role not in _ROLES:
        return Message(role=role, content=content)
    m = _new(Message)
    _set(m, "__dict__", {"role": role, "content": content})
    _set(m, "__pydantic_fields_set__", {"role", "content"})
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


# A dataclass: its generated __init__ is no code of this module, so making a turn's effects
# (engine/turn.py `play`) does not walk here and back (bench/walk.py); what is derived from the
# session (the version loaded, where the trace starts) is given by the maker.
@dataclass(eq=False)
class Effects:
    """One user message against one loaded session: the ports it may use and everything it collects."""

    bot: Bot
    store: Store
    llm: LLM
    resources: Resources
    session: SessionState
    said: str  # the message as typed: the trace, the flow's scratchpad
    now: datetime
    expected_version: int  # the session's version as loaded: the commit's row-version check
    trace: TraceDraft
    voice: Voice
    retried: bool = False
    # no model phrases (the rules backend): asked on every question and reply, so kept as a value
    offline: bool = False
    reply: list[str] = field(default_factory=list)
    main_messages: list[Message] = field(default_factory=list)
    runs: list[FlowRun] = field(default_factory=list)
    records: list[RecordDraft] = field(default_factory=list)
    checked: dict[int, Slots] = field(default_factory=dict)
    # the parser the read stage picked for the open question from its checked slots, and the value it read
    # plainly with it (`reading.plain_answer`)
    chosen: dict[int, tuple[Slots, Parser, object]] = field(default_factory=dict)
    _amended: dict[str, Slots] = field(default_factory=dict)  # records amended this turn, by kind: their new slots
    # the store's latest record of a kind, as read this turn
    _stored: dict[str, StoredRecord | None] = field(default_factory=dict)
    _shared: dict[type[BaseModel], BaseModel] = field(default_factory=dict)
    handoffs: int = 0

    def entry_context(self, heard: Heard) -> EntryContext:
        return EntryContext(self, heard.text)

    @property
    def user(self) -> str:
        return self.session.user

    @property
    def store_url(self) -> str:
        return self.store.url

    @property
    def llm_backend(self) -> str:
        return self.llm.name

    @property
    def memory(self) -> JsonObject:
        return self.session.context

    def offer(self, text: str) -> None:
        self.session.carry.offered = text

    def keep(self, text: str, during: str) -> None:
        kept = KeptRequest(text=text, during=during)
        if kept not in self.session.carry.requests:
            self.session.carry.requests = [*self.session.carry.requests, kept][-MAX_KEPT:]

    def note(self, kind: NoticeKind, flow: str | None, detail: str) -> None:
        self.trace.notice(kind, flow, None, detail)

    def save_record(self, kind: str, data: JsonObject) -> None:
        self.records.append(RecordDraft(kind=kind, data=data))

    def latest(self, kind: str) -> StoredRecord | None:
        made = self._made(kind)
        if made:
            return made[-1]
        # read from the store once a turn: the entry rule, the read stage and a bot's main handler
        # each ask for the same record ("profile"), and nothing the turn does is stored before its commit
        if kind not in self._stored:
            self._stored[kind] = self.store.latest(kind, bot=self.bot.name, user=self.session.user)
        return self._stored[kind]

    def hand_to_agent(self, reason: str) -> None:
        if hold_of(self.session) is None:
            start_hold(self.session, reason, self.now)
            self.trace.notice("agent", detail=f"waiting: {reason}")

    @property
    def with_agent(self) -> bool:
        return hold_of(self.session) is not None

    def shared(self, model: type[M]) -> M:
        found = self._shared.get(model)
        if isinstance(found, model):
            return found
        loaded = load_shared(model, self.session.context)
        self._shared[model] = loaded
        return loaded

    def records_of(self, kind: str) -> list[StoredRecord]:
        return [*self.store.records(kind, bot=self.bot.name, user=self.session.user), *self._made(kind)]

    def _made(self, kind: str) -> list[StoredRecord]:
        """The records of `kind` this turn saved so far, as the store will hold them (newest last):
        a message of several requests ("move it an hour later and add decimals") changes the plan
        the first one made. Their ids are not known before the commit: 0."""
        s = self.session
        return [
            StoredRecord(
                id=0, kind=r.kind, bot=self.bot.name, user=s.user, session_id=s.id, data=r.data, created_at=self.now
            )
            for r in self.records
            if r.kind == kind
        ]

    def emit(self, text: str, *, shown: bool = False) -> None:
        """Add `text` to the reply; the sink (if any) gets it now unless it was `shown` already."""
        if not text:
            return
        sink = self.voice.sink
        if sink is not None and not shown:
            sink(("\n\n" if self.reply else "") + text)
        self.reply.append(text)
        a = self.session.active
        msg = message("assistant", text)
        if a is not None:
            a.scratchpad.append(msg)
        else:
            self.main_messages.append(msg)

    def prompt(self, name: str | None, use: PromptUse, heard: Heard, background: str = "") -> list[Message]:
        """The messages a call for `use` carries. A main reply gets the persona, what the bot knows
        of the user, `background` and the last WINDOW main messages; a phrasing the last
        SAY_WINDOW messages of its flow (or of the main history), a parse the last PARSE_WINDOW."""
        current = Message(role="user", content=heard.text if use == "parse" or heard.whole is None else heard.whole)
        if name is None:
            # stored history (the inner loops' one-line summaries among it, never their turns), then
            # what this turn has added to it so far (the current message aside)
            history = [*self.store.history(self.session.id, LOAD_LIMIT), *_without(self.main_messages, current)]
            system = f"You are {self.bot.persona}."
        else:
            a = self.session.active
            flow = self.bot.flow(name)
            history = _without(a.scratchpad if a else [], current)
            system = f"You are {flow.persona}, part of {self.bot.name}."
            if flow.window is not None and use != "reply":
                return build_prompt(system, history, current, flow.window)
        if use != "reply":
            return build_prompt(system, history, current, SAY_WINDOW if use == "say" else PARSE_WINDOW)
        known = [r for r in (self.latest(kind) for kind in self.bot.knows) if r is not None]
        about = "".join(f" What you know of the user ({r.kind}): {json.dumps(r.data)}." for r in known)
        if background:
            about += f"\n\n{background}"
        return build_prompt(system + about, history, current, WINDOW)

    def phrase(self, content: str, purpose: str, flow: str | None, heard: Heard) -> str:
        """`content` as the model phrases it in `flow`'s persona (the main one when None), after `heard`."""
        if self.offline:
            # no model phrases: the template as said, as `Voice.phrase` returns it offline (no call,
            # no trace), without its guard path or a prompt closure on every question and reply
            return _as_said(content)
        prompt = lambda: self.prompt(flow, "say", heard)  # noqa: E731
        return self.voice.phrase(content, purpose, prompt, language=self._speaks(flow)).text

    def say(self, content: str, purpose: str, flow: str | None, heard: Heard) -> None:
        """`content` phrased (`phrase`) and added to the reply (`emit`): one call where a question is asked."""
        if self.offline and "[[" not in content:
            self.emit(content)  # as `phrase` says it offline, without its two calls
            return
        self.emit(self.phrase(content, purpose, flow, heard))

    def summarise(self, source: str, case: str, fallback: str, purpose: str, flow: str | None, heard: Heard) -> str:
        """A summary of `source` for `case` in `flow`'s persona; `fallback` when it cannot be had."""
        if self.offline:
            return _as_said(fallback)  # as `Voice.summarise` says it offline
        prompt = lambda: self.prompt(flow, "say", heard)  # noqa: E731
        return self.voice.summarise(source, case, fallback, purpose, prompt, language=self._speaks(flow)).text

    def _speaks(self, name: str | None) -> str | None:
        """The language `name` asks its phrasing in (Flow.speaks), from its open run's slots."""
        a = self.session.active
        if name is None or a is None or a.flow != name:
            return None
        flow = self.bot.flow_for(a)
        if flow.speaks is None:
            return None
        try:
            return flow.speaks(flow.slots.model_validate(a.slots))
        except ValidationError:
            return None  # slots this version cannot read ask for no language

    def llm_parse(self, schema: type[M], purpose: str, flow: str | None, heard: Heard) -> M | None:
        """`heard` read into `schema` by the model; None offline or when it fails."""
        return self.voice.parse(schema, purpose, lambda: self.prompt(flow, "parse", heard))

    def route(self, route: str, flow: Flow[Any] | None = None) -> None:
        """Where the turn went (the trace's route), and the model calls it may make there. `flow`:
        the open run's flow, when the caller has it already (the executor looks it up to run it)."""
        self.trace.route = route
        a = self.session.active
        if flow is None and a is not None:
            flow = self.bot.flow_for(a)
        budget = flow.llm_calls_per_turn if flow is not None else self.bot.main_llm_calls
        # a command the model proposed is carried out with the calls the turn had left (`ceiling`)
        self.voice.budget = budget if self.voice.ceiling is None else min(budget, self.voice.ceiling)

    def write(self) -> TurnWrite:
        """The write stage: everything the turn did, as the one write the store commits."""
        for shared in self._shared.values():
            self.session.context.update(shared.model_dump(mode="json"))
        s = self.session
        # the session's fields are not validated on assignment: set as pydantic's __setattr__ sets them, in two calls
        # where its own made six
        s.__dict__.update(turns=s.turns + 1, version=self.expected_version + 1, updated_at=self.now)
        s.__pydantic_fields_set__.update(_WRITTEN)
        at = self.now.isoformat()  # once: the trace's `at` and the store's time of every row of the turn
        reply = "\n\n".join(self.reply)
        return TurnWrite(
            session=s,
            expected_version=self.expected_version,
            trace_doc=trace_doc(self.trace, s, self.said, reply, [r.kind for r in self.records], self.retried, at),
            messages=self.main_messages,
            runs=self.runs,
            records=self.records,
            reply=reply,
            at=at,
        )


def trace_doc(
    trace: TraceDraft, session: SessionState, text: str, reply: str, records: list[str], retried: bool, at: str
) -> JsonObject:
    """The event-log entry of the turn that left `session` as it is, from what it recorded as it went
    (`trace`; defaults left out); `at`: `session.updated_at` as ISO text. Made here, by the write stage,
    not by a call into engine/trace.py per turn (bench/walk.py)."""
    a = session.active
    doc: JsonObject = {"turn": session.turns, "user_text": text, "reply": reply, "route": trace.route}
    flow_before, state_before = trace.before
    if flow_before is not None:
        doc["flow_before"] = flow_before
        doc["state_before"] = state_before
    if a is not None:
        doc["flow_after"] = a.flow
        doc["state_after"] = a.state
        doc["slots_after"] = dict(a.slots)
    for key, events in (("entered", trace.entered), ("fired", trace.fired), ("notices", trace.notices)):
        if events:
            copied: list[JsonValue] = []  # not list[JsonValue](events): calling the alias costs ten times more
            copied.extend(events)
            doc[key] = copied
    if records:
        doc["records"] = list(records)
    if trace.llm_calls:
        doc["llm_calls"] = [c.model_dump(mode="json", exclude_defaults=True) for c in trace.llm_calls]
    if retried:
        doc["retried"] = True
    if trace.message_id is not None:
        doc["message_id"] = trace.message_id
    doc["at"] = at
    return doc


def _as_said(template: str) -> str:
    """A template as said (engine/guard.py `unmark`): most have no [[marks]] to take off."""
    return unmark(template) if "[[" in template else template


def _without(messages: list[Message], current: Message) -> list[Message]:
    """`messages` minus the last copy of the current user message, which a prompt puts last."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i] == current:
            return [*messages[:i], *messages[i + 1 :]]
    return list(messages)


def load_shared(model: type[M], memory: JsonObject) -> M:
    """`model` from the session memory's keys; a stored value it refuses falls back to the default."""
    values = {k: v for k, v in memory.items() if k in model.model_fields}
    for _ in range(len(values) + 1):
        try:
            return model.model_validate(values)
        except ValidationError as e:
            bad = {err["loc"][0] for err in e.errors() if err["loc"]}
            if not bad & set(values):
                raise
            values = {k: v for k, v in values.items() if k not in bad}
    return model()
