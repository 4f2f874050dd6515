"""An intent's patterns searched as one alternation read as they read one by one (engine/bot.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Intent, default_registry
from tests.yaml_file import safe_load

CORPUS = Path(__file__).parent / "corpora" / "commands"
# every message of the commands corpus (both splits), and the same ones cased and cut in two
MESSAGES = [
    item["text"]
    for split in ("dev", "test")
    for item in safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
]
MESSAGES += [m.upper() for m in MESSAGES] + [m[: len(m) // 2] for m in MESSAGES]
INTENTS = [i for bot in default_registry() for i in bot.intents]


@pytest.mark.parametrize("intent", INTENTS, ids=lambda i: i.flow)
def test_a_shipped_intent_matches_as_its_patterns_do(intent: Intent) -> None:
    one_by_one = [any(p.search(m) for p in intent._compiled) for m in MESSAGES]
    assert [intent.matches(m) for m in MESSAGES] == one_by_one
    assert any(one_by_one)  # the corpus names each intent somewhere, so the comparison means something


def test_patterns_that_refer_to_their_own_groups_are_searched_one_by_one() -> None:
    # joined, "(a)\\1" would refer to the first pattern's group; "(?i)" must open a whole pattern
    for patterns in ([r"(\w)\1", r"(x)y"], [r"(?P<w>ab)(?P=w)", r"cd"], [r"x", r"(?m)^start"]):
        intent = Intent("f", patterns=patterns, description="d")
        assert intent._combined is None
    intent = Intent("f", patterns=[r"(\w)\1", r"zz"], description="d")
    assert intent.matches("a book") and not intent.matches("a cat")
    assert Intent("f", patterns=[r"\bab\b", r"cd"], description="d")._combined is not None
