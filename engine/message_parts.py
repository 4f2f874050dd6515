"""A message in parts, and the table of questions back they are told by.

engine/data/questions_back.yaml holds, in six languages, the words that open a question (strong and
weak interrogatives, yes/no openings), that ask about the question itself or its answers, that weigh,
compare or judge a value, that only fill, and the phrases of small talk; `questions_back_table` compiles
them once. `parts` cuts a message at its sentence marks and commas into parts that ask, state, propose
or only fill (lower case, accents off, emoticons blanked, positions those of the message): the readers
of questions back (engine/askback.py) and of small talk (engine/smalltalk.py) look at these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, field_validator

from engine.commands import Social
from engine.cues import fold_same_length
from engine.tables import any_of, compiles, load_table

QUESTIONS_BACK_FILE = Path(__file__).parent / "data" / "questions_back.yaml"

About = Literal["why", "meaning", "options", "other"]
SOCIAL: tuple[Social, ...] = get_args(Social)


class _Openings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    strong: list[str]
    weak: list[str]

    _check = field_validator("strong", "weak")(classmethod(lambda cls, v: compiles(v)))


class _About(BaseModel):
    model_config = ConfigDict(extra="forbid")
    why: list[str]
    options: list[str]
    meaning: list[str]

    _check = field_validator("why", "options", "meaning")(classmethod(lambda cls, v: compiles(v)))


class _Talk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    say: str
    phrases: list[str]

    _check = field_validator("phrases")(classmethod(lambda cls, v: compiles(v)))


class QuestionsBackTable(BaseModel):
    """engine/data/questions_back.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid")
    interrogatives: _Openings
    polar: list[str]
    weighing: list[str]
    comparing: list[str]
    judging: list[str]
    judging_conditional: list[str]
    proposals: list[str]
    about: _About
    about_the_question_tail: str
    about_the_question: list[str]
    about_the_answer: list[str]
    elsewhere: list[str]
    help: list[str]
    plain_words: list[str]
    meaning_words: list[str]
    filler: list[str]
    talk_tail: list[str]
    wellbeing: list[str]
    disputing: list[str]
    chitchat: dict[Social, _Talk]

    _check = field_validator(
        "polar",
        "weighing",
        "comparing",
        "judging",
        "judging_conditional",
        "proposals",
        "about_the_question",
        "about_the_answer",
        "elsewhere",
        "help",
        "talk_tail",
        "disputing",
    )(classmethod(lambda cls, v: compiles(v)))

    @field_validator("about_the_question_tail")
    @classmethod
    def _tail_compiles(cls, value: str) -> str:
        return compiles([value])[0]

    @field_validator("chitchat")
    @classmethod
    def _every_kind(cls, value: dict[Social, _Talk]) -> dict[Social, _Talk]:
        missing = [k for k in SOCIAL if k not in value]
        if missing:
            raise ValueError(f"chitchat needs every kind {list(SOCIAL)}; missing {missing}")
        return value


def load_questions_back(path: Path = QUESTIONS_BACK_FILE) -> QuestionsBackTable:
    """The table, validated; a broken file says what to fix."""
    return load_table(path, QuestionsBackTable, "questions-back table")


@dataclass(frozen=True)
class QuestionsBackPatterns:
    strong: re.Pattern[str]
    weak: re.Pattern[str]
    polar: re.Pattern[str]
    weighing: re.Pattern[str]
    comparing: re.Pattern[str]
    judging: re.Pattern[str]
    judging_conditional: re.Pattern[str]
    proposal: re.Pattern[str]
    about: tuple[tuple[About, re.Pattern[str]], ...]
    itself: re.Pattern[str]
    how_to_answer: re.Pattern[str]
    elsewhere: re.Pattern[str]
    help: re.Pattern[str]
    plain: frozenset[str]
    meaning_words: frozenset[str]
    filler: frozenset[str]
    wellbeing: frozenset[str]
    disputing: re.Pattern[str]
    talk: tuple[tuple[Social, re.Pattern[str]], ...]
    say: dict[Social, str]


