"""The clarifying queue's slots, and how each typed question reads its answer.

A question of the knowledge base is text, number (within its bounds), yes/no or a choice
(with its synonyms); the slots keep one answer slot per type, validated against the
question being asked, so an answer a model read is held to the same limits as the rules'.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from pydantic import Field, model_validator

from engine import Slots, listed_choice, words_answer
from engine.echo import read_yes_no_to
from engine.extract import Invalid, Parser, fold, numbers
from engine.numwords import spelled_out
from engine.yesno import read_yes_no as _read_yes_no
from flows.support.kb import Question
from flows.support.lookup import ABROAD
from flows.support.products import without_names
from flows.support.sides import troubled

if TYPE_CHECKING:
    import pint

Answer = int | float | bool | str


class ClarificationSlots(Slots):
    # the document, copied in when the flow starts
    doc: str = ""
    title: str = ""
    body: str = ""
    questions: list[Question] = Field(default_factory=list)
    requires_handoff: bool = False
    query: str = ""
    # the queue
    current_index: int = Field(0, ge=0)
    answers: dict[str, str] = Field(default_factory=dict)
    parsed: dict[str, Answer] = Field(default_factory=dict)
    skipped: list[str] = Field(default_factory=list)
    # answers said outside their question's turn (flows/support/ahead.py), by question text:
    # read ahead, or corrections of answers already given; they join `answers` at the next route,
    # a correction at once: `route` declares it reads this slot, so the engine runs it again (engine/answers.py `rerun`)
    given: dict[str, Answer] = Field(default_factory=dict)
    # a new request said during the queue ("actually my payment failed too"), answered after it
    later: str | None = None
    # the article that request found, when it needs a person and no questions: the run hands off for it
    later_doc: str | None = None
    later_title: str | None = None
    # the queue has been entered: the question at `current_index` is the one being asked
    opened: bool = False
    # the words of the message that answered, when the rest of it was a new request
    # ("iphone 12" of "iphone 12, also my reminders dont ring"); emptied once recorded
    said: str | None = None
    # the current question's answer, one slot per answer type; emptied once recorded
    text_answer: str | None = None
    number_answer: int | float | None = None
    yes_no_answer: bool | None = None
    choice_answer: str | None = None

    @model_validator(mode="after")
    def _answer_fits_question(self) -> ClarificationSlots:
        # the rule parsers already keep to bounds and choices; this also holds an answer an
        # LLM read (its schema only knows the slot's type) to the question's own limits
        q = current(self)
        if q is not None:
            problem = out_of_bounds(q, self.number_answer) or not_a_choice(q, self.choice_answer)
            if problem:
                raise ValueError(problem)
        # a noted answer (a model may have read it too) must answer one of the questions, as typed
        by_text = {q.text: q for q in self.questions}
        for text, value in self.given.items():
            asked = by_text.get(text)
            problem = fits(asked, value) if asked else f"{text!r} is not a question of this document"
            if problem:
                raise ValueError(problem)
        return self


def current(s: ClarificationSlots) -> Question | None:
    return s.questions[s.current_index] if s.current_index < len(s.questions) else None


def out_of_bounds(q: Question, value: int | float | None) -> str | None:
    if value is None or q.type != "number":
        return None
    if q.min is not None and value < q.min:
        return f"{value:g} is below {q.min:g}"
    if q.max is not None and value > q.max:
        return f"{value:g} is above {q.max:g}"
    return None


def not_a_choice(q: Question, value: str | None) -> str | None:
    if value is None or q.type != "choice" or value in q.choices:
        return None
    return f"{value!r} is not one of: {', '.join(q.choices)}"


def asks_when(q: Question) -> bool:
    """A text question asking when something happened: a clause with its verb and a time answers it ahead."""
    return q.type == "text" and q.text.lower().startswith("when ")


def fits(q: Question, value: Answer) -> str | None:
    """Why `value` cannot answer `q` said out of turn (its type, bounds or choices), or None."""
    if q.type == "choice":
        return None if isinstance(value, str) and value in q.choices else f"{value!r} is not one of {q.choices}"
    if q.type == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{value!r} is not a number"
        return out_of_bounds(q, value)
    if q.type == "text" and (q.cues or asks_when(q)):
        return None if isinstance(value, str) and value.strip() else f"{value!r} is no text"
    if q.type == "yes_no":
        return None if isinstance(value, bool) else f"{value!r} is no yes or no"
    return f"a {q.type} question is not answered out of turn"


def expects_number(q: Question | None) -> str:
    if q is None or (q.min is None and q.max is None):
        return "a number"
    if q.min is not None and q.max is not None:
        return f"a number from {q.min:g} to {q.max:g}"
    if q.min is not None:
        return f"a number of at least {q.min:g}"
    return f"a number up to {q.max:g}"


# a time unit as people write it, and the unit pint knows it by
_UNIT_WORDS = {"min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute", "hr": "hour",
               "hrs": "hour", "hour": "hour", "hours": "hour", "day": "day", "days": "day", "wk": "week",
               "wks": "week", "week": "week", "weeks": "week", "fortnight": "fortnight", "fortnights": "fortnight",
               "month": "month", "months": "month"}  # fmt: skip
# a day said by its name, as days ago, at a question in days ("How many days ago were you charged?")
_DAYS_AGO = re.compile(r"\b(?:(the day before yesterday)|(yesterday)|(today|this morning|earlier today))\b")
_UNIT = "|".join(sorted(_UNIT_WORDS, key=len, reverse=True))
_ASKED_UNIT = re.compile(rf"\b({_UNIT})\b")
# "2 weeks", "an hour", "half an hour", "an hour and a half", "one and a half hours", "a quarter of an hour"
_AMOUNT = re.compile(
    rf"(?<![\w.])(?:(?P<n>\d+(?:[.,]\d+)?|an?|one)(?P<half>\s+and\s+a\s+half)?|(?P<part>half|a quarter|"
    rf"three quarters)(?:\s+of)?\s+an?)\s*(?P<unit>{_UNIT})\b(?P<half2>\s+and\s+a\s+half)?"
)
_PARTS = {"half": 0.5, "a quarter": 0.25, "three quarters": 0.75}


def _amount(m: re.Match[str]) -> float:
    """How many of its unit an `_AMOUNT` match says: "an hour and a half" is 1.5."""
    if m.group("part"):
        return _PARTS[m.group("part")]
    n = m.group("n")
    whole = 1.0 if n in ("a", "an", "one") else float(n.replace(",", "."))
    return whole + (0.5 if m.group("half") or m.group("half2") else 0.0)


def _converted(m: re.Match[str], to: str) -> float:
    ureg = _units()
    quantity = ureg.Quantity(_amount(m), ureg.parse_units(_UNIT_WORDS[m.group("unit")]))
    return float(quantity.to(ureg.parse_units(to)).magnitude)


def in_asked_units(q: Question, text: str) -> str:
    """`text` with the amounts it says in another time unit than the number question `q`'s restated in
    `q`'s unit, when they come to a whole number of it ("half an hour late" is "30 minutes late")."""
    asked = _ASKED_UNIT.search(fold(q.text)) if q.type == "number" else None
    if asked is None:
        return text
    to = _UNIT_WORDS[asked.group(1)]

    def restated(m: re.Match[str]) -> str:
        if _UNIT_WORDS[m.group("unit")] == to:
            return m.group(0)
        value = _converted(m, to)
        return f"{round(value)} {to}s" if math.isclose(value, round(value)) else m.group(0)

    return _AMOUNT.sub(restated, spelled_out(fold(text)))


