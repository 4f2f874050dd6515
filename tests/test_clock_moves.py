"""The suite passes on any date and in any time zone (tests/clocks.py moves the clock of every replay).

What keeps it so: every recorded script pins its clock with `now:`; recording refuses a script
that does not; flows read the local time only through engine/clock.py (which the pin reaches);
and the moved clocks do catch a script that reads the day unpinned, as a canary shows.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from engine.authoring.replay import recording_path, replay
from engine.authoring.script import load_script
from tests.clocks import MOVED, moved_clock, with_clocks

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "tests" / "replays"
RECORDINGS = ROOT / "tests" / "recordings"
SCRIPTS = sorted(REPLAYS.glob("*.yaml")) + sorted((REPLAYS / "messy").rglob("*.yaml"))


@pytest.mark.parametrize("name", MOVED)
def test_a_moved_clock_moves_the_local_date_and_zone(name: str) -> None:
    with moved_clock(name):
        now = datetime.now()
        assert now.date() == MOVED[name].date() and now.hour == MOVED[name].hour
        assert datetime.now().astimezone().utcoffset() == MOVED[name].utcoffset()


def test_every_clock_replays_scripts_offline_and_recorded() -> None:
    recorded = [p for p in SCRIPTS if recording_path(RECORDINGS, load_script(p)).exists()]
    assert {c for _, c in with_clocks(SCRIPTS)} == set(MOVED)
    assert {c for _, c in with_clocks(recorded)} == set(MOVED)


@pytest.mark.parametrize("name", MOVED)
def test_an_unpinned_script_that_names_a_day_fails_under_each_moved_clock(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("INNERLOOP_NOW", raising=False)
    source = REPLAYS / "study_scheduling_window.yaml"
    text = source.read_text(encoding="utf-8")
    assert re.search(r"^now: ", text, re.M)
    unpinned = tmp_path / "replays" / source.name  # same folder and file name: same recording
    unpinned.parent.mkdir()
    unpinned.write_text(re.sub(r"^now: .*\n", "", text, flags=re.M), encoding="utf-8")
    with moved_clock(name):
        assert replay(load_script(source), replay_llm=RECORDINGS).passed
        failed = replay(load_script(unpinned), replay_llm=RECORDINGS)
    assert not failed.passed and "UnrecordedLLMCall" in failed.failures[0].describe()


def test_a_recorded_script_pins_its_clock() -> None:
    unpinned = [
        str(p.relative_to(REPLAYS))
        for p in SCRIPTS
        if load_script(p).now is None and recording_path(RECORDINGS, load_script(p)).exists()
    ]
    assert not unpinned, f"recorded scripts without `now:`: {unpinned}"


def test_recording_refuses_a_script_without_a_pinned_clock(tmp_path: Path) -> None:
    script = tmp_path / "s.yaml"
    script.write_text("bot: study-pal\nturns:\n  - user: hi\n", encoding="utf-8")
    result = replay(load_script(script), record_llm=tmp_path / "rec")
    assert [f.what for f in result.failures] == ["now"]
    assert "add one: now:" in result.failures[0].describe()
    assert not (tmp_path / "rec").exists()


# Flows read the local clock through engine/clock.py (pinned by a script's `now:` or
# INNERLOOP_NOW) and stored times through engine.models.utcnow. Any other read of the wall clock
# is a date dependence no pin reaches. (cli.py stamps a saved chat's file header.)
_WALL_CLOCK = re.compile(r"\b(?:datetime\.(?:now|today|utcnow)|date\.today|time\.(?:time|localtime|gmtime))\(")
_ALLOWED = {"engine/clock.py", "engine/models.py", "cli.py"}


def test_only_the_clock_module_reads_the_wall_clock() -> None:
    found = []
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("flows/**/*.py"), ROOT / "cli.py"]:
        rel = str(path.relative_to(ROOT))
        if rel in _ALLOWED:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _WALL_CLOCK.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "read the clock through engine.clock.local_now or engine.models.utcnow:\n" + "\n".join(found)
