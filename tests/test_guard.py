"""The guards on a model's output: phrasing keeps the template's facts, parsing keeps to the message."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel

from engine import Engine, ScriptedLLM, SqlStore
from engine.guard import must_keep, parse_problem, phrase_problem, whole_sentences

RATING_Q = "On a scale from 1 to 5, how would you rate the app so far?"
CATEGORY_Q = "Which area is that about: bug, latency, content, usability or other?"


@pytest.mark.parametrize(
    ("template", "reply", "problem"),
    [
        (RATING_Q, "I'm glad you're interested in reviewing the feature!", "lost '1', '5'"),
        ("Which Android version are you using?", "I'm sorry for your loss, but as a text-based assistant I can't.",
         "lost 'Android'"),
        (CATEGORY_Q, "What part of the app is this about?", "lost 'bug', 'latency', 'content', 'usability', 'other'"),
        ("Type [[cancel]] to stop, or tell me more.", "Tell me more, or stop whenever you like.", "lost 'cancel'"),
        (RATING_Q, "From 1 to 5, how is the app so far.", "lost the question"),
        (RATING_Q, "", "empty"),
        (RATING_Q, "Rate it 1 to 5? " + "Honestly, " * 80, "characters for a"),
        (RATING_Q, "Wie würdest du die App von 1 bis 5 bewerten?", "in de, the user writes en"),
    ],
)  # fmt: skip
def test_a_phrasing_that_loses_what_the_template_says_is_refused(template: str, reply: str, problem: str) -> None:
    found = phrase_problem(template, reply, "I would like to give some feedback about the app")
    assert found is not None and problem in found


@pytest.mark.parametrize(
    ("template", "reply", "user"),
    [
        (RATING_Q, "How would you rate the app from 1 to 5 so far?", "I want to give feedback"),
        (RATING_Q, "Wie würdest du die App bewerten, 1 bis 5?", "Ich will die App bewerten, bitte sehr"),
        (CATEGORY_Q, "Is it a bug, latency, content, usability, or something other?", "it is slow"),
        ("Type [[cancel]] to stop, or tell me more.", "Tell me more, or type cancel to stop.", "hmm"),
    ],
)
def test_a_rewording_that_keeps_the_facts_stands(template: str, reply: str, user: str) -> None:
    assert phrase_problem(template, reply, user) is None


def test_must_keep_reads_options_numbers_names_quotes_and_marks() -> None:
    facts = must_keep('Say "stop" to end, or pick [[Premium]] in the Android app: red, green or blue (1-3).')
    assert {"stop", "Premium", "Android", "red", "green", "blue", "1", "3"} <= set(facts)


class Category(BaseModel):
    value: Literal["bug", "latency", "content", "usability", "other"] | None = None


class Number(BaseModel):
    value: int | None = None


class YesNo(BaseModel):
    value: bool | None = None


class Topic(BaseModel):
    value: str | None = None


@pytest.mark.parametrize(
    ("value", "text", "problem"),
    [
        (Category(value="content"), "purple", "nothing in the message points to 'content'"),
        (Number(value=12345), "I don't know it", "12345 is not a number the message gives"),
        (YesNo(value=False), "maybe", "hedges"),
        # SmolLM2 read "banana" at a study-plan offer as a no (the recorded run)
        (YesNo(value=False), "banana", "says neither yes nor no"),
        (YesNo(value=True), "hmm", "says neither yes nor no"),
        (Topic(value=".10"), "banana", "'.10' is not in the message"),
        # SmolLM2 read "ok what now?" at a study-plan offer as a no (the recorded run)
        (YesNo(value=False), "ok what now?", "asks a question"),
    ],
)
def test_a_parse_the_message_does_not_support_is_refused(value: BaseModel, text: str, problem: str) -> None:
    found = parse_problem(value, text, ["bug", "latency", "content", "usability", "other"])
    assert found is not None and problem in found


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Category(value="latency"), "everything takes so long, the latency is awful"),
        (Number(value=4), "vier Sterne, würde ich sagen"),
        (Number(value=12), "twelve"),
        (Number(value=7), "seven-ish, I suppose"),
        (YesNo(value=True), "yeah, go on"),
        (YesNo(value=False), "I'd rather skip it this time"),
    ],
)
def test_a_parse_the_message_supports_stands(value: BaseModel, text: str) -> None:
    assert parse_problem(value, text, ["bug", "latency", "content", "usability", "other"]) is None


def test_a_judgement_is_the_models_own_but_its_numbers_are_not(tmp_path: object) -> None:
    class Verdict(BaseModel):
        correct: bool | None = None

    assert parse_problem(Verdict(correct=True), "0.5", answer=False) is None
    assert parse_problem(Number(value=3), "no idea", answer=False) is not None


def test_the_turn_says_the_template_and_the_trace_says_why(tmp_path: object) -> None:
    from pathlib import Path

    store = SqlStore(str(Path(str(tmp_path)) / "g.db"))
    from engine.authoring.replay import seed_profile

    seed_profile(store, "language-buddy", "u", {"name": "Ann", "native_language": "de", "target_language": "en"})
    llm = ScriptedLLM(["Thanks! We appreciate it.", "I'm glad you're interested in reviewing the feature!"])
    r = Engine(store, llm).turn("language-buddy", "u", "I want to give feedback")
    assert RATING_Q in r.reply  # the question as its template says it, scale included
    assert r.trace is not None
    [rejected] = r.trace.noticed("phrase_rejected")
    assert rejected.detail.startswith("ask:feedback.rating: the phrasing lost '1', '5'")
    store.close()


@pytest.mark.parametrize(
    ("text", "limit", "cut"),
    [
        ("It rained. Then it poured and", 600, "It rained."),
        ('She said "stop!" and he asked why? Then the', 600, 'She said "stop!" and he asked why?'),
        ("Version 3.5 is out. Try it", 600, "Version 3.5 is out."),  # a decimal point ends nothing
        ("- one\n- two\n- thr", 600, "- one\n- two"),  # a list's lines end where they break
        ("Done. And another sentence that goes past the limit.", 20, "Done."),
        ("no sentence ends anywhere in this one", 20, "no sentence ends…"),
        ("¿Qué tal? Muy bien, gracias por", 600, "¿Qué tal?"),
    ],
)
def test_a_cut_reply_keeps_its_whole_sentences(text: str, limit: int, cut: str) -> None:
    assert whole_sentences(text, limit) == cut
    assert len(whole_sentences(text, limit)) <= limit
