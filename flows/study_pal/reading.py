"""Reading what a learner says during a lesson: answers to the flow's questions, and the
asides that are not answers (leaving, "show me the answer", discouragement, another topic,
"give me another", a hint, a question about the lesson, a thanks).

Keywords decide first; a model is asked only where they cannot (the exit intent), and the
safe default on doubt is to carry on with the lesson.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine import StepContext
from engine.extract import Invalid, Parser, read_yes_no
from flows.study_pal.lesson import (
    Ctx,
    TutoringSlots,
    course_of,
    current_chunk,
    in_exercise,
    llm_configured,
    title_of,
)
from flows.study_pal.mastery import percent
from flows.study_pal.memory import StudyMemory

# -- parsing the answers to the flow's questions ---------------------------------------------


def concept_parser(s: TutoringSlots) -> Parser:
    course = course_of(s)
    return Parser(course.find, f"a topic: {course.menu()}")


_INSIST = re.compile(r"\b(anyway|anyways|insist|straight|directly|right away|just teach|skip (?:it|that))\b", re.I)


def offer_parser(s: TutoringSlots) -> Parser:
    """yes -> teach the prerequisite first; no / "X anyway" -> teach what was asked."""
    course = course_of(s)

    def rule(text: str) -> object:
        if _INSIST.search(text):
            return False
        named = course.find(text)
        if named is not None and named == s.offer:
            return True
        if named is not None and named == s.concept:
            return False
        return read_yes_no(text)

    first = title_of(s, s.offer) if s.offer else "the prerequisite"
    return Parser(rule, f"yes (start with {first}) or no (go straight to {s.title})")


_GO_ON = re.compile(r"\b(continue|go on|next|another|let'?s go)\b", re.I)
_STOP = re.compile(r"\b(later|not now|another time|some other time|no more)\b", re.I)


def next_parser(s: TutoringSlots) -> Parser:
    """A topic named, yes (the suggestion), or no / later ("done": the lesson ends)."""
    course = course_of(s)

    def rule(text: str) -> object:
        named = course.find(text)
        if named is not None:
            return named
        if _STOP.search(text) or read_yes_no(text) is False:
            return "done"
        if read_yes_no(text) or _GO_ON.search(text):
            return s.suggestion or Invalid(f"Which topic would you like next? I can teach: {course.menu()}.")
        return None

    return Parser(rule, f"a topic ({course.menu()}), yes for the suggestion, or no to stop")


# -- asides --------------------------------------------------------------------------------


def keep_message(ctx: StepContext[Any]) -> str | None:
    """Not an aside: remembers the message for analysis' "did they ask for a plan?" check."""
    ctx.shared(StudyMemory).remember(ctx.text)
    return None


# Exit intent. Offline, three kinds of phrase decide: asking for the analysis or a plan (END),
# asking for more tutoring (CONTINUE), an ending ("I'm done for today": END).
_EXIT_WANTS_NEXT_FLOW = re.compile(
    r"\b(analy[sz]\w*|schedul\w*|study plan|plan (?:my|a|the|some|out)|calendar|timetable|when should i)\b", re.I
)
_EXIT_END = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are) (?:done|finished)\b|^\W*(?:done|finished|enough)\W*$|"
    r"\b(?:done|finished) for (?:today|now|the day|tonight)\b|\bthat'?s (?:all|it|enough)\b|\bthat is (?:all|it)\b|"
    r"\benough for (?:today|now)\b|\bthanks? (?:you )?(?:so much |a lot )?for (?:your |the |all the )?"
    r"(?:help|lesson|session|time)\b|\b(?:good)?bye\b|\bsee you\b|\b(?:gotta|got to|have to|need to|must) go\b|"
    r"\b(?:let'?s|i want to|i'?d like to|can we) (?:stop|end|finish|quit|wrap up)\b|"
    r"\bstop (?:for (?:today|now)|here|the lesson)\b|\bcall it a day\b|\bwrap (?:it )?up\b|\bno more\b|"
    r"\bend (?:the |this |our )?(?:session|lesson|tutoring)\b|\blater\b|\b(?:need|take|taking) a break\b",
    re.I,
)
_EXIT_CONTINUE = re.compile(
    r"\b(another|next (?:one|problem|question|exercise)|more (?:problems|exercises|questions|practice)|"
    r"help me with|teach me|explain|can (?:we|you) (?:do|try|move|go|help|teach|explain)|move on to|"
    r"what about|how about|let'?s (?:do|try|move|go|learn|study)|"
    r"done with (?:this|that) (?:one|problem|question|exercise))\b",
    re.I,
)
_EXIT_WORDS = re.compile(r"\b(done|finish\w*|thanks|thank you|enough|stop\w*|quit|no more|break)\b", re.I)


