"""Rule parsers for profile answers: languages, timezones and names (offline, deterministic).

Each `parse_*` returns the stored value (an ISO 639-1 code, an IANA zone name, a name),
`Invalid(reason)` when it can tell the answer is unusable (the reason is the reprompt,
so it says what would work), or None when it cannot decide (an LLM may try). The
`*_in` helpers find a value inside a longer sentence only after an explicit cue ("I
speak", "call me", "I live in"), because they run on every message of a flow and must
not mistake an ordinary answer for a correction.

The tables are kept in code rather than taken from a library: the language list is a
few dozen rows, and the timezone data comes from the standard library's zoneinfo.
"""

from __future__ import annotations

import difflib
import re
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

from engine.extract import Invalid, Parser, fold

# -- text helpers -------------------------------------------------------------------------


def _trim(text: str) -> str:
    return text.strip().strip(" \t\n.!?;:,\"'“”«»()").strip()


def _alias_pattern(aliases: Iterable[str]) -> re.Pattern[str]:
    # Longest first, so "brazilian portuguese" wins over "portuguese". Word boundaries only
    # around word characters: scripts without spaces (日本語を話します) must still match.
    parts = []
    for a in sorted(set(aliases), key=len, reverse=True):
        left = r"(?<!\w)" if a[:1].isalnum() and a[:1].isascii() else ""
        right = r"(?!\w)" if a[-1:].isalnum() and a[-1:].isascii() else ""
        parts.append(left + re.escape(a) + right)
    return re.compile("|".join(parts))


# -- languages ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    code: str
    names: tuple[str, ...]  # English names; the first is the display name
    native: tuple[str, ...] = ()


LANGUAGES: tuple[Language, ...] = (
    Language("af", ("Afrikaans",)),
    Language("am", ("Amharic",), ("አማርኛ",)),
    Language("ar", ("Arabic",), ("العربية", "عربي", "arabi")),
    Language("az", ("Azerbaijani", "Azeri"), ("azərbaycan",)),
    Language("be", ("Belarusian",), ("беларуская",)),
    Language("bg", ("Bulgarian",), ("български", "balgarski")),
    Language("bn", ("Bengali", "Bangla"), ("বাংলা",)),
    Language("bs", ("Bosnian",), ("bosanski",)),
    Language("ca", ("Catalan",), ("català",)),
    Language("cs", ("Czech",), ("čeština", "česky")),
    Language("cy", ("Welsh",), ("cymraeg",)),
    Language("da", ("Danish",), ("dansk",)),
    Language("de", ("German",), ("deutsch",)),
    Language("el", ("Greek",), ("ελληνικά", "ellinika")),
    Language("en", ("English",)),
    Language("eo", ("Esperanto",)),
    Language("es", ("Spanish", "Castilian"), ("español", "castellano")),
    Language("et", ("Estonian",), ("eesti",)),
    Language("eu", ("Basque",), ("euskara",)),
    Language("fa", ("Persian", "Farsi"), ("فارسی",)),
    Language("fi", ("Finnish",), ("suomi",)),
    Language("fr", ("French",), ("français",)),
    Language("ga", ("Irish", "Irish Gaelic"), ("gaeilge",)),
    Language("gl", ("Galician",), ("galego",)),
    Language("gu", ("Gujarati",), ("ગુજરાતી",)),
    Language("he", ("Hebrew",), ("עברית", "ivrit")),
    Language("hi", ("Hindi",), ("हिन्दी", "हिंदी")),
    Language("hr", ("Croatian",), ("hrvatski",)),
    Language("ht", ("Haitian Creole",), ("kreyòl ayisyen",)),
    Language("hu", ("Hungarian",), ("magyar",)),
    Language("hy", ("Armenian",), ("հայերեն",)),
    Language("id", ("Indonesian",), ("bahasa indonesia",)),
    Language("is", ("Icelandic",), ("íslenska",)),
    Language("it", ("Italian",), ("italiano",)),
    Language("ja", ("Japanese",), ("日本語", "nihongo")),
    Language("ka", ("Georgian",), ("ქართული",)),
    Language("kk", ("Kazakh",), ("қазақ тілі",)),
    Language("km", ("Khmer",), ("ខ្មែរ",)),
    Language("ko", ("Korean",), ("한국어", "hangugeo")),
    Language("la", ("Latin",), ("latina",)),
    Language("lb", ("Luxembourgish",), ("lëtzebuergesch",)),
    Language("lt", ("Lithuanian",), ("lietuvių",)),
    Language("lv", ("Latvian",), ("latviešu",)),
    Language("mk", ("Macedonian",), ("македонски",)),
    Language("mn", ("Mongolian",), ("монгол",)),
    Language("mr", ("Marathi",), ("मराठी",)),
    Language("ms", ("Malay",), ("bahasa melayu",)),
    Language("mt", ("Maltese",), ("malti",)),
    Language("my", ("Burmese",), ("မြန်မာ",)),
    Language("ne", ("Nepali",), ("नेपाली",)),
    Language("nl", ("Dutch", "Flemish"), ("nederlands",)),
    Language("no", ("Norwegian",), ("norsk",)),
    Language("pa", ("Punjabi",), ("ਪੰਜਾਬੀ",)),
    Language("pl", ("Polish",), ("polski",)),
    Language("ps", ("Pashto",), ("پښتو",)),
    Language("pt", ("Portuguese", "Brazilian Portuguese"), ("português",)),
    Language("ro", ("Romanian",), ("română",)),
    Language("ru", ("Russian",), ("русский", "russkiy")),
    Language("si", ("Sinhala",), ("සිංහල",)),
    Language("sk", ("Slovak",), ("slovenčina",)),
    Language("sl", ("Slovenian", "Slovene"), ("slovenščina",)),
    Language("so", ("Somali",), ("soomaali",)),
    Language("sq", ("Albanian",), ("shqip",)),
    Language("sr", ("Serbian",), ("српски", "srpski")),
    Language("sv", ("Swedish",), ("svenska",)),
    Language("sw", ("Swahili",), ("kiswahili",)),
    Language("ta", ("Tamil",), ("தமிழ்",)),
    Language("te", ("Telugu",), ("తెలుగు",)),
    Language("th", ("Thai",), ("ไทย",)),
    Language("tl", ("Tagalog", "Filipino"), ("wikang filipino",)),
    Language("tr", ("Turkish",), ("türkçe",)),
    Language("uk", ("Ukrainian",), ("українська",)),
    Language("ur", ("Urdu",), ("اردو",)),
    Language("uz", ("Uzbek",), ("oʻzbek",)),
    Language("vi", ("Vietnamese",), ("tiếng việt",)),
    Language("xh", ("Xhosa",), ("isixhosa",)),
    Language("yo", ("Yoruba",), ("yorùbá",)),
    Language(
        "zh", ("Chinese", "Mandarin", "Mandarin Chinese", "Cantonese"), ("中文", "汉语", "漢語", "普通话", "zhongwen")
    ),
    Language("zu", ("Zulu",), ("isizulu",)),
)
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

