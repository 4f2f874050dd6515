"""The openai backend against a real local model (tests/local_llm.py starts it).

Under a real model the route guard must start no flow on the small-talk corpora, requests
must start their flow, and shipped replay scripts must reach the same flows, states, slots,
records and history as offline (their wording checks are the offline backend's; the phrase
guard holds a model's replies to their templates' facts). A first turn's phrasing is capped (FIRST_TURN_TOKENS):
those tests check the route, settled before the model speaks. By default it takes the first 5
small-talk messages of each bot, every request, and one script per flow (about 2.5 minutes with
SmolLM2 on 2 cores; the suite's budget is 10); INNERLOOP_LOCAL_LLM=all takes the whole corpora and every shipped script.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Engine, MemoryStore
from engine.authoring.replay import replay
from engine.authoring.script import load_script
from engine.llm.openai import OpenAILLM
from tests.local_llm import LocalModel
from tests.test_routing import KNOWN_USER, MAIN, load_corpus

pytestmark = pytest.mark.local_llm

REPLAYS = Path(__file__).parent / "replays"
# one script per shipped flow: feedback, onboarding (with its assessment), fitness onboarding,
# support's clarification, and study-pal's tutoring, analysis and scheduling in one path
ONE_PER_FLOW = [
    "feedback_happy_path.yaml",
    "onboarding_happy_path.yaml",
    "fitness_happy_path.yaml",
    "support_typed_questions.yaml",
    "study_path1_tutoring_analysis_scheduling.yaml",
]
EVERY = sorted(REPLAYS.glob("*.yaml")) + sorted((REPLAYS / "messy").rglob("*.yaml"))
FULL = os.environ.get("INNERLOOP_LOCAL_LLM") == "all"
SCRIPTS = EVERY if FULL else [REPLAYS / n for n in ONE_PER_FLOW]
SMALL_TALK = None if FULL else 5


@pytest.fixture
def model_env(local_model: LocalModel, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalModel]:
    """The openai backend pointed at the local model, as a user would configure it."""
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("INNERLOOP_MODEL", local_model.model)
    yield local_model


# What a first turn may generate. The route is settled before the model is called, and a first
# turn here only phrases (a main reply, or the started flow's first words: no parse), so what is
# checked, the route, does not depend on how much the model says; the guard still reads what it
# says. Uncapped, SmolLM2 rambled to the guard's limit (216 tokens of a reply, up to 400 of an
# analysis report), which was most of the small-talk and request tests' time: their 39 calls
# generated 3519 tokens, 1983 at 64 tokens each at most. The scripts' phrasings stay uncapped:
# there a reply the guard lets through is part of what is checked.
FIRST_TURN_TOKENS = 32


def first_turn(bot: str, text: str, model: LocalModel) -> str:
    """The flow `text` starts for a returning user under the real model, or "main"."""
    store = MemoryStore()
    for draft in KNOWN_USER.get(bot, []):
        store.add_record(bot, "u", "", draft)
    llm = OpenAILLM(model.model, base_url=model.base_url, api_key="local", timeout=60, max_tokens=FIRST_TURN_TOKENS)
    trace = Engine(store, llm).turn(bot, "u", text).trace
    assert trace is not None
    kind, _, flow = trace.route.partition(":")
    return flow if kind in ("intent", "entry", "confirmed") else MAIN


@pytest.mark.parametrize("bot", ["language-buddy", "fitness-coach", "study-pal", "support"])
def test_small_talk_starts_no_flow_with_a_real_model(bot: str, local_model: LocalModel) -> None:
    texts = load_corpus()[bot].small_talk[:SMALL_TALK]
    started = {t: f for t in texts if (f := first_turn(bot, t, local_model)) != MAIN}
    assert started == {}


@pytest.mark.parametrize("bot", ["language-buddy", "fitness-coach", "study-pal"])
def test_requests_start_their_flow_with_a_real_model(bot: str, local_model: LocalModel) -> None:
    wrong = {
        text: flow
        for want, texts in load_corpus()[bot].requests.items()
        for text in texts
        if (flow := first_turn(bot, text, local_model)) != want
    }
    assert wrong == {}


@pytest.mark.parametrize("path", SCRIPTS, ids=[str(p.relative_to(REPLAYS)) for p in SCRIPTS])
def test_a_shipped_script_holds_under_a_real_model(path: Path, model_env: LocalModel) -> None:
    result = replay(load_script(path), llm="openai")
    assert result.passed, "\n".join(f.describe() for f in result.failures)
    calls = [c for r in result.results if r.trace is not None for c in r.trace.llm_calls]
    assert calls and all(c.backend == "openai" for c in calls)
