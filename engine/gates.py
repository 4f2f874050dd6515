"""A cheap test that says whether a reader's patterns may find anything in a message, derived from
the patterns themselves.

The read stage asks a dozen readers about every message; most messages hold nothing most of them
look for, and each reader found that out only after splitting the message into its parts and
searching each with alternations thousands of characters long. A `Gate` is built once from the
very patterns a reader searches: for each pattern, literal strings one of which every match of it
contains (`needed`, read off the parsed pattern: its longest run of plain characters, or one run
from each branch of an alternation). A message that holds none of the gate's strings cannot match
any of the patterns, so the reader returns at once; one that holds one is read as before. The
gate cannot drift from its reader's tables: it is made from them when they are loaded, and a
pattern with no literal it must contain (a class of characters, a backreference) makes the gate
say "may" to every message (tests/test_gates.py).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

with warnings.catch_warnings():
    # the standard library's own parser of patterns (re._parser), under its stable name; deprecated as a public
    # module, it is the one the `re` module compiles with
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as _c
    import sre_parse as _parse

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT))
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)
# a pattern that sets case-blind matching inside it: "(?i)", "(?i:", "(?ai)"
_CASE_BLIND = re.compile(r"\(\?[aLmsux]*i[aLmsux]*[):-]")


@dataclass(frozen=True)
class Gate:
    """Whether a text may hold a match of some patterns: `strings`, one of which every match contains
    (None: some pattern needs none, and every text may)."""

    strings: frozenset[str] | None
    ignore_case: bool = False
    _pattern: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.strings is not None:
            flags = re.IGNORECASE if self.ignore_case else 0
            object.__setattr__(self, "_pattern", re.compile(_trie(self.strings), flags))

    def may(self, text: str) -> bool:
        return self._pattern is None or self._pattern.search(text) is not None


def gate(patterns: Iterable[str | re.Pattern[str]], ignore_case: bool = False) -> Gate:
    """The gate of `patterns` (sources or compiled), searched as they are (`ignore_case` when they are
    compiled case-blind): the union of what each needs."""
    strings: set[str] = set()
    blind = ignore_case
    for p in patterns:
        source = p.pattern if isinstance(p, re.Pattern) else p
        flags = p.flags if isinstance(p, re.Pattern) else 0
        blind = blind or bool(flags & re.IGNORECASE) or _CASE_BLIND.search(source) is not None
        need = needed(source, flags)
        if need is None:
            return Gate(None)
        strings |= need
    return Gate(_minimal(strings), blind)


def needed(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Literal strings one of which every match of `pattern` contains, or None when it needs none. A string
    the pattern holds at a word's edge (after "\\b", "(?<![\\w'])" or the text's start; before "\\b",
    "(?![\\w'])" or its end) is marked so (`_START`, `_END`): the gate looks for it there only."""
    parsed: Any = _parse.parse(pattern, flags & ~re.UNICODE)
    return _needed(list(parsed), False, False)


# a string's marks: it starts a word (nothing of a word before it), it ends one
_START, _END = "\x02", "\x03"


def _needed(items: list[Any], edge_before: bool, edge_after: bool) -> frozenset[str] | None:
    # the candidates of one sequence: each run of plain characters, each group or alternation that needs its own
    # strings, each repeat said at least once; the most telling one is kept (its shortest string the longest)
    best: frozenset[str] | None = None
    run: list[str] = []
    run_edge = False  # the run starts at a word's edge
    edge = edge_before  # nothing of a word stands before this point

    def consider(found: frozenset[str] | None) -> None:
        nonlocal best
        if found and all(found) and (best is None or _telling(found) > _telling(best)):
            best = found

    def close(at: int) -> None:
        nonlocal run
        if run:
            word = "".join(run)
            before = _START if run_edge and _is_word(word[0]) else ""
            after = _END if _edge_at(items, at, edge_after) and _is_word(word[-1]) else ""
            consider(frozenset({before + word + after}))
        run = []

    for n, (op, av) in enumerate(items):
        if op is _c.LITERAL:
            if not run:
                run_edge = edge
            run.append(chr(av))
            edge = not _is_word(chr(av))  # after a space or a mark, a word starts
            continue
        close(n)
        if _is_edge(op, av):
            edge = True
            continue
        after = _edge_at(items, n + 1, edge_after)
        if op is _c.SUBPATTERN:
            consider(_needed(list(av[-1]), edge, after))
        elif _ATOMIC is not None and op is _ATOMIC:
            consider(_needed(list(av), edge, after))
        elif op is _c.BRANCH:
            branches = [_needed(list(b), edge, after) for b in av[1]]
            if all(b is not None for b in branches):
                consider(frozenset().union(*(b for b in branches if b is not None)))
        elif op in _REPEATS and av[0] >= 1:
            consider(_needed(list(av[2]), edge, after and av[1] == 1))
        elif op is _c.IN and av and all(o is _c.LITERAL for o, _ in av):
            consider(frozenset(chr(c) for _, c in av))  # "[cs]": one of its characters
        # anything else (any character, a category, a lookahead, a backreference) needs no string; a lookahead
        # or lookbehind of another kind consumes nothing and leaves the edge as it was
        if op not in (_c.ASSERT, _c.ASSERT_NOT):
            apart = _ends_apart(op, av)
            edge = (edge and apart is not False) if apart is None or (op in _REPEATS and av[0] == 0) else apart
    close(len(items))
    return best


