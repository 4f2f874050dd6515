"""Numbers as people say them, in English, Spanish, French, German, Italian and Portuguese.

One reader for every flow: "twenty five", "a hundred and ten", "fünfundzwanzig", "trois sur
cinq", "two outta five", "fifteen, no wait, sixteen". Number words become digits through
text2num, in the language that reads them: English first, another language only when the
message's words are more of that language than of English (by wordfreq), so that "once a
week" stays English and "once" is no eleven. What is a number and what is only a word that
looks like one (the article "un", the pronoun in "no one") is decided here, once.

Measured on tests/corpora/numbers/ (`python bench/number_words.py`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import alpha2digit
from wordfreq import zipf_frequency

LANGUAGES = ("en", "es", "fr", "de", "it", "pt")

# Articles and "about" words that text2num reads as 1 ("un perro", "unos cuarenta"): a number
# only when the message is that word alone.
_ARTICLES = {
    "es": ("un", "una", "unos", "unas"),
    "fr": ("un", "une"),
    "de": ("ein", "eine", "einen", "einem", "einer", "eines"),
    "it": ("un", "una"),
    "pt": ("um", "uma", "uns", "umas"),
}
# "one" as a pronoun: "no one", "which one", "the second one", "one of them"
_PRONOUN_ONE = re.compile(
    r"(?:\b(?:no|some|any|every|this|that|which|each|another|other|first|second|third|last|next|right|wrong|"
    r"same|new|old|big|little|small|good|bad)\s+)one\b|\bone(?=\s+(?:of\s+(?:a|an|the|them|us|those|these|"
    r"my|your|our|his|her|their)|another|more\s+time)\b)",
    re.I,
)
_DOZEN = ((re.compile(r"\bhalf\s+a\s+dozen\b", re.I), "6"), (re.compile(r"\ba\s+dozen\b", re.I), "12"))
_ISH = re.compile(r"(?<=\d)-?ish\b", re.I)  # "30ish", "7-ish"
_MINUS = re.compile(r"\bminus\s+(?=\d)", re.I)
_DIGIT_RUN = re.compile(r"\d+(?:[.,]\d+)?")
_WORD = re.compile(r"[^\W\d_]+")


def _convert(text: str, lang: str) -> str:
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:  # a word text2num must not read: put back after it has read the rest
        kept.append(m.group())
        return f" §{len(kept) - 1}§ "

    masked = text
    if lang == "en":
        masked = _PRONOUN_ONE.sub(keep, masked)
    elif lang in _ARTICLES and len(_WORD.findall(text)) > 1:
        masked = re.sub(rf"\b(?:{'|'.join(_ARTICLES[lang])})\b", keep, masked, flags=re.I)
    try:
        out = str(alpha2digit(masked, lang, threshold=0))
    except (ValueError, KeyError, IndexError):  # text2num refuses odd input: read it as typed
        return text
    return re.sub(r" ?§(\d+)§ ?", lambda m: f" {kept[int(m.group(1))]} ", out).strip() if kept else out


def _fluency(words: list[str], lang: str) -> float:
    return sum(zipf_frequency(w, lang) for w in words)


@lru_cache(maxsize=4096)
def spelled_out(text: str) -> str:
    """`text` with its number words written as digits, in the language that reads them.

    "a hundred and ten" -> "a 110"; "tengo veinticinco años" -> "tengo 25 años"; "once a week"
    is unchanged (English, where "once" is no number).
    """
    for pattern, digits in _DOZEN:
        text = pattern.sub(digits, text)
    before = len(_DIGIT_RUN.findall(text))
    english = _convert(text, "en")
    if len(_DIGIT_RUN.findall(english)) > before:
        return _tidy(english)
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return _tidy(text)
    # The language that reads number words in it must be about as fluent a reading of the whole
    # message as the best one: "não sei" is Portuguese (no Italian "sei", six), "once a week"
    # English (no Spanish "once", eleven), while "doce" reads as Spanish twelve though it is
    # also Portuguese "sweet". Half a zipf point per word is the slack.
    best = max(_fluency(words, code) for code in LANGUAGES)
    readings = [(c, _convert(text, c)) for c in LANGUAGES[1:]]
    readings = [(c, r) for c, r in readings if len(_DIGIT_RUN.findall(r)) > before]
    if not readings:
        return _tidy(text)
    lang, reading = max(readings, key=lambda cr: _fluency(words, cr[0]))
    if _fluency(words, lang) < best - 0.5 * len(words):
        return _tidy(text)
    return _tidy(reading)


def _tidy(text: str) -> str:
    return _MINUS.sub("-", _ISH.sub("", text))


def in_every_language(text: str) -> list[str]:
    """`text` as each language's number words read it, every word that may be a number taken as one.

    For evidence, not for answers: the guard asks whether a value could have been said at all,
    so "which one" evidences a 1 here although `spelled_out` reads no number in it.
    """
    text = re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])", " ", text)  # "seven-ish", "forty-five"
    out = []
    for lang in (*LANGUAGES, "nl"):  # text2num reads Dutch too
        try:
            out.append(str(alpha2digit(text, lang, threshold=0)))
        except (ValueError, KeyError, IndexError):  # text2num refuses odd input: read it as typed
            out.append(text)
    return out
