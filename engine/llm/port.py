"""The LLM port: a model may only phrase a bot turn or parse a user turn.

Three backends share the `LLM` protocol: `RulesLLM` (engine/llm/rules.py: offline,
deterministic, the default), `ScriptedLLM` (engine/llm/scripted.py: tests, answers from a
queue, loud on surprises) and `OpenAILLM` (engine/llm/openai.py: any OpenAI-compatible server).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, model_validator

from engine.models import LLMCall, Message


class PhraseRequest(BaseModel):
    """Say `content` (the state's rendered template) as the bot, given `messages`.

    `mode="reply"`: the main conversation. The model answers the user's last message itself,
    in the bot's persona, from the conversation so far; `content` is what the bot can do.
    `mode="summary"`: a summary of `content` (a help text) for the user's own case, which `case`
    states (what they described, their answers); held to `content`'s facts (engine/guard.py).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    purpose: str
    content: str
    messages: list[Message]
    mode: Literal["say", "reply", "summary"] = "say"
    # mode="summary" only: the user's case the summary is for, in their words
    case: str | None = None
    # the language to say it in (ISO 639-1, one of engine/guard.py's LANGUAGE_NAMES); None: the
    # language the user writes in
    language: str | None = None
    # what is left of the turn's time for the model: the call gives up (the template is
    # said instead) rather than make the user wait longer
    timeout_s: float | None = None

    @model_validator(mode="after")
    def _case_for_a_summary(self) -> PhraseRequest:
        if (self.mode == "summary") != bool(self.case and self.case.strip()):
            raise ValueError("a summary, and only a summary, is asked for a case: give `case` with mode='summary'")
        return self


class ParseRequest(BaseModel):
    """Read the last user message of `messages` into `schema`; every field may be null."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    purpose: str
    schema_model: type[BaseModel]
    messages: list[Message]
    timeout_s: float | None = None


class Phrased(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    call: LLMCall | None = None
    # the model stopped at the request's token limit, so the text may end mid-sentence
    cut: bool = False


class Parsed(BaseModel):
    """`value` is None when the model said the answer was not given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: BaseModel | None
    call: LLMCall | None = None


@runtime_checkable
class LLM(Protocol):
    """What the engine needs from a language model; nothing else reaches one."""

    name: str
    model: str

    def phrase(self, request: PhraseRequest) -> Phrased: ...

    def parse(self, request: ParseRequest) -> Parsed: ...


TextSink = Callable[[str], None]


@runtime_checkable
class StreamingLLM(LLM, Protocol):
    """A backend that can hand a phrasing over as it is generated.

    `stream` calls `sink` with each piece of text in order and returns the whole, as `phrase`
    does. An exception from `sink` (the reader went away, Ctrl-C, a guard that saw enough)
    ends the generation: the backend closes the connection and lets the exception through.
    """

    def stream(self, request: PhraseRequest, sink: TextSink) -> Phrased: ...
