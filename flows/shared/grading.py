"""The one schema a model fills when it judges an open answer the rules did not accept.

Used by the placement test (language-buddy) and the tutoring exercises (study-pal). The
accepted answers travel in the field's description: the prompt holds the conversation,
which shows the question but (rightly) never the solution.
"""

from __future__ import annotations

import functools
import re

from pydantic import BaseModel, Field, create_model
from rapidfuzz import fuzz

from engine.extract import fold
from engine.guard import numbers_in

# How alike an answer and an accepted one must be, as rapidfuzz's ratio, for a model's "correct"
# to stand without a shared word or number ("recieved" for "received")
SIMILAR = 70
# one number in digits and nothing else: "3", "-2.5", "0,5"
_PLAIN_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?")


@functools.lru_cache(maxsize=256)
def verdict_model(question: str, accepted: tuple[str, ...]) -> type[BaseModel]:
    """Schema for a model's verdict on the user's last message; null: not an answer, or unsure."""
    hint = (
        f"Is the user's last message a correct answer to the question {question!r}? "
        f"Accepted answers: {', '.join(accepted)}. An equivalent form counts as correct. "
        "null if the message is not an attempt at an answer, or if you are unsure."
    )
    model: type[BaseModel] = create_model("AnswerVerdict", correct=(bool | None, Field(None, description=hint)))
    return model


def plausibly_right(answer: str, accepted: tuple[str, ...]) -> bool:
    """May a model's verdict "correct" stand for `answer`? Only when it is near an accepted
    answer: a word in common or one word the other's stem ("nope" for "no"), a close spelling
    ("recieved"), or numbers on both sides, whose equivalence ("five tenths" for 0.5) is the
    model's to judge. A weak model calls "red" or "tired" right; those are kept out, and so is
    "3" for "4": two plain numbers are equal or not, whatever a model says."""
    said = fold(answer)
    value = _plain_number(said)
    plain = [v for ok in accepted if (v := _plain_number(fold(ok))) is not None]
    if value is not None and plain:
        return value in plain
    words = set(re.findall(r"\w{2,}", said))
    numeric = bool(numbers_in(answer))
    for ok in accepted:
        right = fold(ok)
        theirs = set(re.findall(r"\w{2,}", right))
        if any(a.startswith(b) or b.startswith(a) for a in words for b in theirs):
            return True
        if numeric and numbers_in(ok):
            return True
        if fuzz.ratio(said, right) >= SIMILAR:
            return True
    return False


def _plain_number(text: str) -> float | None:
    t = text.strip().rstrip(".!")
    return float(t.replace(",", ".")) if _PLAIN_NUMBER.fullmatch(t) else None
