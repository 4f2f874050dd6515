"""Placement-test question banks: loading, validation and rule grading.

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

A test in progress names its bank by a `BankRef`, never by a file path (the install, or the
file given for a run, may move while a session waits): a shipped bank by its name, the
run's own bank as "the run's bank", each with a digest of its questions, so a session
resumed on another bank than the one it started with is told so instead of being asked the
wrong questions.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from engine import DataFileError, Invalid, Parser, Resources
from engine.extract import fold

CEFR = Literal["A1", "A2", "B1", "B2", "C1", "C2"]
LEVELS: tuple[CEFR, ...] = ("A1", "A2", "B1", "B2", "C1", "C2")
SHIPPED = Path(__file__).parent / "data" / "assessment"
# a level decided by one question is decided by one slip
MIN_SHIPPED = 2
_CODE = re.compile(r"^[a-z]{2}$")


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
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
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


def shipped_banks() -> list[Path]:
    return sorted(SHIPPED.glob("*.yaml"))


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


# -- which bank a test in progress uses -----------------------------------------------------


class ShippedBank(BaseModel):
    """A bank in the shipped data folder, by its file stem (the language code), found there at load."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["shipped"] = "shipped"
    name: str = Field(pattern=r"^[A-Za-z0-9_-]+$")  # a name, never a path
    digest: str | None = None  # None only when read from a session stored with a path


class RunBank(BaseModel):
    """The bank a run was given (`--assessment`, a replay's `assessment:`), found through the run's Resources."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["run"] = "run"
    file: str  # its file name, only to tell the user which bank is meant
    digest: str


class BankFile(BaseModel):
    """A bank outside the shipped folder as sessions stored before `BankRef` named it: its path."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["path"] = "path"
    path: str


# The shipped folder's place inside any install: before and since each bot got its own package.
_SHIPPED_LAYOUTS = (("flows", "data", "assessment"), ("flows", "language_buddy", "data", "assessment"))


def _stored_path(value: object) -> object:
    """Accept the absolute path older sessions stored: a shipped bank becomes its name."""
    if not isinstance(value, str):
        return value
    path = PurePath(value)
    shipped = any(path.parent.parts[-len(layout) :] == layout for layout in _SHIPPED_LAYOUTS)
    if shipped and path.suffix == ".yaml":
        return ShippedBank(name=path.stem)  # this install's or an earlier one's: the name is what lasts
    return BankFile(path=value)


BankRef = Annotated[ShippedBank | RunBank | BankFile, Field(discriminator="kind"), BeforeValidator(_stored_path)]


def bank_for(resources: Resources, language: str) -> tuple[BankRef, Bank] | None:
    """The bank a new test uses, and how the session refers to it: the run's own (unless it says
    it places another language), else the one shipped for `language`."""
    if resources.assessment is not None:
        bank = load_bank(resources.assessment)
        if bank.places(language):
            return RunBank(file=resources.assessment.name, digest=bank.digest), bank
    shipped = SHIPPED / f"{language}.yaml"
    if not shipped.is_file():
        return None
    bank = load_shipped(shipped)
    return ShippedBank(name=language, digest=bank.digest), bank


@dataclass(frozen=True)
class Unavailable:
    """Why a test in progress cannot go on with its bank, said to the user before it starts over."""

    reason: str
    detail: str = ""  # for the turn's trace, not the user


