"""Showing saved study plans ("what's my plan for friday?") from the stored records, never by
making a new one (flows/study_pal/plans.py)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from engine import Engine, MemoryStore, StoredRecord
from engine.clock import pinned_clock
from engine.models import JsonObject
from flows.study_pal.days import read_day
from flows.study_pal.plans import asked_day, asks_for_plans, describe, upcoming

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


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("kannst du mir einen Lernplan für morgen von 14 bis 16 Uhr machen?", "Thursday 2025-03-13, 14:00-16:00"),
        ("hazme un plan de estudio para mañana de 10 a 12", "Thursday 2025-03-13, 10:00-12:00"),
        ("un plan d'études samedi de 9h à 11h", "Saturday 2025-03-15, 09:00-11:00"),
    ],
)
def test_a_plan_asked_for_in_the_users_language_reads_its_time_words(text: str, window: str) -> None:
    # the request that starts the plan reads its day and hours as the window question reads an answer
    store = MemoryStore()
    with pinned_clock(AT):
        reply = Engine(store).turn("study-pal", "u", text).reply
    assert window in reply
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


# -- a question about one day's plans names the day as people type it (each failed before) ---


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("anything on fri?", True),
        ("anything for tomorrow?", True),
        ("plans for tmrw?", True),
        ("any plans for sat?", True),
        ("whats on sat?", True),
        ("my plans for the weekend?", True),
        ("anything on limits?", False),  # no day: a question about the course, not the plans
        ("plan for tmrw at 3", False),  # a request for a plan
        ("plan chemistry for sat 10-12", False),
        ("plans for tmrw at 3 pls", False),
    ],
)
def test_a_short_question_about_one_days_plans_is_a_question_about_plans(text: str, asks: bool) -> None:
    assert asks_for_plans(text) is asks


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("anything planned for sat?", date(2025, 3, 15)),
        ("what do I have on sat", date(2025, 3, 15)),
        ("anything on fri?", date(2025, 3, 14)),
        ("plans for tmrw?", date(2025, 3, 13)),
        ("plans for tomorrow?", date(2025, 3, 13)),
        ("anything planned today?", date(2025, 3, 12)),
        ("anything planned for sun?", date(2025, 3, 16)),
        ("sat?? anything planned", date(2025, 3, 15)),
        ("whats my plan", None),
        ("I sat the exam, whats my plan now", None),  # "sat" after a pronoun is the verb
        ("the sun is out, whats my plan", None),
    ],
)
def test_the_day_a_plan_question_names_includes_bare_sat_and_sun(text: str, day: date | None) -> None:
    assert asked_day(text, AT.date()) == day


def test_bare_sat_stays_a_word_for_the_general_day_reader() -> None:
    # only the plan question reads a bare "sat" as Saturday; planning readers keep needing a lead word or a time
    assert read_day("I sat the exam", AT.date()) is None
    assert read_day("anything planned for sat?", AT.date()) is None


WEEK = [plan("2025-03-13", "15:00-17:00"), plan("2025-03-14", "16:00-18:00", "Derivatives"),
        plan("2025-03-15", "10:00-12:00", "Integrals")]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("anything planned for sat?", "Saturday 2025-03-15, 10:00-12:00"),
        ("what do I have on sat", "Saturday 2025-03-15, 10:00-12:00"),
        ("anything on fri?", "Friday 2025-03-14, 16:00-18:00"),
        ("plans for tmrw?", "Thursday 2025-03-13, 15:00-17:00"),
    ],
)
def test_a_question_naming_a_day_shows_only_that_days_plan(text: str, shown: str) -> None:
    answer = describe(upcoming(WEEK, AT), text, AT)
    assert answer.startswith("Your study plan:\n📚 " + shown)
    assert answer.count("📚") == 1


def test_a_day_with_nothing_planned_says_so_and_names_the_plans_there_are() -> None:
    answer = describe(upcoming(WEEK, AT), "anything planned for sun?", AT)
    assert answer.startswith("You have no study plan for Sunday 2025-03-16 yet.")
    assert "Planned: Thursday 2025-03-13, 15:00-17:00; Friday 2025-03-14, 16:00-18:00; Saturday 2025-03-15" in answer
    assert "📚" not in answer
    alone = describe([], "anything planned for sun?", AT)
    assert alone.startswith("You have no study plan for Sunday 2025-03-16 yet.") and "Planned:" not in alone


def test_asking_about_saturday_in_the_chat_shows_saturday_only() -> None:
    store = MemoryStore()
    e = Engine(store)
    with pinned_clock(AT):
        e.turn("study-pal", "u", "plan chemistry on friday at 4")
        e.turn("study-pal", "u", "and one for sat 10-12 too")
        sat = e.turn("study-pal", "u", "anything planned for sat?").reply
        tomorrow = e.turn("study-pal", "u", "plans for tmrw?").reply
    assert sat.startswith("Your study plan:\n📚 Saturday 2025-03-15, 10:00-12:00") and "Friday" not in sat
    assert tomorrow.startswith("You have no study plan for Thursday 2025-03-13 yet.")
    assert len(store.records("study_plan")) == 2


@pytest.mark.parametrize(
    ("text", "day"),
    [("I have a calculus exam in 3 weeks", None), ("plan friday 4-6pm for my test on monday", date(2025, 3, 14)),
     ("my midterm is on the 20th, can we study tomorrow 3-5?", date(2025, 3, 13)),
     ("study on friday, the deadline is monday", date(2025, 3, 14))],
)  # fmt: skip
def test_the_day_of_an_exam_or_deadline_is_not_the_day_to_study(text: str, day: date | None) -> None:
    found = read_day(text, AT.date())
    assert (found[0] if found else None) == day


@pytest.mark.parametrize(
    "text", ["und noch einen für Samstag Vormittag", "otro más para el sábado por la mañana", "encore un samedi matin"]
)
def test_another_plan_asked_for_in_the_users_language(text: str) -> None:
    store = MemoryStore()
    e = Engine(store)
    with pinned_clock(AT):
        e.turn("study-pal", "u", "plan limits tomorrow 14-16")
        reply = e.turn("study-pal", "u", text).reply
    assert "Saturday 2025-03-15, 09:00-12:00" in reply
    assert [r.data["window"] for r in store.records("study_plan")] == ["14:00-16:00", "09:00-12:00"]
