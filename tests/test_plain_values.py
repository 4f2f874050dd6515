"""Values the turn makes without pydantic's validation or generic paths (issue 22: a turn's own logic in a few
dozen calls) are the values pydantic makes: equal, dumped alike, with the same fields set; and what pydantic
would refuse or write otherwise still goes through pydantic."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError, field_serializer

from engine.answering import _copy
from engine.commands import AnswerFlow, Reading
from engine.effects import message
from engine.flowrun import _finished, _json_value, json_slots
from engine.models import FlowRun, Message, Slots
from engine.reading import _plainly
from engine.registry import default_registry


class Plain(Slots):
    name: str | None = None
    days: int | None = Field(None, ge=1, le=7)
    ok: bool | None = None
    weight: float | None = None
    foods: list[str] = Field(default_factory=list)
    level: Literal["a", "b"] | None = None


class Nested(BaseModel):
    x: int = 0


class Odd(Slots):
    when: datetime | None = None
    inner: Nested | None = None
    pair: tuple[int, int] | None = None
    table: dict[str, int] = Field(default_factory=dict)


class Serialized(Slots):
    days: int | None = None

    @field_serializer("days")
    def _twice(self, v: int | None) -> int | None:
        return None if v is None else v * 2


class Aliased(Slots):
    days: int | None = Field(None, serialization_alias="n_days")


class Hidden(Slots):
    days: int | None = Field(None, exclude=True)
    name: str | None = None


PLAIN_VALUES: list[dict[str, Any]] = [
    {},
    {"name": "Ana", "days": 3, "ok": True, "weight": 70.5, "foods": ["nuts", "milk"], "level": "b"},
    {"ok": False, "weight": 0.0, "foods": []},
    {"weight": float("inf")},
    {"weight": float("nan")},
]


def same_dump(slots: Slots) -> None:
    expected = slots.model_dump(mode="json")
    got = json_slots(slots)
    # NaN is no value equal to itself: compared as JSON text
    assert repr(got) == repr(expected) and list(got) == list(expected)
    for name in type(slots).model_fields:
        assert repr(_json_value(slots, name)) == repr(expected.get(name))


@pytest.mark.parametrize("values", PLAIN_VALUES)
def test_slots_of_json_types_dump_as_pydantic_dumps_them(values: dict[str, Any]) -> None:
    same_dump(Plain.model_validate(values))


def test_a_list_read_off_the_model_is_a_copy() -> None:
    s = Plain(foods=["nuts"])
    dumped = json_slots(s)
    assert dumped["foods"] == ["nuts"] and dumped["foods"] is not s.foods


@pytest.mark.parametrize(
    "slots",
    [
        Odd(when=datetime(2026, 11, 28, 9, 0, tzinfo=UTC)),
        Odd(inner=Nested(x=2)),
        Odd(pair=(1, 2)),
        Odd(table={"a": 1}),
        Serialized(days=3),
        Aliased(days=3),
        Hidden(days=3, name="x"),
    ],
)
def test_other_values_and_models_that_write_their_own_are_dumped_by_pydantic(slots: Slots) -> None:
    same_dump(slots)


def test_every_shipped_flows_slots_dump_as_pydantic_dumps_them() -> None:
    flows = default_registry().flows()
    assert flows
    for flow in flows:
        same_dump(flow.new_slots())


def test_a_message_made_plainly_is_the_validated_one() -> None:
    for role in ("system", "user", "assistant"):
        made, validated = message(role, "Hi there"), Message(role=role, content="Hi there")
        assert made == validated and made.model_dump() == validated.model_dump()
        assert made.model_fields_set == validated.model_fields_set and hash(made) == hash(validated)
    with pytest.raises(ValidationError):
        message("user", 4)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        message("robot", "hi")  # type: ignore[arg-type]


def test_the_plain_reading_is_the_validated_one() -> None:
    values = {"words": "4", "kind": "answer_flow", "flow": "feedback", "state": "rating", "plain": True}
    answer = _plainly(AnswerFlow, values)
    validated = AnswerFlow(words="4", flow="feedback", state="rating", plain=True)
    assert answer == validated and answer.model_fields_set == validated.model_fields_set
    reading = _plainly(Reading, {"text": "4", "commands": [answer]})
    assert reading == Reading(text="4", commands=[validated])
    assert reading.model_dump() == Reading(text="4", commands=[validated]).model_dump()


def test_the_answers_copy_of_the_slots_is_pydantics() -> None:
    s = Plain(name="Ana", foods=["nuts"])
    mine, theirs = _copy(s), s.model_copy()
    assert mine == theirs and mine is not s and mine.model_fields_set == theirs.model_fields_set
    mine.days = 3  # validated on assignment, as the copy it replaces
    assert s.days is None
    with pytest.raises(Exception, match="days"):
        mine.days = 9


def test_a_closed_run_made_plainly_is_the_validated_one() -> None:
    at = datetime(2026, 11, 28, tzinfo=UTC)
    values: dict[str, Any] = {
        "flow": "feedback", "outcome": "completed", "summary": "Done.", "slots": {"rating": 4, "foods": ["a"]},
        "turns": 3, "started_at": at, "ended_at": at,
    }  # fmt: skip
    made = _finished("feedback", "completed", "Done.", values["slots"], 3, at, at)
    assert made == FlowRun(**values) and made.model_dump(mode="json") == FlowRun(**values).model_dump(mode="json")
    with pytest.raises(ValidationError):
        _finished("feedback", "completed", None, {}, 3, at, at)  # type: ignore[arg-type]