def may_exit(text: str) -> bool:
    """The keyword prefilter: only these messages are classified END / CONTINUE at all."""
    return any(p.search(text) for p in (_EXIT_WORDS, _EXIT_END, _EXIT_WANTS_NEXT_FLOW))


class ExitIntent(BaseModel):
    decision: Literal["END", "CONTINUE"] | None = Field(
        None,
        description=(
            "END if the user wants to end the tutoring session and move on, e.g. \"I'm done for "
            'today", "thanks, that\'s all", "can you analyze my session?"; CONTINUE if they want '
            'more tutoring, e.g. "I\'m done with this problem, give me another", "that\'s all for '
            'limits, can you help me with derivatives?"'
        ),
    )


def exit_by_rules(text: str) -> Literal["END", "CONTINUE"]:
    """Offline classification: asking for the analysis or a plan ends; otherwise an ending
    phrase ends, unless the message also asks for more tutoring."""
    if _EXIT_WANTS_NEXT_FLOW.search(text):
        return "END"
    if _EXIT_CONTINUE.search(text):
        return "CONTINUE"
    return "END" if _EXIT_END.search(text) else "CONTINUE"


def exit_decision(ctx: StepContext[Any]) -> Literal["END", "CONTINUE"]:
    """With a model: its temperature-0 verdict, CONTINUE on any failure. Offline: the rules."""
    if not llm_configured(ctx):
        return exit_by_rules(ctx.text)
    verdict = ctx.parse(ExitIntent, "classify:exit")
    return "END" if verdict is not None and verdict.decision == "END" else "CONTINUE"


def leave(ctx: Ctx) -> str | None:
    return "exit" if exit_decision(ctx) == "END" else None


_REVEAL = re.compile(
    r"\b(?:show|tell|give) me the (?:answer|solution)\b|\bwhat(?:'s| is) the (?:answer|solution)\b|"
    r"\b(?:reveal|just tell me)\b|\b(?:the )?(?:answer|solution),? please\b",
    re.I,
)


def give_answer(ctx: Ctx) -> str | None:
    return "reveal" if in_exercise(ctx.slots) else None


_DISCOURAGED = re.compile(
    r"\b(tired|exhausted|too hard|so hard|really hard|too difficult|give up|giving up|can'?t do (?:this|it)|"
    r"hopeless|frustrat\w*|overwhelm\w*|i'?m (?:so )?(?:stupid|dumb|lost|bad at)|i suck|hate (?:this|math)|"
    r"never get (?:this|it)|don'?t get any of)\b",
    re.I,
)


def discouraged(text: str) -> bool:
    return bool(_DISCOURAGED.search(text))


_CHEERS = (
    "That feeling is completely normal: calculus often feels hardest right before it clicks.",
    "You're doing better than it feels: every mistake you work through is how this sticks.",
    "Hang in there: being stuck is exactly where the real learning happens.",
)


def encouragement(progress: str = "", in_lesson: bool = True, times: int = 0) -> str:
    """The motivator's words, in Study Pal's voice (varied when repeated); `progress` names
    what is already achieved."""
    lead = f"{_CHEERS[times % len(_CHEERS)]} {progress}Let's take it one small step at a time."
    if in_lesson:
        return lead + " You can ask me 'why?' about anything, or say 'I'm done for today' to take a break."
    return lead + " A short break is fine too; when you're ready, say 'teach me limits' and we'll start small."


