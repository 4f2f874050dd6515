"""The test backend: answers from a queue, loud on any call nobody expected."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

from pydantic import JsonValue, ValidationError

from engine.errors import LLMResponseError, UnexpectedLLMCall
from engine.llm.port import Parsed, ParseRequest, Phrased, PhraseRequest, TextSink
from engine.models import LLMCall

# a `Phrased` answers a phrase call as it is (one the model stopped at its token limit: `cut`)
ScriptedAnswer = str | Phrased | dict[str, JsonValue] | None


class ScriptedLLM:
    """Test backend: each call takes the next queued answer.

    A `str` (or a `Phrased`) answers a phrase call, a mapping (or None for "not given") a parse call.
    A call with an empty queue, or of the other kind, raises `UnexpectedLLMCall`.
    """

    name = "scripted"
    model = "scripted"

    def __init__(self, answers: Iterable[ScriptedAnswer] = ()) -> None:
        self.queue: deque[ScriptedAnswer] = deque(answers)
        self.calls: list[str] = []
        # every request, for tests that check what a prompt carried
        self.requests: list[PhraseRequest | ParseRequest] = []

    def push(self, *answers: ScriptedAnswer) -> None:
        self.queue.extend(answers)

    def _next(self, kind: str, purpose: str) -> ScriptedAnswer:
        self.calls.append(purpose)
        if not self.queue:
            raise UnexpectedLLMCall(f"unexpected {kind} call ({purpose}): queue is empty", backend=self.name)
        return self.queue.popleft()

    def phrase(self, request: PhraseRequest) -> Phrased:
        self.requests.append(request)
        answer = self._next("phrase", request.purpose)
        call = LLMCall(purpose=request.purpose, backend=self.name, model=self.model)
        if isinstance(answer, Phrased):
            return answer.model_copy(update={"call": answer.call or call})
        if not isinstance(answer, str):
            raise UnexpectedLLMCall(
                f"phrase call ({request.purpose}) but the next queued answer is {answer!r}",
                backend=self.name,
            )
        return Phrased(text=answer, call=call)

    def stream(self, request: PhraseRequest, sink: TextSink) -> Phrased:
        """`phrase`, handing the answer to `sink` word by word, as a server would."""
        out = self.phrase(request)
        for piece in re.findall(r"\S+\s*|\s+", out.text):
            sink(piece)
        return out

    def parse(self, request: ParseRequest) -> Parsed:
        self.requests.append(request)
        answer = self._next("parse", request.purpose)
        if isinstance(answer, str | Phrased):
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
