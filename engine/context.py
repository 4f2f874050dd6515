"""What flow and bot code may touch during a turn: the contexts handed to hooks and Steps.

A context reaches the running turn only through small Protocols of named operations
(`EntryOps` within `StepOps`, implemented by the turn's `Effects`; `MainOps`, by its executor),
so this module imports neither the turn nor the bot, and everything a context does lands in
the turn's one write. A context is handed the message it is about (`Heard`) as a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from engine.commands import Social
from engine.models import Heard, JsonObject, NoticeKind, Resources, Slots, StoredRecord

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound=Slots)


class EntryOps(Protocol):
    """What bot-level hooks may ask of a turn."""

    @property
    def resources(self) -> Resources: ...

    @property
    def user(self) -> str: ...

    def latest(self, kind: str) -> StoredRecord | None: ...


class StepOps(EntryOps, Protocol):
    """What flow code (Steps, asides) may ask of a turn."""

    @property
    def store_url(self) -> str: ...

    @property
    def llm_backend(self) -> str: ...

    @property
    def memory(self) -> JsonObject:
        """Session-wide memory shared by the bot's flows."""
        ...

    def emit(self, text: str) -> None: ...

    def phrase(self, content: str, purpose: str, flow: str | None, heard: Heard) -> str: ...

    def summarise(self, source: str, case: str, fallback: str, purpose: str, flow: str | None, heard: Heard) -> str: ...

    def llm_parse(self, schema: type[M], purpose: str, flow: str | None, heard: Heard) -> M | None: ...

    def note(self, kind: NoticeKind, flow: str | None, detail: str) -> None: ...

    def offer(self, text: str) -> None: ...

    def keep(self, text: str, during: str) -> None: ...

    def save_record(self, kind: str, data: JsonObject) -> None: ...

    def records_of(self, kind: str) -> list[StoredRecord]: ...

    def shared(self, model: type[M]) -> M: ...

    def hand_to_agent(self, reason: str) -> None: ...

    @property
    def with_agent(self) -> bool: ...


class MainOps(Protocol):
    """What a bot's main-conversation handler may ask of a turn besides a Step's things."""

    def start_flow(self, name: str, seed: Slots | None, heard: Heard) -> None: ...

    def detect_intent(self, heard: Heard) -> str | None: ...

    def default_main(self, heard: Heard, social: Sequence[Social] = ()) -> None: ...

    def main_reply(
        self, heard: Heard, fallback: str | None = None, background: str = "", social: Sequence[Social] = ()
    ) -> None: ...


class EntryContext:
    """What bot-level hooks (entry rules, return remarks) may look at."""

    def __init__(self, ops: EntryOps, text: str) -> None:
        self._ops = ops
        self.text = text  # the user's message
        self.resources = ops.resources

    @property
    def user(self) -> str:
        return self._ops.user

    def latest(self, kind: str) -> StoredRecord | None:
        """The user's most recent saved record of `kind` with this bot."""
        return self._ops.latest(kind)


