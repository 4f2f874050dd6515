"""What new study-pal users said that it misread: plans over several days, subjects said at the time
question, moving on after an acknowledgement (flows/study_pal/repeats.py, scheduling.py, reading.py)."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from engine.authoring.testing import Dialogue, dialogue
from engine.clock import pinned_clock
from flows.study_pal import timewindow
from flows.study_pal.plans import current
from flows.study_pal.repeats import repeat_days, weekdays

MON, TUE, WED, THU, FRI, SAT, SUN = range(7)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("weekdays after 6pm", {MON, TUE, WED, THU, FRI}),
        ("mon-fri 6-8pm", {MON, TUE, WED, THU, FRI}),
        ("every weeknight from 7", {MON, TUE, WED, THU, FRI}),
        ("mon wed fri 7-9", {MON, WED, FRI}),
        ("tue/thu 5-7", {TUE, THU}),
        ("mondays and thursdays 5-7", {MON, THU}),
        ("every tue and thu at 7", {TUE, THU}),
        ("weekends 10-12", {SAT, SUN}),
        ("saturday and sunday mornings", {SAT, SUN}),
        ("weekdays and saturday mornings", {MON, TUE, WED, THU, FRI, SAT}),
        ("weekdays except friday 6-8", {MON, TUE, WED, THU}),
        ("every day but not sunday", {MON, TUE, WED, THU, FRI, SAT}),
        ("daily 7-8am", set(range(7))),
        # what a set leaves may be one day, and one weekday said to recur is that day
        ("weekends 9-11 but not sunday", {SAT}),
        ("every monday 5-7", {MON}),
        # one day, or a choice of days, is one plan (days.py picks the day)
        ("on friday 4-6", set()),
        ("this weekend 10-12", set()),
        ("monday or tuesday 4-6", set()),
        ("tomorrow evening", set()),
        # a part of day in the plural may be one evening ("can we do it in the evenings?")
        ("in the evenings", set()),
        # the days as an adjective of a part of day in the plural (lead, session 18)
        ("weekday evenings at 7pm", {MON, TUE, WED, THU, FRI}),
        ("weekend mornings", {SAT, SUN}),
        ("a weekday evening at 7", set()),
        # the weekend taken out of a set (was every day, and "daily except weekends" the weekend alone)
        ("every day except the weekend 6-8", {MON, TUE, WED, THU, FRI}),
        ("daily except weekends", {MON, TUE, WED, THU, FRI}),
        ("every day but not on weekends", {MON, TUE, WED, THU, FRI}),
        ("every day apart from the weekend and friday", {MON, TUE, WED, THU}),
    ],
)
def test_the_days_a_plan_repeats_on(text: str, days: set[int]) -> None:
    assert weekdays(text) == days


def test_the_coming_week_from_today_while_the_window_is_ahead() -> None:
    wed = date(2026, 11, 25)
    ahead = repeat_days("weekdays 18-20", wed, time(17, 0), time(18, 0))
    assert ahead == [date(2026, 11, 25), date(2026, 11, 26), date(2026, 11, 27), date(2026, 11, 30), date(2026, 12, 1)]
    passed = repeat_days("weekdays 18-20", wed, time(19, 0), time(18, 0))
    assert passed[0] == date(2026, 11, 26) and passed[-1] == date(2026, 12, 2) and len(passed) == 5


def test_a_plan_over_several_days_is_a_record_a_day_each_with_every_subject() -> None:
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("plan mon wed fri 7-9pm for chemistry and biology")
        assert "3 days, 19:00-21:00 each" in d.reply
        plans = d.records("study_plan")
        assert [p["date"] for p in plans] == ["2026-11-27", "2026-11-30", "2026-12-02"]
        for p in plans:
            assert p["window"] == "19:00-21:00"
            assert [s["topic"] for s in p["sessions"]] == ["Chemistry", "Chemistry", "Biology", "Biology"]
        d.say("drop the monday one")  # each day is a plan of its own
        assert "Dropped your study plan for Monday 2026-11-30" in d.reply
        assert "Friday 2026-11-27, 19:00-21:00; Wednesday 2026-12-02, 19:00-21:00" in d.reply


def _ahead(d: Dialogue) -> list[tuple[str, str, list[str]]]:
    """The plans still ahead, as (date, window, topics), read the way the bot reads them."""
    records = d.store.records("study_plan", bot=d.bot, user=d.user)
    return sorted(
        (p.date.isoformat(), p.window, [x.topic for x in p.sessions]) for p in current(records, timewindow.now())
    )


def test_an_edit_naming_no_day_changes_a_plan_over_several_days_on_every_day() -> None:
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("hey can you plan math sessions mon wed fri 7-9pm")
        d.say("actually make them an hour later")  # each day's plan, not the last one saved
        assert "Moved from 19:00-21:00" in d.reply and "3 days, 20:00-22:00 each" in d.reply
        assert [(day, w) for day, w, _ in _ahead(d)] == [
            ("2026-11-27", "20:00-22:00"), ("2026-11-30", "20:00-22:00"), ("2026-12-02", "20:00-22:00")
        ]  # fmt: skip
        d.say("add chemistry as well")
        assert all(topics == ["Math", "Math", "Chemistry", "Chemistry"] for _, _, topics in _ahead(d))
        d.say("drop that one")  # one plan of the set, no day said: asked, not guessed
        assert "Which day's plan do you mean (Friday, Monday, Wednesday)?" in d.reply and len(_ahead(d)) == 3
        d.say("drop the fridya one")  # a day named, typed a letter off: that day alone
        assert [day for day, _, _ in _ahead(d)] == ["2026-11-30", "2026-12-02"]
        d.say("push it back 30 minutes")  # what is left of it is still one plan
        assert [w for _, w, _ in _ahead(d)] == ["20:30-22:30", "20:30-22:30"]
        d.say("move the monday one to 6pm")
        assert [(day, w) for day, w, _ in _ahead(d)] == [("2026-11-30", "18:00-20:00"), ("2026-12-02", "20:30-22:30")]


def test_a_weekday_named_on_that_weekday_is_the_plan_on_the_one_such_day_that_has_one() -> None:
    # on Wednesday 25 November, "the wednesday one" is the plan of Wednesday 2 December
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("plan math mon wed fri 7-9pm")
        d.say("actualy drop the wensday one")
        assert [day for day, _, _ in _ahead(d)] == ["2026-11-27", "2026-11-30"]


def test_a_new_plan_with_hours_of_its_own_is_no_edit_of_the_last() -> None:
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("plan math mon wed fri 7-9pm")
        d.say("also plan weekends 10-12 for biology")  # was: Biology added to Wednesday's plan
        assert "2 days, 10:00-12:00 each" in d.reply
        assert [(day, topics[0]) for day, _, topics in _ahead(d)] == [
            ("2026-11-27", "Math"), ("2026-11-28", "Biology"), ("2026-11-29", "Biology"),
            ("2026-11-30", "Math"), ("2026-12-02", "Math"),
        ]  # fmt: skip
        d.say("drop it")  # the whole of the last plan: both weekend days
        assert [day for day, _, _ in _ahead(d)] == ["2026-11-27", "2026-11-30", "2026-12-02"]


def test_subjects_said_at_the_time_question_are_the_plans() -> None:
    # an empty list slot filled by another question's message is no correction: the rest of the
    # message still answers the question (it asked the time again), and a list reads as its items
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("can you make me a study plan")
        d.say("chemistry")
        assert d.reply.startswith("Noted (subjects: Chemistry). When would you like to study?")
        d.say("tomorrow 4-6")
        assert [s["topic"] for s in d.records("study_plan")[0]["sessions"]] == ["Chemistry"] * 4
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("can you make me a study plan")
        d.say("chemistry and bio, tomorrow 4-6")
        assert "Noted (subjects: Chemistry, Biology)." in d.reply
        assert [s["topic"] for s in d.records("study_plan")[0]["sessions"]] == ["Chemistry"] * 2 + ["Biology"] * 2


@pytest.mark.parametrize("text", ["got it, next", "ok cool next", "understood. next"])
def test_a_bare_next_after_an_acknowledgement_moves_on_without_grading(text: str) -> None:
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("teach me limits").say(text)  # it was graded "Not quite" and used a try
        assert d.reply.startswith("No problem, let's move on.") and d.slots["chunk"] == 2
