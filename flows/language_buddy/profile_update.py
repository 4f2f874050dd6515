"""Changing a saved profile after onboarding when a question is needed: "update my profile", "can i
change my timezone?", "I moved to amsterdm".

Profiles are append-only records: a change saves a new `profile` record (the newest is the
profile, `ctx.latest("profile")`), confirmed in one line. A message that carries its new value
("actually call me Sam", "I moved to Lisbon") is the engine's update path (onboarding's `Amends`,
changes.py), read before the bot's main handler. The handler starts this flow, seeded with the
current profile, for what that path cannot do without asking: a change with no fact named
("update my profile": which one, then the value), a fact named without its value ("can i change my
name?"), a move to a place that cannot be read ("Did you mean Amsterdam?"). The values are read with
onboarding's own readers, against the profile as it stands, so "I'm learning" or "I'm tired"
changes nothing here.
A new language to learn starts at A1: the saved level was measured in the old one. A level the
learner says they are at ("change my level to A2", "put me at intermediate") is taken as said.
"""

from __future__ import annotations

import re
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from engine import Ask, Final, Flow, Slots, Step, StepContext, T, asks_to_change
from engine.cues import in_english_cues
from engine.extract import Invalid, Parser, choice
from engine.yesno import read_yes_no
from flows.language_buddy.answers import read_anytime
from flows.language_buddy.assessment import self_placed
from flows.language_buddy.bank_file import CEFR
from flows.language_buddy.corrections import field_and_value
from flows.language_buddy.field_parsers import PARSERS, read_amend
from flows.language_buddy.languages import LanguageCode, language_name
from flows.language_buddy.names import PersonName
from flows.language_buddy.profile import AMEND_WORDS, PROFILE_FIELDS, OnboardingSlots
from flows.language_buddy.timezones import TimeZoneName, parse_timezone, zone_label

Field = Literal["name", "native_language", "target_language", "timezone", "level", "nothing"]
# what a change may set: the profile's fields, and the level the learner says they are at
UPDATED = (*PROFILE_FIELDS, "level")
# "update my profile", "can I change my details", "edit my settings": a change with no value yet
ASKS_FOR_A_CHANGE = re.compile(
    r"\b(?:update|change|edit|fix|correct|amend|modify)\b.{0,25}\b(?:profile|details|settings|info|information)\b"
)

# "I moved to X", "I'm living in X now", "we relocated to X": the new place, read or not; "a new
# flat", "my parents' place" name a home, not a place to look up
_NO_PLACE = (
    r"(?:a|an|my|our|his|her|their|another)\b|(?:the\s+)?(?:new|different|bigger|smaller|other)\b"
    r"|the\s+(?:flat|apartment|house|room|dorm|place|countryside|suburbs|city|coast)\b"
)
MOVED = re.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:just\s+|recently\s+)?(?:moved|relocated)\s+(?:to|in)\s+(?!" + _NO_PLACE + r")"
    r"(?P<place>\w[^.,;!?]*)"
    r"|\b(?:i'?m|i am)\s+(?:now\s+)?(?:living|based)\s+in\s+(?!" + _NO_PLACE + r")(?P<place2>\w[^.,;!?]*?)(?:\s+now)?"
    r"\s*(?:$|[.,;!?])"
)

# A field word and a value count in the main conversation only with a word of changing or "my":
# "what time is it in London?" names the field word "time" and a place, and changes nothing
_CHANGING = re.compile(
    r"\b(?:change|switch|set|update|edit|fix|correct|make|put|move)\b"
    r"|\bmy (?:name|native|target|time ?zone|city|location)\b"
)
# "change my level to A2", "put me at B1", "my level should be intermediate": a level said as a change
_LEVEL_CHANGE = re.compile(r"\b(?:level|put me|move me|start me|i'?m (?:more|really)|should be)\b")


class Profile(BaseModel):
    """A saved `profile` record's data."""

    model_config = ConfigDict(extra="ignore")

    name: PersonName
    native_language: LanguageCode
    target_language: LanguageCode
    timezone: TimeZoneName
    level: CEFR


class ProfileUpdateSlots(Slots):
    current: Profile | None = None
    field: Field | None = None
    # "I moved to amsterdm": the place a move named that could not be read; asked about (with a
    # "did you mean" when a known place is near it), and a yes takes the suggestion
    moved_to: str | None = None
    # the new values; only those given are changed
    name: PersonName | None = None
    native_language: LanguageCode | None = None
    target_language: LanguageCode | None = None
    timezone: TimeZoneName | None = None
    level: CEFR | None = None


