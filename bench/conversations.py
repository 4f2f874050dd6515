"""Fresh conversations (tests/corpora/conversations/): what new users meet, per split and per bot.

    python bench/conversations.py                 # totals per split and bot: `conversations`, `fresh`..`fresh7`
    python bench/conversations.py --misses dev    # and every failing turn of their dev splits
    python bench/conversations.py --corpus fresh  # one corpus: the blind batch (conversations/fresh/)
    python bench/conversations.py --corpus fresh2 # the second blind batch (conversations/fresh2/)
    python bench/conversations.py --corpus fresh3 # the third blind batch (conversations/fresh3/)
    python bench/conversations.py --corpus fresh4 # the fourth blind batch (conversations/fresh4/)
    python bench/conversations.py --corpus fresh5 # the fifth blind batch (conversations/fresh5/)
    python bench/conversations.py --corpus fresh6 # the sixth blind batch (conversations/fresh6/)
    python bench/conversations.py --corpus fresh7 # the seventh blind batch (conversations/fresh7/)
    python bench/conversations.py --corpus held   # the held-out set for one-bot readers (tests/corpora/held/)

Every script of both splits runs offline (rules backend) through the replay runner, each on a
fresh SQLite file. A conversation passes when every expectation in it holds, the end checks
(`expect_end`) included; a turn counts when it carries an expectation, and holds when none of
its expectations failed and the run reached it (an engine error stops a script, and the
turns after it do not hold). The test split's individual failures are never printed, only its
totals: whoever fixes the engine looks at dev.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pydantic import ValidationError  # noqa: E402

from bench.conversation_split import SPLITS, Split, split_of  # noqa: E402
from engine.authoring.expect import values_equal  # noqa: E402
from engine.authoring.replay import ScriptResult, replay  # noqa: E402
from engine.authoring.script import AgentTurn, Script, UserTurn, load_script  # noqa: E402
from engine.bot import MAIN  # noqa: E402
from engine.errors import ScriptError  # noqa: E402
from engine.registry import Registry, default_registry  # noqa: E402

CORPUS = ROOT / "tests" / "corpora" / "conversations"
# the corpora this bench runs, by the name `--corpus` takes; each holds dev/ and test/ split by name
CORPORA = {
    "conversations": CORPUS,
    "fresh": CORPUS / "fresh",
    "fresh2": CORPUS / "fresh2",
    "fresh3": CORPUS / "fresh3",
    "fresh4": CORPUS / "fresh4",
    "fresh5": CORPUS / "fresh5",
    "fresh6": CORPUS / "fresh6",
    "fresh7": CORPUS / "fresh7",
    "held": ROOT / "tests" / "corpora" / "held",
}
# what a run without --corpus prints, one table each: the blind batches are small enough to run every time
DEFAULT = ("conversations", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7")
ALL = "all"


class CorpusError(ValueError):
    """The corpus does not fit the shipped bots or its split; `problems` lists every one."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{len(problems)} problem(s) in the conversations corpus:\n" + "\n".join(self.problems))


# -- loading ------------------------------------------------------------------------------


def _shape_problems(script: Script, registry: Registry) -> list[str]:
    """Expectations the loader lets through but that could never hold.

    The loader checks a state's or a slot's name only when the turn names its flow, so every
    expectation of a state or slots must name one; and a slot value must be one the slot can
    hold, stored back the same (an int slot never equals "3", a list of weekdays never "Monday").
    """
    bot = registry.get(script.bot)
    out: list[str] = []
    for number, turn in enumerate(script.turns, start=1):
        ex = turn.expect if isinstance(turn, UserTurn | AgentTurn) else None
        if ex is None:
            continue
        if (ex.state is not None or ex.slots) and ex.flow in (None, MAIN):
            out.append(f"turn {number}: a state or slots expected without the flow they belong to")
            continue
        if not ex.slots or ex.flow is None:
            continue
        slots = bot.flow(ex.flow).slots
        for name, value in ex.slots.items():
            try:
                held = slots.__pydantic_validator__.validate_assignment(slots.model_construct(), name, value)
            except ValidationError as e:
                out.append(f"turn {number}: slot {name} can never hold {value!r}: {e.errors()[0]['msg']}")
                continue
            stored = held.model_dump(mode="json", include={name}).get(name)
            if not values_equal(value, stored):
                out.append(f"turn {number}: slot {name} would hold {stored!r}, never {value!r}")
    return out


@dataclass(frozen=True)
class Conversation:
    split: Split
    script: Script

    @property
    def name(self) -> str:
        return self.script.path.stem if self.script.path else "?"


def load(split: Split, registry: Registry | None = None, folder: Path = CORPUS) -> list[Conversation]:
    """The split's scripts, each validated against the bots and checked to belong to the split."""
    reg = registry or default_registry()
    out: list[Conversation] = []
    problems: list[str] = []
    for path in sorted((folder / split).glob("*.yaml")):
        where = f"{split}/{path.name}"
        if split_of(path.stem) != split:
            problems.append(f"{where}: belongs to the {split_of(path.stem)} split (fixed by the hash of its name)")
        try:
            script = load_script(path, bots=reg)
        except ScriptError as e:
            problems.append(f"{where}: {e}")
            continue
        if script.now is None:
            problems.append(f"{where}: no `now:` (the clock must be pinned)")
        problems += [f"{where}: {p}" for p in _shape_problems(script, reg)]
        out.append(Conversation(split, script))
    if problems:
        raise CorpusError(problems)
    return out


