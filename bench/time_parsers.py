"""Day-and-time parsers side by side on the study-window corpus (tests/corpora/time_windows/, its
dev and test splits; the split rule is in its README).

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/time_parsers.py [-v]

For each phrase every parser is asked for the study window it names, relative to the entry's
`now`; ours as study-pal's window question reads it, spread over the days a plan repeats on
(tests/time_corpus.py), the libraries for one day (a plan over several days is a miss for them).
Ours is scored on the training days fitness-coach reads too, and per language. A library's
answer is turned into a window with the same conventions our parser uses (no time: 16:00-18:00;
a start without a length: 2 hours; a part of day without hours: that part's window), so only
reading is compared, not taste. Two scores per parser: the whole window right (days, start and
end), and the days right. A parser that is not installed is skipped, saying so. `-v` lists every
miss of the dev split (the test split's misses are not printed: it is never tuned on).
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import re
import sys
import time as clock
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flows.study_pal.days import PARTS, Part
from tests.time_corpus import SPLITS, Split, read_plan
from tests.time_corpus import load as load_split
from tests.time_corpus import score as score_split

DEFAULT = (time(16, 0), time(18, 0))
DEFAULT_MINUTES = 120


@dataclass(frozen=True)
class Case:
    text: str
    now: datetime
    want: tuple[tuple[str, ...], str, str]


@dataclass
class Pieces:
    """What a library read: a day, a start, an end, a length, a part of day (any may be missing)."""

    day: date | None = None
    start: time | None = None
    end: time | None = None
    minutes: int | None = None
    part: Part | None = None

    def window(self, now: datetime) -> tuple[tuple[str, ...], str, str] | None:
        if self.day is None and self.start is None and self.part is None:
            return None
        day = self.day or now.date()
        start = self.start
        end = self.end
        if start is None and self.part is not None:
            start, part_end = PARTS[self.part]
            end = end or (None if self.minutes else part_end)
        if start is None:
            start, end = (DEFAULT[0], end) if self.minutes else DEFAULT
        if end is None:
            total = start.hour * 60 + start.minute + (self.minutes or DEFAULT_MINUTES)
            end = time(min(total, 23 * 60 + 59) // 60, min(total, 23 * 60 + 59) % 60)
        return (day.isoformat(),), f"{start:%H:%M}", f"{end:%H:%M}"


def load(split: Split) -> list[Case]:
    corpus = load_split(split)
    return [Case(c.text, corpus.at(c), c.want()) for c in corpus.windows]


# -- the parsers ---------------------------------------------------------------------------


def ours(case: Case) -> tuple[tuple[str, ...], str, str] | None:
    return read_plan(case.text, case.now)


_POD: dict[str, Part] = {"morning": "morning", "earlymorning": "morning", "lateafternoon": "afternoon",
                         "afternoon": "afternoon", "evening": "evening", "night": "night",
                         "lateevening": "night"}  # fmt: skip


def _ct_time(t: object, now: datetime) -> Pieces:
    year, month, day = getattr(t, "year", None), getattr(t, "month", None), getattr(t, "day", None)
    hour, minute, pod = getattr(t, "hour", None), getattr(t, "minute", None), getattr(t, "POD", None)
    found = Pieces()
    if year and month and day:
        found.day = date(year, month, day)
    if hour is not None:
        found.start = time(hour, minute or 0)
    if isinstance(pod, str):
        found.part = _POD.get(pod.replace("_", ""))
    return found


def ctparse_reader() -> Callable[[Case], tuple[tuple[str, ...], str, str] | None]:
    from ctparse import ctparse  # type: ignore[import-not-found,unused-ignore]

    def read(case: Case) -> tuple[str, str, str] | None:
        result = ctparse(case.text, ts=case.now, timeout=2)
        if result is None:
            return None
        res = result.resolution
        if hasattr(res, "t_from"):
            a, b = _ct_time(res.t_from, case.now), _ct_time(res.t_to, case.now)
            found = Pieces(day=a.day or b.day, start=a.start, end=b.start, part=a.part)
        elif hasattr(res, "value") and hasattr(res, "unit"):  # a duration alone
            found = Pieces(minutes=int(res.value) * (60 if "hour" in str(res.unit).lower() else 1))
        else:
            found = _ct_time(res, case.now)
        return found.window(case.now)

    return read


_HAS_TIME = re.compile(r"\d|noon|midnight|now|morning|afternoon|evening|night|tonight", re.I)
_PART_WORD = re.compile(r"\b(morning|afternoon|evening|night|tonight)\b", re.I)


def dateparser_reader() -> Callable[[Case], tuple[tuple[str, ...], str, str] | None]:
    from dateparser.search import search_dates  # type: ignore[import-not-found,unused-ignore]

    def read(case: Case) -> tuple[str, str, str] | None:
        settings = {"RELATIVE_BASE": case.now, "PREFER_DATES_FROM": "future"}
        hits = search_dates(case.text, settings=settings, languages=["en"]) or []
        if not hits:
            return None
        found = Pieces()
        timed = [(s, d) for s, d in hits if _HAS_TIME.search(s) and not _PART_WORD.fullmatch(s.strip())]
        dated = [d for _, d in hits if d.date() != case.now.date()]
        found.day = (dated[0] if dated else hits[0][1]).date()
        if timed:
            found.start = timed[0][1].time().replace(second=0, microsecond=0)
        if len(timed) > 1:
            found.end = timed[1][1].time().replace(second=0, microsecond=0)
        part = _PART_WORD.search(case.text)
        if found.start is None and part:
            word = part.group(1).lower()
            found.part = "evening" if word == "tonight" else word  # type: ignore[assignment]
        return found.window(case.now)

    return read


def timefhuman_reader() -> Callable[[Case], tuple[tuple[str, ...], str, str] | None]:
    from timefhuman import tfhConfig, timefhuman  # type: ignore[import-not-found,unused-ignore]

    def read(case: Case) -> tuple[str, str, str] | None:
        results = timefhuman(case.text, config=tfhConfig(now=case.now))
        if not results:
            return None
        found = Pieces()
        for r in results:
            if isinstance(r, tuple) and len(r) == 2 and found.start is None:
                a, b = r
                if isinstance(a, datetime) and isinstance(b, datetime):
                    found.day, found.start, found.end = a.date(), a.time(), b.time()
            elif isinstance(r, datetime) and found.start is None:
                found.day, found.start = r.date(), r.time()
            elif isinstance(r, date) and not isinstance(r, datetime) and found.day is None:
                found.day = r
            elif isinstance(r, time) and found.start is None:
                found.start = r
            elif isinstance(r, timedelta) and found.minutes is None:
                found.minutes = int(r.total_seconds() // 60)
        return found.window(case.now)

    return read


READERS: dict[str, tuple[str, Callable[[], Callable[[Case], tuple[tuple[str, ...], str, str] | None]]]] = {
    "ctparse": ("ctparse", ctparse_reader),
    "dateparser": ("dateparser", dateparser_reader),
    "timefhuman": ("timefhuman", timefhuman_reader),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)  # ctparse logs every phrase it cannot read
    parsers: dict[str, Callable[[Case], tuple[tuple[str, ...], str, str] | None]] = {"innerloop": ours}
    for name, (module, make) in READERS.items():
        if importlib.util.find_spec(module) is None:
            print(f"{name}: not installed, skipped (pip install -e '.[bench]')")
            continue
        parsers[name] = make()
    for split in SPLITS:
        cases = load(split)
        print(f"\n{split}: {len(cases)} phrases from tests/corpora/time_windows/{split}.yaml")
        _compare(cases, parsers, verbose=args.verbose and split == "dev")
        windows, days = score_split(split)
        print(f"innerloop by language: windows {windows.line()}")
        if days.total:
            print(f"innerloop training days (fitness-coach): {days.line()}")
            if args.verbose and split == "dev":
                print("\n".join(f"  {t!r}: got {g}, want {w}" for t, g, w in days.misses or []))
    return 0


def _compare(
    cases: list[Case],
    parsers: dict[str, Callable[[Case], tuple[tuple[str, ...], str, str] | None]],
    verbose: bool,
) -> None:
    print(f"{'parser':<12} {'window right':>14} {'day right':>12} {'ms/phrase':>10}")
    for name, read in parsers.items():
        windows = days = 0
        misses: list[str] = []
        began = clock.perf_counter()
        for case in cases:
            try:
                got = read(case)
            except Exception as e:  # a library failing on a phrase is a miss, not the end of the run
                got = None
                misses.append(f"  {case.text!r}: raised {type(e).__name__}")
            windows += got == case.want
            days += got is not None and got[0] == case.want[0]
            if got != case.want:
                misses.append(f"  {case.text!r}: got {got}, want {case.want}")
        ms = (clock.perf_counter() - began) * 1000 / len(cases)
        n = len(cases)
        print(f"{name:<12} {windows:>4}/{n} {windows / n:>5.0%} {days:>4}/{n} {days / n:>4.0%} {ms:>10.2f}")
        if verbose and misses:
            print("\n".join(misses))


if __name__ == "__main__":
    raise SystemExit(main())
