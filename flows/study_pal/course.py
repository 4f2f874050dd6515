"""Course content for study-pal, and the learning model its flows share.

A course file is YAML: `title`, then `concepts`, each `{id, title, prerequisites: [ids],
aliases: [words], chunks: [{explain, exercise, hint}]}` where an exercise is either
`{question, answers: [accepted strings]}` or `{question, options: {a: .., b: ..}, answer: a}`.
`load_course` refuses a file with any problem and lists them all in one DataFileError,
each naming the concept it is about: a malformed concept or exercise, a chunk count outside
3-6 (none at all included), a duplicate id, a name (id, title, alias) shared by two
concepts, an unknown prerequisite, a prerequisite cycle, a concept unreachable from a root.

The learning model (used by tutoring, analysis and scheduling, and written up in docs/bots.md):

* exercise score: 1.0 when right on the first try, 0.5 when right on the retry after the
  hint, 0.0 when the answer was revealed (after two wrong tries, or because the user asked).
* mastery of a concept = (sum over its chunks of the latest score for that chunk) / number
  of chunks; a chunk never answered scores 0. So mastery is 1.0 only when every chunk's
  latest attempt was right first time, and it rises as the lesson covers more chunks.
* a prerequisite counts as mastered at `MASTERY_THRESHOLD` (0.6) or above.
* performance of a concept = mean of the latest score per *attempted* chunk (coverage does
  not count, only how the attempts went); its severity as a weak point is severe below 0.5,
  moderate below 0.75, mild below 1.0, and no weak point at 1.0.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, model_validator
from rapidfuzz import fuzz, process

from engine.errors import DataFileError
from engine.models import Resources
from flows.shared.datafile import parse_yaml

DEFAULT_COURSE = Path(__file__).parent / "data" / "courses" / "calculus.yaml"
MIN_CHUNKS = 3
MAX_CHUNKS = 6
# typo tolerance for topic names: a word this close (rapidfuzz ratio, 0-100) to a name of at
# least MIN_FUZZY letters names it ("derivitives" 91, "integrel" 88; "continue" vs "continuity" 67)
TYPO_SCORE = 85
MIN_FUZZY = 5

Severity = Literal["severe", "moderate", "mild"]

MASTERY_THRESHOLD = 0.6
FIRST_TRY_SCORE = 1.0
RETRY_SCORE = 0.5
REVEALED_SCORE = 0.0
SEVERE_BELOW = 0.5
MODERATE_BELOW = 0.75
MILD_BELOW = 1.0
SEVERITY_ORDER: dict[Severity, int] = {"severe": 0, "moderate": 1, "mild": 2}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Exercise(_Strict):
    """An open question with accepted answers, or a multiple-choice one with an option letter."""

    question: str = Field(min_length=1)
    answers: list[str] | None = None
    options: dict[str, str] | None = None
    answer: str | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Exercise:
        if self.answers is not None:
            if self.options is not None or self.answer is not None:
                raise ValueError("give either 'answers' or 'options' with 'answer', not both")
            if not [a for a in self.answers if a.strip()]:
                raise ValueError("'answers' needs at least one accepted answer")
            return self
        if not self.options or self.answer is None:
            raise ValueError("needs 'answers: [...]', or 'options: {a: ..., b: ...}' with 'answer: a'")
        if self.answer not in self.options:
            raise ValueError(f"answer {self.answer!r} is not one of the options {sorted(self.options)}")
        return self

    @property
    def is_choice(self) -> bool:
        return self.options is not None

    def render(self) -> str:
        """The question as the student sees it: options listed one per line."""
        if not self.options:
            return self.question
        lines = [f"  {key}) {text}" for key, text in self.options.items()]
        return "\n".join([self.question, *lines])

    def solution(self) -> str:
        if self.options and self.answer is not None:
            return f"{self.answer}) {self.options[self.answer]}"
        return (self.answers or [""])[0]


class Chunk(_Strict):
    explain: str = Field(min_length=1)
    exercise: Exercise
    hint: str = Field(min_length=1)


class Concept(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    title: str = Field(min_length=1)
    prerequisites: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    chunks: list[Chunk] = Field(default_factory=list)

    def names(self) -> list[str]:
        """Words that refer to this concept in a message: id, title, aliases, and singulars."""
        words = {self.id.replace("-", " ").replace("_", " "), self.title.lower(), *(a.lower() for a in self.aliases)}
        words |= {w[:-1] for w in words if w.endswith("s") and len(w) > 4}
        return sorted(words, key=len, reverse=True)


class Course(_Strict):
    """A validated course; `order` lists concept ids prerequisites-first (file order on ties)."""

    title: str
    concepts: list[Concept]
    order: list[str]

    @functools.cached_property
    def by_id(self) -> dict[str, Concept]:
        return {c.id: c for c in self.concepts}

    def concept(self, cid: str) -> Concept:
        return self.by_id[cid]

    def has(self, cid: str | None) -> bool:
        return cid is not None and cid in self.by_id

    def find(self, text: str) -> str | None:
        """The concept a message names; when several are named, the first one mentioned."""
        found = self.find_all(text)
        return found[0] if found else None

    def find_all(self, text: str) -> list[str]:
        """Every concept a message names, in the order mentioned, misspelt names ("derivitives") too."""
        return [cid for _, cid in self.mentions(text)]

    def mentions(self, text: str) -> list[tuple[int, str]]:
        """(position, concept id) of every concept a message names, in the order mentioned."""
        t = text.lower()
        first: dict[str, int] = {}
        for c in self.concepts:
            for name in c.names():
                m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", t)
                if m and m.start() < first.get(c.id, len(t) + 1):
                    first[c.id] = m.start()
        for cid, at in self._misspelt(t).items():
            first.setdefault(cid, at)
        return sorted((at, cid) for cid, at in first.items())

    def _misspelt(self, text: str) -> dict[str, int]:
        """Concepts named with a typo: a word of the message within `TYPO_SCORE` of a name."""
        names = {name: c.id for c in self.concepts for name in c.names() if len(name) >= MIN_FUZZY and " " not in name}
        found: dict[str, int] = {}
        for m in re.finditer(rf"[a-z]{{{MIN_FUZZY},}}", text):
            hit = process.extractOne(m.group(0), list(names), scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
            if hit is not None and names[hit[0]] not in found:
                found[names[hit[0]]] = m.start()
        return found

    def mentions_course(self, text: str) -> bool:
        """Does the message name the course as a whole ("what is calculus?")?"""
        t = text.lower()
        return any(
            re.search(rf"(?<!\w){re.escape(w)}(?!\w)", t) for w in self.title.lower().split() if len(w) > 4
        )  # fmt: skip

    def all_prerequisites(self, cid: str) -> list[str]:
        """Every concept `cid` builds on, directly or not, prerequisites-first."""
        seen: set[str] = set()
        todo = list(self.concept(cid).prerequisites)
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(self.concept(p).prerequisites)
        return [c for c in self.order if c in seen]

    def menu(self) -> str:
        return ", ".join(self.concept(c).title for c in self.order)


# -- loading and validation ---------------------------------------------------------------


def load_course(path: str | Path) -> Course:
    """Read and validate a course file; DataFileError lists every problem, by concept id."""
    p = Path(path)
    try:
        data = parse_yaml(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise DataFileError(str(p), [f"cannot read the course file: {e}"]) from e
    except yaml.YAMLError as e:
        raise DataFileError(str(p), [f"not valid YAML: {e}"]) from e
    return parse_course(data, str(p))


def parse_course(data: object, where: str = "<course>") -> Course:
    """Validate already-loaded course data (what `load_course` does after reading YAML)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("concepts"), list):
        raise DataFileError(where, ["the course must be a mapping with a 'concepts' list"])
    problems: list[str] = []
    unknown_top = sorted(str(k) for k in data if k not in ("title", "concepts"))
    if unknown_top:
        problems.append(f"unknown top-level key(s) {unknown_top}; only 'title' and 'concepts' are allowed")
    title = data.get("title", "this course")
    if not isinstance(title, str) or not title.strip():
        problems.append("'title' must be a non-empty string")
        title = "this course"
    if not data["concepts"]:
        problems.append("the course has no concepts")
    concepts, needs = _concepts(data["concepts"], problems)
    _check_names(concepts, problems)
    order = _check_graph(needs, problems)
    if problems:
        raise DataFileError(where, problems)
    return Course(title=title, concepts=concepts, order=order)


