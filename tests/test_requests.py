"""New requests in the middle of a flow (engine/requests.py): read at the open question in six languages
only when the part that asks for something else answers nothing; kept in the session's carry-over with
the question asked again and no attempt used; offered (a flow) or carried out (anything else) once the
session is back in the main conversation; several requests in one main-conversation message each done.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from bench.commands_corpus import shipped
from engine import Ahead, Ask, Bot, Final, Flow, Intent, Parser, Slots, T, default_registry, free_text, rating
from engine.authoring.testing import DialogueFactory
from engine.commands import AnswerFlow, AskBack, Chitchat, Command, Help, NewRequest
from engine.errors import DataFileError
from engine.kept import MAX_KEPT
from engine.models import CarryOver, FlowFrame, KeptRequest, SessionState
from engine.reading import read
from engine.requests import load_requests, several

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
registry = default_registry()


def reading(bot_name: str, flow: str, state: str, text: str, **slots: object) -> list[Command]:
    bot = registry.get(bot_name)
    frame = FlowFrame(flow=flow, version=bot.flow(flow).version, state=state, slots=dict(slots), started_at=AT)
    session = SessionState(id="s", bot=bot.name, user="u", active=frame)
    before = session.model_dump()
    got = read(bot, session, CarryOver(), text, lambda: None).commands
    assert session.model_dump() == before  # reading changes nothing
    return got


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text", "wanted"),
    [
        ("fitness-coach", "onboarding", "level", "could you send me a reminder every morning?", None),
        ("fitness-coach", "onboarding", "goal", "btw how do i delete my account", None),
        ("fitness-coach", "onboarding", "minutes", "¿me puedes mandar recetas veganas?", None),
        ("language-buddy", "onboarding", "ask_timezone", "comment je change mon mot de passe ?", None),
        ("language-buddy", "onboarding", "ask_native", "wie ändere ich meine E-Mail?", None),
        ("study-pal", "scheduling", "window", "teach me about integrals first", "tutoring"),
        ("study-pal", "tutoring", "choose", "fammi un piano di studio per giovedì", None),  # its intents read English
        ("study-pal", "tutoring", "choose", "what's my plan for thursday?", None),
        ("support", "clarification", "number", "também como mudo o meu email?", None),
        ("fitness-coach", "onboarding", "days", "kann ich mein Abo kündigen?", None),
        ("study-pal", "tutoring", "choose", "could we plan my week first?", "scheduling"),
        # a question of knowledge beside the question, even naming a value it takes ("beginner")
        ("fitness-coach", "onboarding", "level", "how many squats should a beginner manage?", None),
        ("fitness-coach", "onboarding", "diet", "wie viele Kalorien braucht man am Tag?", None),
        ("language-buddy", "onboarding", "ask_target", "como se diz obrigado em japonês?", None),
        ("fitness-coach", "onboarding", "limitations", "is cycling bad for the knees?", None),
        # whether doing it is good or bad for the body, whatever value it names (h-prec)
        ("fitness-coach", "onboarding", "days", "is it healthy to train twice a day?", None),
        ("fitness-coach", "onboarding", "minutes", "is it safe to run 90 minutes straight?", None),
    ],
)
def test_a_request_for_something_else_is_read_at_the_question(
    bot: str, flow: str, state: str, text: str, wanted: str | None
) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert [type(c) for c in got] == [NewRequest], got
    assert isinstance(got[0], NewRequest) and got[0].flow == wanted


_SEEDS: dict[tuple[str, str], dict[str, Any]] = {}


def _seed(bot: str, flow: str) -> dict[str, Any]:
    """Slots a run of `flow` holds at its questions (a lesson's course, support's questions), from the
    commands corpus's dev split."""
    if not _SEEDS:
        for case in shipped("dev"):
            _SEEDS.setdefault((case.entry.bot, case.entry.flow), case.seed)
    return _SEEDS.get((bot, flow), {})


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text"),
    [
        ("fitness-coach", "onboarding", "level", "beginner"),
        ("fitness-coach", "onboarding", "equipment", "skip rope and dumbbells"),
        ("fitness-coach", "onboarding", "limitations", "also my left knee hurts"),
        ("language-buddy", "onboarding", "ask_timezone", "MEZ, also UTC plus eins"),
        ("language-buddy", "onboarding", "ask_name", "je m'appelle Chloé, je veux apprendre l'anglais"),
        ("language-buddy", "feedback", "details", "the reminders never come and the app freezes"),
        ("study-pal", "scheduling", "window", "friday from 2 to 4"),
        ("fitness-coach", "onboarding", "days", "can we do 4 days?"),
        ("fitness-coach", "onboarding", "goal", "make me stronger"),
        ("fitness-coach", "onboarding", "goal", "i want a six pack"),
        ("fitness-coach", "onboarding", "days", "actually 4"),
        ("fitness-coach", "onboarding", "minutes", "quiero una rutina corta"),
        # what happens to the speaker, in Spanish as in Portuguese, is said of them, not asked of the bot
        ("fitness-coach", "onboarding", "limitations", "me duele un poco la rodilla izquierda"),
        ("fitness-coach", "onboarding", "goal", "me gusta correr, quiero mejorar resistencia"),
        ("fitness-coach", "onboarding", "limitations", "me dói o joelho esquerdo"),
    ],
)
def test_an_answer_stays_an_answer(bot: str, flow: str, state: str, text: str) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert not any(isinstance(c, NewRequest) for c in got), got
    assert isinstance(got[-1], AnswerFlow)


