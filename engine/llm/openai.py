"""`OpenAILLM`: the LLM port over any OpenAI-compatible chat server.

This is the only module that imports `openai`. It does its own retries (the client's
are off) so that every attempt, token and second is accounted for in one `LLMCall`,
and so that a server rejecting a structured-output format can be told apart from one
that is merely down.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletionMessageParam
from pydantic import BaseModel, ValidationError

from engine.errors import LLMError, LLMResponseError, LLMUnavailable, UnexpectedLLMCall
from engine.guard import LANGUAGE_NAMES, MAX_EXTRA_CHARS, MAX_GROWTH, MAX_REPLY_CHARS
from engine.llm.port import Parsed, ParseRequest, Phrased, PhraseRequest, TextSink
from engine.models import LLMCall, Message

DEFAULT_MODEL = "gpt-4o-mini"
# A server asking for a long pause should not freeze a chat turn; we wait at most this.
RETRY_AFTER_CAP = 2.0
# Output bounds, from what a call must say: a phrasing may be at most the guard's length
# (engine/guard.py) and a parse a small JSON object. A weak model can otherwise ramble, or
# loop on whitespace inside a grammar, until the context is full (minutes on a small CPU).
CHARS_PER_TOKEN = 3
MAX_TOKENS = 400
PARSE_TOKENS_BASE, PARSE_TOKENS_PER_FIELD = 48, 40
# A phrasing rewords a fixed text: little freedom. A main reply is conversation.
SAY_TEMPERATURE, REPLY_TEMPERATURE = 0.2, 0.7
# The format each server (base URL, model) was found to accept, learnt once per process.
LEARNT_FORMATS: dict[tuple[str, str], int] = {}
# Tried in this order; llama-cpp-python answers 500 (not 400) to json_schema.
FORMATS = ("json_schema", "json_object", "prompt")

_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*(.*?)\s*```\s*$", re.DOTALL)

PHRASE_INSTRUCTION = (
    "\n\nWrite your next message to the user. It must say the following, in your own "
    "voice as described above and in {language}. Keep every fact, "
    "number, option and question it contains; add nothing else. Reply with the message "
    "text only.\n\n<content>\n{content}\n</content>"
)
REPLY_INSTRUCTION = (
    "\n\nReply to the user's last message yourself, in the persona above: briefly (three sentences "
    "at most), in the language the user writes in, using what the conversation and what you know "
    "of the user tell you. Never claim to have done, saved or scheduled anything. When you cannot "
    "help, or it helps the user, say this in your own words:\n\n<fallback>\n{content}\n</fallback>"
)
SUMMARY_INSTRUCTION = (
    "\n\nWrite your next message to the user: a short summary of the help text below for the "
    "case the user described, in your own voice as described above and in {language}. Keep "
    "every name, number, link and step the text gives, in its order; say the rest briefly, "
    "for their case; add nothing the text does not say. Reply with the message text only."
    "\n\n<case>\n{case}\n</case>\n\n<text>\n{content}\n</text>"
)
PARSE_INSTRUCTION = (
    "\n\nTask: read the user's last message and extract the answer into a JSON object "
    "matching this JSON schema:\n{schema}\nUse null for every field the user did not "
    "clearly give. Reply with the JSON object only, no prose."
)
REPAIR_INSTRUCTION = "That answer is not valid: {error}\nReply with the corrected JSON object only."


@dataclass
class _Tally:
    """Everything spent on one phrase/parse operation, across HTTP calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    attempts: int = 0
    fmt: str = ""
    notes: list[str] = field(default_factory=list)
    cut: bool = False  # the server stopped at max_tokens (finish_reason "length")

    def finished(self, reason: str | None) -> None:
        if reason == "length" and not self.cut:
            self.cut = True
            self.notes.append("stopped at max_tokens")


@dataclass(frozen=True)
class _Bounds:
    """What one call may cost: output tokens, randomness, and seconds."""

    max_tokens: int
    temperature: float
    timeout: float


def _timed(error: LLMError, tally: _Tally, started: float) -> LLMError:
    """`error` with the real time, attempts and tokens of the call it ended, for the trace."""
    if not error.elapsed_ms:
        error.elapsed_ms = (time.perf_counter() - started) * 1000
        error.attempts = max(tally.attempts, 1)
        error.tokens = (tally.prompt_tokens, tally.completion_tokens)
    return error


