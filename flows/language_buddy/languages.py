"""Reading languages: English names, native names and ISO 639-1 codes, in answers and in sentences.

(Offline and deterministic.) A reader returns the stored value, `Invalid(reason)` when it can
tell the answer is unusable (the reason is the reprompt, so it says what would work), or None
when it cannot decide (a model may try). The `*_in` helpers find a value inside a longer
sentence only after an explicit cue ("I speak", "call me", "I live in"): they run on every
message of a flow and must not mistake an ordinary answer for a correction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, StringConstraints
from wordfreq import zipf_frequency

from engine import DataFileError
from engine.cues import in_english_cues
from engine.extract import Invalid, Parser, fold, ruled_out
from engine.tables import alternation, and_words, but_words, i_am_words
from flows.language_buddy.language_library import (
    library_display_name,
    library_names,
    library_names_in_user_languages,
)
from flows.language_buddy.text import PLACE_SUGGEST_SCORE, alias_pattern, closest_name, trim
from flows.shared.datafile import WordSet, load_yaml

# -- languages ----------------------------------------------------------------------------
# The names come from langcodes' data (language_data): English names, each language's own
# names, regional forms. data/languages.yaml holds only what that data lacks or gets wrong
# for us. Built on first use (about 0.2 s), never at import: `innerloop chat` starts without it.


@dataclass(frozen=True)
class Language:
    code: str
    names: tuple[str, ...]  # English names (folded); the display name comes first
    native: tuple[str, ...] = ()


LANGUAGES_FILE = Path(__file__).parent / "data" / "languages.yaml"


def _lower(value: str) -> str:
    if value != value.lower().strip():
        raise ValueError(f"{value!r} must be lower case, without surrounding spaces")
    return value


_Key = Annotated[str, StringConstraints(min_length=1), AfterValidator(_lower)]
_Code = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")]


class LanguageMarks(BaseModel):
    """What we add to the library's names (see data/languages.yaml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    extra_names: dict[_Key, _Code]
    display: dict[_Code, Annotated[str, StringConstraints(min_length=1)]]
    unread_names: list[_Key]
    word_codes: list[_Code]
    nationalities: list[_Key]
    demonyms: dict[_Code, list[_Key]] = {}
    no_language: WordSet


def load_marks(path: Path = LANGUAGES_FILE) -> LanguageMarks:
    """The marks of `path`, checked against the library; DataFileError names the file and what to fix."""
    marks = load_yaml(path, LanguageMarks)
    names = library_names()
    problems = [
        f"{key}: {code!r} is not a two-letter language the library knows"
        for key, codes in (
            ("extra_names", list(marks.extra_names.values())),
            ("display", list(marks.display)),
            ("word_codes", marks.word_codes),
        )
        for code in codes
        if code not in names
    ]
    problems += [
        f"demonyms: {code!r} is not a two-letter language the library knows"
        for code in marks.demonyms
        if code not in names
    ]
    every = {fold(n): c for c, (english, native) in names.items() for n in (*english, *native)}
    for name, code in marks.extra_names.items():
        if every.get(fold(name), code) != code:
            problems.append(f"extra_names: {name!r} is the library's name of {every[fold(name)]!r}, not {code!r}")
    problems += [
        f"unread_names: {name!r} is no library language name; remove it"
        for name in marks.unread_names
        if fold(name) not in every
    ]
    if problems:
        raise DataFileError(str(path), problems)
    return marks


@dataclass(frozen=True)
class _Table:
    languages: tuple[Language, ...]
    by_code: dict[str, Language]
    display: dict[str, str]
    aliases: dict[str, str]
    word_codes: frozenset[str]
    nationalities: frozenset[str]
    demonyms: dict[str, str]
    no_language: frozenset[str]
    pattern: re.Pattern[str]