_LANGUAGE_ALIASES: dict[str, str] = {}
for _lang in LANGUAGES:
    for _alias in (*_lang.names, *_lang.native):
        _LANGUAGE_ALIASES[fold(_alias)] = _lang.code
        _LANGUAGE_ALIASES.setdefault(fold(_alias) + " language", _lang.code)
_LANGUAGE_RE = _alias_pattern(_LANGUAGE_ALIASES)
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
        code = _LANGUAGE_ALIASES[m.group()]
        if code not in found:
            found.append(code)
    return found


def _negated(text: str) -> set[str]:
    """Languages the text rules out ("not German", "no, English"): the former, not the latter."""
    t = fold(text)
    return {
        _LANGUAGE_ALIASES[m.group(1)]
        for m in re.finditer(rf"\b(?:not|isn't|rather than|instead of)\s+({_LANGUAGE_RE.pattern})", t)
    }


def parse_language(text: str) -> object:
    """Read one language: "German", "Deutsch", "de", "de-DE", "I speak German" -> "de"; unknown -> Invalid."""
    bare = fold(_trim(text))
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
    close = difflib.get_close_matches(rest, list(_LANGUAGE_ALIASES), n=1, cutoff=0.8)
    hint = f" Did you mean {language_name(_LANGUAGE_ALIASES[close[0]])}?" if close else ""
    # quote the user's own spelling of the unknown part: "I want to learn Klingon" -> “Klingon”
    said = _trim(text)
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
    rf"(?:({_LANGUAGE_RE.pattern})\s+is my (?:native|first|mother) (?:language|tongue)"
    rf"|\bnative ({_LANGUAGE_RE.pattern}) speaker)"
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
        return _LANGUAGE_ALIASES[m.group(1) or m.group(2)]
    found = _first_language(_NATIVE_STRONG, text)
    return found if found or not weak else _first_language(_NATIVE_WEAK, text)


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


# -- timezones ----------------------------------------------------------------------------

_REGIONS = ("Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")
# Zone locations that read as ordinary words after "in"/"from" ("in North America", "in Christmas").
_NOT_PLACES = frozenset(
    {"north", "south", "west", "east", "center", "act", "nsw", "lhi", "yancowinna", "knox", "christmas",
     "wake", "midway", "easter", "virgin", "acre", "general", "continental"}
)  # fmt: skip


@cache
def _zones() -> dict[str, str]:
    """IANA names by their folded spelling (spaces may stand for underscores)."""
    names = zoneinfo.available_timezones() - {"localtime", "Factory"}
    return {fold(z).replace(" ", "_"): z for z in names}


@cache
def zone_names() -> frozenset[str]:
    return frozenset(_zones().values())


@cache
def _zone_cities() -> dict[str, str]:
    """The location part of each regional zone ("tokyo" -> "Asia/Tokyo").

    Where two zones share a location (America/Buenos_Aires, America/Argentina/Buenos_Aires)
    they are links to the same rules; the longer, canonical name is kept.
    """
    out: dict[str, str] = {}
    for z in sorted(_zones().values(), key=len):
        place = fold(z.rsplit("/", 1)[-1].replace("_", " "))
        if z.split("/")[0] in _REGIONS and place not in _NOT_PLACES:
            out[place] = z
    return out


