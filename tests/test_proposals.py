"""engine/proposals.py: a command the model proposes at a question is carried out only when the
message says it: its words are in the message and the engine's reader reads their clause as it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, ParseRequest, ScriptedLLM, SqlStore
from engine.commands import AskBack, Cancel, Chitchat, Handoff, Help, Skip
from engine.extract import choice, free_text
from engine.proposals import Proposal, clause_of, kept

LEVELS = choice({"beginner": [], "intermediate": [], "advanced": []})


@pytest.mark.parametrize(
    ("text", "proposal", "command"),
    [
        ("ugh this is taking forever, just cancel it", Proposal(kind="cancel", words="cancel it"), Cancel),
        ("honestly no clue what to put, skip this one", Proposal(kind="skip", words="skip this one"), Skip),
        ("I am lost here - help me", Proposal(kind="help", words="help me"), Help),
        ("this bot is useless, can I talk to a person", Proposal(kind="person", words="talk to a person"), Handoff),
        ("hmm ok. why do you need that?", Proposal(kind="ask_back", words="why do you need that?"), AskBack),
        ("haha sorry, i was away", Proposal(kind="chitchat", words="sorry, i was away"), Chitchat),
    ],
)
def test_a_proposal_whose_clause_says_it_is_kept(text: str, proposal: Proposal, command: type) -> None:
    assert isinstance(kept(proposal, text, LEVELS, "onboarding"), command)


@pytest.mark.parametrize(
    ("text", "proposal", "why"),
    [
        ("the reminders stop at night", Proposal(kind="cancel", words="stop"), "does not say it"),
        ("beginner I guess", Proposal(kind="cancel", words="cancel"), "is not in the message"),
        ("can you skip rope", Proposal(kind="skip", words="skip"), "does not say it"),
    ],
)
def test_a_proposal_the_message_does_not_say_is_not_kept(text: str, proposal: Proposal, why: str) -> None:
    found = kept(proposal, text, LEVELS, "onboarding")
    assert isinstance(found, str) and why in found


def test_the_clause_is_found_whatever_the_spacing_and_accents() -> None:
    assert clause_of("CANCELA  eso", "uf, esto es eterno.  Cancela eso") == "Cancela eso"
    assert clause_of("laisse tomber", "bof - laissé tomber") == "laissé tomber"
    assert clause_of("", "anything") is None


def test_free_text_questions_back_need_the_question_about_the_question() -> None:
    # any text answers a free-text question: only a question about the question itself asks back
    assert isinstance(kept(Proposal(kind="ask_back", words="why?"), "why?", free_text(), "feedback"), AskBack)


BOT = "fitness-coach"
# the cancel between two other clauses: the rules read a cancel beside a reason only at the message's
# start or end ("ugh this is taking forever honestly, just cancel it" is theirs), so this one is the model's
RAMBLE = "ugh this is taking forever honestly - just cancel it - i have a lot to do"


def _at_level(tmp_path: Path, llm: ScriptedLLM) -> Engine:
    engine = Engine(SqlStore(str(tmp_path / "p.db")), llm=llm)
    llm.push("Stage 1 of 5. How fit are you: beginner, intermediate or advanced?")
    engine.turn(BOT, "u", "hi")
    return engine


def test_offline_a_message_nothing_reads_is_asked_again(tmp_path: Path) -> None:
    engine = Engine(SqlStore(str(tmp_path / "o.db")))
    engine.turn(BOT, "u", "hi")
    r = engine.turn(BOT, "u", "purple elephants dancing slowly")
    assert r.flow == "onboarding" and r.state == "level"  # no guess: the question again
    assert r.trace is not None and [n.kind for n in r.trace.notices] == ["reprompt"]


def test_offline_the_learned_reader_reads_the_cancel_the_rules_cannot_single_out(tmp_path: Path) -> None:
    """No model: the rules read no cancel between two other clauses; the learned reader (engine/learned.py,
    trained on the commands corpus's dev split) is confident the message says one."""
    engine = Engine(SqlStore(str(tmp_path / "o.db")))
    engine.turn(BOT, "u", "hi")
    r = engine.turn(BOT, "u", RAMBLE)
    assert r.trace is not None and [n.kind for n in r.trace.notices if n.kind == "learned"] == ["learned"]
    assert r.flow == "main"


def test_the_model_points_at_the_cancel_and_the_rules_confirm_it(tmp_path: Path) -> None:
    llm = ScriptedLLM()
    engine = _at_level(tmp_path, llm)
    llm.push({"value": None, "command": {"kind": "cancel", "words": "just cancel it"}})
    r = engine.turn(BOT, "u", RAMBLE)
    asked = [q for q in llm.requests if isinstance(q, ParseRequest)][-1]
    assert "command" in asked.schema_model.model_fields
    assert r.flow == "main" and "Paused" in r.reply  # the onboarding must finish: a cancel pauses it
    assert r.trace is not None and r.trace.route == "command:cancel"
    assert any(n.kind == "proposed" and "cancel" in n.detail for n in r.trace.notices)


def test_a_proposal_the_message_does_not_say_is_ignored(tmp_path: Path) -> None:
    llm = ScriptedLLM()
    engine = _at_level(tmp_path, llm)
    llm.push({"value": None, "command": {"kind": "cancel", "words": "cancel everything"}}, "Which level?")
    # a message no rule reads ("my knees are a bit wobbly lately" is read now: a statement, engine/others.py)
    r = engine.turn(BOT, "u", "purple elephants dancing slowly")
    assert r.flow == "onboarding" and r.state == "level"
    assert r.trace is not None
    assert any(n.kind == "parse_rejected" and "not in the message" in n.detail for n in r.trace.notices)


def test_a_message_that_answers_the_question_is_the_answer_whatever_is_proposed() -> None:
    for proposal in (Proposal(kind="ask_back", words="why"), Proposal(kind="cancel", words="cancel")):
        found = kept(proposal, "i'm intermediate, why? dont cancel", LEVELS, "onboarding")
        assert isinstance(found, str) and "answers the question" in found
