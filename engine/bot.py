"""Bots: a main conversation composed with flows (`engine.registry` holds them)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Optional

from pydantic import BaseModel, Field, create_model

from engine.commands import Social
from engine.context import EntryContext, MainContext
from engine.cues import in_english_cues
from engine.errors import DefinitionError, UnknownNameError
from engine.flow import Flow
from engine.gates import Gate, gate
from engine.gloss import in_english
from engine.models import FlowFrame, FlowRun, Resources

MAIN = "main"
# a backreference (numbered or named), a named group (a name used twice does not compile) or inline flags
_SELF_REFERENCE = re.compile(r"\\[1-9]|\(\?P[<=]|\(\?<[A-Za-z_]|\(\?[aiLmsux]+[):]")


@dataclass(frozen=True)
class Intent:
    """Start `flow` when a main-conversation message matches one of `patterns` (regex, case-blind).

    With a model configured, a message no pattern matches may still be classified as this
    intent, but only when it contains one of `cues` (word starts, case-blind), the model
    quotes the words that show it, and the user then says yes to `confirm`.
    """

    flow: str
    patterns: Sequence[str]
    description: str
    cues: Sequence[str] = ()
    confirm: str = ""

    def matches(self, text: str) -> bool:
        combined = self._combined
        if combined is not None:
            return _found(combined.pattern, text)
        return any(p.search(text) for p in self._compiled)

    def cued(self, text: str) -> bool:
        """Whether `text` holds one of the cue words, so that a model may consider this intent."""
        return self._cue_pattern is not None and self._cue_pattern.search(text) is not None

    @property
    def question(self) -> str:
        return self.confirm or f"Do you want to start the {self.flow.replace('_', ' ')}?"

    @functools.cached_property
    def gate(self) -> Gate:
        """Whether a text may match a pattern (engine/gates.py): a reader that asks every intent of the bot
        about each part of a message asks each once about the whole message first."""
        return gate(self.patterns, ignore_case=True)

    @functools.cached_property
    def _cue_pattern(self) -> re.Pattern[str] | None:
        if not self.cues:
            return None
        return re.compile(r"\b(?:" + "|".join(re.escape(c) for c in self.cues) + ")", re.IGNORECASE)

    @functools.cached_property
    def _compiled(self) -> list[re.Pattern[str]]:
        return [re.compile(p, re.IGNORECASE) for p in self.patterns]

    @functools.cached_property
    def _combined(self) -> re.Pattern[str] | None:
        """The patterns as one alternation: one search where a read tries them all (the read stage
        asks each intent of the bot at every question). Patterns that number or name their groups
        for a backreference, or set flags of their own, are kept apart (joined they would not mean
        the same)."""
        if len(self.patterns) < 2 or any(_SELF_REFERENCE.search(p) for p in self.patterns):
            return None
        try:
            combined = re.compile("|".join(f"(?:{p})" for p in self.patterns), re.IGNORECASE)
        except re.error:
            return None
        return _COMBINED.setdefault(combined.pattern, combined)


# every intent's patterns joined (`Intent._combined`), by their source: all case-blind
_COMBINED: dict[str, re.Pattern[str]] = {}


@functools.lru_cache(maxsize=4096)
def _found(source: str, text: str) -> bool:
    """Whether an intent's patterns (`source`, joined) find something in `text`: asked of every intent
    at every question (is the message the open flow's own? another flow's?), case-blind alternations
    that cannot skip ahead to a literal, so tried at every character; the words alone say, so once
    per text. Keyed by the source, whose hash a string keeps (a compiled pattern hashes its code)."""
    return _COMBINED[source].search(text) is not None


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
    # added to the capabilities when no model is configured, so the offline reply stays honest
    offline_note: str = ""
    # the bot's own replies to small talk alone in the main conversation, offline, by kind ("thanks":
    # "You're welcome! Say 'teach me' ..."); the engine's (engine/askback.py) answer the other kinds
    small_talk: Mapping[Social, str] = field(default_factory=dict)
    # the kinds of stored record the main conversation's model is told about the user
    knows: Sequence[str] = ("profile",)
    # whether people answer this bot's users: a person asked for at a question is then handed
    # the conversation; without them the user is told there is none
    people: bool = False
    # what the bot says to each message while a person has the conversation
    holding: str = "A person from our team has your conversation and will reply here; I've added your message."
    # the flows by name, read-only: a turn looks a stored run's flow up in it
    named: Mapping[str, Flow[Any]] = field(init=False, repr=False)
    _flows: dict[str, Flow[Any]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._flows = {}
        self.named = MappingProxyType(self._flows)
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

    def intent_model(self, candidates: Sequence[Intent]) -> type[BaseModel]:
        """Schema for a model's intent classification among `candidates`, or null for anything else.

        `evidence` must quote, word for word, the part of the message that asks for the flow.
        """
        return _intent_model(self.name, tuple((i.flow, i.description) for i in candidates))

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
        current = self._flows.get(frame.flow) or self.flow(frame.flow)
        if frame.version == current.version:
            return current
        return current.at(frame.version) or current

    def has_flow(self, name: str) -> bool:
        return name in self._flows

    def intent_for(self, text: str, allowed: Sequence[str] | None = None) -> str | None:
        """The flow an intent's patterns ask for: in the message as typed, then with its cue phrases
        of other languages written in English ("j'ai une réclamation": a complaint; engine/cues.py),
        then with its answer words too (engine/gloss.py): an intent that needs a day or a time beside
        its verb ("organizzami lo studio per domani dalle 15") finds them only in English."""
        found = self._intent_in(text, allowed)
        if found is None and (english := in_english_cues(text)) != text:
            found = self._intent_in(english, allowed)  # glossed only when the message as typed names none
        if found is None and (glossed := in_english(in_english_cues(text))) not in (text, in_english_cues(text)):
            found = self._intent_in(glossed, allowed)
        return found

    def _intent_in(self, text: str, allowed: Sequence[str] | None) -> str | None:
        return next((i.flow for i in self.intents if (allowed is None or i.flow in allowed) and i.matches(text)), None)


@functools.cache
def _intent_model(bot: str, candidates: tuple[tuple[str, str], ...]) -> type[BaseModel]:
    names = tuple(flow for flow, _ in candidates)
    hint = "; ".join(f"{flow}: {description}" for flow, description in candidates)
    choice = Optional[Literal[names]]  # type: ignore[valid-type]  # noqa: UP045
    return create_model(
        f"{bot}_intent",
        value=(choice, Field(None, description=f"{hint}; null for small talk or anything else")),
        evidence=(
            Optional[str],  # noqa: UP045
            Field(None, description="the exact words of the user's message that ask for it, copied verbatim"),
        ),
    )
