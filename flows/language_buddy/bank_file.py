"""Placement-test question banks as files: their format, loading and validation.

A bank is YAML: `levels: {A1: [question, ...], A2: [...], ...}` where a question is
`{question: text, answers: [accepted, ...]}` (open) or
`{question: text, options: {a: text, b: text, ...}, answer: a}` (multiple choice), and an
optional `language: es` (ISO 639-1) says which learners it places.
Levels run upwards from A1 without gaps; the highest level present is the ceiling.
A bank is checked completely on load and every problem is reported at once, named by
level and question number, so an author fixes a file in one pass. A shipped bank
(data/assessment/<code>.yaml) is held to more (`load_shipped`): it names its language, the
one its file is named for, and has every level A1-C2 with at least `MIN_SHIPPED` questions,
so that one slip does not decide a level.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from engine import DataFileError
from engine.extract import fold
from flows.shared.datafile import parse_yaml

CEFR = Literal["A1", "A2", "B1", "B2", "C1", "C2"]
LEVELS: tuple[CEFR, ...] = ("A1", "A2", "B1", "B2", "C1", "C2")
# a level decided by one question is decided by one slip
MIN_SHIPPED = 2
_CODE = re.compile(r"^[a-z]{2}$")
# how an answer names an option by its letter ("b", "(b)", "b)"): an option's text must not read so
_AS_LETTER = re.compile(r"\(?([a-z])\)?[.)]?")


class Question(BaseModel):
    """One bank question as a flow keeps it in its slots (options empty for an open question)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    level: CEFR
    number: int  # 1-based within its level
    of: int  # how many questions the level has
    text: str
    options: dict[str, str] = {}
    accepted: list[str]

    @property
    def is_choice(self) -> bool:
        return bool(self.options)


@dataclass(frozen=True)
class Bank:
    path: Path
    levels: dict[CEFR, list[Question]]
    digest: str  # of the questions, not the file: comments and layout may change
    language: str | None = None  # the learners it places (ISO 639-1); None: whoever the run gives it

    def places(self, language: str) -> bool:
        return self.language is None or self.language == language

    @property
    def ceiling(self) -> CEFR:
        return list(self.levels)[-1]

    def question(self, tier: int, index: int) -> Question:
        return self.levels[LEVELS[tier]][index]

    def tiers(self) -> int:
        return len(self.levels)


def normalise(text: str) -> str:
    """Case, spacing, accents' composition and end punctuation do not make an answer wrong."""
    return fold(text, accents=True).strip(" .!?;:,\"'“”")


# -- loading and validation ---------------------------------------------------------------

_QUESTION_KEYS = {"question", "answers", "options", "answer"}
_TOP_KEYS = ("levels", "language")
_cache: dict[Path, tuple[tuple[int, int], Bank]] = {}


def load_bank(path: Path) -> Bank:
    """Read and validate a bank; DataFileError lists every problem. Cached until the file changes."""
    path = path.resolve()
    try:
        st = path.stat()
    except OSError as e:
        raise DataFileError(str(path), [f"cannot read the question bank: {e.strerror or e}"]) from e
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _cache.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    bank = _parse(path)
    _cache[path] = (stamp, bank)
    return bank


def _parse(path: Path) -> Bank:
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise DataFileError(str(path), [f"cannot read the question bank: {e}"]) from e
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise DataFileError(str(path), [f"YAML syntax error{where}: {getattr(e, 'problem', None) or e}"]) from e
    problems: list[str] = []
    levels: dict[CEFR, list[Question]] = {}
    if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
        raise DataFileError(str(path), ["the bank must be a mapping with a 'levels' mapping (levels: {A1: [...]})"])
    problems += [
        f"unknown top-level key {k!r}; only {' and '.join(map(repr, _TOP_KEYS))} are allowed"
        for k in data
        if k not in _TOP_KEYS
    ]
    language = data.get("language")
    if language is not None and not (isinstance(language, str) and _CODE.match(language)):
        problems.append(f"'language' must be a two-letter ISO 639-1 code such as es, got {language!r}")
    raw_levels: dict[object, object] = data["levels"]
    for key in raw_levels:
        if key not in LEVELS:
            problems.append(f"unknown level {key!r}; levels are {', '.join(LEVELS)}")
    present = [lvl for lvl in LEVELS if lvl in raw_levels]
    if not present:
        problems.append("no levels: give at least A1")
    expected = list(LEVELS[: len(present)])
    if present and present != expected:
        missing = [lvl for lvl in expected if lvl not in present]
        problems.append(f"levels must run from A1 upwards without gaps; missing {', '.join(missing)}")
    for lvl in present:
        items = raw_levels[lvl]
        if not isinstance(items, list) or not items:
            problems.append(f"{lvl}: needs a non-empty list of questions")
            continue
        questions = []
        for number, item in enumerate(items, start=1):
            q = _question(lvl, number, len(items), item, problems)
            if q is not None:
                questions.append(q)
        levels[lvl] = questions
    problems += _repeated(levels)
    if problems:
        raise DataFileError(str(path), problems)
    return Bank(path=path, levels=levels, digest=_digest(levels), language=language)


