"""What the message after an answer says about it: "still broken", "that didnt help", "no luck"
after the sync article are no new search ("Our help center doesn't cover “still broken”"), and
"perfect, fixed" is no request either.

The article the last answer came from is kept in the session's shared memory for the next
message only. That message is read as a yes or a no to "Did that help?" by the engine's echo
reader (engine/echo.py: "didnt work", "it still crashes", "worked!"): a no offers a person who
sees the article and what was said; a yes is glad. Anything else (a new question, a new symptom
that names no outcome) is searched as always.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from engine import StepContext
from engine.echo import read_yes_no_to
from engine.extract import fold

# the question a message after an answer is read against (never said: the answer is the bot's turn)
DID_IT_HELP = "Did that help?"


class Answered(BaseModel):
    """The help article the last answer gave, and what the user had asked."""

    doc: str
    title: str
    query: str
    answers: dict[str, str] = {}


class SupportMemory(BaseModel):
    """What the support bot keeps between two messages of one session."""

    last_answer: Answered | None = None


def answered(ctx: StepContext[Any], last: Answered) -> None:
    """Keep the article just given, for the next message to say whether it helped."""
    ctx.shared(SupportMemory).last_answer = last


def take_answered(ctx: StepContext[Any]) -> Answered | None:
    """The article the last turn gave, if any; forgotten from now on (it holds for one message)."""
    memory = ctx.shared(SupportMemory)
    last, memory.last_answer = memory.last_answer, None
    return last


# what the answer says to do, said to be done before: the user is still stuck unless an outcome is said
# ("i already tried that", "did that already, no email comes", "tried all of that"; "did that, didnt help")
_TRIED = re.compile(
    r"\b(?:i )?(?:already (?:tried|did|done|do)(?: (?:that|it|this|those|these|them|everything|all (?:of )?\w+))?"
    r"|(?:tried|did|done) (?:that|it|this|those|these|them|everything|all (?:of )?(?:that|this|those|them))"
    r"(?: \w+)??(?: already)?)\b"
)


def tried_already(text: str) -> bool:
    """Does the message say the steps were done already ("did that already, no email comes")? What
    else it says is then the same problem, not another question."""
    return _TRIED.search(fold(text)) is not None


def helped(text: str) -> bool | None:
    """Whether a message after an answer says it helped (True), did not (False), or neither (None)."""
    said = read_yes_no_to(DID_IT_HELP, text)
    if said is None and tried_already(text):
        return False  # the steps were tried before the answer, and no outcome is said: still stuck
    return said
