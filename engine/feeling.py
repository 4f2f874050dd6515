"""The sentiment reader: positive, negative or neutral, from VADER's lexicon plus what an app's users complain of.

VADER's lexicon is English: a message of another language scores nothing (engine/extract.py `_reads_as_english`).
"""

from __future__ import annotations

import functools
import re

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from engine.extract import Parser, _norm, _reads_as_english

# What a general sentiment lexicon does not know is bad news in an app ("it crashes", "so
# slow"); matched at word starts ("frustrat", "crash"). Everything else is VADER's lexicon.
_APP_COMPLAINTS = ("slow", "complain", "complaint", "broken", "bug", "crash", "freez", "lag", "glitch",
                   "frustrat", "problem", "issue", "wrong", "disappoint", "cutting out", "doesn't work",
                   "does nothing", "not working")  # fmt: skip
_NEUTRAL = ("mixed", "okay", "ok", "fine", "so-so", "so so", "neutral", "average", "meh", "alright")
_COMPLAINT_RE = re.compile(rf"\b(?:{'|'.join(re.escape(w) for w in _APP_COMPLAINTS)})")
_NEUTRAL_RE = re.compile(rf"\b(?:{'|'.join(re.escape(w) for w in _NEUTRAL)})\b")
_VADER = SentimentIntensityAnalyzer()  # loads its lexicon once
# "I'd like to give feedback" is a request, not praise: VADER would score the "like"
_REQUEST_LIKE = re.compile(r"\b(?:would|'d|d) like(?: to)?\b|\blike to\b")
# how frankly something is said, not how it went ("honestly 3/5", "tbh it's fine")
_HEDGES = re.compile(r"\b(?:honestly|frankly|tbh|to be honest|truthfully|ngl)\b")
# "like" that likes has someone who does ("i like it", "we really like the lessons"); any other is a
# filler or a comparison ("honestly like 3/5", "like a 4 i guess", "it's like ok"): no praise
_FILLER_LIKE = re.compile(
    r"(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bthey )(?<!\bu )(?<!\breally )(?<!\bdo )(?<!\bdid )(?<!\bjust )"
    r"(?<!\bstill )(?<!\balso )(?<!\btotally )(?<!\bdefinitely )(?<!\bkinda )(?<!\bdon't )(?<!\bdont )"
    r"(?<!\bdidn't )(?<!\bdidnt )(?<!\bdoesn't )(?<!\bdoesnt )(?<!\bwould )\blike\b(?! it\b| this\b| that\b)"
)
# VADER's compound score from which a message reads as clearly positive or negative
_CLEAR = 0.3


_NO_SCORES = {"compound": 0.0, "pos": 0.0, "neg": 0.0}
# what VADER could score: a word or an emoticon; a bare "4" or "2/5!" holds neither
_SCORABLE = re.compile(r"[^\d\s.,!?/]")

# VADER checks the words before each sentiment word by lower-casing the whole message again
# (quadratic in its words), and reads an emoji as its name (several words): 4,000 emoji took
# 9 s. Beyond these, a message is read from its start.
_VADER_WORDS = 250
_VADER_EMOJI = 24


def _for_vader(text: str) -> str:
    """`text` as VADER reads it: whole, unless it is longer than VADER can read in a few ms."""
    emoji = [i for i, ch in enumerate(text) if ch in _VADER.emojis]
    if len(emoji) > _VADER_EMOJI:
        cut = set(emoji[_VADER_EMOJI:])
        text = "".join(ch for i, ch in enumerate(text) if i not in cut)
    words = text.split()
    return " ".join(words[:_VADER_WORDS]) if len(words) > _VADER_WORDS else text


def sentiment() -> Parser:
    """positive / negative / neutral, from VADER's lexicon (negation, "but", intensifiers) plus app complaints.

    None when the message carries no sentiment at all ("I'd like to give feedback").
    """
    return Parser(_sentiment_of, "how it went: positive, negative or neutral")


# a turn may ask twice (a state's parser, then a step that records the feeling): VADER once
@functools.lru_cache(maxsize=256)
def _sentiment_of(text: str) -> str | None:
    t = _HEDGES.sub("", _FILLER_LIKE.sub("", _REQUEST_LIKE.sub("want to", _norm(text))))
    if _NEUTRAL_RE.search(t):
        return "neutral"
    # VADER first, the language check only when it found something: most messages score
    # nothing, and the check looks every word up in seven frequency tables
    scores = _VADER.polarity_scores(_for_vader(t)) if _SCORABLE.search(t) else _NO_SCORES
    if (scores["compound"] or scores["pos"] or scores["neg"]) and not _reads_as_english(t):
        scores = _NO_SCORES
    compound = scores["compound"] - (0.5 if _COMPLAINT_RE.search(t) else 0.0)
    if compound >= _CLEAR:
        return "positive"
    if compound <= -_CLEAR:
        return "negative"
    if scores["pos"] > 0 and (scores["neg"] > 0 or compound < 0):
        return "neutral"  # praise and complaint that cancel out ("great lessons but too slow")
    return None