def _ends_apart(op: Any, av: Any) -> bool | None:
    """Whether what `op` consumes always ends in a character of no word (a space, a mark): True, False, or None
    when it may consume nothing."""
    if op is _c.LITERAL:
        return not _is_word(chr(av))
    if op is _c.SUBPATTERN:
        return _seq_ends_apart(list(av[-1]))
    if _ATOMIC is not None and op is _ATOMIC:
        return _seq_ends_apart(list(av))
    if op is _c.BRANCH:
        ends = [_seq_ends_apart(list(b)) for b in av[1]]
        return True if all(e is True for e in ends) else (None if all(e is not False for e in ends) else False)
    if op in _REPEATS:
        body = _seq_ends_apart(list(av[2]))
        return None if av[0] == 0 and body is not False else body
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return None
    return False


def _seq_ends_apart(items: list[Any]) -> bool | None:
    for op, av in reversed(items):
        end = _ends_apart(op, av)
        if end is not None:
            return end
    return None


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _edge_at(items: list[Any], at: int, edge_after: bool) -> bool:
    """Whether nothing of a word follows position `at` of the sequence (an assertion of a word's end there,
    or the sequence's end where what follows it is one)."""
    if at >= len(items):
        return edge_after
    op, av = items[at]
    return _is_end(op, av)


_NOT_WORD = {(_c.CATEGORY, _c.CATEGORY_WORD)}


def _is_edge(op: Any, av: Any) -> bool:
    """An assertion that nothing of a word stands before this point: "\\b", "\\A", "^", "(?<![\\w'])"."""
    if op is _c.AT:
        return av in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING, _c.AT_BOUNDARY)
    return op is _c.ASSERT_NOT and av[0] == -1 and _holds_word(av[1])


def _is_end(op: Any, av: Any) -> bool:
    """An assertion that nothing of a word follows: "\\b", "\\Z", "$", "(?![\\w'])"."""
    if op is _c.AT:
        return av in (_c.AT_END, _c.AT_END_STRING, _c.AT_BOUNDARY)
    return op is _c.ASSERT_NOT and av[0] == 1 and _holds_word(av[1])


def _holds_word(sub: Any) -> bool:
    """Whether a lookaround's pattern is one character class that takes every word character ("[\\w']", "\\w")."""
    items = list(sub)
    if len(items) != 1:
        return False
    op, av = items[0]
    return op is _c.IN and any((o, a) in _NOT_WORD for o, a in av if o is not _c.NEGATE) and av[0][0] is not _c.NEGATE


def _telling(strings: frozenset[str]) -> tuple[int, int]:
    # a mark of a word's edge tells about as much as a letter
    return min(len(s) for s in strings), -len(strings)


def _minimal(strings: set[str]) -> frozenset[str]:
    """`strings` without those that hold another (a text holding the longer one holds the shorter)."""
    ordered = sorted(strings, key=len)
    kept: list[str] = []
    for s in ordered:
        if not any(k in s for k in kept):
            kept.append(s)
    return frozenset(kept)


# how the marks are searched: nothing of a word before, nothing after
_MARKS = {_START: r"(?<!\w)", _END: r"(?!\w)"}


def _trie(strings: Sequence[str] | frozenset[str]) -> str:
    """One pattern for any of `strings` (none a prefix of another), shared beginnings written once: the
    regex engine tries a character's few branches at each position, not every string."""
    tree: dict[str, Any] = {}
    for s in strings:
        node = tree
        for ch in s:
            node = node.setdefault(ch, {})

    def emit(node: dict[str, Any]) -> str:
        if not node:
            return ""
        branches = [_MARKS.get(ch, re.escape(ch)) + emit(child) for ch, child in sorted(node.items())]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(tree)
