"""How well a whole-number question reads numbers as people say them, on each split of the corpus.

    python bench/number_words.py            # both splits, per language
    python bench/number_words.py --misses   # and every message read wrong

The corpus is tests/corpora/numbers/{dev,test}.yaml: a message, its language, and what the
reader must return (the integer said, "none" for no number, "refused" when it must ask again).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.extract import Invalid, integer  # noqa: E402

CORPUS = ROOT / "tests" / "corpora" / "numbers"


def outcome(text: str) -> str:
    read = integer()(text)
    if read is None:
        return "none"
    if isinstance(read, Invalid):
        return "refused"
    return str(read)


def score(split: str) -> tuple[dict[str, list[int]], list[str]]:
    cases = yaml.safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    for case in cases:
        got = outcome(case["text"])
        ok = got == str(case["expect"])
        for key in (case["lang"], "all"):
            per[key][0] += ok
            per[key][1] += 1
        if not ok:
            misses.append(f"  {split} {case['lang']} {case['text']!r}: expected {case['expect']}, read {got}")
    return per, misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", action="store_true")
    args = ap.parse_args()
    langs = ["en", "es", "de", "fr", "it", "pt", "all"]
    print("accuracy of integer() by language (correct / cases)")
    print("split" + "".join(f"{lang:>12}" for lang in langs))
    shown = []
    for split in ("dev", "test"):
        per, misses = score(split)
        cells = "".join(f"{f'{per[lang][0]}/{per[lang][1]} {per[lang][0] / per[lang][1]:.0%}':>12}" for lang in langs)
        print(f"{split:5} {cells}")
        shown += misses
    if args.misses:
        print("\n".join(shown))


if __name__ == "__main__":
    main()
