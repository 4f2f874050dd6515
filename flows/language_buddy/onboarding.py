"""LanguageBuddy onboarding: profile -> placement test (A1 -> C2) -> confirmation -> `profile` record.

Profile questions are asked one per turn, but any message may fill or correct several
answers (`read_anytime`), and a filled question is passed through. The placement test
walks the bank level by level; a level is passed when more than half of its questions
are right, and the ramp stops at the first failed level or at the bank's ceiling. Its
progress sits in the slots, so a restart or a paused onboarding resumes mid-test; the
slots name the bank (assessment.py: `BankRef`), and a test resumed where that bank
can't be found again starts over, saying why.
Every decision is a transition over these typed slots; the LLM only phrases, and (with
the openai backend) may grade an open answer the rules marked wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine import (
    JUST_BEFORE,
    Ahead,
    Aside,
    Ask,
    Correctable,
    DefinitionError,
    Final,
    Flow,
    Step,
    StepContext,
    T,
)
from engine.cues import in_english_cues
from engine.extract import Parser, choice
from engine.meanings import load_meanings
from engine.yesno import yes_no
from flows.language_buddy.answers import language_change, may_change_language, read_anytime
from flows.language_buddy.assessment import (
    Unavailable,
    answer_parser,
    answers_it,
    bank_for,
    is_correct,
    render_question,
    resolve_bank,
    self_placed,
    shipped_banks,
    skips_test,
)
from flows.language_buddy.bank_file import LEVELS, load_bank, load_shipped
from flows.language_buddy.changes import PROFILE, profile_record, show
from flows.language_buddy.field_parsers import PARSERS, read_amend
from flows.language_buddy.languages import language_name, named_language, native_in, target_in
from flows.language_buddy.profile import (
    FIELD_NAMES,
    PROFILE_FIELDS,
    OnboardingSlots,
    assessed,
    reset_assessment,
)
from flows.language_buddy.timezones import timezone_in, zone_label
from flows.shared.grading import plausibly_right, verdict_model

# The shipped banks are data this module depends on: a broken one fails at import, naming
# each problem, like a broken flow definition does.
for _bank in shipped_banks():
    load_shipped(_bank)


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
    s = ctx.slots
    if s.level is not None and s.assessed_language is None and s.target_language is not None:
        # a level the learner gave beside an earlier answer ("english, and i'd say B1 level"), read ahead of
        # the test (AHEAD) and noted then: taken as placing themselves, as the test's own "start me at B1" is
        s.assessed_language = s.target_language
        ctx.say(
            f"You told me your level, {s.level}, so I'll start you there without the test; we'll adjust as we practise."
        )
        return
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


def place_self(ctx: StepContext[OnboardingSlots]) -> str | None:
    """Mid-test, a level the learner gives instead of an answer ("idk, im a total beginner", "just
    start me at B1") or a wish to stop ("skip the test") ends the test at that level (the level
    passed so far, or A1, when none is named); the confirmation shows it, and "no" changes it."""
    s = ctx.slots
    if s.question is None or answers_it(s.question, ctx.text):
        return None
    level = self_placed(ctx.text)
    if level is None and not skips_test(ctx.text):
        return None
    s.level = s.passed = level or s.passed or "A1"
    s.question = s.answer = None
    ctx.say(f"OK, no more test questions: I'll start you at {s.level}, and we'll adjust as we practise.")
    return "placed"


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
        right = getattr(verdict, "correct", None) is True and plausibly_right(s.answer, tuple(q.accepted))
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


def speak_native(s: OnboardingSlots) -> str | None:
    """The language the questions are phrased in with a model: the learner's own, once known.

    English is the voice's own language, so an English speaker's requests stay as they were."""
    return None if s.native_language in (None, "en") else s.native_language


NATIVE_QUESTION = "What's your native language?"


def ask_native(s: OnboardingSlots) -> str:
    # the greeting belongs to the first pass, not to "native language" reopened from the confirmation
    lead = f"Nice to meet you, {s.name}! " if s.name and s.level is None else ""
    return lead + NATIVE_QUESTION


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


# The answers a later message may correct, and the words that name each ("change my name to
# Annie", "mi lengua materna es el gallego"). A name or a bare language could be several
# answers: they must be named, or their old value said as wrong ("it's Ana not Anna").
CORRECTABLE = (
    Correctable("name", by_value=False, names=FIELD_NAMES["name"]),
    # a language alone, with a cue, corrects the language answered just before ("anzi no, il tedesco" at
    # the timezone question is the language to learn; engine/corrections.py), by its name only;
    # further on ("no, Polish" at the confirmation) either may be meant: named, or asked
    Correctable("native_language", parser=Parser(named_language, "a language"), by_value=JUST_BEFORE,
                names=FIELD_NAMES["native_language"]),
    Correctable("target_language", parser=Parser(named_language, "a language"), by_value=JUST_BEFORE,
                names=FIELD_NAMES["target_language"]),
    Correctable("timezone", names=FIELD_NAMES["timezone"]),
    Correctable("level", names=FIELD_NAMES["level"], parser=choice({level: [] for level in LEVELS})),
)  # fmt: skip


def _said(read: Callable[[str], object]) -> Callable[[str], object]:
    """A cue reader over one clause, in the learner's language ("quiero practicar alemán")."""
    return lambda text: found if isinstance(found := read(in_english_cues(text)), str) else None


