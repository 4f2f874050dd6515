"""What a question about whether something exists asks for ("is there a family plan", "do you offer a
student discount", "are there keyboard shortcuts").

Such a question names a thing, and an article answers it only when that thing is what the article is
about. The words around it may match an article well ("family" is a tag of the sharing article, whose
body mentions the free plan), but "is there a family plan" asks about a plan, which no article is
about; "is there a recycle bin for deleted lists" asks about the trash, which the restore article is.

The thing is the noun phrase after the question's frame, up to the first word that starts something
else (a conjunction, a clause, a punctuation mark); its head is its last word, read as a query reads
it (spelling fixed, phrases and concepts read: "recycle bin" is the trash), before what the phrase
says it is on, of, for or to ("a refund window for premium": a window, of premium). A word that
only names the kind of thing a product shows ("setting", "option", "button", "mode") or how much
of it there may be ("limit") is no head: "a time zone setting" asks about the time zone, "a limit on
shared lists" about the shared lists. A question framed as a way to do something ("is
there a way to download my account") asks about doing, not a thing, and is not judged here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# the frames that ask whether a thing exists, the thing said after them
_FRAME = re.compile(
    r"\b(?:is there|are there|do you (?:offer|have|sell)|does (?:tasklane|it|the app) (?:have|offer))"
    r"\s+(?:(?:a|an|any|some)\s+)?(?P<thing>.*)",
    re.IGNORECASE,
)
# what ends the thing's noun phrase: a conjunction, a clause, a punctuation mark
_ENDS = re.compile(r"[.,;!?]|\b(?:or|and|that|which|so|where|when|if|how|i|you|we|with|from|in)\b", re.IGNORECASE)
# what the thing is on, of or for: said after its head ("a limit on shared lists")
_ATTACHED = re.compile(r"\b(?:on|of|for|to)\b", re.IGNORECASE)
# words that name how a thing shows in a product ("a time zone setting"), or how much of it there may
# be ("a limit to how many tasks i can import"), not the thing
KINDS = frozenset(
    {"setting", "settings", "option", "options", "button", "buttons", "feature", "features", "mode"}
    | {"limit", "limits", "maximum", "minimum", "cap"}
)
# "is there a way to ...": a question about doing something
_DOING = frozenset({"way", "ways", "possibility", "chance"})


@dataclass(frozen=True)
class Asked:
    """What a question about whether something exists asks for: `head`, the words up to the thing's
    head as typed ("family plan"), and `whole`, with what it is on, of or for ("limit on shared lists")."""

    head: str
    whole: str


def asked_thing(text: str) -> Asked | None:
    """What a question about whether something exists names; None when the request is no such
    question, or asks about a way to do something ("is there a way to ...")."""
    m = _FRAME.search(text)
    if m is None:
        return None
    whole = _ENDS.split(m.group("thing"), maxsplit=1)[0].strip()
    said = _ATTACHED.split(whole, maxsplit=1)[0].split()
    while said and said[-1].casefold() in KINDS:
        said.pop()
    if not said or said[0].casefold() in _DOING:
        return None
    return Asked(" ".join(said), whole)