def load_all(registry: Registry | None = None, folder: Path = CORPUS) -> list[Conversation]:
    """Both splits; CorpusError lists the problems of both."""
    out: list[Conversation] = []
    problems: list[str] = []
    for split in SPLITS:
        try:
            out += load(split, registry, folder)
        except CorpusError as e:
            problems += e.problems
    if problems:
        raise CorpusError(problems)
    return out


# -- scoring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """One conversation's outcome: passed, and its checked turns held / total."""

    passed: bool
    turns: int
    held: int
    # "turn 3 ("the user's words"): state: expected 'x', got 'y'"; printed for dev only
    misses: tuple[str, ...] = field(default=(), repr=False, compare=False)


def score(script: Script, result: ScriptResult) -> Score:
    expected = [
        n for n, t in enumerate(script.turns, start=1) if isinstance(t, UserTurn | AgentTurn) and t.expect is not None
    ]
    # an engine error (or a failed restart) ends the run: that turn and every later one are not reached
    stops = [f.turn for f in result.failures if f.what in ("turn", "restart") and f.turn is not None]
    stop = min(stops) if stops else None
    failed = {f.turn for f in result.failures if f.turn is not None}
    held = [n for n in expected if n not in failed and (stop is None or n < stop)]
    misses = tuple(_describe(script, f.turn, f.describe()) for f in result.failures)
    if stop is not None:
        unreached = [n for n in expected if n > stop]
        if unreached:
            misses += (f"turns {', '.join(map(str, unreached))}: not reached",)
    return Score(passed=result.passed, turns=len(expected), held=len(held), misses=misses)


def _describe(script: Script, turn: int | None, text: str) -> str:
    if turn is None or not 1 <= turn <= len(script.turns):
        return text
    step = script.turns[turn - 1]
    said = step.user if isinstance(step, UserTurn) else step.agent if isinstance(step, AgentTurn) else "restart"
    return f"{text}  [said: {said!r}]"


@dataclass
class Tally:
    conversations: int = 0
    passed: int = 0
    turns: int = 0
    held: int = 0

    def add(self, s: Score) -> None:
        self.conversations += 1
        self.passed += s.passed
        self.turns += s.turns
        self.held += s.held


def tally(scored: Iterable[tuple[Split, str, Score]]) -> dict[tuple[Split, str], Tally]:
    """Totals per (split, bot), and per (split, "all")."""
    out: dict[tuple[Split, str], Tally] = {}
    for split, bot, s in scored:
        for key in ((split, bot), (split, ALL)):
            out.setdefault(key, Tally()).add(s)
    return out


def run(conversation: Conversation) -> Score:
    return score(conversation.script, replay(conversation.script, llm="rules"))


def table(totals: dict[tuple[Split, str], Tally]) -> list[str]:
    lines = [f"{'split':<6} {'bot':<16} {'conversations':>15} {'turns':>15}"]
    for split in SPLITS:
        bots = sorted(b for s, b in totals if s == split and b != ALL)
        for bot in [*bots, ALL]:
            t = totals.get((split, bot))
            if t is None:
                continue
            conv = f"{t.passed}/{t.conversations}"
            turns = f"{t.held}/{t.turns}"
            pct = f"{100 * t.held / t.turns:.0f}%" if t.turns else "-"
            lines.append(f"{split:<6} {bot:<16} {conv:>15} {turns:>10} {pct:>4}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # the test split's failures stay unseen: only dev's are listed
    ap.add_argument("--misses", choices=["dev"], help="also list the failing turns of the dev split")
    ap.add_argument(
        "--corpus",
        choices=sorted(CORPORA),
        default=None,
        help=f"which corpus to run (default: {' and '.join(DEFAULT)}, one table each)",
    )
    args = ap.parse_args(argv)
    names = [args.corpus] if args.corpus else list(DEFAULT)
    try:
        loaded = {name: load_all(folder=CORPORA[name]) for name in names}
    except CorpusError as e:
        print(e, file=sys.stderr)
        return 2
    for number, (name, conversations) in enumerate(loaded.items()):
        if len(loaded) > 1:
            print(("\n" if number else "") + f"== {name} ({CORPORA[name].relative_to(ROOT)})")
        scored: list[tuple[Split, str, Score]] = []
        misses: list[str] = []
        for c in conversations:
            s = run(c)
            scored.append((c.split, c.script.bot, s))
            if args.misses == c.split and not s.passed:
                misses.append(f"{c.split}/{c.name} ({c.script.bot}):")
                misses += [f"  {m}" for m in s.misses]
        print("\n".join(table(tally(scored))))
        if misses:
            print(f"\nfailing turns (dev, {name}):")
            print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
