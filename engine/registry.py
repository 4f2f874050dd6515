"""Which bots exist: a `Registry`, and the default one discovered from installed packages.

A package ships bots by naming them under the `innerloop.bots` entry-point group
(`language-buddy = "flows.language_buddy:language_buddy"` in its pyproject); the engine
knows no package by name. A program or a test that wants other bots builds its own
`Registry` and hands it to `Engine`, the replay runner or the harness, or names a bot that
is not installed by where it lives (`load_bot("mypkg.mybot:bot")`, `innerloop replay
--bots mypkg.mybot:bot`, `dialogue(..., bots="mypkg.mybot:bot")`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.bot import Bot
from engine.errors import DefinitionError, UnknownNameError
from engine.flow import Flow

GROUP = "innerloop.bots"


class _Bots(dict[str, Bot]):
    """Bots by name; a name none has is an UnknownNameError listing the names there are."""

    def __missing__(self, name: str) -> Bot:
        raise UnknownNameError("bot", name, list(self))


class Registry:
    """Bots by name, in the order they were added."""

    # `get(name)`: the bot of that name; UnknownNameError when none has it. The dict's own
    # lookup (C code: a turn's `Engine.turn` runs nothing of this module for it, bench/walk.py)
    get: Callable[[str], Bot]

    def __init__(self, bots: Iterable[Bot] = ()) -> None:
        self._bots = _Bots()
        self.get = self._bots.__getitem__
        for b in bots:
            self.add(b)

    def add(self, bot: Bot) -> Bot:
        """Register `bot`; DefinitionError if another bot already has its name."""
        known = self._bots.get(bot.name)
        if known is not None and known is not bot:
            raise DefinitionError(f"bot {bot.name!r} is registered twice")
        self._bots[bot.name] = bot
        return bot

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


# What names bots that may not be installed: a registry as it is, or bots (objects or
# "module:attribute" paths) added in front of the installed ones.
BotSource = Registry | Bot | str
BotSources = BotSource | Iterable[Bot | str]


def load_bot(spec: str) -> list[Bot]:
    """The bots at `spec`: "package.module:name" or "path/to/file.py:name" (":bot" when left out).

    `name` may be a Bot, a Registry or a list of Bots. A module is imported with the current
    directory on the path, as `python -m` would, so a bot beside the scripts that use it
    needs no install. DefinitionError says what is missing.
    """
    where, _, attr = spec.partition(":")
    attr = attr or "bot"
    if not where:
        raise DefinitionError(f"bots {spec!r}: name a module or a .py file, e.g. mypkg.mybot:bot")
    module = _module_at(where, spec)
    try:
        value = getattr(module, attr)
    except AttributeError:
        raise DefinitionError(f"bots {spec!r}: {where} has no {attr!r}") from None
    found = list(value) if isinstance(value, Registry | list | tuple) else [value]
    wrong = [type(b).__name__ for b in found if not isinstance(b, Bot)]
    if wrong or not found:
        raise DefinitionError(f"bots {spec!r}: {attr!r} must be a Bot, a Registry or a list of Bots, not {wrong}")
    return found


def _module_at(where: str, spec: str) -> ModuleType:
    if where.endswith(".py") or os.sep in where or "/" in where:
        path = Path(where).resolve()
        if not path.is_file():
            raise DefinitionError(f"bots {spec!r}: no file {path}")
        name = f"innerloop_bot_{path.stem}"
        found = importlib.util.spec_from_file_location(name, path)
        if found is None or found.loader is None:
            raise DefinitionError(f"bots {spec!r}: {path} cannot be imported")
        module = importlib.util.module_from_spec(found)
        sys.modules[name] = module
        try:
            found.loader.exec_module(module)
        except Exception as e:  # the author's module: its own error, named
            del sys.modules[name]
            raise DefinitionError(f"bots {spec!r}: {path} failed to import: {type(e).__name__}: {e}") from e
        return module
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as e:
        if e.name is not None and where.startswith(e.name):
            raise DefinitionError(f"bots {spec!r}: no module {where!r} here ({here}) or installed") from e
        raise DefinitionError(f"bots {spec!r}: {where} failed to import: {e}") from e
    except Exception as e:  # the author's module: its own error, named
        raise DefinitionError(f"bots {spec!r}: {where} failed to import: {type(e).__name__}: {e}") from e


def registry_of(sources: BotSources | None) -> Registry:
    """The bots to run: a Registry as given; bots or their paths, with the installed bots behind them.

    A bot given by name here takes the place of an installed one of the same name, so a
    bot can be tried before it is installed again.
    """
    if sources is None:
        return default_registry()
    if isinstance(sources, Registry):
        return sources
    items: Iterable[Bot | str] = [sources] if isinstance(sources, Bot | str) else sources
    registry = Registry()
    for item in items:
        for b in load_bot(item) if isinstance(item, str) else [item]:
            registry.add(b)
    for b in default_registry():
        if b.name not in registry:
            registry.add(b)
    return registry
