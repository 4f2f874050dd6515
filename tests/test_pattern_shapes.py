"""No regular expression in engine/ or flows/ backtracks badly on a message the engine accepts.

Every pattern the code holds (compiled in a module, a bot's intents, or written inline in a
`re.` call) is run by tests/_patterns.py in a subprocess against adversarial messages of the
input limit's length (repeated punctuation, separators, long words, mixed scripts, its own
words repeated and cut short). Each must take under PATTERN_BUDGET_MS of CPU per search; one
that backtracks for minutes is stopped after STUCK_S and named. Per pattern, not per turn:
a turn runs dozens of patterns, so one quadratic shape (`\\s+x` searched at every position,
nested or overlapping repeats) is what makes a message cost seconds (issue 25).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from tests._patterns import Found

WORKER = Path(__file__).parent / "_patterns.py"
# a linear pattern takes well under 5 ms at the input limit; a quadratic one 10 ms to seconds (at
# 20 ms, two quadratic patterns measured 13-19 ms on an idle machine and passed, then 30 ms in CI)
PATTERN_BUDGET_MS = 10.0
# over the budget, a pattern is named when four times the text costs it more than this many times
# the time (linear: about 4, quadratic: about 16), or when it is ten times over the budget whatever
# its growth. Time alone named a linear pattern once both cores were busy (a timed test must not
# fail on a loaded machine); the growth is the shape the check is about.
GROWTH_LIMIT = 7.0
STUCK_S = 20.0


def too_slow(ms: float, growth: float) -> bool:
    return ms > PATTERN_BUDGET_MS and (growth > GROWTH_LIMIT or ms > 10 * PATTERN_BUDGET_MS)


def _run_all() -> tuple[list[Found], dict[int, tuple[float, float]], dict[int, str]]:
    """The patterns, as the timing worker collected them in a fresh interpreter (the suite's own
    process has filled module-level caches, per-flow tables, with more by now); each one's worst
    time in ms, and what was slowest or that it never finished."""
    found: list[Found] | None = None
    times: dict[int, tuple[float, float]] = {}
    notes: dict[int, str] = {}
    start = 0
    while found is None or start < len(found):
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(start)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
        )
        assert proc.stdout is not None
        try:
            header = proc.stdout.readline()  # the worker has collected the patterns
            assert header, "the pattern worker exited before listing the patterns"
            listed = [Found(*item) for item in json.loads(header)["patterns"]]
            if found is None:
                found = listed
            assert listed == found, "a restarted worker collected other patterns"
            last = time.monotonic()
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], 1.0)
                if ready:
                    line = proc.stdout.readline()
                    if not line:
                        start = len(found)
                        break
                    i, ms, what, growth = json.loads(line)
                    times[i], notes[i], start, last = (ms, growth), what, i + 1, time.monotonic()
                elif time.monotonic() - last > STUCK_S:
                    times[start] = (float("inf"), float("inf"))
                    notes[start] = f"still running after {STUCK_S:.0f} s"
                    start += 1
                    break
        finally:
            proc.kill()
            proc.wait()
    assert found is not None  # the loop ran at least once
    return found, times, notes


def test_every_pattern_is_fast_on_adversarial_messages() -> None:
    found, times, notes = _run_all()
    assert len(found) > 150  # the collector sees the code's patterns (about 250)
    assert len(times) == len(found)
    slow = [
        f"{found[i].where}: {found[i].pattern[:120]!r} took {ms} ms, {growth}x its time on a quarter ({notes[i]})"
        for i, (ms, growth) in sorted(times.items(), key=lambda kv: -kv[1][0])
        if too_slow(ms, growth)
    ]
    assert slow == [], "\n".join(slow)


def test_the_check_catches_the_shapes_it_guards_against() -> None:
    """The adversarial messages make the known bad shapes slow, and leave their fixes fast."""
    import re

    from tests._patterns import adversarial, growth, worst

    bad = [r"\s+(?:so|which means)\s+", r"(\d+)\s*(?:/|out of)\s*(\d+)", r"\w+\s+(?:pain)", r"\bdid\b.*\bfeedback"]
    good = [r"(?<!\s)\s++(?:so|which means)\s++", r"(?<!\d)(\d++)\s*+(?:/|out of)\s*+(\d+)", r"(?<!\w)\w++\s+(?:pain)"]
    for p in bad:
        spent, _, op, text = worst(re.compile(p), adversarial(p))
        assert too_slow(spent * 1000, growth(re.compile(p), op, text)), p
    for p in good:
        spent, _, op, text = worst(re.compile(p), adversarial(p))
        assert not too_slow(spent * 1000, growth(re.compile(p), op, text)), p