@cache
def _table() -> _Table:
    marks = load_marks()
    unread = {fold(n) for n in marks.unread_names}
    english: dict[str, list[str]] = {}
    native: dict[str, list[str]] = {}
    display = {code: marks.display.get(code) or library_display_name(code) for code in library_names()}
    for code, (en, own) in library_names().items():
        shown_first = dict.fromkeys([fold(display[code]), *map(fold, en)])  # each once
        english[code] = [n for n in shown_first if n not in unread]
        native[code] = [n for n in map(fold, own) if n not in unread]
    for name, code in marks.extra_names.items():
        native[code].append(fold(name))
    # what learners call a language in their own language ("alemán", "Englisch"), after the
    # English and native names; short ones and common English words ("ci", "latino") are left out
    exonyms = {
        code: [fold(n) for n in names if len(n) >= 4 and fold(n) not in unread and zipf_frequency(n, "en") < 3.0]
        for code, names in library_names_in_user_languages().items()
        if code in english
    }
    aliases: dict[str, str] = {}
    # English names first: where a native name of one language is another's English name, English wins
    for table in (english, native, exonyms):
        for code, spelled in table.items():
            for alias in spelled:
                aliases.setdefault(alias, code)
                aliases.setdefault(alias + " language", code)
    languages = tuple(Language(code, tuple(english[code]), tuple(native[code])) for code in sorted(english))
    return _Table(
        languages,
        {lang.code: lang for lang in languages},
        display,
        aliases,
        frozenset(marks.word_codes),
        frozenset(fold(n) for n in marks.nationalities) | {fold(w) for ws in marks.demonyms.values() for w in ws},
        {fold(w): code for code, ws in marks.demonyms.items() for w in ws},
        frozenset(fold(n) for n in marks.no_language),
        alias_pattern(aliases),
    )


def languages() -> tuple[Language, ...]:
    """Every language the bot reads: the library's two-letter languages."""
    return _table().languages


def language_aliases() -> dict[str, str]:
    """Every name read as a language (folded), with its code."""
    return _table().aliases


def nationalities() -> frozenset[str]:
    return _table().nationalities


# "I'm Brazilian", "sou brasileira": a nationality said of oneself ("I am", "and", "but": engine/data/*.yaml)
_SELF = re.compile(
    rf"\b{alternation(i_am_words().all())} (?:a |an )?([a-z]+)"
    rf"(?=[\s!.,:;)]*$|\s+{alternation([*and_words().all(), *but_words().but.all(), 'so', 'lol', 'haha'])}\b|\s*[,;.!])"
)


def nationality_language(text: str, *, alone: bool = False) -> str | None:
    """The language of a nationality said of oneself ("i'm brazilian :)", "soy mexicano", "Ich bin
    Österreicher"): the native language, where one language is the country's; with `alone` the word
    alone too ("brasileira" to "what's your native language?": elsewhere "tedesco" is a language)."""
    demonyms = _table().demonyms
    said = fold(in_english_cues(text))
    if alone and (code := demonyms.get(said.strip(" !.?:)(-"))) is not None:
        return code
    for m in _SELF.finditer(said):
        # "i'm french", "i'm german": the English nationality word is the language's own name
        if (code := demonyms.get(m.group(1)) or language_aliases().get(m.group(1))) is not None:
            return code
    return None


def is_code(code: str) -> bool:
    return code in _table().by_code


def _pattern() -> str:
    return _table().pattern.pattern


_LOCALE_RE = re.compile(r"([a-z]{2})[-_][a-z]{2,4}")
# What people put around a language name when answering "which language?"
_LANGUAGE_CUES = re.compile(
    r"^(?:i speak|we speak|i'm learning|i am learning|i want to learn|i'd like to learn|i would like to learn"
    r"|learn|learning|my (?:native |first |mother )?(?:language|tongue) is|it's|it is|native(?:ly)?|mostly)\s+"
)


def language_name(code: str) -> str:
    """The English display name of a stored code ("de" -> "German")."""
    return _table().display.get(code, code)


_NEXT_WORD = re.compile(r"(?<!\s)\s++([a-z]+)")


