"""Reading feedback out of any message of the flow, not only the answer to the question asked.

"I want to complain, the checkout button does nothing" gives the comment with the request;
"3 — the audio keeps cutting out" gives it with the rating, and "5 stars from me" the rating; "honestly
it's wonderful" says how it went. "oh and change my rating to 1" is the engine's correction of the
rating (feedback.py's `correctable`, engine/corrections.py), in the six languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from wordfreq import zipf_frequency

from engine.cues import in_english_cues
from engine.extract import Invalid, Parser, choice, fold, rating
from engine.fact_clauses import clauses
from engine.feeling import sentiment
from engine.hedges import unhedged
from engine.numwords import spelled_out

# What asks for the flow rather than describing anything ("I want to complain", "feedback:")
_REQUEST = re.compile(
    r"^\s*+(?:hi|hey|hello|so|well|ok|okay)?[,!\s]*+(?:i(?:'d| would)? (?:want|like|need) to|i wanna|let me|can i|"
    r"may i|i have to|i must|i'd love to)?\s*+(?:give|leave|send|share|make|file|report|submit)?\s*+"
    r"(?:some |a |an |my )?(?:feedback|complain(?:t)?|review|suggestion|bug report|report)"
    r"(?: about (?:the |this |your )?(?:app|bot))?\s*+[:,;.!—–-]*+\s*+",
    re.IGNORECASE,
)
# a rating first, then what it is about: "3 — the audio keeps cutting out", "2/5, way too slow";
# a rating written on its scale ("2/5", "8/10", "4 out of 5", "4 stars") needs no comma after it
_RATING_FIRST = re.compile(
    r"^\s*(?:(?:a|an|solid|strong|weak|like|maybe|about|i'?d say|i give it|i'?ll give it|give it|rating:?"
    # the same leads in the other languages the bots' users write in ("un 2, la app se cuelga", "nota 1. tudo trava")
    r"|un|una|une|uno|um|uma|ein|eine|einen|nota|note|voto|punteggio|je mets|je donne|ich gebe|le doy|le pongo"
    r"|dou|daria|darei|direi|dire[ií]a|yo dir[ií]a)\s+)*+"
    r"(?:(?:[1-5]|[1-5] stars?)\s*(?:[:,;.!—–-]|\s(?:because|since|as))"
    r"|(?:\d{1,2}\s*(?:/|out of)\s*\d{1,2}|[1-5] stars?)[:,;.!—–-]?\s)\s*",
    re.I,
)
_QUESTIONISH = re.compile(r"\?\s*$|^\s*(?:what|why|how|huh|sorry)\b", re.I)
_read_rating = rating(1, 5)
_read_sentiment = sentiment()


# a message of at least this many words that says how it went, and is no request, rating or
# question, describes what happened: the comment
COMMENT_WORDS = 5
_NAMES_REQUEST = re.compile(r"\b(?:feedback|complain(?:t|ts|ing)?|review|suggestion|report)\b", re.IGNORECASE)


# a rating said after the rating, as the other one it might be ("maybe 3, 4 on a good day", "4, maybe 5 later when
# the audio works"): a number of the scale opening the rest, past a hedge, not counting something ("3 times")
_ANOTHER_RATING = re.compile(
    r"^(?:(?:or|maybe|perhaps|probably|like|more like|or maybe|o|quizás|quizá|peut-être|vielleicht|oder|forse|talvez|"
    r"ou)\s+)*(?:a\s+)?[1-5](?:\s*(?:/\s*5|stars?))?(?!\s*(?:times|x|%|days?|hours?|minutes?|min|weeks?|months?|"
    r"years?|lessons?|of|out|[.,]\d))\b",
    re.I,
)


def _another_rating(rest: str) -> bool:
    """Whether `rest`, what follows a rating, opens with another rating: it qualifies the rating, no comment."""
    return _ANOTHER_RATING.match(rest.strip()) is not None


def _detail(text: str) -> object:
    """What is described beside a request or a rating, or alone when it says how it went: the comment;
    None when there is no such part.
    A rating said in words ("four out of five, ...") is found with its words as digits; the comment is
    kept as typed (taken only when the digits left it unchanged)."""
    spelled = spelled_out(text)
    led = False
    for lead, said in ((_REQUEST, text), (_RATING_FIRST, text), (_RATING_FIRST, spelled)):
        m = lead.match(said)
        if m is None or m.end() == 0:
            continue
        led = True
        rest = said[m.end() :].strip()
        if said is spelled and not text.rstrip().endswith(rest):
            continue
        if len(rest.split()) >= 3 and not _QUESTIONISH.search(rest) and not _another_rating(rest):
            return rest
    # the rating as the message's first clause, however it is joined to the rest or hedged ("4 but the
    # lessons are too easy", "hmm 4 i guess, the lessons are a bit too easy", "un 4 pero las lecciones son
    # fáciles"): the engine's clauses, in the six languages, where the leads above need a comma or "because"
    if led:
        return None  # a lead above found the rating or the request, and too little beside it
    # a hedge the message ends with is no comment ("vier Sterne, würde ich sagen"); a rating and three words
    # of comment are four at least (most feedback messages: a rating alone, read by the asked question)
    bare = unhedged(text) if len(text.split()) >= 4 else None
    said = bare.words if bare is not None else text
    parts = clauses(said) if len(said.split()) >= 4 else []
    if len(parts) > 1 and _rating_alone(parts[0].text):
        rest = said[parts[1].start :].strip()
        if len(rest.split()) >= 3 and not _QUESTIONISH.search(rest):
            return rest
    # "the lessons are too easy honestly" before any rating: how it went, told in a sentence, is the
    # comment ("honestly it's wonderful" says only how, and "I want to complain" is the request)
    if len(text.split()) < COMMENT_WORDS or _QUESTIONISH.search(text):
        return None
    if _NAMES_REQUEST.search(in_english_cues(text)):
        return None  # "bonjour, j'ai une réclamation à faire": the request, in another language
    return text.strip() if _read_sentiment(text) in ("positive", "negative") else None


def _rating_alone(clause: str) -> bool:
    """Whether a clause is a rating and nothing else but hedges and a word before it ("4", "hmm 4 i
    guess", "un 4"); not a number in a sentence ("my son is 4")."""
    bare = unhedged(clause)
    said = bare.words if bare is not None else clause
    found = _read_rating(said)
    return len(said.split()) <= 2 and isinstance(found, int) and not isinstance(found, bool)


# a rating said with its scale, anywhere: "5 stars from me", "honestly 4/5", "3 out of 5"
_SCORED = re.compile(r"(?<![\w/.])([1-5])\s*(?:stars?\b|/\s*5(?![\d/])|out of (?:5|five)\b)", re.I)


def _rating_change(text: str) -> object:
    """A rating said with its scale ("5 stars from me", "honestly 4/5"); one named as a change ("change my
    rating to 1") is the engine's correction (engine/corrections.py), read before this."""
    scored = {int(s) for s in _SCORED.findall(text)}
    return scored.pop() if len(scored) == 1 else None


def _mood(text: str) -> object:
    """How it went, when the message says so clearly (not a bare rating or a request)."""
    if _REQUEST.match(text) and _REQUEST.match(text).end() == len(text):  # type: ignore[union-attr]
        return None
    found = _read_sentiment(text)
    # "ok fine 2": beside a rating, "ok" or "fine" gives in, it is no mood; the rating says how it went
    if found == "neutral" and isinstance(_read_rating(text), int):
        return None
    return found


# a word this common in English ("what", "the", "mean") is what the user meant, never a
# misspelt category ("wait", "other"); the same line the support search draws for typos
_COMMON_WORD_ZIPF = 3.0
_MIN_TYPO_LETTERS = 4


def category_reader(options: Mapping[str, Sequence[str]], prefer: Sequence[str] = ()) -> Parser:
    """One of `options` by its word or synonym; a close spelling only of a rare word ("latncy").
    Where the words of several match, the one of `prefer` whose words alone are there is taken: what
    went wrong (it freezes, it is slow) says the area better than where it went wrong (the lessons)."""
    exact = choice(options, fuzzy=False)
    close = choice(options)
    alone = {c: choice({c: options[c]}, fuzzy=False) for c in prefer}

    def rule(text: str) -> object:
        found = exact(text)
        if isinstance(found, Invalid) and alone:
            wrong = [c for c, says in alone.items() if says(text) == c]
            found = wrong[0] if len(wrong) == 1 else found
        if found is not None:
            return found
        rare = [
            w
            for w in re.findall(r"[^\W\d_]+", fold(text))
            if len(w) >= _MIN_TYPO_LETTERS and zipf_frequency(w, "en", wordlist="small") < _COMMON_WORD_ZIPF
        ]
        return close(" ".join(rare)) if rare else None

    return Parser(rule, exact.expects)


comment_anywhere = Parser(_detail, "what happened, beside a request or a rating")
rating_change = Parser(_rating_change, "a new rating from 1 to 5")
sentiment_anywhere = Parser(_mood, "how it went")
