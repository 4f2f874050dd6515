"""Onboarding phrased in the learner's native language once it is known (Flow.speaks): the
request names the language, the guard holds the phrasing to it, offline nothing changes.

The shipped language-buddy onboarding speaks the learner's language (`speaks=speak_native`); an
English native speaker's requests name no language (English is the voice's own)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
import pytest

from engine import Engine, PhraseRequest, Registry, ScriptedLLM, SqlStore
from engine.guard import phrase_problem
from engine.llm.openai import OpenAILLM
from engine.models import Message
from flows.language_buddy import language_buddy
from flows.language_buddy.onboarding import speak_native

BOT = "language-buddy"
ASK_TARGET = "Which language would you like to learn?"
IN_GERMAN = "Welche Sprache möchtest du gerne lernen?"
ENGLISH_USER = "my native language is German"  # the user writes English, the native language is German


def test_the_guard_holds_a_phrasing_to_the_language_asked_for_not_the_users() -> None:
    assert phrase_problem(ASK_TARGET, IN_GERMAN, ENGLISH_USER) == "the phrasing is in de, the user writes en"
    assert phrase_problem(ASK_TARGET, IN_GERMAN, ENGLISH_USER, language="de") is None
    problem = phrase_problem(ASK_TARGET, "Which language would you like to learn now?", "Hallo", language="de")
    assert problem == "the phrasing is in en, it was asked in de"
    # the facts still count: a German phrasing that drops the question is refused
    assert phrase_problem(ASK_TARGET, "Welche Sprache du gerne lernen willst.", "", language="de") is not None


SPEAKING = language_buddy  # its onboarding speaks the learner's language (flows/language_buddy/onboarding.py)


def test_the_shipped_onboarding_speaks_the_learners_language() -> None:
    onboarding = language_buddy.flow("onboarding")
    assert onboarding.speaks is speak_native


@pytest.fixture
def engine_with(tmp_path: Path) -> tuple[Engine, ScriptedLLM]:
    llm = ScriptedLLM()
    return Engine(SqlStore(str(tmp_path / "native.db")), llm=llm, bots=Registry([SPEAKING])), llm


def phrasings(llm: ScriptedLLM) -> list[PhraseRequest]:
    return [r for r in llm.requests if isinstance(r, PhraseRequest)]


def test_questions_are_asked_in_the_native_language_once_it_is_known(engine_with: tuple[Engine, ScriptedLLM]) -> None:
    engine, llm = engine_with
    llm.push("What's your name?")
    engine.turn(BOT, "max", "Hello")
    llm.push("Nice to meet you, Max! What's your native language?")
    engine.turn(BOT, "max", "Max")
    before = phrasings(llm)
    assert [r.language for r in before] == [None, None]  # not known yet: the user's own language
    llm.push(IN_GERMAN)
    r = engine.turn(BOT, "max", ENGLISH_USER)
    asked = phrasings(llm)[-1]
    assert asked.purpose == "ask:onboarding.ask_target" and asked.language == "de"
    assert r.state == "ask_target" and IN_GERMAN in r.reply  # German, though the user wrote English
    assert r.trace is not None and not [n for n in r.trace.notices if n.kind == "phrase_rejected"]


def test_a_phrasing_in_another_language_than_asked_gives_the_template(engine_with: tuple[Engine, ScriptedLLM]) -> None:
    engine, llm = engine_with
    llm.push("What's your name?", "Nice to meet you, Max! What's your native language?")
    engine.turn(BOT, "max", "Hello")
    engine.turn(BOT, "max", "Max")
    llm.push("Which language would you really like to learn?")
    r = engine.turn(BOT, "max", "Deutsch")
    assert phrasings(llm)[-1].language == "de"
    assert ASK_TARGET in r.reply and "really" not in r.reply
    assert r.trace is not None
    assert any(n.kind == "phrase_rejected" and "asked in de" in n.detail for n in r.trace.notices)


def test_a_native_language_the_guard_cannot_read_is_not_asked_for(engine_with: tuple[Engine, ScriptedLLM]) -> None:
    engine, llm = engine_with
    llm.push("What's your name?", "Nice to meet you, Kenji! What's your native language?", ASK_TARGET)
    engine.turn(BOT, "kenji", "Hello")
    engine.turn(BOT, "kenji", "Kenji")
    r = engine.turn(BOT, "kenji", "Japanese")
    assert r.slots["native_language"] == "ja"
    assert phrasings(llm)[-1].language is None  # no check could hold a Japanese phrasing to its facts


def test_offline_the_questions_stay_as_written(tmp_path: Path) -> None:
    engine = Engine(SqlStore(str(tmp_path / "offline.db")), bots=Registry([SPEAKING]))
    for line in ("Hello", "Max"):
        engine.turn(BOT, "max", line)
    r = engine.turn(BOT, "max", ENGLISH_USER)
    assert r.reply.endswith(ASK_TARGET)


def _sent_instruction(language: str | None) -> str:
    bodies: list[dict[str, object]] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        choice = {"index": 0, "message": {"role": "assistant", "content": IN_GERMAN}, "finish_reason": "stop"}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        body = {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice], "usage": usage}
        return httpx2.Response(200, json=body)

    client = httpx2.Client(transport=httpx2.MockTransport(answer))
    llm = OpenAILLM(base_url="http://test/v1", api_key="k", model="m", http_client=client)
    messages = [Message(role="system", content="You are a guide."), Message(role="user", content="Deutsch")]
    llm.phrase(PhraseRequest(purpose="ask:x", content=ASK_TARGET, messages=messages, language=language))
    messages_sent = bodies[0]["messages"]
    assert isinstance(messages_sent, list)
    return str(messages_sent[0]["content"])


def test_the_model_is_told_the_language_by_name_and_otherwise_the_users() -> None:
    assert "in your own voice as described above and in German. Keep every fact" in _sent_instruction("de")
    assert "and in the language the user writes in. Keep every fact" in _sent_instruction(None)


def test_an_english_native_speakers_questions_name_no_language(engine_with: tuple[Engine, ScriptedLLM]) -> None:
    engine, llm = engine_with
    llm.push("What's your name?", "Nice to meet you, Sam! What's your native language?", ASK_TARGET)
    engine.turn(BOT, "sam", "Hello")
    engine.turn(BOT, "sam", "Sam")
    r = engine.turn(BOT, "sam", "English")
    assert r.slots["native_language"] == "en" and phrasings(llm)[-1].language is None
