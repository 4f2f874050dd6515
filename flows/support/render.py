"""An article's Markdown as the chat shows it: plain text, its lists and paragraphs kept.

A chat window shows `**Settings**` as four asterisks around a word, so the reply says what the
article says without its marks: emphasis, code ticks, headings and quote marks go, a link keeps
its text and address ("the status page (https://...)"), a section marker (flows/support/sections.py)
never shows. Numbered and bulleted steps stay steps.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=\S)([^*_\n]+?)(?<=\S)\1(?![\w*])")
_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.MULTILINE)
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?", re.MULTILINE)
_BULLET = re.compile(r"^([ \t]*)[*+][ \t]+", re.MULTILINE)
_BLANKS = re.compile(r"\n{3,}")


def plain(markdown: str) -> str:
    """`markdown` without its marks, as a chat shows text."""
    text = _COMMENT.sub("", markdown)
    text = _CODE.sub(r"\1", text)
    text = _LINK.sub(lambda m: m.group(1) if m.group(1) == m.group(2) else f"{m.group(1)} ({m.group(2)})", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _BULLET.sub(r"\1- ", text)  # one bullet mark for every list
    lines = [line.rstrip() for line in text.splitlines()]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()
