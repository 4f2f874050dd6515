"""Reading a correction given at "Shall I save it?" or "What should I change?" together with its new value.

"no, my native language is Polish" was always read (an explicit cue); these are the shorter
ways people say it once the whole profile is in front of them: the field and the value
("no, timezone is tokyo", "the name should be sam", "spanish native"), or a value only one
field can take ("nah im in lisbon", "no its Sam"). The old value and the new one ("its polish
not german", "not Max, Sam") are read by the engine, at any question (engine/corrections.py).
A correction whose value cannot be read still names its field, which is then asked again
(`amend`); a bare language ("no, Polish") could be either language and is left to "What should
I change?".
"""

from __future__ import annotations

import re

from engine.corrections import gives_no_value
from engine.extract import fold
from engine.said import says_unsure
from engine.yesno import read_yes_no
from flows.language_buddy.assessment import self_placed
from flows.language_buddy.field_parsers import PARSERS, read_amend
from flows.language_buddy.languages import native_in, parse_language
from flows.language_buddy.names import name_in, parse_name
from flows.language_buddy.profile import AMEND_WORDS, PROFILE_FIELDS, OnboardingSlots, amending
from flows.language_buddy.text import alias_pattern
from flows.language_buddy.timezones import parse_timezone

# The field words of `AMEND_WORDS`, longest first, by what they name ("native language" before "native").
_FIELD_OF = {w: f for f in PROFILE_FIELDS for w in (f.replace("_", " "), *AMEND_WORDS[f])}
_FIELD_WORD = alias_pattern(_FIELD_OF)
# What leads a correction: "no,", "nah", "wrong", "actually", "oops", "not quite"
_MARKER = re.compile(
    r"^(?:no+|nope|nah|wait|oops|sorry|actually|wrong|not quite|incorrect|that's wrong|that is wrong"
    r"|change|fix)\b[\s,.!:;-]*"
)
# What sits between a field and its value: "the name is wrong, it's Sam", "change the name to Sam"
_BETWEEN = re.compile(
    r"^[\s,.:;=-]*(?:(?:'s|is|was|should be|must be|to|wrong|not right|incorrect|it's|its|it is|actually|please|"
    r"change|set|make it|be)\b[\s,.:;=-]*)*"
)
_AROUND = re.compile(r"^(?:the|my|and|but|so|,)\s+|(?<!\s)\s++(?:the|my)$")


def _strip(text: str, pattern: re.Pattern[str]) -> str:
    while True:
        shorter = pattern.sub("", text, count=1).strip(" ,.!?;:-")
        if shorter == text:
            return text
        text = shorter


def _value(field: str, text: str, s: OnboardingSlots) -> str | None:
    """`text` read as the new value of `field`, when it is one and differs from the current value."""
    text = _strip(text, _AROUND)
    if not text:
        return None
    value = PARSERS[field](s)(text)
    if field == "native_language" and not isinstance(value, str):
        value = native_in(text, weak=True)  # "spanish native" beside the field word "native"
    if not isinstance(value, str) or value == getattr(s, field):
        return None
    return value


def field_and_value(t: str, s: OnboardingSlots, *, before: bool = True) -> dict[str, object]:
    """ "no, timezone is tokyo", "change the name to Sam", "spanish native": a field word and the value beside it
    (`before`: or before it; a change asked for says it after: "kann ich change my name" names no one)."""
    m = _FIELD_WORD.search(t)
    if m is None:
        return {}
    field = _FIELD_OF[m.group()]
    if gives_no_value(t[m.end() :]):
        return {}  # "i want to change my name first": which field, not yet to what
    after = _strip(t[m.end() :], _BETWEEN)
    for candidate in (after, _strip(t[: m.start()], _MARKER)) if before else (after,):
        value = _value(field, candidate, s)
        if value is not None:
            return {field: value}
    return {}


def _one_field_value(rest: str, s: OnboardingSlots) -> dict[str, object]:
    """A value only one field takes: a place is the timezone, a self-introduction the name."""
    if not rest or isinstance(parse_language(rest), str):
        return {}  # a language alone could be either one: "What should I change?" asks
    zone = parse_timezone(rest)
    if isinstance(zone, str):
        return {"timezone": zone} if zone != s.timezone else {}
    name = name_in(rest, weak=True, lowercase=True)
    said_no = read_yes_no(rest) is not None  # "nein", "thats wrong": an answer, not a name
    if name is None and not said_no and len(rest.split()) <= 3 and isinstance(read_amend(rest), str) is False:
        bare = parse_name(rest)
        name = bare if isinstance(bare, str) else None
    return {"name": name} if name is not None and name != s.name else {}


_SAYS_LEVEL = re.compile(r"\b(?:level|i'?m|i am|put me|start me)\b")


def correction(text: str, s: OnboardingSlots) -> dict[str, object]:
    """At the confirmation or "What should I change?": the slots a correction with its value sets.

    At the confirmation a message must read as a correction ("no", "wrong", "actually",
    or a field named with a new value); "no, the timezone" (a field, no value) answers both
    questions at once, and the field is asked again.
    """
    answer = read_yes_no(text)
    if answer is True or says_unsure(text):
        return {}  # "no idea" is not "no, Idea": nothing to change, the question stays open
    t = fold(text).strip(" .!?")
    rest = _strip(t, _MARKER)
    # a field with its value is a correction however it starts; a current value named as wrong
    # ("its polish not german", "not Max, Sam") is read by the engine (engine/corrections.py)
    if found := field_and_value(t, s):
        return found
    marked = answer is False or rest != t
    # "actually I'm already intermediate in japanese": the level the learner says, as said
    if (level := self_placed(text)) is not None and level != s.level and (marked or _SAYS_LEVEL.search(t)):
        return {"level": level}
    if not (marked or amending(s)):
        return {}
    if found := _one_field_value(rest, s):
        return found
    change = read_amend(text)
    if not amending(s) and isinstance(change, str) and change in (*PROFILE_FIELDS, "level"):
        return {"confirmed": False, "amend": change}
    return {}
