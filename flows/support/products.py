"""Product names in a message, whose numbers are part of the name: "iPhone 12 mini", "pixel 8".

A number question ("About how many minutes late do they arrive?") must not take the 12 of "on my
iPhone 12 mini", said to the device question before it, nor of a message that names the device and
the delay at once ("pixel 8, around 20 min"). A product name is a word of one of the document's
choice or free-text questions (a choice, one of its synonyms, a cue) followed by words holding
digits and model words ("pro", "mini"). Its digits are taken out before a number question reads
the message, unless its word is one of that question's own ("android 13" answers "Which Android
version do you use?").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from engine.extract import fold
from flows.support.kb import Question
from flows.support.terms import SEARCH_WORDS

# what may follow a product's word as part of its name ("pixel 7 pro"), besides words with digits
MODEL_WORDS = SEARCH_WORDS.get("model_words", frozenset())


@cache
def _cues(questions: str) -> tuple[tuple[str, ...], ...]:
    """The product words of a document's choice and free-text questions, longest first."""
    cues: set[tuple[str, ...]] = set()
    for raw in filter(None, questions.split("\x00")):
        q = Question.model_validate_json(raw)
        if q.type not in ("choice", "text"):
            continue
        names = [*q.choices, *(s for syns in q.synonyms.values() for s in syns), *q.cues]
        cues |= {tuple(re.findall(r"\w+", fold(n))) for n in names}
    return tuple(sorted((c for c in cues if c), key=len, reverse=True))


def _unit(token: str, own: set[str]) -> bool:
    """Whether `token` is one of the question's words or its short form ("min", "mins" of "minutes")."""
    t = token.rstrip("s") if len(token) > 3 else token
    return len(t) >= 3 and any(w.startswith(t) for w in own if len(w) >= 4)


def without_names(questions: Sequence[Question], asked: Question, text: str) -> str:
    """`text` with the digits of the product names it holds taken out, for the number question `asked`."""
    cues = _cues("\x00".join(q.model_dump_json() for q in questions if q is not asked))
    own = set(re.findall(r"\w+", fold(asked.text)))
    spans = [(m.start(), m.end(), m.group()) for m in re.finditer(r"[^\W_]+", fold(text))]
    tokens = [t for _, _, t in spans]
    out = fold(text)
    cut: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        cue = next((c for c in cues if tuple(tokens[i : i + len(c)]) == c), None)
        if cue is None or own & set(cue):
            i += 1
            continue
        end = i + len(cue)
        while end < len(tokens) and (re.search(r"\d", tokens[end]) or tokens[end] in MODEL_WORDS):
            if end + 1 < len(tokens) and _unit(tokens[end + 1], own):
                break  # "android 30 minutes late": the number is the amount the question asks
            end += 1
        if any(re.search(r"\d", t) for t in tokens[i + len(cue) : end]):
            cut.append((spans[i][0], spans[end - 1][1]))
        i = max(end, i + 1)
    for start, stop in reversed(cut):
        out = f"{out[:start]} {out[stop:]}"
    return out
