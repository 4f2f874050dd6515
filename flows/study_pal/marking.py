"""Marking an exercise answer against the course's accepted forms, offline: numbers and
fractions by value, options by letter or text, yes/no, and math written in several ways."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from engine.extract import read_yes_no
from flows.study_pal.course import (
    Exercise,
)

_SYMBOLS = str.maketrans({"⁰": "^0", "¹": "^1", "²": "^2", "³": "^3", "⁴": "^4", "⁵": "^5", "⁶": "^6",
                          "⁷": "^7", "⁸": "^8", "⁹": "^9", "−": "-", "–": "-", "½": "1/2", "⅓": "1/3",
                          "⅔": "2/3", "¼": "1/4", "¾": "3/4"})  # fmt: skip
# Lead-ins students put before an answer ("the answer is 4", "f'(x) = 2x"); none is part of it.
_LEAD_IN = re.compile(
    r"^(?:i think |i guess |i'?d say |maybe |probably |it'?s |it is |the answer is |answer:? |is it |"
    r"is the answer |so )*(?:(?:[a-z]'*(?:\([a-z]\))?|dy/dx|d/dx\([^)]*\))\s*=\s*)?"
)
_NUMBER = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:/[-+]?(?:\d+(?:\.\d*)?|\.\d+))?$")


def canonical(text: str) -> str:
    """Lower case, no whitespace, `**`/superscripts as `^`, no `*` or `·`, no closing punctuation."""
    t = text.strip().lower().translate(_SYMBOLS)
    t = _LEAD_IN.sub("", t)
    t = t.replace("**", "^")
    t = re.sub(r"[\s*·]", "", t)
    return t.strip("\"'`").rstrip(".!?").strip("\"'`")


def readings(text: str) -> list[str]:
    """The normalized answer, plus what follows its last "=" ("lim = 7") and the form without
    a trailing "+ C" (an antiderivative given with its constant)."""
    out = [canonical(text)]
    if "=" in out[0]:
        out.append(out[0].rsplit("=", 1)[1])
    out += [r.removesuffix("+c") for r in out if r.endswith("+c")]
    return [r for r in out if r]


def as_number(text: str) -> Fraction | None:
    """A normalized answer read as a number ("0.5", "1/2", "-3"), or None."""
    t = text.replace(",", ".") if text.count(",") == 1 and "." not in text else text
    if not _NUMBER.match(t):
        return None
    try:
        return Fraction(t)
    except (ValueError, ZeroDivisionError):
        return None


def yes_or_no(text: str) -> str | None:
    """ "yes" / "no" as engine.extract.read_yes_no reads the answer ("Yes, it must", "nope"), or true/false."""
    first = re.sub(r"[^\w\s']", " ", text.lower()).split()[:1]
    if first in (["true"], ["false"]):
        return "yes" if first == ["true"] else "no"
    answer = read_yes_no(text)
    return None if answer is None else "yes" if answer else "no"


def _option_letter(text: str, options: Mapping[str, str]) -> str | None:
    """The option a reply picks: its letter ("b", "(b)", "option b"), its text, or both ("b) x³")."""
    t = canonical(text)
    m = re.fullmatch(r"(?:option|answer|choice)?\(?([a-z0-9]+)[).:]?", t)
    if m and m.group(1) in options:
        return m.group(1)
    m = re.match(r"(?:option|answer|choice)?\(?([a-z0-9]+)[).:-]", t)
    if m and m.group(1) in options:
        rest = t[m.end() :]
        if rest and canonical(options[m.group(1)]).startswith(rest):
            return m.group(1)
    for key, label in options.items():
        if canonical(label) == t:
            return key
    return None


def check_answer(exercise: Exercise, text: str) -> bool:
    """Rule grading: the option letter (or its text), or any accepted answer.

    Case and whitespace never matter; numbers compare by value ("0.5" == "1/2" == ".5");
    a yes/no answer counts by its first word ("Yes, it must").
    """
    if exercise.options is not None:
        return _option_letter(text, exercise.options) == exercise.answer
    given = readings(text)
    numbers = [n for n in map(as_number, given) if n is not None]
    for accepted in exercise.answers or []:
        want = canonical(accepted)
        if want in given:
            return True
        target = as_number(want)
        if target is not None and target in numbers:
            return True
        if want in ("yes", "no") and yes_or_no(text) == want:
            return True
    return False