class OpenAILLM:
    """Phrases and parses through an OpenAI-compatible `/chat/completions` endpoint."""

    name = "openai"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_tokens: int = MAX_TOKENS,
        http_client: httpx2.Client | None = None,
        formats: dict[tuple[str, str], int] | None = None,
    ) -> None:
        self.model: str = model or os.environ.get("INNERLOOP_MODEL") or DEFAULT_MODEL
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            raise LLMUnavailable(
                "no API key: set OPENAI_API_KEY (a local OpenAI-compatible server "
                "accepts any dummy value, e.g. OPENAI_API_KEY=local)",
                backend=self.name,
            )
        self.retries = max(0, retries)
        self.max_tokens = max_tokens
        self.backoff = backoff
        self._client = openai.OpenAI(
            api_key=key,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )
        # Index into FORMATS of the format this server is known (or presumed) to accept,
        # shared by every backend of this process (a recording keeps its own: `formats`)
        self._formats = LEARNT_FORMATS if formats is None else formats
        self._server = (str(self._client.base_url), self.model)
        self.timeout = timeout

    @property
    def _format(self) -> int:
        return self._formats.get(self._server, 0)

    @_format.setter
    def _format(self, index: int) -> None:
        self._formats[self._server] = index

    @property
    def response_format(self) -> str:
        return FORMATS[self._format]

    # -- the port ------------------------------------------------------------------

    def phrase(self, request: PhraseRequest) -> Phrased:
        started = time.perf_counter()
        tally = _Tally()
        messages, bounds = self._phrasing(request)
        text = self._run(lambda: self._complete(messages, None, tally, bounds), tally, started).strip()
        if not text:
            raise _timed(
                LLMResponseError(f"empty completion for phrase ({request.purpose})", backend=self.name), tally, started
            )
        return Phrased(text=text, call=self._call(request.purpose, tally, started), cut=tally.cut)

    def stream(self, request: PhraseRequest, sink: TextSink) -> Phrased:
        """`phrase`, handing each piece to `sink` as the server sends it. Closing the stream
        (on an error, the deadline, or an exception from `sink`) stops the server generating."""
        started = time.perf_counter()
        tally = _Tally(notes=["streamed"])
        messages, bounds = self._phrasing(request)
        deadline = started + bounds.timeout
        pieces: list[str] = []
        extra = {"max_tokens": bounds.max_tokens, "temperature": bounds.temperature}
        try:
            chunks = self._client.chat.completions.create(
                model=self.model, messages=_wire(messages), stream=True, timeout=bounds.timeout, extra_body=extra
            )
        except openai.OpenAIError as e:
            raise _timed(
                LLMUnavailable(f"cannot stream from the LLM server: {e}", backend=self.name), tally, started
            ) from e
        with chunks:
            try:
                for chunk in chunks:
                    piece = chunk.choices[0].delta.content if chunk.choices else None
                    if chunk.choices:
                        tally.finished(chunk.choices[0].finish_reason)
                    if chunk.usage is not None:
                        tally.prompt_tokens += chunk.usage.prompt_tokens or 0
                        tally.completion_tokens += chunk.usage.completion_tokens or 0
                    if piece:
                        pieces.append(piece)
                        sink(piece)
                    if time.perf_counter() > deadline:
                        raise LLMUnavailable(f"gave up after {bounds.timeout:.0f} s of streaming", backend=self.name)
            except openai.OpenAIError as e:
                raise _timed(LLMUnavailable(f"the stream broke: {e}", backend=self.name), tally, started) from e
            except LLMUnavailable as e:
                raise _timed(e, tally, started) from None
        if not tally.prompt_tokens:
            # llama.cpp's server sends no usage with a stream: one chunk is one token, and the
            # prompt is estimated from its length
            tally.completion_tokens = len(pieces)
            tally.prompt_tokens = sum(len(m.content) for m in messages) // 4
            tally.notes.append("usage=estimated")
        text = "".join(pieces).strip()
        if not text:
            raise _timed(
                LLMResponseError(f"empty stream for phrase ({request.purpose})", backend=self.name), tally, started
            )
        return Phrased(text=text, call=self._call(request.purpose, tally, started), cut=tally.cut)

    def _phrasing(self, request: PhraseRequest) -> tuple[list[Message], _Bounds]:
        reply = request.mode == "reply"
        template = {"reply": REPLY_INSTRUCTION, "say": PHRASE_INSTRUCTION, "summary": SUMMARY_INSTRUCTION}[request.mode]
        # a flow that asks for a language gets it named; the rest keep the words they were recorded with
        language = LANGUAGE_NAMES.get(request.language or "", "the language the user writes in")
        instruction = template.format(content=request.content, language=language, case=request.case or "")
        messages = _with_system(request.messages, instruction)
        if reply:
            most = float(MAX_REPLY_CHARS)
        elif request.mode == "summary":
            # a summary is no longer than its text (engine/guard.py, summary_problem)
            most = len(request.content) + MAX_EXTRA_CHARS
        else:
            most = max(len(request.content) * MAX_GROWTH, len(request.content) + MAX_EXTRA_CHARS)
        bounds = _Bounds(
            max_tokens=min(self.max_tokens, int(most) // CHARS_PER_TOKEN + 16),
            temperature=REPLY_TEMPERATURE if reply else SAY_TEMPERATURE,
            timeout=min(self.timeout, request.timeout_s) if request.timeout_s else self.timeout,
        )
        return messages, bounds

    def _run(self, call: Callable[[], str], tally: _Tally, started: float) -> str:
        """`call()`, with the time and attempts it took on any LLMError it raises."""
        try:
            return call()
        except LLMError as e:
            raise _timed(e, tally, started) from e.__cause__

    def parse(self, request: ParseRequest) -> Parsed:
        started = time.perf_counter()
        tally = _Tally()
        model = request.schema_model
        schema = model.model_json_schema()
        instruction = PARSE_INSTRUCTION.format(schema=json.dumps(_compact(schema), separators=(",", ":")))
        messages = _with_system(request.messages, instruction)
        # temperature 0: a parse decides a slot or a route, so it must be repeatable
        bounds = _Bounds(
            max_tokens=min(self.max_tokens, PARSE_TOKENS_BASE + PARSE_TOKENS_PER_FIELD * len(model.model_fields)),
            temperature=0.0,
            timeout=min(self.timeout, request.timeout_s) if request.timeout_s else self.timeout,
        )
        fmt, answer = self._negotiate(messages, model, schema, tally, bounds, started)
        tally.fmt = fmt
        value, error = _validate(model, answer)
        if value is None:
            tally.notes.append("repaired")
            repair = [
                *messages,
                Message(role="assistant", content=answer),
                Message(role="user", content=REPAIR_INSTRUCTION.format(error=error)),
            ]
            fixed = _response_format(fmt, model, schema)
            answer = self._run(lambda: self._complete(repair, fixed, tally, bounds), tally, started)
            value, error = _validate(model, answer)
            if value is None:
                raise _timed(
                    LLMResponseError(
                        f"answer for {request.purpose} does not fit {model.__name__} after one repair: {error}",
                        backend=self.name,
                    ),
                    tally,
                    started,
                )
        call = self._call(request.purpose, tally, started)
        if all(getattr(value, name) is None for name in type(value).model_fields):
            return Parsed(value=None, call=call)
        return Parsed(value=value, call=call)

    # -- internals -----------------------------------------------------------------

    def _negotiate(
        self,
        messages: list[Message],
        model: type[BaseModel],
        schema: dict[str, Any],
        tally: _Tally,
        bounds: _Bounds,
        started: float,
    ) -> tuple[str, str]:
        """Ask with the first format the server takes; remember it for later calls."""
        for index in range(self._format, len(FORMATS)):
            fmt = FORMATS[index]
            try:
                answer = self._complete(messages, _response_format(fmt, model, schema), tally, bounds)
            except LLMUnavailable as e:
                if not _format_refused(e) or index == len(FORMATS) - 1:
                    raise _timed(e, tally, started) from e.__cause__
                continue
            self._format = index
            return fmt, answer
        raise AssertionError("unreachable: the last format returns or raises")

    def _complete(
        self,
        messages: Sequence[Message],
        response_format: dict[str, Any] | None,
        tally: _Tally,
        bounds: _Bounds,
    ) -> str:
        """One chat completion, retried on transient failures; usage goes into `tally`."""
        extra: dict[str, Any] = {"response_format": response_format} if response_format else {}
        extra["max_tokens"] = bounds.max_tokens
        extra["temperature"] = bounds.temperature
        for attempt in range(self.retries + 1):
            tally.attempts += 1
            try:
                # extra_body, because llama.cpp's json_object+schema is not in the SDK's types.
                response = self._client.chat.completions.create(
                    model=self.model, messages=_wire(messages), extra_body=extra, timeout=bounds.timeout
                )
            except (openai.APIConnectionError, openai.APIStatusError) as e:  # 429 is a status error
                if isinstance(e.__cause__, UnexpectedLLMCall):
                    raise e.__cause__ from None  # a replayed recording out of step: fail, don't degrade
                transient = not isinstance(e, openai.APIStatusError) or (
                    e.status_code == 429 or (e.status_code >= 500 and not _names_the_format(e))
                )
                # a timeout is the turn's time running out: waiting again would only add to it
                if not transient or attempt == self.retries or isinstance(e, openai.APITimeoutError):
                    raise LLMUnavailable(_describe(e, attempt), backend=self.name) from e
                tally.retries += 1
                time.sleep(self._delay(attempt, e))
                continue
            except openai.OpenAIError as e:
                raise LLMUnavailable(f"OpenAI client error: {e}", backend=self.name) from e
            if response.usage is not None:
                tally.prompt_tokens += response.usage.prompt_tokens or 0
                tally.completion_tokens += response.usage.completion_tokens or 0
            if not response.choices:
                return ""
            tally.finished(response.choices[0].finish_reason)
            return response.choices[0].message.content or ""
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _delay(self, attempt: int, error: openai.OpenAIError) -> float:
        delay = self.backoff * 2.0**attempt
        if isinstance(error, openai.APIStatusError):
            header: str = error.response.headers.get("retry-after", "")
            try:
                asked = float(header)
            except ValueError:
                asked = 0.0
            delay = max(delay, min(max(asked, 0.0), RETRY_AFTER_CAP))
        return delay

    def _call(self, purpose: str, tally: _Tally, started: float) -> LLMCall:
        notes = [f"format={tally.fmt}"] if tally.fmt else []
        if tally.retries:
            notes.append(f"retries={tally.retries}")
        notes += tally.notes
        return LLMCall(
            purpose=purpose,
            backend=self.name,
            model=self.model,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
            latency_ms=(time.perf_counter() - started) * 1000,
            detail=" ".join(notes),
        )


def _with_system(messages: Sequence[Message], instruction: str) -> list[Message]:
    """Append `instruction` to the system message (adding one if absent); others untouched."""
    if messages and messages[0].role == "system":
        head = Message(role="system", content=messages[0].content + instruction)
        return [head, *messages[1:]]
    return [Message(role="system", content=instruction.lstrip()), *messages]


def _wire(messages: Sequence[Message]) -> list[ChatCompletionMessageParam]:
    out: list[ChatCompletionMessageParam] = []
    for m in messages:
        if m.role == "system":
            out.append({"role": "system", "content": m.content})
        elif m.role == "user":
            out.append({"role": "user", "content": m.content})
        else:
            out.append({"role": "assistant", "content": m.content})
    return out


def _response_format(fmt: str, model: type[BaseModel], schema: dict[str, Any]) -> dict[str, Any] | None:
    if fmt == "json_schema":
        # OpenAI wants ^[a-zA-Z0-9_-]{1,64}$ here.
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", model.__name__)[:64] or "answer"
        return {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": False},
        }
    if fmt == "json_object":
        return {"type": "json_object", "schema": schema}
    return None


def _format_refused(error: LLMUnavailable) -> bool:
    """Did the server turn down the request itself (400/422) or keep failing on it (5xx)?"""
    cause = error.__cause__
    if not isinstance(cause, openai.APIStatusError):
        return False
    return cause.status_code in (400, 422) or cause.status_code >= 500


def _compact(schema: Any) -> Any:
    """`schema` without pydantic's titles: they repeat the field names and cost tokens on every call."""
    if isinstance(schema, dict):
        return {k: _compact(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [_compact(v) for v in schema]
    return schema


def _names_the_format(error: openai.APIStatusError) -> bool:
    """A 5xx that blames `response_format` (llama-cpp-python's validation answers 500) is a
    refusal, not a hiccup: retrying it only spends the backoff."""
    return "response_format" in str(error.message)


def _validate(model: type[BaseModel], answer: str) -> tuple[BaseModel | None, str]:
    fenced = _FENCE.match(answer)
    text = fenced.group(1) if fenced else answer.strip()
    try:
        return model.model_validate_json(text), ""
    except ValidationError as e:
        # Short and URL-free: this text goes back to the model in the repair prompt.
        problems = [
            f"{'.'.join(str(part) for part in err['loc']) or 'answer'}: {err['msg']}"
            for err in e.errors(include_url=False)
        ]
        return None, "; ".join(problems)


def _describe(error: openai.OpenAIError, attempt: int) -> str:
    tries = f" after {attempt + 1} attempt(s)" if attempt else ""
    if isinstance(error, openai.APITimeoutError):
        return f"LLM server timed out{tries}"
    if isinstance(error, openai.APIConnectionError):
        return f"cannot reach LLM server{tries}: {error}"
    if isinstance(error, openai.APIStatusError):
        return f"LLM server answered HTTP {error.status_code}{tries}: {error.message}"
    return f"LLM call failed{tries}: {error}"
