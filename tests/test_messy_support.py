"""Messy support and feedback input: free-text answers read ahead by their cues, messages that
say nothing at a free-text question, a new request at a question, questions about past feedback."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import DataFileError, Engine, MemoryStore, Resources, SqlStore, TurnResult
from engine.extract import Invalid
from engine.no_answer import load_no_answer, says_nothing
from flows.shared.feedback import read_category
from flows.shared.feedback_answers import comment_anywhere, sentiment_anywhere
from flows.shared.feedback_recall import asks_about_past, past_feedback
from flows.support.ahead import given_reader, read_answer
from flows.support.another import Split, adds_a_topic, split_new_topic
from flows.support.bot import seed
from flows.support.kb import Question, parse_document
from flows.support.questions import ClarificationSlots, choice_parser, in_asked_unit, number_parser, read_text

VERSION = Question(text="Which Android version?", type="number", min=5, max=16)
MODEL = Question(text="Which phone model do you use?", cues=["pixel", "samsung", "galaxy", "nothing phone"])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("notifications dont come on my samsung galaxy s21 ultra, android 14", "samsung galaxy s21 ultra"),
        ("my Pixel 7 Pro never rings", "pixel 7 pro"),
        ("its a nothing phone 2", "nothing phone 2"),
        ("android 14, no idea what model", None),
        ("nothing works on my phone", None),
    ],
)
def test_a_free_text_question_with_cues_is_read_ahead_by_them(text: str, value: str | None) -> None:
    assert read_answer(MODEL, text) == value
    assert read_answer(Question(text="Which phone model do you use?"), text) is None  # no cues: never read ahead


def test_the_phone_model_said_at_an_earlier_question_is_noted() -> None:
    s = ClarificationSlots(questions=[VERSION, MODEL], current_index=0, opened=True)
    assert given_reader(s)("14 on my samsung s21") == {MODEL.text: "samsung s21"}


def test_cues_belong_to_free_text_questions_only() -> None:
    with pytest.raises(ValueError, match="cues are only for type 'text'"):
        Question(text="Which Android version?", type="number", cues=["pixel"])


@pytest.mark.parametrize(
    ("text", "nothing"),
    [
        ("yes", True),
        ("Yeah sure!", True),
        ("nope.", True),
        ("hello??", True),
        ("hi there", True),
        ("??", True),
        ("👍", True),
        ("hmm", True),
        ("are you there?", True),
        ("no sound", False),
        ("no error, they just never arrive", False),
        ("pixel 7", False),
        ("no idea", False),
        ("nothing", False),
        # the same in the other languages the engine reads: a greeting, a filler, a bare yes or no
        ("¿hay alguien ahí?", True),
        ("hola a todos", True),
        ("Sí", True),
        ("nein danke", True),
        ("euh", True),
        ("Olá", True),
        ("ciao ragazzi!", True),
        ("non funziona il login", False),
        ("ja, die App stürzt ab", False),
    ],
)
def test_a_message_that_says_nothing_answers_no_free_text_question(text: str, nothing: bool) -> None:
    assert says_nothing(text) is nothing
    assert (read_text(text) is None) is nothing


def test_the_no_answer_tables_are_checked_on_load(tmp_path: Path) -> None:
    bad = tmp_path / "no_answer.yaml"
    langs = "{en: [%s], es: [a], de: [a], fr: [a], pt: [a], it: [a]}"
    bad.write_text(
        f"greetings: {langs % 'Hello'}\naddress: {langs % 'there'}\nfillers: {langs % 'hm'}\n"
        f"replies: {langs % 'ok, ok'}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataFileError) as info:
        load_no_answer(bad)
    assert "greetings" in str(info.value) and "replies" in str(info.value)


# -- a new request at a question -----------------------------------------------------------


def support_chat(tmp_path: Path) -> Engine:
    return Engine(SqlStore(str(tmp_path / "s.db")), None, Resources())


def test_a_new_request_at_a_free_text_question_is_kept_and_answered_after(tmp_path: Path) -> None:
    engine = support_chat(tmp_path)
    for text in ("notifications not arriving on my android", "pixel 8", "14"):
        engine.turn("support", "u", text)
    r = engine.turn("support", "u", "actually my payment failed too")
    assert (r.flow, r.state) == ("clarification", "text")
    assert 'another question ("Payment declined when upgrading to Premium")' in r.reply
    assert r.reply.endswith("Can you describe the error?")
    assert (
        r.slots["later"] == "actually my payment failed too" and "Can you describe the error?" not in r.slots["answers"]
    )
    end = engine.turn("support", "u", "they never show up")
    assert (
        end.flow == "main" and 'About your other question: Here is what our help article "Payment declined' in end.reply
    )


def test_a_new_request_two_articles_match_alike_is_kept_and_asked_about_after(tmp_path: Path) -> None:
    # read as the main conversation reads it (flows/support/lookup.py): the cancel and refund articles
    # match "i unsubscribed from premium but was still charged" as well as each other, so which is asked, not
    # guessed ("i no longer need premium, how do i end it" was such a request until the concept table
    # read "end it" as cancelling: it is the cancel article's, labelled so in the search corpus)
    engine = support_chat(tmp_path)
    for text in ("notifications not arriving on my android", "pixel 8"):
        engine.turn("support", "u", text)
    r = engine.turn("support", "u", "btw i unsubscribed from premium but was still charged")
    assert r.slots["later"] == "btw i unsubscribed from premium but was still charged"
    assert r.reply.startswith("That sounds like another question: I'll come back to it once we're done here.")
    engine.turn("support", "u", "14")
    end = engine.turn("support", "u", "they never show up")
    assert end.flow == "main" and "You also asked: “btw i unsubscribed from premium but was still charged”" in end.reply
    assert end.reply.endswith("Which one fits, or what exactly happens? (Say 'agent' to talk to a person.)")
    assert "1. Cancel your Premium subscription" in end.reply and "2. Request a refund" in end.reply


@pytest.mark.parametrize(
    "text",
    [
        "actually the error says sync failed",  # says it corrects, not that it adds
        "no error, they never ring too",  # adds, but names no other article
        "also the notifications on android never arrive",  # the article being clarified
    ],
)
def test_a_description_stays_the_answer(tmp_path: Path, text: str) -> None:
    engine = support_chat(tmp_path)
    for said in ("notifications not arriving on my android", "pixel 8", "14"):
        engine.turn("support", "u", said)
    r = engine.turn("support", "u", text)
    assert r.flow == "main" and "another question" not in r.reply


def test_only_a_word_that_adds_a_topic_marks_a_new_request() -> None:
    assert adds_a_topic("btw my card got declined") and adds_a_topic("oh and one more thing")
    assert not adds_a_topic("actually my payment failed") and not adds_a_topic("it's totally broken")


@pytest.mark.parametrize(
    ("text", "head", "topic"),
    [
        ("iphone 12, also my reminders dont ring", "iphone 12", "also my reminders dont ring"),
        ("android. and another thing, sync is slow", "android", "another thing, sync is slow"),
        ("it's on my mac btw the app also crashes on launch", "it's on my mac", "btw the app also crashes on launch"),
        ("pixel 7 and my card got declined too", "pixel 7", "and my card got declined too"),
        ("pixel 7, my payment also failed", "pixel 7", "my payment also failed"),
        ("about 20 and also my card was declined", "about 20", "and also my card was declined"),
    ],
)
def test_a_message_is_cut_where_its_new_topic_starts(text: str, head: str, topic: str) -> None:
    assert split_new_topic(text) == Split(head, topic)


@pytest.mark.parametrize(
    "text",
    [
        "actually my payment failed too",
        "btw i also deleted a list by accident",
        "iphone 12 also my reminders dont ring",  # no clause begins before "also"
    ],
)
def test_a_new_topic_with_nothing_said_before_its_clause_is_not_cut(text: str) -> None:
    assert split_new_topic(text) is None


def at_question(tmp_path: Path, *said: str) -> tuple[Engine, TurnResult]:
    engine = support_chat(tmp_path)
    results = [engine.turn("support", "u", text) for text in said]
    return engine, results[-1]


@pytest.mark.parametrize(
    ("opening", "text", "answer", "parsed", "later", "next_question"),
    [
        (
            "my tasks are not syncing",
            "iphone 12, also my reminders dont ring",
            "iphone 12",
            "phone",
            "also my reminders dont ring",
            "red exclamation mark",
        ),
        (
            "my tasks are not syncing",
            "it's on my mac btw the app also crashes on launch",
            "it's on my mac",
            "desktop",
            "btw the app also crashes on launch",
            "red exclamation mark",
        ),
        (
            "reminders come at the wrong time",
            "android. and another thing, sync is slow",
            "android",
            "Android",
            "another thing, sync is slow",
            "How many minutes late",
        ),
        (
            "notifications not arriving on my android",
            "pixel 8, also my payment failed",
            "pixel 8",
            "pixel 8",
            "also my payment failed",
            "Which Android version?",
        ),
    ],
)
def test_an_answer_and_a_new_request_in_one_message_are_both_kept(
    tmp_path: Path, opening: str, text: str, answer: str, parsed: str, later: str, next_question: str
) -> None:
    engine, r = at_question(tmp_path, opening, text)
    question = next(iter(r.slots["answers"]))
    assert r.flow == "clarification" and r.slots["answers"] == {question: answer}
    assert r.slots["parsed"] == {question: parsed} and r.slots["later"] == later
    assert "another question" in r.reply and next_question.casefold() in r.reply.casefold()
    first = r.slots["doc"]
    while r.flow == "clarification" and r.slots.get("doc") == first:  # the rest of this article's questions
        r = engine.turn("support", "u", "no" if r.state == "yes_no" else "10" if r.state == "number" else "idk")
    # the kept request is taken up in the same reply: answered ("About your other question"), or, when its
    # article has questions of its own, its first one asked (the engine carries the request out, engine/kept.py)
    assert "About your other question" in r.reply or (
        r.flow == "clarification" and f"You also asked: “{later}”" in r.reply
    )


def test_the_answer_part_also_answers_questions_to_come(tmp_path: Path) -> None:
    said = "samsung s21 on android 14, btw my card got declined"
    _, r = at_question(tmp_path, "notifications not arriving on android", said)
    assert r.slots["answers"] == {"Which phone model do you use?": "samsung s21 on android 14",
                                  "Which Android version?": "14"}  # fmt: skip
    assert r.slots["later"] == "btw my card got declined" and r.reply.endswith("Can you describe the error?")


def test_two_devices_at_a_device_question_are_no_new_request(tmp_path: Path) -> None:
    _, r = at_question(tmp_path, "my tasks are not syncing", "my iphone, my ipad too")
    assert r.slots["later"] is None and "another question" not in r.reply


def test_a_new_request_that_answers_a_typed_question_nothing_is_kept_and_the_question_asked_again(
    tmp_path: Path,
) -> None:
    _, r = at_question(tmp_path, "my tasks are not syncing", "also my card was declined")
    assert (r.state, r.slots["later"], r.slots["answers"]) == ("choice", "also my card was declined", {})
    assert 'another question ("Payment declined' in r.reply and r.reply.endswith("(phone, tablet, web or desktop)")


# -- feedback ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "past"),
    [
        ("what did I complain about earlier?", True),
        ("did i already give feedback", True),
        ("show me my last rating", True),
        ("what was my feedback last time?", True),
        ("I want to complain", False),
        ("can I give feedback?", False),
        ("I complained earlier and nothing changed", False),
        ("feedback: the lessons are too slow", False),
    ],
)
def test_a_question_about_past_feedback_is_told_from_giving_it(text: str, past: bool) -> None:
    assert asks_about_past(text) is past


def test_past_feedback_is_told_from_the_saved_entries() -> None:
    assert past_feedback([]).startswith("You haven't given any feedback yet.")
    entries = [{"rating": 4, "comment": "nice"}, {"rating": 2, "category": "bug", "comment": "audio cuts out"}]
    assert (
        past_feedback(entries)
        == 'You\'ve given feedback 2 times. Your last feedback (rating 2/5, about bug): "audio cuts out".'
    )


@pytest.mark.parametrize(
    ("text", "category"),
    [("what do you mean", None), ("the app", None), ("what did i complain about earlier?", None),
     ("latncy", "latency"), ("usabilty", "usability"), ("bug", "bug"), ("something else", "other")],
)  # fmt: skip
def test_a_common_word_is_never_a_misspelt_category(text: str, category: str | None) -> None:
    assert read_category(text) == category


# -- numbers in another unit, junk -----------------------------------------------------------

DAYS = Question(text="How many days ago were you charged?", type="number", min=0, max=365)
MINUTES = Question(text="About how many minutes late do they arrive?", type="number", min=1, max=1440)


@pytest.mark.parametrize(
    ("q", "text", "value"),
    [(DAYS, "like 2 weeks ago?", 14), (DAYS, "1 wk", 7), (MINUTES, "an hour late", 60), (MINUTES, "like 2 hrs", 120),
     (DAYS, "3 days ago", None), (MINUTES, "45 min", None), (DAYS, "3", None)],
)  # fmt: skip
def test_an_amount_in_another_time_unit_is_converted(q: Question, text: str, value: int | None) -> None:
    assert in_asked_unit(q, text) == value


def test_a_month_in_days_is_asked_again_not_guessed() -> None:
    assert isinstance(in_asked_unit(DAYS, "a month ago"), Invalid)
    s = ClarificationSlots(questions=[DAYS], opened=True)
    assert number_parser(s)("like 2 weeks ago?") == 14
    assert isinstance(number_parser(s)("a year ago, 400 days"), Invalid)  # out of bounds stays refused


@pytest.mark.parametrize("text", ["' OR '1'='1", "<b>1</b>", "??? 2"])
def test_a_number_alone_in_junk_searches_nothing(tmp_path: Path, text: str) -> None:
    r = support_chat(tmp_path).turn("support", "u", text)
    assert r.flow == "main" and "support assistant" in r.reply and "connect you" not in r.reply


def test_a_number_after_the_question_word_is_read_before_one_in_front_of_it() -> None:
    assert read_answer(VERSION, "xiaomi redmi note 12 android 13 notifications") == 13
    assert read_answer(DAYS, "charged me 3 days ago") == 3


@pytest.mark.parametrize(
    ("text", "comment"),
    [
        ("2/5 the exercises r ok but its sooo slow", "the exercises r ok but its sooo slow"),
        ("8/10 the lessons are great honestly", "the lessons are great honestly"),
        ("10 out of 10 love the speaking drills", "love the speaking drills"),
        ("3 — the audio keeps cutting out", "the audio keeps cutting out"),
        ("3 the audio cuts", None),  # a bare digit then words: no scale said, no comment read
        ("4/5", None),
    ],
)
def test_a_rating_on_its_scale_then_words_gives_the_comment(text: str, comment: str | None) -> None:
    assert comment_anywhere(text) == comment


def test_an_acknowledgement_beside_a_rating_is_no_mood() -> None:
    assert sentiment_anywhere("ok fine 2") is None
    assert sentiment_anywhere("2, it's terrible") == "negative"
    assert sentiment_anywhere("it's okay I guess") == "neutral"  # no rating: the words are the mood


def test_the_answer_slots_another_request_fills_are_the_clarification_asks() -> None:
    """another.py stores an answer said before a new request as the question's Ask state would:
    the same slot, read by the same parser."""
    from engine import Ask
    from flows.support.clarification import clarification
    from flows.support.kb import Question
    from flows.support.questions import ANSWER_SLOTS, ClarificationSlots, answer_parser

    asks = {s.name: s for s in clarification.states if isinstance(s, Ask)}
    assert {name: ask.slot for name, ask in asks.items()} == ANSWER_SLOTS
    for kind, said, value in (("text", "pixel 8", "pixel 8"), ("number", "14", 14), ("yes_no", "yep", True)):
        q = Question(text="Q?", type=kind, min=1, max=20) if kind == "number" else Question(text="Q?", type=kind)
        s = ClarificationSlots(questions=[q], opened=True)
        assert answer_parser(s, q)(said) == asks[kind].parser(s)(said) == value


BATTERY = Question(text="Is battery saver or Low Power Mode turned on?", type="yes_no")
REINSTALL = Question(text="Did reinstalling the app help?", type="yes_no")
CHARGED = Question(text="Were you charged more than once for the same period?", type="yes_no")
LATE = Question(text="About how many minutes late do they arrive?", type="number", min=1, max=1440)
SIGN_IN = Question(text="Can you still sign in to your account?", type="yes_no")


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [
        (BATTERY, "android, about 20 min late, and battery saver is on", True),
        (REINSTALL, "android, it crashes on start, and reinstalling didnt help", False),
        (REINSTALL, "iphone, reinstall did help for a day", True),
        (CHARGED, "4 days ago and yes it was charged twice", True),
        (CHARGED, "I was charged twice for Premium", None),  # no yes said: the question is asked
        (BATTERY, "no", None),  # a bare no names no question
        (REINSTALL, "the app crashes, battery saver is on", None),  # another question's words
        # a no said of something else in the clause, far from the question's words, says nothing of it
        (SIGN_IN, "someone logged into my account from a device I don't recognize", None),
    ],
)
def test_a_yes_no_question_is_read_ahead_from_a_clause_with_its_words_and_a_yes_or_no(
    question: Question, text: str, value: bool | None
) -> None:
    assert read_answer(question, text) is value


@pytest.mark.parametrize(
    ("text", "value"), [("iphone, about 15 min late", 15), ("sur Android, dix minutes de retard", 10)]
)
def test_a_number_is_anchored_by_a_unit_written_short_or_said_in_words(text: str, value: int) -> None:
    assert read_answer(LATE, text) == value


@pytest.mark.parametrize(
    ("doc", "text", "choice"),
    [
        ("reminders-wrong-time", "sul sito", "web"),
        ("sync-not-working", "sur mon téléphone", "phone"),
        ("app-crashes", "no navegador", "web"),
        ("sync-not-working", "en el portátil", "desktop"),
        ("app-crashes", "Android", "Android"),
    ],
)
def test_a_choice_named_in_the_users_language_is_read_through_the_help_centres_words(
    doc: str, text: str, choice: str
) -> None:
    path = Path(__file__).resolve().parent.parent / "flows" / "support" / "data" / "kb" / f"{doc}.md"
    slots = seed(parse_document(path.name, path.read_text(encoding="utf-8")), "")
    slots.opened = True
    assert choice_parser(slots)(text) == choice


@pytest.mark.parametrize(
    "comment",
    ["las lecciones se repiten demasiado", "les leçons sont trop courtes", "die Übungen sind zu leicht",
     "le lezioni sono noiose", "os exercícios são repetitivos"],
)  # fmt: skip
def test_a_comment_naming_the_lessons_in_the_learners_language_is_about_content(comment: str) -> None:
    store = MemoryStore()
    e = Engine(store)
    e.turn("language-buddy", "u", "I want to give feedback")
    e.turn("language-buddy", "u", "2")
    e.turn("language-buddy", "u", comment)
    assert [r.data["category"] for r in store.records("feedback")] == ["content"]
