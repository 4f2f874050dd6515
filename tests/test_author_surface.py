"""What a flow author meets: a validator's own words, skipped slots in templates, bots that are not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import field_validator
from typer.testing import CliRunner

from cli import app
from engine import Ask, Bot, DefinitionError, Final, Flow, Intent, Registry, Slots, T, choice, free_text, load_bot
from engine.authoring.testing import DialogueFactory, dialogue
from engine.registry import registry_of
from engine.states import render

DAYS = {d: [d[:3]] for d in ("monday", "tuesday", "saturday", "sunday")}


class Visit(Slots):
    day: str | None = None
    note: str | None = None

    @field_validator("day")
    @classmethod
    def open_that_day(cls, day: str | None) -> str | None:
        if day == "sunday":
            raise ValueError("we are closed on Sundays")
        return day


def visit_flow(question: str = "Anything we should know for {day|that day}?", fallback: str = "skip") -> Flow[Visit]:
    return Flow(
        name="visit",
        slots=Visit,
        states=[
            Ask("day", slot="day", say="Which day?", parse=choice(DAYS), fallback=fallback, initial=True),  # type: ignore[arg-type]
            Ask("note", slot="note", say=question, parse=free_text(), fallback="cancel"),
            Final("done", say="See you {day|soon}.", summary="Visit: {day}, {note}."),
        ],
        transitions=[T("answer", "day", "note"), T("answer", "note", "done")],
    )


def visit_bot(name: str = "visits") -> Bot:
    return Bot(
        name=name,
        persona="A visit planner.",
        flows=[visit_flow()],
        intents=[Intent("visit", patterns=[r"\bvisit\b"], description="plan a visit")],
        capabilities="I plan visits.",
    )


def test_a_validators_sentence_reaches_the_user_as_written() -> None:
    with dialogue("visits", bots=visit_bot()) as chat:
        chat.say("I want to visit").say("sunday")
        assert chat.state == "day"
        assert chat.reply.startswith("We are closed on Sundays. ")
        assert "value error" not in chat.reply.lower() and "Sundays" in chat.reply


def test_a_skipped_slot_says_the_authors_words_in_questions_and_not_given_in_summaries() -> None:
    with dialogue("visits", bots=visit_bot()) as chat:
        chat.say("I want to visit")
        for _ in range(3):
            chat.say("whenever")
        assert chat.state == "note" and chat.slots["day"] is None
        assert "Anything we should know for that day?" in chat.reply and "not given" not in chat.reply
        chat.say("a high chair please")
        assert chat.reply == "See you soon."
        chat.expect_history("Visit: not given, a high chair please.")


def test_a_filled_slot_renders_its_value_not_its_words() -> None:
    assert render("On {day|that day}.", Visit(day="monday")) == "On monday."
    assert render("On {day|that day}, {note|no note}.", Visit(note="late")) == "On that day, late."
    assert render("Visit: {day}.", Visit()) == "Visit: not given."


def test_a_question_naming_a_skippable_slot_without_words_fails_at_load() -> None:
    with pytest.raises(DefinitionError, match=r"names slot 'day'.*write \{day\|words for that case\}") as e:
        visit_flow("Anything we should know for {day}?")
    assert e.value.state == "note"
    # a question that cannot be skipped needs no words for it
    assert visit_flow("Anything we should know for {day}?", fallback="cancel").name == "visit"


def test_load_bot_by_module_and_by_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "from engine import Bot, Intent\n"
        "from tests.test_author_surface import visit_flow\n"
        "bot = Bot(name='pathbot', persona='p', flows=[visit_flow()],\n"
        "          intents=[Intent('visit', patterns=[r'visit'], description='d')], capabilities='c')\n"
        "other = 3\n"
    )
    (tmp_path / "pathbot_mod.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    [by_module] = load_bot("pathbot_mod:bot")
    [by_file] = load_bot(f"{tmp_path / 'pathbot_mod.py'}:bot")
    assert by_module.name == by_file.name == "pathbot"
    with pytest.raises(DefinitionError, match="has no 'missing'"):
        load_bot("pathbot_mod:missing")
    with pytest.raises(DefinitionError, match="must be a Bot"):
        load_bot("pathbot_mod:other")
    with pytest.raises(DefinitionError, match="no module 'no_such_module_here'"):
        load_bot("no_such_module_here:bot")
    with pytest.raises(DefinitionError, match="no file"):
        load_bot("nowhere/bot.py:bot")


def test_given_bots_come_before_the_installed_ones() -> None:
    mine = visit_bot("support")  # takes the installed support bot's name
    registry = registry_of([mine])
    assert registry.get("support") is mine and "language-buddy" in registry
    own = Registry([visit_bot()])
    assert registry_of(own) is own and "language-buddy" not in own


def test_the_fixture_takes_bots(dialogue: DialogueFactory) -> None:
    chat = dialogue("visits", bots=visit_bot())
    chat.say("I want to visit").expect(flow="visit", state="day")


def test_the_chat_talks_to_a_bot_that_is_not_installed(tmp_path: Path) -> None:
    (tmp_path / "visits_bot.py").write_text(
        "from tests.test_author_surface import visit_bot\nbot = visit_bot()\n", encoding="utf-8"
    )
    args = ["chat", "--bots", f"{tmp_path / 'visits_bot.py'}:bot", "--bot", "visits", "--db", str(tmp_path / "c.db")]
    r = CliRunner().invoke(app, args, input="I want to visit\n/quit\n")
    assert r.exit_code == 0 and "Which day?" in r.output, r.output
    r = CliRunner().invoke(app, ["chat", "--bot", "visits", "--db", str(tmp_path / "c.db")], input="/quit\n")
    assert r.exit_code == 1 and "visits" in r.output  # without --bots it is unknown
