"""Recorded LLM calls: every HTTP exchange with an OpenAI-compatible server, saved and replayed.

Recording sits under the openai client, at the HTTP transport of `httpx2` (the httpx the
client is built on), as httpx's MockTransport does, so a replay runs the whole `OpenAILLM`
path: the SDK's request building and response parsing, format negotiation, retries, repair
and token accounting, against what a real model once answered. A request is known by its body (model, messages, format,
temperature); identical requests are answered in the order they were recorded. A replay
that meets a request nobody recorded raises `UnrecordedLLMCall`, which the adapter and the
voice let through: a recording out of step with the engine must fail, not degrade.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict, deque
from pathlib import Path

import httpx2
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from engine.errors import DataFileError, UnrecordedLLMCall

FORMAT = "innerloop.llm-cassette/1"
# the status of an exchange whose answer never came (the client timed out)
TIMED_OUT = 0


class Exchange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str
    request: JsonValue
    status: int
    response: JsonValue


class Cassette(BaseModel):
    """The exchanges of one run (one replay script), in the order they happened."""

    model_config = ConfigDict(extra="forbid")

    format: str = FORMAT
    model: str
    exchanges: list[Exchange] = Field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Cassette:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise DataFileError(str(path), [f"cannot read this LLM recording: {e.strerror}"]) from e
        try:
            cassette = cls.model_validate_json(text)
        except ValidationError as e:
            problems = [f"{'.'.join(map(str, x['loc'])) or 'file'}: {x['msg']}" for x in e.errors()[:5]]
            raise DataFileError(str(path), [f"not an LLM recording ({FORMAT})", *problems]) from e
        if cassette.format != FORMAT:
            raise DataFileError(str(path), [f"recording format {cassette.format!r}, expected {FORMAT!r}"])
        return cassette

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)  # a run killed mid-save leaves the old recording, never half a file


def request_key(body: bytes) -> tuple[str, JsonValue]:
    """The request's identity (a hash of its canonical JSON body) and the body itself."""
    try:
        data: JsonValue = json.loads(body or b"null")
    except ValueError:
        data = body.decode("utf-8", "replace")
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:24], data


def _response(status: int, payload: JsonValue, request: httpx2.Request) -> httpx2.Response:
    if isinstance(payload, str):  # a streamed answer, kept as the server-sent events it was
        return httpx2.Response(status, content=payload.encode(), headers={"content-type": "text/event-stream"})
    return httpx2.Response(status, json=payload, request=request)


class RecordingTransport(httpx2.BaseTransport):
    """Passes every request to the real server and appends the exchange to `cassette`.

    With `known` (an earlier recording of the same script), a request it holds is answered
    from it and kept, without asking the server again: a script whose end changed is
    re-recorded at the cost of its new calls only. The new recording holds exactly the
    exchanges this run made, so an answer no longer asked for is dropped."""

    def __init__(
        self, cassette: Cassette, inner: httpx2.BaseTransport | None = None, known: Cassette | None = None
    ) -> None:
        self.cassette = cassette
        self._inner = inner or httpx2.HTTPTransport()
        self._known: dict[str, deque[Exchange]] = defaultdict(deque)
        for x in known.exchanges if known is not None else []:
            self._known[x.key].append(x)
        self.reused = 0

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        key, body = request_key(request.content)
        earlier = self._known.get(key)
        if earlier:
            x = earlier.popleft()
            self.cassette.exchanges.append(x)
            self.reused += 1
            if x.status == TIMED_OUT:
                raise httpx2.ReadTimeout("timed out when it was recorded", request=request)
            return _response(x.status, x.response, request)
        try:
            response = self._inner.handle_request(request)
            raw = response.read()
        except httpx2.TimeoutException:
            # a replay must time out here too, or it would take another path than the run did
            self.cassette.exchanges.append(Exchange(key=key, request=body, status=TIMED_OUT, response=None))
            raise
        try:
            payload: JsonValue = json.loads(raw or b"null")
        except ValueError:
            payload = raw.decode("utf-8", "replace")
        self.cassette.exchanges.append(Exchange(key=key, request=body, status=response.status_code, response=payload))
        # `raw` is already decoded: the server's content-encoding no longer applies
        kept = {k: v for k, v in response.headers.items() if k.lower() in ("content-type", "retry-after")}
        return httpx2.Response(response.status_code, headers=kept, content=raw, request=request)

    def close(self) -> None:
        self._inner.close()


class ReplayTransport(httpx2.BaseTransport):
    """Answers each request with its recorded response; `UnrecordedLLMCall` for any other."""

    def __init__(self, cassette: Cassette, source: str = "recording") -> None:
        self._source = source
        self._answers: dict[str, deque[Exchange]] = defaultdict(deque)
        for x in cassette.exchanges:
            self._answers[x.key].append(x)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        key, body = request_key(request.content)
        queue = self._answers.get(key)
        if not queue:
            raise UnrecordedLLMCall(f"{self._source} holds no answer to this request: {_gist(body)}", backend="openai")
        x = queue.popleft()
        if x.status == TIMED_OUT:
            raise httpx2.ReadTimeout("timed out when it was recorded", request=request)
        return _response(x.status, x.response, request)

    @property
    def unused(self) -> int:
        """Recorded answers nobody asked for (a run that took a shorter path than the recording)."""
        return sum(len(q) for q in self._answers.values())


def _gist(body: JsonValue) -> str:
    """The last user message of a chat request, to say which call was not recorded."""
    if isinstance(body, dict):
        messages = body.get("messages")
        if isinstance(messages, list):
            users = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
            if users:
                return f"the model asked about {str(users[-1])[:80]!r}"
    return "a request of another shape"
