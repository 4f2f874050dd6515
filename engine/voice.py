"""The turn's only way to a language model: phrase a bot turn or parse a user turn.

`Voice` spends a per-turn call budget, logs every call (or failure) in the turn's trace,
and degrades to the template text or "not parsed" when the budget is spent or the model
fails, so a flaky model can slow a conversation down but never break it. Prompts are
built lazily: the offline rules backend never builds one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from engine.errors import LLMError, UnexpectedLLMCall
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

    def phrase(self, content: str, purpose: str, prompt: Prompt) -> str:
        """`content` in the model's words; the content itself offline or when that fails."""
        if not self._spend(purpose):
            return content
        try:
            out = self.llm.phrase(PhraseRequest(purpose=purpose, content=content, messages=prompt()))
        except UnexpectedLLMCall:
            raise  # a scripted test is out of step with the engine: say so, don't paper over it
        except LLMError as e:
            self._failed(purpose, e)
            return content
        self._log(out.call)
        # a blank answer says nothing to the user; the template at least says the content
        return out.text if out.text.strip() else content

    def parse(self, schema: type[M], purpose: str, prompt: Prompt) -> M | None:
        """The user's last message read into `schema`; None offline, on failure or "not given"."""
        if not self._spend(purpose):
            return None
        try:
            out = self.llm.parse(ParseRequest(purpose=purpose, schema_model=schema, messages=prompt()))
        except UnexpectedLLMCall:
            raise
        except LLMError as e:
            self._failed(purpose, e)
            return None
        self._log(out.call)
        return out.value if isinstance(out.value, schema) else None

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
