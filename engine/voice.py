"""The turn's only way to a language model: phrase a bot turn or parse a user turn.

`Voice` spends a per-turn call budget, logs every call (or failure) in the turn's trace,
and degrades to the template text or "not parsed" when the budget is spent or the model
fails, so a flaky model can slow a conversation down but never break it. Prompts are
built lazily: the offline rules backend never builds one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel

from engine.errors import LLMError, UnexpectedLLMCall
from engine.guard import (
    LANGUAGE_NAMES,
    MAX_REPLY_CHARS,
    detect_language,
    parse_problem,
    phrase_problem,
    sentence_end,
    summary_problem,
    unmark,
    whole_sentences,
)
from engine.llm import LLM, ParseRequest, PhraseRequest
from engine.llm.port import StreamingLLM, TextSink
from engine.models import LLMCall, Message
from engine.trace import TraceDraft

M = TypeVar("M", bound=BaseModel)
Prompt = Callable[[], list[Message]]


# A flow's text shorter than this, and asking nothing, is said as written.
MIN_PHRASE_CHARS = 30
ASKING = ("ask:", "reprompt:")
# The model's share of one turn's wall time. Past it the turn answers from its templates: a
# slow model may make a turn slower, never endless.
TURN_LLM_SECONDS = 45.0
# Too little time left to wait for a model: the template is said at once.
MIN_CALL_SECONDS = 2.0
# A streamed main reply is held back until this much of it is in, so that its language can
# be checked before the user sees any of it.
STREAM_HOLD_CHARS = 60
# Past this much of a streamed reply, it is passed on a whole sentence at a time: one more
# sentence fits in what is left before MAX_REPLY_CHARS, and one that does not is never begun.
STREAM_SENTENCES_FROM = MAX_REPLY_CHARS - 200


class _Enough(Exception):
    """Raised from a stream's sink to end the generation: the guard has seen enough."""


