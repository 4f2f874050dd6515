"""How well a saved fitness profile is changed in words, on the amend corpus (tests/corpora/amend/).

    python bench/amend.py                # both splits
    python bench/amend.py --misses test  # and every message of the test split read wrong

A `main` entry is played as one turn through `Engine.turn`, in the main conversation of a user whose
saved `fitness_profile` is the one below; what it did is read from the store (a new version of the
record, and what changed in it) and the reply. A `review` entry is read by the review question's
parser (`review(PROFILE)`: at the review the flow reads nothing else) against the same profile.

Outcomes: the changes made (compared exactly, after settling), a question asked (nothing changed),
an accept (review), talk left alone (no change, no question), or "already" (a change to what is saved).
Printed per split: edit precision (changes made that are exactly right: a wrong edit corrupts the
profile), edit recall, and the share of questions, accepts and talk read as labelled.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, JsonValue

from engine import Engine, Invalid, MemoryStore, RecordDraft, Revision, review
from engine.amend import apply_changes
from flows.fitness.changes import PROFILE, from_profile
from flows.fitness.profile import FitnessSlots

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpora" / "amend"
BOT = "fitness-coach"
SAVED = FitnessSlots(
    fitness_level="beginner",
    limitations="bad knee",
    goal="fat_loss",
    target_weight_kg=72.6,
    days_per_week=3,
    minutes_per_session=45,
    equipment=["dumbbells", "yoga mat"],
    diet="vegetarian",
    allergies=["peanuts"],
    preferred_days=["Mon", "Wed", "Fri"],
    time_of_day="morning",
    completed=["assessment", "goals", "workout", "diet", "schedule"],
)
LABELS = ("ask", "accept", "none", "none_same")


class Changes(BaseModel):
    model_config = ConfigDict(extra="forbid")
    changes: dict[str, JsonValue]


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: str
    text: str
    expect: str | Changes


def load(split: str) -> list[Entry]:
    rows = yaml.safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
    return [Entry.model_validate(r) for r in rows]


def _diff(before: FitnessSlots, after: FitnessSlots) -> dict[str, JsonValue]:
    a, b = before.model_dump(mode="json"), after.model_dump(mode="json")
    return {k: b[k] for k in b if a[k] != b[k]}


def played_main(text: str) -> str | dict[str, JsonValue]:
    store = MemoryStore()
    [draft] = PROFILE.records(SAVED)
    store.add_record(BOT, "u", "seed", RecordDraft(kind=draft.kind, data=draft.data))
    engine = Engine(store, clock=lambda: datetime(2026, 11, 25, 20, tzinfo=UTC))
    result = engine.turn(BOT, "u", text)
    versions = store.records("fitness_profile", bot=BOT, user="u")
    if len(versions) > 1:
        return _diff(SAVED, from_profile(versions[-1].data))
    if result.reply.startswith("That's what I have already"):
        return "none_same"
    route = str((result.trace_doc or {}).get("route", ""))
    return "ask" if route.startswith("amend:") else "none"


def played_review(text: str) -> str | dict[str, JsonValue]:
    found = review(PROFILE)(SAVED)(text)
    if isinstance(found, Invalid):
        return "ask"
    if isinstance(found, Revision) and found.accepted:
        return "accept"
    if isinstance(found, Revision):
        after = apply_changes(PROFILE, SAVED, found.changes)
        return _diff(SAVED, after) if isinstance(after, FitnessSlots) else "ask"
    return "none"


def score(split: str, misses: bool) -> None:
    entries = load(split)
    edits_made = edits_right = edits_wanted = edits_found = 0
    right: dict[str, list[int]] = {label: [0, 0] for label in LABELS}
    wrong: list[str] = []
    for e in entries:
        got = played_main(e.text) if e.mode == "main" else played_review(e.text)
        want = e.expect.changes if isinstance(e.expect, Changes) else e.expect
        if isinstance(got, dict):
            edits_made += 1
            edits_right += got == want
        if isinstance(want, dict):
            edits_wanted += 1
            edits_found += got == want
        else:
            right[want][1] += 1
            right[want][0] += got == want
        if got != want:
            wrong.append(f"  [{e.mode}] {e.text!r}: expected {want}, got {got}")
    ratio = lambda a, b: f"{a / b:.2f} ({a}/{b})" if b else "n/a"  # noqa: E731
    print(f"{split}: {len(entries)} messages")
    print(f"  edit precision {ratio(edits_right, edits_made)}   edit recall {ratio(edits_found, edits_wanted)}")
    print("  " + "   ".join(f"{label} {ratio(*right[label])}" for label in LABELS))
    if misses and wrong:
        print("\n".join(wrong))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--misses", choices=("dev", "test"), help="list the messages of this split read wrong")
    args = parser.parse_args(argv)
    for split in ("dev", "test"):
        score(split, args.misses == split)
    return 0


if __name__ == "__main__":
    sys.exit(main())
