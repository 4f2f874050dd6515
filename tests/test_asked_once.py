"""What the engine asks of a flow once a turn (issue 22's walk, branch h-walkfit): a parser a question
picks from the slots is picked once for a plain answer (engine/reading.py `plain_answer` hands it to
engine/answering.py), and an answer is validated alone, the other slots' validators having run on load.
The flow's own calls are counted; the values and refusals are those a whole validation gives."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Literal

import pytest
from pydantic import field_validator, model_validator

from engine import Ask, Engine, Final, Flow, MemoryStore, Registry, Slots, T
from engine.bot import Bot
from engine.clock import pinned_clock
from engine.extract import Parser, choice, free_text

CALLS: Counter[str] = Counter()


class Order(Slots):
    note: str | None = None
    size: Literal["small", "large"] | None = None

    @field_validator("note")
    @classmethod
    def _note(cls, value: str | None) -> str | None:
        CALLS["note validated"] += 1
        return value

    @model_validator(mode="after")
    def _fits(self) -> Order:
        if self.note == "tiny kitchen" and self.size == "large":
            raise ValueError("a large one does not fit a tiny kitchen")
        return self


SIZES = choice({"small": [], "large": []})


def _size_parser(_s: Order) -> Parser:
    CALLS["size parser picked"] += 1
    return SIZES


ORDER = Flow(
    name="order",
    slots=Order,
    states=[
        Ask("note", slot="note", say="Any note?", parse=free_text(), initial=True),
        Ask("size", slot="size", say="Which size, small or large?", parse=_size_parser),
        Final("done", summary="A {size} one."),
    ],
    transitions=[T("answer", "note", "size"), T("answer", "size", "done")],
)
SHOP = Bot(name="shop", persona="a shop", flows=[ORDER], intents=[], capabilities="Orders.", entry=lambda _c: "order")
_NOW = datetime(2026, 11, 28, 9, 0)


def _counted(engine: Engine, text: str) -> tuple[str, Counter[str]]:
    CALLS.clear()
    with pinned_clock(_NOW):
        reply = engine.turn("shop", "u", text).reply
    return reply, Counter(CALLS)


def _at_size(note: str) -> Engine:
    """An engine whose user has given `note` and is asked the size."""
    engine = Engine(MemoryStore(), bots=Registry([SHOP]), clock=lambda: _NOW.replace(tzinfo=UTC))
    with pinned_clock(_NOW):
        engine.turn("shop", "u", "hi")
        engine.turn("shop", "u", note)
    return engine


def test_a_plain_answer_picks_the_parser_once_and_validates_the_other_slots_once() -> None:
    engine = _at_size("by the door")
    reply, calls = _counted(engine, "small")
    assert reply == "A small one.", reply
    # picked by the read stage, taken by the execute stage; the note validated on load only
    assert calls["size parser picked"] == 1, calls
    assert calls["note validated"] == 1, calls


def test_an_answer_validated_alone_is_still_refused_by_the_models_own_validator() -> None:
    engine = _at_size("tiny kitchen")
    reply, _ = _counted(engine, "large")
    # the refusal a whole validation gives (main 38a7a32 says the same), and the question again
    assert reply == "A large one does not fit a tiny kitchen. Which size, small or large?", reply
    reply, _ = _counted(engine, "small")
    assert reply == "A small one.", reply


def test_a_plain_answer_is_read_once_the_execute_stage_takes_the_read_stages_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the read stage read "small" plainly; the execute stage took that value instead of asking the parser again
    # a parser is read through its call or, for a word alone, its plain reading (extract.Parser.plain_value)
    read: list[str] = []
    call, plainly = Parser.__call__, Parser.plain_value

    def counted(self: Parser, text: str) -> object:
        if self is SIZES:
            read.append(text)
        return call(self, text)

    def counted_plainly(self: Parser, text: str) -> object:
        if self is SIZES:
            read.append(text)
        return plainly(self, text)

    monkeypatch.setattr(Parser, "__call__", counted)
    monkeypatch.setattr(Parser, "plain_value", counted_plainly)
    engine = _at_size("by the door")
    reply, _ = _counted(engine, "small")
    assert reply == "A small one.", reply
    assert read == ["small"]