class Voice:
    def __init__(self, llm: LLM, trace: TraceDraft, *, seconds: float = TURN_LLM_SECONDS) -> None:
        self.llm = llm
        self.budget = 0
        self.ceiling: int | None = None  # set once the turn's calls are counted down for good
        self.seconds = seconds
        # where a main reply goes while the model writes it (the chat, an embedding program)
        self.sink: TextSink | None = None
        self._spent_s = 0.0
        self._trace = trace
        self._calls = trace.llm_calls
        # the offline rules backend phrases nothing and parses nothing: asked on every phrasing
        # of a turn, so answered once (a turn's backend never changes)
        self.offline = llm.name == "rules"

    def phrase(
        self, content: str, purpose: str, prompt: Prompt, *, reply: bool = False, language: str | None = None
    ) -> Said:
        """`content` in the model's words; the content itself offline, when that fails, or when
        the phrasing lost what the content says (engine/guard.py; the trace says why).
        `language`: asked in that language (one the guard knows), not the user's.

        A main reply (`reply`) streams to `sink` when one is set and the backend can: it is
        checked on the fly, and `Said.shown` says the sink has already had it."""
        said = unmark(content)
        if not reply and len(said) < MIN_PHRASE_CHARS and "?" not in said and not purpose.startswith(ASKING):
            return Said(said)  # "Correct!": nothing a rewording could add is worth a call
        left = self._spend(purpose)
        if left is None:
            return Said(said)
        messages = prompt()
        mode: Literal["say", "reply"] = "reply" if reply else "say"
        if language not in LANGUAGE_NAMES:
            language = None  # a language the guard cannot check is not asked for
        request = PhraseRequest(
            purpose=purpose, content=said, messages=messages, mode=mode, timeout_s=left, language=language
        )
        if reply and self.sink is not None and isinstance(self.llm, StreamingLLM):
            return self._stream(self.llm, request, self.sink, said)
        try:
            out = self.llm.phrase(request)
        except UnexpectedLLMCall:
            raise  # a scripted test is out of step with the engine: say so, don't paper over it
        except LLMError as e:
            self._failed(purpose, e)
            return Said(said)
        self._log(out.call)
        text = out.text
        if reply and (out.cut or len(text) > MAX_REPLY_CHARS):
            # the model's own reply, too long or stopped at its token limit: its whole sentences stand
            text = whole_sentences(text)
        elif out.cut:
            self._trace.notice("phrase_rejected", detail=f"{purpose}: the phrasing stopped at the token limit")
            return Said(said)
        problem = phrase_problem(content, text, _user_language(messages), facts=not reply, language=language)
        if problem is not None:
            self._trace.notice("phrase_rejected", detail=f"{purpose}: {problem}")
            return Said(said)
        return Said(text)

    def summarise(
        self, source: str, case: str, fallback: str, purpose: str, prompt: Prompt, *, language: str | None = None
    ) -> Said:
        """A summary of `source` (a help text) for the user's `case` (what they described, their
        answers), in the model's words; `fallback` offline, when that fails, or when the summary
        lost or added a fact (engine/guard.py, `summary_problem`; the trace says why)."""
        if not case.strip():
            return self.phrase(fallback, purpose, prompt, language=language)
        left = self._spend(purpose)
        if left is None:
            return Said(unmark(fallback))
        messages = prompt()
        if language not in LANGUAGE_NAMES:
            language = None
        request = PhraseRequest(
            purpose=purpose,
            content=unmark(source),
            messages=messages,
            mode="summary",
            case=case,
            timeout_s=left,
            language=language,
        )
        try:
            out = self.llm.phrase(request)
        except UnexpectedLLMCall:
            raise
        except LLMError as e:
            self._failed(purpose, e)
            return Said(unmark(fallback))
        self._log(out.call)
        if out.cut:  # a summary stopped mid-way may have lost the step the user needs
            self._trace.notice("phrase_rejected", detail=f"{purpose}: the summary stopped at the token limit")
            return Said(unmark(fallback))
        persona = "\n".join(m.content for m in messages if m.role == "system")
        problem = summary_problem(
            source, out.text, case, user_text=_user_language(messages), known=persona, language=language
        )
        if problem is not None:
            self._trace.notice("phrase_rejected", detail=f"{purpose}: {problem}")
            return Said(unmark(fallback))
        return Said(out.text)

    def _stream(self, llm: StreamingLLM, request: PhraseRequest, sink: TextSink, fallback: str) -> Said:
        """A main reply as it is generated: held until its first words pass the guard (so a
        reply in the wrong language is never half shown), then passed on piece by piece; near
        the most a reply may be, passed on a whole sentence at a time, so that a reply the
        length cap or the model's token limit ends never stops mid-sentence on screen."""
        user = _user_language(request.messages)
        held: list[str] = []  # the first words, until the guard has seen enough of them
        shown: list[str] = []
        tail: list[str] = []  # past STREAM_SENTENCES_FROM: the sentence being written, until it ends
        problems: list[str] = []  # why the held first words were refused
        pieces = 0
        size = 0  # characters shown
        started = time.perf_counter()

        def show(text: str) -> None:
            nonlocal size
            shown.append(text)
            size += len(text)
            sink(text)

        def take(piece: str) -> None:
            nonlocal pieces
            pieces += 1
            if shown:
                if not tail and size + len(piece) <= STREAM_SENTENCES_FROM:
                    show(piece)
                    return
                tail.append(piece)
                rest = "".join(tail)
                end = sentence_end(rest)
                if end and size + end <= MAX_REPLY_CHARS:
                    show(rest[:end])
                    rest = rest[end:]
                    tail[:] = [rest] if rest else []
                if size + len(rest) > MAX_REPLY_CHARS:
                    raise _Enough  # the sentence under way would not fit: it is never shown
                return
            held.append(piece)
            text = "".join(held).lstrip()
            if len(text) < STREAM_HOLD_CHARS:
                return
            refused = phrase_problem(fallback, text, user, facts=False)
            if refused is not None:
                problems.append(refused)
                raise _Enough  # nothing shown yet: the template stands in
            show(text)

        def ending(cut: bool) -> Said:
            """What was shown, with the sentence under way shown too unless the model was cut
            off in it; an ellipsis when what was shown itself stops mid-sentence."""
            if tail and not cut:
                show("".join(tail))
            text = "".join(shown).rstrip()
            if cut and sentence_end(text) < len(text):
                show("…")
            return Said("".join(shown).strip(), shown=True)

        try:
            out = llm.stream(request, take)
        except _Enough:
            # the backend never returned, so the call is logged here: its time counts against
            # the turn's budget and the trace shows a generation the guard ended
            why = f"refused: {problems[0]}" if problems else f"cut at {MAX_REPLY_CHARS} characters"
            self._log(
                LLMCall(
                    purpose=request.purpose,
                    backend=llm.name,
                    model=llm.model,
                    # a stopped stream reports no usage: one piece is about one token, and the
                    # prompt is estimated from its length as the openai adapter does
                    prompt_tokens=sum(len(m.content) for m in request.messages) // 4,
                    completion_tokens=pieces,
                    latency_ms=(time.perf_counter() - started) * 1000,
                    detail=f"stream stopped early ({why}); usage=estimated",
                )
            )
            if shown:
                return ending(cut=True)
            self._trace.notice("phrase_rejected", detail=f"{request.purpose}: {problems[0]}")
            return Said(fallback)
        except UnexpectedLLMCall:
            raise
        except LLMError as e:
            self._failed(request.purpose, e)
            # what the user saw stands; the model stopped early
            return ending(cut=True) if shown else Said(fallback)
        self._log(out.call)
        if shown:
            return ending(out.cut)
        text = "".join(held).strip()
        problem = problems[0] if problems else phrase_problem(fallback, text, user, facts=False)
        if problem is not None:
            self._trace.notice("phrase_rejected", detail=f"{request.purpose}: {problem}")
            return Said(fallback)
        # short enough never to have passed the hold: not shown yet
        return Said(whole_sentences(text) if out.cut else text)

    def parse(self, schema: type[M], purpose: str, prompt: Prompt) -> M | None:
        """The user's last message read into `schema`; None offline, on failure or "not given"."""
        left = self._spend(purpose)
        if left is None:
            return None
        messages = prompt()
        try:
            request = ParseRequest(purpose=purpose, schema_model=schema, messages=messages, timeout_s=left)
            out = self.llm.parse(request)
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

    def _spend(self, purpose: str) -> float | None:
        """The seconds a call for `purpose` may take; None when no call may be made."""
        if self.offline:
            return None
        if self.budget <= 0:
            self._trace.notice("budget", detail=f"no LLM call left this turn for {purpose}: template used")
            return None
        left = self.seconds - self._spent_s
        if left < MIN_CALL_SECONDS:
            self._trace.notice(
                "budget", detail=f"the turn's {self.seconds:.0f} s for the model are spent: template used for {purpose}"
            )
            return None
        self.budget -= 1
        return left

    def _log(self, call: LLMCall | None) -> None:
        if call is not None:
            self._spent_s += call.latency_ms / 1000
            self._calls.append(call)

    def _failed(self, purpose: str, e: LLMError) -> None:
        self._spent_s += e.elapsed_ms / 1000
        attempts = f" ({e.attempts} attempts)" if e.attempts > 1 else ""
        self._calls.append(
            LLMCall(
                purpose=purpose,
                backend=self.llm.name,
                model=self.llm.model,
                ok=False,
                prompt_tokens=e.tokens[0],
                completion_tokens=e.tokens[1],
                latency_ms=e.elapsed_ms,
                detail=f"{e}{attempts}",
            )
        )


@dataclass(frozen=True)
class Said:
    """A phrasing's text, and whether the turn's sink has already shown it (streamed)."""

    text: str
    shown: bool = False


def _user_text(messages: list[Message]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


# The user's last message tells their language only from four words on: "ok", "tell me a story"
# say nothing, and a reply in another language to them went through unchecked. The few messages
# before it then tell it; the last one alone decides whenever it can (a user may switch).
LANGUAGE_LOOKBACK = 3


def _user_language(messages: list[Message]) -> str:
    """The user's words a phrasing's language is checked against."""
    said = [m.content for m in reversed(messages) if m.role == "user"][:LANGUAGE_LOOKBACK]
    if not said or detect_language(said[0]) is not None:
        return said[0] if said else ""
    return "\n".join(reversed(said))


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
