"""What a message in the support chat is, for the help centre: talk, nothing to search, an
article, a topic several articles are about, or a question the help centre does not cover.

The bot (flows/support/bot.py) answers by it, and the search benchmark (bench/search.py) and
corpus test (tests/test_search_corpus.py) measure it, so the figures are the bot's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.cues import Glossary
from flows.support.kb import Document, Hit, KnowledgeBase
from flows.support.smalltalk import Talk, talk
from flows.support.terms import query_terms

# problems told in other languages, in the help centre's words ("se cierra sola": "crashes")
ABROAD = Glossary(Path(__file__).parent / "data" / "abroad.yaml", "support phrases abroad")

Kind = Literal["talk", "nothing", "article", "topic", "not_covered"]


@dataclass(frozen=True)
class Lookup:
    """`talk` holds the kinds of talk when `kind` is "talk"; `hits` the articles when "article";
    `choices` the articles a request names only the topic of when "topic" (which one is asked:
    none is the answer yet, so `doc_id` is None)."""

    kind: Kind
    talk: frozenset[Talk] = frozenset()
    hits: list[Hit] = field(default_factory=list)
    choices: list[Document] = field(default_factory=list)

    @property
    def doc_id(self) -> str | None:
        return self.hits[0].doc.id if self.hits else None


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
    if hits:
        return Lookup("article", hits=hits)
    # "i have a problem with reminders": no article wins, and several are about it
    choices = kb.on_topic(english)
    return Lookup("topic", choices=choices) if choices else Lookup("not_covered")
