"""Questions back and small talk at an open question (engine/askback.py): read by the read stage into
`AskBack` and `Chitchat` only when the message carries no answer, in six languages; executed with the
state's declared `why`, the question left open and no attempt used, the turn still counted.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from engine import Ask, Bot, Final, Flow, Intent, Slots, T, default_registry, free_text, rating
from engine.askback import later_topic, question_back
from engine.authoring.testing import DialogueFactory
from engine.commands import AnswerFlow, AskBack, Chitchat, Command, Help
from engine.errors import DataFileError, DefinitionError
from engine.message_parts import load_questions_back, parts
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import read
from engine.smalltalk import REMARKS, small_talk

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
fitness_bot = default_registry().get("fitness-coach")
language_bot = default_registry().get("language-buddy")


def reading(bot: Bot, flow: str, state: str, text: str, **slots: object) -> list[Command]:
    frame = FlowFrame(flow=flow, version=bot.flow(flow).version, state=state, slots=dict(slots), started_at=AT)
    session = SessionState(id="s", bot=bot.name, user="u", active=frame)
    before = session.model_dump()
    got = read(bot, session, CarryOver(), text, lambda: None).commands
    assert session.model_dump() == before  # reading changes nothing
    return got


def asked(bot: Bot, flow: str, state: str, text: str, **slots: object) -> str | None:
    """What `text` is at the question: the AskBack's `about`, "chitchat", "help", or None (an answer)."""
    got = reading(bot, flow, state, text, **slots)
    match got:
        case [AskBack(about=about)]:
            return about
        case [Chitchat()]:
            return "chitchat"
        case [Help()]:
            return "help"
        case [*_, AnswerFlow()]:
            return None
    return got[0].kind  # another command (a person asked for, a skip)


@pytest.mark.parametrize(
    ("state", "text", "about"),
    [
        # English
        ("ask_timezone", "why do you need my timezone?", "why"),
        ("ask_timezone", "what does that mean?", "meaning"),
        ("ask_target", "which ones do you support?", "options"),
        ("ask_name", "do i have to use my real name", "why"),
        # Spanish
        ("ask_timezone", "¿para qué necesitas saber eso?", "why"),
        ("ask_timezone", "¿qué significa IANA?", "meaning"),
        # German
        ("ask_timezone", "wozu brauchst du meine Zeitzone?", "why"),
        ("ask_timezone", "was heißt das?", "meaning"),
        ("ask_target", "welche Sprachen gibt es denn?", "options"),
        # French
        ("ask_name", "pourquoi vous avez besoin de mon nom ?", "why"),
        ("ask_timezone", "c'est quoi un fuseau horaire IANA ?", "meaning"),
        # Italian
        ("ask_native", "perché ti serve saperlo?", "why"),
        ("ask_timezone", "cosa vuol dire?", "meaning"),
        # Portuguese
        ("ask_timezone", "por que precisa do meu fuso horário?", "why"),
        ("ask_timezone", "como assim?", "meaning"),
    ],
)
def test_a_question_back_is_read_in_six_languages(state: str, text: str, about: str) -> None:
    assert asked(language_bot, "onboarding", state, text) == about


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("days", "3 — why do you ask?"),  # a stated answer beside the question
        ("days", "is 4 ok? I train 4 days"),
        ("days", "is 4 ok?"),  # a yes/no question naming a value is a tentative answer
        ("days", "4?"),
        ("days", "how about 3"),  # a proposal
        ("level", "why? I'm a beginner"),
        ("level", "intermediate i guess, why?"),
        ("time_of_day", "morning"),  # small talk a parser reads is the answer
        ("limitations", "bad knee, why do you ask?"),
    ],
)
def test_a_question_that_carries_an_answer_is_the_answer(state: str, text: str) -> None:
    assert asked(fitness_bot, "onboarding", state, text) is None


def test_an_open_question_asks_even_when_it_names_an_option() -> None:
    assert asked(fitness_bot, "onboarding", "level", "what counts as intermediate exactly") == "meaning"
    assert asked(fitness_bot, "onboarding", "diet", "whats pescatarian") == "meaning"
    assert asked(fitness_bot, "onboarding", "diet", "o que é paleo?") == "meaning"


