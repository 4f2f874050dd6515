"""Chat spellings ("thank u for ur help", "done w this one", "gtg", "2moro") written out, so
that the keyword readers of exit intent, asides, routing and days know each phrase in one
spelling only. The word table is data/texting.yaml."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from flows.shared.datafile import load_yaml

TEXTING_FILE = Path(__file__).parent / "data" / "texting.yaml"


class Texting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: dict[str, str]


@functools.cache
def _table() -> tuple[re.Pattern[str], dict[str, str]]:
    words = {k.lower(): v for k, v in load_yaml(TEXTING_FILE, Texting).words.items()}
    # longest first, so "w/" is taken before "w"; a word stands alone (not inside "ur" of "hour")
    listed = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'/])(?:{listed})(?![\w'/])", re.I), words


def plain(text: str) -> str:
    """`text` with chat spellings written out; everything else left as typed."""
    pattern, words = _table()
    return pattern.sub(lambda m: words[m.group(0).lower()], text)
