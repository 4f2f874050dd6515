"""Answer words of other languages written in English, for readers written in English.

Every flow's parsers were written for English answers: "half an hour", "twice a week",
"mon, wed, fri", "none". Users and learners answer "media hora", "zweimal pro Woche", "lunes,
miércoles y viernes", "ninguna". `in_english` rewrites the generic answer words of Spanish,
French, German, Italian and Portuguese (engine/data/gloss.yaml, checked on load) and the
weekday names of those languages (CLDR's, through babel) as English, leaving every other word
as typed. `Parser` (engine/extract.py) reads the rewritten message only when the message as
typed gave no answer, so English answers, names and free text are read as they always were,
and what is stored is the parser's value, never the rewritten text.

Matching ignores case and accents and takes whole words, the longest phrase first; a weekday
abbreviation that is also an English word ("mar", "sat", "do") is left out.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from babel import Locale
from wordfreq import zipf_frequency

from engine.cues import CueTable, fold_same_length, load_cues, phrase_pattern, replace_folded
from engine.numwords import spelled_out

GLOSS_FILE = Path(__file__).parent / "data" / "gloss.yaml"
LANGUAGES = ("es", "fr", "de", "it", "pt")
_ENGLISH_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# an abbreviation this common in English is an English word first ("mar", "sat", "so", "do")
_COMMON_ENGLISH = 3.0


def weekday_names(languages: tuple[str, ...] = LANGUAGES) -> dict[str, str]:
    """Weekday names of `languages` (wide, abbreviated, plural, Portuguese without "-feira"),
    folded, each with its English name (a plural with the English plural)."""
    out: dict[str, str] = {}
    for language in languages:
        days = Locale(language).days
        for context in ("format", "stand-alone"):
            for index, name in days[context]["wide"].items():
                english = _ENGLISH_DAYS[index]
                for form in {name, name.split("-")[0]}:
                    out[fold_same_length(form)] = english
                # the plural in the plural ("lundis", "montags", "terças": "mondays"): a day that comes back
                # each week (engine/weekdays.py), where a singular is one day
                for form in {name + "s", name.split("-")[0] + "s"}:
                    out.setdefault(fold_same_length(form), english + "s")
            for index, short in days[context]["abbreviated"].items():
                word = fold_same_length(short.rstrip("."))
                if len(word) >= 3 and zipf_frequency(word, "en", wordlist="small") < _COMMON_ENGLISH:
                    out.setdefault(word, _ENGLISH_DAYS[index])
    return out


def load_gloss(path: Path = GLOSS_FILE) -> CueTable:
    """The answer-word table, validated like the cue table (engine/cues.py); a broken file says what to fix."""
    return load_cues(path)


@lru_cache(maxsize=1)
def _compiled() -> tuple[list[tuple[re.Pattern[str], str]], re.Pattern[str], dict[str, str]]:
    table = load_gloss()
    english = {fold_same_length(p): e for e, phrases in table.phrases.items() for p in phrases}
    for name, day in weekday_names().items():
        english.setdefault(name, day)
    # a frame's "{weekday}" is any weekday name of the five languages (longest first: "quinta-feira", "quinta")
    days = "(?:" + "|".join(re.escape(d) for d in sorted(weekday_names(), key=len, reverse=True)) + ")"
    frames = [(re.compile(f.pattern.replace("{weekday}", days)), f.english) for f in table.frames]
    return frames, phrase_pattern(sorted(english)), english


_WORD = re.compile(r"\w+")
# every frame starts with one of these ("de 14h à 16h", "dalle 15 alle 17")
_FRAME_STARTS = frozenset({"de", "desde", "dalle", "dalla", "das", "dos", "von", "entre", "las", "alle", "um", "gegen"})
# a frame's hour marked by its unit ("à 19h", "às 7h", "19 uhr"): the unit is the key
_HOUR_KEYS = frozenset(
    {"uhr", "heure", "heures", "hora", "horas", *(f"{n}h" for n in range(25))}
    # a clock time with "h" between hours and minutes ("19h30"), which a frame writes "19:30"
    | {f"{n}h{m:02d}" for n in range(25) for m in range(60)}
)


@lru_cache(maxsize=1)
def _keys() -> frozenset[str]:
    """For each phrase, its word least used in English ("semana" of "a la semana"), and the words
    a frame starts with: a message with none of them has nothing to rewrite, which most messages
    show with one set lookup a word."""
    _, _, english = _compiled()
    keys = {min(_WORD.findall(p), key=lambda w: zipf_frequency(w, "en", wordlist="small")) for p in english}
    return frozenset(keys) | _FRAME_STARTS | _HOUR_KEYS


def _framed(english: str) -> Callable[[re.Match[str], str], str]:
    """The frame's English with \\1, \\2… as typed (the match was made on the folded text)."""

    def said(m: re.Match[str], typed: str) -> str:
        out = english
        for i in range(len(m.groups()), 0, -1):  # \\12 before \\1
            start, end = m.span(i)
            out = out.replace(f"\\{i}", typed[start:end] if start >= 0 else "")
        return out

    return said