def test_where_any_text_is_an_answer_only_a_question_about_the_question_asks() -> None:
    # feedback's comment: the parser is greedy
    assert asked(language_bot, "feedback", "details", "why do you need that?", rating=3) == "why"
    assert asked(language_bot, "feedback", "details", "what do you mean?", rating=3) == "meaning"
    assert asked(language_bot, "feedback", "details", "warum brauchen Sie das?", rating=3) == "why"
    for comment in ("why does the app crash?", "what is wrong with the sync?", "why do you need that, it crashes"):
        assert asked(language_bot, "feedback", "details", comment, rating=3) is None


def test_a_request_or_another_topic_is_no_question_back() -> None:
    for text in (
        "can you remind me to work out tomorrow?",
        "btw how do i change my email?",
        "is there a human i can ask?",
    ):
        assert asked(fitness_bot, "onboarding", "days", text) in (
            None,
            "handoff",
            "new_request",
        )  # a new request: engine/requests.py


def test_what_the_bot_offers_of_the_questions_own_things_asks_about_its_options() -> None:
    # "which languages do you offer?" at the language question asks which of its options there are
    at = {"name": "Ana", "native_language": "es"}
    assert asked(language_bot, "onboarding", "ask_target", "which languages do you offer?", **at) == "options"
    assert asked(language_bot, "onboarding", "ask_target", "what languages do you teach?", **at) == "options"
    # what it offers of something else, or asked outright, is a request
    assert asked(fitness_bot, "onboarding", "days", "do you have meal plans too?") == "new_request"
    assert asked(fitness_bot, "onboarding", "days", "which recipes do you offer?") == "new_request"


def test_a_call_for_help_in_a_question_is_the_help_command() -> None:
    assert asked(fitness_bot, "onboarding", "diet", "help, what do these mean") == "help"
    assert asked(language_bot, "onboarding", "ask_timezone", "Hilfe, was soll ich hier eingeben?") == "help"


@pytest.mark.parametrize(
    "text",
    ["hi, sorry, I was away", "hey! good morning :)", "hola", "merci beaucoup", "ich bin wieder da", "scusa", "kkkk"],
)
def test_small_talk_at_a_question_is_chitchat(text: str) -> None:
    assert asked(fitness_bot, "onboarding", "days", text) == "chitchat"


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("equipment", "thanks so far!"),  # the equipment reader would copy it back as an item
        ("limitations", "lol this is fun"),
        ("goal", "you're so patient"),
        ("days", "ugh work is killing me"),
        ("minutes", "je suis crevé"),
    ],
)
def test_a_remark_or_a_feeling_at_a_question_that_takes_a_value_is_chitchat(state: str, text: str) -> None:
    assert asked(fitness_bot, "onboarding", state, text) == "chitchat"


def test_at_a_free_text_question_a_remark_is_the_answer() -> None:
    # feedback's comment takes any text: "you're so helpful" is feedback, not small talk
    for comment in ("you're so helpful", "this is really fun", "i'm bored"):
        assert asked(language_bot, "feedback", "details", comment, rating=5) is None


def test_remarks_are_their_own_kinds_of_small_talk() -> None:
    found = small_talk("thanks you're a lifesaver")
    assert found is not None and found.kinds == ("thanks", "compliment")
    found = small_talk("kkkk to morrendo de sono")
    assert found is not None and found.kinds == ("laughter", "feeling")
    assert small_talk("you're wrong about my level") is None


def test_small_talk_kinds_and_words_are_the_users() -> None:
    found = small_talk("hi, sorry, I was away!!")
    assert found is not None and set(found.kinds) >= {"greeting", "away"} and found.words == "hi, sorry, I was away"
    assert small_talk("hi, I'm Ana") is None  # not only small talk
    back = question_back("Hmm, ¿para qué necesitas saber eso?", lambda _: None, free_text=False)
    assert back is not None and back.words == "para qué necesitas saber eso"


def test_parts_keep_positions_of_the_typed_message() -> None:
    text = "Intermédiaire — ça veut dire quoi ?"
    assert [(text[p.start : p.end], p.role) for p in parts(text)] == [
        ("Intermédiaire", "statement"),
        ("ça veut dire quoi", "open"),
    ]


