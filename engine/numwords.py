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
import unicodedata
from functools import lru_cache

from text_to_num import alpha2digit
from wordfreq import zipf_frequency

LANGUAGES = ("en", "es", "fr", "de", "it", "pt")
# the languages detect_language tells apart (Dutch too: a reply in Dutch is no reply in German)
_DETECTED = ("en", "de", "fr", "es", "it", "pt", "nl")

# Articles and "about" words that text2num reads as 1 ("un perro", "unos cuarenta"): a number
# only when the message is that word alone.
_ARTICLES = {
    "es": ("un", "una", "unos", "unas"),
    "fr": ("un", "une"),
    "de": ("ein", "eine", "einen", "einem", "einer", "eines"),
    "it": ("un", "una"),
    "pt": ("um", "uma", "uns", "umas"),
}
# "one" as a pronoun: "no one", "which one", "the second one", "one of them", "the latest one", "my old one" (a
# determiner and one word that builds no number: "the twenty one" is 21)
_PRONOUN_ONE = re.compile(
    r"(?:\b(?:no|some|any|every|this|that|which|each|another|other|first|second|third|last|next|right|wrong|"
    r"same|new|old|big|little|small|good|bad|best|worst|[a-z]{2,}est)\s+)one\b"
    r"|\b(?:the|my|your|his|her|our|their)\s+(?!(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred"
    r"|thousand|and)\b)[a-z]++\s+one\b"
    r"|\bone(?=\s+(?:of\s+(?:a|an|the|them|us|those|these|"
    r"my|your|our|his|her|their)|another|more\s+time)\b)",
    re.I,
)
_DOZEN = (
    (re.compile(r"\bhalf\s+a\s+dozen\b", re.I), "6"),
    (re.compile(r"\ba\s+dozen\b", re.I), "12"),
    # a couple of things is two ("a couple of days", "un par de días", "un paio di volte"), said for a count as
    # often as the number; "a couple years" said in passing stays words (German "ein paar" is a few, and stays)
    (re.compile(r"\ba\s+couple\s+of\b|\bu[nm]\s+par\s+de\b|\bun\s+paio\s+di\b", re.I), "2"),
)
_ISH = re.compile(r"(?<=\d)-?ish\b", re.I)  # "30ish", "7-ish"
_MINUS = re.compile(r"\bminus\s+(?=\d)", re.I)
_DIGIT_RUN = re.compile(r"\d+(?:[.,]\d+)?")
# A cheap test of whether a number word may be in a message at all, before six text2num calls
# and the word-frequency tables: the first letters of the words numbers are built from, folded
# ("zwölf" is "zwolf"). text2num still does the reading; the test only spares it the messages
# with no such word (most of them). A test checks every number word of the corpus passes it.
_NUMBER_WORDS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty thirty forty fourty fifty sixty seventy eighty ninety hundred thousand "
    "million billion dozen minus half point",
    "es": "cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis "
    "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento doscientos quinientos mil millon",
    "fr": "zero un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt "
    "trente quarante cinquante soixante cent mille million",
    "de": "null eins ein eine zwei drei vier funf sechs sieben acht neun zehn elf zwolf sechzehn siebzehn zwanzig "
    "dreissig dreißig vierzig funfzig sechzig siebzig achtzig neunzig hundert tausend million",
    "it": "zero uno una due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici "
    "sedici diciassette diciotto diciannove venti ventuno trenta quaranta cinquanta sessanta settanta ottanta "
    "novanta cento mille mila milione",
    "pt": "zero um uma dois duas tres quatro cinco seis sete oito nove dez onze doze treze catorze quatorze quinze "
    "dezesseis dezasseis dezessete dezoito dezenove vinte trinta quarenta cinquenta sessenta setenta oitenta "
    "noventa cem cento duzentos mil milhao",
}
_ALL_NUMBER_WORDS = [w for words in _NUMBER_WORDS.values() for w in words.split()]
_ALL_NUMBER_SET = frozenset(_ALL_NUMBER_WORDS)


