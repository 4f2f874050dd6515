"""The fixed split of the fresh-conversations corpus (tests/corpora/conversations/): by file name.

Kept apart from the benchmark so that placing a script needs nothing but this function: a
script's split is decided by its name before it ever runs.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")


def split_of(stem: str) -> Split:
    """The split of a script named `stem` (its file name without .yaml): the first 32 bits of its
    SHA-256, even test, odd dev."""
    digest = hashlib.sha256(stem.encode("utf-8")).hexdigest()
    return "test" if int(digest[:8], 16) % 2 == 0 else "dev"
