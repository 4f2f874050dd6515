"""Reading onboarding answers that depend on the profile so far: the two language questions,
and answers or corrections given out of turn ("actually my native language is Polish").
"""

from __future__ import annotations

import re

from engine import StepContext
from engine.cues import in_english_cues
from engine.extract import Invalid
from flows.language_buddy.corrections import correction
from flows.language_buddy.field_parsers import PARSERS
from flows.language_buddy.languages import (
    find_languages,
    language_name,
    mentions_language_change,
    native_in,
    target_claim,
    target_in,
)
from flows.language_buddy.names import name_in
from flows.language_buddy.profile import (
    OnboardingSlots,
    amending,
    at_confirmation,
    reset_assessment,
)
from flows.language_buddy.timezones import timezone_in, timezone_moved

# During the test an answer may itself say "I live in London" or "I'd like to learn French"
# (a translation, a sentence to complete); only a message marked as a correction changes
# the profile there.
_CORRECTION = re.compile(
    r"^\W*(?:no|nope|wait|oops)\b|\b(?:actually|sorry|correction|i meant|i mean|instead|switch|change)\b",
    re.IGNORECASE,
)


def _answering_the_test(s: OnboardingSlots, text: str) -> bool:
    return s.question is not None and not _CORRECTION.search(text)


def read_anytime(text: str, s: OnboardingSlots, asking: str | None = None) -> dict[str, object]:
    """Profile answers a message states with a cue, whatever was asked.

    Loose cues ("I'm Max", "from Berlin", "I speak German") only fill empty slots; a
    filled slot changes only on an explicit one ("my name is", "my native language is",
    "I want to learn", "I live in"), so "I am a student" renames nobody.
    """
    if _answering_the_test(s, text):
        return {}
    text = in_english_cues(text)  # "je m'appelle Chloé, je parle français": the cues below are English
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
    if not found and (at_confirmation(s) or amending(s)):
        # "no, timezone is tokyo", "nah im in lisbon": the new value at once; "no, the timezone": that question
        found.update(correction(text, s))
    if found and amending(s) and "amend" not in found:
        # at "what should I change?" a new value is the answer itself
        found["amend"] = "done"
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
    if target is None and (at_confirmation(s) or amending(s)):
        # "no, target italian", "its italian not english": the test is taken again for it
        said = correction(ctx.text, s).get("target_language")
        target = said if isinstance(said, str) else None
    native = native_in(ctx.text, weak=False)
    if isinstance(target, Invalid):
        ctx.say(target.reason)
        if target.suggestion is not None:  # "Did you mean English?": a yes says "I want to learn English"
            ctx.offer(f"I want to learn {language_name(target.suggestion)}")
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
    # both at once: "no, my native language is German and I want to learn English" is valid
    # only as a whole when English was the native language
    s.assign(target_language=target, native_language=native or s.native_language)
    reset_assessment(s)
    ctx.say(f"Noted: you want to learn {language_name(target)}. Let's redo the placement for it.")
    return "reassess"


def may_change_language(text: str) -> bool:
    """Whether `language_change` should look at a message: a cue about either language, or a language named."""
    return mentions_language_change(text) or bool(find_languages(text))
