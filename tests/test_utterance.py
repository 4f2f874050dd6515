"""The message as the read stage analyses it once (engine/utterance.py): each field is what its
readers computed on their own before, for every message of the commands corpus."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from engine.cues import fold_same_length
from engine.extract import fold, numbers
from engine.utterance import Utterance
from tests.yaml_file import safe_load

CORPUS = Path(__file__).parent / "corpora" / "commands"
MESSAGES = [
    item["text"]
    for split in ("dev", "test")
    for item in safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
] + ["Ça va ?  Très BIEN’", "ÉTÉ 2024, no wait, 2025", "", "   "]


def test_each_field_is_what_its_readers_computed() -> None:
    assert any(not m.isascii() for m in MESSAGES) and any(m.isascii() for m in MESSAGES)
    for text in MESSAGES:
        heard = Utterance(text)
        assert heard.folded == fold(text)
        assert heard.lowered == fold_same_length(text) and len(heard.lowered) == len(text)
        assert heard.bare == " ".join(text.lower().split()).rstrip(".!")
        assert heard.numbers == tuple(numbers(text))
        # a position in the lowered message is one in the message: a slice of it is the slice folded
        for a, b in ((0, len(text) // 2), (len(text) // 3, len(text))):
            assert heard.lowered[a:b] == fold_same_length(text[a:b])


def test_a_field_is_computed_once_and_kept() -> None:
    heard = Utterance("three days, no wait, four")
    first = heard.numbers
    assert heard.numbers is first and "numbers" in vars(heard) and "folded" not in vars(heard)


def test_ascii_folds_as_the_per_character_walk_does() -> None:
    # fold_same_length skips its walk for ASCII text: every ASCII character must fold as the walk would
    every = "".join(map(chr, range(128)))

    def walked(ch: str) -> str:
        base = unicodedata.normalize("NFKD", ch)[:1] or ch
        return base.lower() if len(base.lower()) == 1 else ch

    assert fold_same_length(every) == "".join(walked(ch) for ch in every)
