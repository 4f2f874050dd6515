"""Of two choices a message names, the one with the problem: "the tasks I add on my phone never show
up on my laptop" answers "Which device is missing the changes?" with the laptop.

A description often names a second choice only as where things come from ("I add on my phone",
"made in the browser", "from my mac") or as the one that is fine ("fine on my iphone", "the web app
works"). Such a mention does not answer which one has the problem; when every choice but one is named
only that way, the one left is the answer. Otherwise the message names several and stays unclear.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engine.extract import fold

# a verb of making something where the problem is not: what is made there is missing elsewhere
_MAKING = frozenset({"add", "added", "adding", "adds", "create", "created", "creating", "creates", "make", "made",
                     "making", "enter", "entered", "type", "typed", "write", "wrote", "written", "save", "saved",
                     "edit", "edited", "change", "changed", "set", "put", "do", "did", "from"})  # fmt: skip
_FINE = frozenset({"fine", "works", "working", "worked", "ok", "okay", "normal", "normally", "correctly",
                   "perfectly"})  # fmt: skip
_NEGATION = re.compile(r"^(?:not|never|no|\w+n'?t)$")
_BEFORE = 4  # words between a making verb and the place it names: "add on my phone", "created it in the browser"
_AFTER = 3  # words between a place and its "fine": "the web app works"


def _mentions(words: list[str], names: Sequence[str]) -> list[int]:
    """Where in `words` one of `names` (each one or more words) starts."""
    split = [n.split() for n in {fold(n) for n in names}]
    return [i for i in range(len(words)) if any(words[i : i + len(n)] == n for n in split)]


def _aside(words: list[str], at: int) -> bool:
    """Whether the mention at `at` names where things come from, or a place that is fine (looking
    within its clause only: `words` holds "," for every clause mark)."""
    before = words[max(0, at - _BEFORE) : at]
    before = before[len(before) - before[::-1].index(",") :] if "," in before else before
    after = words[at + 1 : at + 1 + _AFTER]
    after = after[: after.index(",")] if "," in after else after
    if "to" in before:
        before = before[before.index("to") + 1 :]  # "from my phone to my laptop": the laptop is where it goes
    if any(w in _MAKING for w in before) and not any(_NEGATION.match(w) for w in before):
        return True
    for w in after:
        if _NEGATION.match(w):
            return False
        if w in _FINE:
            return True
    return any(w in _FINE for w in before[-3:]) and not any(_NEGATION.match(w) for w in before)


def troubled(options: Mapping[str, Sequence[str]], text: str) -> str | None:
    """The one choice of `options` (choice -> the words that pick it) that `text` names as having the
    problem, when it names the others only as a source or as fine; None otherwise."""
    clauses = re.sub(r"[,.;:!?]+|\s-\s|\b(?:but|and|while|whereas)\b", " , ", fold(text))
    words = re.findall(r"[\w']+|,", clauses)
    named = {c: _mentions(words, [c, *picks]) for c, picks in options.items()}
    named = {c: at for c, at in named.items() if at}
    if len(named) < 2:
        return None
    left = [c for c, at in named.items() if not all(_aside(words, i) for i in at)]
    return left[0] if len(left) == 1 else None