def _repeated(levels: dict[CEFR, list[Question]]) -> list[str]:
    """A question asked twice counts twice: each must be its own."""
    first: dict[str, str] = {}
    problems = []
    for lvl, questions in levels.items():
        for q in questions:
            where = f"{lvl} question {q.number}"
            key = normalise(q.text) + "\n" + "\n".join(f"{k}={normalise(v)}" for k, v in q.options.items())
            if key in first:
                problems.append(f"{where}: the same question as {first[key]}; each question must be its own")
            else:
                first[key] = where
    return problems


def _digest(levels: dict[CEFR, list[Question]]) -> str:
    questions = {lvl: [q.model_dump(mode="json") for q in qs] for lvl, qs in levels.items()}
    return hashlib.sha256(json.dumps(questions, sort_keys=True).encode()).hexdigest()[:16]


def _question(level: CEFR, number: int, of: int, item: object, problems: list[str]) -> Question | None:
    where = f"{level} question {number}"
    if not isinstance(item, dict):
        problems.append(f"{where}: must be a mapping with 'question' and 'answers' (or 'options' and 'answer')")
        return None
    before = len(problems)
    problems += [f"{where}: unknown key {k!r}" for k in item if k not in _QUESTION_KEYS]
    text = item.get("question")
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where}: 'question' must be non-empty text")
    options: dict[str, str] = {}
    accepted: list[str] = []
    if "options" in item or "answer" in item:
        if "answers" in item:
            problems.append(f"{where}: give either 'answers' (open) or 'options' and 'answer' (choice), not both")
        raw = item.get("options")
        if not isinstance(raw, dict) or len(raw) < 2:
            problems.append(f"{where}: 'options' must map at least two letters to texts (a: ..., b: ...)")
        else:
            for letter, option in raw.items():
                if not (isinstance(letter, str) and re.fullmatch(r"[a-z]", letter)):
                    problems.append(f"{where}: option key {letter!r} must be one lowercase letter")
                elif isinstance(option, bool) or option is None:
                    problems.append(f"{where}: option {letter!r} reads as {option!r} in YAML; quote it")
                elif not isinstance(option, str | int | float) or not str(option).strip():
                    problems.append(f"{where}: option {letter!r} needs a text")
                else:
                    options[letter] = str(option)
        seen: dict[str, str] = {}
        for letter, option in options.items():
            same = seen.setdefault(normalise(option), letter)
            if same != letter:
                problems.append(
                    f"{where}: options {same!r} and {letter!r} read the same ({option!r}); make them differ"
                )
            named = _AS_LETTER.fullmatch(normalise(option))
            if named and named.group(1) in options:
                # "a" typed as the word would be read as the letter a
                problems.append(
                    f"{where}: option {letter!r} ({option!r}) reads as the letter {named.group(1)!r}; reword it"
                )
        answer = item.get("answer")
        if not isinstance(answer, str) or answer not in options:
            listed = ", ".join(options) or "none"
            problems.append(f"{where}: 'answer' must be one of the option letters ({listed}), got {answer!r}")
        else:
            accepted = [answer]
    else:
        raw_answers = item.get("answers")
        if isinstance(raw_answers, list) and any(isinstance(a, bool) or a is None for a in raw_answers):
            problems.append(f"{where}: an answer reads as a YAML boolean or null (yes, no, on, off, ~); quote it")
        elif (
            not isinstance(raw_answers, list)
            or not raw_answers
            or not all(isinstance(a, str | int | float) and str(a).strip() for a in raw_answers)
        ):
            problems.append(f"{where}: 'answers' must be a non-empty list of accepted answers")
        else:
            accepted = [str(a) for a in raw_answers]
    if len(problems) > before:
        return None
    return Question(level=level, number=number, of=of, text=str(text).strip(), options=options, accepted=accepted)


def load_shipped(path: Path) -> Bank:
    """A shipped bank, held to what placing learners of its language needs (module docstring)."""
    bank = load_bank(path)
    problems = []
    if bank.language is None:
        problems.append(f"a shipped bank must say its language: add 'language: {path.stem}'")
    elif bank.language != path.stem:
        problems.append(
            f"the bank says 'language: {bank.language}' but its file is named for {path.stem!r}: "
            f"rename the file to {bank.language}.yaml or fix the language"
        )
    missing = [lvl for lvl in LEVELS if lvl not in bank.levels]
    if missing:
        problems.append(f"a shipped bank places up to C2: add level(s) {', '.join(missing)}")
    for lvl, questions in bank.levels.items():
        if len(questions) < MIN_SHIPPED:
            problems.append(
                f"{lvl}: {len(questions)} question(s); a shipped bank needs at least {MIN_SHIPPED} per level"
            )
    if problems:
        raise DataFileError(str(bank.path), problems)
    return bank
