"""Text helpers the profile readers share: trimming an answer, a pattern over many aliases."""

from __future__ import annotations

import re
from collections.abc import Iterable


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
