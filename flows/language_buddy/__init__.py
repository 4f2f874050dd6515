"""language-buddy: onboarding (profile and CEFR placement test), then conversation practice and feedback."""

from flows.language_buddy.bot import language_buddy

__all__ = ["language_buddy"]