def test_an_answer_and_a_request_in_one_message_are_both_read() -> None:
    got = reading("fitness-coach", "onboarding", "minutes", "40. also can you remind me to stretch?")
    assert [type(c) for c in got] == [NewRequest, AnswerFlow]
    assert got[0].words == "also can you remind me to stretch?" and got[1].words == "40"


@pytest.mark.parametrize(
    "text",
    [
        "scrolling through my inbox. separate thing, how do i export my tasks to csv?",
        "when i open a list. otro tema, ¿cómo exporto mis tareas?",
        "beim Öffnen einer Liste. Anderes Thema: wie exportiere ich meine Aufgaben?",
    ],
)
def test_another_matter_announced_after_a_free_text_answer_is_split_off(text: str) -> None:
    # where any text answers (what the user was doing when it crashed), only a request opened as another topic is
    got = reading("support", "clarification", "text", text, **_seed("support", "clarification"))
    assert [type(c) for c in got] == [NewRequest, AnswerFlow], got
    assert isinstance(got[1], AnswerFlow) and "export" not in got[1].words.casefold()


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # another topic opened on a fact the flow reads ahead (the goal at the injuries question): no request
        ("nessuna, ah e il mio obiettivo è mettere su massa", False),
        ("nada, y por cierto mi objetivo es perder grasa", False),
        # a thing asked of the bot stays one, whatever value it names
        ("none, also can you remind me every morning?", True),
    ],
)
def test_a_fact_the_flow_reads_ahead_opened_as_another_topic_is_no_request(text: str, asks: bool) -> None:
    got = reading("fitness-coach", "onboarding", "limitations", text, fitness_level="beginner")
    assert any(isinstance(c, NewRequest) for c in got) is asks, got


def test_the_answer_put_off_until_after_a_request_answers_nothing() -> None:
    # "before I answer" only opens the request: no allergy called "before i answer"
    got = reading("fitness-coach", "onboarding", "allergies", "before I answer, can you show me my plan so far?")
    assert [type(c) for c in got] == [NewRequest], got


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("ask_timezone", "can you explain what that means?"),
        ("ask_target", "can i change it later?"),
        ("ask_target", "¿puedo cambiarlo después?"),
    ],
)
def test_a_question_back_is_no_request(state: str, text: str) -> None:
    got = reading("language-buddy", "onboarding", state, text)
    assert not any(isinstance(c, NewRequest) for c in got), got


