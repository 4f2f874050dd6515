"""The wall clock that flows read, and the way a replay or a test pins it.

Flows that reason about days and times ("tomorrow at 4", "has 10:00 passed?") read
`local_now()`; a replay script's `now:` key (or `INNERLOOP_NOW` in the environment) fixes
it, so day-relative expectations and recorded LLM prompts are the same on any day.
Stored timestamps (turns, idle expiry) use the real UTC time, never this one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from engine.errors import DefinitionError

CLOCK_ENV = "INNERLOOP_NOW"


def local_now() -> datetime:
    """The current local time (naive), or the pinned one."""
    pinned = os.environ.get(CLOCK_ENV, "").strip()
    if not pinned:
        return datetime.now()
    try:
        return datetime.fromisoformat(pinned).replace(tzinfo=None)
    except ValueError as e:
        raise DefinitionError(f"{CLOCK_ENV}={pinned!r} is not an ISO date-time such as 2025-03-12T09:30") from e


@contextmanager
def pinned_clock(when: datetime | None) -> Iterator[None]:
    """`local_now()` returns `when` inside the block (no change when None)."""
    if when is None:
        yield
        return
    before = os.environ.get(CLOCK_ENV)
    os.environ[CLOCK_ENV] = when.replace(tzinfo=None).isoformat()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CLOCK_ENV, None)
        else:
            os.environ[CLOCK_ENV] = before