def number_words() -> frozenset[str]:
    """The number words of the six languages (engine/typos.py writes a word typed a letter off as one of them)."""
    return _ALL_NUMBER_SET


_STEMS = frozenset(w[:4] for w in _ALL_NUMBER_WORDS if len(w) >= 4)
_SHORT = frozenset(w for w in _ALL_NUMBER_WORDS if len(w) < 4)
# glued compounds that open with a short word ("einhundertzwanzig", "unoventi"): their multiplier
_INSIDE = ("hundert", "tausend", "zig", "cent", "mil", "vent", "dieci")
_LETTERS = re.compile(r"[a-z]+")


def may_hold_number(text: str) -> bool:
    """Whether `text` may say a number at all: a digit, or a word numbers are built from (the cheap test
    below); a reader that only needs numbers skips the rest with it."""
    return any(map(str.isdigit, text)) or _may_hold_number_word(text)


def _may_hold_number_word(text: str) -> bool:
    for w in _LETTERS.findall(_folded(text).lower()):
        if w in _SHORT or w[:4] in _STEMS or (len(w) > 6 and any(part in w for part in _INSIDE)):
            return True
    return False


_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"\w+")

# Misspelt number words ("thre", "eigth", "fourten", "twelev"): a word one typo (a letter
# missing, extra, wrong or two swapped) from exactly one number word becomes that word, but
# only when the word is no word of any language read here ("tree", "fife", "tow", "sixt" are
# words, and stay). Four letters at least: shorter words are too near too many others.
_TYPO_MIN = 4
# words that build numbers but are none: "minuts" is "minutes" misspelt, never "minus"
_NOT_TYPO_TARGETS = frozenset({"minus", "half", "point"})
_ALPHA_WORD = re.compile(r"(?<![\w§])[a-z]{4,}(?![\w§])", re.I)


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