@cache
def _units() -> pint.UnitRegistry[float]:
    # built on first use: loading pint's definitions takes a few hundred milliseconds, and
    # importing pint as much again, which every process paid at start (each test worker too)
    import pint

    return pint.UnitRegistry()


def in_asked_unit(q: Question | None, text: str) -> int | Invalid | None:
    """An amount said in another time unit than the question's ("2 weeks" at "How many days
    ago?") in the question's unit; None when the message names no other unit.

    A month has no whole number of days: asked again rather than guessed.
    """
    asked = _ASKED_UNIT.search(fold(q.text)) if q is not None and q.type == "number" else None
    if asked is not None and q is not None and _UNIT_WORDS[asked.group(1)] == "day" and "ago" in fold(q.text):
        day = _DAYS_AGO.search(fold(text))
        if day is not None and not numbers(text):
            return 2 if day.group(1) else 1 if day.group(2) else 0
    said = _AMOUNT.search(spelled_out(fold(text))) if asked is not None else None
    if asked is None or said is None:
        return None
    unit, to = _UNIT_WORDS[said.group("unit")], _UNIT_WORDS[asked.group(1)]
    if unit == to and not said.group("part") and not said.group("half") and not said.group("half2"):
        return None  # "3 days" at a question in days: the plain number reader has it
    value = _converted(said, to)
    if not math.isclose(value, round(value)):
        return Invalid(f"I can't tell exactly how many {to}s {said.group(0)} is.")
    return round(value)


