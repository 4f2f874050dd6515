"""Reading languages: English names, native names and ISO 639-1 codes, in answers and in sentences.

(Offline and deterministic.) A reader returns the stored value, `Invalid(reason)` when it can
tell the answer is unusable (the reason is the reprompt, so it says what would work), or None
when it cannot decide (a model may try). The `*_in` helpers find a value inside a longer
sentence only after an explicit cue ("I speak", "call me", "I live in"): they run on every
message of a flow and must not mistake an ordinary answer for a correction.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError

from engine import DataFileError
from engine.extract import Invalid, Parser, fold
from flows.language_buddy.text import alias_pattern, trim

# -- languages ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    code: str
    names: tuple[str, ...]  # English names; the first is the display name
    native: tuple[str, ...] = ()


LANGUAGES_FILE = Path(__file__).parent / "data" / "languages.yaml"


class _LanguageRow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    code: Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")]
    names: list[Annotated[str, StringConstraints(min_length=1)]] = Field(min_length=1)
    native: list[Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=list)


class _LanguageFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    languages: list[_LanguageRow] = Field(min_length=1)


def load_languages(path: Path = LANGUAGES_FILE) -> tuple[Language, ...]:
    """The language table of `path`; DataFileError names the file and what to fix."""
    try:
        rows = _LanguageFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))).languages
    except (OSError, yaml.YAMLError) as e:
        raise DataFileError(str(path), [f"cannot read it: {e}"]) from e
    except ValidationError as e:
        raise DataFileError(str(path), [f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()]) from e
    problems: list[str] = []
    seen: dict[str, str] = {}
    for row in rows:
        if row.code in seen.values():
            problems.append(f"code {row.code!r} is listed twice")
        for name in (*row.names, *row.native):
            other = seen.setdefault(fold(name), row.code)
            if other != row.code:
                problems.append(f"{name!r} names both {other!r} and {row.code!r}")
    if problems:
        raise DataFileError(str(path), problems)
    return tuple(Language(r.code, tuple(r.names), tuple(r.native)) for r in rows)


LANGUAGES: tuple[Language, ...] = load_languages()
BY_CODE = {lang.code: lang for lang in LANGUAGES}
# Codes that are also everyday English words: a bare "no" or "it" is not taken as a
# language; the reprompt names the language the code would stand for instead of guessing.
WORD_CODES = frozenset({"am", "be", "hi", "he", "id", "is", "it", "my", "no", "so"})
# Nationality words that are not language names; "I'm Brazilian" is not a name either.
NATIONALITIES = frozenset(
    fold(w)
    for w in (
        "American", "British", "Canadian", "Australian", "Austrian", "Swiss", "Belgian", "Brazilian",
        "Mexican", "Argentinian", "Chilean", "Colombian", "Peruvian", "Cuban", "Indian", "Pakistani",
        "Egyptian", "Moroccan", "Nigerian", "Kenyan", "Israeli", "Iranian", "Iraqi", "Syrian", "Scottish",
        "Kiwi", "Taiwanese", "Singaporean", "Filipina", "Turkish", "Chinese", "Japanese",
    )
)  # fmt: skip

LANGUAGE_ALIASES: dict[str, str] = {}
for _lang in LANGUAGES:
    for _alias in (*_lang.names, *_lang.native):
        LANGUAGE_ALIASES[fold(_alias)] = _lang.code
        LANGUAGE_ALIASES.setdefault(fold(_alias) + " language", _lang.code)
_LANGUAGE_RE = alias_pattern(LANGUAGE_ALIASES)
_LOCALE_RE = re.compile(r"([a-z]{2})[-_][a-z]{2,4}")
# What people put around a language name when answering "which language?"
_LANGUAGE_CUES = re.compile(
    r"^(?:i speak|we speak|i'm learning|i am learning|i want to learn|i'd like to learn|i would like to learn"
    r"|learn|learning|my (?:native |first |mother )?(?:language|tongue) is|it's|it is|native(?:ly)?|mostly)\s+"
)


def language_name(code: str) -> str:
    """The English display name of a stored code ("de" -> "German")."""
    lang = BY_CODE.get(code)
    return lang.names[0] if lang else code


def find_languages(text: str) -> list[str]:
    """Codes of every language named in `text` (by English or native name), in order, once each."""
    found: list[str] = []
    for m in _LANGUAGE_RE.finditer(fold(text)):
        code = LANGUAGE_ALIASES[m.group()]
        if code not in found:
            found.append(code)
    return found


def _negated(text: str) -> set[str]:
    """Languages the text rules out ("not German", "no, English"): the former, not the latter."""
    t = fold(text)
    return {
        LANGUAGE_ALIASES[m.group(1)]
        for m in re.finditer(rf"\b(?:not|isn't|rather than|instead of)\s+({_LANGUAGE_RE.pattern})", t)
    }


def parse_language(text: str) -> object:
    """Read one language: "German", "Deutsch", "de", "de-DE", "I speak German" -> "de"; unknown -> Invalid."""
    bare = fold(trim(text))
    if bare in BY_CODE:
        if bare in WORD_CODES:
            name = language_name(bare)
            return Invalid(f"Did you mean {name}? Please write the language's name (for example “{name}”).")
        return bare
    if (m := _LOCALE_RE.fullmatch(bare)) and m.group(1) in BY_CODE:
        return m.group(1)
    found = [c for c in find_languages(text) if c not in _negated(text)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = " and ".join(language_name(c) for c in found)
        return Invalid(f"You mentioned {names}; please name just one language.")
    rest = _LANGUAGE_CUES.sub("", bare)
    if not rest or len(rest.split()) > 3:
        return None  # a sentence without a language: leave it to an LLM, if one is configured
    close = difflib.get_close_matches(rest, list(LANGUAGE_ALIASES), n=1, cutoff=0.8)
    hint = f" Did you mean {language_name(LANGUAGE_ALIASES[close[0]])}?" if close else ""
    # quote the user's own spelling of the unknown part: "I want to learn Klingon" -> “Klingon”
    said = trim(text)
    quoted = said[len(said) - len(rest) :] if len(said) >= len(rest) and fold(said).endswith(rest) else said
    return Invalid(
        f"I don't know a language called “{quoted}”.{hint} Please write its English name (Spanish), "
        "its own name (Español) or its two-letter code (es)."
    )


def _language_value(value: object) -> object:
    # An LLM (or an old session) may hand over a name instead of a code; store the code.
    if isinstance(value, str):
        if value in BY_CODE:
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
_NATIVE_AFTER = re.compile(
    rf"(?:({_LANGUAGE_RE.pattern})\s+is my (?:native|first|mother)(?: (?:language|tongue))?\b"
    rf"|\bnative ({_LANGUAGE_RE.pattern}) speaker|({_LANGUAGE_RE.pattern})\s+native speaker)"
)
# "Spanish native", "spanish (native)", "native spanish", "german natively": plain enough to
# fill an empty slot, too short to overrule one ("a spanish native taught me" is no correction)
_NATIVE_LOOSE = re.compile(
    rf"({_LANGUAGE_RE.pattern})\s*(?:\(\s*native\s*\)|[-–:,]?\s*native(?:ly)?\b)"
    rf"|\bnative(?: in)?\s*[:-]?\s*({_LANGUAGE_RE.pattern})"
)
_NATIVE_WEAK = re.compile(
    rf"\bi speak\s+(?!(?:a little|a bit|some|little|basic|broken|bad|poor|also|a few)\b)(.+)"
    rf"|(?<!\w)(({_LANGUAGE_RE.pattern})\s+speaker)\b"
)
_TARGET_STRONG = re.compile(
    r"\b(?:(?:want|would like|'d like|wanna|'d rather|would rather|prefer|need|hope|plan|going|trying) to"
    r" (?:learn|study|practi[cs]e|improve(?: my)?)|(?:my |the )?target(?: language)?(?: is|:)"
    r"|(?:switch|change)(?: the language)? to|rather learn|prefer learning)\s+(.+)"
)
_TARGET_WEAK = re.compile(
    r"\b(?:learn|learning|study|studying|practi[cs]e|practi[cs]ing|improve my|brush up(?: on)?(?: my)?)\s+(.+)"
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
    if m := _NATIVE_AFTER.search(fold(text)):
        return LANGUAGE_ALIASES[next(g for g in m.groups() if g)]
    found = _first_language(_NATIVE_STRONG, text)
    if found or not weak:
        return found
    if m := _NATIVE_LOOSE.search(fold(text)):
        return LANGUAGE_ALIASES[next(g for g in m.groups() if g)]
    return _first_language(_NATIVE_WEAK, text)


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
    return any(p.search(t) for p in (_TARGET_STRONG, _NATIVE_STRONG, _NATIVE_AFTER))
