"""Text helpers the profile readers share: trimming an answer, a pattern over many aliases, typo suggestions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rapidfuzz import fuzz, process


def trim(text: str) -> str:
    return text.strip().strip(" \t\n.!?;:,\"'“”«»()").strip()


def alias_pattern(aliases: Iterable[str]) -> re.Pattern[str]:
    """Any of `aliases`, the longest first where several start at the same place ("brazilian
    portuguese" wins over "portuguese"). Word boundaries only around ASCII word characters:
    scripts without spaces (日本語を話します) must still match.

    Written as a trie ("new (?:york|zealand)"), not as one alternative per alias: thousands of
    alternatives (every place name) were each tried at every position of a message, which made
    a long message cost seconds; a trie tries one branch per letter. No capturing groups, so it
    can be embedded in other patterns.
    """
    trie: _Trie = {}
    for a in set(aliases):
        if a:
            node = trie
            for ch in a:
                node = node.setdefault(ch, {})
            node[_END] = {}
    bounded = {ch: node for ch, node in trie.items() if _word_char(ch)}
    free = {ch: node for ch, node in trie.items() if not _word_char(ch)}
    parts = ([r"(?<!\w)" + _group(_branches(bounded))] if bounded else []) + _branches(free)
    return re.compile(_group(parts) if parts else "(?!)")


_Trie = dict[str, "_Trie"]
_END = ""  # the key marking an alias that ends at a node


def _word_char(ch: str) -> bool:
    return ch.isalnum() and ch.isascii()


def _branches(trie: _Trie) -> list[str]:
    """One alternative per next character, each followed by its subtree; longer ones first,
    since an alias ending here (the empty alternative, last) is the shortest."""
    return [re.escape(ch) + _tail(node, ch) for ch, node in sorted(trie.items()) if ch != _END]


def _tail(node: _Trie, last: str) -> str:
    parts = _branches(node)
    if _END in node:
        parts.append(r"(?!\w)" if _word_char(last) else "")
    return _group(parts)


def _group(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return "(?:" + "|".join(parts) + ")"


# How alike a typed name and a known one must be (rapidfuzz's ratio, 0-100) to be suggested:
# "germna" scores 83 against "german"; a suggestion is asked about, and taken only on a yes to it.
_SUGGEST_SCORE = 80
# Place names are thousands, so a looser score finds a stranger's town: "lisbn" (91) and "new
# yrok" (88) are suggested, "atlantis" (86 against Atlant) and "blah" (80 against Beulah) not.
PLACE_SUGGEST_SCORE = 87


_LONGEST: dict[int, tuple[Mapping[str, str], int]] = {}


def _longest(names: Mapping[str, str]) -> int:
    """The longest name's length, once per table (the tables are built once; kept here with it)."""
    known = _LONGEST.get(id(names))
    if known is None or known[0] is not names:
        known = _LONGEST[id(names)] = (names, max(map(len, names), default=0))
    return known[1]


def closest_name(typed: str, names: Mapping[str, str], cutoff: float = _SUGGEST_SCORE) -> str | None:
    """The value of the name closest to `typed`, when one is close enough to suggest; None otherwise."""
    # fuzz.ratio is at most 200*m/(n + m) for lengths n > m: a message far longer than every
    # name cannot reach the cutoff, and scoring it against thousands of names took 60 ms
    longest = _longest(names)
    if 200 * longest < cutoff * (len(typed) + longest):
        return None
    best = process.extractOne(typed, list(names), scorer=fuzz.ratio, score_cutoff=cutoff)
    return names[best[0]] if best else None