def _level_said(text: str) -> object:
    """A level a clause gives on its own ("i'd say B1 level"); a clause that names a language too ("learning
    Spanish at B1") is left whole to the readers of the languages, which read the message as it was said."""
    if target_in(text, weak=True) is not None or native_in(text, weak=True) is not None:
        return None
    return self_placed(text)


# Facts beside the answer, each from its own clause (engine/fill.py): at the native-language question
# "germna, and i want to learn english" is English to learn, and "germna" is asked about (German?),
# never English as the native language. Each reader needs its cue ("I want to learn", "my native
# language is", "I live in"): a bare language is never taken for another question.
AHEAD = (
    Ahead("target_language", parser=Parser(_said(lambda t: target_in(t, weak=False)), "a language"), alone=True),
    Ahead("native_language", parser=Parser(_said(lambda t: native_in(t, weak=False)), "a language"), alone=True),
    Ahead("timezone", parser=Parser(_said(timezone_in), "a city"), alone=True),
    # a level said before the test, in a clause that names it ("i'd say B1 level", "nivel B2") or by its code:
    # noted, and the test not given (`prepare`); a level word alone ("beginner") is no level without its cue
    Ahead("level", parser=Parser(_level_said, "a level from A1 to C2"), cues=tuple(c.lower() for c in LEVELS)),
)

# what the level names and the placement test mean, answered to "was heißt B2?" (engine/meanings.py)
MEANINGS = load_meanings(
    Path(__file__).parent / "data" / "meanings.yaml",
    states=("ask_name", "ask_native", "ask_target", "ask_timezone", "assess", "confirm", "amend"),
)

onboarding = Flow(
    name="onboarding",
    show=show,
    description="collect name, languages and timezone, place the user A1-C2, then save a profile",
    persona="LanguageBuddy's onboarding guide: warm, brief, one question at a time",
    # with a model, the questions after the native-language one are phrased in that language
    speaks=speak_native,
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
            why="I use your name to greet you; any name or nickname is fine.",
            fallback="cancel",
        ),
        Ask(
            "ask_native",
            slot="native_language",
            say=ask_native,
            again=NATIVE_QUESTION,
            parse=PARSERS["native_language"],
            reprompts=[
                "Which language did you grow up speaking? Type its name, e.g. “German” or “Deutsch”.",
                "Type one language name or its two-letter code, e.g. “de” for German.",
            ],
            help="Your native language lets me explain things in words you know best.",
            why="Your native language lets me explain things in words you know best.",
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
            why="This is the language we'll practise together.",
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
            why="Your timezone lets me schedule practice reminders at sensible hours.",
        ),
        Step("settle_timezone", run=settle_timezone),
        Step("prepare", run=prepare),
        Ask(
            "assess",
            meanings=MEANINGS["assess"],
            slot="answer",
            say=ask_question,
            parse=lambda s: answer_parser(s.question),
            # the parser's reason ("Please answer with one letter: a, b, c.") leads; then the question again
            reprompts=[ask_question, ask_question],
            help="This short test places you at a level from A1 to C2. Answer as best you can, or say “I don't know”.",
            why="This short test places you at a level from A1 to C2. Answer as best you can, or say “I don't know”.",
            ask_if_filled=True,
            interruptible=False,  # a test answer like "complaint" is an answer, not feedback
        ),
        Step("grade", run=grade),
        Ask(
            "confirm",
            meanings=MEANINGS["confirm"],
            slot="confirmed",
            say=confirm_question,
            parse=yes_no(),
            why="I save your profile only when you say it is right; a no lets you change any part first.",
            reprompts=[
                "Shall I save this profile? Please answer yes or no.",
                "Type “yes” to save, or “no” to change it.",
            ],
            ask_if_filled=True,
            # no answer after the reprompts is no "no": the onboarding pauses with everything kept,
            # instead of asking what to change (the default skip took the "change" branch)
            fallback="cancel",
        ),
        Ask(
            "amend",
            meanings=MEANINGS["amend"],
            slot="amend",
            say=(
                "What should I change: name, native language, target language, timezone or level? "
                "You can also give the new value, e.g. “my name is Max” or “I want to learn Spanish”."
            ),
            parse=read_amend,
            why="I ask only for the part you want changed; the rest of your profile stays as it is.",
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
        T("placed", "assess", "confirm"),
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
    ahead=AHEAD,
    correctable=CORRECTABLE,
    asides=[
        Aside("language_change", match=may_change_language, handle=language_change),
        Aside("self-placed", match=lambda t: self_placed(t) is not None or skips_test(t), handle=place_self),
    ],
    # the saved profile changed or asked about after onboarding, one fact at a time (changes.py)
    amends=PROFILE,
    on_cancel="pause",
    pause_message="Paused. Your answers so far are kept; your next message picks up at the same question.",
    interrupts=["feedback"],
    llm_calls_per_turn=2,
    max_turns=80,
)
