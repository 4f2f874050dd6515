"""bench/understanding.py runs: a handful of corpus entries played against the engine, offline, no figures asserted.

The benchmark seeds a stored session at each entry's state and reads what the turn did from public results
only; this keeps that path working (a renamed notice, a store change) without waiting for a full run.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from bench.commands_corpus import SETS, Case, shipped  # noqa: E402
from bench.understanding import CORPUS_NOW, label_slots, observe, play, seed_session  # noqa: E402
from engine import Engine, MemoryStore  # noqa: E402


def test_the_benchmark_prints_its_tables_on_a_few_entries() -> None:
    out = subprocess.run(
        # one entry per set shows the tables print; the figures are bench/README's (each set costs a turn more)
        [sys.executable, "bench/understanding.py", "--limit", "1", "--misses", "dev"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    # one of each split and of each blind batch's half
    turns = f"\n{len(SETS)} turns in"
    headings = ("per command kind", "per language", "per class", turns, "dev fresh", "test fresh", "dev later")
    batches = ("test later", "dev typos", "test typos", "dev declines", "test declines", "dev hedges", "test hedges")
    batches += ("dev precision", "test precision", "dev meaning", "test meaning", "dev within", "test within")
    batches += ("dev notasks", "test notasks", "dev nonanswers", "test nonanswers", "derived")
    for heading in (*headings, *batches):
        assert heading in out.stdout, out.stdout


def test_a_seeded_session_is_at_the_entry_state_and_its_turn_is_observed() -> None:
    case = next(c for c in shipped("dev") if c.entry.paused and c.entry.bot == "fitness-coach")
    engine = Engine(MemoryStore())
    seed_session(engine.store, case, "u1")
    stored = engine.store.load(case.entry.bot, "u1")
    assert stored is not None and stored.active is None
    assert [(f.flow, f.state, f.paused) for f in stored.stack] == [(case.entry.flow, case.entry.state, True)]
    # what the turn did is read back: a cancel at a paused run, whatever reads it
    cancel = next(c for c in shipped("dev") + shipped("test") if c.entry.paused and c.entry.text == "stop")
    out = play(Engine(MemoryStore()), cancel, "u2")
    assert [o.kind for o in out.observed] == ["cancel"]
    assert out.exact
    result = engine.turn(case.entry.bot, "u1", case.entry.text)
    assert isinstance(observe(engine.store, case, result), list)


def test_the_outcome_says_whether_the_engine_asked_the_learned_reader() -> None:
    """bench/train_kinds.py chooses the learned reader's threshold on the dev messages the engine asks it about:
    small talk nothing else reads is asked about; a cancel the rules read is not."""
    dev = shipped("dev")
    unread = next(c for c in dev if c.entry.text == "oie, sumida né kkk")
    read = next(c for c in dev if c.entry.text == "stop" and not c.entry.paused)
    engine = Engine(MemoryStore())
    assert play(engine, unread, "u3").asked_learned
    assert not play(engine, read, "u4").asked_learned


# -- what the bench reads from a turn: the answer's value, the none, a flow's own answer to a question back ----


def _at(where: str, text: str) -> Case:
    """A dev entry's state ("bot/flow.state") with another message typed at it."""
    case = next(c for c in shipped("dev") if f"{c.entry.bot}/{c.entry.flow}.{c.entry.state}" == where)
    return case.model_copy(update={"entry": case.entry.model_copy(update={"text": text})})


def _observed(where: str, text: str) -> list[str]:
    label_slots(c for split in ("dev", "test") for c in shipped(split))
    return [str(o) for o in play(_pinned(), _at(where, text), "u").observed]


@pytest.mark.parametrize("text", ["yep, let's do that first", "oui d'accord", "ja gerne", "sim, bora"])
def test_a_yes_to_a_prerequisite_offer_is_a_yes_though_the_lesson_uses_it_up(text: str) -> None:
    """Study-pal's offer clears its yes once the lesson it chose begins, and makes the prerequisite the concept
    taught: the answer's fire says the yes (`Fired.value`); what the flow did with it is no correction, no skip."""
    assert _observed("study-pal/tutoring.offer", text) == ["yes"]


@pytest.mark.parametrize("text", ["nope, straight to it", "non merci", "nein danke"])
def test_a_no_to_a_prerequisite_offer_is_a_no(text: str) -> None:
    assert _observed("study-pal/tutoring.offer", text) == ["no"]


@pytest.mark.parametrize(
    "text", ["no target weight", "kein Zielgewicht", "pas de poids cible", "nessun peso obiettivo", "nope, none"]
)
def test_a_none_at_an_optional_question_is_its_none_not_a_skip(text: str) -> None:
    """The answer fired with the slot's empty value, no skip asked for: the label's none (set_slot of no value)."""
    assert _observed("fitness-coach/onboarding.target_weight", text) == ["set_slot target_weight_kg=None"]


def test_a_skip_asked_for_at_an_optional_question_is_still_a_skip() -> None:
    assert _observed("fitness-coach/onboarding.target_weight", "skip this one") == ["skip"]


@pytest.mark.parametrize(
    "text", ["does the x go to 2 from both sides?", "¿el límite es por la izquierda?", "warum muss ich das kürzen?"]
)
def test_a_lessons_answer_to_a_question_on_the_exercise_is_a_question_back(text: str) -> None:
    """The lesson's own aside answers it from the course and asks the exercise again (`Aside.command`)."""
    assert _observed("study-pal/tutoring.exercise", text) == ["ask_back"]


def _pinned() -> Engine:
    """An engine on the corpus's clock (its dates are relative to it), as the bench plays it."""
    return Engine(MemoryStore(), clock=lambda: CORPUS_NOW.replace(tzinfo=UTC))


@pytest.fixture(autouse=True)
def _corpus_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INNERLOOP_NOW", CORPUS_NOW.isoformat())