def test_what_a_request_is_not_goes_with_it() -> None:
    got = reading("fitness-coach", "onboarding", "days", "can you give me a mobility routine, not a full program")
    assert [type(c) for c in got] == [NewRequest]
    assert got[0].words == "can you give me a mobility routine, not a full program"


# -- what happens ----------------------------------------------------------------------------------------


class RateSlots(Slots):
    rating: int | None = Field(None, ge=1, le=5)
    comment: str | None = None


class PlanSlots(Slots):
    topic: str | None = None


def _bot() -> Bot:
    rate = Flow(
        name="rate",
        slots=RateSlots,
        states=[
            Ask(
                "rating", slot="rating", say="How would you rate it, 1 to 5?", parse=rating(1, 5),
                why="Ratings tell us what to fix first.", max_attempts=1, initial=True,
            ),
            Ask("comment", slot="comment", say="Anything to add?", parse=free_text(), why="It says what to fix."),
            Final("done", summary="Rated {rating}.", say="Thanks for rating!"),
        ],
        transitions=[T("answer", "rating", "comment"), T("answer", "comment", "done")],
        max_turns=8,
    )  # fmt: skip
    plan = Flow(
        name="plan",
        slots=PlanSlots,
        states=[
            Ask("topic", slot="topic", say="What should the plan cover?", parse=free_text(), initial=True, why="w"),
            Final("made", summary="Planned {topic}.", say="Planned."),
        ],
        transitions=[T("answer", "topic", "made")],
    )
    return Bot(
        name="rater",
        persona="p",
        flows=[rate, plan],
        intents=[
            Intent("rate", patterns=[r"\brate\b"], description="rate"),
            Intent("plan", patterns=[r"\bplan\b"], description="plan", confirm="Shall I make you a plan now?"),
        ],
        capabilities="I rate things and make plans.",
    )


def test_a_request_is_kept_uses_no_attempt_and_is_offered_when_the_flow_ends(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot())
    chat.say("I want to rate").expect(flow="rate", state="rating")
    # one attempt only: a request read as a failed answer would take the fallback and skip the rating
    chat.say("can you make me a plan for the exam?").expect(
        flow="rate",
        state="rating",
        slots={"rating": None},
        reply_contains=["Noted: I'll come back to the plan once we're done with the rate.", "1 to 5"],
    )
    assert chat.last is not None and chat.last.trace is not None
    assert chat.last.trace.route == "command:new_request"
    assert [str(n) for n in chat.last.trace.notices] == ["request:rate.rating:kept: plan"]
    chat.say("4").expect(state="comment", slots={"rating": 4})
    chat.say("nothing more").expect(
        flow="main",
        reply_contains=["Thanks for rating!", "You also asked: “can you make me a plan for the exam?”. Shall I make"],
    )
    chat.say("yes").expect(flow="plan", state="topic")


def test_a_yes_to_a_kept_request_starts_its_flow_reading_its_words(dialogue: DialogueFactory) -> None:
    """What the request said is not asked again: the flow it starts reads it ahead, as at its start."""
    bot = _bot()
    plan = bot.flow("plan")
    topic = Parser(lambda t: m.group(1) if (m := re.search(r"\bfor the (\w+)", t)) else None, "a topic")
    bot = Bot(
        name="rater", persona="p", capabilities=bot.capabilities, intents=bot.intents,
        flows=[bot.flow("rate"), Flow(
            name="plan", slots=PlanSlots, states=plan.states, transitions=plan.transitions,
            ahead=(Ahead("topic", parser=topic, alone=True),),
        )],
    )  # fmt: skip
    chat = dialogue("rater", bots=bot)
    chat.say("I want to rate")
    chat.say("also make me a plan for the exam").expect(state="rating", reply_contains=["Noted"])
    chat.say("4")
    chat.say("nothing more").expect(flow="main", reply_contains=["Shall I make you a plan now?"])
    chat.say("yes").expect(flow="main", reply_contains=["Planned."])
    assert "Planned exam." in [m.content for m in chat.history]  # its summary: the topic read from the request