def motivate(ctx: Ctx) -> str | None:
    s = ctx.slots
    achieved = ""
    best = max(s.mastery.items(), key=lambda kv: kv[1], default=None)
    if best is not None and best[1] > 0:
        achieved = f"You've already reached {percent(best[1])} mastery of {title_of(s, best[0])}. "
    elif in_exercise(s) and s.chunk > 1:
        achieved = f"You're already on part {s.chunk} of {s.chunks} of {s.title}. "
    ctx.say(ctx.phrase(encouragement(achieved, times=ctx.shared(StudyMemory).cheer()), "motivate:tutoring"))
    return ""  # same question again: the lesson resumes where it was


_LESSON_REQUEST = re.compile(
    r"\b(teach me|help me with|explain|switch to|move on to|let'?s (?:do|learn|study|try|go to)|"
    r"can (?:we|you) (?:do|learn|study|go to|teach|explain|help)|how about|what about|i want to (?:learn|study)|"
    r"i'?d like to (?:learn|study))\b",
    re.I,
)


def change_topic(ctx: Ctx) -> str | None:
    """A lesson on another concept: start it (prerequisites checked again)."""
    s = ctx.slots
    course = course_of(s)
    # "that's all for limits, can you help me with derivatives?": the topic after the request
    request = _LESSON_REQUEST.search(ctx.text)
    named = (course.find(ctx.text[request.start() :]) if request else None) or course.find(ctx.text)
    if named is None:
        return None
    if s.offer is not None and named in (s.offer, s.concept):
        return None  # the answer to the offer itself ("let's do limits first", "teach me X anyway")
    if named == s.concept:
        return None  # about the current concept: a question, not a switch
    s.next = named
    return "switch"


_ANOTHER = re.compile(
    r"\b(give me another|skip(?: this| it)?|(?:another|next|different) (?:one|problem|question|exercise)|"
    r"done with (?:this|that) (?:one|problem|question|exercise))\b",
    re.I,
)


def another(ctx: Ctx) -> str | None:
    return "skip" if in_exercise(ctx.slots) else None


_HINT = re.compile(r"\b(hints?|clue|tip|stuck)\b", re.I)


def give_hint(ctx: Ctx) -> str | None:
    """Asking for the hint is not an attempt: it does not use up the retry."""
    s = ctx.slots
    if not in_exercise(s):
        return None
    ctx.say(ctx.phrase(f"Here's a hint: {current_chunk(s).hint}", "hint:tutoring"))
    return ""


_QUESTION = re.compile(
    r"^\s*(?:but |so |wait,? |hm+,? |ok,? |okay,? )?(why|how|what|what'?s|whats|which|explain|"
    r"can you explain|could you explain|i don'?t (?:understand|get)|i do not understand|i'?m confused|"
    r"what does|where does|where did|is there|are there|can you|could you|does|do (?:we|i|you)|should)\b",
    re.I,
)


def is_question(text: str) -> bool:
    return bool(_QUESTION.search(text))


def answer_question(ctx: Ctx) -> str | None:
    """Answer from the course: the concept asked about, else the part being taught."""
    s = ctx.slots
    if not (in_exercise(s) or s.offer is not None):
        return None  # choosing a topic: "what is a limit?" names the topic
    course = course_of(s)
    named = course.find(ctx.text)
    if not is_question(ctx.text) and named in (None, s.concept):
        return None  # "4?" is an answer; only "derivatives?" (another topic) is a question
    if in_exercise(s) and named in (None, s.concept):
        material = current_chunk(s).explain  # the part at hand
    else:
        about = course.concept(named or s.offer or "")  # another topic; at an offer, "why?" is about it
        material = f"{about.title}: {about.chunks[0].explain}"
    ctx.say(ctx.phrase(f"Good question. {material}", "answer:tutoring"))
    return ""  # the lesson stays at the same chunk


_PLEASANTRY = re.compile(
    r"^\s*(?:(?:thanks|thank you|thx|ok|okay|cool|great|nice|got it|i see|alright|awesome|perfect|"
    r"a lot|so much|very much)\b\W*)+$",
    re.I,
)


def acknowledge(ctx: Ctx) -> str | None:
    """A "thanks" after feedback is not an attempt at the next exercise."""
    if not in_exercise(ctx.slots):
        return None  # at an offer or a topic choice, "ok" is a yes
    ctx.say("You're welcome!" if re.search(r"thank|thx", ctx.text, re.I) else "Good.")
    return ""
