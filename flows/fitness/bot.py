"""fitness-coach: onboarding first (until a fitness profile exists), then the main conversation."""

from __future__ import annotations

from engine import Bot, EntryContext, Intent
from flows.fitness.onboarding import fitness_onboarding


def needs_onboarding(ctx: EntryContext) -> str | None:
    return "onboarding" if ctx.latest("fitness_profile") is None else None


fitness_coach = Bot(
    name="fitness-coach",
    persona="an encouraging, safety-minded fitness coach",
    flows=[fitness_onboarding],
    intents=[
        Intent(
            "onboarding",
            # the first "redo"/"new" of a line, then "plan" after it: from each later one the rest of
            # the line would be scanned again ("new-new-new-..." took 45 ms)
            patterns=[r"\bonboarding\b", r"(?m)^(?>.*?\b(?:redo|restart|update|change|new)\b).*\b(?:plan|profile)\b"],
            description="the user wants to (re)do the fitness onboarding or change their plan",
        )
    ],
    capabilities=(
        'I\'m your fitness coach. I can redo your onboarding: say "update my plan". '
        "Type 'help' at any time, or 'cancel' to pause."
    ),
    offline_note="(Without a language model configured I can't chat freely.)",
    entry=needs_onboarding,
    knows=("fitness_profile",),
)
