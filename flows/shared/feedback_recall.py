"""A question about feedback already given ("what did I complain about earlier?") is not feedback.

The feedback intent starts on "complain" or "feedback" anywhere, so without this the question
would open a new interview ("I'm sorry to hear that. On a scale from 1 to 5..."). A question
is told by its form (an interrogative first, or a question mark) together with a word that
puts it in the past ("did", "earlier", "last time"); it is answered from the saved entries.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.models import JsonObject

_FEEDBACK = r"(?:complain\w*|feedback|rat(?:ed|ing)|review\w*|report(?:ed)?|suggest\w*)"
_PAST = r"(?:did|was|were|have|has|gave|given|left|sent|said|earlier|before|last|previous\w*|already|past|ago)"
_ASKS = re.compile(
    r"^\W*(?:what|which|when|did|have|has|was|were|show|remind|tell|list|can you (?:show|remind|tell))\b"
)
_PAST_WORD = re.compile(rf"\b{_PAST}\b", re.IGNORECASE)
_FEEDBACK_WORD = re.compile(rf"\b{_FEEDBACK}", re.IGNORECASE)
_MINE = re.compile(r"\b(?:i|my|me)\b", re.IGNORECASE)


def asks_about_past(text: str) -> bool:
    """ "what did I complain about earlier?", "did I already leave feedback", "show me my last rating"."""
    t = text.strip().casefold()
    question = _ASKS.search(t) is not None or t.endswith("?")
    if not question or _MINE.search(t) is None:
        return False
    return _later(_PAST_WORD, _FEEDBACK_WORD, t) or _later(_FEEDBACK_WORD, _PAST_WORD, t)


def _later(first: re.Pattern[str], then: re.Pattern[str], text: str) -> bool:
    """Whether a line of `text` has `then` after `first`. Not one pattern `first.*then`: that
    one, failing, is tried again from every later `first`, rescanning the rest each time."""
    for line in text.split("\n"):
        m = first.search(line)
        if m is not None and then.search(line, m.end()) is not None:
            return True
    return False


def past_feedback(entries: Sequence[JsonObject]) -> str:
    """What the user's saved feedback says, oldest first in `entries`: the last one in full."""
    if not entries:
        return "You haven't given any feedback yet. Say \"I'd like to give feedback\" to leave some."
    last = entries[-1]
    rating = last.get("rating")
    parts = [f"rating {rating}/5" if rating is not None else "no rating"]
    if last.get("category"):
        parts.append(f"about {last['category']}")
    comment = last.get("comment")
    said = f': "{comment}"' if comment else ""
    count = "" if len(entries) == 1 else f"You've given feedback {len(entries)} times. "
    return f"{count}Your last feedback ({', '.join(parts)}){said}."
