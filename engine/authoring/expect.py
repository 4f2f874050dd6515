"""Matching expectations against what happened; the one implementation of the rules.

Numbers compare numerically (4 == 4.0), strings and booleans exactly; `slots` is a
subset match; each expected record must match a distinct saved row. Replays
(engine/replay.py) and the pytest harness (engine/testing.py) both use these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from engine.authoring.script import Expect
from engine.models import StoredRecord
from engine.runtime import TurnResult


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def values_equal(expected: object, actual: object) -> bool:
    """Numbers compare numerically (4 == 4.0), booleans and strings exactly, containers deeply."""
    if _is_number(expected) and _is_number(actual):
        return expected == actual
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return expected.keys() == actual.keys() and all(values_equal(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        return len(expected) == len(actual) and all(values_equal(e, a) for e, a in zip(expected, actual, strict=True))
    return type(expected) is type(actual) and expected == actual


_MISSING = object()


def subset_mismatches(expected: Mapping[str, object], actual: Mapping[str, object]) -> list[str]:
    """Keys of `expected` whose value `actual` lacks or holds differently (a subset match)."""
    return [k for k, v in expected.items() if not values_equal(v, actual.get(k, _MISSING))]


def match_records(expected: Sequence[Mapping[str, object]], rows: Sequence[Mapping[str, object]]) -> list[int]:
    """Indexes of `expected` entries left without a distinct matching row; [] means all matched.

    A maximum bipartite matching (augmenting paths), so an entry that fits several rows
    never takes the only row a later entry could use.
    """
    fits = [[j for j, row in enumerate(rows) if not subset_mismatches(want, row)] for want in expected]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(expected)):
        place(i, set())
    matched = set(owner.values())
    return [i for i in range(len(expected)) if i not in matched]


@dataclass(frozen=True)
class Failure:
    """One expectation that did not hold; `turn` is 1-based, None for end-of-script checks."""

    turn: int | None
    what: str
    expected: JsonValue
    actual: JsonValue

    def describe(self) -> str:
        where = f"turn {self.turn}" if self.turn is not None else "end"
        return f"{where}: {self.what}: expected {self.expected!r}, got {self.actual!r}"


def check_turn(expect: Expect, result: TurnResult, turn: int | None, *, wording: bool = True) -> list[Failure]:
    """Compare one turn's result with its expectations; the reply's words only when `wording`."""
    out: list[Failure] = []
    if expect.flow is not None and expect.flow != result.flow:
        out.append(Failure(turn, "flow", expect.flow, result.flow))
    if expect.state is not None and expect.state != result.state:
        out.append(Failure(turn, "state", expect.state, result.state))
    if wording and expect.reply is not None and expect.reply != result.reply:
        out.append(Failure(turn, "reply", expect.reply, result.reply))
    reply = result.reply.casefold() if wording else ""
    missing: list[JsonValue] = [s for s in expect.reply_contains if wording and s.casefold() not in reply]
    if missing:
        out.append(Failure(turn, "reply_contains", missing, result.reply))
    present: list[JsonValue] = [s for s in expect.reply_not_contains if wording and s.casefold() in reply]
    if present:
        out.append(Failure(turn, "reply_not_contains", present, result.reply))
    if expect.slots is not None:
        for key in subset_mismatches(expect.slots, result.slots):
            out.append(Failure(turn, f"slots.{key}", expect.slots[key], result.slots.get(key, "<no such slot>")))
    return out


def check_history(contains: Sequence[str], history: Sequence[str], turn: int | None = None) -> list[Failure]:
    """Each string must occur (case-sensitively: summaries keep values verbatim) in some message."""
    return [Failure(turn, "history_contains", s, list(history)) for s in contains if not any(s in m for m in history)]


def check_records(
    kind: str, expected: Sequence[Mapping[str, JsonValue]], found: Sequence[StoredRecord], turn: int | None = None
) -> list[Failure]:
    """Each expected mapping must match a distinct row of `found`; an empty list asks for no rows."""
    rows: list[JsonValue] = [r.data for r in found]
    if not expected:
        return [Failure(turn, f"records.{kind}", [], rows)] if rows else []
    unmatched = match_records(expected, [r.data for r in found])
    want: list[JsonValue] = [dict(expected[i]) for i in unmatched]
    return [Failure(turn, f"records.{kind} (no distinct row for these)", want, rows)] if unmatched else []
