"""The LLM port: a model may only phrase a bot turn or parse a user turn.

Three backends share the `LLM` protocol: `RulesLLM` (offline, deterministic, the
default), `ScriptedLLM` (tests: answers from a queue, loud on surprises) and
`OpenAILLM` in `engine/openai_llm.py` (any OpenAI-compatible server).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from engine.errors import LLMResponseError, UnexpectedLLMCall
from engine.models import LLMCall, Message


class PhraseRequest(BaseModel):
    """Say `content` (the state's rendered template) as the bot, given `messages`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    purpose: str
    content: str
    messages: list[Message]


class ParseRequest(BaseModel):
    """Read the last user message of `messages` into `schema`; every field may be null."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    purpose: str
    schema_model: type[BaseModel]
    messages: list[Message]


class Phrased(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    call: LLMCall | None = None


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


class RulesLLM:
    """Offline backend: phrasing is the template itself; parsing is left to the rule extractors."""

    name = "rules"
    model = "rules"

    def phrase(self, request: PhraseRequest) -> Phrased:
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        # Rules already ran before the engine asked; a rules backend cannot do better.
        return Parsed(value=None)


ScriptedAnswer = str | dict[str, JsonValue] | None


class ScriptedLLM:
    """Test backend: each call takes the next queued answer.

    A `str` answers a phrase call, a mapping (or None for "not given") a parse call.
    A call with an empty queue, or of the other kind, raises `UnexpectedLLMCall`.
    """

    name = "scripted"
    model = "scripted"

    def __init__(self, answers: Iterable[ScriptedAnswer] = ()) -> None:
        self.queue: deque[ScriptedAnswer] = deque(answers)
        self.calls: list[str] = []

    def push(self, *answers: ScriptedAnswer) -> None:
        self.queue.extend(answers)

    def _next(self, kind: str, purpose: str) -> ScriptedAnswer:
        self.calls.append(purpose)
        if not self.queue:
            raise UnexpectedLLMCall(f"unexpected {kind} call ({purpose}): queue is empty", backend=self.name)
        return self.queue.popleft()

    def phrase(self, request: PhraseRequest) -> Phrased:
        answer = self._next("phrase", request.purpose)
        if not isinstance(answer, str):
            raise UnexpectedLLMCall(
                f"phrase call ({request.purpose}) but the next queued answer is {answer!r}",
                backend=self.name,
            )
        return Phrased(text=answer, call=LLMCall(purpose=request.purpose, backend=self.name, model=self.model))

    def parse(self, request: ParseRequest) -> Parsed:
        answer = self._next("parse", request.purpose)
        if isinstance(answer, str):
            raise UnexpectedLLMCall(
                f"parse call ({request.purpose}) but the next queued answer is text {answer!r}",
                backend=self.name,
            )
        call = LLMCall(purpose=request.purpose, backend=self.name, model=self.model)
        if answer is None:
            return Parsed(value=None, call=call)
        try:
            value = request.schema_model.model_validate(answer)
        except ValidationError as e:
            raise LLMResponseError(
                f"scripted answer does not fit {request.schema_model.__name__}: {e}", backend=self.name
            ) from e
        return Parsed(value=value, call=call)
