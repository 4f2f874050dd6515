"""language-buddy: a language-practice partner; main conversation plus feedback."""

from __future__ import annotations

from engine import Bot, Intent, register
from flows.feedback import feedback

FEEDBACK = Intent(
    "feedback",
    patterns=[
        r"\bfeedback\b",
        r"\bcomplain",
        r"\brate (?:the|this|your) (?:app|bot|service)",
        r"\b(?:leave|write|give) (?:a )?review\b",
        r"\bsuggestion\b",
        r"\breport (?:a |an )?(?:bug|problem|issue)",
    ],
    description="the user wants to give feedback, complain, rate the app or report a problem",
)

language_buddy = register(
    Bot(
        name="language-buddy",
        persona="LanguageBuddy, a patient language-practice partner",
        flows=[feedback],
        intents=[FEEDBACK],
        capabilities=(
            "I'm LanguageBuddy. Without a language model configured I can't chat freely, but I can "
            "take your feedback: say \"I'd like to give feedback\". Type 'help' at any time, "
            "or 'cancel' to leave an activity."
        ),
    )
)
