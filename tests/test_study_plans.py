"""Showing saved study plans ("what's my plan for friday?") from the stored records, never by
making a new one (flows/study_pal/plans.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine import Engine, MemoryStore, StoredRecord
from engine.clock import pinned_clock
from engine.models import JsonObject
from flows.study_pal.plans import asks_for_plans, describe, upcoming

AT = datetime(2025, 3, 12, 9, 0)  # a Wednesday morning


def plan(day: str, window: str, topic: str = "Limits", revises: dict[str, str] | None = None) -> StoredRecord:
    start, end = window.split("-")
    data: JsonObject = {"date": day, "window": window, "prioritized": False,
                        "sessions": [{"start": start, "end": end, "topic": topic}]}  # fmt: skip
    if revises:
        data["revises"] = dict(revises)
    return StoredRecord(id=1, kind="study_plan", bot="study-pal", user="u", session_id="s", data=data, created_at=AT)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("whats my plan", True),
        ("what does my schedule look like for friday?", True),
        ("can u show me my schedule pls", True),
        ("when am i studying next?", True),
        ("do i have any study sessions", True),
        ("what are my study plans", True),
        ("whats on my schedule for friday", True),
        ("what do i have planned on saturday?", True),
        ("anything planned for tmrw?", True),
        ("make a new plan for saturday", False),
        ("schedule study tomorrow 2-4", False),
        ("move my plan to saturday", False),
        ("what is a pomodoro?", False),
    ],
)
def test_a_question_about_the_plans_is_told_from_a_request_for_one(text: str, asks: bool) -> None:
    assert asks_for_plans(text) is asks


def test_plans_ahead_leave_out_past_and_replaced_ones_soonest_first() -> None:
    records = [
        plan("2025-03-14", "16:00-18:00", "Derivatives"),
        plan("2025-03-11", "10:00-12:00"),  # yesterday
        plan("2025-03-12", "08:00-09:00"),  # over this morning
        plan("2025-03-13", "14:00-15:00"),
        plan("2025-03-14", "17:00-19:00", "Derivatives", revises={"date": "2025-03-14", "window": "16:00-18:00"}),
        StoredRecord(id=9, kind="study_plan", bot="b", user="u", session_id="s", data={"old": 1}, created_at=AT),
    ]
    ahead = upcoming(records, AT)
    assert [(p.date.isoformat(), p.window) for p in ahead] == [
        ("2025-03-13", "14:00-15:00"),
        ("2025-03-14", "17:00-19:00"),
    ]
    assert describe(ahead, "whats my plan for friday", AT) == (
        "Your study plan:\n📚 Friday 2025-03-14, 17:00-19:00: 17:00-19:00 Derivatives."
    )
    assert describe(ahead, "whats my plan for saturday", AT).startswith(
        "You have no study plan for Saturday 2025-03-15"
    )
    assert describe(ahead, "what are my plans", AT).startswith("Your 2 study plans ahead:")


def test_asking_for_the_schedule_shows_the_saved_plan_and_makes_none() -> None:
    store = MemoryStore()
    e = Engine(store)
    with pinned_clock(AT):
        assert "no study plan yet" in e.turn("study-pal", "u", "whats my plan?").reply
        e.turn("study-pal", "u", "plan chemistry on friday at 4")
        reply = e.turn("study-pal", "u", "what does my schedule look like for friday?").reply
    assert reply.startswith("Your study plan:\n📚 Friday 2025-03-14, 16:00-18:00: 16:00-16:25 Chemistry")
    assert len(store.records("study_plan")) == 1


def test_another_plan_like_the_last_one_keeps_its_topics_and_moves_nothing() -> None:
    store = MemoryStore()
    e = Engine(store)
    with pinned_clock(AT):
        assert "Chemistry" not in e.turn("study-pal", "u", "and one for tmrw too").reply  # no plan yet: none to copy
        e.turn("study-pal", "u", "plan chemistry and biology on friday at 4")
        reply = e.turn("study-pal", "u", "and one for tmrw too").reply
        assert reply.startswith("📚 Your study plan for Thursday 2025-03-13, 16:00-18:00")
        assert "Chemistry" in reply and "Biology" in reply
        shown = e.turn("study-pal", "u", "whats my plan").reply
    plans = [r.data for r in store.records("study_plan")]
    assert [p["date"] for p in plans] == ["2025-03-14", "2025-03-13"]
    assert all("revises" not in p for p in plans)
    assert shown.startswith("Your 2 study plans ahead:")
