"""Small talk in the main conversation: is a message of small talk alone read as such, and is nothing else?

    python bench/main_talk.py                 # both splits of tests/corpora/main, offline
    python bench/main_talk.py --misses dev    # and every message of the dev split read wrong

Each entry of tests/corpora/main/{dev,test}.yaml is one turn of a user whose onboarding is done (a record of
the kind the bot's entry rule looks for is stored first), with no flow open, sent through `Engine.turn` with
the clock pinned. What the turn read is taken from its public trace: a `chitchat` notice names the kinds of
small talk the read stage found (engine/reading.py); no notice, none. A message counts as talk when the corpus
gives it kinds; precision and recall are of that, and `kinds` is the share of talk read with exactly the
corpus's kinds (a goodbye beside thanks included).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import (  # noqa: E402
    Engine,
    MemoryStore,
    RecordDraft,
    RulesLLM,
    Store,
    default_registry,
)
from engine.commands import Social  # noqa: E402

CORPUS = ROOT / "tests" / "corpora" / "main"
SPLITS = ("dev", "test")
NOW = datetime(2026, 3, 10, 9, 0)
# what each bot's entry rule looks for: with it stored, the user is past onboarding
DONE = {"language-buddy": "profile", "fitness-coach": "fitness_profile"}


class Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    lang: str
    bot: str
    talk: tuple[Social, ...]


def load(split: str) -> list[Entry]:
    """The entries of a split, each checked: its bot exists and its text hashes to this split."""
    path = CORPUS / f"{split}.yaml"
    try:
        entries = TypeAdapter(list[Entry]).validate_python(yaml.safe_load(path.read_text(encoding="utf-8")))
    except ValidationError as e:
        raise SystemExit(f"{path}: {e}") from e
    bots = default_registry()
    for e in entries:
        if e.bot not in bots:
            raise SystemExit(f"{path}: {e.text!r}: no bot {e.bot!r}")
        if split_of(e.text) != split:
            raise SystemExit(f"{path}: {e.text!r} hashes to the {split_of(e.text)} split")
    return entries


def split_of(text: str) -> str:
    return "dev" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "test"


@dataclass
class Result:
    entry: Entry
    read: tuple[str, ...]
    reply: str


def past_onboarding(store: Store, bot: str, user: str) -> None:
    """Store the record `bot`'s entry rule looks for, so `user` is past its onboarding."""
    if bot in DONE:
        store.add_record(bot, user, "seed", RecordDraft(kind=DONE[bot], data={"seeded": True}))


def play(engine: Engine, entry: Entry) -> Result:
    user = uuid.uuid4().hex[:8]
    past_onboarding(engine.store, entry.bot, user)
    result = engine.turn(entry.bot, user, entry.text)
    kinds: tuple[str, ...] = ()
    if result.trace is not None:
        for n in result.trace.notices:
            if n.kind == "chitchat" and n.flow is None:
                kinds = tuple(n.detail.split(","))
    return Result(entry, kinds, result.reply)


def run(split: str) -> list[Result]:
    engine = Engine(MemoryStore(), RulesLLM(), clock=lambda: NOW.replace(tzinfo=UTC))
    return [play(engine, e) for e in load(split)]


def report(split: str, results: Sequence[Result]) -> str:
    talk = [r for r in results if r.entry.talk]
    read = [r for r in results if r.read]
    hit = [r for r in talk if r.read]
    precision = len([r for r in read if r.entry.talk]) / len(read) if read else 1.0
    recall = len(hit) / len(talk) if talk else 1.0
    exact = len([r for r in talk if set(r.read) == set(r.entry.talk)]) / len(talk) if talk else 1.0
    return (
        f"{split:5} {len(results):4} messages ({len(talk)} talk)  precision {precision:.2f}  "
        f"recall {recall:.2f}  kinds {exact:.2f}"
    )


def misses(results: Sequence[Result]) -> str:
    return "\n".join(
        f"  [{r.entry.bot}] {r.entry.text!r}: want {list(r.entry.talk)}, read {list(r.read)} -> {r.reply[:70]!r}"
        for r in results
        if set(r.read) != set(r.entry.talk)
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--misses", choices=SPLITS, help="print every message of this split read wrong")
    args = parser.parse_args(argv)
    for split in SPLITS:
        results = run(split)
        print(report(split, results))
        if args.misses == split:
            print(misses(results))


if __name__ == "__main__":
    main()
