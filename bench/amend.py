"""How well a saved record is changed (or told) in words, on the amend corpus (tests/corpora/amend/).

    python bench/amend.py                # both splits, per bot
    python bench/amend.py --misses test  # and every message of the test split read wrong

fitness-coach: tests/corpora/amend/{dev,test}.yaml. language-buddy: tests/corpora/amend/language_buddy/,
played as one main-conversation turn of a learner whose saved `profile` and `feedback` entry are
BUDDY_PROFILE and BUDDY_FEEDBACK below (a `recall` label: the reply tells what is saved, with its words).

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

from engine import Engine, Invalid, MemoryStore, RecordDraft, Revision, TurnResult, review
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
LABELS = ("ask", "accept", "none", "none_same", "recall")
BUDDY = "language-buddy"
BUDDY_PROFILE: dict[str, JsonValue] = {
    "name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin", "level": "B1",
}  # fmt: skip
BUDDY_FEEDBACK: dict[str, JsonValue] = {
    "sentiment": "positive", "sentiment_from": None, "rating": 4, "comment": "the lessons are good",
    "category": "content",
}  # fmt: skip
CLOCK = datetime(2026, 11, 25, 20, tzinfo=UTC)


class Changes(BaseModel):
    model_config = ConfigDict(extra="forbid")
    changes: dict[str, JsonValue]


class Told(BaseModel):
    """A question about what is saved: the reply tells it, with these words."""

    model_config = ConfigDict(extra="forbid")
    recall: str


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: str
    text: str
    expect: str | Changes | Told


def load(split: str, bot: str = BOT) -> list[Entry]:
    folder = CORPUS if bot == BOT else CORPUS / bot.replace("-", "_")
    rows = yaml.safe_load((folder / f"{split}.yaml").read_text(encoding="utf-8"))
    return [Entry.model_validate(r) for r in rows]


def _diff(before: FitnessSlots, after: FitnessSlots) -> dict[str, JsonValue]:
    a, b = before.model_dump(mode="json"), after.model_dump(mode="json")
    return {k: b[k] for k in b if a[k] != b[k]}


def _outcome(result: TurnResult, reply_already: bool) -> str:
    """What a turn that saved nothing did: said it is saved already, asked, told what is saved, or talked."""
    if reply_already:
        return "none_same"
    doc = result.trace_doc or {}
    route = str(doc.get("route", ""))
    notices = doc.get("notices")
    details = [str(n.get("detail", "")) for n in notices if isinstance(n, dict)] if isinstance(notices, list) else []
    if any(d.startswith("recall ") for d in details):
        return "recall"
    return "ask" if route.startswith("amend:") or result.flow == "profile_update" else "none"


def played_buddy(text: str) -> str | dict[str, JsonValue]:
    """`text` as one turn of language-buddy's learner; a recall is "recall: <reply>"."""
    store = MemoryStore()
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="profile", data=BUDDY_PROFILE))
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="feedback", data=BUDDY_FEEDBACK))
    result = Engine(store, clock=lambda: CLOCK).turn(BUDDY, "u", text)
    for kind, saved in (("profile", BUDDY_PROFILE), ("feedback", BUDDY_FEEDBACK)):
        versions = store.records(kind, bot=BUDDY, user="u")
        if len(versions) > 1:
            new = {k: v for k, v in versions[-1].data.items() if k != "revises"}  # which entry it replaces
            return {k: v for k, v in new.items() if saved.get(k) != v}
    said = _outcome(
        result, result.reply.startswith("That's what I have already") or "says that already" in result.reply
    )
    return f"recall: {result.reply}" if said == "recall" else said


def played_main(text: str) -> str | dict[str, JsonValue]:
    store = MemoryStore()
    [draft] = PROFILE.records(SAVED)
    store.add_record(BOT, "u", "seed", RecordDraft(kind=draft.kind, data=draft.data))
    engine = Engine(store, clock=lambda: CLOCK)
    result = engine.turn(BOT, "u", text)
    versions = store.records("fitness_profile", bot=BOT, user="u")
    if len(versions) > 1:
        return _diff(SAVED, from_profile(versions[-1].data))
    return _outcome(result, result.reply.startswith("That's what I have already"))


def played_review(text: str) -> str | dict[str, JsonValue]:
    found = review(PROFILE)(SAVED)(text)
    if isinstance(found, Invalid):
        return "ask"
    if isinstance(found, Revision) and found.accepted:
        return "accept"
    if isinstance(found, Revision) and found.pending:
        return "ask"  # a change that cannot stand as asked waits with its question: nothing changed yet
    if isinstance(found, Revision):
        after = apply_changes(PROFILE, SAVED, found.changes)
        return _diff(SAVED, after) if isinstance(after, FitnessSlots) else "ask"
    return "none"


def _played(bot: str, e: Entry) -> str | dict[str, JsonValue]:
    if bot == BUDDY:
        got = played_buddy(e.text)
        # a recall is right when it tells what the label names
        if isinstance(got, str) and got.startswith("recall: ") and isinstance(e.expect, Told):
            return "recall" if e.expect.recall in got else got
        return got
    return played_main(e.text) if e.mode == "main" else played_review(e.text)


def score(split: str, misses: bool, bot: str = BOT) -> None:
    entries = load(split, bot)
    edits_made = edits_right = edits_wanted = edits_found = 0
    right: dict[str, list[int]] = {label: [0, 0] for label in LABELS}
    wrong: list[str] = []
    for e in entries:
        got = _played(bot, e)
        want = (
            e.expect.changes if isinstance(e.expect, Changes) else "recall" if isinstance(e.expect, Told) else e.expect
        )
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
    print(f"{bot} {split}: {len(entries)} messages")
    print(f"  edit precision {ratio(edits_right, edits_made)}   edit recall {ratio(edits_found, edits_wanted)}")
    print("  " + "   ".join(f"{label} {ratio(*right[label])}" for label in LABELS if right[label][1]))
    if misses and wrong:
        print("\n".join(wrong))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--misses", choices=("dev", "test"), help="list the messages of this split read wrong")
    args = parser.parse_args(argv)
    for bot in (BOT, BUDDY):
        for split in ("dev", "test"):
            score(split, args.misses == split, bot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
