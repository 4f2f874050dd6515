"""Routing on a corpus: small talk starts no flow, a request starts the flow it asks for.

The corpus is `tests/corpora/routing.yaml`. Offline, the keyword rules decide; the same corpus
runs against a real local model in the local-model suite, where the route guard must keep a
model's intent classification from starting a flow on small talk.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel, ConfigDict, RootModel

from engine import Engine, MemoryStore, Parsed, ParseRequest, Phrased, PhraseRequest, RecordDraft
from tests.yaml_file import safe_load

CORPUS = Path(__file__).parent / "corpora" / "routing.yaml"
MAIN = "main"

# What a returning user has stored, so entry rules (onboarding first) stay out of the way.
KNOWN_USER: dict[str, list[RecordDraft]] = {
    "language-buddy": [
        RecordDraft(
            kind="profile",
            data={"name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin",
                  "level": "B1"},
        )
    ],
    "fitness-coach": [
        RecordDraft(
            kind="fitness_profile",
            data={"fitness_level": "beginner", "goal": "general fitness", "days_per_week": 3,
                  "minutes_per_session": 30},
        )
    ],
}  # fmt: skip


class BotCorpus(BaseModel):
    model_config = ConfigDict(extra="forbid")

    small_talk: list[str]
    requests: dict[str, list[str]]


class Corpus(RootModel[dict[str, BotCorpus]]):
    pass


def load_corpus() -> dict[str, BotCorpus]:
    return Corpus.model_validate(safe_load(CORPUS.read_text(encoding="utf-8"))).root


def first_turn(bot: str, text: str) -> str:
    """The flow `text` starts when it opens a returning user's conversation, or "main"."""
    store = MemoryStore()
    for draft in KNOWN_USER.get(bot, []):
        store.add_record(bot, "u", "", draft)
    trace = Engine(store).turn(bot, "u", text).trace
    assert trace is not None
    # a flow may finish within the turn that starts it (an analysis with nothing to analyse)
    kind, _, flow = trace.route.partition(":")
    return flow if kind in ("intent", "entry") else MAIN


def test_the_corpus_has_fifty_small_talk_messages_per_bot() -> None:
    corpus = load_corpus()
    assert set(corpus) == {"language-buddy", "fitness-coach", "study-pal", "support"}
    for bot, c in corpus.items():
        assert len(set(c.small_talk)) >= 50, bot


@pytest.mark.parametrize("bot", ["language-buddy", "fitness-coach", "study-pal", "support"])
def test_small_talk_starts_no_flow_offline(bot: str) -> None:
    started = {text: flow for text in load_corpus()[bot].small_talk if (flow := first_turn(bot, text)) != MAIN}
    assert started == {}


@pytest.mark.parametrize("bot", ["language-buddy", "fitness-coach", "study-pal"])
def test_requests_start_their_flow_offline(bot: str) -> None:
    wrong = {
        text: flow
        for want, texts in load_corpus()[bot].requests.items()
        for text in texts
        if (flow := first_turn(bot, text)) != want
    }
    assert wrong == {}


class Pushy:
    """The worst model for routing: it reads every message as a request for the first intent it
    is offered, quotes the whole message as its evidence, and says "yes" to every yes/no."""

    name = "pushy"
    model = "pushy"

    def __init__(self) -> None:
        self.classified = 0

    def phrase(self, request: PhraseRequest) -> Phrased:
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        fields = request.schema_model.model_fields
        text = next(m.content for m in reversed(request.messages) if m.role == "user")
        if "evidence" in fields:
            self.classified += 1
            choice = get_args(get_args(fields["value"].annotation)[0])[0]
            return Parsed(value=request.schema_model(value=choice, evidence=text))
        return Parsed(value=None)


def with_model(bot: str, texts: list[str]) -> tuple[str, str]:
    """(the reply to the first message, the flow after the last) with the pushy model."""
    store = MemoryStore()
    for draft in KNOWN_USER.get(bot, []):
        store.add_record(bot, "u", "", draft)
    e = Engine(store, Pushy())
    first = e.turn(bot, "u", texts[0])
    last = first
    for text in texts[1:]:
        last = e.turn(bot, "u", text)
    return first.reply, last.flow


@pytest.mark.parametrize("bot", ["language-buddy", "fitness-coach", "study-pal", "support"])
def test_a_model_that_reads_everything_as_a_request_starts_no_flow_on_small_talk(bot: str) -> None:
    """The route guard by construction: cue words gate the classification, and what a model
    reads is asked back; only the user's yes starts a flow."""
    started = {}
    for text in load_corpus()[bot].small_talk:
        _, flow = with_model(bot, [text])
        if flow != MAIN and bot != "support":  # support's clarification is the knowledge base's, not a model's
            started[text] = flow
    assert started == {}


def test_a_request_the_patterns_miss_is_asked_back_and_yes_starts_it() -> None:
    reply, flow = with_model("language-buddy", ["honestly the app keeps crashing on my phone", "yes"])
    assert reply == "Do you want to give feedback about the app?" and flow == "feedback"
    reply, flow = with_model("language-buddy", ["honestly the app keeps crashing on my phone", "no"])
    assert flow == MAIN
