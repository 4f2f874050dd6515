"""The turn-overhead benchmark still runs (bench/turn_overhead.py --smoke).

It once failed on an import for weeks without anyone noticing; here every part of it (the
timed pass, the split, the memory pass, the profile) runs on a few sessions, as a real
subprocess, and the smoke mode checks what both sides stored. No timing is asserted: figures
are read from the benchmark itself (bench/README.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


# the thread's CPU time (`--clock cpu`), the figure read on a machine shared with other work, on one bot
@pytest.mark.parametrize(
    ("bot", "clock"), [("bench-feedback", "wall"), ("language-buddy", "wall"), ("bench-feedback", "cpu")]
)
def test_turn_overhead_smoke(tmp_path: Path, bot: str, clock: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "turn_overhead.py"),
            "--smoke",
            "--bot",
            bot,
            "--clock",
            clock,
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert f"innerloop turn overhead, bot {bot}: 3 sessions" in out
    assert f"timed by the {clock} clock" in out
    assert "ratio engine/floor" in out and "profile of the engine side" in out
    assert "smoke check: 23 sessions stored their feedback" in out


def test_cold_turns_runs(tmp_path: Path) -> None:
    # a turn on a message never read before, beside one read before (bench/cold_turns.py): a few
    # sessions, no timing asserted, so the benchmark cannot break unseen
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "cold_turns.py"), "--sessions", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "all turns (median)" in done.stdout and "I want to give feedback" in done.stdout


def test_store_ab_replays_on_both_trees(tmp_path: Path) -> None:
    # bench/store_ab.py against this tree itself: both stores take every write, and each is
    # checked for what it stored (a failed check exits non-zero); no timing asserted
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "store_ab.py"), "--base", str(ROOT), "--sessions", "3", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "12 writes x 1 replays" in done.stdout and "this tree / base" in done.stdout


def test_no_benchmark_shadows_a_standard_module() -> None:
    # `python bench/x.py` puts bench/ first on sys.path: a bench/queue.py broke psycopg's import
    bench = Path(__file__).resolve().parent.parent / "bench"
    shadowing = [p.name for p in bench.glob("*.py") if p.stem in sys.stdlib_module_names]
    assert not shadowing, f"rename {shadowing}: they hide the standard modules of the same name"


def test_walk_runs_and_walks_a_warm_engine() -> None:
    # bench/walk.py counts the modules one message crosses (bench/README.md, "The walk of a turn");
    # its warm-up must leave the word tables loaded, or their loading is counted as the message's
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "walk.py"), "--path"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    paths = {line.split(":", 1)[0]: line.split(":", 1)[1] for line in done.stdout.splitlines() if " > " in line}
    assert set(paths) == {"feedback rating", "fitness answer"}
    for path in paths.values():
        walked = path.split(" > ")
        assert "engine/reading.py" in walked and "engine/store/sql.py" in walked  # load, read, commit
        assert "engine/tables.py" not in walked  # loaded by the warm-up, not by the message walked


def test_turn_ab_runs_both_trees(tmp_path: Path) -> None:
    # bench/turn_ab.py against this tree itself: both engines run the conversation turn by turn, and
    # what each stored is checked (a failed check exits non-zero); no timing asserted
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "turn_ab.py"), "--base", str(ROOT), "--sessions", "3", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "12 per side x 1 runs" in done.stdout and "this tree / base, run by run" in done.stdout


def test_turn_ab_refuses_a_base_that_is_no_tree(tmp_path: Path) -> None:
    # a commit given for --base was imported from this tree's own path: the tree timed against itself
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "turn_ab.py"), "--base", "eeeab6e", "--sessions", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode != 0 and "holds no engine/" in done.stderr, done.stderr[-3000:]


def test_typo_data_runs() -> None:
    # bench/typo_data.py: a new process's first turns with the prebuilt CLDR words and without; one run, no
    # timing asserted, so the benchmark cannot break unseen
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "typo_data.py"), "--runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {line.split()[0] for line in done.stdout.splitlines() if line.strip()}
    assert {"prebuilt", "sources"} <= rows


def test_shadow_read_compares_and_finds_a_gate_that_misses(tmp_path: Path) -> None:
    # bench/shadow_read.py on one replay script: every read compared, none different; the same with a request
    # gate that lets nothing through reports the readings it changed, and fails
    script = "tests/replays/new_request_fitness.yaml"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shadow = [sys.executable, str(ROOT / "bench" / "shadow_read.py")]
    done = subprocess.run(
        [*shadow, "-m", "cli", "replay", script], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "differences: 0" in done.stderr and "'read compared': " in done.stderr
    broken = tmp_path / "broken_gate.py"
    broken.write_text(
        "import runpy, sys\n"
        "import engine.bot as bot, engine.requests as rq\n"
        "from engine.gates import Gate\n"
        "bad = Gate(frozenset({'zzzzq'}))\n"
        "rq._gate = lambda: bad\n"
        "bot.Intent.gate = property(lambda self: bad)\n"
        f"sys.argv = ['cli', 'replay', {script!r}]\n"
        "runpy.run_module('cli', run_name='__main__', alter_sys=True)\n"
    )
    done = subprocess.run([*shadow, str(broken)], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 1
    assert "DIFFERENT ('read', 'can you remind me to work out tomorrow?'" in done.stderr