# Major cities whose zone is not named after them (and common local spellings).
CITY_ZONES: dict[str, str] = {
    "new york city": "America/New_York", "nyc": "America/New_York", "boston": "America/New_York",
    "washington": "America/New_York", "washington dc": "America/New_York", "philadelphia": "America/New_York",
    "miami": "America/New_York", "atlanta": "America/New_York", "orlando": "America/New_York",
    "pittsburgh": "America/New_York", "baltimore": "America/New_York", "charlotte": "America/New_York",
    "houston": "America/Chicago", "dallas": "America/Chicago", "austin": "America/Chicago",
    "san antonio": "America/Chicago", "new orleans": "America/Chicago", "minneapolis": "America/Chicago",
    "st louis": "America/Chicago", "nashville": "America/Chicago", "kansas city": "America/Chicago",
    "salt lake city": "America/Denver", "albuquerque": "America/Denver",
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "san diego": "America/Los_Angeles",
    "las vegas": "America/Los_Angeles", "sacramento": "America/Los_Angeles", "san jose": "America/Los_Angeles",
    "montreal": "America/Toronto", "ottawa": "America/Toronto", "quebec": "America/Toronto",
    "calgary": "America/Edmonton", "rio de janeiro": "America/Sao_Paulo", "rio": "America/Sao_Paulo",
    "brasilia": "America/Sao_Paulo", "medellin": "America/Bogota", "quito": "America/Guayaquil",
    "munich": "Europe/Berlin", "munchen": "Europe/Berlin", "hamburg": "Europe/Berlin", "frankfurt": "Europe/Berlin",
    "cologne": "Europe/Berlin", "koln": "Europe/Berlin", "stuttgart": "Europe/Berlin", "dusseldorf": "Europe/Berlin",
    "leipzig": "Europe/Berlin", "dresden": "Europe/Berlin", "hanover": "Europe/Berlin", "bremen": "Europe/Berlin",
    "nuremberg": "Europe/Berlin", "bonn": "Europe/Berlin", "manchester": "Europe/London",
    "liverpool": "Europe/London", "edinburgh": "Europe/London", "glasgow": "Europe/London",
    "leeds": "Europe/London", "bristol": "Europe/London", "cardiff": "Europe/London", "belfast": "Europe/London",
    "oxford": "Europe/London", "cork": "Europe/Dublin", "lyon": "Europe/Paris", "marseille": "Europe/Paris",
    "toulouse": "Europe/Paris", "bordeaux": "Europe/Paris", "milan": "Europe/Rome",
    "milano": "Europe/Rome", "roma": "Europe/Rome", "florence": "Europe/Rome", "naples": "Europe/Rome",
    "venice": "Europe/Rome", "turin": "Europe/Rome", "barcelona": "Europe/Madrid", "valencia": "Europe/Madrid",
    "seville": "Europe/Madrid", "sevilla": "Europe/Madrid", "bilbao": "Europe/Madrid", "malaga": "Europe/Madrid",
    "porto": "Europe/Lisbon", "wien": "Europe/Vienna", "salzburg": "Europe/Vienna", "geneva": "Europe/Zurich",
    "basel": "Europe/Zurich", "bern": "Europe/Zurich", "rotterdam": "Europe/Amsterdam",
    "the hague": "Europe/Amsterdam", "antwerp": "Europe/Brussels", "praha": "Europe/Prague",
    "krakow": "Europe/Warsaw", "warszawa": "Europe/Warsaw", "gothenburg": "Europe/Stockholm",
    "st petersburg": "Europe/Moscow", "saint petersburg": "Europe/Moscow", "kiev": "Europe/Kyiv",
    "kyiv": "Europe/Kyiv", "ankara": "Europe/Istanbul", "istanbul": "Europe/Istanbul",
    "beijing": "Asia/Shanghai", "shenzhen": "Asia/Shanghai", "guangzhou": "Asia/Shanghai",
    "mumbai": "Asia/Kolkata", "bombay": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata",
    "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata", "chennai": "Asia/Kolkata", "calcutta": "Asia/Kolkata",
    "osaka": "Asia/Tokyo", "kyoto": "Asia/Tokyo", "busan": "Asia/Seoul", "hanoi": "Asia/Bangkok",
    "saigon": "Asia/Ho_Chi_Minh", "ho chi minh city": "Asia/Ho_Chi_Minh", "abu dhabi": "Asia/Dubai",
    "tel aviv": "Asia/Jerusalem", "mecca": "Asia/Riyadh", "islamabad": "Asia/Karachi", "lahore": "Asia/Karachi",
    "canberra": "Australia/Sydney", "cape town": "Africa/Johannesburg", "durban": "Africa/Johannesburg",
    "wellington": "Pacific/Auckland", "marrakech": "Africa/Casablanca",
}  # fmt: skip

