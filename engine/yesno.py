"""The yes/no reader: a yes, a no, or None when the message does not settle it (a hedge, both, a question).

One reader for every yes/no question of every bot (engine/extract.py holds the `Parser` it is made into);
a yes or a no of another language is read in English (engine/gloss.py).
"""

from __future__ import annotations

import re

from engine import gloss
from engine.extract import _FUNCTION_WORD, SENTENCE_LANGUAGES, Parser, _norm, _zipfs

# "why not", agreeing, in six languages (matched on the text with its accents: `_norm`)
_WHY_NOT = (
    r"why not|y not|por qu[eé] no|pourquoi pas|warum nicht|wieso nicht|perch[eé] no|por qu[eê] n[aã]o|porque n[aã]o"
)
# One reader for every yes/no question (onboarding, support, tutoring, analysis): a hedge
# or a mix of both is unclear and gets asked again, never taken as a yes.
_UNCLEAR = re.compile(
    r"\b(?:not sure|unsure|no idea|no clue|maybe|perhaps|dunno|idk|don'?t know|do not know|hard to say|"
    r"can'?t tell|cannot tell|not certain|who knows|depends|not yet sure)\b"
)
_NO_PHRASE = re.compile(
    r"^(?:(?:definitely|absolutely|certainly|of course|surely|really|sure) not|not at all|not yet|not really|"
    r"wrong|incorrect|not right|not correct|that'?s wrong|not now|not today|rather not|no thanks|no thank you|"
    r"let'?s not|i'?d rather not|i don'?t think so|(?:i )?(?:don'?t|do not) (?:want|need|think|have)|no way|"
    r"not interested|never mind|nevermind|probably not|(?:please )?don'?t bother|not (?:right now|rn)|"
    r"(?:i )?guess not|i (?:think|suppose|believe) not|i'?m afraid not)\b"
)
_YES_PHRASE = re.compile(
    r"^(?:yes|yeah|yea|yep|yup|ya|y|sure|ok|okay|k|correct|right|that'?s right|exactly|absolutely|definitely|"
    r"certainly|of course|please(?: do)?|sounds good|go ahead|let'?s(?: do it| go)?|i guess so|guess so|"
    r"i think so|i do|fine|alright|all right|ja|si|sí|sì|oui|da|ye|kk|ok(?:ie|i|ey)|go on then|go for it|do it|"
    r"all (?:good|correct|fine)|looks (?:good|right|correct|fine)|perfect|"
    r"(?:i )?suppose so|i'?d (?:love|like) (?:that|one|it)|that(?:'d| would) be (?:great|nice|good|helpful|perfect)|"
    + _WHY_NOT
    + r")\b"
)
# "yesss", "nooo", "okk": a drawn-out yes or no is still one
_DRAWN_OUT = re.compile(r"\b(?:y+e+s+|y+e+a+h+|y+u+p+|n+o+|n+a+h+|n+o+p+e+|o+k+)\b")
_NO_WORD = re.compile(r"^(?:no|n|nope|nah|never|nein|non|nee|n[aã]o)\b")
# "nope, maybe another day": a no that puts it off is still a no, however it hedges the when
_PUT_OFF = re.compile(r"\b(?:another (?:day|time)|some other time|(?:maybe |perhaps )?later|not (?:now|today|yet))\b")
# a "no" or "not" that agrees
_AGREEING_NO = re.compile(rf"\b(?:no problem|no worries|no doubt|{_WHY_NOT})\b")
# words of courtesy after a yes ("yes please?", "ja, gerne?", "sí, por favor"): no question of their own
_COURTESY = re.compile(
    r"\b(?:please|pls|plz|thanks|thank you|thx|gerne|bitte|danke|por favor|porfa|gracias|s'il (?:te|vous) pla[iî]t|"
    r"stp|svp|merci|per favore|grazie|obrigad[oa])\b"
)
_SAYS_NO = re.compile(r"\b(?:no|nope|nah|not)\b")
_THINKING = re.compile(r"^(?:(?:h+m+|u+m+|u+h+|e+r+m*|well|oh|ah|hm+)\s++)+(?=\w)")
# the emoji that say yes or no when nothing else in the message does
_THUMBS_UP = frozenset("👍👌✅✔🆗")
_THUMBS = re.compile("[👍👌✅✔🆗👎❌]")


def read_yes_no(text: str) -> bool | None:
    """True, False, or None when the message does not settle it (a hedge, both, or a question);
    a yes or a no of another language ("sim", "está mal") is read in English (engine/gloss.py)."""
    said = _yes_no(text)
    if said is None and (glossed := gloss.in_english(text)) != text:
        return _yes_no(glossed)
    return said


def _yes_no(text: str) -> bool | None:
    t = re.sub(r"[^\w\s']", " ", _norm(text).replace("’", "'")).strip()
    if not t and (thumbs := _THUMBS.findall(text)) and len(set(thumbs)) == 1:
        return thumbs[0] in _THUMBS_UP  # "👍" alone (beside other emoji) agrees, "👎" refuses
    t = _DRAWN_OUT.sub(lambda m: re.sub(r"(\w)\1+", r"\1", m.group(0)), t)
    # a sound of thinking before it says nothing: "hmm not really", "well yes", "uh no"
    t = _THINKING.sub("", t)
    if _NO_WORD.search(t) and _PUT_OFF.search(t):
        return False
    if not t or _UNCLEAR.search(t):
        return None
    agreeing = _AGREEING_NO.search(t)
    if agreeing is not None and agreeing.start() == 0:
        t = _AGREEING_NO.sub("yes", t)
    if _NO_PHRASE.search(t) or _NO_WORD.search(t):
        return False
    m = _YES_PHRASE.search(t)
    if m is None:
        return _judged(t)
    rest = _COURTESY.sub("", _AGREEING_NO.sub("", t[m.end() :]))
    # "yes, but not really" takes it back; "ok what now?" asks something instead of agreeing
    if _SAYS_NO.search(rest) or (rest.strip() and text.rstrip().endswith("?")):
        return None
    return True


# what a short sentence may say of what it points at, as `_yes_no` reads it (other languages' words glossed into
# English: "falsch", "mal", "sbagliato" -> "wrong", "richtig" -> "yes")
_JUDGEMENTS = (
    "wrong",
    "incorrect",
    "right",
    "correct",
    "not wrong",
    "not incorrect",
    "not right",
    "not correct",
    "yes",
)


def _judged(t: str) -> bool | None:
    """The yes or no of a judgement said of "that": "that is wrong", "das ist falsch", "eso está mal",
    "questo è sbagliato", "das ist richtig". The one or two words before it are a subject and a verb: each
    among the most used words of one language (`_FUNCTION_WORD`), as no name or topic is."""
    words = t.split()
    for size in (1, 2):
        said, lead = " ".join(words[-size:]), words[:-size]
        languages = range(len(SENTENCE_LANGUAGES))
        if (
            said in _JUDGEMENTS
            and 1 <= len(lead) <= 2
            and any(all(_zipfs(w)[i] >= _FUNCTION_WORD for w in lead) for i in languages)
        ):
            return _yes_no(said)
    return None


def hedged(text: str) -> bool:
    """Whether `text` hedges a yes/no ("maybe", "not sure", "yes but I don't know"): unclear on purpose."""
    t = re.sub(r"[^\w\s']", " ", _norm(text).replace("’", "'"))
    return bool(_UNCLEAR.search(t))


def yes_no() -> Parser:
    def rule(text: str) -> object:
        return read_yes_no(text)

    return Parser(rule, "yes or no")
