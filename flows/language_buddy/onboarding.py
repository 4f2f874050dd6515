"""LanguageBuddy onboarding: profile -> placement test (A1 -> C2) -> confirmation -> `profile` record.

Profile questions are asked one per turn, but any message may fill or correct several
answers (`read_anytime`), and a filled question is passed through. The placement test
walks the bank level by level; a level is passed when more than half of its questions
are right, and the ramp stops at the first failed level or at the bank's ceiling. Its
progress sits in the slots, so a restart or a paused onboarding resumes mid-test; the
slots name the bank (flows/assessment.py: `BankRef`), and a test resumed where that bank
can't be found again starts over, saying why.
Every decision is a transition over these typed slots; the LLM only phrases, and (with
the openai backend) may grade an open answer the rules marked wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal, Self

from pydantic import Field, model_validator

from engine import Aside, Ask, DefinitionError, Final, Flow, RecordDraft, Slots, Step, StepContext, T
from engine.extract import Invalid, Parser, choice, yes_no
from flows.language_buddy.assessment import (
    CEFR,
    LEVELS,
    BankRef,
    Question,
    Unavailable,
    answer_parser,
    bank_for,
    is_correct,
    load_bank,
    render_question,
    resolve_bank,
    shipped_banks,
)
from flows.language_buddy.languages import (
    LanguageCode,
    language,
    language_name,
    mentions_language_change,
    native_in,
    parse_language,
    target_claim,
    target_in,
)
from flows.language_buddy.names import PersonName, name_in, person_name
from flows.language_buddy.timezones import TimeZoneName, timezone, timezone_in, timezone_moved, zone_label
from flows.shared.grading import verdict_model

# The shipped banks are data this module depends on: a broken one fails at import, naming
# each problem, like a broken flow definition does.
for _bank in shipped_banks():
    load_bank(_bank)

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


# -- reading answers given out of turn ----------------------------------------------------

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


# -- steps --------------------------------------------------------------------------------


def welcome(ctx: StepContext[OnboardingSlots]) -> None:
    if ctx.resources.assessment is not None:
        # a broken bank given for this run fails now, naming each problem, not mid-test
        load_bank(ctx.resources.assessment)
    s = ctx.slots
    noted = [
        f"{label}: {value}"
        for label, value in (
            ("name", s.name),
            ("native language", language_name(s.native_language) if s.native_language else None),
            ("learning", language_name(s.target_language) if s.target_language else None),
            ("timezone", zone_label(s.timezone) if s.timezone else None),
        )
        if value
    ]
    lead = "Hi! I'm LanguageBuddy, your language-practice partner. Let's set up your profile first."
    ctx.say(f"{lead} Noted so far: {'; '.join(noted)}." if noted else lead)


def settle_timezone(ctx: StepContext[OnboardingSlots]) -> None:
    if ctx.slots.timezone is None:
        ctx.slots.timezone = "UTC"
        ctx.say("I'll use UTC for now; say “my timezone is …” at any time to change it.")


def prepare(ctx: StepContext[OnboardingSlots]) -> None:
    start_test(ctx, "prepare")


def start_test(ctx: StepContext[OnboardingSlots], state: str) -> None:
    """The first question of the bank this run has for the target language, or A1 when it has none."""
    s = ctx.slots
    target = s.target_language
    if target is None:  # every way into the test passes the target question first
        raise DefinitionError("the placement test needs a target language", flow="onboarding", state=state)
    reset_assessment(s)
    s.assessed_language = target
    found = bank_for(ctx.resources, target)
    if found is None:
        s.level = "A1"
        ctx.say(
            f"I don't have a placement test for {language_name(target)} yet, so I'll start you at level A1; "
            "we'll adjust as we practise."
        )
        return
    s.bank, bank = found
    s.question = bank.question(0, 0)
    ctx.say(
        f"Now a short placement test in {language_name(target)}. It starts easy (A1) and gets harder up to "
        f"{bank.ceiling}. Answer as well as you can; “I don't know” is fine."
    )


def grade(ctx: StepContext[OnboardingSlots]) -> None:
    s = ctx.slots
    q = s.question
    if q is None or s.bank is None:
        s.level = s.passed or "A1"
        return
    bank = resolve_bank(s.bank, ctx.resources, q, s.tier)
    if isinstance(bank, Unavailable):
        # the answer was to another bank's question: the score so far means nothing in this one
        ctx.event("bank", f"{bank.reason} {bank.detail}".strip())
        ctx.say(f"{bank.reason} So the placement test starts over.")
        start_test(ctx, "grade")
        return
    right = is_correct(q, s.answer)
    if not right and not q.is_choice and s.answer not in (None, "?"):
        verdict = ctx.parse(verdict_model(q.text, tuple(q.accepted)), f"grade:onboarding.{q.level}.{q.number}")
        right = getattr(verdict, "correct", None) is True
    s.correct += int(right)
    s.answer = None
    if q.number < q.of:
        s.question = bank.question(s.tier, q.number)
        return
    if s.correct * 2 > q.of:
        s.passed = q.level
        if s.tier + 1 < bank.tiers():
            s.tier += 1
            s.correct = 0
            s.question = bank.question(s.tier, 0)
            ctx.say(f"{q.level} passed. On to {LEVELS[s.tier]}.")
            return
    s.question = None
    s.level = s.passed or "A1"
    ctx.say(f"That's the end of the test: your level is {s.level}.")


def reopen(ctx: StepContext[OnboardingSlots]) -> None:
    """Clear what the user wants to change; the transitions then ask for it again."""
    s = ctx.slots
    field = s.amend
    s.confirmed = None
    s.amend = None
    if field == "level":
        reset_assessment(s)
    elif field in PROFILE_FIELDS:
        setattr(s, field, None)


# -- what is said -------------------------------------------------------------------------


def ask_native(s: OnboardingSlots) -> str:
    # the greeting belongs to the first pass, not to "native language" reopened from the confirmation
    lead = f"Nice to meet you, {s.name}! " if s.name and s.level is None else ""
    return f"{lead}What's your native language?"


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
        return code

    return Parser(rule, base.expects, base.llm_hint)


# How each profile question reads its answer (also used for an answer given with other things).
PARSERS: dict[str, Callable[[OnboardingSlots], Parser]] = {
    "name": lambda s: person_name(),
    "native_language": native_parser,
    "target_language": target_parser,
    "timezone": lambda s: timezone(),
}


def ask_question(s: OnboardingSlots) -> str:
    return render_question(s.question) if s.question else "Please type your answer."


def confirm_question(s: OnboardingSlots) -> str:
    native = language_name(s.native_language) if s.native_language else "not given"
    target = language_name(s.target_language) if s.target_language else "not given"
    return (
        f"Here's your profile: name {s.name}; native language {native}; learning {target}; "
        f"timezone {zone_label(s.timezone) if s.timezone else 'not given'}; level {s.level}. Shall I save it? (yes/no)"
    )


def summary(s: OnboardingSlots) -> str:
    return f"User {s.name} onboarded. Level: {s.level}. Languages: {s.native_language} -> {s.target_language}."


def profile_record(s: OnboardingSlots) -> list[RecordDraft]:
    data = s.model_dump(mode="json", include={"name", "native_language", "target_language", "timezone", "level"})
    return [RecordDraft(kind="profile", data=data)]


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


def show(slot: str, value: object) -> str:
    """How an answer reads when it is acknowledged: languages by name, offsets as UTC+2."""
    label = slot.replace("_", " ")
    if slot in ("native_language", "target_language") and isinstance(value, str):
        return f"{label}: {language_name(value)}"
    if slot == "timezone" and isinstance(value, str):
        return f"{label}: {zone_label(value)}"
    return f"{label}: {value}"


onboarding = Flow(
    name="onboarding",
    show=show,
    description="collect name, languages and timezone, place the user A1-C2, then save a profile",
    persona="LanguageBuddy's onboarding guide: warm, brief, one question at a time",
    slots=OnboardingSlots,
    states=[
        Step("welcome", run=welcome, initial=True),
        Ask(
            "ask_name",
            slot="name",
            say="What's your name?",
            parse=PARSERS["name"],
            reprompts=[
                "Please tell me your name, for example “Max” or “my name is Max”.",
                "Just type the name you'd like me to use, e.g. “Max”.",
            ],
            help="I use your name to greet you; any name or nickname is fine.",
            fallback="cancel",
        ),
        Ask(
            "ask_native",
            slot="native_language",
            say=ask_native,
            parse=PARSERS["native_language"],
            reprompts=[
                "Which language did you grow up speaking? Type its name, e.g. “German” or “Deutsch”.",
                "Type one language name or its two-letter code, e.g. “de” for German.",
            ],
            help="Your native language lets me explain things in words you know best.",
            fallback="cancel",
        ),
        Ask(
            "ask_target",
            slot="target_language",
            say="Which language would you like to learn?",
            parse=PARSERS["target_language"],
            reprompts=[
                "Which language do you want to practise? Type its name, e.g. “English” or “Español”.",
                "Type one language name or its two-letter code, e.g. “en” for English.",
            ],
            help="This is the language we'll practise together.",
            fallback="cancel",
        ),
        Ask(
            "ask_timezone",
            slot="timezone",
            say=(
                "What's your timezone? A city (Berlin), an IANA name (Europe/Berlin) or a UTC offset (UTC+2) all work."
            ),
            parse=PARSERS["timezone"],
            reprompts=[
                "Please give a major city near you (e.g. Berlin), an IANA name (Europe/Berlin) or an offset (UTC+2).",
                "For example: “Tokyo”, “America/New_York” or “UTC-5”.",
            ],
            help="Your timezone lets me schedule practice reminders at sensible hours.",
        ),
        Step("settle_timezone", run=settle_timezone),
        Step("prepare", run=prepare),
        Ask(
            "assess",
            slot="answer",
            say=ask_question,
            parse=lambda s: answer_parser(s.question),
            # the parser's reason ("Please answer with one letter: a, b, c.") leads; then the question again
            reprompts=[ask_question, ask_question],
            help="This short test places you at a level from A1 to C2. Answer as best you can, or say “I don't know”.",
            ask_if_filled=True,
            interruptible=False,  # a test answer like "complaint" is an answer, not feedback
        ),
        Step("grade", run=grade),
        Ask(
            "confirm",
            slot="confirmed",
            say=confirm_question,
            parse=yes_no(),
            reprompts=[
                "Shall I save this profile? Please answer yes or no.",
                "Type “yes” to save, or “no” to change it.",
            ],
            ask_if_filled=True,
        ),
        Ask(
            "amend",
            slot="amend",
            say=(
                "What should I change: name, native language, target language, timezone or level? "
                "You can also give the new value, e.g. “my name is Max” or “I want to learn Spanish”."
            ),
            parse=read_amend,
            reprompts=[
                "Please pick one: name, native language, target language, timezone or level.",
                "Type one word: name, native, target, timezone or level (or “nothing”).",
            ],
        ),
        Step("reopen", run=reopen),
        Final("done", summary=summary, say="Your profile is saved.", records=profile_record),
    ],
    transitions=[
        T("next", "welcome", "ask_name"),
        T("answer", "ask_name", "ask_native"),
        T("answer", "ask_native", "ask_target"),
        T("answer", "ask_target", "ask_timezone"),
        T("answer", "ask_timezone", "settle_timezone"),
        T("next", "settle_timezone", "confirm", when=assessed),
        T("next", "settle_timezone", "prepare"),
        T("next", "prepare", "confirm", when=lambda s: s.level is not None),
        T("next", "prepare", "assess"),
        T("answer", "assess", "grade"),
        T("next", "grade", "confirm", when=lambda s: s.level is not None),
        T("next", "grade", "assess"),
        T("answer", "confirm", "done", when=lambda s: s.confirmed is True),
        T("answer", "confirm", "amend"),
        T("answer", "amend", "reopen"),
        T("next", "reopen", "ask_name", when=lambda s: s.name is None),
        T("next", "reopen", "ask_native", when=lambda s: s.native_language is None),
        T("next", "reopen", "ask_target", when=lambda s: s.target_language is None),
        T("next", "reopen", "ask_timezone", when=lambda s: s.timezone is None),
        T("next", "reopen", "prepare", when=lambda s: not assessed(s)),
        T("next", "reopen", "confirm"),
        T("reassess", "*", "prepare"),
    ],
    extract=read_anytime,
    asides=[Aside("language_change", match=mentions_language_change, handle=language_change)],
    on_cancel="pause",
    pause_message="Paused. Your answers so far are kept; your next message picks up at the same question.",
    interrupts=["feedback"],
    llm_calls_per_turn=2,
    max_turns=80,
)