# Cities whose name alone does not say which zone: asked back, never guessed.
AMBIGUOUS_CITIES: dict[str, dict[str, str]] = {
    "portland": {"Portland, Oregon": "America/Los_Angeles", "Portland, Maine": "America/New_York"},
    "springfield": {
        "Springfield, Illinois": "America/Chicago",
        "Springfield, Missouri": "America/Chicago",
        "Springfield, Massachusetts": "America/New_York",
    },
    "birmingham": {"Birmingham, England": "Europe/London", "Birmingham, Alabama": "America/Chicago"},
    "cambridge": {"Cambridge, England": "Europe/London", "Cambridge, Massachusetts": "America/New_York"},
    "perth": {"Perth, Australia": "Australia/Perth", "Perth, Scotland": "Europe/London"},
    "richmond": {"Richmond, Virginia": "America/New_York", "Richmond, British Columbia": "America/Vancouver"},
    "hyderabad": {"Hyderabad, India": "Asia/Kolkata", "Hyderabad, Pakistan": "Asia/Karachi"},
}
# What may follow an ambiguous city to settle it ("Portland, OR", "Perth WA").
_QUALIFIERS: dict[str, tuple[str, ...]] = {
    "Portland, Oregon": ("oregon", "or"),
    "Portland, Maine": ("maine", "me"),
    "Springfield, Illinois": ("illinois", "il"),
    "Springfield, Missouri": ("missouri", "mo"),
    "Springfield, Massachusetts": ("massachusetts", "ma", "mass"),
    "Birmingham, England": ("england", "uk", "united kingdom", "gb"),
    "Birmingham, Alabama": ("alabama", "al", "usa", "us"),
    "Cambridge, England": ("england", "uk", "united kingdom", "gb"),
    "Cambridge, Massachusetts": ("massachusetts", "ma", "mass", "usa", "us"),
    "Perth, Australia": ("australia", "wa", "western australia"),
    "Perth, Scotland": ("scotland", "uk", "united kingdom"),
    "Richmond, Virginia": ("virginia", "va", "usa", "us"),
    "Richmond, British Columbia": ("british columbia", "bc", "canada"),
    "Hyderabad, India": ("india", "telangana"),
    "Hyderabad, Pakistan": ("pakistan", "sindh"),
}
# Countries that keep (nearly) all their people on one zone: the country answers the question.
COUNTRY_ZONES: dict[str, str] = {
    "germany": "Europe/Berlin", "deutschland": "Europe/Berlin", "france": "Europe/Paris",
    "spain": "Europe/Madrid", "espana": "Europe/Madrid", "italy": "Europe/Rome", "italia": "Europe/Rome",
    "uk": "Europe/London", "united kingdom": "Europe/London", "great britain": "Europe/London",
    "britain": "Europe/London", "england": "Europe/London", "scotland": "Europe/London", "wales": "Europe/London",
    "ireland": "Europe/Dublin", "netherlands": "Europe/Amsterdam", "the netherlands": "Europe/Amsterdam",
    "holland": "Europe/Amsterdam", "belgium": "Europe/Brussels", "switzerland": "Europe/Zurich",
    "austria": "Europe/Vienna", "osterreich": "Europe/Vienna", "poland": "Europe/Warsaw", "polska": "Europe/Warsaw",
    "czechia": "Europe/Prague", "czech republic": "Europe/Prague", "slovakia": "Europe/Bratislava",
    "hungary": "Europe/Budapest", "romania": "Europe/Bucharest", "bulgaria": "Europe/Sofia",
    "greece": "Europe/Athens", "sweden": "Europe/Stockholm", "norway": "Europe/Oslo",
    "denmark": "Europe/Copenhagen", "finland": "Europe/Helsinki", "iceland": "Atlantic/Reykjavik",
    "estonia": "Europe/Tallinn", "latvia": "Europe/Riga", "lithuania": "Europe/Vilnius",
    "ukraine": "Europe/Kyiv", "belarus": "Europe/Minsk", "serbia": "Europe/Belgrade", "croatia": "Europe/Zagreb",
    "slovenia": "Europe/Ljubljana", "portugal": "Europe/Lisbon", "turkey": "Europe/Istanbul",
    "turkiye": "Europe/Istanbul", "israel": "Asia/Jerusalem", "egypt": "Africa/Cairo", "morocco": "Africa/Casablanca",
    "nigeria": "Africa/Lagos", "kenya": "Africa/Nairobi", "ethiopia": "Africa/Addis_Ababa",
    "south africa": "Africa/Johannesburg", "saudi arabia": "Asia/Riyadh", "uae": "Asia/Dubai",
    "united arab emirates": "Asia/Dubai", "iran": "Asia/Tehran", "iraq": "Asia/Baghdad",
    "pakistan": "Asia/Karachi", "india": "Asia/Kolkata", "bangladesh": "Asia/Dhaka", "nepal": "Asia/Kathmandu",
    "sri lanka": "Asia/Colombo", "china": "Asia/Shanghai", "taiwan": "Asia/Taipei", "japan": "Asia/Tokyo",
    "south korea": "Asia/Seoul", "korea": "Asia/Seoul", "thailand": "Asia/Bangkok", "vietnam": "Asia/Ho_Chi_Minh",
    "philippines": "Asia/Manila", "malaysia": "Asia/Kuala_Lumpur", "singapore": "Asia/Singapore",
    "new zealand": "Pacific/Auckland", "argentina": "America/Argentina/Buenos_Aires", "colombia": "America/Bogota",
    "peru": "America/Lima", "chile": "America/Santiago", "venezuela": "America/Caracas",
    "ecuador": "America/Guayaquil", "uruguay": "America/Montevideo", "cuba": "America/Havana",
}  # fmt: skip
# Countries spanning several zones: a city is asked for, with one as an example.
MULTI_ZONE_COUNTRIES: dict[str, tuple[str, str]] = {
    "usa": ("the US", "Chicago"), "us": ("the US", "Chicago"), "united states": ("the US", "Chicago"),
    "america": ("the US", "Chicago"), "canada": ("Canada", "Toronto"), "russia": ("Russia", "Moscow"),
    "brazil": ("Brazil", "São Paulo"), "australia": ("Australia", "Sydney"), "mexico": ("Mexico", "Mexico City"),
    "indonesia": ("Indonesia", "Jakarta"), "kazakhstan": ("Kazakhstan", "Almaty"),
}  # fmt: skip
# US states and Canadian provinces by name and postal code, with the zones used there. The first
# zone is where most people live: it answers for a town the tables don't know, so a state split
# between zones is placed by its majority ("El Paso, Texas" gets Texas's Central time, not El
# Paso's Mountain time). The others let a tabled city there keep its own zone ("Boise, Idaho").
US_STATES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("alabama", "al"): ("America/Chicago",),
    ("alaska", "ak"): ("America/Anchorage", "America/Juneau", "America/Sitka", "America/Metlakatla",
                       "America/Yakutat", "America/Nome", "America/Adak"),
    ("arizona", "az"): ("America/Phoenix", "America/Denver"),  # the Navajo Nation keeps daylight time
    ("arkansas", "ar"): ("America/Chicago",),
    ("california", "ca"): ("America/Los_Angeles",),
    ("colorado", "co"): ("America/Denver",),
    ("connecticut", "ct"): ("America/New_York",),
    ("delaware", "de"): ("America/New_York",),
    ("district of columbia", "dc"): ("America/New_York",),
    ("florida", "fl"): ("America/New_York", "America/Chicago"),  # the western panhandle is Central
    ("georgia", "ga"): ("America/New_York", "Asia/Tbilisi"),  # and the country: "Tbilisi, Georgia"
    ("hawaii", "hi"): ("Pacific/Honolulu",),
    ("idaho", "id"): ("America/Boise", "America/Los_Angeles"),  # the north is Pacific
    ("illinois", "il"): ("America/Chicago",),
    ("indiana", "in"): ("America/Indiana/Indianapolis", "America/Chicago", "America/Indiana/Vincennes",
                        "America/Indiana/Winamac", "America/Indiana/Marengo", "America/Indiana/Petersburg",
                        "America/Indiana/Vevay", "America/Indiana/Tell_City", "America/Indiana/Knox"),
    ("iowa", "ia"): ("America/Chicago",),
    ("kansas", "ks"): ("America/Chicago", "America/Denver"),
    ("kentucky", "ky"): ("America/New_York", "America/Kentucky/Louisville", "America/Kentucky/Monticello",
                         "America/Chicago"),
    ("louisiana", "la"): ("America/Chicago",),
    ("maine", "me"): ("America/New_York",),
    ("maryland", "md"): ("America/New_York",),
    ("massachusetts", "mass", "ma"): ("America/New_York",),
    ("michigan", "mi"): ("America/Detroit", "America/Menominee"),
    ("minnesota", "mn"): ("America/Chicago",),
    ("mississippi", "ms"): ("America/Chicago",),
    ("missouri", "mo"): ("America/Chicago",),
    ("montana", "mt"): ("America/Denver",),
    ("nebraska", "ne"): ("America/Chicago", "America/Denver"),
    ("nevada", "nv"): ("America/Los_Angeles", "America/Denver"),
    ("new hampshire", "nh"): ("America/New_York",),
    ("new jersey", "nj"): ("America/New_York",),
    ("new mexico", "nm"): ("America/Denver",),
    ("new york", "ny"): ("America/New_York",),
    ("north carolina", "nc"): ("America/New_York",),
    ("north dakota", "nd"): ("America/Chicago", "America/North_Dakota/Center", "America/North_Dakota/New_Salem",
                             "America/North_Dakota/Beulah", "America/Denver"),
    ("ohio", "oh"): ("America/New_York",),
    ("oklahoma", "ok"): ("America/Chicago",),
    ("oregon", "or"): ("America/Los_Angeles", "America/Boise"),
    ("pennsylvania", "pa"): ("America/New_York",),
    ("rhode island", "ri"): ("America/New_York",),
    ("south carolina", "sc"): ("America/New_York",),
    ("south dakota", "sd"): ("America/Chicago", "America/Denver"),
    ("tennessee", "tn"): ("America/Chicago", "America/New_York"),  # Nashville and Memphis outnumber the east
    ("texas", "tx"): ("America/Chicago", "America/Denver"),
    ("utah", "ut"): ("America/Denver",),
    ("vermont", "vt"): ("America/New_York",),
    ("virginia", "va"): ("America/New_York",),
    ("washington", "wa"): ("America/Los_Angeles",),
    ("west virginia", "wv"): ("America/New_York",),
    ("wisconsin", "wi"): ("America/Chicago",),
    ("wyoming", "wy"): ("America/Denver",),
}  # fmt: skip
CANADIAN_PROVINCES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("alberta", "ab"): ("America/Edmonton",),
    ("british columbia", "bc"): ("America/Vancouver", "America/Edmonton", "America/Dawson_Creek",
                                 "America/Fort_Nelson", "America/Phoenix"),
    ("manitoba", "mb"): ("America/Winnipeg",),
    ("new brunswick", "nb"): ("America/Moncton",),
    ("newfoundland and labrador", "newfoundland", "labrador", "nl"): ("America/St_Johns", "America/Goose_Bay"),
    ("nova scotia", "ns"): ("America/Halifax", "America/Glace_Bay"),
    ("northwest territories", "nt"): ("America/Edmonton", "America/Inuvik"),
    ("nunavut", "nu"): ("America/Iqaluit", "America/Rankin_Inlet", "America/Cambridge_Bay", "America/Resolute"),
    ("ontario", "on"): ("America/Toronto", "America/Winnipeg", "America/Panama"),  # the far west is Central
    ("prince edward island", "pei", "pe"): ("America/Halifax",),
    ("quebec", "qc"): ("America/Toronto", "America/Puerto_Rico"),
    ("saskatchewan", "sk"): ("America/Regina", "America/Swift_Current", "America/Edmonton"),
    ("yukon", "yt"): ("America/Whitehorse", "America/Dawson"),
}  # fmt: skip
# Postal codes that are also words: after a city they count only alone after a comma ("Paris, OK"),
# so "in Paris, in the 5th" or "Portland or Seattle" name no state.
WORD_POSTAL_CODES = frozenset({"al", "de", "hi", "id", "in", "la", "ma", "me", "mo", "ne", "oh", "ok", "on", "or",
                               "pa", "us"})  # fmt: skip
