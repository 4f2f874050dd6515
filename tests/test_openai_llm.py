"""OpenAILLM against a scriptable OpenAI-compatible HTTP server, through the real client."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest
from pydantic import BaseModel, Field

from engine.authoring.replay import seed_profile
from engine.errors import LLMResponseError, LLMUnavailable, UnrecordedLLMCall
from engine.llm import ParseRequest, PhraseRequest
from engine.llm import openai as openai_llm
from engine.llm.cassette import Cassette, RecordingTransport, ReplayTransport
from engine.llm.openai import OpenAILLM
from engine.models import Message
from engine.runtime import Engine
from engine.store.sql import SqlStore


class RatingAnswer(BaseModel):
    value: int | None = Field(None, ge=1, le=5)


class Contact(BaseModel):
    name: str | None = None
    email: str | None = None


PERSONA = "You are Juno, a cheerful course assistant."
CHAT = [
    Message(role="system", content=PERSONA),
    Message(role="assistant", content="How would you rate the course, 1 to 5?"),
    Message(role="user", content="  honestly a solid four  "),
]


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    # a streamed answer: these pieces as server-sent events, `gap` seconds apart
    pieces: list[str] | None = None
    gap: float = 0.0
    finish: str = "stop"  # why a stream ended, sent in its last chunk


def streamed(*pieces: str, gap: float = 0.0, finish: str = "stop") -> Reply:
    return Reply(pieces=list(pieces), gap=gap, finish=finish)


def ok(content: str | None, prompt: int = 10, completion: int = 5, finish: str = "stop") -> Reply:
    return Reply(
        body={
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": "test-model",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish,
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
    )


def fail(status: int, message: str = "boom", **headers: str) -> Reply:
    return Reply(
        status=status,
        body={"error": {"message": message, "type": "server_error", "code": None}},
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


class FakeServer:
    """Answers each POST with the next queued `Reply` (else `default`); logs request bodies."""

    def __init__(self) -> None:
        self.queue: deque[Reply] = deque()
        self.default: Reply | None = None
        self.log: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.url = ""
        self.sent = 0  # pieces of a stream written before the client went away or it ended

    def push(self, *replies: Reply) -> None:
        self.queue.extend(replies)

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.log.append(body)
            if self.queue:
                return self.queue.popleft()
        return self.default or fail(500, "test server: no canned reply left")

    def formats(self) -> list[str | None]:
        return [(b.get("response_format") or {}).get("type") for b in self.log]


def _handler(fake: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            reply = fake.next_reply(json.loads(self.rfile.read(length)))
            time.sleep(reply.delay)
            if reply.pieces is not None:
                self._stream(reply.pieces, reply.gap, reply.finish)
                return
            payload = json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def _stream(self, pieces: list[str], gap: float, finish: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for piece in pieces:
                    self._chunk({"content": piece}, None)
                    fake.sent += 1
                    time.sleep(gap)
                self._chunk({}, finish)  # as llama.cpp and OpenAI end a stream: an empty delta, and why
                self.wfile.write(b"data: [DONE]\n\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client closed the stream: generation stops here

        def _chunk(self, delta: dict[str, str], finish: str | None) -> None:
            chunk = {
                "id": "chatcmpl-test",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": "test-model",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "INNERLOOP_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    httpd.block_on_close = False  # don't wait for handlers still sleeping past a timeout
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield fake
    httpd.shutdown()
    httpd.server_close()


def make(server: FakeServer, **kwargs: Any) -> OpenAILLM:
    options: dict[str, Any] = {"api_key": "dummy", "backoff": 0.01, "model": "test-model"}
    options.update(kwargs)
    return OpenAILLM(base_url=server.url, **options)


def rating(schema: type[BaseModel] = RatingAnswer) -> ParseRequest:
    return ParseRequest(purpose="ask_rating", schema_model=schema, messages=CHAT)


# -- parse: format negotiation ---------------------------------------------------------


def test_json_schema_answered(server: FakeServer) -> None:
    server.push(ok('{"value": 4}', prompt=30, completion=4))
    parsed = make(server).parse(rating())
    assert parsed.value == RatingAnswer(value=4)
    assert parsed.call is not None
    assert parsed.call.backend == "openai"
    assert parsed.call.model == "test-model"
    assert parsed.call.purpose == "ask_rating"
    assert (parsed.call.prompt_tokens, parsed.call.completion_tokens) == (30, 4)
    assert parsed.call.detail == "format=json_schema"
    assert parsed.call.latency_ms > 0

    sent = server.log[0]
    assert sent["model"] == "test-model"
    fmt = sent["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "RatingAnswer"
    assert fmt["json_schema"]["strict"] is False
    assert fmt["json_schema"]["schema"] == RatingAnswer.model_json_schema()
    assert sent["temperature"] == 0  # parses decide slots and routes: repeatable
    # Persona kept as the head of the system message; other messages verbatim.
    assert sent["messages"][0]["role"] == "system"
    assert sent["messages"][0]["content"].startswith(PERSONA)
    assert sent["messages"][1:] == [m.model_dump() for m in CHAT[1:]]


def test_llamacpp_500_falls_back_to_json_object_and_remembers(server: FakeServer) -> None:
    llm = make(server, retries=1)
    server.push(fail(500), fail(500), ok('{"value": 5}'))
    parsed = llm.parse(rating())
    assert parsed.value == RatingAnswer(value=5)
    assert parsed.call is not None
    assert parsed.call.detail == "format=json_object retries=1"
    assert server.formats() == ["json_schema", "json_schema", "json_object"]
    assert server.log[2]["response_format"]["schema"] == RatingAnswer.model_json_schema()
    # a one-field answer is a few tokens: the bound leaves room for the JSON around it
    assert all(body["max_tokens"] == 88 and body["temperature"] == 0.0 for body in server.log)

    server.push(ok('{"value": 2}'))
    again = llm.parse(rating())
    assert again.value == RatingAnswer(value=2)
    assert server.formats()[3:] == ["json_object"]  # straight to the accepted format
    assert again.call is not None and again.call.detail == "format=json_object"


def test_a_500_that_blames_the_format_is_not_retried(server: FakeServer) -> None:
    llm = make(server, retries=3)
    server.push(fail(500, "Input should be 'text' or 'json_object' (response_format.type)"), ok('{"value": 4}'))
    parsed = llm.parse(rating())
    assert parsed.value == RatingAnswer(value=4)
    assert server.formats() == ["json_schema", "json_object"]
    assert parsed.call is not None and "retries" not in parsed.call.detail


def test_400_on_structured_formats_falls_back_to_prompt_only(server: FakeServer) -> None:
    server.push(
        fail(400, "response_format not supported"),
        fail(422, "unknown field schema"),
        ok('```json\n{"value": 2}\n```'),
    )
    parsed = make(server).parse(rating())
    assert parsed.value == RatingAnswer(value=2)
    assert server.formats() == ["json_schema", "json_object", None]
    assert "response_format" not in server.log[2]
    prompt = server.log[2]["messages"][0]["content"]
    assert '"maximum":5' in prompt and '"title"' not in prompt  # the schema, compact, in the prompt
    assert parsed.call is not None and parsed.call.detail == "format=prompt"


def test_5xx_on_every_format_is_unavailable(server: FakeServer) -> None:
    server.default = fail(503, "overloaded")
    with pytest.raises(LLMUnavailable, match="503"):
        make(server, retries=1).parse(rating())
    assert server.formats() == ["json_schema"] * 2 + ["json_object"] * 2 + [None] * 2


def test_400_on_prompt_only_is_unavailable(server: FakeServer) -> None:
    server.push(fail(400), fail(400), fail(400, "context length exceeded"))
    with pytest.raises(LLMUnavailable, match="context length exceeded"):
        make(server).parse(rating())
    assert len(server.log) == 3


# -- parse: validation and repair ------------------------------------------------------


def test_malformed_json_is_repaired(server: FakeServer) -> None:
    server.push(ok("I think it's a 3", 20, 6), ok('{"value": 3}', 25, 4))
    parsed = make(server).parse(rating())
    assert parsed.value == RatingAnswer(value=3)
    assert parsed.call is not None
    assert (parsed.call.prompt_tokens, parsed.call.completion_tokens) == (45, 10)
    assert parsed.call.detail == "format=json_schema repaired"
    repair = server.log[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "I think it's a 3"}
    assert repair[-1]["role"] == "user" and "JSON" in repair[-1]["content"]
    assert server.log[1]["response_format"]["type"] == "json_schema"


@pytest.mark.parametrize("bad", ['{"value": 7}', '{"value": "lots"}', "[1, 2]"])
def test_schema_violation_is_repaired(server: FakeServer, bad: str) -> None:
    server.push(ok(bad), ok('{"value": 4}'))
    parsed = make(server).parse(rating())
    assert parsed.value == RatingAnswer(value=4)
    assert "not valid" in server.log[1]["messages"][-1]["content"]
    assert "https://" not in server.log[1]["messages"][-1]["content"]


def test_still_invalid_after_repair_raises(server: FakeServer) -> None:
    server.push(ok('{"value": 7}'), ok('{"value": 9}'))
    with pytest.raises(LLMResponseError, match="RatingAnswer"):
        make(server).parse(rating())
    assert len(server.log) == 2


def test_all_null_means_not_given(server: FakeServer) -> None:
    server.push(ok('{"value": null}'), ok('{"name": null, "email": null}'))
    llm = make(server)
    parsed = llm.parse(rating())
    assert parsed.value is None
    assert parsed.call is not None and parsed.call.prompt_tokens == 10
    assert llm.parse(rating(Contact)).value is None


def test_partial_answer_is_kept(server: FakeServer) -> None:
    server.push(ok('{"name": "Ada", "email": null}'))
    assert make(server).parse(rating(Contact)).value == Contact(name="Ada")


# -- transport -------------------------------------------------------------------------


def test_429_then_success_sums_usage_and_notes_retries(server: FakeServer) -> None:
    server.push(fail(429, "slow down"), ok("not json", 7, 3), ok('{"value": 1}', 11, 4))
    parsed = make(server).parse(rating())
    assert parsed.value == RatingAnswer(value=1)
    assert parsed.call is not None
    assert (parsed.call.prompt_tokens, parsed.call.completion_tokens) == (18, 7)
    assert parsed.call.detail == "format=json_schema retries=1 repaired"


def test_retry_after_is_honoured_but_capped(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openai_llm, "RETRY_AFTER_CAP", 0.2)
    server.push(fail(429, retry_after="100"), ok("Hi!"))
    started = time.perf_counter()
    phrased = make(server).phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))
    elapsed = time.perf_counter() - started
    assert phrased.text == "Hi!"
    assert 0.2 <= elapsed < 2.0
    assert phrased.call is not None and phrased.call.detail == "retries=1"


def test_persistent_503_is_unavailable(server: FakeServer) -> None:
    server.default = fail(503, "overloaded")
    request = PhraseRequest(purpose="greet", content="Hi", messages=CHAT)
    with pytest.raises(LLMUnavailable, match="503") as caught:
        make(server, retries=2).phrase(request)
    assert caught.value.backend == "openai"
    assert caught.value.__cause__ is not None
    assert len(server.log) == 3


def test_a_stall_past_the_timeout_is_not_waited_for_again(server: FakeServer) -> None:
    """The timeout is the turn's time for the model running out: a retry would only add to it.
    The failure carries what it cost, for the trace."""
    server.default = Reply(delay=1.0, body=ok("too late").body)
    started = time.perf_counter()
    with pytest.raises(LLMUnavailable, match="timed out") as caught:
        make(server, timeout=0.3, retries=1).phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))
    assert len(server.log) == 1
    assert time.perf_counter() - started < 1.0
    assert 250 < caught.value.elapsed_ms < 1000 and caught.value.attempts == 1


def test_a_requests_timeout_is_what_is_left_of_the_turn(server: FakeServer) -> None:
    server.default = Reply(delay=1.0, body=ok("too late").body)
    started = time.perf_counter()
    request = PhraseRequest(purpose="greet", content="Hi", messages=CHAT, timeout_s=0.3)
    with pytest.raises(LLMUnavailable, match="timed out"):
        make(server, timeout=30).phrase(request)
    assert time.perf_counter() - started < 1.0


def test_auth_error_is_unavailable_at_once(server: FakeServer) -> None:
    server.push(fail(401, "Incorrect API key provided"))
    with pytest.raises(LLMUnavailable, match="Incorrect API key provided"):
        make(server).phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))
    assert len(server.log) == 1


def test_unreachable_server_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    llm = OpenAILLM(base_url=f"http://127.0.0.1:{port}/v1", api_key="x", retries=1, backoff=0.01)
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        llm.phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))


# -- phrase ----------------------------------------------------------------------------


def test_phrase_returns_text_and_usage(server: FakeServer) -> None:
    server.push(ok("  Hey! How would you rate it, 1 to 5?  ", prompt=40, completion=12))
    content = "Please rate the course from 1 to 5."
    request = PhraseRequest(purpose="ask_rating", content=content, messages=CHAT)
    phrased = make(server).phrase(request)
    assert phrased.text == "Hey! How would you rate it, 1 to 5?"
    assert phrased.call is not None
    assert (phrased.call.prompt_tokens, phrased.call.completion_tokens) == (40, 12)
    assert phrased.call.purpose == "ask_rating"
    assert phrased.call.detail == ""
    sent = server.log[0]
    assert "response_format" not in sent
    system = sent["messages"][0]["content"]
    assert system.startswith(PERSONA) and content in system
    assert sent["messages"][1:] == [m.model_dump() for m in CHAT[1:]]


def test_a_summary_asks_for_the_text_for_the_users_case(server: FakeServer) -> None:
    server.push(ok("Update the app in the Play Store."))
    text = "App crashes\n\n1. Update the app in the Play Store.\n2. Restart the phone."
    request = PhraseRequest(
        purpose="answer", content=text, messages=CHAT, mode="summary", case="The user wrote: it crashes on android"
    )
    assert make(server).phrase(request).text == "Update the app in the Play Store."
    system = server.log[0]["messages"][0]["content"]
    assert system.startswith(PERSONA)
    assert "a short summary of the help text below for the case the user described" in system
    assert "<case>\nThe user wrote: it crashes on android\n</case>" in system and f"<text>\n{text}\n</text>" in system
    # no longer than the text it summarises (engine/guard.py, summary_problem)
    assert server.log[0]["max_tokens"] == (len(text) + openai_llm.MAX_EXTRA_CHARS) // openai_llm.CHARS_PER_TOKEN + 16


def test_phrase_without_system_message_gets_one(server: FakeServer) -> None:
    server.push(ok("Hello"))
    make(server).phrase(PhraseRequest(purpose="greet", content="Hello", messages=CHAT[1:]))
    roles = [m["role"] for m in server.log[0]["messages"]]
    assert roles == ["system", "assistant", "user"]


def test_a_phrasing_stopped_at_the_token_limit_says_so(server: FakeServer) -> None:
    request = PhraseRequest(purpose="reply:main", content="Hi", messages=CHAT, mode="reply")
    server.push(ok("It was a dark and stormy", finish="length"), ok("Done."))
    cut, whole = make(server).phrase(request), make(server).phrase(request)
    assert cut.cut and not whole.cut
    assert cut.call is not None and "stopped at max_tokens" in cut.call.detail
    server.push(streamed("It was", " a dark", " and", finish="length"), streamed("Done", "."))
    cut, whole = make(server).stream(request, [].append), make(server).stream(request, [].append)
    assert (cut.text, cut.cut, whole.text, whole.cut) == ("It was a dark and", True, "Done.", False)


def test_empty_phrase_is_a_response_error(server: FakeServer) -> None:
    server.push(ok("   "))
    with pytest.raises(LLMResponseError):
        make(server).phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))


# -- construction ----------------------------------------------------------------------


def test_missing_api_key_is_unavailable() -> None:
    with pytest.raises(LLMUnavailable, match="OPENAI_API_KEY"):
        OpenAILLM(base_url="http://127.0.0.1:9/v1")


def test_environment_defaults(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("INNERLOOP_MODEL", "qwen2.5-0.5b")
    llm = OpenAILLM(backoff=0.01)
    assert (llm.name, llm.model) == ("openai", "qwen2.5-0.5b")
    server.push(ok("Hi"))
    llm.phrase(PhraseRequest(purpose="greet", content="Hi", messages=CHAT))
    assert server.log[0]["model"] == "qwen2.5-0.5b"


def test_default_model() -> None:
    assert OpenAILLM(api_key="x").model == "gpt-4o-mini"


# -- the backend inside real turns ------------------------------------------------------


def test_engine_turns_through_the_openai_backend(server: FakeServer, tmp_path: Path) -> None:
    """A feedback conversation on the real client: the model phrases each question and parses
    only the answer the rules could not read; every call is in the turn trace with its usage."""
    store = SqlStore(str(tmp_path / "o.db"))
    seed_profile(store, "language-buddy", "max", {"name": "Max", "level": "B1"})
    engine = Engine(store, make(server))
    server.push(ok("Hallo Max! Ich kann dein Feedback aufnehmen.", prompt=40, completion=3))
    r = engine.turn("language-buddy", "max", "Hallo!")  # no cue word: no classification, small talk
    assert (r.flow, r.reply) == ("main", "Hallo Max! Ich kann dein Feedback aufnehmen.")
    server.push(ok('{"value": "feedback", "evidence": "die App bewerten"}'))
    r = engine.turn("language-buddy", "max", "Ich will die App bewerten")  # no pattern: the model reads it
    assert (r.flow, r.reply) == ("main", "Do you want to give feedback about the app?")  # asked back, not acted on
    server.push(ok("Wie würdest du die App bewerten, 1 bis 5?"))
    r = engine.turn("language-buddy", "max", "ja")
    assert (r.flow, r.state) == ("feedback", "rating")
    assert r.reply == "Wie würdest du die App bewerten, 1 bis 5?"
    server.push(ok("Super! Was gefällt dir am meisten, oder was könnte noch besser werden?"))
    r = engine.turn("language-buddy", "max", "vier Sterne, würde ich sagen")  # the rules read "vier": no parse
    assert (r.state, r.slots["rating"]) == ("details", 4)
    assert r.trace is not None and [c.purpose for c in r.trace.llm_calls] == ["ask:feedback.details"]
    assert r.reply == "Super! Was gefällt dir am meisten, oder was könnte noch besser werden?"
    server.push(ok("Worum geht es: Fehler, Geschwindigkeit, Inhalte, Bedienung oder anderes?"))
    before = len(server.log)
    r = engine.turn("language-buddy", "max", "die App macht mir echt Spaß")  # free text: the rules take it
    assert len(server.log) - before == 1 and r.state == "category"  # one call: the phrase, no parse
    traces = store.traces(r.session_id or "")
    assert traces[0].llm_calls[0].prompt_tokens == 40
    assert all(call.backend == "openai" for t in traces for call in t.llm_calls)


# -- streaming ---------------------------------------------------------------------------


def test_a_stream_hands_each_piece_over_in_order(server: FakeServer) -> None:
    server.push(streamed("Hello", " there", ", Max", "!"))
    got: list[str] = []
    request = PhraseRequest(purpose="reply:main", content="Hi", messages=CHAT, mode="reply")
    out = make(server).stream(request, got.append)
    assert got == ["Hello", " there", ", Max", "!"] and out.text == "Hello there, Max!"
    assert server.log[0]["stream"] is True and server.log[0]["temperature"] == 0.7
    assert out.call is not None and "streamed" in out.call.detail and out.call.completion_tokens == 4


def test_an_exception_from_the_sink_closes_the_stream_and_the_server_stops(server: FakeServer) -> None:
    server.push(streamed(*[f" w{i}" for i in range(60)], gap=0.02))

    def reader_leaves(piece: str) -> None:
        if piece == " w2":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        make(server).stream(PhraseRequest(purpose="reply:main", content="Hi", messages=CHAT), reader_leaves)
    time.sleep(0.3)
    assert server.sent < 30  # the server could not write much more once the client had closed


def test_a_stream_past_the_turns_time_is_abandoned(server: FakeServer) -> None:
    server.push(streamed(*[f" w{i}" for i in range(40)], gap=0.05))
    request = PhraseRequest(purpose="reply:main", content="Hi", messages=CHAT, timeout_s=0.3)
    with pytest.raises(LLMUnavailable, match="gave up") as caught:
        make(server).stream(request, lambda _: None)
    assert 250 < caught.value.elapsed_ms < 1500


# -- recorded calls ------------------------------------------------------------------------


def test_a_recording_replays_answers_streams_and_timeouts_and_refuses_anything_else(server: FakeServer) -> None:
    cassette = Cassette(model="test-model")
    client = httpx2.Client(transport=RecordingTransport(cassette))
    live = make(server, http_client=client, formats={}, timeout=0.3, retries=0)
    hello = PhraseRequest(purpose="greet", content="Hi", messages=CHAT)
    server.push(ok("Hello!"), streamed("Hi", " there"), Reply(delay=1.0, body=ok("late").body))
    assert live.phrase(hello).text == "Hello!"
    pieces: list[str] = []
    assert live.stream(hello.model_copy(update={"purpose": "reply"}), pieces.append).text == "Hi there"
    with pytest.raises(LLMUnavailable, match="timed out"):
        live.phrase(hello.model_copy(update={"content": "Bye"}))
    assert [x.status for x in cassette.exchanges] == [200, 200, 0]

    replayed = OpenAILLM(
        "test-model",
        base_url="http://recorded.invalid/v1",
        api_key="recorded",
        http_client=httpx2.Client(transport=ReplayTransport(cassette)),
        formats={},
        retries=0,
    )
    assert replayed.phrase(hello).text == "Hello!"
    again: list[str] = []
    assert replayed.stream(hello.model_copy(update={"purpose": "reply"}), again.append).text == "Hi there"
    assert again == pieces
    with pytest.raises(LLMUnavailable, match="timed out"):
        replayed.phrase(hello.model_copy(update={"content": "Bye"}))
    with pytest.raises(UnrecordedLLMCall, match="holds no answer"):
        replayed.phrase(hello)  # asked once, answered once: a second identical request was never made
