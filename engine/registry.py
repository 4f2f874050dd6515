"""Which bots exist: a `Registry`, and the default one discovered from installed packages.

A package ships bots by naming them under the `innerloop.bots` entry-point group
(`language-buddy = "flows.language_buddy:language_buddy"` in its pyproject); the engine
knows no package by name. A program or a test that wants other bots builds its own
`Registry` and hands it to `Engine`, the replay runner or the harness.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from importlib.metadata import entry_points
from typing import Any

from engine.bot import Bot
from engine.errors import DefinitionError, UnknownNameError
from engine.flow import Flow

GROUP = "innerloop.bots"


class Registry:
    """Bots by name, in the order they were added."""

    def __init__(self, bots: Iterable[Bot] = ()) -> None:
        self._bots: dict[str, Bot] = {}
        for b in bots:
            self.add(b)

    def add(self, bot: Bot) -> Bot:
        """Register `bot`; DefinitionError if another bot already has its name."""
        known = self._bots.get(bot.name)
        if known is not None and known is not bot:
            raise DefinitionError(f"bot {bot.name!r} is registered twice")
        self._bots[bot.name] = bot
        return bot

    def get(self, name: str) -> Bot:
        try:
            return self._bots[name]
        except KeyError:
            raise UnknownNameError("bot", name, list(self._bots)) from None

    def __contains__(self, name: object) -> bool:
        return name in self._bots

    def __iter__(self) -> Iterator[Bot]:
        return iter(list(self._bots.values()))

    def __len__(self) -> int:
        return len(self._bots)

    def flows(self) -> list[Flow[Any]]:
        """Every distinct flow of every bot (a flow may be shared by several bots)."""
        seen: dict[int, Flow[Any]] = {}
        for b in self:
            for f in b.flows:
                seen.setdefault(id(f), f)
        return list(seen.values())

    @classmethod
    def discover(cls, group: str = GROUP) -> Registry:
        """The bots installed packages declare under entry-point `group`."""
        registry = cls()
        for point in sorted(entry_points(group=group), key=lambda p: p.name):
            try:
                bot = point.load()
            except Exception as e:  # a broken plugin names itself instead of killing every command
                raise DefinitionError(f"entry point {point.name!r} ({point.value}) failed to load: {e}") from e
            if not isinstance(bot, Bot):
                raise DefinitionError(f"entry point {point.name!r} ({point.value}) is not a Bot")
            if bot.name != point.name:
                raise DefinitionError(f"entry point {point.name!r} names bot {bot.name!r}: use the bot's name")
            registry.add(bot)
        return registry


@functools.cache
def default_registry() -> Registry:
    """The installed bots (discovered once per process)."""
    return Registry.discover()