# Multi-zone countries whose parts are tabled above (names, what a part is called, an example
# part, the table): a place there is settled by its state or province. "ca" after a city is
# Canada's ISO code as often as California's postal code.
SUBDIVIDED: dict[str, tuple[tuple[str, ...], str, str, dict[tuple[str, ...], tuple[str, ...]]]] = {
    "the US": (("usa", "us", "united states", "united states of america", "america"), "state", "Ohio", US_STATES),
    "Canada": (("canada", "ca"), "province", "Ontario", CANADIAN_PROVINCES),
}
_OFFSET = re.compile(r"(?:utc|gmt|z)?(?P<sign>[+\-−])(?P<h>\d{1,2})(?:(?::|h)?(?P<m>\d{2}))?")
_PLACE_CUES = re.compile(
    r"^(?:(?:my )?time ?zone(?: is)?:?|(?:i )?(?:live|am|'m|im|was born|grew up) (?:in|near)|i'm from|i am from|"
    r"from|in|near|based in|it's|it is|i'm in|i'm based in)\s+"
)
TIMEZONE_EXPECTS = "a city (Berlin), an IANA timezone name (Europe/Berlin) or a UTC offset (UTC+2)"


def offset_zone(sign: str, hours: int, minutes: int = 0) -> str | Invalid:
    """The Etc/GMT zone for a whole-hour UTC offset; IANA writes UTC+2 as Etc/GMT-2."""
    label = f"UTC{'-' if sign in '-−' else '+'}{hours}" + (f":{minutes:02d}" if minutes else "")
    east = sign == "+"
    if minutes >= 60 or (east and (hours, minutes) > (14, 0)) or (not east and (hours, minutes) > (12, 0)):
        reason = f"{label} is not a real offset: offsets run from UTC-12 to UTC+14."
        return Invalid(f"{reason} Please give {TIMEZONE_EXPECTS}.")
    if minutes:
        return Invalid(
            f"{label} has no fixed-offset IANA zone; please tell me your city (e.g. Mumbai) or an IANA name "
            "(e.g. Asia/Kolkata)."
        )
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{'-' if east else '+'}{hours}"


