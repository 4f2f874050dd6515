"""The placement test: which bank a test uses, and reading and grading its answers.

A test in progress names its bank by a `BankRef`, never by a file path (the install, or the
file given for a run, may move while a session waits): a shipped bank by its name, the
run's own bank as "the run's bank", each with a digest of its questions, so a session
resumed on another bank than the one it started with is told so instead of being asked the
wrong questions. The banks themselves (format, loading, checks): bank_file.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from engine import DataFileError, Invalid, Parser, Resources, picked
from engine.cues import in_english_cues
from engine.extract import fold
from engine.gloss import in_english
from engine.said import clauses, says_unsure
from flows.language_buddy.bank_file import CEFR, LEVELS, Bank, Question, load_bank, load_shipped, normalise

SHIPPED = Path(__file__).parent / "data" / "assessment"


def shipped_banks() -> list[Path]:
    return sorted(SHIPPED.glob("*.yaml"))


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


def dont_know(text: str) -> bool:
    """Whether `text` says "I don't know" or passes, in six languages (the engine's command
    phrases, engine/data/commands.yaml, and its cue table's translations)."""
    return says_unsure(text) or says_unsure(in_english_cues(text))


def _letter(q: Question, text: str) -> str | None:
    # a listed option: its letter, its text or its place (engine/options.py), in six languages
    key = picked(text, q.options)
    if key is not None:
        return key
    t = normalise(text)
    return next((k for k, v in q.options.items() if normalise(v) == t), None)


def answer_parser(q: Question | None) -> Parser:
    """How to read an answer to `q`: a letter (or the option's text) for choice, any text otherwise.

    "I don't know" is an answer (a wrong one), not a reason to ask again.
    """
    if q is not None and q.is_choice:
        letters = ", ".join(q.options)

        def choice_rule(text: str) -> object:
            # an option's own text first: "any" is an option here, not "any will do"
            found = _letter(q, text)
            if found is None and dont_know(text):
                return "?"
            return found if found is not None else Invalid(f"Please answer with one letter: {letters}.")

        return Parser(choice_rule, f"one of the letters {letters}", guesses=True)

    def open_rule(text: str) -> object:
        t = text.strip()
        if dont_know(t) and not (q is not None and is_correct(q, t)):
            return "?"  # wrong, and no LLM is asked to grade it (unless "pass" is the very answer)
        return t if t else Invalid("Please type your answer (or say “I don't know”).")

    return Parser(open_rule, "your answer in a few words", guesses=True)


def answers_it(q: Question, text: str) -> bool:
    """Whether `text` is an answer to `q` as typed: an option picked, or an accepted answer."""
    return (q.is_choice and _letter(q, text) is not None) or is_correct(q, text)


def is_correct(q: Question, answer: str | None) -> bool:
    """Rules grading: the choice letter, or any accepted answer, case- and whitespace-insensitive."""
    if answer is None:
        return False
    if q.is_choice:
        return _letter(q, answer) == q.accepted[0]
    # "children creo", "went i guess": the answer without a hedge around it (engine/said.py's filler)
    parts = clauses(answer)
    given = {normalise(answer), *(normalise(f) for f in parts[0] if f)} if len(parts) == 1 else {normalise(answer)}
    return any(normalise(a) in given for a in q.accepted)


def render_question(q: Question) -> str:
    head = f"[{q.level} · question {q.number} of {q.of}] {q.text}"
    if not q.is_choice:
        return head
    return head + "\n" + "\n".join(f"  {k}) {v}" for k, v in q.options.items())


# -- a level the learner gives instead of an answer ----------------------------------------

# what learners call the levels (engine/data/gloss.yaml gives these words in English first:
# "débutante", "Anfänger", "principiante" are "beginner")
_LEVEL_NAMES: dict[CEFR, tuple[str, ...]] = {
    "A1": ("beginner", "total beginner", "complete beginner", "absolute beginner", "from scratch", "from zero"),
    "A2": ("elementary", "pre-intermediate", "pre intermediate", "false beginner"),
    "B1": ("intermediate", "lower intermediate"),
    "B2": ("upper intermediate", "upper-intermediate"),
    "C1": ("advanced", "fluent"),
    "C2": ("proficient", "near native", "near-native", "native-like", "bilingual"),
}
_NAMED_LEVEL = re.compile(
    r"\b(?:"
    + "|".join(re.escape(n) for n in sorted((n for ns in _LEVEL_NAMES.values() for n in ns), key=len, reverse=True))
    + r"|[abc][12])\b"
)
_BY_NAME = {name: level for level, names in _LEVEL_NAMES.items() for name in names}
_CEFR: dict[str, CEFR] = {"A1": "A1", "A2": "A2", "B1": "B1", "B2": "B2", "C1": "C1", "C2": "C2"}
_SKIP_TEST = re.compile(
    r"\b(?:skip|stop|no|without|don'?t (?:want|need)(?: to (?:do|take))?|rather not (?:do|take))\s+"
    r"(?:the |this |a |any )?(?:placement )?(?:test|quiz|questions)\b"
)


def self_placed(text: str) -> CEFR | None:
    """The level a learner gives instead of answering ("idk, im a total beginner", "just start me at
    B1", "débutante je pense"), in six languages; None when none, or two different ones, are named."""
    t = fold(in_english(in_english_cues(text)))
    named = {_BY_NAME.get(m.group()) or _CEFR[m.group().upper()] for m in _NAMED_LEVEL.finditer(t)}
    return named.pop() if len(named) == 1 else None


def skips_test(text: str) -> bool:
    """Whether `text` asks to leave the placement test ("skip the test pls", "no more questions")."""
    return bool(_SKIP_TEST.search(fold(in_english_cues(text))))