def number_parser(s: ClarificationSlots) -> Parser:
    q = current(s)

    def rule(text: str) -> object:
        converted = in_asked_unit(q, text)
        if isinstance(converted, Invalid):
            return converted
        if converted is not None:
            problem = out_of_bounds(q, converted) if q else None
            return Invalid(f"{problem}.") if problem else converted
        # "iphone 12 mini, about 20": the 12 is the phone's name, no number said to this question
        found = numbers(without_names(s.questions, q, text) if q else text)
        if not found:
            return None  # an LLM may still read "Tiramisu" as 13
        if len(set(found)) > 1:
            return Invalid("I read several numbers there.")
        value = found[0]
        problem = out_of_bounds(q, value) if q else None
        if problem:
            return Invalid(f"{problem}.")  # the reprompt that follows says what is expected
        return int(value) if value.is_integer() else value

    return Parser(rule, expects_number(q))


def choice_parser(s: ClarificationSlots) -> Parser:
    # the question lists its choices in order ("Android, iPhone or web"): "the first one" picks
    q = current(s)
    options = choice_words(q.choices, q.synonyms) if q else {}
    listed = listed_choice(options)

    def rule(text: str) -> object:
        found = listed.rule(text)
        if found is None and (english := ABROAD.in_english(text)) != text:
            # "sul sito", "sur mon téléphone": the help centre's words in the user's language, as its search reads them
            found = listed.rule(english)
        # "added on my phone, missing on the laptop": several named, one of them with the problem
        return (troubled(options, text) or found) if isinstance(found, Invalid) else found

    return Parser(rule, listed.expects, listed.llm_hint, listed.greedy)


def choice_words(choices: list[str], synonyms: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """What picks each choice: its synonyms, and the words of it that no other choice or synonym has.

    "website" picks "Tasklane website"; "store" picks nothing when "play store" is a synonym of
    "Google Play", so "Play Store" is not read as two choices at once.
    """

    def words_of(*texts: str) -> set[str]:
        return {w for t in texts for w in re.findall(r"\w+", t.casefold())}

    taken = {c: words_of(c, *synonyms.get(c, [])) for c in choices}
    own = {c: {w for w in words_of(c) if len(w) >= 4} for c in choices}
    return {
        c: [*synonyms.get(c, []), *sorted(own[c] - set().union(*(taken[o] for o in choices if o != c)))]
        for c in choices
    }


# "yes" or "hello??" at "Which phone model do you use?" is no phone model: asked again
read_text = words_answer(min_chars=1)


read_yes_no = Parser(_read_yes_no, "yes or no")


def yes_no_parser(s: ClarificationSlots) -> Parser:
    """The current yes/no question's reader: a yes or a no, or the question's own words echoed
    ("it didn't help" at "Did reinstalling the app help?": engine/echo.py)."""
    q = current(s)
    return read_yes_no if q is None else _yes_no_to(q.text)


def _yes_no_to(question: str) -> Parser:
    return Parser(lambda text: read_yes_no_to(question, text), read_yes_no.expects)


# Each question type's Ask state in clarification.py: the slot its answer fills. another.py
# reads and stores an answer the same way outside those states (a test keeps them in step).
ANSWER_SLOTS: dict[str, str] = {
    "text": "text_answer",
    "number": "number_answer",
    "yes_no": "yes_no_answer",
    "choice": "choice_answer",
}


def answer_parser(s: ClarificationSlots, q: Question) -> Parser:
    """The parser the Ask state of `q`'s type reads its answer with."""
    if q.type == "number":
        return number_parser(s)
    if q.type == "choice":
        return choice_parser(s)
    return _yes_no_to(q.text) if q.type == "yes_no" else read_text