@lru_cache(maxsize=1)
def questions_back_table() -> QuestionsBackPatterns:
    t = load_questions_back()
    opening = r"\A(?:{})(?![\w'])"
    word = r"(?<![\w']){}(?![\w'])"
    about: list[tuple[About, re.Pattern[str]]] = [
        ("why", re.compile(word.format(any_of(t.about.why)))),
        ("options", re.compile(word.format(any_of(t.about.options)))),
        ("meaning", re.compile(word.format(any_of(t.about.meaning)))),
    ]
    tail = t.about_the_question_tail
    return QuestionsBackPatterns(
        strong=re.compile(opening.format(any_of(t.interrogatives.strong))),
        weak=re.compile(opening.format(any_of(t.interrogatives.weak))),
        polar=re.compile(r"\A" + any_of(t.polar)),
        weighing=re.compile(r"(?<![\w'])" + any_of(t.weighing) + r"(?![\w'])"),
        comparing=re.compile(r"(?<![\w'])" + any_of(t.comparing) + r"(?![\w'])"),
        judging=re.compile(r"(?<![\w'])" + any_of(t.judging) + r"(?![\w'])"),
        judging_conditional=re.compile(r"(?<![\w'])" + any_of(t.judging_conditional) + r"(?![\w'])"),
        proposal=re.compile(opening.format(any_of(t.proposals))),
        about=tuple(about),
        # matched from a word's start only: searched anywhere, "h+i+" would start a run at every "h" of "hhhh…"
        itself=re.compile(rf"(?<![\w']){any_of(t.about_the_question)}(?: {tail})*"),
        how_to_answer=re.compile(opening.format(any_of(t.about_the_answer))),
        elsewhere=re.compile(r"(?<![\w'])" + any_of(t.elsewhere)),
        help=re.compile(any_of(t.help)),
        plain=frozenset(w for line in t.plain_words for w in fold_same_length(line).split()),
        meaning_words=frozenset(w for line in t.meaning_words for w in fold_same_length(line).split()),
        filler=frozenset(t.filler),
        wellbeing=frozenset(f"{w} {thanks}".strip() for w in t.wellbeing for thanks in ("", *THANKED) if w),
        disputing=re.compile(r"(?<![\w'])(?:" + any_of(t.disputing) + r")(?![\w'])"),
        # small talk may end in words that say nothing more ("this is fun so far", "you're slow today lol")
        talk=tuple(
            (k, re.compile(rf"(?<![\w'])(?:{any_of(v.phrases)})(?: {any_of(t.talk_tail)})*"))
            for k, v in t.chitchat.items()
        ),
        say={k: v.say for k, v in t.chitchat.items()},
    )


# thanks said after how the user is ("bene grazie, e tu?")
THANKED = ("thanks", "thank you", "thx", "gracias", "merci", "danke", "grazie", "obrigado", "obrigada")


Role = Literal["filler", "statement", "question", "open", "polar", "proposal"]


@dataclass(frozen=True)
class Part:
    """A comma-separated part of a sentence: its words (folded, filler trimmed) and where it is typed."""

    folded: str
    start: int
    end: int
    role: Role


_SENTENCE = re.compile(r"[?!.;…¿¡]+|\s[-–—]+\s|\s[-–—]+$|^[-–—]+\s")
WORDS = re.compile(r"[\w'’-]+")


def _trimmed(folded: str) -> tuple[str, int, int]:
    """The words of `folded` without the filler it opens with ("hmm so what ..."), and where they are
    in it; filler at the end stays ("is 4 ok?")."""
    table = questions_back_table()
    spans = [(m.group(), m.start(), m.end()) for m in WORDS.finditer(folded)]
    while spans and spans[0][0].strip("-'") in table.filler:
        spans.pop(0)
    if not spans:
        return "", 0, 0
    start, end = spans[0][1], spans[-1][2]
    return " ".join(w for w, _, _ in spans), start, end


# a face typed with punctuation (":)", ":D", ";-)", "xD", "<3"): it says nothing in words; read as blank, the
# same length, so the positions of the words stay those of the message
EMOTICONS = re.compile(r"(?<![\w:;=])(?:[:;=][-'^]?[)(\]\[dDpPoO3/\\|*]++|[xX][dD]++|<3++|\^\^|\^_\^)(?![\w])")