def test_a_request_for_the_main_conversation_is_carried_out_after_a_cancel(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot())
    chat.say("I want to rate")
    chat.say("btw how do i delete my account?").expect(state="rating", reply_contains=["Noted"])
    chat.say("cancel").expect(
        flow="main",
        reply_contains=["stopped the rate", "You also asked: “btw how do i delete my account?”.", "I rate things"],
    )
    chat.say("hello").expect(flow="main", reply_not_contains=["You also asked"])  # said once


def test_an_answer_beside_a_request_moves_on(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot())
    chat.say("I want to rate")
    chat.say("3. also, can you make me a plan?").expect(
        state="comment", slots={"rating": 3}, reply_contains=["Noted: I'll come back to the plan", "Anything to add?"]
    )


def test_a_few_requests_are_kept_the_oldest_giving_way(dialogue: DialogueFactory) -> None:
    chat = dialogue("rater", bots=_bot())
    chat.say("I want to rate")
    for n in range(MAX_KEPT + 2):
        chat.say(f"btw how do i delete account number {n}?").expect(state="rating", slots={"rating": None})
    chat.say("cancel")
    assert chat.last is not None
    assert "account number 1?" not in chat.last.reply and "account number 2?" in chat.last.reply
    assert f"account number {MAX_KEPT + 1}?" in chat.last.reply


def test_stored_sessions_without_kept_requests_still_load() -> None:
    stored = SessionState(id="s", bot="b", user="u").model_dump(mode="json")
    del stored["carry"]["requests"]
    assert SessionState.model_validate(stored).carry.requests == []
    kept = CarryOver(requests=[KeptRequest(text="teach me limits", flow="tutoring", during="scheduling")])
    assert CarryOver.model_validate_json(kept.model_dump_json()) == kept


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("can you move it an hour later and add decimals", ["can you move it an hour later", "add decimals"]),
        # "also" inside one request, after what only opens it
        ("can you also teach me derivatives after this?", ["can you also teach me derivatives after this?"]),
        ("add statistics, then move it to friday", ["add statistics", "move it to friday"]),
        ("teach me limits and derivatives", ["teach me limits and derivatives"]),
        ("I run and swim", ["I run and swim"]),
    ],
)
def test_several_requests_in_one_message(text: str, asks: list[str]) -> None:
    assert several(text) == asks


def test_a_broken_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "requests.yaml"
    bad.write_text(
        "asks: ['(']\nelsewhere: []\nbeside: []\ntopic: []\nopeners: []\ncontrast: []\nnot_requests: []\n",
        encoding="utf-8",
    )
    with pytest.raises(DataFileError, match="does not compile"):
        load_requests(bad)


