"""Recorded LLM calls: the shipped scripts replayed offline against what a real model answered.

`tests/recordings/` was made with `innerloop replay tests/replays --llm openai --record-llm
tests/recordings` against SmolLM2-135M-Instruct on llama-cpp-python's server (docs/model.md, "A real
model"). Replaying it runs the whole openai code path (the SDK, format negotiation, repair, the
guards) with no server; a request the recording does not hold fails the script.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.authoring.replay import recording_path, replay
from engine.authoring.script import Script, load_script
from engine.errors import DataFileError
from engine.llm.cassette import Cassette
from tests.clocks import moved_clock, with_clocks

HERE = Path(__file__).parent
REPLAYS = HERE / "replays"
RECORDINGS = HERE / "recordings"
SCRIPTS = sorted(REPLAYS.glob("*.yaml")) + sorted((REPLAYS / "messy").rglob("*.yaml"))
RECORDED = [p for p in SCRIPTS if recording_path(RECORDINGS, load_script(p)).exists()]


def test_most_shipped_scripts_have_a_recording() -> None:
    assert len(RECORDED) >= 60, f"only {len(RECORDED)} of {len(SCRIPTS)} scripts are recorded"


# under a moved clock (tests/clocks.py): a prompt naming another day than the recording's fails
@pytest.mark.parametrize(
    ("path", "clock"), with_clocks(RECORDED), ids=[f"{p.relative_to(REPLAYS)}@{c}" for p, c in with_clocks(RECORDED)]
)
def test_a_recorded_real_model_run_replays_offline(path: Path, clock: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens: the recording answers
    monkeypatch.delenv("INNERLOOP_NOW", raising=False)
    with moved_clock(clock):
        result = replay(load_script(path), replay_llm=RECORDINGS)
    assert result.passed, "\n".join(f.describe() for f in result.failures)
    calls = [c for r in result.results if r.trace is not None for c in r.trace.llm_calls]
    # a script whose turns the rules settle and whose texts are too short to phrase asks nothing
    recorded = Cassette.load(recording_path(RECORDINGS, load_script(path))).exchanges
    assert {c.backend for c in calls} == ({"openai"} if recorded else set())
    assert all(c.prompt_tokens > 0 for c in calls if c.ok)


def _copy(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A shipped script and its recording, copied where they may be changed."""
    script = REPLAYS / name
    folder = tmp_path / "replays"
    folder.mkdir()
    shutil.copy(script, folder / name)
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    shutil.copy(recording_path(RECORDINGS, load_script(script)), recordings)
    return folder / name, recordings


def _script(path: Path) -> Script:
    return load_script(path)


def test_a_request_that_was_not_recorded_fails_the_script_loudly(tmp_path: Path) -> None:
    path, recordings = _copy(tmp_path, "feedback_happy_path.yaml")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"4"', '"3"', 1), encoding="utf-8")
    result = replay(_script(path), replay_llm=recordings)
    assert not result.passed
    (failure,) = result.failures
    assert "UnrecordedLLMCall" in failure.describe() and "holds no answer" in failure.describe()


def test_recorded_answers_left_unasked_fail_the_script(tmp_path: Path) -> None:
    path, recordings = _copy(tmp_path, "feedback_happy_path.yaml")
    script = _script(path)
    cassette = Cassette.load(recording_path(recordings, script))
    cassette.exchanges.append(cassette.exchanges[0])
    cassette.save(recording_path(recordings, script))
    result = replay(script, replay_llm=recordings)
    assert [f.what for f in result.failures] == ["llm recording"]


def test_a_missing_or_broken_recording_is_a_clear_error(tmp_path: Path) -> None:
    path, recordings = _copy(tmp_path, "feedback_happy_path.yaml")
    target = recording_path(recordings, _script(path))
    target.write_text(json.dumps({"format": "innerloop.llm-cassette/1", "exchanges": []}), encoding="utf-8")
    with pytest.raises(DataFileError, match="model: Field required"):
        replay(_script(path), replay_llm=recordings)
    target.unlink()
    with pytest.raises(DataFileError, match="cannot read this LLM recording"):
        replay(_script(path), replay_llm=recordings)