def _view(current: Profile) -> OnboardingSlots:
    """The profile as onboarding's readers see it: everything filled and confirmed, so only explicit cues count."""
    return OnboardingSlots(**current.model_dump(), assessed_language=current.target_language, confirmed=True)


def read_update(text: str, s: ProfileUpdateSlots, asking: str | None = None) -> dict[str, object]:
    """New profile values a message gives: "call me Sam", "I moved to Lisbon", "change my target to Italian"."""
    if s.current is None:
        return {}
    view = _view(s.current)
    found = {k: v for k, v in read_anytime(text, view).items() if k in PROFILE_FIELDS}
    if not found and (asking is not None or _CHANGING.search(text.lower())):
        found = field_and_value(text, view)
    if not found and (asking == "level" or _LEVEL_CHANGE.search(text.lower())) and (level := self_placed(text)):
        found = {"level": level}  # said, not tested: the learner knows where they stand
    if not found and asking is None and (m := MOVED.search(text.lower())):
        # a move the sentence readers missed: the place alone, else the timezone question about it
        place = (m.group("place") or m.group("place2") or "").strip()
        zone = parse_timezone(place)
        found = {"timezone": zone} if isinstance(zone, str) else {"field": "timezone", "moved_to": place}
    if asking is not None and asking in PARSERS and asking not in found:
        return found  # the asked question's own parser reads a bare answer
    if found and asking == "field":
        found["field"] = next(iter(found))  # the value answers "what would you like to change?" too
    return found


def wants_change(text: str) -> bool:
    """Does a main-conversation message ask for a change the engine's update path could not make
    without a question? (It read the message first: one with a value it could read is saved.)"""
    return bool(ASKS_FOR_A_CHANGE.search(text.lower()) or field_to_change(text) is not None or _moved_unread(text))


def _moved_unread(text: str) -> bool:
    """ "i moved to amsterdm": a move to a place the readers cannot place (the timezone question says why)."""
    m = MOVED.search(text.lower())
    return m is not None and not isinstance(parse_timezone((m.group("place") or m.group("place2") or "").strip()), str)


_FIELD = choice({k: v for k, v in AMEND_WORDS.items() if k != "nothing"}, fuzzy=False)


def field_to_change(text: str) -> Field | None:
    """The fact a message asks to change without giving its new value ("can i change my name?",
    "kann ich meinen Namen ändern?", "quiero cambiar mi nivel"): the update asks for the value. The
    verbs of changing, in the languages read, are the engine's (`asks_to_change`)."""
    if not asks_to_change(text):
        return None
    found = _FIELD(in_english_cues(text).lower())
    return cast(Field, found) if isinstance(found, str) else None


def _given(s: ProfileUpdateSlots) -> dict[str, str]:
    return {f: v for f in UPDATED if (v := getattr(s, f)) is not None}


def _shown(field: str, value: str) -> str:
    if field in ("native_language", "target_language"):
        return language_name(value)
    return zone_label(value) if field == "timezone" else value


def save(ctx: StepContext[ProfileUpdateSlots]) -> None:
    """A new profile record with the changes; the old one stays."""
    s = ctx.slots
    if s.current is None:  # started only with a profile to change
        return
    changes = {f: v for f, v in _given(s).items() if v != getattr(s.current, f)}
    data = {**s.current.model_dump(mode="json"), **changes}
    if data["native_language"] == data["target_language"]:
        ctx.say(
            f"You already speak {language_name(data['native_language'])} natively, so I kept your profile as it was."
        )
        return
    if not changes:
        ctx.say("OK, your profile stays as it is." if s.field == "nothing" else "Your profile says that already.")
        return
    note = ""
    if "target_language" in changes and "level" not in changes:
        data["level"] = "A1"
        note = f" Your level {s.current.level} was for {language_name(s.current.target_language)}, so we start at A1."
    ctx.record("profile", data)
    listed = ", ".join(f"{f.replace('_', ' ')}: {_shown(f, v)}" for f, v in changes.items())
    ctx.say(f"Done, your profile now says {listed}.{note}")


def _suggested(s: ProfileUpdateSlots) -> str | None:
    """The known place near the one the move named ("amsterdm" -> Amsterdam), if any."""
    if s.moved_to is None:
        return None
    read = parse_timezone(s.moved_to)
    return read.suggestion if isinstance(read, Invalid) else None


