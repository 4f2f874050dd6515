"""study-pal readers on input as people type it (issue 13): chat spellings, goodbyes, questions
back mid-exercise, tomorrow's typos, a message that corrects its own window, "what is a
pomodoro?", the plan offer's goodbye and progress question, spoken powers, and the one yes/no
reader's drawn-out and extra forms. Each case failed before its fix."""

from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path

import pytest

from engine.yesno import read_yes_no
from flows.study_pal.bot import asks_what_planning_is, study_pal
from flows.study_pal.course import DEFAULT_COURSE, get_course
from flows.study_pal.exits import exit_by_rules, says_goodbye
from flows.study_pal.marking import check_answer
from flows.study_pal.reading import _ANOTHER, _REVEAL, asks_back, concept_parser, stalls
from flows.study_pal.revise import read_window
from flows.study_pal.subjects import read_subject
from flows.study_pal.texting import plain
from flows.study_pal.timewindow import Window, parse_window
from flows.study_pal.tutoring import TutoringSlots

AT = datetime(2025, 3, 12, 9, 0)  # a Wednesday morning


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        ("thank u for ur help!", "END"),
        ("ty for the help", "END"),
        ("thanks 4 the help", "END"),
        ("ty 4 ur help!!", "END"),
        ("gtg", "END"),
        ("cya", "END"),
        ("ttyl", "END"),
        ("see u tomorrow", "END"),
        ("im out", "END"),
        ("stop please", "END"),
        ("i quit", "END"),
        ("goodnight!", "END"),
        ("done w this one, next pls", "CONTINUE"),
    ],
)
def test_exit_signals_as_typed(text: str, decision: str) -> None:
    assert exit_by_rules(text) == decision


def test_chat_spellings_are_whole_words_only() -> None:
    assert plain("thank u for ur help") == "thank you for your help"
    assert plain("the hour is up, 4x^3") == "the hour is up, 4x^3"


@pytest.mark.parametrize("text", ["show answer", "give answer pls", "tell me your answer"])
def test_answer_requests_without_me_the(text: str) -> None:
    assert _REVEAL.search(plain(text))


@pytest.mark.parametrize("text", ["next q", "pass", "i'll pass on this one", "done w this one, next pls"])
def test_skipping_as_typed(text: str) -> None:
    assert _ANOTHER.search(plain(text))


@pytest.mark.parametrize(
    ("text", "question"),
    [("is this on the exam?", True), ("does it even exist?", True), ("4?", False), ("is it 4?", False),
     ("c?", False), ("yes?", False), ("x squared?", False)],
)  # fmt: skip
def test_a_question_back_is_not_an_answer(text: str, question: bool) -> None:
    assert asks_back(text) is question


@pytest.mark.parametrize(
    ("text", "day", "start", "end"),
    [
        ("schedule study 2moro 4 till 6", date(2025, 3, 13), time(16), time(18)),
        ("tomorro at 5", date(2025, 3, 13), time(17), time(19)),
        ("tmrow evening", date(2025, 3, 13), time(18), time(21)),
        ("sat 9-11", date(2025, 3, 15), time(9), time(11)),
        ("sun morning", date(2025, 3, 16), time(9), time(12)),
        ("i sat down, 3-5 works", date(2025, 3, 12), time(15), time(17)),
    ],
)
def test_tomorrow_as_typed_and_sat_sun_before_a_time(text: str, day: date, start: time, end: time) -> None:
    assert parse_window(text, AT) == Window(day=day, start=start, end=end)


@pytest.mark.parametrize(
    ("text", "day", "start", "end"),
    [
        ("schedule study sat 9-11 actually make it 10-12", date(2025, 3, 15), time(10), time(12)),
        ("plan tmrw at 4, no wait, 5", date(2025, 3, 13), time(17), time(19)),
        ("schedule friday 3-5 hmm make it an hour later", date(2025, 3, 14), time(16), time(18)),
        ("schedule friday 3-5 actually saturday", date(2025, 3, 15), time(15), time(17)),
        ("actually can you schedule tomorrow 3-5", date(2025, 3, 13), time(15), time(17)),
        # two corrections, the second taking the first back
        ("sat 10-12 actually sunday wait no saturday is fine", date(2025, 3, 15), time(10), time(12)),
        ("sat 10-12 wait no sunday", date(2025, 3, 16), time(10), time(12)),
    ],
)
def test_a_message_that_corrects_its_own_window(text: str, day: date, start: time, end: time) -> None:
    assert read_window(text, AT) == Window(day=day, start=start, end=end)


@pytest.mark.parametrize(
    ("text", "subject"),
    [("study plan for thurs arvo", None), ("pomodoro plan for tmrw", None), ("for sunday morning", None),
     ("plan for my thesis", "Thesis"), ("plan friday 4-6 for my test on monday", None),
     ("plan friday 4-6 for my chemistry exam", "Chemistry")],
)  # fmt: skip
def test_a_day_after_for_is_no_subject(text: str, subject: str | None) -> None:
    assert read_subject(text) == subject


@pytest.mark.parametrize(
    ("text", "question"),
    [("what is a pomodoro?", True), ("whats the pomodoro technique", True), ("how does pomodoro work", True),
     ("what's a study plan", True), ("can you make me a pomodoro plan for tomorrow", False),
     ("so what is a pomodoro, can you schedule one tomorrow at 4", False)],
)  # fmt: skip
def test_a_question_about_the_method_is_no_request_for_a_plan(text: str, question: bool) -> None:
    assert asks_what_planning_is(plain(text)) is question


