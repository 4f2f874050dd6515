"""Answers to clarifying questions said outside their own turn.

"my Android 13 phone crashes when I open the app" already says which app; "refund please,
order #48213" already gives the order number. The clarification flow reads every message
(the opening one included) with `given_reader`, through the engine's `fills`, for:

- questions still to come: their answer is noted and the question is not asked;
- questions already answered are corrected by the engine (engine/corrections.py) through
  `corrects`: each answered question is a `Correctable` answer, named by its question's words
  ("wait, I actually bought it on the website", "oops, the order is 7781").

Only answers a message states unmistakably are read: a choice by one of its own words or
synonyms (no close spellings), a number written right beside a word of its question
("Android 13", "3 days ago", "order #48213"), a free-text question by one of the `cues` its
document lists ("samsung s21" answers "Which phone model do you use?"), a yes/no question by a
clause that holds its words and says yes or no ("battery saver is on", "reinstalling didn't
help"). A free-text question without cues is never read ahead, nor a bare "no": without being
asked, it answers nothing in particular.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from engine import Correctable
from engine.extract import Invalid, Parser, choice, fold, numbers
from engine.fact_clauses import clauses
from engine.numwords import spelled_out
from flows.support.kb import Question
from flows.support.products import without_names
from flows.support.questions import (
    Answer,
    ClarificationSlots,
    asks_when,
    choice_words,
    current,
    in_asked_unit,
    in_asked_units,
    out_of_bounds,
)
from flows.support.sides import troubled
from flows.support.terms import SEARCH_WORDS, STOPWORDS

# the short forms of the words a number is counted in
_SHORT = {"minute": "min", "hour": "hr", "second": "sec"}
# words a number question shares with every other one: no anchor for its number
_GENERIC = frozenset({"many", "much", "number", "which", "what", "about", "were", "your", "long"})
# what may follow a cue as part of the name ("pixel 7 pro"), besides words with digits
_MODEL_WORDS = SEARCH_WORDS.get("model_words", frozenset())


# built once per question (a question holds lists, so its JSON is the cache key)
@cache
def _choice_reader(question: str) -> Parser:
    q = Question.model_validate_json(question)
    return choice(choice_words(q.choices, q.synonyms), fuzzy=False)


@cache
def _anchors(question: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A number beside one of the question's own words: after it ("android 13", "order #48213"),
    and before it ("13 days"), as two patterns, since the first reading wins (`_anchored`)."""
    q = Question.model_validate_json(question)
    words = [w for w in re.findall(r"[a-z]+", fold(q.text)) if len(w) >= 3 and w not in STOPWORDS | _GENERIC]
    stems = sorted({w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}, key=len, reverse=True)
    if not stems:
        never = re.compile(r"(?!)")  # nothing to anchor to: never read ahead
        return never, never
    word = rf"(?:{'|'.join(re.escape(s) for s in stems)})\w*"
    # a unit is written short too ("15 min", "2 hrs"), as a word of its own: "iPhone 12 mini" is no 12 minutes
    shorts = [short for stem, short in _SHORT.items() if stem in stems]
    if shorts:
        word = rf"(?:{word}|(?:{'|'.join(shorts)})s?\b)"
    number = r"(\d+(?:[.,]\d+)?)"
    return (
        re.compile(rf"\b{word}\s*(?:#|no\.?|nr\.?|number|num|version|v)?\s*[:#]?\s*{number}(?![\w.])"),
        re.compile(rf"(?<![\w.]){number}\s*{word}\b"),
    )


def _anchored(q: Question, text: str) -> set[float]:
    """The numbers `text` anchors to `q`. A word then its number ("android 13") is read first: in
    "redmi note 12 android 13" the 12 before "android" is the phone's, not the version."""
    for pattern in _anchors(q.model_dump_json()):
        said = {m.group(1) for m in pattern.finditer(fold(spelled_out(text)))}
        values = {n for s in said for n in numbers(s)}
        if values:
            return values
    return set()