def _concepts(raw: Sequence[JsonValue], problems: list[str]) -> tuple[list[Concept], dict[str, list[str]]]:
    """The valid concepts, and the prerequisite graph (id -> prerequisite ids, in file order).

    The graph is read from every entry that has an id, valid or not, so that one bad chunk
    does not also turn into "unknown prerequisite" and "no root" reports elsewhere.
    """
    out: list[Concept] = []
    needs: dict[str, list[str]] = {}
    for i, item in enumerate(raw):
        cid = item.get("id") if isinstance(item, Mapping) else None
        label = f"concept {cid!r}" if isinstance(cid, str) else f"concept #{i + 1} (no id)"
        if isinstance(cid, str):
            if cid in needs:
                problems.append(f"{label} is defined more than once")
                continue
            prereqs = item.get("prerequisites") if isinstance(item, Mapping) else None
            needs[cid] = [p for p in prereqs if isinstance(p, str)] if isinstance(prereqs, list) else []
        try:
            concept = Concept.model_validate(item)
        except ValidationError as e:
            for err in e.errors(include_url=False):
                loc = ".".join(str(x) for x in err["loc"])
                msg = err["msg"].removeprefix("Value error, ")
                problems.append(f"{label}: {loc + ': ' if loc else ''}{msg}")
            continue
        n = len(concept.chunks)
        if n == 0:
            problems.append(f"{label} has no chunks; each concept needs {MIN_CHUNKS} to {MAX_CHUNKS}")
        elif not MIN_CHUNKS <= n <= MAX_CHUNKS:
            problems.append(f"{label} has {n} chunk(s); each concept needs {MIN_CHUNKS} to {MAX_CHUNKS}")
        out.append(concept)
    return out, needs


