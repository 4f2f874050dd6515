"""Whatever a user types, every shipped bot answers: no exception escapes a turn, and the
stored session stays loadable. Hypothesis drives random conversations through each bot."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine import Engine, LLMUnavailable, Parsed, ParseRequest, Phrased, PhraseRequest, SqlStore
from engine.authoring.diagram import shipped_bots

WORDS = [
    "hello", "yes", "no", "cancel", "help", "feedback", "4", "7", "0", "-3", "1,000", "2.5", "banana",
    "I'm Max from Berlin", "German", "English", "UTC+2", "Portland", "teach me derivatives", "why?",
    "I'm done for today", "schedule study from 14-16 tomorrow", "my notifications don't arrive on android",
    "12", "agent", "a", "b", "c", "none", "80 kg", "3 days", "vegetarian", "actually my name is Maxim",
    "this is too hard", "analyze my weak points", "/reset", "stop", "?", "ok", "I want to complain",
]  # fmt: skip
messages = st.one_of(st.sampled_from(WORDS), st.text(min_size=0, max_size=60))
_users = itertools.count()


@pytest.fixture(scope="module")
def db_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test keeps one SQLite file for all its examples, each example a new user: a new
    file per example made support index its knowledge base again every time (0.27 s of CPU, 57
    times in this module, over half its time)."""
    return tmp_path_factory.mktemp("fuzz")


def new_user() -> str:
    """A user no earlier example (nor a shrink's rerun) has talked as."""
    return f"fuzz{next(_users)}"


@pytest.mark.parametrize("bot", sorted(b.name for b in shipped_bots()))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversation=st.lists(messages, min_size=1, max_size=8))
def test_any_conversation_gets_replies_and_keeps_the_session_whole(
    bot: str, db_folder: Path, conversation: list[str]
) -> None:
    store = SqlStore(str(db_folder / f"{bot}.db"))
    engine, user = Engine(store), new_user()
    try:
        for text in conversation:
            result = engine.turn(bot, user, text)
            assert result.rejected or result.reply.strip(), f"empty reply to {text!r}"
        session = engine.session(bot, user)
        if session is not None:
            assert session.turns == len(store.traces(session.id)) == session.version
    finally:
        store.close()


class Chaos:
    """A model that answers anything: random text, random or wrong-typed JSON, or an outage."""

    name = "chaos"
    model = "chaos"

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def phrase(self, request: PhraseRequest) -> Phrased:
        if self.draw(st.booleans()):
            raise LLMUnavailable("down", backend=self.name)
        return Phrased(text=self.draw(st.text(min_size=1, max_size=30)))

    def parse(self, request: ParseRequest) -> Parsed:
        choice = self.draw(st.integers(0, 3))
        if choice == 0:
            raise LLMUnavailable("down", backend=self.name)
        if choice == 1:
            return Parsed(value=None)
        fields = list(request.schema_model.model_fields)
        raw = {
            f: self.draw(st.one_of(st.none(), st.integers(-5, 20), st.text(max_size=12), st.booleans())) for f in fields
        }
        try:
            return Parsed(value=request.schema_model.model_validate(raw))
        except ValidationError:
            return Parsed(value=None)  # a real backend repairs or reports; the engine sees "not given"


@pytest.mark.parametrize("bot", sorted(b.name for b in shipped_bots()))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), conversation=st.lists(messages, min_size=1, max_size=6))
def test_any_model_answer_leaves_the_conversation_working(
    bot: str, db_folder: Path, data: st.DataObject, conversation: list[str]
) -> None:
    store = SqlStore(str(db_folder / f"chaos-{bot}.db"))
    engine, user = Engine(store, Chaos(data.draw)), new_user()
    try:
        for text in conversation:
            result = engine.turn(bot, user, text)
            assert result.rejected or result.reply.strip(), f"empty reply to {text!r}"
    finally:
        store.close()
