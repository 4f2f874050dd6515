"""What flow and bot code may touch during a turn: the contexts handed to hooks and Steps.

They are thin views over the running `Turn`; everything they do lands in that turn's write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from pydantic import BaseModel

from engine.bot import Bot
from engine.flow import Flow, Slots
from engine.models import JsonObject, RecordDraft, Resources, SessionState, StoredRecord
from engine.store import Store

if TYPE_CHECKING:
    from engine.turn import Turn

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound=Slots)


@dataclass
class EntryContext:
    """What bot-level hooks (entry rules, return remarks) may look at."""

    bot: Bot
    session: SessionState
    text: str
    store: Store
    resources: Resources

    def latest(self, kind: str) -> StoredRecord | None:
        return self.store.latest(kind, bot=self.bot.name, user=self.session.user)


class StepContext(Generic[S]):
    """What a Step's code may do: read and set slots, phrase, parse, say, save records."""

    def __init__(self, turn: Turn, flow: Flow | None, slots: S) -> None:
        self._turn = turn
        self.flow = flow
        self.slots: S = slots
        self.text = turn.text
        self.resources = turn.resources

    @property
    def store_url(self) -> str:
        """The session store's database URL (a search index may live in the same SQLite file)."""
        return self._turn.store.url

    @property
    def user(self) -> str:
        return self._turn.session.user

    @property
    def llm_backend(self) -> str:
        """The LLM backend's name ("rules" offline): a flow may take its rule path without asking."""
        return self._turn.llm.name

    def event(self, kind: str, detail: str) -> None:
        """Log a tool use (a search, a lookup) in this turn's trace."""
        self._turn.trace.notices.append(f"{kind}:{detail}")

    def latest(self, kind: str) -> StoredRecord | None:
        """The user's most recent saved record of `kind` with this bot."""
        return self._turn.entry_context().latest(kind)

    def records(self, kind: str) -> list[StoredRecord]:
        t = self._turn
        return t.store.records(kind, bot=t.bot.name, user=t.session.user)

    @property
    def context(self) -> JsonObject:
        """Session-wide memory shared by the bot's flows (kept across flows and restarts)."""
        return self._turn.session.context

    def say(self, text: str) -> None:
        self._turn.emit(text)

    def phrase(self, content: str, purpose: str) -> str:
        return self._turn.phrase(content, purpose, self.flow)

    def parse(self, schema: type[M], purpose: str) -> M | None:
        return self._turn.llm_parse(schema, purpose, self.flow)

    def record(self, kind: str, data: JsonObject) -> None:
        self._turn.records.append(RecordDraft(kind=kind, data=data))


class MainContext(StepContext[Slots]):
    """What a bot's own main-conversation handler may do besides a Step's things."""

    def start(self, flow: str, **slots: object) -> None:
        """Enter `flow` with some slots already filled (e.g. the document a search found)."""
        self._turn.trace.route = f"intent:{flow}"
        self._turn.start(flow, seed=slots)

    def intent(self) -> str | None:
        """The flow the message asks for: keyword rules, then an LLM classification if configured."""
        return self._turn.detect_intent()

    def default(self) -> None:
        """The stock main conversation: start the intended flow, or small talk."""
        self._turn.default_main()