# Older tz databases know some zones only by their former names.
_FORMER_NAMES = {"Europe/Kyiv": "Europe/Kiev", "Asia/Kolkata": "Asia/Calcutta", "Asia/Ho_Chi_Minh": "Asia/Saigon"}


def _known(zone: str) -> str:
    return zone if zone in zone_names() else _FORMER_NAMES.get(zone, zone)


def _ambiguous(city: str) -> Invalid:
    options = AMBIGUOUS_CITIES[city]
    listed = " or ".join(f"{place} ({zone})" for place, zone in options.items())
    return Invalid(f"There are several places called {city.title()}: {listed}. Which one do you mean?")


def _city_zone(place: str) -> str | Invalid | None:
    """A zone for a place name, folded; None when the place is not known."""
    place = place.strip(" ,.")
    if place.startswith("the ") and place not in CITY_ZONES:  # "the US", but "The Hague"
        place = place[4:]
    if place in CITY_ZONES:
        return _known(CITY_ZONES[place])
    if place in AMBIGUOUS_CITIES:
        return _ambiguous(place)
    for city, options in AMBIGUOUS_CITIES.items():
        if place.startswith(city + " ") or place.startswith(city + ","):
            qualifier = place[len(city) :].strip(" ,()")
            for option, zone in options.items():
                if qualifier in _QUALIFIERS[option] or qualifier == fold(option.split(", ")[1]):
                    return _known(zone)
            # "Portland, Texas": no tabled Portland is in Texas, so the state answers
            return _qualified_zone(place) or _ambiguous(city)
    if place in _zone_cities():
        return _zone_cities()[place]
    if place in COUNTRY_ZONES:
        return _known(COUNTRY_ZONES[place])
    if place in MULTI_ZONE_COUNTRIES:
        country, city = MULTI_ZONE_COUNTRIES[place]
        return Invalid(
            f"{country[0].upper()}{country[1:]} has several timezones. Which city are you in or near (e.g. {city})?"
        )
    if (qualified := _qualified_zone(place)) is not None:
        return qualified
    if "," in place:
        # "Berlin, where I work": the city before the comma decides
        return _city_zone(place.split(",", 1)[0])
    return None


@dataclass(frozen=True)
class _Area:
    """A state, province or country named after a place to say which one is meant."""

    zones: frozenset[str]  # every zone used there
    main: str | None  # the zone that answers for it; None for a country whose parts are asked for
    country: str = ""  # for those: what the user is asked, e.g. "state" ("Ohio")
    part: str = ""
    example: str = ""


@cache
def _areas() -> dict[str, tuple[_Area, ...]]:
    """The areas each qualifier may name ("georgia", "ca": more than one)."""
    found: dict[str, list[_Area]] = {}
    for table in (US_STATES, CANADIAN_PROVINCES):
        for names, zones in table.items():
            for name in names:
                found.setdefault(name, []).append(_Area(frozenset(map(_known, zones)), _known(zones[0])))
    for country, zone in COUNTRY_ZONES.items():
        found.setdefault(country, []).append(_Area(frozenset({_known(zone)}), _known(zone)))
    for label, (names, part, example, table) in SUBDIVIDED.items():
        every = frozenset(_known(z) for zones in table.values() for z in zones)
        for name in names:
            found.setdefault(name, []).append(_Area(every, None, label, part, example))
    return {name: tuple(areas) for name, areas in found.items()}


def _area_named(text: str, *, whole: bool) -> tuple[_Area, ...]:
    """The areas `text` names; a code that is also a word ("in", "or") only as a whole comma segment."""
    text = text.strip()
    text = text[4:] if text.startswith("the ") and text not in _areas() else text
    return () if text in WORD_POSTAL_CODES and not whole else _areas().get(text, ())


def _zones_called(city: str) -> list[str]:
    """The zones of the tabled places called `city` (several for an ambiguous name)."""
    if city in AMBIGUOUS_CITIES:
        return [_known(z) for z in AMBIGUOUS_CITIES[city].values()]
    zone = CITY_ZONES.get(city) or _zone_cities().get(city)
    return [_known(zone)] if zone else []


def _qualifier(place: str) -> tuple[str, tuple[_Area, ...]] | None:
    """Split "paris, texas", "paris (tx)" or "paris texas" into the city and the areas named after it."""
    if m := re.fullmatch(r"([^,(]+?)\s*[,(]\s*(.*)", place):
        segment = re.split(r"[,()]", m.group(2))[0].split()
        # the area may lead a longer segment, as in "paris, texas with my family"
        for n in range(len(segment), 0, -1):
            if areas := _area_named(" ".join(segment[:n]), whole=n == len(segment)):
                return m.group(1), areas
        return None
    words = place.split()
    for n in range(min(3, len(words) - 1), 0, -1):
        city = " ".join(words[:-n])
        # without a comma only after a known city: "belfast northern ireland" is no town in Ireland
        if _zones_called(city) and (areas := _area_named(" ".join(words[-n:]), whole=False)):
            return city, areas
    return None