def test_a_broken_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "questions_back.yaml"
    bad.write_text("interrogatives: {strong: ['(unclosed'], weak: []}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="does not compile"):
        load_questions_back(bad)


def test_every_shipped_asking_state_says_why_it_asks() -> None:
    missing = [
        f"{bot.name}/{flow.name}.{state.name}"
        for bot in default_registry()
        for flow in bot.flows
        for state in flow.states
        if isinstance(state, Ask) and not state.why
    ]
    assert missing == []


# -- executed -------------------------------------------------------------------------------------------


class RateSlots(Slots):
    rating: int | None = Field(None, ge=1, le=5)
    comment: str | None = None


def _flow(**changes: Any) -> Flow[RateSlots]:
    ask = Ask(
        "rating",
        slot="rating",
        say="How would you rate it, 1 to 5?",
        parse=rating(1, 5),
        reprompts=["Please give one number from 1 to 5."],
        why="Ratings tell us what to fix first.",
        max_attempts=1,
        initial=True,
    )
    return Flow(
        name="rate",
        slots=RateSlots,
        states=[
            dataclasses.replace(ask, **changes),
            Ask("comment", slot="comment", say="Anything to add?", parse=free_text()),
            Final("done", summary="Rated {rating}."),
        ],
        transitions=[T("answer", "rating", "comment"), T("answer", "comment", "done")],
        max_turns=4,
    )


def _bot(flow: Flow[RateSlots]) -> Bot:
    return Bot(
        name="rater",
        persona="p",
        flows=[flow],
        intents=[Intent("rate", patterns=[r"\brate\b"], description="rate")],
        capabilities="c",
    )


def test_a_question_back_is_answered_with_why_and_uses_no_attempt(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot(_flow()))
    chat.say("I want to rate").expect(flow="rate", state="rating")
    # one attempt only: a question back that used one would take the fallback and skip the question
    chat.say("why do you need that?").expect(
        state="rating",
        slots={"rating": None},
        reply="Ratings tell us what to fix first.\n\nHow would you rate it, 1 to 5?",
    )
    chat.say("what does that mean?").expect(
        state="rating", reply_contains=["Ratings tell us", "Please give one number"]
    )
    chat.say("hi, sorry, I was away").expect(state="rating", reply_contains=["No problem, welcome back.", "1 to 5"])
    chat.say("4").expect(state="comment", slots={"rating": 4})
    trace = chat.last.trace if chat.last else None
    assert trace is not None and trace.route == "flow"


def test_a_question_back_about_a_question_still_to_come_says_it_comes_later(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot(_flow()))
    chat.say("I want to rate").say("do I get to add anything later?").expect(
        state="rating",
        slots={"rating": None},
        reply="We'll come to that in a later question.\n\nHow would you rate it, 1 to 5?",
    )
    # about the open question itself: its reason, as before
    chat.say("why do you need a rating?").expect(state="rating", reply_contains=["Ratings tell us"])
    chat.say("4").expect(state="comment")


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("uh how many days do you recommend?", "days"),
        ("what about allergies, do they matter?", "allergies"),
        ("do you need my timezone too?", "timezone"),
        ("why do you need my level?", None),  # the open question's own topic
        ("what does that mean?", None),  # no topic word at all
        ("do you like pizza?", None),  # a topic no question has
        ("comment ça marche ?", None),  # French "how", not the comment question
    ],
)
def test_the_question_to_come_is_the_first_naming_the_topic(text: str, topic: str | None) -> None:
    later = {
        "days": "days a week The number of days sets how the plan spreads the work.",
        "preferred_days": "preferred days I put your workouts on the days that suit you.",
        "allergies": "allergies Any food allergies or intolerances?",
        "timezone": "timezone What's your timezone?",
        "comment": "comment Your own words tell the team what to fix.",
    }
    assert later_topic(text, "fitness level Your level sets how hard the first weeks are.", later) == topic


def test_help_says_why_too(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot(_flow()))
    chat.say("I want to rate").say("help").expect(state="rating", reply_contains=["Ratings tell us what to fix first."])


def test_questions_back_still_count_towards_max_turns(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot(_flow()))
    chat.say("I want to rate")
    for _ in range(5):  # max_turns=4: the fifth message at the question ends the run
        chat.say("why?")
    chat.expect(flow="main", reply_contains=["stopped the rate"])


def test_without_a_why_the_help_or_what_the_parser_expects_answers(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot(_flow(why=None)))
    chat.say("I want to rate").say("why do you ask?").expect(
        state="rating", reply_contains=["I'm asking for a rating from 1 to 5."]
    )