@pytest.mark.parametrize(("text", "bye"), [("see you tomorrow", True), ("gtg, bye", True), ("maybe", False)])
def test_goodbyes(text: str, bye: bool) -> None:
    assert says_goodbye(text) is bye


@pytest.mark.parametrize(
    ("text", "meant"),
    [("yess", True), ("yesss please", True), ("nooo", False), ("okk", True), ("kk", True), ("okie", True),
     ("y not", True), ("go on then", True), ("suppose so", True), ("i'd love that", True),
     ("that would be great", True), ("probably not", False), ("dont bother", False), ("not rn", False),
     ("yes but not sure", None), ("noon", None), ("yeah nah", None)],
)  # fmt: skip
def test_the_one_yes_no_reader_hears_more_forms(text: str, meant: bool | None) -> None:
    assert read_yes_no(text) is meant


@pytest.mark.parametrize(
    ("concept", "chunk", "text"),
    [("derivatives", 1, "4x cubed"), ("derivatives", 1, "four x to the power of three"),
     ("integration", 1, "half x squared"), ("integration", 1, "x squared over 2"), ("derivatives", 2, "6x plus 2")],
)  # fmt: skip
def test_math_said_in_words_is_graded(concept: str, chunk: int, text: str) -> None:
    exercise = get_course(DEFAULT_COURSE).concept(concept).chunks[chunk].exercise
    assert check_answer(exercise, text)
    assert not check_answer(exercise, "4x squared")


@pytest.mark.parametrize(
    ("text", "flow"),
    [("tmrw is packed, can we plan something fri morning instead", "scheduling"),
     ("ok cool. plan 1 hour tonight then", "scheduling"), ("can u plan study time sunday afternoon", "scheduling"),
     ("i didnt plan anything tomorrow lol", None)],
)  # fmt: skip
def test_a_planning_verb_after_a_request_or_a_clause_start_plans(text: str, flow: str | None) -> None:
    assert study_pal.intent_for(plain(text)) == flow


@pytest.mark.parametrize(
    ("text", "stalling"),
    [
        ("brb", True),
        ("hmm...", True),
        ("OK wait", True),
        ("hold on let me think", True),
        ("give me a minute", True),
        ("lol this is fun", True),
        ("haha", True),
        ("hmm 7", False),  # an answer after the hesitation
        ("umm 7?", False),
        ("a", False),  # an option letter
        ("x", False),
        ("wait is it 4", False),
    ],
)
def test_a_message_that_only_buys_time_is_no_attempt(text: str, stalling: bool) -> None:
    assert stalls(text) is stalling


def test_a_question_mid_lesson_is_answered_from_the_part_that_says_it() -> None:
    # the part at hand answered every question: "what's the chain rule?" in a lesson on limits got the
    # limits text; the course's part that names the term answers, or the course says it has none
    from datetime import datetime

    from engine.authoring.testing import dialogue
    from engine.clock import pinned_clock

    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as chat:
        for text in ("teach me limits", "3x^2", "6x"):
            chat.say(text)
        assert chat.slots["chunk"] == 2
        chat.say("wait what's the chain rule again?")
        assert chat.reply.startswith("That isn't in this course's lessons (chain rule)") and chat.slots["chunk"] == 2
        chat.say("why do we factor it?")
        assert chat.reply.startswith("Good question. Factor x² − 4")  # the exercise's hint names it
        chat.say("what about one sided limits?")
        assert chat.reply.startswith("Good question. Limits: One-sided limits")
        chat.say("what's a derivative again?")
        assert chat.reply.startswith("Good question. Derivatives:") and chat.slots["attempts"] == 0


def test_a_question_at_an_offer_is_answered_from_the_part_that_says_it() -> None:
    # at "Shall we start with Limits first?", "what's a tangent line?" got the limits text: the question
    # is answered from the course's part that names its terms, and the offer stays open
    from engine.authoring.testing import dialogue

    with dialogue("study-pal") as chat:
        chat.say("teach me derivatives")
        assert chat.state == "offer"
        chat.say("wait what's a tangent line again")
        assert chat.reply.startswith("Good question. Derivatives:") and "tangent" in chat.reply
        assert chat.state == "offer"
        chat.say("what's a banana?")
        assert chat.reply.startswith("That isn't in this course's lessons (banana)") and chat.state == "offer"
        chat.say("why?")  # why it is offered: the offer's declared reason answers, as in every language (issue 23)
        assert chat.reply.startswith("Concepts build on each other") and chat.state == "offer"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("not limits, derivatives", "derivatives"),
        ("nicht Grenzwerte, lieber Ableitungen", "derivatives"),
        ("anything but integration", None),  # which one is still to be asked
        ("limits and derivatives", "limits"),  # several named: the first one
    ],
)
def test_a_topic_ruled_out_is_not_the_one_picked(text: str, concept: str | None) -> None:
    calculus = Path(__file__).resolve().parent.parent / "flows" / "study_pal" / "data" / "courses" / "calculus.yaml"
    assert concept_parser(TutoringSlots(course=str(calculus)))(text) == concept