# A dataclass: its generated __init__ is no code of this module, so a turn makes a Step's context
# without a walk here and back (bench/walk.py); the maker gives what was derived from the others
# (the words read, the turn's resources).
@dataclass(eq=False)
class StepContext(Generic[S]):
    """What a Step's code may do: read and set slots, phrase, parse, say, save records."""

    _ops: StepOps
    _heard: Heard
    flow: str | None
    slots: S
    # the asking state an aside interrupts (its question is asked again after it); None in a Step
    state: str | None
    text: str  # the user's message, as this part of the turn reads it (`_heard.text`)
    resources: Resources  # `_ops.resources`

    @property
    def store_url(self) -> str:
        """The session store's database URL (a search index may live in the same SQLite file)."""
        return self._ops.store_url

    @property
    def user(self) -> str:
        return self._ops.user

    @property
    def llm_backend(self) -> str:
        """The LLM backend's name ("rules" offline): a flow may take its rule path without asking."""
        return self._ops.llm_backend

    def event(self, kind: str, detail: str) -> None:
        """Log a tool use (a search, a lookup) in this turn's trace."""
        self._ops.note("tool", self.flow, f"{kind}: {detail}")

    def latest(self, kind: str) -> StoredRecord | None:
        """The user's most recent saved record of `kind` with this bot."""
        return self._ops.latest(kind)

    def records(self, kind: str) -> list[StoredRecord]:
        return self._ops.records_of(kind)

    @property
    def context(self) -> JsonObject:
        """Session-wide memory shared by the bot's flows, as raw JSON (prefer `shared`)."""
        return self._ops.memory

    def shared(self, model: type[M]) -> M:
        """The bot's typed shared memory: `model`'s fields read from the session's memory.

        The same instance for the whole turn; what is changed on it is stored with the turn.
        A stored value the model no longer accepts falls back to that field's default.
        """
        return self._ops.shared(model)

    def say(self, text: str) -> None:
        self._ops.emit(text)

    def offer(self, text: str) -> None:
        """Offer a reading of the message (after saying "Did you mean English?"): a plain yes
        next turn, at the question asked again, is read as if the user had written `text`."""
        self._ops.offer(text)

    def keep(self, text: str) -> None:
        """Keep `text`, a request the user made during this flow, for when it is over: the engine
        carries it out in the main conversation as if said then (engine/kept.py), which may start a
        flow of its own, so the user never has to say it again."""
        self._ops.keep(text, self.flow or "main")

    def phrase(self, content: str, purpose: str) -> str:
        return self._ops.phrase(content, purpose, self.flow, self._heard)

    def summarise(self, source: str, case: str, fallback: str, purpose: str) -> str:
        """With a model, a summary of `source` (a help text) for the user's `case` (what they
        described, their answers), held to `source`'s facts; `fallback` offline or when the
        summary does not hold (engine/guard.py, `summary_problem`)."""
        return self._ops.summarise(source, case, fallback, purpose, self.flow, self._heard)

    def parse(self, schema: type[M], purpose: str) -> M | None:
        return self._ops.llm_parse(schema, purpose, self.flow, self._heard)

    def record(self, kind: str, data: JsonObject) -> None:
        self._ops.save_record(kind, data)

    def hand_to_agent(self, reason: str) -> None:
        """Give the conversation to a person: from the next message the bot only holds the line."""
        self._ops.hand_to_agent(reason)

    @property
    def with_agent(self) -> bool:
        """Whether a person has (or is about to take) the conversation."""
        return self._ops.with_agent


class MainContext(StepContext[Slots]):
    """What a bot's own main-conversation handler may do besides a Step's things."""

    def __init__(self, ops: StepOps, main: MainOps, heard: Heard, social: Sequence[Social] = ()) -> None:
        super().__init__(ops, heard, None, Slots(), None, heard.text, ops.resources)
        self._main = main
        # the kinds of small talk the message is made of, when it is only that ("thanks, bye": thanks, goodbye)
        self.social: tuple[Social, ...] = tuple(social)

    def start(self, flow: str, slots: Slots | None = None) -> None:
        """Enter `flow`, with `slots` (an instance of that flow's slots model) already filled."""
        self._main.start_flow(flow, slots, self._heard)

    def intent(self) -> str | None:
        """The flow the message asks for: keyword rules, then an LLM classification if configured."""
        return self._main.detect_intent(self._heard)

    def default(self) -> None:
        """The stock main conversation: start the intended flow, or small talk."""
        self._main.default_main(self._heard, self.social)

    def reply(self, fallback: str | None = None, background: str = "") -> None:
        """Answer the message: with a model, in its own words from the main conversation, what
        the bot knows of the user and `background` (an article, the course); offline, `fallback`
        (the bot's capabilities when None)."""
        self._main.main_reply(self._heard, fallback, background, self.social)