@pytest.mark.parametrize("why", ["", "   ", "{nope}"])
def test_a_bad_why_is_refused_when_the_flow_is_declared(why: str) -> None:
    with pytest.raises(DefinitionError, match=r"why|nope"):
        _flow(why=why)


@pytest.mark.parametrize("text", ["ok back", "ok im back, where were we", "let's continue", "lets keep going"])
def test_being_back_and_going_on_is_small_talk_at_an_open_question(text: str) -> None:
    # at a lesson's exercise "ok back" and "let's continue" were graded as wrong answers
    talk = small_talk(text)
    assert talk is not None and "away" in talk.kinds


def test_at_free_text_a_question_on_the_words_of_the_question_asks() -> None:
    # feedback's comment question says "What went wrong?": asking what "wrong" means asks about it
    assert (
        asked(language_bot, "feedback", "details", "what do you mean by wrong?", rating=2, sentiment="negative")
        == "meaning"
    )
    # a meaning question about something the question does not say is the comment
    assert (
        asked(language_bot, "feedback", "details", "what does latency mean here?", rating=2, sentiment="negative")
        is None
    )


def test_an_open_question_states_nothing_and_a_meaning_question_names_its_subject() -> None:
    assert asked(fitness_bot, "onboarding", "diet", "what counts as flexitarian?") == "meaning"
    assert asked(fitness_bot, "onboarding", "level", "ça veut dire quoi, intermédiaire??") == "meaning"
    assert asked(language_bot, "feedback", "rating", "is 5 the best??") is not None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("this bot is kinda slow ngl", "complaint"),
        ("you already asked that", "complaint"),
        ("omg thank you", "thanks"),
        ("sorry my cat walked on the keyboard", "away"),
        ("Sorry, phone died", "away"),
        ("muito obrigada!", "thanks"),
        ("ciao di nuovo", "greeting"),
    ],
)
def test_complaints_mishaps_and_sounds_are_small_talk(text: str, kind: str) -> None:
    talk = small_talk(text)
    assert talk is not None and kind in talk.kinds, (text, talk)


def test_a_sound_beside_thanks_is_no_remark_at_free_text() -> None:
    # a remark is the answer where any text is one; "omg" is no remark, so "omg thank you" is small talk there
    talk = small_talk("omg thank you")
    assert talk is not None and not REMARKS & set(talk.kinds)
    assert asked(language_bot, "feedback", "details", "this app is so slow", rating=2) is None


@pytest.mark.parametrize(
    "text", ["Vale.", "dale", "bueno", "Oki", "Okey dokey!", "D'acc!", "ok tá", "jo passt", "ok bene"]
)
def test_an_acknowledgement_alone_is_no_answer_and_asks_again(text: str) -> None:
    # six languages; "vale", "dale" are names too, so only where the question reads no name (h-read9)
    assert asked(fitness_bot, "onboarding", "days", text, fitness_level="beginner") == "chitchat"
    assert asked(language_bot, "onboarding", "ask_timezone", text, name="Ana") == "chitchat"


def test_an_acknowledgement_that_is_a_name_answers_the_name_question() -> None:
    for text in ["vale", "Dale"]:
        assert asked(language_bot, "onboarding", "ask_name", text) is None
    assert asked(language_bot, "onboarding", "ask_name", "got it") == "chitchat"  # two words: no name


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("days", "what if i say 4?"),
        ("days", "e se eu disser 3?"),
        ("minutes", "¿y si digo 45 minutos?"),
        ("level", "et si je mets intermédiaire ?"),
        ("days", "und wenn ich 3 sage?"),
        ("days", "e se dicessi 4?"),
        ("time_of_day", "what if we go with mornings?"),
    ],
)
def test_an_answer_put_forward_as_a_supposition_is_the_answer(state: str, text: str) -> None:
    # six languages (h-read9); a supposition that names no answer still asks
    assert asked(fitness_bot, "onboarding", state, text, fitness_level="beginner") is None


def test_a_supposition_without_an_answer_still_asks() -> None:
    assert asked(fitness_bot, "onboarding", "days", "what if i get injured?", fitness_level="beginner") is not None


