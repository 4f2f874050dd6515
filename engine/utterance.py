"""One message as the read stage's readers see it: analysed once per turn, read by field.

The readers of the read stage (engine/reading.py: the command phrases, corrections, new requests,
slots filled ahead, questions back) each folded, lower-cased and counted the numbers of the same
message on their own, several times a turn. `Utterance` holds what they share, each field computed
the first time a reader asks for it and kept for the others; a reader whose cue words cannot
occur in it tells so from a field and returns at once.

The fields keep each reader's own meaning (nothing here decides what a word says):

- `folded`: casefolded, accents stripped, whitespace collapsed (`engine.extract.fold`);
- `lowered`: lower case without accents, one character for one, so a position in it is one in the
  message (`engine.cues.fold_same_length`): a slice of it is the slice of the message folded;
- `bare`: lower case, whitespace collapsed, a trailing "." or "!" dropped: how a command word
  alone is compared ("cancel", "help");
- `numbers`: every number the message says, in digits or in words (`engine.extract.numbers`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

from engine.cues import fold_same_length
from engine.extract import fold, numbers

T = TypeVar("T")


class _once(Generic[T]):  # lower case: a decorator, as functools.cached_property is
    """A field computed on first use and kept in the instance, as `functools.cached_property`
    does, without the lock that takes on Python 3.11 (an utterance lives in one turn's thread)."""

    def __init__(self, make: Callable[[Any], T]) -> None:
        self.make = make
        self.name = make.__name__

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> _once[T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> T | _once[T]:
        if instance is None:
            return self
        value = self.make(instance)
        instance.__dict__[self.name] = value  # found before this descriptor from now on
        return value


@dataclass(frozen=True)
class Utterance:
    """A message's text and what the readers read from it (computed on first use, then kept)."""

    text: str

    @_once
    def folded(self) -> str:
        return fold(self.text)

    @_once
    def lowered(self) -> str:
        return fold_same_length(self.text)

    @_once
    def bare(self) -> str:
        return " ".join(self.text.lower().split()).rstrip(".!")

    @_once
    def numbers(self) -> tuple[float, ...]:
        return tuple(numbers(self.text))


@lru_cache(maxsize=1024)
def utterance(text: str) -> Utterance:
    """The `Utterance` of `text`, one per text: its fields are the text's alone, so a message read
    again (a "yes", a rating, a client's retry) finds them computed, as the readers' own caches keyed
    by a message's text do."""
    return Utterance(text)
