"""The profile onboarding collects: its slots and the states of the placement test within them."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, model_validator

from engine import Slots
from flows.language_buddy.assessment import (
    CEFR,
    LEVELS,
    BankRef,
    Question,
)
from flows.language_buddy.languages import (
    LanguageCode,
)
from flows.language_buddy.names import PersonName
from flows.language_buddy.timezones import TimeZoneName

Amend = Literal["name", "native_language", "target_language", "timezone", "level", "nothing", "done"]


PROFILE_FIELDS = ("name", "native_language", "target_language", "timezone")


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
