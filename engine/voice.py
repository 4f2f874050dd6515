"""The turn's only way to a language model: phrase a bot turn or parse a user turn.

`Voice` spends a per-turn call budget, logs every call (or failure) in the turn's trace,
and degrades to the template text or "not parsed" when the budget is spent or the model
fails, so a flaky model can slow a conversation down but never break it. Prompts are
built lazily: the offline rules backend never builds one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel

from engine.errors import LLMError, UnexpectedLLMCall
from engine.guard import parse_problem, phrase_problem, unmark
from engine.llm import LLM, ParseRequest, PhraseRequest
from engine.models import LLMCall, Message
from engine.trace import TraceDraft

M = TypeVar("M", bound=BaseModel)
Prompt = Callable[[], list[Message]]


class Voice:
    def __init__(self, llm: LLM, trace: TraceDraft) -> None:
        self.llm = llm
        self.budget = 0
        self._trace = trace
        self._calls = trace.llm_calls

    @property
    def offline(self) -> bool:
        return self.llm.name == "rules"

    def phrase(self, content: str, purpose: str, prompt: Prompt, *, reply: bool = False) -> str:
        """`content` in the model's words; the content itself offline, when that fails, or when
        the phrasing lost what the content says (engine/guard.py; the trace says why)."""
        said = unmark(content)
        if not self._spend(purpose):
            return said
        messages = prompt()
        try:
            mode: Literal["say", "reply"] = "reply" if reply else "say"
            out = self.llm.phrase(PhraseRequest(purpose=purpose, content=said, messages=messages, mode=mode))
        except UnexpectedLLMCall:
            raise  # a scripted test is out of step with the engine: say so, don't paper over it
        except LLMError as e:
            self._failed(purpose, e)
            return said
        self._log(out.call)
        problem = phrase_problem(content, out.text, _user_text(messages), facts=not reply)
        if problem is not None:
            self._trace.notice("phrase_rejected", detail=f"{purpose}: {problem}")
            return said
        return out.text

    def parse(self, schema: type[M], purpose: str, prompt: Prompt) -> M | None:
        """The user's last message read into `schema`; None offline, on failure or "not given"."""
        if not self._spend(purpose):
            return None
        messages = prompt()
        try:
            out = self.llm.parse(ParseRequest(purpose=purpose, schema_model=schema, messages=messages))
        except UnexpectedLLMCall:
            raise
        except LLMError as e:
            self._failed(purpose, e)
            return None
        self._log(out.call)
        if not isinstance(out.value, schema):
            return None
        answer = purpose.startswith("parse:")
        problem = parse_problem(out.value, _user_text(messages), literal_options(schema), answer=answer)
        if problem is not None:
            self._trace.notice("parse_rejected", detail=f"{purpose}: {problem}")
            return None
        return out.value

    def _spend(self, purpose: str) -> bool:
        if self.offline:
            return False
        if self.budget <= 0:
            self._trace.notice("budget", detail=f"no LLM call left this turn for {purpose}: template used")
            return False
        self.budget -= 1
        return True

    def _log(self, call: LLMCall | None) -> None:
        if call is not None:
            self._calls.append(call)

    def _failed(self, purpose: str, e: LLMError) -> None:
        self._calls.append(
            LLMCall(purpose=purpose, backend=self.llm.name, model=self.llm.model, ok=False, detail=str(e))
        )


def _user_text(messages: list[Message]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def literal_options(schema: type[BaseModel]) -> list[str]:
    """The string values the schema's fields allow, when they are a closed set (a choice)."""
    out: list[str] = []
    for info in schema.model_fields.values():
        out += [arg for arg in _flatten(info.annotation) if isinstance(arg, str)]
    return out


def _flatten(annotation: object) -> list[object]:
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return [a for arg in get_args(annotation) for a in _flatten(arg)]
