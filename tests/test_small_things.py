"""Small things a user notices (issue 21, item 7), each fixed where the engine makes it:

- a choice reprompt lists the options once (the ambiguity reason names only what it matched);
- facts read from an opening message are stated ("Android 13"), not the question echoed
  (each knowledge-base question that can be answered out of turn declares its `fact`);
- "none" to an optional question is the slot's empty value (a number slot never holds the
  word), and the question counts as answered;
- a free-text answer with no words in it ("bla bla", "asdfgh") is refused with a reprompt.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import (
    EMPTY,
    Ask,
    Bot,
    Final,
    Flow,
    Intent,
    Invalid,
    Parser,
    Registry,
    Slots,
    SqlStore,
    T,
    free_text,
    integer,
    optional,
)
from engine.authoring.testing import Dialogue, DialogueFactory
from engine.registry import default_registry
from flows.support.ahead import read_answer
from flows.support.kb import Question, parse_document

MAX = {"name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin", "level": "B1"}
KB = Path(__file__).resolve().parent.parent / "flows" / "support" / "data" / "kb"


# -- a choice reprompt says its options once ----------------------------------------------


def test_an_ambiguous_category_lists_the_options_once(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX)
    chat.say("I want to give feedback").say("3").say("meh").expect(state="category")
    chat.say("bug or latency").expect(state="category", reply_contains="more than one option (bug and latency)")
    for option in ("content", "usability", "other"):
        assert chat.reply.count(option) == 1, chat.reply


def _choice_asks() -> list[tuple[str, str, Ask]]:
    found = []
    for bot in default_registry():
        for flow in bot.flows:
            for state in flow.states:
                # the parsers a flow declares as such (a parser picked from the slots needs a run's data)
                if isinstance(state, Ask) and isinstance(state.parse, Parser):
                    parser = state.parse
                    if parser.expects.startswith("one of: "):
                        found.append((bot.name, flow.name, state))
    return found


@pytest.mark.parametrize("where", _choice_asks(), ids=lambda w: f"{w[0]}.{w[1]}.{w[2].name}")
def test_no_choice_reason_lists_options_it_did_not_match(where: tuple[str, str, Ask]) -> None:
    """The reprompt after a reason lists every option: the reason itself names only the options
    the answer matched, so no reply says the whole list twice."""
    state = where[2]
    assert isinstance(state.parse, Parser)
    parser = state.parse
    options = parser.expects.removeprefix("one of: ").split(", ")
    first, second, *others = options
    said = parser(f"{first} and {second}")
    if isinstance(said, Invalid):
        assert not [o for o in others if re.search(rf"\b{re.escape(o)}\b", said.reason)], said.reason


# -- facts from the opening message are stated, not asked back -----------------------------


def test_a_version_in_the_opening_message_is_stated(dialogue: DialogueFactory) -> None:
    chat = dialogue("support")
    chat.say("notifications dont show up on my android 13 phone")
    chat.expect(flow="clarification", reply_contains="From your message: Android 13.")
    assert "Which Android version? 13" not in chat.reply


def test_the_model_and_version_up_front_read_as_facts(dialogue: DialogueFactory) -> None:
    chat = dialogue("support")
    chat.say("my pixel 8 pro on android 15 gets no notifications")
    chat.expect(reply_contains="From your message: a pixel 8 pro phone; Android 15.")


def _read_ahead_questions() -> list[Question]:
    docs = [parse_document(p.name, p.read_text(encoding="utf-8")) for p in sorted(KB.glob("*.md"))]
    return [q for d in docs for q in d.clarifying_questions if q.type in ("choice", "number") or q.cues]


def test_every_shipped_question_answered_out_of_turn_states_its_fact() -> None:
    """A question that an opening message may answer (choice, number, a text one with cues)
    says what it read as a fact; without one it would be shown as "question? answer"."""
    questions = _read_ahead_questions()
    assert len(questions) >= 9
    missing = [q.text for q in questions if q.fact is None]
    assert not missing, f"give these questions a `fact:` in their document: {missing}"


def test_a_fact_must_hold_the_answer_place() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        Question(text="Which Android version?", type="number", fact="Android")
    q = Question(text="Which Android version?", type="number", fact="Android {}")
    assert read_answer(q, "it's android 12") == 12


# -- "none" to an optional question --------------------------------------------------------


class Gear(Slots):
    target: float | None = None
    kit: list[str] | None = None
    note: str | None = None


def _gear_bot() -> Registry:
    flow: Flow[Any] = Flow(
        name="gear",
        description="an optional number, an optional list, then done",
        slots=Gear,
        states=[
            Ask("target", slot="target", say="Any target number?", parse=optional(integer(1, 100)), initial=True),
            Ask("kit", slot="kit", say="What kit do you have?", parse=optional(free_text())),
            Final("done", summary=lambda s: f"target {s.target}, kit {s.kit}", say="Done."),
        ],
        transitions=[T("answer", "target", "kit"), T("answer", "kit", "done")],
    )
    bot = Bot(
        name="gear-bot",
        persona="a test bot",
        intents=[Intent(flow="gear", patterns=[r"\bgear\b"], description="talk about gear")],
        capabilities="I ask about gear.",
        flows=[flow],
    )
    return Registry([bot])


@pytest.mark.parametrize("none", ["none", "No.", "n/a", "N.A.", "nothing"])
def test_none_to_an_optional_question_is_the_slots_empty_value(none: str, tmp_path: Path) -> None:
    chat = Dialogue("gear-bot", SqlStore(str(tmp_path / "g.db")), bots=_gear_bot())
    try:
        chat.say("gear").expect(flow="gear", state="target")
        chat.say(none).expect(state="kit", slots={"target": None})
        # a list slot's empty value is the empty list: answered, with nothing in it
        chat.say(none).expect(flow="main")
        assert chat.history[-2].content == "target None, kit []"
    finally:
        chat.close()


def test_optional_reads_none_and_leaves_other_answers_to_its_parser() -> None:
    reader = optional(integer(1, 100))
    assert reader("n/a") is EMPTY and reader("none at all") is EMPTY
    assert reader("42") == 42
    assert "none" in reader.expects


def test_no_target_weight_is_no_number_and_the_question_is_answered(dialogue: DialogueFactory) -> None:
    chat = dialogue("fitness-coach")
    chat.say("hi").say("beginner").say("no").say("lose weight").expect(state="target_weight")
    chat.say("none").expect(state="days", slots={"target_weight_kg": None})
    assert chat.slots["target_weight_kg"] is None


@pytest.mark.parametrize("none", ["none", "n/a", "no target", "nothing"])
def test_a_number_slot_never_holds_a_word(none: str, dialogue: DialogueFactory) -> None:
    chat = dialogue("fitness-coach")
    chat.say("hi").say("beginner").say("no").say("lose weight").say(none)
    value = chat.slots.get("target_weight_kg")
    assert value is None or isinstance(value, int | float)
    assert chat.state == "days"


# -- free text with no words in it ---------------------------------------------------------


@pytest.mark.parametrize("noise", ["bla bla", "asdfgh", "lorem ipsum", "sdfsdf", "blah blah blah"])
def test_equipment_that_names_nothing_is_asked_again(noise: str, dialogue: DialogueFactory) -> None:
    chat = dialogue("fitness-coach")
    for answer in ("hi", "beginner", "no", "lose weight", "none", "3", "45 minutes"):
        chat.say(answer)
    chat.expect(state="equipment")
    chat.say(noise).expect(state="equipment", slots={"equipment": None}, reply_contains="couldn't make out any")
    chat.say("a kettlebell").expect(state="diet")


@pytest.mark.parametrize("text", ["bla bla", "asdfgh", "lorem ipsum", "qwerty", "jkjk", "stuff"])
def test_the_free_text_reader_refuses_no_words(text: str) -> None:
    said = free_text()(text)
    assert isinstance(said, Invalid) and "few words" in said.reason


@pytest.mark.parametrize(
    "text", ["a yoga mat", "Tasklane", "hantel", "I was in the agent view", "meh", "trx bands", "2 kettlebells", "日本"]
)
def test_the_free_text_reader_keeps_real_and_unknown_words(text: str) -> None:
    assert free_text()(text) == text


# -- a reprompt says what is needed once -------------------------------------------------------


def test_an_out_of_range_number_is_not_told_the_range_twice(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX)
    chat.say("I want to give feedback").expect(state="rating")
    chat.say("7").expect(state="rating", reply_contains="7 is out of range.")
    assert "please give a whole number" not in chat.reply and chat.reply.count("to 5") == 1, chat.reply


def test_the_rung_past_the_declared_reprompts_does_not_list_what_its_question_lists() -> None:
    from engine.states import says, without_clause

    expects = "a topic (Limits, Continuity, Derivatives), yes for the suggestion, or no to stop"
    listed = (
        "Shall we go on to Continuity? Say yes, name another topic (Limits, Continuity, Derivatives), or no to stop."
    )
    assert says(listed, expects) and not says("Pick a number.", "a whole number from 1 to 9")
    assert not says("Can you describe it?", "a few words in your own words")  # nothing to compare: keep it
    reason = "7 is out of range; please give a whole number from 1 to 5."
    assert without_clause(reason, "Please rate it with a number from 1 (poor) to 5 (great).") == "7 is out of range."
    assert without_clause(reason, "Pick a number.") == reason
    assert without_clause("That is no day.", "Which day, Monday to Sunday?") == "That is no day."
