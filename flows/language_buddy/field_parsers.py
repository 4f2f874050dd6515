"""How each profile question reads its answer, against the profile so far (the two languages must differ)."""

from __future__ import annotations

from collections.abc import Callable

from engine.extract import Invalid, Parser, choice
from engine.guard import detect_language
from engine.names import field_named
from flows.language_buddy.languages import (
    find_languages,
    language,
    language_name,
    nationality_language,
    native_in,
    parse_language,
    spoken_besides,
)
from flows.language_buddy.names import person_name
from flows.language_buddy.profile import AMEND_WORDS, FIELD_NAMES, OnboardingSlots
from flows.language_buddy.timezones import timezone


def native_parser(s: OnboardingSlots) -> Parser:
    """Like any language answer, but the language the user is learning is refused with a reason."""
    base = language()

    def rule(text: str) -> object:
        code = parse_language(text)
        if isinstance(code, Invalid):
            # "japanese, but i also speak a bit of english": the one not spoken a little is the native one
            named = [c for c in find_languages(text) if c not in spoken_besides(text)]
            code = named[0] if len(named) == 1 and named[0] != s.target_language else code
        if code is None or isinstance(code, Invalid):
            # "sou brasileira", "i'm american lol": the country's language
            code = nationality_language(text, alone=True) or code
        if isinstance(code, str) and code == s.target_language:
            return Invalid(
                f"{language_name(code)} is the language you want to learn; your native language is another one."
            )
        if code is None and (written := detect_language(text)) not in (None, "en", s.target_language):
            # a learner who answers in Spanish without naming a language most likely grew up with it:
            # offered, never assumed (a yes next turn takes it)
            name = language_name(written)
            return Invalid(f"Is your native language {name}? Say yes, or type its name.", suggestion=written)
        return code

    return Parser(rule, base.expects, base.llm_hint)


def target_parser(s: OnboardingSlots) -> Parser:
    """Like any language answer, but the user's own native language is refused with a reason."""
    base = language()

    def rule(text: str) -> object:
        code = parse_language(text)
        if isinstance(code, Invalid):
            # "inglés y un poco de francés": the one wanted only a little is not the one asked for
            named = [c for c in find_languages(text) if c not in spoken_besides(text) and c != s.native_language]
            code = named[0] if len(named) == 1 else code
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


_AMEND_CHOICE = choice(AMEND_WORDS)


def _amend(text: str) -> object:
    """The fact to change, by its English words ("my name", "the level") or, said alone, by what it is called in
    any language the learner answers in ("Zeitzone", "el nombre", "le fuseau horaire"): a field, not a value."""
    said = _AMEND_CHOICE(text)
    if isinstance(said, str):
        return said
    named = field_named(text, FIELD_NAMES)
    return named if named is not None else said


read_amend = Parser(_amend, _AMEND_CHOICE.expects)
