"""The facts of a saved language-buddy profile a later message may change or ask about: the
engine's update path (`Amends`, engine/amend.py) for the `profile` record onboarding saves.

"actually my native language is Polish", "change my level to A2", "I moved to Lisbon", "nenn mich
Maxi" save a new version of the profile at once, confirmed with what changed; "what level am I?",
"what's my timezone again?" are told from it. The engine reads the message with its cues of other
languages in English (engine/data/cues.yaml: "meine Muttersprache" is "my native language"), so
the names below are English; each value is read by onboarding's own sentence readers, against the
profile as saved (so "I'm learning a lot" changes nothing, and the language learnt cannot become
the native one). A fact named with no value ("can i change my timezone?"), or a move to a place
that cannot be read, is left to the profile update flow, which asks for it (profile_update.py).
"""

from __future__ import annotations

import re

from pydantic import ValidationError

from engine import Amendable, Amends, Parser, RecordDraft
from engine.extract import Invalid
from engine.models import JsonObject
from flows.language_buddy.assessment import self_placed
from flows.language_buddy.corrections import field_and_value
from flows.language_buddy.field_parsers import PARSERS
from flows.language_buddy.languages import language_name, native_in, target_in
from flows.language_buddy.names import name_in
from flows.language_buddy.profile import OnboardingSlots
from flows.language_buddy.profile_update import MOVED, Profile
from flows.language_buddy.timezones import parse_timezone, timezone_moved, zone_label


def _named(text: str, s: OnboardingSlots, field: str) -> object:
    """ "change my name to Jonas", "no, timezone is tokyo": the field word and the value beside it."""
    return field_and_value(text, s, before=False).get(field)


def _name(s: OnboardingSlots) -> Parser:
    return Parser(lambda text: _named(text, s, "name") or name_in(text, weak=False), "a name")


def _native(s: OnboardingSlots) -> Parser:
    """The native language a sentence states; the language learnt is refused with the reason."""

    def rule(text: str) -> object:
        code = _named(text, s, "native_language") or native_in(text, weak=False)
        if code is not None and code == s.target_language:
            return Invalid(
                f"{language_name(str(code))} is the language you're learning, so it can't be your native language "
                "too. To learn another one, say “I want to learn …”."
            )
        return code

    return Parser(rule, "a language")


def _target(s: OnboardingSlots) -> Parser:
    """The language a sentence wants to learn; the native one is refused with the reason."""

    def rule(text: str) -> object:
        code = target_in(text, weak=False) or _named(text, s, "target_language")
        if code is not None and code == s.native_language:
            return Invalid(f"You already speak {language_name(str(code))} natively; pick another language to learn.")
        return code

    return Parser(rule, "a language")


def _timezone(s: OnboardingSlots) -> Parser:
    """A zone given with a cue of changing ("my timezone is", "I live in", "I moved to"); a place that
    cannot be read is no value here (the update flow asks "Did you mean Amsterdam?")."""

    def rule(text: str) -> object:
        for zone in (timezone_moved(text), _named(text, s, "timezone")):
            if isinstance(zone, str):
                return zone
        m = MOVED.search(text.lower())
        read = parse_timezone((m.group("place") or m.group("place2") or "").strip()) if m else None
        return read if isinstance(read, str) else None

    return Parser(rule, "a city, an IANA name or a UTC offset")


def _level(s: OnboardingSlots) -> Parser:
    # said, not tested: the learner knows where they stand
    return Parser(lambda text: self_placed(text), "a level from A1 to C2")


def _names(*words: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")\b")


# Each fact's words, its reader in a sentence that says the change, and (`answer`) the reader of a bare
# answer to "What should your timezone be?": onboarding's question's own
FIELDS: list[Amendable[OnboardingSlots]] = [
    Amendable("name", _names("name", "call me", "called", "go by"), _name, "name", answer=PARSERS["name"]),
    Amendable("native_language", _names("native", "mother tongue", "first language"), _native, "native language",
              answer=PARSERS["native_language"]),
    Amendable("target_language", _names("target", "learn", "learning", "study", "studying"), _target,
              "target language", answer=PARSERS["target_language"]),
    Amendable("timezone", _names("time ?zone", "moved", "relocated", "live in", "living in", "based in", "city",
                                 "location"), _timezone, "timezone", answer=PARSERS["timezone"]),
    Amendable("level", _names("level", "cefr", "[abc][12]", "beginner", "intermediate", "advanced", "put me",
                              "move me", "start me"), _level, "level"),
]  # fmt: skip

# what says a change of the profile with no word of changing: "call me Sam", "I moved to Lisbon", "my
# native language is Polish", "I want to learn Italian" (onboarding's explicit cues)
SAYS = re.compile(
    r"\b(?:call me|i go by|my name is|my name's|(?:i|we)(?:'ve| have)? (?:just |recently )?(?:moved|relocated)"
    r"|i live in|i'?m living in|i want to learn|(?:i'?d|i would) (?:rather|prefer to) learn|my native language is"
    r"|is my native language|my time ?zone is|put me|start me|i'?m (?:more|really) (?:like |of )?(?:an? )?[abc][12])\b"
    # the level alone, said as a setting ("level B2 please"; not "level B2 exercises are hard")
    r"|^\W*(?:my )?level(?: is| should be|:)? [abc][12]\W*(?:please|pls|now|thanks)?\W*$"
)
# the whole profile asked about: "what's my profile?", "show me my details"
NAMES = re.compile(r"\b(?:profile|details|settings)\b")


def from_profile(data: JsonObject) -> OnboardingSlots:
    """A saved `profile` record read back into onboarding's slots: all filled and confirmed, so only
    explicit cues change them, and the level was measured in the language learnt."""
    p = Profile.model_validate(data)
    return OnboardingSlots(**p.model_dump(), assessed_language=p.target_language, confirmed=True)


def profile_record(s: OnboardingSlots) -> list[RecordDraft]:
    data = s.model_dump(mode="json", include={"name", "native_language", "target_language", "timezone", "level"})
    return [RecordDraft(kind="profile", data=data)]


def settle(before: OnboardingSlots, after: OnboardingSlots) -> OnboardingSlots | str:
    """A new language to learn starts at A1 (the level was measured in the old one), unless the same
    message gives the level too."""
    if after.target_language == before.target_language or after.level != before.level:
        return after.model_copy(update={"assessed_language": after.target_language})
    try:
        return OnboardingSlots.model_validate(
            {**after.model_dump(), "level": "A1", "assessed_language": after.target_language}
        )
    except ValidationError:  # the two languages the same: the parsers refuse it first
        return "Your native language and the language you learn must differ."


def show(slot: str, value: object) -> str:
    """How a fact reads when it is changed or told: languages by name, offsets as UTC+2."""
    label = next((f.label for f in FIELDS if f.slot == slot), slot.replace("_", " "))
    if slot in ("native_language", "target_language") and isinstance(value, str):
        return f"{label}: {language_name(value)}"
    if slot == "timezone" and isinstance(value, str):
        return f"{label}: {zone_label(value)}"
    return f"{label}: {value}"


def describe(s: OnboardingSlots) -> str:
    """The saved profile, told when the learner asks for it."""
    facts = "; ".join(show(f.slot, getattr(s, f.slot)) for f in FIELDS if getattr(s, f.slot) is not None)
    return f"Your profile: {facts}. To change something, say for example “change my level to B2”."


PROFILE: Amends[OnboardingSlots] = Amends(
    kind="profile",
    fields=FIELDS,
    load=from_profile,
    records=profile_record,
    settle=settle,
    show=show,
    says=SAYS,
    names=NAMES,
    describe=describe,
)