def _qualified_zone(place: str) -> str | Invalid | None:
    """The zone of a place named with its state, province or country; None when none is named.

    A tabled city keeps its zone when that zone is used in the area ("Austin, Texas"); one
    the tables know only elsewhere, or not at all, takes the area's ("Paris, Texas").
    """
    split = _qualifier(place)
    if split is None:
        return None
    city, areas = split
    known = _zones_called(city)
    for area in areas:
        here = sorted({z for z in known if z in area.zones})
        if len(here) == 1:
            return here[0]
        if here:
            return _ambiguous(city)
    area = areas[0]
    if area.main is not None:
        return area.main
    return Invalid(
        f"{area.country[0].upper()}{area.country[1:]} has several timezones, and I can't tell where "
        f"{city.title()} is. Which {area.part} is it in (e.g. “{city.title()}, {area.example}”)?"
    )


def _offset(m: re.Match[str]) -> str | Invalid:
    return offset_zone(m.group("sign").replace("−", "-"), int(m.group("h")), int(m.group("m") or 0))


def parse_timezone(text: str) -> object:
    """IANA names, whole-hour UTC/GMT offsets and major cities -> an IANA name; ambiguity -> Invalid."""
    raw = _trim(text)
    t = fold(raw)
    if t in ("utc", "gmt", "z", "utc+0", "gmt+0", "utc0", "utc±0"):
        return "UTC"
    place = _PLACE_CUES.sub("", t)
    if place in COUNTRY_ZONES:  # before IANA's legacy links named after countries ("Japan", "Poland")
        return _known(COUNTRY_ZONES[place])
    for candidate in (t, place):
        if m := _OFFSET.fullmatch(candidate.replace(" ", "")):
            return _offset(m)
        if candidate.replace(" ", "_") in _zones():
            return _zones()[candidate.replace(" ", "_")]
    zone = _city_zone(place)
    if zone is not None:
        return zone
    found = timezone_in(raw)
    if found is None and (m := _any_place().search(t)):
        found = _city_zone(m.group())
    if found is not None:
        return found
    if len(place.split()) > 3:
        return None  # a sentence naming no place: leave it to an LLM, if one is configured
    return Invalid(f"I don't know where “{raw}” is. Please give {TIMEZONE_EXPECTS}.")


@cache
def _any_place() -> re.Pattern[str]:
    # built on first use: it spans every zone's location name
    return _alias_pattern([*CITY_ZONES, *AMBIGUOUS_CITIES, *_zone_cities(), *COUNTRY_ZONES, *MULTI_ZONE_COUNTRIES])


# Where the user lives is asked for; where they come from ("I'm from Berlin") counts when
# nothing says where they live.
_LIVE_CUE = re.compile(r"\b(?:live|living|based|located|stay|staying|work|working|now) (?:in|near)\s+")
_PLACE_CUE = re.compile(r"\b(?:in|from|near|to)\s+")
_PLACE_TIME = re.compile(r"([^\W\d_]+(?: [^\W\d_]+){0,2}) time\b")
_OFFSET_IN = re.compile(r"(?<!\w)(?:utc|gmt)\s*(?P<sign>[+\-−])\s*(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?(?!\w)")
_IANA_IN = re.compile(r"(?<![\w/])[a-z]+(?:/[a-z_\-+0-9]+){1,2}(?![\w/])")
_MOVED = re.compile(
    r"\b(?:my time ?zone is|time ?zone:|(?:i )?(?:now )?live in|i(?:'ve| have)? moved to|i'm based in|i am based in)"
    r"\s+(.+)"
)


def timezone_in(text: str) -> str | Invalid | None:
    """A zone named in a sentence: a UTC offset, an IANA name, or a place after "in", "from", "to"."""
    t = fold(text)
    if m := _OFFSET_IN.search(t):
        return _offset(m)
    for m in _IANA_IN.finditer(t):
        if m.group() in _zones():
            return _zones()[m.group()]
    for cue in (_LIVE_CUE, _PLACE_CUE):
        for m in cue.finditer(t):
            zone = _place_at(t[m.end() :])
            if zone is not None:
                return zone
    for m in _PLACE_TIME.finditer(t):  # "Berlin time", "new york time"
        words = m.group(1).split()
        for n in range(len(words)):
            zone = _city_zone(" ".join(words[n:]))
            if zone is not None:
                return zone
    return None


def _place_at(rest: str) -> str | Invalid | None:
    """The longest run of words at the start of `rest` that names a place: "new york now" -> New York."""
    # a comma or bracket may add the state or country: "in Paris, Texas", "in Paris (TX)"
    words = re.split(r"[.;!?]| and | but ", rest)[0].split()
    for n in range(min(4, len(words)), 0, -1):
        zone = _city_zone(" ".join(words[:n]))
        if zone is not None:
            return zone
    return None


def timezone_moved(text: str) -> str | Invalid | None:
    """A zone given with a cue that means a change ("my timezone is X", "I live in X", "I moved to X")."""
    m = _MOVED.search(fold(text))
    return timezone_in("in " + m.group(1)) if m else None


def zone_label(zone: str) -> str:
    """How a stored zone is shown to the user: IANA spells UTC+2 as Etc/GMT-2 (sign inverted)."""
    if m := re.fullmatch(r"Etc/GMT([+-])(\d{1,2})", zone):
        return f"UTC{'-' if m.group(1) == '+' else '+'}{m.group(2)}"
    return zone


def _zone_value(value: object) -> object:
    if isinstance(value, str):
        if value in zone_names():
            return value
        zone = parse_timezone(value)
        if isinstance(zone, str):
            return zone
        raise ValueError(zone.reason if isinstance(zone, Invalid) else f"unknown timezone {value!r}")
    return value


def _check_zone(value: str) -> str:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"{value!r} is not in this machine's timezone database") from e
    return value


TimeZoneName = Annotated[str, BeforeValidator(_zone_value), AfterValidator(_check_zone)]


def timezone() -> Parser:
    return Parser(parse_timezone, TIMEZONE_EXPECTS, llm_hint="an IANA timezone name such as 'Europe/Berlin'")


