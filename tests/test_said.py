"""Engine commands said in a sentence (engine/said.py), and what a turn does with them.

The reader's shapes in each language, the messages that must stay answers, the data file's
checks, and the three commands executed at a question of a shipped bot: a skip where the flow
goes on without the answer and where it needs it, a person asked for where the bot has people
(support) and where it has none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, MemoryStore, SessionState
from engine.commandphrases import load_phrases
from engine.errors import DataFileError
from engine.said import (
    asks_for_person,
    puts_off,
    said,
    says_cancel,
    says_help,
    says_later,
    says_putting_off,
    says_refusal,
    says_resume,
    says_skip,
    says_unsure,
)
from engine.wrapped import unwrapped

# (message, the command it says) in six languages; each reads as that command and no other
SAID = [
    ("idk, skip", "skip"),
    ("no idea tbh, next", "skip"),
    ("pass on this one", "skip"),
    ("paso, siguiente", "skip"),
    ("passe cette question", "skip"),
    ("das überspringe ich", "skip"),
    ("salta", "skip"),
    ("próxima pergunta", "skip"),
    ("im confused, help me", "help"),
    ("help me out here, what format?", "help"),
    ("Hilfe, was soll ich hier eingeben?", "help"),
    ("ayuda por favor", "help"),
    ("aide", "help"),
    ("aiutami", "help"),
    ("socorro", "help"),
    ("human please", "person"),
    ("can i talk to support instead? someone real", "person"),
    ("is there a human i can ask about my injury first?", "person"),
    ("quiero hablar con una persona", "person"),
    ("je peux parler à un vrai coach ?", "person"),
    ("ich möchte mit einem Menschen sprechen", "person"),
    ("posso parlare con una persona?", "person"),
    ("quero falar com uma pessoa", "person"),
    ("nvm cancel", "cancel"),
    ("stop, i'll finish this later", "cancel"),
    ("changed my mind, cancel", "cancel"),
    ("para, não quero mais", "cancel"),
    ("ach, lass uns aufhören", "cancel"),
    ("annulla tutto", "cancel"),
    ("can we just not", "cancel"),
    ("can we not do the test", "cancel"),
    ("mejor olvídalo todo!", "cancel"),
    ("esquece o teste", "cancel"),
    ("dai, lascia perdere tutto", "cancel"),
    ("laisse tomber définitivement", "cancel"),
    ("let's forget the whole thing", "cancel"),
    ("ach vergiss es einfach", "cancel"),
    ("dont care, just skip", "skip"),
    ("ask me later", "skip"),
    ("don't know, next one", "skip"),
]
READERS = {"skip": says_skip, "help": says_help, "person": asks_for_person, "cancel": says_cancel}

# answers that hold a command word: none of them is a command
ANSWERS = [
    "skip rope and dumbbells",
    "next week",
    "the reminders stop",
    "cancel my subscription",
    "help, my app crashes when I open a list",
    "I talked to your agent yesterday and it did not help",
    "coach",
    "a person who trains twice a week",
    "can i get support for the android app",
    "no",
    "later",
    "not now",
    "I don't know",
    "stop please",  # a lesson reads it as its own ending
]


@pytest.mark.parametrize(("text", "kind"), SAID)
def test_a_command_said_in_a_sentence_is_read_as_that_command_only(text: str, kind: str) -> None:
    assert {k for k, read in READERS.items() if read(text)} == {kind}


@pytest.mark.parametrize("text", ANSWERS)
def test_an_answer_with_a_command_word_in_it_is_no_command(text: str) -> None:
    assert {k for k, read in READERS.items() if read(text)} == set()


def test_a_cancel_may_name_what_it_stops_the_open_flow_among_it() -> None:
    assert says_cancel("never mind, cancel the feedback", "feedback")
    assert says_cancel("quit the quiz") and says_cancel("arrête tout")
    assert not says_cancel("cancel the feedback", "onboarding")  # another activity: not this one's cancel
    assert not says_cancel("cancel my subscription", "clarification")
    assert not says_cancel("skip it", "feedback") and says_skip("skip it")


def test_the_phrase_file_is_checked_on_load(tmp_path: Path) -> None:
    assert load_phrases().skip  # the shipped file loads
    bad = tmp_path / "commands.yaml"
    shipped = Path(__file__).parents[1] / "engine" / "data" / "commands.yaml"
    bad.write_text(shipped.read_text(encoding="utf-8").replace("help: [\n", "help: [\n  skip,\n", 1), encoding="utf-8")
    with pytest.raises(DataFileError, match="'skip' is listed under both 'skip' and 'help'"):
        load_phrases(bad)
    bad.write_text("filler: [a, b]\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="command phrases"):
        load_phrases(bad)


def _session(engine: Engine, bot: str, user: str) -> SessionState:
    s = engine.store.load(bot, user)
    assert s is not None
    return s


def _at(bot: str, *before: str) -> tuple[Engine, str]:
    engine = Engine(MemoryStore())
    for text in before:
        engine.turn(bot, "u", text)
    return engine, "u"


def test_a_skip_leaves_a_question_the_flow_can_go_on_without() -> None:
    engine, user = _at("fitness-coach", "hi", "beginner")
    r = engine.turn("fitness-coach", user, "idk, skip")
    assert r.state == "goal" and "skip that one" in r.reply
    assert _session(engine, "fitness-coach", user).active.slots["limitations"] is None  # type: ignore[union-attr]
    assert r.trace is not None and [n.kind for n in r.trace.notices].count("skipped") == 1


def test_a_skip_at_a_question_the_flow_needs_asks_again_without_using_an_attempt() -> None:
    engine, user = _at("language-buddy", "hi")
    r = engine.turn("language-buddy", user, "can i skip this?")
    assert r.state == "ask_name" and "I need this one to go on" in r.reply
    assert _session(engine, "language-buddy", user).active.attempts == 0  # type: ignore[union-attr]


def test_a_person_asked_for_at_a_question_of_a_bot_with_people_gets_one() -> None:
    engine, user = _at("support", "my reminders arrive late")
    assert _session(engine, "support", user).active is not None  # the clarifying questions
    r = engine.turn("support", user, "quiero hablar con una persona")
    # support's own hand-over (filed with the article and the answers so far), in any language
    assert r.flow == "main" and "connecting you to" in r.reply.lower()
    assert engine.turn("support", user, "hello?").trace.route == "agent:waiting"  # type: ignore[union-attr]


def test_a_flow_that_hands_over_itself_keeps_doing_so() -> None:
    # support's clarification files what was answered so far with its own hand-over aside
    engine, user = _at("support", "my reminders arrive late")
    r = engine.turn("support", user, "can i talk to a human please")
    assert (r.flow, r.reply) == ("main", "Connecting you to an agent…")


def test_a_person_asked_for_where_there_is_none_is_told_so_and_asked_again() -> None:
    engine, user = _at("fitness-coach", "hi")
    r = engine.turn("fitness-coach", user, "can i get a real coach to call me")
    assert r.state == "level" and "no person I can put you through to" in r.reply
    assert "beginner, intermediate or advanced" in r.reply


@pytest.mark.parametrize(
    "text",
    [
        "ok im back, lets continue",
        "resume my setup pls",
        "continue the onboarding",
        "machen wir weiter",
        "vamos continuar",
        "je suis de retour, on reprend",
    ],
)
def test_going_on_with_a_paused_run_is_said_in_a_sentence_and_in_six_languages(text: str) -> None:
    assert says_resume(text, "onboarding")


@pytest.mark.parametrize("text", ["dumbbells and a bench", "back squats", "continue with cardio please", "my back"])
def test_an_answer_that_holds_a_word_of_going_on_is_no_resume(text: str) -> None:
    assert not says_resume(text, "onboarding")


def test_a_paused_run_is_resumed_at_its_question_not_answered_by_coming_back() -> None:
    engine, user = _at("fitness-coach", "hi", "beginner", "none", "cancel")
    r = engine.turn("fitness-coach", user, "machen wir weiter")
    assert r.flow == "onboarding" and r.state == "goal" and "Welcome back" in r.reply
    assert _session(engine, "fitness-coach", user).active.slots["goal"] is None  # type: ignore[union-attr]


def test_stop_with_a_run_paused_stops_that_run() -> None:
    engine, user = _at("fitness-coach", "hi", "beginner", "cancel")
    r = engine.turn("fitness-coach", user, "forget the onboarding for good")
    assert r.flow == "main" and "stopped the paused onboarding" in r.reply
    session = _session(engine, "fitness-coach", user)
    assert session.active is None and not session.stack
    assert [run.outcome for run in engine.store.runs(session.id)] == ["cancelled"]
    # with nothing open or paused, there is still nothing to cancel
    assert "nothing to cancel" in engine.turn("fitness-coach", "other", "cancel").reply


def test_putting_off_a_paused_run_keeps_it_paused_with_its_answers() -> None:
    # "gotta go, can we finish this later?" after a pause stopped the run and discarded its answers
    engine, user = _at("fitness-coach", "hi", "beginner", "cancel")
    for text in ["gotta go, can we finish this later?", "cancel it for now, ill be back", "lo dejamos para después"]:
        r = engine.turn("fitness-coach", user, text)
        # a stop that puts it off is told it stays paused; a putting off alone is small talk beside the pause
        assert r.flow == "main" and ("stays paused with your answers kept" in r.reply or "is paused" in r.reply), text
        [paused] = _session(engine, "fitness-coach", user).stack
        assert paused.paused and paused.slots["fitness_level"] == "beginner"
    r = engine.turn("fitness-coach", user, "ok im back, lets continue")
    assert (r.flow, r.state) == ("onboarding", "limitations")


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("can we finish this later?", True),
        ("gotta go", True),
        ("on continue demain", True),
        ("ich muss los", True),
        ("cancel", False),
        ("forget the onboarding for good", False),
        ("nah cancel it, i dont want to continue", False),
    ],
)
def test_putting_off_is_told_from_dropping(text: str, later: bool) -> None:
    assert puts_off(text) is later


def test_a_polite_cancel_cancels_unless_the_flows_own_ending_reads_it() -> None:
    assert says_cancel("abbrechen bitte", "onboarding", polite=True)
    assert not says_cancel("please stop the reminders", "onboarding", polite=True)
    engine, user = _at("fitness-coach", "hi", "beginner")
    r = engine.turn("fitness-coach", user, "stop this please")
    assert r.flow == "main" and "Paused" in r.reply and r.trace is not None and r.trace.route == "command:cancel"
    # a lesson ends itself on "stop please" (its summary, the lesson kept): not the engine's cancel
    engine, user = _at("study-pal", "teach me derivatives")
    r = engine.turn("study-pal", user, "stop please")
    assert r.trace is not None and r.trace.route != "command:cancel"


@pytest.mark.parametrize("text", ["ugh i give up", "i'm done, no more questions", "ich gebe auf", "ya basta"])
def test_ending_in_other_words_cancels_where_the_flow_has_no_ending_of_its_own(text: str) -> None:
    assert says_cancel(text, "onboarding", polite=True) and not says_cancel(text, "onboarding")
    engine, user = _at("fitness-coach", "hi", "beginner")
    r = engine.turn("fitness-coach", user, text)
    assert r.trace is not None and r.trace.route == "command:cancel"


def test_a_lesson_ends_itself_on_im_done() -> None:
    engine, user = _at("study-pal", "teach me limits")
    r = engine.turn("study-pal", user, "i'm done")
    assert r.trace is not None and r.trace.route != "command:cancel"


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        ("ok. Sofía", "Sofía"),
        ("english please", "english"),
        ("alright, 4 thanks", "4"),
        ("sure, portuguese por favor", "portuguese"),
        ("no, gluten", None),  # a denial is never taken off an answer
        ("Sofía", None),
        ("ok thank you", None),  # nothing left
        ("tá bom, Rafael", "Rafael"),  # acknowledged in the learner's own language
        ("de acuerdo, Lucía", "Lucía"),
        ("ok, Vale", "Vale"),  # "vale" is a name too
        ("na gut. Jonas", "Jonas"),
    ],
)
def test_an_answer_wrapped_in_acknowledgements_and_politeness(text: str, inner: str | None) -> None:
    assert unwrapped(text) == inner


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("ok im back, lets continue the setup", "resume"),
        ("can we continue the onboarding", "resume"),
        ("hold on, I have to go, let's finish this later", "ending"),
        ("lets do this later", "ending"),
        ("essa eu não sei", "unsure"),
        ("não faço ideia", "unsure"),
    ],
)
def test_going_on_putting_off_and_not_knowing_in_more_words(text: str, kind: str) -> None:
    if kind == "resume":
        assert says_resume(text, "onboarding")
    elif kind == "ending":
        assert says_cancel(text, "onboarding", polite=True) and not says_cancel(text, "onboarding")
    else:
        assert says_unsure(text)


@pytest.mark.parametrize(
    "text", ["rather not say.", "prefiero no decirlo", "Je préfère ne pas dire", "möchte ich nicht sagen"]
)
def test_a_refusal_is_read_apart_from_a_skip_and_is_unsure_for_a_quiz(text: str) -> None:
    # alone it is a skip only where the question reads nothing from it (engine/reading.py decides)
    assert says_refusal(text) and not says_skip(text) and says_unsure(text)


@pytest.mark.parametrize("text", ["ugh, not now", "ahora no", "tschüss", "gotta go"])
def test_putting_off_is_read_apart(text: str) -> None:
    assert says_putting_off(text) and not says_skip(text)
    assert not says_putting_off("i'm good")  # "any injuries?" "i'm good": an answer there


def test_a_skip_where_the_flow_has_its_own_way_past_the_question_takes_it() -> None:
    # a lesson goes on to its next part: "passo" is the engine's skip, the lesson's `skip` transition
    engine, user = _at("study-pal", "teach me limits")
    r = engine.turn("study-pal", user, "passo")
    assert r.state == "exercise" and "let's move on" in r.reply and "Exercise 2/3" in r.reply
    assert r.trace is not None and [n.kind for n in r.trace.notices].count("skipped") == 1


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("can we skip the weight stuff", "skip"),
        ("just skip the allergy part", "skip"),
        ("salta la parte del peso", "skip"),
        ("pula a parte do fuso horário", "skip"),
        ("stop asking me stuff", "cancel"),
        ("enough with the questions", "cancel"),
        ("hör auf mich zu fragen", "cancel"),
    ],
)
def test_a_skip_naming_its_part_and_asking_to_stop_the_questions(text: str, kind: str) -> None:
    # h-read9; "skip rope and dumbbells" still answers (no part named)
    assert says_skip(text) if kind == "skip" else says_cancel(text, "onboarding", polite=True), text
    assert not says_skip("skip rope and dumbbells")


@pytest.mark.parametrize("text", ["forget planning", "cancel lesson", "ok stop quiz", "forget the planning"])
def test_the_thing_stopped_may_be_named_without_its_article(text: str) -> None:
    assert said(text, "scheduling") == "cancel"


@pytest.mark.parametrize(
    "text", ["im not doing this right now, bye", "nah not doing this, bye", "ich will nicht mehr, tschüss"]
)
def test_putting_off_beside_not_wanting_to_go_on_still_puts_it_off(text: str) -> None:
    assert says_putting_off(text)
    # not wanting alone is no putting off: "i don't want to train mondays" may answer a question
    assert not says_putting_off("i don't want to train mondays")


def test_a_cancel_run_into_not_wanting_to_go_on_cancels() -> None:
    # "nvm" and then not wanting to go on, in one clause
    assert says_cancel("nvm I don't want to leave feedback", "feedback")
    assert says_cancel("can we finish this tomorrow?", "onboarding", polite=True)
    # a cancel word before an answer is still no cancel
    assert not says_cancel("nvm the app is slow", "feedback")


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("can i get a human coach for this?", True),
        ("could i talk to a real trainer instead", True),
        ("i want a real tutor for me", True),
        ("a human coach would be nice someday, for now dumbbells", False),
        # what follows the person is more than what it is for
        ("i'd like a human coach for this price range of plans", False),
    ],
)
def test_a_person_in_the_bots_role_wanted_for_what_it_is_doing(text: str, person: bool) -> None:
    assert asks_for_person(text) is person


# putting it off in words of its own, six languages (h-later13): a later-word among only the words said around one
PUT_OFF = [
    "leave it for tomorrow",
    "not now",
    "let's do this tomorrow",
    "i'll come back to this later",
    "lo dejamos para mañana",
    "machen wir morgen weiter",
    "on verra ça plus tard",
    "depois continuamos",
    "ne parliamo dopo",
    "ahora no, mañana",
]
# a later-word in an answer: the answer keeps it, as do a menu's "quit" and a goodbye (no coming back said)
ANSWERS = [
    "the lesson later on was too fast",
    "no injuries for now",
    "knee pain that gets worse later in the day",
    "3 for now, maybe more later",
    "plus tard, en ouvrant le calendrier",
    "tomorrow from 6 to 8pm",
    "Berlin for now",
    "quit",
    "bye",
]


@pytest.mark.parametrize("text", PUT_OFF)
def test_putting_off_in_words_of_its_own(text: str) -> None:
    assert says_later(text), text


@pytest.mark.parametrize("text", ANSWERS)
def test_a_later_word_inside_an_answer_is_no_putting_off(text: str) -> None:
    assert not says_later(text), text


def test_putting_off_at_a_free_text_question_keeps_the_run_and_a_later_continue_brings_it_back() -> None:
    # at the injuries question (any words are an answer) "leave it for tomorrow" was stored as the injury;
    # while paused it was resumed and taken as the answer
    engine, user = _at("fitness-coach", "hi", "beginner")
    r = engine.turn("fitness-coach", user, "leave it for tomorrow")
    assert r.flow == "main" and "pick this up later" in r.reply
    [paused] = _session(engine, "fitness-coach", user).stack
    assert paused.paused and paused.state == "limitations" and paused.slots.get("limitations") is None
    assert r.trace is not None and any(n.kind == "later" for n in r.trace.notices)
    r = engine.turn("fitness-coach", user, "on verra ça plus tard")
    assert r.flow == "main" and "stays paused" in r.reply
    assert _session(engine, "fitness-coach", user).stack[0].slots.get("limitations") is None
    r = engine.turn("fitness-coach", user, "where were we?")
    assert (r.flow, r.state) == ("onboarding", "limitations") and "Welcome back" in r.reply


def test_a_flow_dropped_on_a_cancel_is_kept_when_put_off() -> None:
    # feedback closes on a cancel; put off, it waits paused with its rating, and comes back on "let's continue"
    engine, user = _at("language-buddy", "I want to give feedback", "2")
    r = engine.turn("language-buddy", user, "te lo escribo luego")
    assert r.flow == "main" and "feedback is paused" in r.reply
    assert [run.outcome for run in engine.store.runs(_session(engine, "language-buddy", user).id)] == []
    r = engine.turn("language-buddy", user, "let's continue")
    assert (r.flow, r.state) == ("feedback", "details")
    r = engine.turn("language-buddy", user, "not now that the update broke it, but it used to be great")
    assert r.flow != "feedback" or r.state != "details"
