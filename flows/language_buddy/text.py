"""Text helpers the profile readers share: trimming an answer, a pattern over many aliases, typo suggestions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rapidfuzz import fuzz, process


def trim(text: str) -> str:
    return text.strip().strip(" \t\n.!?;:,\"'“”«»()").strip()


def alias_pattern(aliases: Iterable[str]) -> re.Pattern[str]:
    # Longest first, so "brazilian portuguese" wins over "portuguese". Word boundaries only
    # around word characters: scripts without spaces (日本語を話します) must still match.
    parts = []
    for a in sorted(set(aliases), key=len, reverse=True):
        left = r"(?<!\w)" if a[:1].isalnum() and a[:1].isascii() else ""
        right = r"(?!\w)" if a[-1:].isalnum() and a[-1:].isascii() else ""
        parts.append(left + re.escape(a) + right)
    return re.compile("|".join(parts))


# How alike a typed name and a known one must be (rapidfuzz's ratio, 0-100) to be suggested:
# "germna" scores 83 against "german"; a suggestion is asked about, and taken only on a yes to it.
_SUGGEST_SCORE = 80
# Place names are thousands, so a looser score finds a stranger's town: "lisbn" (91) and "new
# yrok" (88) are suggested, "atlantis" (86 against Atlant) and "blah" (80 against Beulah) not.
PLACE_SUGGEST_SCORE = 87


def closest_name(typed: str, names: Mapping[str, str], cutoff: float = _SUGGEST_SCORE) -> str | None:
    """The value of the name closest to `typed`, when one is close enough to suggest; None otherwise."""
    best = process.extractOne(typed, list(names), scorer=fuzz.ratio, score_cutoff=cutoff)
    return names[best[0]] if best else None