# -- names --------------------------------------------------------------------------------

_WORD = r"[^\W\d_][\w'’\-]*"
_STRONG_NAME = re.compile(
    rf"(?:\b(?:my name is|my name's|my names|name is|name's|call me|you can call me|i go by"
    rf"|i'm called|i am called|i’m called)\s+|(?<!\w)name\s*[:=–-]\s*)({_WORD}(?:\s+{_WORD}){{0,3}})",
    re.IGNORECASE,
)
_WEAK_NAME = re.compile(
    rf"(?:^|[\s,.!?;])(?:i am|i'm|i’m|im|this is|it's|it’s)\s+({_WORD}(?:\s+{_WORD}){{0,3}})", re.IGNORECASE
)
_HERE_NAME = re.compile(rf"^({_WORD})\s+here\b", re.IGNORECASE)
# Words that end a name or show the cue was not about a name ("I'm from", "I'm learning").
_STOP = """a an the and or but from in at on to of for with by so very just not really here there fine good
    great ok okay well new learning looking interested trying going native fluent currently also still back
    i'm im ready excited happy glad sorry tired sure yes no yeah nope hello hi hey thanks thank you your my me i
    is am are was be been living based working studying moving beginner intermediate advanced student
    teacher doing feeling into about totally quite pretty kind sort like want wanna would could can will
    actually now today too as bit little right wrong speaker hoping planning afraid done idk dunno whatever
    why what who how where when skip pass none nothing maybe later called honestly basically anyway hmm
    um uh oh ah cool nice alright perfect awesome true"""
STOP_WORDS = frozenset(_STOP.split())
# Stop words that end a name even when capitalised; others may be name particles ("Nguyễn Văn An").
_BREAKS = "i i'm im and or but from in at to of with my me is am are here the a"
_NAME_BREAKS = frozenset(_BREAKS.split())
GREETINGS = frozenset(
    fold(g)
    for g in ("hello", "hi", "hey", "hiya", "howdy", "yo", "good morning", "good evening", "good afternoon",
              "greetings", "hallo", "hola", "bonjour", "ciao", "servus", "moin")
)  # fmt: skip


def _tidy(words: list[str]) -> str:
    out: list[str] = []
    for w in words:
        f = fold(w)
        if f in STOP_WORDS and (not out or not w[:1].isupper() or f in _NAME_BREAKS):
            break
        out.append(w)
    # all-lowercase chat typing ("max mustermann") is capitalised; a name typed with capitals is
    # kept as typed ("McKay", "María de la Cruz")
    if all(w.islower() for w in out):
        return " ".join(w[:1].upper() + w[1:] for w in out)
    return " ".join(out)


def _not_a_name(word: str) -> bool:
    w = fold(word)
    return w in STOP_WORDS or w in GREETINGS or w in _LANGUAGE_ALIASES or w in NATIONALITIES


def name_in(text: str, *, weak: bool, lowercase: bool = False) -> str | None:
    """A name given with a cue: "my name is X", "call me X"; with `weak` also "I'm X" (capitalised).

    The weak cues are only trusted when no name is known yet: "I'm tired" or "I'm German"
    must not rename anybody, so they need a capitalised word that is not a language, unless
    `lowercase` says the message is plainly a self-introduction ("im anna from vienna, i
    speak german").
    """
    if m := _STRONG_NAME.search(text):
        name = _tidy(m.group(1).split())
        return name or None
    if not weak:
        return None
    for m in [*_WEAK_NAME.finditer(text), *_HERE_NAME.finditer(text.strip())]:
        words = m.group(1).split()
        if (lowercase or words[0][:1].isupper()) and not _not_a_name(words[0]):
            # later words count only when capitalised: "I'm Max from Berlin" -> "Max"
            kept = [words[0], *_take_while_capitalised(words[1:])]
            return _tidy(kept) or None
    return None


def _take_while_capitalised(words: list[str]) -> list[str]:
    out = []
    for w in words:
        if not w[:1].isupper() or _not_a_name(w):
            break
        out.append(w)
    return out


def parse_name(text: str) -> object:
    """A name from "my name is X", "I'm X", "call me X", "X here" or a bare one-to-four-word name."""
    cued = name_in(text, weak=True)
    if cued or _STRONG_NAME.search(text):
        return cued  # "call me maybe": the cue was there, and what followed is no name
    for m in _WEAK_NAME.finditer(text):
        # "i'm max": lowercase is fine when the question asked for a name
        words = m.group(1).split()
        if not _not_a_name(words[0]):
            return _tidy(words) or None
    bare = _trim(text)
    if fold(bare) in GREETINGS or text.rstrip().endswith("?"):
        return None  # a greeting, or a question back ("why?", "what?"), is not a name
    bare = re.sub(r"^(?:hi|hello|hey)[,!\s]+", "", bare, flags=re.IGNORECASE)
    tokens = bare.split()
    if not 1 <= len(tokens) <= 4:
        return None
    if any(ch.isdigit() for ch in bare):
        return Invalid("A name has no digits in it. What should I call you?")
    if not all(re.fullmatch(_WORD + r"\.?", w) for w in tokens):
        return None
    if _not_a_name(tokens[0]) or fold(bare) in GREETINGS:
        return None
    return _tidy([w.rstrip(".") for w in tokens]) or None


def _check_name(value: str) -> str:
    value = " ".join(value.split())
    if not value or len(value) > 60:
        raise ValueError("a name has 1 to 60 characters")
    if any(ch.isdigit() for ch in value) or not any(ch.isalpha() for ch in value):
        raise ValueError("a name is made of letters")
    return value


PersonName = Annotated[str, AfterValidator(_check_name)]


def person_name() -> Parser:
    return Parser(parse_name, "your name (for example “Max” or “my name is Max”)")