def named(q: Question, text: str) -> str | None:
    """The name a cue of `q` starts in `text`, with the model words after it: "samsung galaxy s21"."""
    tokens = re.findall(r"\w+", fold(text))
    cues = [c.casefold().split() for c in q.cues]
    for i in range(len(tokens)):
        cue = next((c for c in cues if tokens[i : i + len(c)] == c), None)
        if cue is None:
            continue
        end = i + len(cue)
        while end < len(tokens) and (
            re.search(r"\d", tokens[end]) or tokens[end] in _MODEL_WORDS or [tokens[end]] in cues
        ):
            end += 1
        return " ".join(tokens[i:end])
    return None


def read_answer(q: Question, text: str, questions: Sequence[Question] = ()) -> Answer | None:
    """The answer `text` states to `q` without being asked it; None when it states none. With the
    document's `questions`, a number that is part of a product's name is no number answer."""
    if q.type == "choice":
        found = _choice_reader(q.model_dump_json())(text)
        if isinstance(found, Invalid):  # several named: the one with the problem, when the rest are aside
            found = troubled(choice_words(q.choices, q.synonyms), text)
        return found if isinstance(found, str) else None
    if q.type == "number":
        # "half an hour late" at a question in minutes: "30 minutes late", beside the question's word
        said = in_asked_units(q, without_names(questions, q, text) if questions else text)
        values = _anchored(q, said)
        if len(values) != 1:
            return None
        value = values.pop()
        if out_of_bounds(q, value):
            return None
        return int(value) if value.is_integer() else value
    if q.type == "text" and q.cues:
        return named(q, text)
    if asks_when(q):
        return _when(q, text)
    if q.type == "yes_no":
        return _yes_or_no(q, text)
    return None


# A yes or a no said ahead must be said, beside the question's own words: "battery saver is on",
# "reinstalling didn't help", "yes it was charged twice"; "I was charged last month" says neither.
_NO = re.compile(
    r"\b(?:no|nope|not|never|didn'?t|doesn'?t|don'?t|isn'?t|wasn'?t|aren'?t|haven'?t|hasn'?t|is off|turned off"
    r"|nein|nicht|kein\w*|ist aus|pas|non|nao|n[aã]o)\b"
)
_YES = re.compile(r"\b(?:yes|yeah|yep|is on|turned on|did help|helped|ja|ist an|oui|s[ií]|sim)\b")


@cache
def _question_words(question: str) -> tuple[str, ...]:
    q = Question.model_validate_json(question)
    words = re.findall(r"[a-z]+", fold(q.text))
    # compared by their start: "reinstalling" is "reinstall", "charged" is "charge"
    return tuple(sorted({w[:6] for w in words if len(w) >= 5 and w not in STOPWORDS | _GENERIC | _QUESTION_WORDS}))


# how many words may stand between a word of the question and the yes or no said of it: "reinstalling
# didn't help" says no to reinstalling, "logged into my account from a device I don't recognize"
# says nothing of the account
_NEAR = 4


def _yes_or_no(q: Question, text: str) -> bool | None:
    """A clause that names the question by its words and says yes or no to them."""
    stems = _question_words(q.model_dump_json())
    said: set[bool] = set()
    for clause in clauses(text):
        t = fold(clause.text)
        words = list(re.finditer(r"[a-z']+", t))
        named = [i for i, w in enumerate(words) if len(w.group()) >= 5 and w.group()[:6] in stems]
        if not named:
            continue
        for answer, pattern in ((False, _NO), (True, _YES)):
            found = [_word_at(words, m.start()) for m in pattern.finditer(t)]
            if any(abs(f - n) <= _NEAR for f in found for n in named):
                said.add(answer)
                break
    return said.pop() if len(said) == 1 else None


# a time said of when something happened: "this morning", "yesterday", "3 days ago", "last week", "on monday"
_TIME_SAID = re.compile(
    r"\b(?:today|tonight|yesterday|this (?:morning|afternoon|evening|week|month)|last (?:night|week|month|\w+day)"
    r"|(?:\d+|an?|one|two|three|few|a few|couple of) (?:minutes?|hours?|days?|weeks?|months?) ago|on \w+day"
    r"|since (?:yesterday|last \w+|\w+day|\d+))\b"
)


def _when(q: Question, text: str) -> str | None:
    """At a question asking when ("When did you first notice the suspicious activity?"), a clause that
    says it with the question's own verb and a time ("noticed it this morning"), as the user said it."""
    stems = _question_words(q.model_dump_json())
    for clause in clauses(text):
        t = fold(clause.text)
        said = any(len(w) >= 5 and w[:6] in stems for w in re.findall(r"[a-z']+", t))
        if said and _TIME_SAID.search(t):
            return clause.text.strip(" .!?")
    return None


