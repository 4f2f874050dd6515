"""Facts no slot takes: "I'm 34, about 5 foot 9" at a fitness level question, "tengo 19 años" at the language
question.

A user may offer a personal fact the flow never asks for. Read as an answer it was a failed one (a reprompt, an
attempt used), or it was read as a number the question takes ("je mesure 1m72" as one day a week). A message made
only of such facts (engine/data/personal_facts.yaml: age, height, weight, in six languages), none of a kind a slot
of the open flow takes (by the slot's name: a fitness flow with a weight slot takes a weight), is answered "I don't
need your age or your height for this." and the question asked again, no attempt used (engine/answering.py). A
message that also answers ("intermediate, I'm 34") is an answer: it is not made only of facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.cues import fold_same_length
from engine.extract import Invalid
from engine.tables import any_of, compiles, load_table

FACTS_FILE = Path(__file__).parent / "data" / "personal_facts.yaml"


class _Fact(BaseModel):
    model_config = ConfigDict(extra="forbid")
    said: str = Field(min_length=1)
    slots: list[str] = Field(min_length=1)
    stated: list[str] = Field(min_length=1)
    bare: list[str] = Field(default_factory=list)

    _check = field_validator("stated", "bare")(classmethod(lambda cls, v: compiles(v)))


class FactsTable(BaseModel):
    """engine/data/personal_facts.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid")
    facts: dict[str, _Fact]
    filler: list[str]


@dataclass(frozen=True)
class _Compiled:
    stated: tuple[tuple[str, re.Pattern[str]], ...]
    bare: tuple[tuple[str, re.Pattern[str]], ...]
    said: dict[str, str]
    slots: dict[str, tuple[str, ...]]
    filler: frozenset[str]


def _whole(patterns: list[str]) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.,']){any_of(patterns)}(?![\w])")


@lru_cache(maxsize=1)
def _table() -> _Compiled:
    t = load_table(FACTS_FILE, FactsTable, "personal facts")
    return _Compiled(
        stated=tuple((k, _whole(f.stated)) for k, f in t.facts.items()),
        bare=tuple((k, _whole(f.bare)) for k, f in t.facts.items() if f.bare),
        said={k: f.said for k, f in t.facts.items()},
        slots={k: tuple(f.slots) for k, f in t.facts.items()},
        filler=frozenset(w for line in t.filler for w in _folded(line).split()),
    )


def _folded(text: str) -> str:
    return fold_same_length(text).lower().replace("’", "'")


_WORD = re.compile(r"[\w']+")


@dataclass(frozen=True)
class Facts:
    """The personal facts a message gives that no slot takes (`kinds`: "age", "height"), and the message without
    them as typed (`rest`: "" when only filler is left)."""

    kinds: tuple[str, ...]
    rest: str


def _blanked(text: str, pattern: re.Pattern[str], folded: str, kind: str, found: list[str]) -> tuple[str, str]:
    """`text` and its `folded` form with each match of `pattern` blanked alike (folding keeps the length), its
    `kind` noted in `found`."""
    spans = [m.span() for m in pattern.finditer(folded)]
    for a, b in spans:
        found.append(kind)
        text = text[:a] + " " * (b - a) + text[b:]
        folded = folded[:a] + " " * (b - a) + folded[b:]
    return text, folded


def facts(text: str, slot_names: Collection[str], reads: Callable[[str], object]) -> Facts | None:
    """The personal facts in `text` that no slot (`slot_names`, the open flow's) takes, or None where it gives none
    or a slot takes one of their kinds (a flow with a weight slot reads a weight itself). A bare number said of
    oneself ("I'm 34") counts only where the open question's parser (`reads`) reads no value from the message."""
    table = _table()
    folded = _folded(text)
    if len(folded) != len(text) or not any(map(str.isdigit, folded)):
        return None
    found: list[str] = []
    rest = text
    for kind, pattern in table.stated:
        rest, folded = _blanked(rest, pattern, folded, kind, found)
    bare: list[str] = []
    for kind, pattern in table.bare:
        rest, folded = _blanked(rest, pattern, folded, kind, bare)
    if bare:
        value = reads(text)
        if value is not None and not isinstance(value, Invalid):
            return None  # "I'm 30" at a question of minutes may be its answer
        found += bare
    if not found:
        return None
    kinds = tuple(dict.fromkeys(found))
    # a slot's name in its words ("target_weight_kg": target, weight, kg): "native_language" holds no age
    parts = {part for n in slot_names for part in n.lower().split("_")}
    if any(part.startswith(word) for kind in kinds for word in table.slots[kind] for part in parts):
        return None  # a slot of the flow takes a fact of this kind: the flow's readers say what it is
    said = any(w not in table.filler for w in _WORD.findall(folded))
    return Facts(kinds=kinds, rest=" ".join(rest.split()).strip(" ,;.-–—") if said else "")


def unneeded(text: str, slot_names: Collection[str], reads: Callable[[str], object]) -> tuple[str, ...]:
    """The kinds of personal fact `text` is made of ("age", "height"), when it is made only of such facts and
    filler and no slot takes one of them (`facts`); () otherwise."""
    found = facts(text, slot_names, reads)
    return found.kinds if found is not None and not found.rest else ()


def not_needed(kinds: Collection[str]) -> str:
    """What is said to facts no slot takes: "I don't need your age or your height for this."."""
    said = [_table().said[k] for k in kinds]
    listed = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"
    return f"Thanks, but I don't need {listed} for this."
