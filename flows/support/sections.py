"""An article's sections for one case: the steps for the user's phone, what to do when reinstalling
did not help.

In a document's body a section starts at a marker line naming a clarifying question and one
of its answers, and runs to the next marker or to the end::

    <!-- when: Which app crashes? = Android -->
    **On Android:** open **Settings → Apps → Tasklane → Storage** ...
    <!-- when: Did reinstalling the app help? = no -->
    ...
    <!-- end -->
    Text after an end marker is for every case again.

The markers are HTML comments, so a Markdown view of the article shows nothing of them. The
key must name a question of the document and an answer it can have (a choice as written, or
yes/no): `problems` says what is wrong, and the document is refused on load
(flows/support/kb.py). The reply shows the text outside sections, and of each question's
sections the one for its answer; a question with no answer (skipped, or never asked) shows all
of its sections, so no case is left without its steps.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

MARKER = re.compile(r"^[ \t]*<!--\s*(?:when:\s*(?P<question>.+?)\s*=\s*(?P<answer>[^=]+?)|(?P<end>end))\s*-->[ \t]*$")


class Asked(Protocol):
    """What sections need of a clarifying question (flows/support/kb.py: Question)."""

    @property
    def text(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def choices(self) -> list[str]: ...


@dataclass(frozen=True)
class Part:
    """A run of body lines; `question` and `answer` are None for text every case gets."""

    text: str
    question: str | None = None
    answer: str | None = None


def parts(body: str) -> list[Part]:
    """The body cut at its markers, markers left out, empty runs dropped."""
    out: list[Part] = []
    key: tuple[str | None, str | None] = (None, None)
    lines: list[str] = []

    def close() -> None:
        text = "\n".join(lines).strip("\n")
        if text.strip():
            out.append(Part(text, *key))
        lines.clear()

    for line in body.splitlines():
        m = MARKER.match(line)
        if m is None:
            lines.append(line)
            continue
        close()
        key = (None, None) if m.group("end") else (m.group("question"), m.group("answer"))
    close()
    return out


def problems(body: str, questions: Sequence[Asked]) -> list[str]:
    """What is wrong with the body's section markers, given the document's questions."""
    out: list[str] = []
    by_text = {q.text: q for q in questions}
    for number, line in enumerate(body.splitlines(), 1):
        if "<!--" not in line or not re.search(r"<!--\s*(when|end)\b", line):
            continue
        m = MARKER.match(line)
        if m is None:
            out.append(f"body line {number}: a marker is '<!-- when: <question> = <answer> -->' or '<!-- end -->'")
            continue
        if m.group("end"):
            continue
        question, answer = m.group("question"), m.group("answer")
        q = by_text.get(question)
        if q is None:
            out.append(f"body line {number}: section for {question!r}, which is not a clarifying question")
        elif q.type == "yes_no" and answer.casefold() not in ("yes", "no"):
            out.append(f"body line {number}: {question!r} is a yes/no question; {answer!r} is not yes or no")
        elif q.type == "choice" and answer not in q.choices:
            listed = ", ".join(q.choices)
            out.append(f"body line {number}: {answer!r} is not one of the choices of {question!r}: {listed}")
        elif q.type not in ("yes_no", "choice"):
            out.append(f"body line {number}: sections need a yes/no or choice question; {question!r} is {q.type}")
    return out


def _key(answer: object) -> str | None:
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    return answer if isinstance(answer, str) else None


def for_case(body: str, answers: Mapping[str, object]) -> str:
    """The body for the case `answers` (question text -> typed answer) describes: the common
    text, and each question's section for its answer (all of them for an unanswered question)."""
    kept = []
    for part in parts(body):
        if part.question is not None and part.question in answers:
            given = _key(answers[part.question])
            if given is None or given.casefold() != (part.answer or "").casefold():
                continue
        kept.append(part.text)
    out = kept[:1]
    for before, text in itertools.pairwise(kept):
        # a list cut by sections stays one list: its items join without a blank line
        tight = _LIST_ITEM.match(before.rsplit("\n", 1)[-1]) and _LIST_ITEM.match(text.split("\n", 1)[0])
        out.append(("\n" if tight else "\n\n") + text)
    return "".join(out)


_LIST_ITEM = re.compile(r"^\s*(?:\d+\.|[-*+])\s")