def _word_at(words: list[re.Match[str]], at: int) -> int:
    """The index of the word that starts at or holds character `at`."""
    return next((i for i, w in enumerate(words) if w.end() > at), len(words))


def given_reader(s: ClarificationSlots) -> Parser:
    """Reads a message for answers to the document's questions other than the one being asked."""

    def rule(text: str) -> object:
        new: dict[str, Answer] = {}
        for i, q in enumerate(s.questions):
            if i < s.current_index or (i == s.current_index and s.opened):
                continue  # asked already: a change of an answer is a correction (`corrects`)
            value = read_answer(q, text, s.questions)
            if value is not None and value != s.given.get(q.text, s.parsed.get(q.text)):
                new[q.text] = value
        return {**s.given, **new} if new else None

    return Parser(rule, "answers to the questions still to come")


def corrects(s: ClarificationSlots) -> list[Correctable]:
    """The questions answered so far, each a correctable answer (engine/corrections.py): named by
    its question's own words, read the way an answer to it said ahead is, holding its answer."""
    out: list[Correctable] = []
    for q in s.questions[: s.current_index]:
        if q.text not in s.parsed or q.type == "yes_no":
            continue  # a yes or a no corrects nothing in particular
        words = tuple(w for w in re.findall(r"[a-z]+", fold(q.text)) if len(w) >= 4 and w not in _QUESTION_WORDS)
        out.append(
            Correctable(
                "given", names=words, parser=_correction_reader(q.model_dump_json()), key=q.text,
                current=s.parsed[q.text], by_value=q.type != "text" or bool(q.cues),
            )
        )  # fmt: skip
    return out


# words every question has: they name none in particular
_QUESTION_WORDS = frozenset({"which", "what", "where", "when", "many", "much", "your", "does", "have", "were", "this",
                             "that", "with", "from", "about", "there", "long", "ago"})  # fmt: skip


@cache
def _correction_reader(question: str) -> Parser:
    """A new answer to an answered question: a choice by its words, a number within bounds, a named model."""
    q = Question.model_validate_json(question)
    if q.type == "choice":
        return _choice_reader(question)

    def rule(text: str) -> object:
        if q.type == "number":
            # "more like half an hour" to "how many minutes late?": read in the question's unit, as its answer is
            converted = in_asked_unit(q, text)
            if isinstance(converted, int) and not out_of_bounds(q, converted):
                return converted
            found = numbers(text)
            if len(found) != 1 or out_of_bounds(q, found[0]):
                return None
            return int(found[0]) if found[0].is_integer() else found[0]
        return named(q, text) if q.cues else None

    return Parser(rule, f"a new answer to {q.text!r}")


def shown(value: object) -> str:
    """How noted answers read: "Which app crashes? Android"."""
    if isinstance(value, dict):
        return "; ".join(f"{q} {a}" for q, a in value.items())
    return str(value)


def stated(questions: list[Question], noted: dict[str, Answer]) -> str:
    """Answers read from a message as the facts they are: "the Android app; Android 13", each
    by its question's `fact`; a question without one is shown with its answer."""
    facts = {q.text: q.fact for q in questions}
    return "; ".join(
        fact.replace("{}", str(value)) if (fact := facts.get(text)) else f"{text} {value}"
        for text, value in noted.items()
    )


def settle(s: ClarificationSlots) -> list[str]:
    """Move noted answers into the answers: corrections of answered questions, and the
    questions now due, which are then not asked. Returns the questions settled."""
    settled: list[str] = []
    pending = dict(s.given)
    for q_text in [q for q in pending if q in s.parsed]:
        value = pending.pop(q_text)
        s.parsed, s.answers = {**s.parsed, q_text: value}, {**s.answers, q_text: str(value)}
        settled.append(q_text)
    while (q := current(s)) is not None and q.text in pending:
        value = pending.pop(q.text)
        s.parsed, s.answers = {**s.parsed, q.text: value}, {**s.answers, q.text: str(value)}
        settled.append(q.text)
        s.current_index += 1
    s.given = pending
    return settled