def folded(text: str) -> str:
    """The message as its parts are cut from it (`parts`): lower case, accents off, emoticons blanked."""
    return folded_text(text)


def folded_text(text: str) -> str:
    """`fold_same_length`, without its per-character walk for the plain ASCII most messages are;
    emoticons blanked."""
    folded = text.lower() if text.isascii() else fold_same_length(text)
    return EMOTICONS.sub(lambda m: " " * len(m.group()), folded) if _MAY_EMOTE.search(folded) else folded


_MAY_EMOTE = re.compile(r"[:;=<^]|\bx")


@lru_cache(maxsize=256)
def parts(text: str) -> tuple[Part, ...]:
    """`text` in the parts that ask, state or only fill, in order."""
    table = questions_back_table()
    folded = folded_text(text)
    out: list[Part] = []
    last = 0
    bounds = [(m.start(), m.end(), m.group()) for m in _SENTENCE.finditer(folded)] + [(len(folded), len(folded), "")]
    for start, end, mark in bounds:
        sentence = folded[last:start]
        asked = "?" in mark or "¿" in folded[max(0, last - 1) : last + 1]
        pieces = [(m.start(), m.end()) for m in re.finditer(r"[^,]+", sentence)]
        proposing = False
        for n, (a, b) in enumerate(pieces):
            words, i, j = _trimmed(sentence[a:b])
            if not words:
                continue
            at = last + a
            ends_asked = asked and n == len(pieces) - 1
            role = _role(words, ends_asked, table)
            # what a proposal puts forward may go on past a comma ("¿qué tal lunes, miércoles y viernes?", "how about
            # Mon, Wed, Fri?"): a piece after it that asks in no words of its own is more of it, not a question
            if proposing and role in ("question", "statement"):
                role = "proposal"
            proposing = role == "proposal"
            out.append(Part(words, at + i, at + j, role))
        last = end
    return tuple(out)


def _role(words: str, asked: bool, table: QuestionsBackPatterns) -> Role:
    if asked and table.comparing.search(words):
        return "open"  # "e lo stesso per iPhone e iPad?" asks whether they are the same, proposing neither
    if table.proposal.search(words):
        return "proposal"
    one_word = " " not in words
    if one_word and not asked and not table.itself.fullmatch(words):
        return "statement"  # "Chi", "Was": names and answers before they are questions
    # "does a yoga mat count?", "is 15 minutes even worth it?" weigh what they name against the question:
    # they ask, as an open question does
    if (table.weighing.search(words) or table.comparing.search(words)) and (asked or table.polar.search(words)):
        return "open"
    # "is 2 hours enough?", "¿2 horas es suficiente?", "5 minutos de atraso é normal?" say of the value whether it
    # will do: they ask about it, as a weighing does, though they name nothing it is weighed against; in the
    # conditional ("would 30 minutes be enough?") the value is put forward, a tentative answer
    if asked and table.judging.search(words) and not table.judging_conditional.search(words):
        return "open"
    if table.strong.search(words) or (asked and table.weak.search(words)):
        return "polar" if table.polar.search(words) else "open"
    return "question" if asked else "statement"


def asked_about(words: str) -> About:
    for about, pattern in questions_back_table().about:
        if pattern.search(words):
            return about
    return "other"


# a question back beside an answer is a few words of its own ("why?", "¿por qué?", "warum?")
_WHY_BESIDE_WORDS = 3


def asks_why_beside(text: str) -> bool:
    """Whether a message that answers also asks why, in a part of its own of a few words: "on my iphone, why?",
    "Berlin. ¿por qué?", "3 - warum?", "iphone, perché?". The answer is taken; the why is answered from the
    question's declared reason, not dropped."""
    found = parts(text)
    return len(found) > 1 and any(
        p.role in ("question", "open") and len(p.folded.split()) <= _WHY_BESIDE_WORDS and asked_about(p.folded) == "why"
        for p in found[1:]
    )
