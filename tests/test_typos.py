"""Words typed a letter off (engine/typos.py): written right against the engine's vocabulary and the open
question's own words, never a word that means something (controls), and read that way by every parser and by
the read stage's command, correction and question-back readers, in six languages.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine import Bot, default_registry, free_text, integer, typos
from engine.commands import AnswerFlow, AskBack, Cancel, Command, CorrectSlot, Skip
from engine.extract import choice
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import read

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
registry = default_registry()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("cancle", "cancel"),  # a command
        ("nevermnd, cancel this", "nevermind, cancel this"),
        ("acutally i meant 4", "actually i meant 4"),  # a correction's cue
        ("waht does that mean", "what does that mean"),  # a question back's; "wait" is as near, swapping likelier
        ("twelev days ago", "twelve days ago"),  # a number word
        ("cuarneta y cinco", "cuarenta y cinco"),
        ("spansh", "spanish"),  # a language's name
        ("Deutsh", "Deutsch"),
        ("l'anglias", "l'anglais"),
        ("lunes, mierkoles y viernes", "lunes, miércoles y viernes"),  # a weekday, accents as CLDR writes it
        ("vendrdi", "vendredi"),
        ("ningna", "ninguna"),  # an answer word of another language
        ("kiene", "keine"),
        ("im a total begginer tbh", "im a total beginner tbh"),  # two edits in a long word
        ("yse", "yes"),  # three letters: only two swapped
        ("tlak to a real persn", "talk to a real person"),  # a letter left out is likelier than one changed
        ("eher Anfängr", "eher Anfänger"),  # German: a capital inside the message is a noun
    ],
)
def test_a_word_typed_a_letter_off_is_written_as_the_word_meant(typed: str, meant: str) -> None:
    assert typos.respelled(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "Mathis",  # a name
        "me llamo Candela",  # a Spanish word, one letter off "cancela"
        "my name is Frances",  # not French
        "Danish",  # a language one letter off nothing it should become
        "Dutch",
        "Bern",  # a city, not Berlin
        "wanna loose weight",  # "loose" is a word
        "I'm pale but I eat everything",  # "pale" is a word, not "paleo"
        "ok Priya. btw can i practice speaking too?",  # a capital inside an English sentence: a name ("prima")
        "erklärst du mir, wie man Ableitungen macht?",  # a German word with its accent
        "nien",  # "nein" or "nine": as near to both, so neither
        "wat",  # too short to tell
        "trios jours",  # a word of its own
        "the app resets my reminders",  # another form of "reset", which the word lists lack
        "thre",  # "three" or "there": engine/numwords.py reads a number word typed wrong itself
    ],
)
def test_a_word_that_means_something_or_cannot_be_told_stays_as_typed(typed: str) -> None:
    assert typos.respelled(typed) == typed


def test_the_open_question_adds_its_own_words() -> None:
    assert typos.respelled("latancy") == "latancy"
    assert typos.respelled("latancy", typos.words_of("one of: bug, latency, content")) == "latency"


def test_only_the_command_words_are_respelled_for_a_flows_own_commands() -> None:
    assert typos.commands_respelled("skpi this exercise") == "skip this exercise"
    assert typos.commands_respelled("Germna") == "Germna"  # a language's name: the flow's to offer


def test_every_parser_reads_the_words_meant() -> None:
    level = choice({"beginner": ["beginner"], "intermediate": ["intermediate"], "advanced": ["advanced"]})
    assert level("intermidiate i guess") == "intermediate"
    assert integer(10, 240)("cuarneta y cinco minutos") == 45  # not the 5 its one word spelt right says
    assert integer(1, 7)("thre") == 3  # engine/numwords.py's own one-edit reading still comes first


def test_free_text_keeps_the_words_as_typed_unless_they_only_say_none() -> None:
    comment = free_text()
    assert comment("i was trying to cancle a task") == "i was trying to cancle a task"
    assert comment("the halp page is empty") == "the halp page is empty"
    assert comment("ningna") == "none"


def _read(bot: Bot, flow: str, state: str, text: str, **slots: object) -> list[Command]:
    frame = FlowFrame(flow=flow, version=bot.flow(flow).version, state=state, slots=dict(slots), started_at=AT)
    session = SessionState(id="s", bot=bot.name, user="u", active=frame)
    return read(bot, session, CarryOver(), text, lambda: None).commands


CRASHES = {"doc": "app-crashes", "opened": True, "current_index": 1, "parsed": {"Which app crashes?": "Android"}}


def test_the_read_stage_reads_commands_and_cues_typed_wrong() -> None:
    fitness = registry.get("fitness-coach")
    assert [type(c) for c in _read(fitness, "onboarding", "level", "cancle")] == [Cancel]
    assert [type(c) for c in _read(fitness, "onboarding", "level", "nevermnd, cancel this")] == [Cancel]
    assert [type(c) for c in _read(fitness, "onboarding", "limitations", "skpi", fitness_level="beginner")] == [Skip]
    asked = _read(fitness, "onboarding", "target_weight", "waht do you mean by target?", goal="fat_loss")
    assert [type(c) for c in asked] == [AskBack]
    fixed = _read(fitness, "onboarding", "limitations", "acutally i'm intermediate", fitness_level="beginner")
    assert next(c for c in fixed if isinstance(c, CorrectSlot)).slot == "fitness_level"


def test_a_misspelt_command_inside_an_answer_is_no_command() -> None:
    # support's free-text question: "cancle a task" is what the user was doing, kept as typed
    support = registry.get("support")
    got = _read(support, "clarification", "text", "i was trying to cancle a task", **CRASHES)
    assert [type(c) for c in got] == [AnswerFlow]
    assert isinstance(got[0], AnswerFlow) and got[0].words == "i was trying to cancle a task"


def test_a_name_that_looks_misspelt_is_the_name() -> None:
    buddy = registry.get("language-buddy")
    for name in ("Mathis", "me llamo Candela", "i'm Skye"):
        got = _read(buddy, "onboarding", "ask_name", name)
        assert [type(c) for c in got] == [AnswerFlow], name