def ask_timezone(s: ProfileUpdateSlots) -> str:
    """The question, or after a move the reader could not place, why ("Did you mean Amsterdam?",
    "The US has several time zones...")."""
    read = parse_timezone(s.moved_to) if s.moved_to is not None else None
    if isinstance(read, Invalid):
        return read.reason
    return "What's your timezone? A city, an IANA name or a UTC offset all work."


def timezone_parser(s: ProfileUpdateSlots) -> Parser:
    """Onboarding's timezone reader; after "Did you mean Amsterdam?" a yes takes Amsterdam."""
    base = PARSERS["timezone"](OnboardingSlots())
    near = _suggested(s)

    def rule(text: str) -> object:
        said = read_yes_no(text) if near is not None else None
        if said is True and near is not None:
            return base(near)
        read = base(text)
        if said is False and not isinstance(read, str):  # "no" (and not "no, Rotterdam")
            return Invalid("Alright. Which city is it near, or what's your UTC offset?")
        return read

    return Parser(rule, base.expects)


def summary(s: ProfileUpdateSlots) -> str:
    given = _given(s)
    listed = ", ".join(f"{f} -> {v}" for f, v in given.items())
    return f"Profile update: {listed}." if given else "Profile update: nothing changed."


profile_update = Flow(
    name="profile_update",
    description="change the saved profile (name, languages, timezone, level) after onboarding",
    persona="LanguageBuddy, brief and precise",
    slots=ProfileUpdateSlots,
    states=[
        Step("start", run=lambda ctx: None, initial=True),
        Ask(
            "ask_field",
            slot="field",
            say=(
                "What would you like to change: name, native language, target language, timezone or level? "
                "You can give the new value too, e.g. “call me Sam” or “I moved to Lisbon”."
            ),
            parse=read_amend,  # "timezone", or what the learner calls it: "Zeitzone", "el nombre"
            why="I change only the part of your profile you pick; the rest stays as it is.",
            reprompts=["Please pick one: name, native language, target language, timezone or level (or “nothing”)."],
        ),
        Ask(
            "ask_level",
            slot="level",
            say="Which level should I put you at: A1, A2, B1, B2, C1 or C2 (or beginner, intermediate, advanced)?",
            parse=Parser(lambda text: self_placed(text), "a level from A1 to C2"),
            why="Your level sets how hard our practice is; you can change it any time.",
        ),
        Ask(
            "ask_name",
            slot="name",
            say="What should I call you?",
            parse=PARSERS["name"](OnboardingSlots()),
            why="I use your name to greet you; any name or nickname is fine.",
        ),
        Ask(
            "ask_native",
            slot="native_language",
            say="What's your native language?",
            parse=PARSERS["native_language"](OnboardingSlots()),
            why="Your native language lets me explain things in words you know best.",
        ),
        Ask(
            "ask_target",
            slot="target_language",
            say="Which language would you like to learn?",
            parse=PARSERS["target_language"](OnboardingSlots()),
            why="This is the language we'll practise together.",
        ),
        Ask(
            "ask_timezone",
            slot="timezone",
            say=ask_timezone,
            parse=timezone_parser,
            why="Your timezone lets me schedule practice reminders at sensible hours.",
        ),
        Step("save", run=save),
        Final("done", summary=summary),
    ],
    transitions=[
        T("next", "start", "save", when=lambda s: bool(_given(s))),
        T("next", "start", "ask_timezone", when=lambda s: s.field == "timezone"),
        T("next", "start", "ask_field"),
        T("answer", "ask_field", "save", when=lambda s: bool(_given(s)) or s.field == "nothing"),
        T("answer", "ask_field", "ask_name", when=lambda s: s.field == "name"),
        T("answer", "ask_field", "ask_native", when=lambda s: s.field == "native_language"),
        T("answer", "ask_field", "ask_target", when=lambda s: s.field == "target_language"),
        T("answer", "ask_field", "ask_level", when=lambda s: s.field == "level"),
        T("answer", "ask_field", "ask_timezone"),
        T("answer", "ask_name", "save"),
        T("answer", "ask_native", "save"),
        T("answer", "ask_target", "save"),
        T("answer", "ask_timezone", "save"),
        T("answer", "ask_level", "save"),
        T("next", "save", "done"),
    ],
    extract=read_update,
    max_turns=12,
)
