"""Introductions in the learner's own language, at language-buddy's name question, on each split.

    python bench/introductions.py            # both splits
    python bench/introductions.py --misses   # and every message read wrong

Each message of tests/corpora/introductions/{dev,test}.yaml is typed at the name question of a
new language-buddy user (a real turn through the engine on a SQLite file, rules backend); a
field counts as read when the slot holds the labelled value (null: the slot stays empty).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Engine, SqlStore  # noqa: E402
from engine.llm import RulesLLM  # noqa: E402
from engine.registry import default_registry  # noqa: E402

CORPUS = ROOT / "tests" / "corpora" / "introductions"
FIELDS = ("name", "native_language", "target_language")


def read(engine: Engine, user: str, text: str) -> dict[str, object]:
    engine.turn("language-buddy", user, "hello")
    result = engine.turn("language-buddy", user, text)
    return {f: result.slots.get(f) for f in FIELDS}


def score(split: str, engine: Engine) -> tuple[dict[str, list[int]], list[str]]:
    cases = yaml.safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
    per = {f: [0, 0] for f in (*FIELDS, "whole message")}
    misses = []
    for i, case in enumerate(cases):
        got = read(engine, f"{split}-{i}", case["text"])
        wrong = [f for f in FIELDS if got[f] != case[f]]
        for f in FIELDS:
            per[f][0] += f not in wrong
            per[f][1] += 1
        per["whole message"][0] += not wrong
        per["whole message"][1] += 1
        if wrong:
            misses.append(f"  {split} {case['text']!r}: " + ", ".join(f"{f} {got[f]!r} not {case[f]!r}" for f in wrong))
    return per, misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlStore(str(Path(tmp) / "intro.db"))
        engine = Engine(store, RulesLLM(), bots=default_registry())
        print(f"{'split':6}" + "".join(f"{f:>18}" for f in (*FIELDS, "whole message")))
        shown = []
        for split in ("dev", "test"):
            per, misses = score(split, engine)
            print(f"{split:6}" + "".join(f"{f'{c}/{n} {c / n:.0%}':>18}" for c, n in per.values()))
            shown += misses
        store.close()
    if args.misses:
        print("\n".join(shown))


if __name__ == "__main__":
    main()
