"""language-buddy: a language-practice partner; onboarding first, then main conversation plus feedback."""

from __future__ import annotations

from pydantic import ValidationError

from engine import Bot, EntryContext, FlowRun, Intent, MainContext, Resources, unrevised
from flows.language_buddy.bank_file import load_bank
from flows.language_buddy.languages import language_name
from flows.language_buddy.onboarding import onboarding
from flows.language_buddy.profile_update import (
    Profile,
    ProfileUpdateSlots,
    field_to_change,
    profile_update,
    wants_change,
)
from flows.shared.feedback import feedback
from flows.shared.feedback_recall import asks_about_past, past_feedback

FEEDBACK = Intent(
    "feedback",
    patterns=[
        r"\bfeedback\b",
        r"\bcomplain",
        r"\brate (?:the|this|your) (?:app|bot|service)",
        r"\b(?:leave|write|give) (?:a )?review\b",
        r"\bsuggestion\b",
        # an opinion offered ("I'd like to give you my opinion", "mi opinión" through engine/cues.py); "in my
        # opinion" only frames another sentence
        r"(?<!\bin )\bmy (?:honest )?opinion\b",
        r"\breport (?:a |an |the |this |that )?(?:bug|problem|issue|crash|it\b|this\b|that\b)",
        r"\b(?:file|make|lodge|submit) (?:a |an )?(?:complaint|report|bug report)\b",
        # the app given a score: "5 stars from me", "4/5", "10 out of 10"
        r"(?<![\w/])(?:[0-9]|10)\s*(?:stars?\b|/\s*(?:5|10)\b|out of (?:5|10|five|ten)\b)",
    ],
    description="the user wants to give feedback, complain, rate the app or report a problem",
    # words without which no message is read as a wish to give feedback, in a few languages
    cues=(
        "feedback",
        "complain",
        "complaint",
        "review",
        "rate",
        "rating",
        "star",
        "/5",
        "out of",
        "report",
        "bug",
        "broken",
        "crash",
        "freez",
        "problem",
        "issue",
        "suggest",
        "opinion",
        "terrible",
        "awful",
        "hate",
        "bewert",
        "beschwer",
        "fehler",
        "avis",
        "plainte",
        "queja",
        "opini",
        "reclam",
    ),
    confirm="Do you want to give feedback about the app?",
)


def needs_onboarding(ctx: EntryContext) -> str | None:
    """No profile yet: onboarding comes first, whatever the message was ("Hello!" included)."""
    return "onboarding" if ctx.latest("profile") is None else None


def greet_after(run: FlowRun, ctx: EntryContext) -> str | None:
    """Back in the main conversation after onboarding: greet the user by name, at their level."""
    if run.flow != "onboarding" or run.outcome != "completed":
        return None
    name = run.slots.get("name")
    target = run.slots.get("target_language")
    level = run.slots.get("level")
    language = language_name(target) if isinstance(target, str) else "your new language"
    return f"Great, {name}! Let's start practising {language} at level {level}."


def converse(ctx: MainContext) -> None:
    """A change of the profile that needs a question ("update my profile", "can i change my name?")
    starts the update (one with its value was the engine's update path, before this); a question
    about feedback given is answered from it; the rest as usual."""
    saved = ctx.latest("profile")
    try:
        current = Profile.model_validate(saved.data) if saved is not None else None
    except ValidationError:
        current = None  # a record this code can no longer read is not changed piecemeal
    if current is not None and wants_change(ctx.text):
        # "can i change my name?": the update asks for the new name at once
        ctx.start("profile_update", ProfileUpdateSlots(current=current, field=field_to_change(ctx.text)))
        return
    # "what did I complain about earlier?" names the feedback intent's words but asks a question
    if asks_about_past(ctx.text):
        ctx.reply(past_feedback([r.data for r in unrevised(ctx.records("feedback"))]))
        return
    ctx.default()


def check_bank(resources: Resources) -> list[str]:
    """A question bank given for the run is validated before the first turn."""
    if resources.assessment is not None:
        load_bank(resources.assessment)
    return []


language_buddy = Bot(
    name="language-buddy",
    persona="LanguageBuddy, a patient language-practice partner",
    flows=[onboarding, feedback, profile_update],
    intents=[FEEDBACK],
    capabilities=(
        "I'm LanguageBuddy, your practice partner. I can also take your feedback: say \"I'd like to "
        'give feedback", or change your profile: say "update my profile". Type \'help\' at any time, '
        "or 'cancel' to leave an activity."
    ),
    offline_note="(Without a language model configured I can't chat freely.)",
    entry=needs_onboarding,
    on_return=greet_after,
    converse=converse,
    check=check_bank,
)
