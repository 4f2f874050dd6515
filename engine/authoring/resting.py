"""Every state a bot rests in between messages, as reached by replay scripts, ready to be fed a message.

A turn leaves a session resting somewhere: a flow's asking state, or the main conversation
("main", no state). Playing each script turn by turn finds, for every resting place of every
bot, the shortest script prefix that gets there; `prepare` plays that prefix once into a
database file, and `at` opens a throwaway copy of it, so a property test or a benchmark can
send any number of messages to the same resting state without replaying the prefix each time.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.authoring.replay import ScriptResult, run_script, temporary_store
from engine.authoring.script import Script, UserTurn, find_scripts, load_script
from engine.bot import MAIN
from engine.clock import pinned_clock
from engine.llm import RulesLLM
from engine.registry import Registry
from engine.runtime import Engine
from engine.store.sql import SqlStore


@dataclass(frozen=True)
class Resting:
    """A resting place of `bot` (`flow` "main" has no state) and the prefix of `script` that reaches it."""

    bot: str
    flow: str
    state: str | None
    script: Script
    turns: int  # script entries (messages and restarts) played to get here

    @property
    def name(self) -> str:
        return f"{self.bot}:{self.flow}.{self.state}" if self.state else f"{self.bot}:{self.flow}"

    @property
    def prefix(self) -> Script:
        return self.script.model_copy(update={"turns": self.script.turns[: self.turns], "expect_end": None})


def resting_places(
    scripts: Iterable[Script],
    *,
    bots: Registry | None = None,
    played: Callable[[Script], ScriptResult] | None = None,
) -> list[Resting]:
    """The first (shortest) prefix reaching each resting place, over `scripts` played offline in order.
    `played`: a script's offline result when the caller has it already (a test suite that replays
    every script once), instead of playing it again here."""
    found: dict[tuple[str, str, str | None], Resting] = {}
    for script in scripts:
        if script.llm != "rules":
            continue  # a model's answers are not reproducible offline
        if played is not None:
            result = played(script)
        else:
            with temporary_store() as store:
                result = run_script(script, store, RulesLLM(), bots=bots, wording=False)
        entries = _message_entries(script)
        for outcome, entry in zip(result.results, entries, strict=False):
            key = (script.bot, outcome.flow, outcome.state if outcome.flow != MAIN else None)
            old = found.get(key)
            if old is None or entry + 1 < old.turns:
                found[key] = Resting(key[0], key[1], key[2], script, entry + 1)
    return sorted(found.values(), key=lambda r: r.name)


def scripts_in(paths: Iterable[str | Path], *, bots: Registry | None = None) -> list[Script]:
    return [load_script(p, bots=bots) for p in find_scripts(paths)]


def _message_entries(script: Script) -> list[int]:
    """The index in `script.turns` of each turn that sends a message (restarts send none)."""
    return [i for i, t in enumerate(script.turns) if isinstance(t, UserTurn)]


def prepare(place: Resting, folder: Path, *, bots: Registry | None = None) -> Path:
    """Play `place`'s prefix into a database file in `folder`; returns the file."""
    path = folder / f"{place.name.replace(':', '_').replace('/', '_')}.db"
    store = SqlStore(str(path))
    try:
        run_script(place.prefix, store, RulesLLM(), bots=bots, wording=False)
    finally:
        store.close()
    return path


@contextmanager
def at(place: Resting, prepared: Path, folder: Path, *, bots: Registry | None = None) -> Iterator[Engine]:
    """An offline engine over a fresh copy of `prepared`, with the script's resources and clock;
    the session to talk to is `place.bot`, `place.script.user`."""
    copy = folder / f"copy-{prepared.name}"
    for suffix in ("", "-wal", "-shm"):
        copy.with_name(copy.name + suffix).unlink(missing_ok=True)
    shutil.copyfile(prepared, copy)
    store = SqlStore(str(copy), synchronous="OFF")  # a throwaway copy: nothing to make durable
    try:
        with pinned_clock(place.script.now):
            yield Engine(store, RulesLLM(), place.script.resources, bots=bots)
    finally:
        store.close()
