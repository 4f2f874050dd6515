"""A value a flow's own step derives is no command of the message (issue 23, h-setp): the turn's trace notes it
(`derived`), a step that carries out what was read (`Step.carries_answers`) notes nothing, and
bench/understanding.py sets the derived values aside instead of counting them as set_slot."""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands_corpus import Case, Entry, load, split_of  # noqa: E402
from bench.understanding import CORPUS_NOW, label_slots, play  # noqa: E402
from engine import Engine, MemoryStore  # noqa: E402

FEEDBACK = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}
PROFILE = {
    "fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "target_weight_kg": 72,
    "weight_unit": "kg", "completed": ["assessment", "goals", "workout", "diet", "schedule"], "days_per_week": 3,
    "minutes_per_session": 45, "equipment": ["dumbbells"], "diet": "vegetarian", "allergies": [],
    "preferred_days": ["Mon", "Wed", "Fri"], "time_of_day": "morning",
}  # fmt: skip
SUPPORT = {
    "answers": {"Which app crashes?": "android"}, "current_index": 1, "doc": "app-crashes", "opened": True,
    "parsed": {"Which app crashes?": "Android"},
}  # fmt: skip


def _case(bot: str, flow: str, state: str, slots: dict[str, Any], text: str, *labels: dict[str, Any]) -> Case:
    """The entry as the corpus loader reads it (a support run's article filled in, values as the slots store them)."""
    entry = Entry(text=text, lang="en", bot=bot, flow=flow, state=state, slots=slots, commands=list(labels))
    with tempfile.TemporaryDirectory() as folder:
        half = split_of(text)  # the loader checks the split the text's hash gives
        (Path(folder) / f"{half}.yaml").write_text(yaml.safe_dump([entry.model_dump()]), encoding="utf-8")
        (case,) = load(half, folder=Path(folder))
    label_slots([case])  # the slot it labels is one a user gives (the corpus labels it too)
    return case


def _engine() -> Engine:
    return Engine(MemoryStore(), clock=lambda: CORPUS_NOW.replace(tzinfo=UTC))


def test_the_area_a_step_senses_from_the_comment_is_noted_derived_and_not_counted() -> None:
    text = "the lessons load super slowly"
    label = {"kind": "set_slot", "slot": "comment", "value": text, "evidence": text}
    # the corpus labels the area at this flow (a user may name it: "problema de latencia"): a slot the bench reads
    area = {"kind": "set_slot", "slot": "category", "value": "latency", "evidence": "slowly"}
    label_slots([_case("language-buddy", "feedback", "details", FEEDBACK, text, area)])
    out = play(_engine(), _case("language-buddy", "feedback", "details", FEEDBACK, text, label), "u1")
    # the comment is the message's; the area ("latency") is the triage step's, set aside
    assert [(o.kind, o.slot) for o in out.observed] == [("set_slot", "comment")]
    assert [(o.slot, o.value) for o in out.derived] == [("category", "latency")]
    assert out.exact


def test_a_review_change_applied_by_its_step_is_the_messages() -> None:
    text = "oops the days are wed, fri and sun!"
    label = {"kind": "correct_slot", "slot": "preferred_days", "value": ["Wed", "Fri", "Sun"], "evidence": text}
    out = play(_engine(), _case("fitness-coach", "onboarding", "review", PROFILE, text, label), "u2")
    # the `revised` step applies what the review's reader read (`carries_answers`): no derived value
    assert ("correct_slot", "preferred_days") in [(o.kind, o.slot) for o in out.observed]
    assert not [o for o in out.derived if o.slot == "preferred_days"]


def test_a_support_answer_recorded_by_its_step_is_no_derived_value() -> None:
    text = "i was dragging a task into another list"
    label = {"kind": "set_slot", "slot": "text_answer", "value": text, "evidence": text}
    engine = _engine()
    out = play(engine, _case("support", "clarification", "text", SUPPORT, text, label), "u3")
    assert out.found and not out.derived
    trace = engine.store.traces(engine.store.load("support", "u3").id)[-1]  # type: ignore[union-attr]
    assert not [n for n in trace.notices if n.kind == "derived" and n.detail == "parsed"]


def test_a_label_naming_a_derived_slot_is_neither_found_nor_missed() -> None:
    text = "the lessons load super slowly"
    comment = {"kind": "set_slot", "slot": "comment", "value": text, "evidence": text}
    # labelled as the message's (the main splits did so before steps were told apart), derived by the step
    area = {"kind": "set_slot", "slot": "category", "value": "latency", "evidence": "slowly"}
    case = _case("language-buddy", "feedback", "details", FEEDBACK, text, comment, area)
    out = play(_engine(), case, "u4")
    assert [(o.slot, o.value) for o in out.derived] == [("category", "latency")]
    assert [c.slot for c in out.found] == ["comment"] and out.missed == [] and out.exact