def find_languages(text: str) -> list[str]:
    """Codes of every language named in `text` (by English or native name), in order, once each."""
    table = _table()
    found: list[str] = []
    folded = fold(text)
    for m in table.pattern.finditer(folded):
        after = _NEXT_WORD.match(folded, m.end())
        if after and after.group(1) in table.nationalities:
            continue  # "latin american", "spanish, latin american if that matters": a people, not a language
        code = table.aliases[m.group()]
        if code not in found:
            found.append(code)
    return found


# a language spoken besides the native one: "a bit of English", "also some French", "un peu
# d'anglais" (the cue table writes "a little"), "basic German"
_BESIDES = (
    r"(?:a little(?: bit)?(?: of)?|a bit(?: of)?|some|basic|broken|also(?: speak)?(?: a (?:little|bit)(?: of)?| some)?)"
)


def spoken_besides(text: str) -> set[str]:
    """Languages the text says the user speaks only a little or as well: not the native one."""
    t = fold(in_english_cues(text))
    return {language_aliases()[m.group(1)] for m in re.finditer(rf"\b{_BESIDES}\s+({_pattern()})\b", t)}


def _negated(text: str) -> set[str]:
    """Languages the text rules out ("not German", "nicht Englisch, sondern Französisch", "no, English"): the
    former, not the latter; the engine's words that rule a value out, in six languages (`ruled_out`)."""
    t = fold(text)
    return {
        language_aliases()[m.group(1)]
        for m in re.finditer(rf"\b(?:not|isn't|rather than|instead of)\s+({_pattern()})", t)
    } | {
        language_aliases()[m.group(1)]
        for m in re.finditer(rf"(?<![\w'])({_pattern()})(?![\w'])", t)
        if ruled_out(t, m.start())
    }


