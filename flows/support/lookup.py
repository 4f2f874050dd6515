"""What a message in the support chat is, for the help centre: talk, nothing to search, an
article, a choice of articles (a topic several are about, or two that the words match as well),
or a question the help centre does not cover.

Two articles the words match about equally are both what the request may mean: "my login email is
outdated" is the email article's and, by its tags, the sync article's. Guessing one gives the wrong
article as often as not, the costly mistake; asking "which of these is it about?" costs the user
one message. A choice is no article (`doc_id` is None); the search benchmark counts a choice apart:
never a wrong article, and never a top-1 answer either (tests/search_corpus.py).

The bot (flows/support/bot.py) answers by it, and the search benchmark (bench/search.py) and
corpus test (tests/test_search_corpus.py) measure it, so the figures are the bot's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.cues import Glossary
from flows.support.kb import Document, Hit, KnowledgeBase
from flows.support.rerank import stems
from flows.support.smalltalk import Talk, talk
from flows.support.terms import VAGUE, query_terms

# problems told in other languages, in the help centre's words ("se cierra sola": "crashes")
ABROAD = Glossary(Path(__file__).parent / "data" / "abroad.yaml", "support phrases abroad")

Kind = Literal["talk", "nothing", "article", "topic", "not_covered"]
# the runner-up scores at least this share of the best: the words do not tell the two apart
# (flows/support/rerank.py's bm25; measured on the dev splits, bench/README.md "Search: the blind set")
CLOSE = 0.9
# A runner-up scoring at least NEAR of the best whose title and tags match the request at least
# ABOUT times as much as the best's do is no less what the request is about: the best won by words
# its body says ("i see a charge twice on my bank statement": the payment article's body says "bank"
# and "statement", the refund article's tags "charged twice"). Calibrated on the dev splits, tuned on
# one half and checked on the other (bench/README.md, "Search: a second blind set (h-search12)"): on
# all of dev it turns 6 wrong articles and 1 right one into a choice; NEAR 0.4-0.6 and ABOUT 1.1-1.2
# gave the same answers, 0.8 or 1.3 fewer saved.
NEAR = 0.6
ABOUT = 1.2


# the stems of the vague words (flows/support/data/search_words.txt): words any request says
_VAGUE = frozenset(stems(sorted(VAGUE)))


@dataclass(frozen=True)
class Lookup:
    """`talk` holds the kinds of talk when `kind` is "talk"; `hits` the articles when "article";
    `choices` the articles asked about when "topic" (a topic alone, or articles the request matches
    as well as each other; `hits` then holds the latter): none is the answer yet, so `doc_id` is None."""

    kind: Kind
    talk: frozenset[Talk] = frozenset()
    hits: list[Hit] = field(default_factory=list)
    choices: list[Document] = field(default_factory=list)

    @property
    def doc_id(self) -> str | None:
        return self.hits[0].doc.id if self.hits and self.kind == "article" else None

    @property
    def answer(self) -> str | tuple[str, ...] | None:
        """What the bot answers with: an article's id, the ids of the articles it asks about, or None."""
        return tuple(d.id for d in self.choices) if self.kind == "topic" else self.doc_id


def as_close(hit: Hit, best: Hit) -> bool:
    """Whether the words tell `hit` (a runner-up) from `best` too little to answer with `best`: it
    scores CLOSE of it and its title or tags hold a word of the request that `best` does not explain
    anywhere, or it explains every word `best` does, where `best` does (a tie the words leave: "my
    slack notifications stopped" is "notifications" in both platforms' titles, and the iPhone
    article's shorter text scores it a little higher); or it scores NEAR of it and its title and tags
    match the request ABOUT times as much (the best won by its body)."""
    if hit.score >= CLOSE * best.score and (
        hit.named - best.matched or (best.matched <= hit.matched and best.named <= hit.named)
    ):
        return True
    return hit.score >= NEAR * best.score and hit.about > 0 and hit.about >= ABOUT * best.about


def look_up(kb: KnowledgeBase, text: str, limit: int = 3) -> Lookup:
    english = ABROAD.in_english(text)
    # "grazie mille, ciao!" is thanks and a goodbye
    said = talk(text) or (talk(english) if english != text else None)
    if said is not None:
        return Lookup("talk", talk=said)
    # a number alone names no article ("' OR '1'='1", "<b>1</b>", "??? 2"), nor do vague words
    if not [t for t in query_terms(text) if not t.isdigit()]:
        return Lookup("nothing")
    hits = kb.search(english, limit=limit)
    # an article whose title or tags the request names only by a device ("ipad" of "Notifications
    # not arriving on iPhone or iPad") was found by where the request happens, not by what happens:
    # it is no answer alone, and no runner-up to ask about beside one found by what happens
    places = kb.places
    # a vague word the title holds tells nothing of what happens ("added" of "Add a Tasklane widget"
    # in "web app doesnt show tasks i added on android"): named by a make and vague words is where
    where = [h for h in hits if h.named - _VAGUE and h.named - _VAGUE <= places]
    if hits and hits[0] in where:
        others = [h for h in hits if h not in where]
        if not others:
            return Lookup("not_covered")
        return Lookup("topic", hits=hits, choices=[hits[0].doc, *(h.doc for h in others)])
    hits = [h for h in hits if h not in where]
    # close, and about a word of the request (its title or tags hold it) that the best does not
    # explain anywhere: a runner-up whose words the best holds too is the same reading, only less
    # of it, and a word only a body says is not what an article is about; or near, and more about
    # the request than the best, which its body put first
    close = [h for h in hits[1:] if as_close(h, hits[0])]
    if close:
        return Lookup("topic", hits=hits, choices=[hits[0].doc, *(h.doc for h in close)])
    if hits:
        return Lookup("article", hits=hits)
    # "i have a problem with reminders": no article wins, and several are about it
    choices = kb.on_topic(english)
    return Lookup("topic", choices=choices) if choices else Lookup("not_covered")
