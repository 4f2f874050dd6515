"""A test harness for flow authors, registered as a pytest plugin (entry point `innerloop`).

    def test_feedback_starts(dialogue):
        chat = dialogue("language-buddy")
        chat.say("I want to give feedback").expect(flow="feedback", state="rating")

`dialogue(...)` runs a conversation on a temporary on-disk SQLite store with the rules
backend (or the LLM you pass, e.g. a ScriptedLLM). `bots=` runs a bot that is not
installed: a Bot, a "module:name" path (`engine.registry.load_bot`) or a whole Registry.
Expectations use the same matching rules as replay scripts (engine/replay.py).
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Protocol

import pytest
from pydantic import JsonValue

from engine.authoring.expect import Failure, check_history, check_records, check_turn
from engine.authoring.replay import ALL_HISTORY, seed_profile
from engine.authoring.script import Expect
from engine.bot import MAIN
from engine.llm import LLM, RulesLLM
from engine.models import JsonObject, Message, Resources, SessionState
from engine.registry import BotSources, registry_of
from engine.runtime import Engine, TurnResult
from engine.store.sql import SqlStore

__all__ = ["Dialogue", "DialogueFactory", "dialogue", "dialogue_fixture"]


class Dialogue:
    """One user's conversation with one bot; `say` runs a turn, `expect` checks it."""

    def __init__(
        self,
        bot: str,
        store: SqlStore,
        *,
        user: str = "tester",
        llm: LLM | None = None,
        resources: Resources | None = None,
        bots: BotSources | None = None,
    ) -> None:
        self.engine = Engine(store, llm or RulesLLM(), resources, bots=registry_of(bots))
        self.bot = self.engine.bots.get(bot).name
        self.user = user
        self.store = store
        self.last: TurnResult | None = None
        self.turns = 0
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    def say(self, text: str) -> Dialogue:
        self.last = self.engine.turn(self.bot, self.user, text)
        self.turns += 1
        return self

    def restart(self) -> Dialogue:
        """Carry on as after a process restart: a new engine and store on the same database."""
        self.store = self.store.reopen()
        self.engine = Engine(self.store, self.engine.llm, self.engine.resources, bots=self.engine.bots)
        self.last = None  # what the conversation looks like now is read back from the store
        return self

    def expect(
        self,
        flow: str | None = None,
        state: str | None = None,
        reply: str | None = None,
        reply_contains: str | Sequence[str] | None = None,
        reply_not_contains: str | Sequence[str] | None = None,
        slots: Mapping[str, JsonValue] | None = None,
    ) -> Dialogue:
        """Check the last turn; AssertionError lists each expectation that did not hold."""
        if self.last is None:
            raise AssertionError("expect() before any say(): there is no turn to check yet")
        ex = Expect(
            flow=flow,
            state=state,
            reply=reply,
            reply_contains=_strings(reply_contains),
            reply_not_contains=_strings(reply_not_contains),
            slots=dict(slots) if slots is not None else None,
        )
        self._raise(check_turn(ex, self.last, self.turns))
        return self

    def expect_history(self, *contains: str) -> Dialogue:
        """Each string must occur in some main-history message (summaries included)."""
        self._raise(check_history(contains, [m.content for m in self.history]))
        return self

    def expect_records(self, kind: str, rows: Sequence[Mapping[str, JsonValue]]) -> Dialogue:
        """Each mapping must match a distinct saved `kind` row; [] means none was saved."""
        self._raise(check_records(kind, rows, self.store.records(kind, bot=self.bot, user=self.user)))
        return self

    def _raise(self, failures: list[Failure]) -> None:
        if not failures:
            return
        lines = [f"{len(failures)} expectation(s) failed for {self.bot} (user {self.user!r}):"]
        lines += [f"  {f.describe()}" for f in failures]
        if self.last is not None:
            lines.append(f"  last turn: flow={self.last.flow!r} state={self.last.state!r} reply={self.last.reply!r}")
        raise AssertionError("\n".join(lines))

    # -- what the conversation looks like now ---------------------------------------------

    @property
    def session(self) -> SessionState | None:
        return self.engine.session(self.bot, self.user)

    @property
    def reply(self) -> str:
        return self.last.reply if self.last else ""

    @property
    def flow(self) -> str:
        if self.last is not None:
            return self.last.flow
        s = self.session
        return s.active.flow if s and s.active else MAIN

    @property
    def state(self) -> str | None:
        if self.last is not None:
            return self.last.state
        s = self.session
        return s.active.state if s and s.active else None

    @property
    def slots(self) -> JsonObject:
        if self.last is not None:
            return dict(self.last.slots)
        s = self.session
        return dict(s.active.slots) if s and s.active else {}

    @property
    def history(self) -> list[Message]:
        """The whole main history, oldest first."""
        s = self.session
        return self.store.history(s.id, ALL_HISTORY) if s else []

    def records(self, kind: str) -> list[JsonObject]:
        """The data of this user's saved `kind` records, oldest first."""
        return [r.data for r in self.store.records(kind, bot=self.bot, user=self.user)]

    def close(self) -> None:
        self.store.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> Dialogue:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _strings(value: str | Sequence[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def dialogue(
    bot: str,
    *,
    user: str = "tester",
    llm: LLM | None = None,
    profile: JsonObject | None = None,
    db: str | Path | None = None,
    resources: Resources | None = None,
    bots: BotSources | None = None,
) -> Dialogue:
    """Start a conversation; without `db`, on a temporary SQLite file removed by `close()`.

    `bots`: where `bot` comes from when it is not installed (a Bot, "module:name", a Registry).
    """
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="innerloop-test-")
        db = Path(tmp.name) / "dialogue.db"
    # a file removed by close() has nothing to make durable: its commits skip the fsync (a
    # database the caller gave keeps the store's default)
    store = SqlStore(str(db), synchronous="OFF") if tmp is not None else SqlStore(str(db))
    chat = Dialogue(bot, store, user=user, llm=llm, resources=resources, bots=bots)
    chat._tmp = tmp
    if profile is not None:
        seed_profile(chat.store, chat.bot, user, profile)
    return chat


class DialogueFactory(Protocol):
    def __call__(
        self,
        bot: str,
        *,
        user: str = "tester",
        llm: LLM | None = None,
        profile: JsonObject | None = None,
        db: str | Path | None = None,
        resources: Resources | None = None,
        bots: BotSources | None = None,
    ) -> Dialogue: ...


@pytest.fixture(name="dialogue")
def dialogue_fixture(tmp_path: Path) -> Iterator[DialogueFactory]:
    """`dialogue(bot, ...)` whose stores live in the test's tmp_path and are closed after it."""
    opened: list[Dialogue] = []
    numbers = itertools.count(1)

    def make(
        bot: str,
        *,
        user: str = "tester",
        llm: LLM | None = None,
        profile: JsonObject | None = None,
        db: str | Path | None = None,
        resources: Resources | None = None,
        bots: BotSources | None = None,
    ) -> Dialogue:
        # Each call gets its own file unless the test shares one on purpose via `db`.
        chat = dialogue(
            bot,
            user=user,
            llm=llm,
            profile=profile,
            db=db or tmp_path / f"dialogue-{next(numbers)}.db",
            resources=resources,
            bots=bots,
        )
        opened.append(chat)
        return chat

    yield make
    for chat in opened:
        chat.close()
