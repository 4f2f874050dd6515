"""Marking an exercise answer against the course's accepted forms, offline: numbers and
fractions by value (digits or number words), options by letter or text, yes/no, and math
written in several ways."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from text_to_num import alpha2digit

from engine import picked
from engine.numwords import spelled_out as in_digits
from engine.numwords import typos_fixed
from engine.said import says_unsure
from engine.wrapped import unwrapped
from engine.yesno import read_yes_no
from flows.study_pal.course import (
    Exercise,
)

_SYMBOLS = str.maketrans({"⁰": "^0", "¹": "^1", "²": "^2", "³": "^3", "⁴": "^4", "⁵": "^5", "⁶": "^6",
                          "⁷": "^7", "⁸": "^8", "⁹": "^9", "−": "-", "–": "-", "½": "1/2", "⅓": "1/3",
                          "⅔": "2/3", "¼": "1/4", "¾": "3/4"})  # fmt: skip
# Lead-ins students put before an answer ("the answer is 4", "f'(x) = 2x", "c'est 4x^3"); none is part of it.
_LEAD_IN = re.compile(
    r"^(?:i think |i guess |i'?d say |maybe |probably |it'?s |it is |the answer is |answer:? |is it |"
    r"is the answer |so |c'?est |ce serait |es |sería |seria |das ist |es ist |è |sarebbe |é |la respuesta es "
    r"|la réponse est |die antwort ist |la risposta è |a resposta é )*"
    r"(?:(?:[a-z]'*(?:\([a-z]\))?|dy/dx|d/dx\([^)]*\))\s*=\s*)?"
)
# and after it ("4x^3 i think", "7 right?")
_HEDGE_AFTER = re.compile(
    r"(?<![\s,])[\s,]++(?:i think|i guess|i believe|maybe|probably|right|no\?|creo|je pense|je crois|glaube ich"
    r"|denke ich|penso|credo|acho|then|dann|alors|entonces|então|entao|allora)\W*+$"
)
_NUMBER = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:/[-+]?(?:\d+(?:\.\d*)?|\.\d+))?$")


def normalize(text: str) -> str:
    """Lower case, no whitespace, `**`/superscripts as `^`, no `*` or `·`, no closing punctuation."""
    t = text.strip().lower().translate(_SYMBOLS)
    t = _HEDGE_AFTER.sub("", _LEAD_IN.sub("", t))
    t = t.replace("**", "^")
    t = re.sub(r"[\s*·]", "", t)
    return t.strip("\"'`").rstrip(".!?").strip("\"'`")


def readings(text: str) -> list[str]:
    """The normalized answer, plus what follows its last "=" ("lim = 7") and the form without
    a trailing "+ C" (an antiderivative given with its constant)."""
    out = [normalize(text)]
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
    """ "yes" / "no" as the one yes/no reader hears it ("Yes, it must", "nope"); "no idea" is
    neither; "true" / "false" count too."""
    heard = read_yes_no(text)
    if heard is not None:
        return "yes" if heard else "no"
    words = re.sub(r"[^\w\s']", " ", text.lower()).split()
    if words[:1] == ["true"]:
        return "yes"
    return "no" if words[:1] == ["false"] else None


_FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4,
              "fourths": 4, "fifth": 5, "fifths": 5}  # fmt: skip
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_FRACTION_WORDS = re.compile(r"\b(a|an|one|two|three|four|\d+)[\s-]+(" + "|".join(_FRACTIONS) + r")\b")
_LONE_NUMBER = re.compile(r"(?<![\w./^*+=-])-?\d+(?:[.,]\d+)?(?:/\d+(?:[.,]\d+)?)?(?![\w./^*+(-])")
_TAKEN_BACK = re.compile(r"\b(?:not|isn'?t|no|never|wrong|or)\b")


# powers said in words: "x squared", "4x cubed", "x to the power of 3", "x to the 4th"
_POWER = re.compile(
    r"(?<!\s)\s*+\bto the (?:power of )?(\d+)(?:st|nd|rd|th)?(?: power)?\b|(?<!\s)\s++(?:squared|cubed)\b"
)


def spelled_out(text: str) -> str:
    """Number words as digits: "twelve" 12, "one half" 1/2, "minus four" -4, "zero point five" 0.5;
    powers as ^ ("x squared" x^2, "4x cubed" 4x^3), "plus" and "over" as + and /."""
    t = _FRACTION_WORDS.sub(lambda m: f"{_COUNTS.get(m.group(1), m.group(1))}/{_FRACTIONS[m.group(2)]}", text.lower())
    t = re.sub(r"^\W*half\W*$", "1/2", t)
    t = re.sub(r"\bhalf(?:\s+of)?\s+(?=[a-z(]\b|\()", "1/2", t)  # "half x squared"
    t = alpha2digit(typos_fixed(t), "en", threshold=0)  # "twelev": a number word misspelt
    t = _POWER.sub(lambda m: "^" + (m.group(1) or {"squared": "2", "cubed": "3"}[m.group(0).strip().split()[-1]]), t)
    t = re.sub(r"(?<!\s)\s++(?:over|divided by)\s++", "/", t)
    t = re.sub(r"(?<!\s)\s++plus\s++", "+", t)
    return re.sub(r"\b(?:minus|negative)\s*(?=\d)", "-", t)


def lone_number(text: str) -> str | None:
    """The one number in a short reply ("4, I think", "I'd go with 4"); None when there are
    several, or the reply takes it back ("not 4")."""
    found = _LONE_NUMBER.findall(text)
    return found[0] if len(found) == 1 and not _TAKEN_BACK.search(text.lower()) else None


def _option_letter(text: str, options: Mapping[str, str]) -> str | None:
    """The option a reply picks: as any listed option is picked (engine/options.py: its letter,
    its text, its place), or its text written as this module compares math ("x**3" for "x³")."""
    key = picked(text, options)
    if key is not None:
        return key
    t = normalize(text)
    m = re.match(r"\A(?:option|answer|choice)?\(?([a-z0-9]+)[).:-]", t)
    if m and m.group(1) in options and t[m.end() :] and normalize(options[m.group(1)]).startswith(t[m.end() :]):
        return m.group(1)
    return next((key for key, label in options.items() if normalize(label) == t), None)


def check_answer(exercise: Exercise, text: str) -> bool:
    """Rule grading: the option letter (or its text), or any accepted answer.

    Case and whitespace never matter; numbers compare by value ("0.5" == "1/2" == ".5") and
    may be words ("twelve", "one half"); the one number of a short reply counts ("4, I think");
    a yes/no answer is read by the one yes/no reader ("Yes, it must").
    """
    if exercise.options is not None:
        options = exercise.options
        picks = {k for c in _clauses(text) if (k := _option_letter(c, options)) is not None}
        if len(picks) > 1:
            return False  # "b, c": several options named is no pick, whichever comes first
        key = next((k for c in answer_parts(text) if (k := _option_letter(c, options)) is not None), None)
        return key == exercise.answer
    return any(_right(exercise, part) for part in answer_parts(text))


# what a student says after the answer to give its reason: "5 because the 2 disappears", "6x + 2 since 3*2=6"
_REASON = re.compile(
    r"(?<!\s)\s++(?:because|since|cause|cuz|bc|porque|pues|ya que|parce que|car|puisque|weil|denn|perché|perche|poiché"
    r"|visto che|pois|já que)\s++",
    re.I,
)
_CLAUSE_MARK = re.compile(r"[,;!?]+|\.\s+|\s[-–—]\s")


def answer_parts(text: str) -> list[str]:
    """The reply, then its answer without the reason after it ("5 because the 2 disappears": "5"), then
    its first clause when no later one holds math ("4?? not sure", "la c, los límites laterales son
    distintos"): a correction after it ("4, no wait 5") holds math, so it is never cut off."""
    out = [text]
    head = _REASON.split(text, maxsplit=1)[0].strip()
    if head and head != text.strip():
        out.append(head)
    parts = _clauses(text)
    if len(parts) > 1 and not any(has_math(spelled_out(in_digits(p))) for p in parts[1:]):
        out.append(parts[0])
    return out


def _clauses(text: str) -> list[str]:
    """The clauses of the reply before any reason it gives ("b, c because ..." -> ["b", "c"])."""
    head = _REASON.split(text, maxsplit=1)[0]
    return [p.strip() for p in _CLAUSE_MARK.split(head) if p.strip()]


def _right(exercise: Exercise, text: str) -> bool:
    # the answer without the engine's words around one too ("je dirais cinq", "dann vier": engine/said.py)
    inner = unwrapped(text)
    given = [*readings(text), *(readings(inner) if inner is not None else [])]
    # number words in six languages ("siete", "sieben"), then the English ones this module reads
    for form in dict.fromkeys((spelled_out(text), spelled_out(in_digits(text)))):
        given += [r for r in readings(form) if r not in given]
        lone = lone_number(form)
        if lone is not None:
            given.append(lone)
    numbers = [n for n in map(as_number, given) if n is not None]
    for accepted in exercise.answers or []:
        want = normalize(accepted)
        if want in given:
            return True
        target = as_number(want)
        if target is not None and target in numbers:
            return True
        if want in ("yes", "no") and yes_or_no(text) == want:
            return True
    return False


# Answers in words a student may give to a math exercise ("it doesn't exist", "infinity"): wrong or
# right, they are attempts to grade, not talk about something else.
_MATH_WORDS = re.compile(
    r"\b(?:infinity|infinite|undefined|dne|does ?n[o']t exist|no limit|not defined|zero|none|nothing|constant)\b"
)
_MATH_MARKS = re.compile(r"[\d^+*/=()√π∞]|\b[xynt]\b")


def has_math(said: str) -> bool:
    """Whether `said` (spelled_out already) holds a number, an operator or a variable."""
    return bool(_MATH_MARKS.search(said))


def attempted(exercise: Exercise, text: str) -> bool:
    """Whether a reply is an attempt at `exercise`, right or wrong: something of its answer's kind
    (an option, a yes or no, a number or an expression, a math word). "derivatives please" or "like
    3 evenings a week" at "What is lim (2x + 1)?" are about something else and use no attempt; a
    one-word reply or not knowing ("no idea") is taken as an attempt (graded, not refused)."""
    if len(text.split()) <= 1 or says_unsure(text):
        return True  # "no idea" is a wrong answer, as a quiz reads it
    if exercise.options is not None:
        return _option_letter(text, exercise.options) is not None or bool(re.search(r"\d", text))
    if any(yes_or_no(a) for a in exercise.answers or []) and yes_or_no(text) is not None:
        return True
    # number words in six languages first, as `_right` reads them ("je dirais cinq" is an attempt)
    said = spelled_out(in_digits(text))
    return has_math(said) or bool(_MATH_WORDS.search(said))
