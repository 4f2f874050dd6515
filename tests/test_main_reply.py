"""The main conversation talks: with a model, a message that starts no flow is answered by the
model in the bot's persona, from the main history (summaries in, inner turns out) and what the
bot knows of the user; offline the reply stays the honest capabilities text."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, PhraseRequest, ScriptedLLM, SqlStore
from engine.authoring.replay import seed_profile
from tests.test_turn import BOTS


@pytest.fixture
def store(tmp_path: Path) -> SqlStore:
    return SqlStore(str(tmp_path / "main.db"))


def last_phrase(llm: ScriptedLLM) -> PhraseRequest:
    found = [r for r in llm.requests if isinstance(r, PhraseRequest)]
    assert found, "no phrase request was made"
    return found[-1]


def test_a_model_answers_small_talk_itself_in_the_bots_persona(store: SqlStore) -> None:
    llm = ScriptedLLM(["Doing well, thanks! Want to take the survey?"])
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hello, how are you?")
    assert (r.flow, r.reply) == ("main", "Doing well, thanks! Want to take the survey?")
    req = last_phrase(llm)
    assert req.mode == "reply" and req.purpose == "reply:main"
    assert req.messages[0].role == "system" and "You are a test bot" in req.messages[0].content
    assert req.messages[-1].content == "hello, how are you?"
    # what the bot can do travels with the request, as the fallback the model may use
    assert req.content == "I can run a survey or take feedback."
    assert r.trace is not None and [c.purpose for c in r.trace.llm_calls] == ["reply:main"]


def test_the_reply_window_holds_the_summary_of_an_inner_loop_but_not_its_turns(store: SqlStore) -> None:
    llm = ScriptedLLM(["Pick a number from 1 to 9.", "Happy with 4?", "Thanks."])
    e = Engine(store, llm, bots=BOTS)
    for line in ("let's do the survey", "4", "yes"):
        e.turn("test-bot", "u", line)
    llm.push("Glad you picked 4!")
    r = e.turn("test-bot", "u", "what did I pick again?")
    assert r.reply == "Glad you picked 4!"
    said = [m.content for m in last_phrase(llm).messages[1:]]
    assert "Survey done: n=4, ok=True." in said
    assert "Happy with 4?" not in said and "4" not in said
    assert said[-1] == "what did I pick again?"


def test_the_window_is_the_last_fifteen_main_messages(store: SqlStore) -> None:
    llm = ScriptedLLM()
    e = Engine(store, llm, bots=BOTS)
    for i in range(12):
        llm.push(f"reply {i}")
        e.turn("test-bot", "u", f"message {i}")
    llm.push("fine")
    e.turn("test-bot", "u", "last one")
    messages = last_phrase(llm).messages
    assert len(messages) == 1 + 15 + 1
    assert messages[1].content == "reply 4" and messages[-2].content == "reply 11"


def test_what_the_bot_knows_of_the_user_is_in_the_system_message(store: SqlStore) -> None:
    seed_profile(store, "test-bot", "u", {"name": "Ana", "target": "German", "level": "A2"})
    llm = ScriptedLLM(["Hallo Ana!"])
    Engine(store, llm, bots=BOTS).turn("test-bot", "u", "hi")
    system = last_phrase(llm).messages[0].content
    assert '"name": "Ana"' in system and '"level": "A2"' in system


def test_a_reply_that_claims_facts_is_allowed_but_an_empty_or_foreign_one_falls_back(store: SqlStore) -> None:
    llm = ScriptedLLM([""])
    e = Engine(store, llm, bots=BOTS)
    r = e.turn("test-bot", "u", "hello there, how is your day going?")
    assert r.reply == "I can run a survey or take feedback."
    llm.push("Hola, ¿qué tal? Estoy muy bien, gracias por preguntar, ¿y tú cómo estás hoy?")
    r = e.turn("test-bot", "u", "hello there, how is your day going so far?")
    assert r.reply == "I can run a survey or take feedback."
    assert r.trace is not None and r.trace.noticed("phrase_rejected")


def test_offline_language_buddy_is_honest_about_chatting(store: SqlStore) -> None:
    seed_profile(store, "language-buddy", "u", {"name": "Ana", "native": "English", "target": "German", "level": "A2"})
    r = Engine(store).turn("language-buddy", "u", "how's it going?")
    assert r.flow == "main" and "can't chat freely" in r.reply


def test_study_pal_tells_the_model_about_its_course(store: SqlStore) -> None:
    llm = ScriptedLLM(["Calculus is fun! Shall we start with limits?"])
    r = Engine(store, llm).turn("study-pal", "u", "good morning!")
    assert r.reply == "Calculus is fun! Shall we start with limits?"
    system = last_phrase(llm).messages[0].content
    assert "The course is" in system and "Derivatives" in system
