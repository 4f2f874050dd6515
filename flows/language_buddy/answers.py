"""Reading onboarding answers that depend on the profile so far: the two language questions,
and answers or corrections given out of turn ("actually my native language is Polish").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine import StepContext
from engine.extract import Invalid, Parser, choice, yes_no
from flows.language_buddy.languages import (
    language,
    language_name,
    native_in,
    parse_language,
    target_claim,
    target_in,
)
from flows.language_buddy.names import name_in, person_name
from flows.language_buddy.profile import (
    PROFILE_FIELDS,
    OnboardingSlots,
    assessed,
    reset_assessment,
)
from flows.language_buddy.timezones import timezone, timezone_in, timezone_moved

# During the test an answer may itself say "I live in London" or "I'd like to learn French"
# (a translation, a sentence to complete); only a message marked as a correction changes
# the profile there.
_CORRECTION = re.compile(
    r"^\W*(?:no|nope|wait|oops)\b|\b(?:actually|sorry|correction|i meant|i mean|instead|switch|change)\b",
    re.IGNORECASE,
)


def _answering_the_test(s: OnboardingSlots, text: str) -> bool:
    return s.question is not None and not _CORRECTION.search(text)


def at_confirmation(s: OnboardingSlots) -> bool:
    """Whether the question being asked is "Shall I save it?" (at every other ask, one of these is open)."""
    filled = all(getattr(s, f) is not None for f in PROFILE_FIELDS)
    return filled and assessed(s) and s.question is None and s.confirmed is None


def read_anytime(text: str, s: OnboardingSlots, asking: str | None = None) -> dict[str, object]:
    """Profile answers a message states with a cue, whatever was asked.

    Loose cues ("I'm Max", "from Berlin", "I speak German") only fill empty slots; a
    filled slot changes only on an explicit one ("my name is", "my native language is",
    "I want to learn", "I live in"), so "I am a student" renames nobody.
    """
    if _answering_the_test(s, text):
        return {}
    found: dict[str, object] = {}
    if native := native_in(text, weak=s.native_language is None):
        found["native_language"] = native
    if target := target_in(text, weak=s.target_language is None):
        found["target_language"] = target
    zone = timezone_in(text) if s.timezone is None else timezone_moved(text)
    if isinstance(zone, str):
        found["timezone"] = zone
    # a message that also gives a language or a place is a self-introduction: "im anna" is a name there
    if name := name_in(text, weak=s.name is None, lowercase=bool(found)):
        found["name"] = name
    field = asking if asking in PARSERS else None
    if found and field is not None and field not in found:
        # "Max, and I live in Berlin": what else the message says must not hide the answer itself
        first = re.split(r"[,;.!?]|\s(?:and|but)\s", text.strip())[0]
        answer = PARSERS[field](s)(first)
        if isinstance(answer, str):
            found[field] = answer
    if found and s.confirmed is False and s.amend is None:
        # at "what should I change?" a new value is the answer itself
        found["amend"] = "done"
    elif not found and at_confirmation(s) and yes_no()(text) is False:
        # "no, the timezone": answer both "Shall I save it?" and "What should I change?"
        change = read_amend(text)
        if isinstance(change, str) and change in (*PROFILE_FIELDS, "level"):
            found.update(confirmed=False, amend=change)
    return found


def language_change(ctx: StepContext[OnboardingSlots]) -> str | None:
    """An explicit statement about either language ("actually I want to learn Spanish").

    One the profile cannot take is refused with its reason and the question asked again,
    rather than dropped (or, mid-test, graded as an answer): an unknown language, or the
    same language as both native and target. A new target once the test has begun
    restarts the placement, since the level measured so far no longer applies. Anything
    else is left to the any-time reader, like any other answer.
    """
    s = ctx.slots
    if _answering_the_test(s, ctx.text):
        return None
    target = target_claim(ctx.text)
    native = native_in(ctx.text, weak=False)
    if isinstance(target, Invalid):
        ctx.say(target.reason)
        return ""
    if target is not None and target == (native or s.native_language) and target != s.target_language:
        ctx.say(f"You already speak {language_name(target)} natively; pick another language to learn.")
        return ""
    if native is not None and native == (target or s.target_language) and native != s.native_language:
        ctx.say(
            f"{language_name(native)} is the language you're learning, so it can't be your native language too. "
            "To learn another one, say “I want to learn …”."
        )
        return ""
    if target is None or target == s.target_language or s.assessed_language is None:
        return None
    s.target_language = target
    if native is not None:
        s.native_language = native
    reset_assessment(s)
    ctx.say(f"Noted: you want to learn {language_name(target)}. Let's redo the placement for it.")
    return "reassess"


def native_parser(s: OnboardingSlots) -> Parser:
    """Like any language answer, but the language the user is learning is refused with a reason."""
    base = language()

    def rule(text: str) -> object:
        code = parse_language(text)
        if isinstance(code, str) and code == s.target_language:
            return Invalid(
                f"{language_name(code)} is the language you want to learn; your native language is another one."
            )
        return code

    return Parser(rule, base.expects, base.llm_hint)


def target_parser(s: OnboardingSlots) -> Parser:
    """Like any language answer, but the user's own native language is refused with a reason."""
    base = language()

    def rule(text: str) -> object:
        code = parse_language(text)
        if isinstance(code, str) and code == s.native_language:
            return Invalid(f"You already speak {language_name(code)} natively; pick another language to learn.")
        if isinstance(code, str) and native_in(text, weak=True) == code:
            # "spanish native" names the language the user has, not the one to learn
            return Invalid(
                f"That names {language_name(code)} as a native language; which language would you like to learn?"
            )
        return code

    return Parser(rule, base.expects, base.llm_hint)


# How each profile question reads its answer (also used for an answer given with other things).
PARSERS: dict[str, Callable[[OnboardingSlots], Parser]] = {
    "name": lambda s: person_name(),
    "native_language": native_parser,
    "target_language": target_parser,
    "timezone": lambda s: timezone(),
}


read_amend = choice(
    {
        "name": ["my name", "the name"],
        "native_language": ["native language", "native", "mother tongue", "first language"],
        "target_language": ["target language", "target", "language to learn", "the language i learn", "learning"],
        "timezone": ["time zone", "timezone", "city", "location", "time"],
        "level": ["the level", "my level", "test", "placement", "cefr"],
        "nothing": ["nothing", "all good", "it's fine", "no changes", "never mind", "looks good", "nevermind"],
    }
)