@lru_cache(maxsize=1)
def _typo_index() -> dict[str, frozenset[str]]:
    """Each number word, and each of it with one letter left out, to the number words it comes
    from (the symmetric-deletion index: a query and a word one edit apart share a key)."""
    index: dict[str, set[str]] = {}
    for w in _ALL_NUMBER_WORDS:
        if len(w) < _TYPO_MIN or w in _NOT_TYPO_TARGETS:
            continue
        for key in {w} | _deletions(w):
            index.setdefault(key, set()).add(w)
    return {k: frozenset(v) for k, v in index.items()}


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` and `b` are one insertion, deletion, substitution or transposition apart."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _typo_number_word(word: str) -> str | None:
    lower = _folded(word).lower()
    if len(lower) < _TYPO_MIN or lower in _ALL_NUMBER_SET:
        return None
    index = _typo_index()
    found = {w for key in {lower} | _deletions(lower) for w in index.get(key, ()) if _one_edit(lower, w)}
    if len(found) != 1:
        return None
    if any(_zipf(lower, lang) > 0 for lang in LANGUAGES):
        return None
    return found.pop()


def typos_fixed(text: str) -> str:
    """`text` with its misspelt number words spelt right ("thre days" -> "three days")."""
    return _ALPHA_WORD.sub(lambda m: _typo_number_word(m.group()) or m.group(), text)


# Number words text2num reads only with their accents, as a message folded by a reader before it asks
# ("so ungefahr funfzehn minuten": engine/extract.py `fold`) or typed without them ("zwolf", "veintidos")
# has them not: put back inside a word before text2num reads it ("funfundzwanzig" is "fünfundzwanzig").
_ACCENTED = {
    "de": (("funf", "fünf"), ("zwolf", "zwölf")),
    "es": (("veintidos", "veintidós"), ("veintitres", "veintitrés")),
    "fr": (("zero", "zéro"),),
}
_ACCENTED_RE = {
    lang: re.compile(rf"(?<![^\W\d_])[^\W\d_]*?(?:{'|'.join(f for f, _ in pairs)})[^\W\d_]*", re.I)
    for lang, pairs in _ACCENTED.items()
}


def _with_accents(text: str, lang: str) -> str:
    pattern = _ACCENTED_RE.get(lang)
    if pattern is None:
        return text

    def put_back(m: re.Match[str]) -> str:
        word = m.group()
        for folded, accented in _ACCENTED[lang]:
            word = re.sub(folded, accented, word, flags=re.I)
        return word

    return pattern.sub(put_back, text)


def _convert(text: str, lang: str) -> str:
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:  # a word text2num must not read: put back after it has read the rest
        kept.append(m.group())
        return f" §{len(kept) - 1}§ "

    masked = _with_accents(text, lang)
    if lang == "en":
        masked = _PRONOUN_ONE.sub(keep, masked)
    elif lang in _ARTICLES and len(_TOKEN.findall(text)) > 1:  # "un 4" (read once already) counts two
        masked = re.sub(rf"\b(?:{'|'.join(_ARTICLES[lang])})\b", keep, masked, flags=re.I)
    try:
        out = str(alpha2digit(masked, lang, threshold=0))
    except (ValueError, KeyError, IndexError):  # text2num refuses odd input: read it as typed
        return text
    return re.sub(r" ?§(\d+)§ ?", lambda m: f" {kept[int(m.group(1))]} ", out).strip() if kept else out


@lru_cache(maxsize=8192)
def _zipf(word: str, lang: str) -> float:
    # the small lists: quicker to load, and the same tables engine/extract.py reads
    return float(zipf_frequency(word, lang, wordlist="small"))


def _fluency(words: list[str], lang: str) -> float:
    return sum(_zipf(w, lang) for w in words)


@lru_cache(maxsize=4096)
def spelled_out(text: str) -> str:
    """`text` with its number words written as digits, in the language that reads them.

    "a hundred and ten" -> "a 110"; "tengo veinticinco años" -> "tengo 25 años"; "once a week"
    is unchanged (English, where "once" is no number).
    """
    for pattern, digits in _DOZEN:
        text = pattern.sub(digits, text)
    text = typos_fixed(text)
    if not _may_hold_number_word(text):
        return _tidy(text)
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
    readings = [(c, _convert(text, c)) for c in LANGUAGES[1:]]
    readings = [(c, r) for c, r in readings if len(_DIGIT_RUN.findall(r)) > before]
    if not readings:
        return _tidy(text)  # most messages: no word frequencies looked up (their tables load slowly)
    best = max(_fluency(words, code) for code in LANGUAGES)
    lang, reading = max(readings, key=lambda cr: _fluency(words, cr[0]))
    if _fluency(words, lang) < best - 0.5 * len(words):
        return _tidy(text)
    return _tidy(reading)


def _folded(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


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


def warm_up() -> None:
    """Load the word-frequency tables of every language now (see engine.extract.warm_up)."""
    for lang in LANGUAGES:
        _zipf("warm", lang)


def detect_language(text: str, *, least_words: int = 4, margin: float = 1.25) -> str | None:
    """The language of `text` among a few, by word frequencies; None when it has fewer than `least_words`
    words or no language scores `margin` times the next. A reader asking only which language the words
    around one word lean to (flows/fitness/ahead.py) asks with one word and no margin."""
    words = [w for w in re.findall(r"[^\W\d_]+", text.lower()) if len(w) > 1]
    if len(words) < max(least_words, 1):
        return None
    scores = {lang: sum(zipf_frequency(w, lang, wordlist="small") for w in words) for lang in _DETECTED}
    best = max(scores, key=lambda lang: scores[lang])
    runner_up = max(v for k, v in scores.items() if k != best)
    # only a clear winner counts: short mixed messages ("ok, danke") decide nothing
    return best if scores[best] > runner_up * margin else None
