"""Clocks the replay tests run under, so that the suite passes on any date and in any time zone.

time-machine moves `datetime.now`, `time.time` and the process time zone, so code that reads the
wall clock any way at all sees the move. Each shipped script is replayed (offline in
tests/test_replay.py, from its recording in tests/test_recordings.py) under one of these clocks,
taken in turn, so every clock replays a third of the scripts at no extra cost: a script that
reads the day without pinning it with `now:` fails under whichever it gets, because none of them
is the day it was written or recorded on.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import time_machine

from engine.authoring.replay import ScriptResult, replay
from engine.authoring.script import load_script

MOVED: dict[str, datetime] = {
    "a-year-later": datetime(2027, 11, 26, 10, 0, tzinfo=ZoneInfo("UTC")),
    "new-years-eve-auckland": datetime(2026, 12, 31, 23, 30, tzinfo=ZoneInfo("Pacific/Auckland")),
    "before-dst-new-york": datetime(2027, 3, 13, 23, 0, tzinfo=ZoneInfo("America/New_York")),
}


def with_clocks(paths: Sequence[Path]) -> list[tuple[Path, str]]:
    """Each path with the name of the clock it replays under, the clocks taken in turn."""
    names = list(MOVED)
    return [(p, names[i % len(names)]) for i, p in enumerate(paths)]


@contextmanager
def moved_clock(name: str) -> Iterator[None]:
    with time_machine.travel(MOVED[name], tick=True):
        yield


@functools.cache
def replayed(path: Path, clock: str | None) -> ScriptResult:
    """`path` replayed offline under `clock` (no INNERLOOP_NOW), once per test session: test_replay
    checks each result, test_coverage_ci adds them all up (it ran the whole suite a second time)."""
    saved = os.environ.pop("INNERLOOP_NOW", None)
    try:
        if clock is None:
            return replay(load_script(path))
        with moved_clock(clock):
            return replay(load_script(path))
    finally:
        if saved is not None:
            os.environ["INNERLOOP_NOW"] = saved