_JOINED_NUMBER = re.compile(
    r"(?<![\w'])(?:veinte|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|ciento|vinte|trinta|quarenta"
    r"|cinquenta|sessenta|oitenta|cento|duzentos|trezentos)\s+(?:y|e)\s+(?:uno|una|um|uma|dos|dois|duas|tres|cuatro"
    r"|quatro|cinco|seis|siete|sete|ocho|oito|nueve|nove|diez|dez|\w+enta)(?![\w'])"
)


@lru_cache(maxsize=512)  # a turn's parsers read the same message many times; messages go up to 4,000 characters
def in_english(text: str) -> str:
    """`text` with the answer words of other languages written in English; `text` itself when it has none."""
    folded = text.lower() if text.isascii() else fold_same_length(text)
    if _keys().isdisjoint(_WORD.findall(folded)):
        return text
    # a number said with its joining word ("cuarenta y cinco", "trinta e cinco") is one number: written in
    # digits before "y" becomes "and" ("cuarenta and cinco" would read as 5)
    if _JOINED_NUMBER.search(folded):
        text = replace_folded(text, _JOINED_NUMBER, lambda m, typed: spelled_out(typed[m.start() : m.end()]))
    frames, pattern, english = _compiled()
    if not _FRAME_STARTS.isdisjoint(_WORD.findall(folded)):
        # a clock range said in words ("das nove às onze", "de cinco a siete") is framed in digits
        # (the words glossed first: a weekday is no ordinal, "quinta das nove" is no "5ª das 9")
        worded = replace_folded(text, pattern, lambda m, typed: english[m.group()])
        spelled = spelled_out(worded)
        if spelled != worded and any(frame.search(fold_same_length(spelled)) for frame, _ in frames):
            text = spelled
    for frame, said in frames:
        text = replace_folded(text, frame, _framed(said))
    return replace_folded(text, pattern, lambda m, typed: english[m.group()])


# the answer words of time every flow's readers know, in English: a word typed one or two letters off
# one of them ("wendsday", "evnings", "tommorow") is that word
_TIME_WORDS = (
    *_ENGLISH_DAYS,
    *(d + "s" for d in _ENGLISH_DAYS),
    "weekday", "weekdays", "weekend", "weekends", "morning", "mornings", "afternoon", "afternoons",
    "evening", "evenings", "tonight", "tomorrow", "today", "midday", "lunchtime",
)  # fmt: skip
_CLOSE = 0.8
_TYPO_WORD = re.compile(r"[^\W\d_]{5,}")


@lru_cache(maxsize=4096)
def _respelled_word(word: str) -> str | None:
    folded = word.lower()
    if folded in _TIME_WORDS or zipf_frequency(folded, "en", wordlist="small") >= _COMMON_ENGLISH:
        return None  # spelt right, or an English word of its own ("tuesday", "mourning" is no typo here)
    close = difflib.get_close_matches(folded, _TIME_WORDS, n=1, cutoff=_CLOSE)
    return close[0] if close else None


@lru_cache(maxsize=512)  # as `in_english`: each parser a turn asks reads the message again
def respelled(text: str) -> str:
    """`text` with the time words typed a letter or two wrong written right ("mon wendsday fri" ->
    "mon wednesday fri", "evnings" -> "evenings"); every other word as typed."""
    return _TYPO_WORD.sub(lambda m: _respelled_word(m.group()) or m.group(), text)


# a Romance superlative ("lentísima", "lentissimo", "lentíssimos"): the adjective it raises, so that a word
# table listing "lenta" or "lento" reads it; the few irregular ones ("poquísimo") keep a stem no table lists
_SUPERLATIVE = re.compile(r"\b(\w{2,}?)(?:ísim|issim|íssim|isim)([oa])(s?)\b", re.I)


def without_superlatives(text: str) -> str:
    """`text` with each Spanish, Italian or Portuguese superlative written as its adjective ("la app va
    lentísima" -> "la app va lenta"); every other word as typed."""
    return _SUPERLATIVE.sub(lambda m: m.group(1) + m.group(2) + m.group(3), text)


def warm_up() -> None:
    """Load the table and CLDR's weekday names now, not inside a user's turn."""
    _keys()
