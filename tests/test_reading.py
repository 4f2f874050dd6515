"""The read stage (engine/reading.py): a message, against a loaded session and what the last
turn left, into typed commands, with nothing changed. The turn's tests and every replay script
check that executing them does what the turn did before the stages; these check the reading
itself, on sessions built as values.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from engine.authoring.testing import DialogueFactory
from engine.bot import Bot
from engine.commands import (
    AnswerFlow,
    Cancel,
    Chitchat,
    Command,
    Held,
    Help,
    Reading,
    Resume,
    Skip,
    StartFlow,
    YesNo,
)
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import read
from engine.said import says_cancel as is_cancel
from flows.language_buddy.bot import FEEDBACK
from flows.language_buddy.onboarding import onboarding
from flows.shared.feedback import feedback

BOT = Bot(name="reading", persona="p", flows=[feedback, onboarding], intents=[FEEDBACK], capabilities="c")
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def session(active: FlowFrame | None = None, stack: list[FlowFrame] | None = None, **context: object) -> SessionState:
    return SessionState(id="s", bot=BOT.name, user="u", active=active, stack=stack or [], context=dict(context))


def frame(flow: str, state: str, *, paused: bool = False) -> FlowFrame:
    return FlowFrame(flow=flow, version=1, state=state, started_at=AT, paused=paused)


def commands(s: SessionState, text: str, carried: CarryOver | None = None, entry: str | None = None) -> list[Command]:
    def rule() -> str | None:
        return entry

    bot = dataclasses.replace(BOT, entry=lambda _ctx: entry) if entry else BOT
    before = s.model_dump()
    got = read(bot, s, carried or CarryOver(), text, rule)
    assert s.model_dump() == before  # reading changes nothing
    assert isinstance(got, Reading) and got.text == text
    return got.commands


def test_the_open_flow_reads_an_answer() -> None:
    got = commands(session(frame("feedback", "rating")), "4")
    assert got == [AnswerFlow(words="4", flow="feedback", state="rating", plain=True)]  # the value alone


@pytest.mark.parametrize(("text", "expected"), [("cancel", Cancel(words="cancel")), ("Help.", Help(words="Help."))])
def test_commands_come_before_the_flow(text: str, expected: Command) -> None:
    assert commands(session(frame("feedback", "rating")), text) == [expected]


def test_a_held_session_reads_every_message_as_for_the_person() -> None:
    held = session(**{"innerloop.agent": {"since": AT.isoformat(), "reason": "r"}})
    assert commands(held, "hello?") == [Held(words="hello?", leave=False)]
    assert commands(held, "cancel") == [Held(words="cancel", leave=True)]


def test_an_interrupt_the_question_allows_starts_its_flow() -> None:
    at_name = session(frame("onboarding", "ask_name"))
    got = commands(at_name, "I want to give feedback")
    assert got == [StartFlow(words="I want to give feedback", flow="feedback", via="interrupt")]


def test_a_flow_asked_back_is_answered_now_or_read_past() -> None:
    asked = CarryOver(confirm="feedback")
    assert commands(session(), "yes please", asked) == [
        YesNo(words="yes please", to="confirm", subject="feedback", yes=True)
    ]
    assert commands(session(), "what's the weather", asked) == [
        YesNo(words="what's the weather", to="confirm", subject="feedback", yes=None),
        Chitchat(words="what's the weather"),
    ]


def test_the_entry_rule_starts_its_flow_or_resumes_its_paused_run() -> None:
    assert commands(session(), "hi", entry="onboarding") == [StartFlow(words="hi", flow="onboarding", via="entry")]
    paused = session(stack=[frame("onboarding", "ask_name", paused=True)])
    assert commands(paused, "Max", entry="onboarding") == [Resume(words="Max", flow="onboarding")]
    # "hi again" answers nothing: the run is started again (which resumes it, asking its question)
    assert commands(paused, "hi again", entry="onboarding") == [
        StartFlow(words="hi again", flow="onboarding", via="entry")
    ]
    assert commands(paused, "I want to give feedback", entry="onboarding") == [
        StartFlow(words="I want to give feedback", flow="feedback", via="interrupt")
    ]


def test_with_nothing_open_the_main_conversation_answers() -> None:
    assert commands(session(), "hello") == [Chitchat(words="hello", social=("greeting",))]


def test_a_yes_or_no_to_what_was_put_at_the_question_comes_before_the_answer() -> None:
    at_rating = session(frame("feedback", "rating"))
    put = CarryOver(suggested="4", offered="I'd rate it 4")
    assert commands(at_rating, "yes", put) == [
        YesNo(words="yes", to="suggested", subject="4", yes=True),
        YesNo(words="yes", to="offered", subject="I'd rate it 4", yes=True),
        AnswerFlow(words="yes", flow="feedback", state="rating"),
    ]
    assert commands(at_rating, "3", CarryOver(offered="x")) == [
        YesNo(words="3", to="offered", subject="x", yes=None),
        AnswerFlow(words="3", flow="feedback", state="rating"),
    ]
    # an interrupt leaves the question: nothing put at it is answered
    assert commands(session(frame("onboarding", "ask_name")), "I want to give feedback", put) == [
        StartFlow(words="I want to give feedback", flow="feedback", via="interrupt")
    ]


@pytest.mark.parametrize(
    "text",
    ["meh forget it, cancel", "no no, stop", "ok never mind", "laisse tomber", "Vergiss es!", "cancelar", "nvm"],
)
def test_a_cancel_said_among_filler_or_in_another_language_is_a_cancel(text: str) -> None:
    assert is_cancel(text)


@pytest.mark.parametrize(
    "text",
    ["the reminders stop", "cancel my subscription", "please stop sending me reminders", "no", "ok", "para que sirve"],
)
def test_a_clause_with_anything_else_in_it_is_no_cancel(text: str) -> None:
    assert not is_cancel(text)


def test_a_cancel_inside_a_sentence_leaves_the_flow(dialogue: DialogueFactory) -> None:
    profile = {
        "name": "Max",
        "native_language": "de",
        "target_language": "en",
        "timezone": "Europe/Berlin",
        "level": "B1",
    }
    chat = dialogue("language-buddy", profile=profile)
    chat.say("I want to give feedback").expect(state="rating")
    chat.say("meh forget it, cancel").expect(flow="main")


def test_a_cancel_beside_words_that_answer_nothing_is_a_cancel() -> None:
    at_timezone = session(frame("onboarding", "ask_timezone"))
    # the words beside it give no timezone and no other slot: a reason, not an answer
    for text in [
        "this app is way too slow, cancel",
        "stop, j'ai pas le temps là",
        "ich will das nicht mehr, abbrechen",
    ]:
        assert commands(at_timezone, text) == [Cancel(words=text)], text
    # a polite stop, and one that puts it off, beside a reason: "can we continue later?" is one by itself
    for text in ["sorry, bus is here, can we continue later?", "my mom is calling, can we finish this later?"]:
        assert commands(at_timezone, text) == [Cancel(words=text, later=True)], text
    # beside words the question reads, the cancel is no command of its own: the flow reads the message
    assert not any(isinstance(c, Cancel) for c in commands(at_timezone, "cancel, i'm in Berlin"))
    # where any text is an answer (feedback's comment), the words beside it may be the answer
    at_comment = session(frame("feedback", "details"))
    assert not any(isinstance(c, Cancel) for c in commands(at_comment, "the audio keeps cutting out, stop"))


def test_small_talk_after_a_cancel_paused_the_run_answers_nothing_at_its_question() -> None:
    paused = session(stack=[frame("onboarding", "ask_target", paused=True)])
    for text in ["thanks for the help!", "you're funny", "mdr"]:
        got = commands(paused, text, entry="onboarding")
        assert len(got) == 1 and isinstance(got[0], Chitchat), (text, got)
    # saying hello again asks the paused question again
    assert commands(paused, "hi again", entry="onboarding") == [
        StartFlow(words="hi again", flow="onboarding", via="entry")
    ]


def test_a_refusal_or_putting_off_alone_is_read_where_the_question_reads_nothing_from_it() -> None:
    at_timezone = session(frame("onboarding", "ask_timezone"))
    # the timezone reader reads no place in them: a skip, a cancel (the onboarding pauses)
    for text in ["prefiero no decirlo", "möchte ich nicht sagen", "rather not say."]:
        assert commands(at_timezone, text) == [Skip(words=text)], text
    # putting it off keeps the run to come back to (a put-off); being fine without it stops it
    for text in ["ugh, not now", "ahora no"]:
        assert commands(at_timezone, text) == [Cancel(words=text, later=True)], text
    assert commands(at_timezone, "nvm i'm good") == [Cancel(words="nvm i'm good")]
    # the name question has its own answer to a refusal (a nickname works too): the flow reads it
    at_name = session(frame("onboarding", "ask_name"))
    assert not any(isinstance(c, Skip) for c in commands(at_name, "I'd rather not say"))
    # "not now" is a no to a yes/no question, no cancel
    at_confirm = session(frame("onboarding", "confirm"))
    assert not any(isinstance(c, Cancel) for c in commands(at_confirm, "not now"))


def test_a_menu_word_for_leaving_alone_is_a_cancel_where_the_question_reads_nothing_from_it() -> None:
    # the name question refuses "quit" quoting it, the placement question refuses it as it refuses any
    # words it cannot read: no reading of the flow's own, so a cancel (h-read9)
    for state in ("ask_name", "ask_timezone", "ask_native"):
        at = session(frame("onboarding", state))
        for text in ["quit", "EXIT!!", "exit please", "Sair!", "Quitter!", "Esci", "sortir."]:
            assert commands(at, text) == [Cancel(words=text)], (state, text)
    at_comment_ = session(frame("feedback", "details"))
    assert commands(at_comment_, "exit") == [Cancel(words="exit")]  # one word copied back is no comment
    # beside other words it is no cancel: "exit the app and reopen it" is the comment
    assert not any(isinstance(c, Cancel) for c in commands(at_comment_, "exit the app and reopen it"))


def test_small_talk_at_a_paused_run_is_said_back_and_the_run_stays_paused(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy")
    chat.say("hi").say("Ana").say("cancel").expect(flow="main")
    chat.say("thank you!!").expect(flow="main", reply_contains=["You're welcome!", "onboarding is paused"])
    chat.say("spanish").expect(flow="onboarding", state="ask_target")


def test_putting_off_until_later_alone_is_a_cancel_where_the_question_reads_nothing() -> None:
    at = session(frame("onboarding", "ask_timezone"))
    for text in [
        "hmm let's leave it for later",
        "lo dejamos para después",
        "Plus tard.",
        "Magari dopo",
        "deixa pra depois",
    ]:
        assert commands(at, text) == [Cancel(words=text, later=True)], text


def test_a_reply_that_only_adds_the_missing_part_is_read_with_the_refused_answer(dialogue: DialogueFactory) -> None:
    # "Please add the unit, kg or lb" then "kg" was refused again: the reply completes the refused message
    # (numbers a body weight in either unit: "78 ... 70" is read in kg, flows/fitness/weights.py unit_alone)
    chat = dialogue("fitness-coach")
    for text in ("hi", "beginner", "mild asthma", "fat loss"):
        chat.say(text)
    chat.say("I weigh 150 and want to be 140").expect(state="target_weight", reply_contains=["Please add the unit"])
    chat.say("kg").expect(state="days", slots={"target_weight_kg": 140.0, "current_weight_kg": 150.0})
    # a new answer, even one refused again, is read by itself: an amount to lose is no target
    chat = dialogue("fitness-coach")
    for text in ("hi", "beginner", "none", "fat loss"):
        chat.say(text)
    chat.say("90").expect(state="target_weight", reply_contains=["Please add the unit"])
    chat.say("lose 10 kg").expect(state="target_weight", slots={"target_weight_kg": None})
    # a command is never a part of the refused answer ("90 skip" would be read as 90 in the unit said since)
    chat.say("skip").expect(state="days", slots={"target_weight_kg": None})


def test_a_stop_beside_a_request_stops_the_flow_and_carries_the_request_out(dialogue: DialogueFactory) -> None:
    # "forget it, teach me integration instead" stopped the planning and dropped the lesson asked for
    chat = dialogue("study-pal")
    chat.say("help me plan some study time").expect(flow="scheduling")
    chat.say("forget it, teach me integration instead").expect(
        flow="tutoring", reply_contains=["stopped the scheduling", "Integration"]
    )
    # the thing stopped named without its article, the request and what the learner knows beside it
    chat = dialogue("study-pal")
    chat.say("help me plan some study time")
    chat.say("actually forget planning, just teach me integration now, derivatives i've got").expect(
        flow="tutoring", state="exercise", slots={"concept": "integration", "chunk": 1}
    )


@pytest.mark.parametrize("text", ["nothing for now", "nada por ahora", "rien pour l'instant", "im Moment nichts"])
def test_a_none_said_for_now_at_a_free_text_question_is_a_skip_not_the_text(text: str) -> None:
    # feedback's "what could be better?" kept "nada por ahora" as the comment (h-decline13)
    details = frame("feedback", "details")
    details.slots = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}
    assert commands(session(details), text) == [Skip(words=text)]


def test_a_real_comment_with_a_no_in_it_stays_the_answer() -> None:
    details = frame("feedback", "details")
    details.slots = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}
    got = commands(session(details), "no sound in the listening lessons")
    assert [type(c) for c in got] == [AnswerFlow]