# -- questions back and what they are confused with (h-ask11) ------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text"),
    [
        # the difference between everyday words the question does not name, past a comma too
        ("fitness-coach", "onboarding", "days", "what's the difference between ser and estar?"),
        ("language-buddy", "onboarding", "ask_timezone", "was ist der Unterschied zwischen der, die und das?"),
        ("language-buddy", "onboarding", "ask_target", "quelle est la différence entre le et la ?"),
        ("language-buddy", "onboarding", "ask_native", "diferença entre ser e estar?"),
        ("study-pal", "tutoring", "choose", "what's the difference between mean and median?"),
        # how a thing works, or how one does something, that the question does not name
        ("fitness-coach", "onboarding", "days", "how do integrals work?"),
        ("support", "clarification", "choice", "how does family sharing work?"),
        ("study-pal", "scheduling", "window", "erklärst du mir, wie man Ableitungen macht?"),
        ("language-buddy", "onboarding", "ask_timezone", "zeigst du mir, wie man Kniebeugen richtig macht?"),
        # an activity proposed together
        ("fitness-coach", "onboarding", "level", "can we talk about nutrition?"),
        ("language-buddy", "feedback", "rating", "can we review yesterday's vocab instead?"),
        ("language-buddy", "onboarding", "ask_native", "¿podemos practicar verbos irregulares?"),
        ("language-buddy", "onboarding", "ask_target", "possiamo praticare la pronuncia?"),
        ("fitness-coach", "onboarding", "minutes", "können wir zuerst Dehnübungen machen?"),
        ("study-pal", "scheduling", "window", "on peut réviser les limites d'abord ?"),
        # open questions about the world, a price or the user's other records
        ("study-pal", "tutoring", "choose", "who won the game last night?"),
        ("study-pal", "scheduling", "window", "when is my next exam?"),
        ("fitness-coach", "onboarding", "time_of_day", "¿cuánto cuesta la suscripción?"),
        ("language-buddy", "onboarding", "ask_native", "was kostet Premium?"),
    ],
)
def test_a_question_about_something_else_is_a_request_not_a_question_back(
    bot: str, flow: str, state: str, text: str
) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert [type(c) for c in got] == [NewRequest], got


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text"),
    [
        # the things compared, or the thing asked about, are the question's own: a question back
        ("fitness-coach", "onboarding", "level", "what's the difference between intermediate and advanced?"),
        ("fitness-coach", "onboarding", "level", "what's the difference between them?"),
        ("fitness-coach", "onboarding", "goal", "qual a diferença entre resistência e saúde geral?"),
        ("language-buddy", "feedback", "rating", "what's the difference between 3 and 4?"),
        ("language-buddy", "feedback", "rating", "how does the scale work?"),
        ("language-buddy", "feedback", "category", "whats the difference between bug and usability?"),
        ("study-pal", "tutoring", "choose", "what's the difference between limits and continuity?"),
        ("support", "clarification", "choice", "what's the difference between the app store and google play?"),
        ("fitness-coach", "onboarding", "equipment", "how do resistance bands work?"),
        ("study-pal", "scheduling", "window", "so how does this work?"),
        # the words of the question in the user's language: how it works is read in English only
        ("language-buddy", "onboarding", "ask_timezone", "comment fonctionne le fuseau horaire ?"),
    ],
)
def test_a_question_about_the_questions_own_things_is_a_question_back(
    bot: str, flow: str, state: str, text: str
) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert [type(c) for c in got] == [AskBack], got


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text"),
    [
        ("fitness-coach", "onboarding", "days", "can we do 3 days?"),
        ("study-pal", "tutoring", "choose", "could we study derivatives?"),
        ("language-buddy", "onboarding", "ask_target", "can we learn german?"),
        ("language-buddy", "onboarding", "ask_target", "¿podemos hacer francés?"),
        ("study-pal", "scheduling", "window", "can we do it on saturday morning?"),
    ],
)
def test_an_activity_proposed_with_the_answer_is_the_answer(bot: str, flow: str, state: str, text: str) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert [type(c) for c in got] == [AnswerFlow], got


@pytest.mark.parametrize(
    ("bot", "flow", "state", "text"),
    [
        ("study-pal", "scheduling", "window", "Qué me estás preguntando exactamente? no entiendo"),
        ("fitness-coach", "onboarding", "level", "what do you mean? i don't get it"),
        ("support", "clarification", "number", "what are you asking? i don't understand"),
        ("fitness-coach", "onboarding", "level", "was meinst du? ich verstehe nicht"),
        ("language-buddy", "feedback", "rating", "cosa intendi? non capisco"),
    ],
)
def test_not_understanding_beside_a_question_back_is_help(bot: str, flow: str, state: str, text: str) -> None:
    got = reading(bot, flow, state, text, **_seed(bot, flow))
    assert [type(c) for c in got] == [Help], got


def test_who_made_the_bot_is_small_talk_about_it() -> None:
    got = reading("language-buddy", "feedback", "rating", "who made this app?")
    assert [type(c) for c in got] == [Chitchat], got
    assert isinstance(got[0], Chitchat) and got[0].social == ("identity",)
