"""Bots: a main conversation composed with flows (`engine.registry` holds them)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Optional

from pydantic import BaseModel, Field, create_model

from engine.context import EntryContext, MainContext
from engine.errors import DefinitionError, UnknownNameError
from engine.flow import Flow
from engine.models import FlowFrame, FlowRun, Resources

MAIN = "main"


@dataclass(frozen=True)
class Intent:
    """Start `flow` when a main-conversation message matches one of `patterns` (regex, case-blind)."""

    flow: str
    patterns: Sequence[str]
    description: str

    def matches(self, text: str) -> bool:
        return any(p.search(text) for p in self._compiled)

    @functools.cached_property
    def _compiled(self) -> list[re.Pattern[str]]:
        return [re.compile(p, re.IGNORECASE) for p in self.patterns]


@dataclass
class Bot:
    """A main conversation (persona, intents, small talk) plus the flows it can run."""

    name: str
    persona: str
    flows: Sequence[Flow[Any]]
    intents: Sequence[Intent]
    capabilities: str
    entry: Callable[[EntryContext], str | None] | None = None
    on_return: Callable[[FlowRun, EntryContext], str | None] | None = None
    # replaces the stock main conversation (intents, then small talk), e.g. to search first
    converse: Callable[[MainContext], None] | None = None
    # validates the data files a run points the bot at, before the first turn: raises
    # DataFileError for what makes the bot unusable, returns warnings (a skipped document)
    check: Callable[[Resources], list[str]] | None = None
    main_llm_calls: int = 2
    # what the bot says to each message while a person has the conversation
    holding: str = "A person from our team has your conversation and will reply here; I've added your message."
    _flows: dict[str, Flow[Any]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._flows = {}
        for f in self.flows:
            if f.name in self._flows or f.name == MAIN:
                raise DefinitionError(f"bot {self.name!r}: flow name {f.name!r} is reserved or used twice", flow=f.name)
            self._flows[f.name] = f
        for i in self.intents:
            if i.flow not in self._flows:
                raise DefinitionError(f"bot {self.name!r}: intent names unknown flow {i.flow!r}", flow=i.flow)
            for p in i.patterns:
                try:
                    re.compile(p)
                except re.error as e:
                    raise DefinitionError(f"bot {self.name!r}: bad intent pattern {p!r}: {e}", flow=i.flow) from e
        for f in self.flows:
            for name in f.interrupts:
                if name not in self._flows:
                    raise DefinitionError(
                        f"bot {self.name!r}: {f.name} may be interrupted by unknown flow {name!r}", flow=f.name
                    )

    @functools.cached_property
    def intent_model(self) -> type[BaseModel]:
        """Schema for an LLM intent classification: one of the flows, or null for small talk."""
        names = tuple(i.flow for i in self.intents)
        hint = "; ".join(f"{i.flow}: {i.description}" for i in self.intents)
        choice = Optional[Literal[names]]  # type: ignore[valid-type]  # noqa: UP045
        return create_model(f"{self.name}_intent", value=(choice, Field(None, description=hint)))

    def check_resources(self, resources: Resources) -> list[str]:
        """Load and validate the bot's data files now rather than at the first turn that needs them."""
        return self.check(resources) if self.check else []

    def flow(self, name: str) -> Flow[Any]:
        try:
            return self._flows[name]
        except KeyError:
            raise UnknownNameError("flow", name, list(self._flows)) from None

    def flow_for(self, frame: FlowFrame) -> Flow[Any]:
        """The flow a stored run continues on: the version it started on while that is shipped."""
        current = self.flow(frame.flow)
        return current.at(frame.version) or current

    def has_flow(self, name: str) -> bool:
        return name in self._flows

    def intent_for(self, text: str, allowed: Sequence[str] | None = None) -> str | None:
        for i in self.intents:
            if (allowed is None or i.flow in allowed) and i.matches(text):
                return i.flow
        return None