def _check_names(concepts: list[Concept], problems: list[str]) -> None:
    """A word that names two concepts (an alias, a title) would make "teach me X" ambiguous."""
    owner: dict[str, str] = {}
    for c in concepts:
        for name in c.names():
            first = owner.setdefault(name, c.id)
            if first != c.id:
                problems.append(f"concept {c.id!r}: the name {name!r} already refers to concept {first!r}")


def _check_graph(needs: dict[str, list[str]], problems: list[str]) -> list[str]:
    """Unknown prerequisites, cycles and unreachable concepts; returns the learnable order.

    The order is Kahn's algorithm from the roots (file order on ties). What it never reaches
    lies on a prerequisite cycle, reported with the cycle, or behind one: unreachable.
    """
    for cid, prereqs in needs.items():
        problems.extend(f"concept {cid!r}: unknown prerequisite {p!r}" for p in prereqs if p not in needs)
    known = {cid: {p for p in prereqs if p in needs} for cid, prereqs in needs.items()}
    if needs and all(known.values()):
        problems.append("the course has no root concept: every concept has prerequisites")
    order: list[str] = []
    while True:
        ready = [c for c in needs if c not in order and known[c] <= set(order)]
        if not ready:
            break
        order.append(ready[0])
    stuck = [c for c in needs if c not in order]
    on_cycle: set[str] = set()
    for cid in stuck:
        cycle = None if cid in on_cycle else _cycle_through(cid, known)
        if cycle is not None:
            on_cycle |= set(cycle)
            problems.append(f"concept {cid!r}: prerequisite cycle {' -> '.join([*cycle, cid])}")
    for cid in stuck:
        if cid not in on_cycle:
            blocked = [p for p in needs[cid] if p in stuck]
            problems.append(
                f"concept {cid!r} is unreachable from a root concept: it depends on {blocked}, "
                "which can never be learned"
            )
    return order


def _cycle_through(start: str, needs: Mapping[str, set[str]]) -> list[str] | None:
    """The shortest walk start -> prerequisite -> ... back to start (read "a needs b needs a")."""
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for v in frontier:
            for w in sorted(needs[v]):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                if w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    return None


@functools.lru_cache(maxsize=8)
def _cached(path: str, mtime_ns: int) -> Course:
    return load_course(path)


def course_path(resources: Resources) -> Path:
    """The course a run uses: `--course` / the replay's `course:`, else the shipped one."""
    return resources.course or DEFAULT_COURSE


def get_course(path: str | Path) -> Course:
    """The validated course at `path`, parsed once per file version (edits are picked up)."""
    p = Path(path)
    try:
        mtime = p.stat().st_mtime_ns
    except OSError as e:
        raise DataFileError(str(p), [f"cannot read the course file: {e}"]) from e
    return _cached(str(p), mtime)