def resolve_bank(ref: BankRef, resources: Resources, at: Question, tier: int) -> Bank | Unavailable:
    """The bank a test in progress continues with, found again for this run; `at` is the open question.

    A test goes on only with the bank it began with: a shipped bank while the run gives no
    bank of its own, the run's bank while this run's has the same questions, and an old
    session's file while it exists. Whatever the digest says, the open question must still
    be the bank's question at that place.
    """
    given = resources.assessment
    if isinstance(ref, RunBank):
        if given is None:
            return Unavailable(
                f"The placement test began with the question bank {ref.file}, which this run doesn't have."
            )
        bank = load_bank(given)
        if bank.digest != ref.digest:
            return Unavailable(
                f"The placement test began with the question bank {ref.file}, and this run's bank "
                f"({given.name}) has other questions."
            )
    elif isinstance(ref, ShippedBank):
        path = SHIPPED / f"{ref.name}.yaml"
        if given is not None and load_bank(given).places(ref.name):
            return Unavailable(
                f"The placement test began with the built-in question bank, and this run uses {given.name} instead."
            )
        if not path.is_file():
            return Unavailable(f"The built-in question bank {ref.name!r} the placement test began with is gone.")
        bank = load_shipped(path)
        if ref.digest is not None and bank.digest != ref.digest:
            return Unavailable("The built-in question bank has changed since the placement test began.")
    else:
        path = Path(ref.path)
        if not path.is_file():
            return Unavailable(f"The question bank the placement test began with ({path.name}) can't be found anymore.")
        try:
            bank = load_bank(path)
        except DataFileError as e:
            # no run asked for this file, so its problems are no reason to fail the turn
            return Unavailable(f"The question bank the placement test began with ({path.name}) can't be read.", str(e))
    level = bank.levels.get(LEVELS[tier], [])
    if not (at.level == LEVELS[tier] and at.number <= len(level) and level[at.number - 1] == at):
        return Unavailable("The question bank no longer has the question you were answering.")
    return bank


# -- answering and grading ----------------------------------------------------------------

# "I don't know" as learners say it, in English and in the languages a bank is shipped for
DONT_KNOW = re.compile(
    r"^(?:i don'?t know|dunno|no idea|not sure|skip|pass|\?+|idk|no clue"
    r"|no (?:lo )?s[eé]|ni idea|paso"  # Spanish
    r"|(?:ich )?wei(?:ß|ss) (?:es )?nicht|keine ahnung"  # German
    r"|(?:je )?(?:ne )?sais pas|aucune id[eé]e|je passe)$"  # French
)


def normalise(text: str) -> str:
    """Case, spacing, accents' composition and end punctuation do not make an answer wrong."""
    return fold(text, accents=True).strip(" .!?;:,\"'“”")


def _letter(q: Question, text: str) -> str | None:
    t = normalise(text)
    m = re.fullmatch(r"(?:answer|option|it'?s|it is)?\s*\(?([a-z])\)?[.)]?", t)
    if m and m.group(1) in q.options:
        return m.group(1)
    by_text = [k for k, v in q.options.items() if normalise(v) == t]
    return by_text[0] if by_text else None


def answer_parser(q: Question | None) -> Parser:
    """How to read an answer to `q`: a letter (or the option's text) for choice, any text otherwise.

    "I don't know" is an answer (a wrong one), not a reason to ask again.
    """
    if q is not None and q.is_choice:
        letters = ", ".join(q.options)

        def choice_rule(text: str) -> object:
            if DONT_KNOW.match(normalise(text)):
                return "?"
            found = _letter(q, text)
            return found if found is not None else Invalid(f"Please answer with one letter: {letters}.")

        return Parser(choice_rule, f"one of the letters {letters}")

    def open_rule(text: str) -> object:
        t = text.strip()
        if DONT_KNOW.match(normalise(t)) and not (q is not None and is_correct(q, t)):
            return "?"  # wrong, and no LLM is asked to grade it (unless "pass" is the very answer)
        return t if t else Invalid("Please type your answer (or say “I don't know”).")

    return Parser(open_rule, "your answer in a few words")


def is_correct(q: Question, answer: str | None) -> bool:
    """Rules grading: the choice letter, or any accepted answer, case- and whitespace-insensitive."""
    if answer is None:
        return False
    if q.is_choice:
        return _letter(q, answer) == q.accepted[0]
    given = normalise(answer)
    return any(given == normalise(a) for a in q.accepted)


def render_question(q: Question) -> str:
    head = f"[{q.level} · question {q.number} of {q.of}] {q.text}"
    if not q.is_choice:
        return head
    return head + "\n" + "\n".join(f"  {k}) {v}" for k, v in q.options.items())
