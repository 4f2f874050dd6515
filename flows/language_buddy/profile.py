"""The profile onboarding collects: its slots and the states of the placement test within them."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, model_validator

from engine import Slots
from flows.language_buddy.assessment import BankRef
from flows.language_buddy.bank_file import CEFR, LEVELS, Question
from flows.language_buddy.languages import (
    LanguageCode,
)
from flows.language_buddy.names import PersonName
from flows.language_buddy.timezones import TimeZoneName

Amend = Literal["name", "native_language", "target_language", "timezone", "level", "nothing", "done"]


PROFILE_FIELDS = ("name", "native_language", "target_language", "timezone")
# What users call each thing they may change at "What should I change?"
AMEND_WORDS: dict[str, list[str]] = {
    "name": ["my name", "the name"],
    "native_language": ["native language", "native", "mother tongue", "first language"],
    "target_language": ["target language", "target", "language to learn", "the language i learn", "learning"],
    "timezone": ["time zone", "timezone", "city", "location", "time"],
    "level": ["the level", "my level", "test", "placement", "cefr"],
    "nothing": ["nothing", "all good", "it's fine", "no changes", "never mind", "looks good", "nevermind"],
}


# What each fact is called in the languages learners answer in: a correction names it by them ("change my name to
# Annie", "mi lengua materna es el gallego"), and said alone at "What should I change?" it is the fact to change
# ("Zeitzone", "el nombre": engine/corrections.py field_named)
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "name": ("name", "my name", "nombre", "nom", "prénom", "Name", "Vorname", "nome"),
    "native_language": ("native language", "native", "mother tongue", "first language", "lengua materna",
                        "langue maternelle", "Muttersprache", "madrelingua", "lingua madre", "língua materna"),
    "target_language": ("target language", "target", "learn", "learning", "aprender", "apprendre", "lernen",
                        "imparare"),
    "timezone": ("timezone", "time zone", "zona horaria", "fuseau", "fuseau horaire", "Zeitzone", "fuso",
                 "fuso horário", "fuso orario"),
    "level": ("level", "cefr", "nivel", "niveau", "Niveau", "livello", "nível"),
}  # fmt: skip


class OnboardingSlots(Slots):
    name: PersonName | None = None
    native_language: LanguageCode | None = None
    target_language: LanguageCode | None = None
    timezone: TimeZoneName | None = None
    # the placement test; `assessed_language` says which language `level` was measured in
    assessed_language: LanguageCode | None = None
    # a name or "the run's bank", not a path: a session may wait for its next turn across an
    # upgrade that moves the install, or a run given another bank file
    bank: BankRef | None = None
    tier: int = Field(0, ge=0, lt=len(LEVELS))
    correct: int = Field(0, ge=0)
    passed: CEFR | None = None
    question: Question | None = None
    answer: str | None = None
    level: CEFR | None = None
    confirmed: bool | None = None
    amend: Amend | None = None

    @model_validator(mode="after")
    def _two_languages(self) -> Self:
        if self.native_language is not None and self.native_language == self.target_language:
            raise ValueError("the language to learn must differ from the native language")
        return self


def assessed(s: OnboardingSlots) -> bool:
    return s.level is not None and s.assessed_language == s.target_language


def reset_assessment(s: OnboardingSlots) -> None:
    s.assessed_language = None
    s.bank = None
    s.tier = 0
    s.correct = 0
    s.passed = None
    s.question = None
    s.answer = None
    s.level = None
    s.confirmed = None
    s.amend = None


def at_confirmation(s: OnboardingSlots) -> bool:
    """Whether the question being asked is "Shall I save it?" (at every other ask, one of these is open)."""
    filled = all(getattr(s, f) is not None for f in PROFILE_FIELDS)
    return filled and assessed(s) and s.question is None and s.confirmed is None


def amending(s: OnboardingSlots) -> bool:
    """Whether the question being asked is "What should I change?"."""
    return s.confirmed is False and s.amend is None
