"""The fresh-conversations corpus loads, and the benchmark counts right (bench/conversations.py).

Whether the conversations pass is measured by the benchmark, not asserted here: they are what
new users meet, and most fail today. Nothing here runs a bot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.conversation_split import SPLITS, split_of
from bench.conversations import CORPORA, CorpusError, Score, load, load_all, score, table, tally
from engine.authoring.expect import Failure
from engine.authoring.replay import ScriptResult
from engine.authoring.script import Script

SHIPPED_BOTS = {"fitness-coach", "language-buddy", "study-pal", "support"}


def test_the_corpus_loads_against_the_bots() -> None:
    conversations = load_all()
    assert len(conversations) >= 40
    for split in SPLITS:
        mine = [c for c in conversations if c.split == split]
        assert {c.script.bot for c in mine} == SHIPPED_BOTS, split
        assert all(split_of(c.name) == split for c in mine)
    flows = {t.expect.flow for c in conversations for t in c.script.user_turns if t.expect}
    assert "feedback" in flows


def test_the_held_out_set_loads_and_the_bench_runs_it_by_name() -> None:
    # tests/corpora/held/: forty scripts for three bots, every one in the split its name hashes to
    held = load_all(folder=CORPORA["held"])
    assert len(held) == 40
    assert {c.script.bot for c in held} == {"fitness-coach", "language-buddy", "study-pal"}
    assert all(split_of(c.name) == c.split and c.name.startswith("held_") for c in held)
    assert {c.name for c in held}.isdisjoint(c.name for c in load_all())


# The blind batches in the order they were written (tests/corpora/conversations/fresh*/, h-conv12 to
# h-conv9): how many scripts, how many a half where the split was by name with no renaming, and whether
# the feedback flow is met in both halves (from the second batch on) or in the batch
BATCHES = [("fresh", 42, None, False), ("fresh2", 46, None, True), ("fresh3", 48, 24, True),
           ("fresh4", 44, 22, True), ("fresh5", 44, 22, True), ("fresh6", 44, None, True),
           ("fresh7", 45, None, True)]  # fmt: skip


@pytest.mark.parametrize(("name", "total", "half", "feedback_each_half"), BATCHES, ids=[b[0] for b in BATCHES])
def test_a_blind_batch_loads_in_both_splits_for_every_bot(
    name: str, total: int, half: int | None, feedback_each_half: bool
) -> None:
    # each split by name like the others, and sharing no script name with the corpora written before it
    batch = load_all(folder=CORPORA[name])
    assert len(batch) == total
    for split in SPLITS:
        mine = [c for c in batch if c.split == split]
        assert half is None or len(mine) == half, split
        assert {c.script.bot for c in mine} == SHIPPED_BOTS, split
        assert all(split_of(c.name) == split for c in mine)
        if feedback_each_half:
            assert "feedback" in {t.expect.flow for c in mine for t in c.script.user_turns if t.expect}, split
    assert "feedback" in {t.expect.flow for c in batch for t in c.script.user_turns if t.expect}
    before = ["conversations", *(b[0] for b in BATCHES[: [b[0] for b in BATCHES].index(name)])]
    others = {c.name for earlier in before for c in load_all(folder=CORPORA[earlier])}
    assert {c.name for c in batch}.isdisjoint(others)


def write(folder: Path, split: str, stem: str, text: str) -> None:
    (folder / split).mkdir(parents=True, exist_ok=True)
    (folder / split / f"{stem}.yaml").write_text(text, encoding="utf-8")


def stem_in(split: str) -> str:
    return next(f"case_{i}" for i in range(100) if split_of(f"case_{i}") == split)


GOOD = """\
bot: fitness-coach
now: 2026-03-02T07:40
turns:
  - user: "hi"
    expect: {flow: onboarding, state: level}
"""


def test_a_script_in_the_wrong_split_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "dev", stem_in("test"), GOOD)
    with pytest.raises(CorpusError, match="belongs to the test split"):
        load("dev", folder=tmp_path)
    assert load("test", folder=tmp_path) == []


@pytest.mark.parametrize(
    ("expect", "problem"),
    [
        ("{flow: onboarding, state: levle}", "has no state 'levle'"),
        ("{state: level}", "without the flow"),
        ("{flow: onboarding, slots: {days_per_week: three}}", "can never hold 'three'"),
        ("{flow: onboarding, slots: {days_per_week: '3'}}", "would hold 3, never '3'"),
        ("{flow: onboarding, slots: {preferred_days: [Monday]}}", "can never hold"),
    ],
)
def test_malformed_expectations_are_refused(tmp_path: Path, expect: str, problem: str) -> None:
    write(tmp_path, "dev", stem_in("dev"), GOOD.replace("{flow: onboarding, state: level}", expect))
    with pytest.raises(CorpusError, match=problem):
        load("dev", folder=tmp_path)


def script(turns: int, expected: set[int], end: bool = False) -> Script:
    data: dict[str, object] = {
        "bot": "fitness-coach",
        "turns": [
            {"user": f"m{n}", **({"expect": {"flow": "main"}} if n in expected else {})} for n in range(1, turns + 1)
        ],
    }
    if end:
        data["expect_end"] = {"flow": "main"}
    return Script.model_validate(data)


def test_score_counts_turns_with_expectations_and_their_failures() -> None:
    s = script(5, {1, 2, 4, 5}, end=True)
    two_on_turn_2 = [Failure(2, "state", "a", "b"), Failure(2, "slots.x", 1, 2)]
    failed = score(s, ScriptResult(s, failures=two_on_turn_2))
    assert failed == Score(passed=False, turns=4, held=3)
    assert failed.misses == (
        "turn 2: state: expected 'a', got 'b'  [said: 'm2']",
        "turn 2: slots.x: expected 1, got 2  [said: 'm2']",
    )
    # only the end check failed: every turn held, the conversation did not pass
    assert score(s, ScriptResult(s, failures=[Failure(None, "history_contains", "x", [])])) == Score(False, 4, 4)
    assert score(s, ScriptResult(s)) == Score(passed=True, turns=4, held=4)


def test_an_engine_error_fails_that_turn_and_the_turns_it_never_reached() -> None:
    s = script(5, {1, 2, 4, 5})
    crashed = score(s, ScriptResult(s, failures=[Failure(3, "turn", "a reply", "StoreError: gone")]))
    assert (crashed.turns, crashed.held, crashed.passed) == (4, 2, False)
    assert "turns 4, 5: not reached" in crashed.misses


def test_tally_adds_per_bot_and_per_split() -> None:
    totals = tally(
        [
            ("dev", "support", Score(True, 3, 3)),
            ("dev", "support", Score(False, 4, 1)),
            ("dev", "study-pal", Score(False, 2, 0)),
            ("test", "support", Score(True, 1, 1)),
        ]
    )
    support, everything = totals[("dev", "support")], totals[("dev", "all")]
    assert (support.passed, support.conversations, support.held, support.turns) == (1, 2, 4, 7)
    assert (everything.passed, everything.conversations, everything.held, everything.turns) == (1, 3, 4, 9)
    assert (totals[("test", "all")].passed, totals[("test", "all")].turns) == (1, 1)
    lines = table(totals)
    assert any(line.split()[:4] == ["dev", "support", "1/2", "4/7"] for line in lines)