@pytest.mark.parametrize(
    ("state", "text"),
    [
        # whether the value named is enough for a purpose (h-cmd14): the user weighs it and has not given it
        ("days", "reichen 2 Tage pro Woche überhaupt?"),
        ("days", "3 dias é suficiente pra ver resultado?"),
        ("days", "¿3 días son suficientes para ver cambios?"),
        ("minutes", "est-ce que 20 minutes suffisent pour progresser ?"),
        ("minutes", "20 minutos vale a pena?"),
        # whether it will do, said of the value with no purpose named (h-prec): it asks, in six languages
        ("minutes", "are 25 minutes enough?"),
        ("minutes", "¿25 minutos son suficientes?"),
        ("days", "sind 2 Tage genug?"),
        ("days", "2 giorni sono sufficienti?"),
        ("days", "2 dias bastam?"),
        ("days", "is 6 days normal?"),
        # one value set against another, the scale against itself, a need
        ("goal", "is fat loss the same as losing weight?"),
        ("goal", "ist Muskelaufbau dasselbe wie Kraft?"),
        ("time_of_day", "de manhã é melhor pra perder peso?"),
        ("level", "is advanced only for athletes?"),
        ("equipment", "do I need a gym for this plan?"),
        ("equipment", "preciso de halteres?"),
        ("equipment", "servono per forza i manubri?"),
    ],
)
def test_a_question_weighing_a_value_asks_and_gives_none(state: str, text: str) -> None:
    slots = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "days_per_week": 3}
    keep = {"level": {}, "goal": {"fitness_level": "intermediate", "limitations": "none"}}
    assert asked(fitness_bot, "onboarding", state, text, **keep.get(state, slots)) is not None


@pytest.mark.parametrize(
    "text",
    [
        "would 30 minutes be enough?",
        "¿serían suficientes 30 minutos?",
        "is 45 ok?",
        "45 minutes, is that too much?",
        "45, is that normal?",
        "45 minutes, ça suffit ?",
    ],
)
def test_a_value_put_forward_for_approval_is_still_the_answer(text: str) -> None:
    # "enough" alone asks for approval of the value said: the answer (the commands corpus's dev labels)
    slots = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "days_per_week": 3}
    assert asked(fitness_bot, "onboarding", "minutes", text, **slots) is None


def test_an_option_of_several_words_said_unsure_is_the_answer() -> None:
    # a closed choice reads nothing from unknown words: "app store?" names one of its options (h-cmd14)
    from flows.support.bot import seed
    from flows.support.kb import parse_document

    kb = Path(__file__).parent.parent / "flows" / "support" / "data" / "kb" / "refund-request.md"
    slots = seed(parse_document(kb.name, kb.read_text(encoding="utf-8")), "").model_dump(mode="json")
    support = default_registry().get("support")
    assert asked(support, "clarification", "choice", "app store?", **slots) is None


def test_german_was_opens_an_open_question_not_a_yes_no_one() -> None:
    # English "was" is German "what" before a German verb; "was ist mit X gemeint?" asks what X means (h-cmd14)
    assert [p.role for p in parts("was heißt Latenz?")] == ["open"]
    assert [p.role for p in parts("was ist mit Muttersprache genau gemeint?")] == ["open"]
    assert [p.role for p in parts("was ist mit Deutsch?")] == ["proposal"]
    assert [p.role for p in parts("was it ok?")] == ["polar"]
    at = {"rating": 2, "sentiment": "negative", "comment": "the audio keeps cutting out"}
    assert asked(language_bot, "feedback", "category", "was heißt Latenz?", **at) == "meaning"


@pytest.mark.parametrize(
    "text",
    [
        "should I mention the bugs here or later?",
        "do you want details about the crash or just a summary?",
        "¿puedo escribirlo en español?",
        "devo descrivere il bug qui?",
        "soll ich den Fehler hier beschreiben?",
        "je dois parler du bug ici ?",
    ],
)
def test_at_a_free_text_question_asking_how_to_answer_asks(text: str) -> None:
    # where any text is an answer, a question about the answer to give is still a question back (h-cmd14)
    assert asked(language_bot, "feedback", "details", text, rating=2) is not None


def test_at_a_free_text_question_a_question_about_something_else_is_the_comment() -> None:
    assert asked(language_bot, "feedback", "details", "why does the app crash so often?", rating=2) is None
    assert asked(language_bot, "feedback", "details", "is it ok if I say the lessons are too short?", rating=2) is None