def parse_language(text: str) -> object:
    """Read one language: "German", "Deutsch", "de", "de-DE", "I speak German" -> "de"; unknown -> Invalid."""
    text = in_english_cues(text)  # "hablo español", "meine Muttersprache ist Deutsch"
    bare = fold(trim(text))
    if is_code(bare):
        if bare in _table().word_codes:
            name = language_name(bare)
            return Invalid(
                f"Did you mean {name}? Please write the language's name (for example “{name}”).", suggestion=bare
            )
        return bare
    if (m := _LOCALE_RE.fullmatch(bare)) and is_code(m.group(1)):
        return m.group(1)
    found = [c for c in find_languages(text) if c not in _negated(text)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = " and ".join(language_name(c) for c in found)
        return Invalid(f"You mentioned {names}; please name just one language.")
    rest = _LANGUAGE_CUES.sub("", bare)
    if not rest or len(rest.split()) > 3 or set(rest.split()) <= _table().no_language:
        # a sentence without a language ("a new language"): leave it to an LLM, if one is configured
        return None
    close = closest_name(rest, language_aliases())
    hint = f" Did you mean {language_name(close)}?" if close else ""
    # quote the user's own spelling of the unknown part: "I want to learn Klingon" -> “Klingon”
    said = trim(text)
    quoted = said[len(said) - len(rest) :] if len(said) >= len(rest) and fold(said).endswith(rest) else said
    return Invalid(
        f"I don't know a language called “{quoted}”.{hint} Please write its English name (Spanish), "
        "its own name (Español) or its two-letter code (es).",
        suggestion=close,
    )


def _language_value(value: object) -> object:
    # An LLM (or an old session) may hand over a name instead of a code; store the code.
    if isinstance(value, str):
        if is_code(value):
            return value
        code = parse_language(value)
        if isinstance(code, str):
            return code
        raise ValueError(code.reason if isinstance(code, Invalid) else f"unknown language {value!r}")
    return value


LanguageCode = Annotated[str, BeforeValidator(_language_value)]
LANGUAGE_EXPECTS = "a language: its English name (Spanish), its own name (Español) or its ISO code (es)"


def language() -> Parser:
    return Parser(parse_language, LANGUAGE_EXPECTS, llm_hint="an ISO 639-1 code such as 'de'")


_CLAUSE_END = re.compile(r"[,.;!?]| but | because | so ")
_NATIVE_STRONG = re.compile(
    r"\b(?:(?:my |the )?(?:native|first|mother) (?:language|tongue)(?: is|'s|:)|native:|mother tongue is"
    r"|i'm a native|i am a native|native speaker of|i grew up speaking)\s+(.+)"
)


@cache
def _native_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The native-language cues that name a language in place: built with the name table, on first use."""
    names = _pattern()
    after = re.compile(
        rf"(?:({names})\s+is my (?:native|first|mother)(?: (?:language|tongue))?\b"
        rf"|\bnative ({names}) speaker|({names})\s+native speaker)"
    )
    # "Spanish native", "spanish (native)", "native spanish", "german natively": plain enough to
    # fill an empty slot, too short to overrule one ("a spanish native taught me" is no correction)
    loose = re.compile(
        rf"({names})\s*(?:\(\s*native\s*\)|[-–:,]?\s*native(?:ly)?\b)|\bnative(?: in)?\s*[:-]?\s*({names})"
    )
    weak = re.compile(
        rf"\bi speak\s+(?!(?:a little|a bit|some|little|basic|broken|bad|poor|also|a few)\b)(.+)"
        rf"|(?<!\w)(({names})\s+speaker)\b"
    )
    return after, loose, weak


_TARGET_STRONG = re.compile(
    r"\b(?:(?:(?:want|would like|'d like|wanna|'d rather|would rather|prefer|need|hope|plan|going|trying) to"
    r"|wanna|gonna) (?:learn|study|practi[cs]e|improve(?: my)?|get better (?:at|in)(?: my)?|work on(?: my)?"
    r"|brush up(?: on)?(?: my)?|polish(?: my)?)|(?:my |the )?target(?: language)?(?: is|:)"
    r"|(?:switch|change)(?: the language)? to|rather learn|prefer learning)\s+(.+)"
)
_TARGET_WEAK = re.compile(
    r"\b(?:learn|learning|study|studying|practi[cs]e|practi[cs]ing|improve my|brush up(?: on)?(?: my)?"
    r"|get(?:ting)? better (?:at|in)(?: my)?|work(?:ing)? on my|polish(?:ing)? my)\s+(.+)"
)


def _clauses(pattern: re.Pattern[str], text: str) -> list[str]:
    """What follows each cue of `pattern`, up to the end of its clause."""
    return [_CLAUSE_END.split(next(g for g in m.groups() if g))[0] for m in pattern.finditer(fold(text))]


def _first_language(pattern: re.Pattern[str], text: str) -> str | None:
    for clause in _clauses(pattern, text):
        found = [c for c in find_languages(clause) if c not in _negated(clause)]
        if found:
            return found[0]
    return None


def native_in(text: str, *, weak: bool) -> str | None:
    """The native language a sentence states: "my native language is X"; with `weak` also "I speak X"."""
    after, loose, weak_cue = _native_patterns()
    if m := after.search(fold(text)):
        return language_aliases()[next(g for g in m.groups() if g)]
    found = _first_language(_NATIVE_STRONG, text)
    if found:
        return found
    # a nationality said of oneself ("je suis française", "i'm brazilian") where the message names no language
    # but the one to learn ("..., I want to practise my German, je suis française"): a language named says more
    learnt = target_in(text, weak=True)
    national = nationality_language(text)
    if set(find_languages(text)) - {learnt, national}:
        national = None  # "i'm german, my first language is turkish": the language named says more
    if not weak:
        return national if national != learnt else None
    if learnt is not None and (alone := _language_alone(text, learnt)) is not None:
        return alone
    if m := loose.search(fold(text)):
        return language_aliases()[next(g for g in m.groups() if g)]
    found = _first_language(weak_cue, text) or _misspelt_native(text)
    return found or national


# where an introduction's items part: "I'm Sven, Swedish, and I want to learn English"
_ITEMS = re.compile(rf"[,;:()]|\s{alternation(and_words().all())}\s")  # stripped where read; and.yaml


def _language_alone(text: str, learnt: str) -> str | None:
    """A language (or a nationality) said as an item of its own, with nothing around it, in a
    self-introduction that names the language to learn with its cue: the other one is the user's own
    ("I'm Sven, Swedish, and I want to learn English"). Only one such item, and never the one learnt."""
    demonyms, aliases = _table().demonyms, language_aliases()
    found = {
        code
        for item in _ITEMS.split(fold(text))
        if (word := item.strip(" \t\n!.?-")) and (code := aliases.get(word) or demonyms.get(word)) is not None
    } - {learnt}
    return found.pop() if len(found) == 1 else None


# "native portugese", "my mother tongue is germn": a word right after a native cue
_NATIVE_WORD = re.compile(
    r"\b(?:native(?: language| tongue)?|mother tongue|first language)(?: is|'s)?\s*[:-]?\s*([^\W\d_]{5,})\b"
)


def _misspelt_native(text: str) -> str | None:
    """A misspelt language right after a native cue, when one language is that close (the
    stricter score places use): the cue makes a typo far likelier than another word."""
    for m in _NATIVE_WORD.finditer(fold(text)):
        word = m.group(1)
        if (code := _table().demonyms.get(word)) is not None:
            return code  # "madrelingua italiana": the nationality's language
        if word in _table().no_language or word in nationalities() or word == "speaker":
            continue
        close = closest_name(word, language_aliases(), PLACE_SUGGEST_SCORE)
        if close is not None:
            return close
    return None


def target_in(text: str, *, weak: bool) -> str | None:
    """The language a sentence wants to learn: "I want to learn X"; with `weak` also "learning X"."""
    found = _first_language(_TARGET_STRONG, text)
    return found if found or not weak else _first_language(_TARGET_WEAK, text)


def target_claim(text: str) -> str | Invalid | None:
    """Like `target_in` (explicit cues only), but a cue naming no known language is refused with a reason.

    "I want to learn Klingon" -> Invalid (the same reason `parse_language` gives), so a
    correction is never silently dropped or mistaken for an answer to another question.
    """
    clauses = _clauses(_TARGET_STRONG, text)
    if not clauses:
        return None
    found = _first_language(_TARGET_STRONG, text)
    if found:
        return found
    # the user's own spelling when it can be found again ("Klingon", not the folded "klingon")
    m = re.search(re.escape(clauses[0].strip()), text, re.IGNORECASE)
    unknown = parse_language(m.group() if m else clauses[0])
    return unknown if isinstance(unknown, Invalid) else None


def mentions_language_change(text: str) -> bool:
    """A cheap test for an explicit statement about either language (read in full by `target_claim`, `native_in`)."""
    t = fold(text)
    return any(p.search(t) for p in (_TARGET_STRONG, _NATIVE_STRONG, _native_patterns()[0]))


# articles and a few words around a language said alone ("il tedesco", "l'allemand", "o inglês")
_AROUND_NAME = frozenset({
    "the", "a", "el", "la", "lo", "le", "les", "l", "il", "o", "der", "die", "das", "en", "in", "to",
    "learn", "instead", "rather", "aprender", "apprendre", "lernen", "imparare",
})  # fmt: skip


def named_language(text: str) -> str | None:
    """The language a short message names by a name of four letters or more ("il tedesco",
    "german instead"), exactly, never by a code or a near spelling: how a language said alone
    corrects an earlier answer (flows/language_buddy/onboarding.py), where "no sé" must stay no
    language."""
    words = [w for w in re.split(r"[\s'’]+", fold(trim(text)).lower()) if w and w not in _AROUND_NAME]
    name = " ".join(words)
    return language_aliases().get(name) if len(name) >= 4 else None
