"""Tutoring: teach a concept chunk by chunk, grade each exercise, track mastery.

Entered from the main conversation ("teach me derivatives", "what is a limit?"), or to go
on with the lesson that is still open ("continue": it resumes at the part it stopped at).
Before a concept is taught its prerequisites are checked; one below the mastery threshold
is offered first (the user may accept or insist). Each chunk: explain -> exercise -> grade;
a wrong answer gets the hint and one retry, then the answer is revealed. Every graded
exercise saves an `exercise` record and the concept's new `mastery` (formula in
flows/study_pal/course.py). After the last chunk the concept is complete, its mastery is named and
the next concept is suggested.

Asides, checked at every question in this order (the first that takes the message wins):
exit intent (flows/study_pal/exits.py: keywords first, a model only when they cannot decide;
END hands off to analysis, an undecided one is neither an exit nor an answer), something
this course cannot teach or small talk (said so, the same question again), "show me the
answer" (revealed, scored 0), the motivator (encouragement, then the same question again),
a request for another topic, "give me another" / "the next one" (skip the exercise), "hint"
(the hint, not an attempt), a question about the lesson (answered from the course; same
chunk; "how many are left?" gets the progress), and a "thanks" that is not an answer.
Before them every message is noted in the session memory (flows/study_pal/memory.py), for
analysis to see whether a plan was asked for.

The LLM phrases explanations and judges open answers the rules could not accept; where
the lesson goes is decided here, by transitions over the slots.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, create_model

from engine import Aside, Ask, DefinitionError, Final, Flow, Slots, Step, StepContext, T
from engine.extract import Invalid, Parser, free_text, read_yes_no
from flows.study_pal import timewindow
from flows.study_pal.course import (
    MASTERY_THRESHOLD,
    Chunk,
    Course,
    ExerciseResult,
    check_answer,
    course_path,
    get_course,
    mastery,
    percent,
    read_results,
)
from flows.study_pal.exits import exit_decision, may_exit
from flows.study_pal.memory import cheer_count, forget_analysis, open_lesson, remember
from flows.study_pal.subjects import named_subjects

MAX_TRIES = 2  # the first answer, and one retry after the hint


class TutoringSlots(Slots):
    # the course file, so parsers and templates can reach it; a lesson keeps its course even
    # if a later run points at another one
    course: str | None = None
    concept: str | None = None  # id of the concept being taught
    title: str | None = None
    chunks: int = 0
    chunk: int = 0  # 1-based; 0 before the first, chunks + 1 once complete
    resume: int = 0  # "continue": the part to start at (no prerequisite offer)
    target: str | None = None  # what the user asked for while a prerequisite is taught first
    offer: str | None = None  # a prerequisite to teach first, pending the user's answer
    offer_text: str | None = None
    take_offer: bool | None = None
    answer: str | None = None
    attempts: int = 0
    correct: bool | None = None
    asked_at: datetime | None = None
    mastery: dict[str, float] = Field(default_factory=dict)  # concept -> latest mastery in this lesson
    completed: list[str] = Field(default_factory=list)
    suggestion: str | None = None
    next: str | None = None  # at next_topic: a concept id, or "done"


Ctx = StepContext[TutoringSlots]


def course_of(s: TutoringSlots) -> Course:
    if s.course is None:
        raise DefinitionError("tutoring slots carry no course path; the start step sets it", flow="tutoring")
    return get_course(s.course)


def title_of(s: TutoringSlots, cid: str) -> str:
    course = course_of(s)
    return course.concept(cid).title if course.has(cid) else cid


def menu(s: TutoringSlots) -> str:
    return course_of(s).menu()


def current_chunk(s: TutoringSlots) -> Chunk:
    return course_of(s).concept(s.concept or "").chunks[s.chunk - 1]


def in_exercise(s: TutoringSlots) -> bool:
    """Waiting at the exercise of a chunk (not at an offer, a topic choice or the end)."""
    return s.concept is not None and s.offer is None and 1 <= s.chunk <= s.chunks


def set_concept(s: TutoringSlots, cid: str) -> None:
    """Make `cid` the concept being taught, before its first part."""
    concept = course_of(s).concept(cid)
    s.concept, s.title, s.chunks, s.chunk, s.attempts = cid, concept.title, len(concept.chunks), 0, 0


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
_STOP = re.compile(
    r"\b(later|not now|not today|(?:some |an)?other (?:time|day)|next time|no more|enough for (?:today|now))\b", re.I
)


def next_parser(s: TutoringSlots) -> Parser:
    """A topic named, yes (the suggestion), or no / later ("done": the lesson ends)."""
    course = course_of(s)

    def rule(text: str) -> object:
        named = course.find(text)
        if named is not None:
            return named
        answer = read_yes_no(text)
        if _STOP.search(text) or answer is False:
            return "done"
        if answer or _GO_ON.search(text):
            return s.suggestion or Invalid(f"Which topic would you like next? I can teach: {course.menu()}.")
        return None

    return Parser(rule, f"a topic ({course.menu()}), yes for the suggestion, or no to stop")


# -- what the states say -------------------------------------------------------------------


def ask_topic(s: TutoringSlots) -> str:
    return f"Which topic would you like to learn? I can teach: {menu(s)}."


def ask_exercise(s: TutoringSlots) -> str:
    lead = "Try again" if s.attempts else f"Exercise {s.chunk}/{s.chunks}"
    return f"{lead}: {current_chunk(s).exercise.render()}"


def ask_next(s: TutoringSlots) -> str:
    options = f"Say yes, name another topic ({menu(s)}), or tell me you're done for today."
    if s.suggestion and s.suggestion == s.concept:
        return f"Shall we go over {s.title} once more? {options}"
    if s.suggestion:
        return f"Shall we go on to {title_of(s, s.suggestion)}? {options}"
    return f"Would you like to revisit a topic ({menu(s)}), or are you done for today?"


def progress(s: TutoringSlots) -> str:
    """What was reached per concept ("Limits: complete, mastery 100%; ..."); "" before any answer."""
    return "; ".join(
        f"{title_of(s, cid)}: {'complete, ' if cid in s.completed else ''}mastery {percent(score)}"
        for cid, score in s.mastery.items()
    )


def summary(s: TutoringSlots) -> str:
    done = progress(s)
    return f"Tutoring ended. {done}." if done else "Tutoring ended before any exercise was answered."


def cancelled(s: TutoringSlots) -> str:
    done = progress(s)
    return f"Tutoring cancelled by the user. {done}." if done else "Tutoring cancelled by the user."


def closing(s: TutoringSlots) -> str:
    return "Good session! Let me look at how it went." if s.mastery else "OK, let's stop here."


# -- steps ---------------------------------------------------------------------------------


def mastery_levels(ctx: Ctx, course: Course) -> dict[str, float]:
    """Mastery of every concept: stored results, overlaid with this lesson's latest values
    (the record of an exercise graded in this very turn is not in the store yet)."""
    results = read_results(r.data for r in ctx.records("exercise"))
    levels = {cid: mastery(results, cid, len(course.concept(cid).chunks)) for cid in course.order}
    levels.update(ctx.slots.mastery)
    return levels


def suggest(course: Course, levels: dict[str, float], s: TutoringSlots) -> str | None:
    """The goal the user deferred; the concept just taught if still below the threshold; else
    the first unmastered concept whose prerequisites are met."""
    if s.target and s.target != s.concept:
        return s.target
    if s.concept is not None and levels[s.concept] < MASTERY_THRESHOLD:
        return s.concept
    for cid in course.order:
        if cid == s.concept or levels[cid] >= MASTERY_THRESHOLD:
            continue
        if all(levels[p] >= MASTERY_THRESHOLD for p in course.concept(cid).prerequisites):
            return cid
    return None


def start(ctx: Ctx) -> None:
    s = ctx.slots
    path = course_path(ctx.resources)
    course = get_course(path)
    s.course = str(path)
    if not course.has(s.concept):
        s.concept = course.find(ctx.text)
    if s.concept is None and course.mentions_course(ctx.text):
        # "what is calculus?": begin where this learner stands rather than ask
        s.concept = suggest(course, mastery_levels(ctx, course), s)


def check_prerequisites(ctx: Ctx) -> None:
    s = ctx.slots
    course = course_of(s)
    # a model may have named the topic in its own words; map it back to the course
    cid = s.concept if course.has(s.concept) else course.find(s.concept or "")
    s.concept, s.offer, s.offer_text, s.take_offer = None, None, None, None
    if cid is None:
        return
    set_concept(s, cid)
    levels = mastery_levels(ctx, course)
    unmet = [p for p in course.all_prerequisites(cid) if levels[p] < MASTERY_THRESHOLD]
    if not unmet or s.resume > 1:
        return  # a lesson taken up again mid-way was already agreed to
    s.offer = unmet[0]
    listed = ", ".join(f"{course.concept(p).title} ({percent(levels[p])})" for p in unmet)
    s.offer_text = (
        f"{s.title} builds on {listed}, and your mastery there is below {percent(MASTERY_THRESHOLD)}. "
        f"Shall we start with {course.concept(unmet[0]).title} first? "
        f"Say yes, or no to go straight to {s.title}."
    )


def begin(ctx: Ctx) -> None:
    s = ctx.slots
    if s.offer is not None and s.take_offer:
        s.target = s.concept
        set_concept(s, s.offer)
    s.offer = s.offer_text = s.take_offer = None
    if 1 < s.resume <= s.chunks:
        s.chunk = s.resume
        ctx.say(f"Let's pick up {s.title} where we left off: part {s.chunk} of {s.chunks}.")
    else:
        s.chunk = 1
        ctx.say(f"Let's learn {s.title}: {s.chunks} short parts, each with an exercise.")
    s.resume = 0


def explain(ctx: Ctx) -> None:
    s = ctx.slots
    ctx.say(ctx.phrase(f"Part {s.chunk}/{s.chunks}. {current_chunk(s).explain}", "explain:tutoring"))
    s.answer, s.correct, s.attempts = None, None, 0
    s.asked_at = timewindow.now()
    open_lesson(ctx.context, s.concept, s.chunk)


@functools.lru_cache(maxsize=256)
def verdict_model(question: str, accepted: tuple[str, ...]) -> type[BaseModel]:
    """Schema for a model's judgement of an open answer; null means "not an answer".

    The accepted answers travel in the field's description: the prompt holds the
    conversation, which shows the question but (rightly) never the solution.
    """
    hint = (
        f"Is the user's last message a correct answer to the exercise {question!r}? "
        f"Accepted answers: {', '.join(accepted)}. An equivalent form counts as correct. "
        "null if the message is not an attempt at an answer."
    )
    model: type[BaseModel] = create_model("AnswerVerdict", correct=(bool | None, Field(None, description=hint)))
    return model


def grade(ctx: Ctx) -> None:
    s = ctx.slots
    chunk = current_chunk(s)
    exercise = chunk.exercise
    s.attempts += 1
    right = check_answer(exercise, s.answer or "")
    if not right and not exercise.is_choice:
        # rules accept only the listed forms; a model may recognise an equivalent one
        verdict = ctx.parse(verdict_model(exercise.question, tuple(exercise.answers or ())), "grade:tutoring")
        right = getattr(verdict, "correct", None) is True
    s.correct = right
    if right:
        ctx.say(ctx.phrase("Correct!" if s.attempts == 1 else "Correct, well done!", "feedback:tutoring"))
    elif s.attempts < MAX_TRIES:
        s.answer = None
        ctx.say(ctx.phrase(f"Not quite. Hint: {chunk.hint}", "hint:tutoring"))
        return
    else:
        ctx.say(ctx.phrase(f"Not quite. The answer is {exercise.solution()}. {chunk.hint}", "reveal:tutoring"))
    save_result(ctx)


def reveal(ctx: Ctx) -> None:
    """The user asked for the answer: shown, and scored like a revealed one (0)."""
    s = ctx.slots
    chunk = current_chunk(s)
    ctx.say(ctx.phrase(f"The answer is {chunk.exercise.solution()}. {chunk.hint}", "reveal:tutoring"))
    s.correct = False
    save_result(ctx)


def save_result(ctx: Ctx) -> None:
    """Record the exercise and the concept's new mastery, then move to the next part."""
    s = ctx.slots
    concept = s.concept or ""
    taken = (timewindow.now() - s.asked_at).total_seconds() if s.asked_at else 0.0
    correct = bool(s.correct)
    ctx.record(
        "exercise",
        {"concept": concept, "chunk": s.chunk, "correct": correct, "attempts": s.attempts, "time": round(taken, 1)},
    )
    results = read_results(r.data for r in ctx.records("exercise"))
    results.append(ExerciseResult(concept=concept, chunk=s.chunk, correct=correct, attempts=s.attempts))
    score = mastery(results, concept, s.chunks)
    s.mastery = {**s.mastery, concept: score}
    ctx.record("mastery", {"concept": concept, "score": score})
    forget_analysis(ctx.context)  # out of date now: a plan is prioritised by a fresh one only
    s.chunk += 1


def skip(ctx: Ctx) -> None:
    ctx.say("No problem, let's move on.")
    ctx.slots.chunk += 1


def complete(ctx: Ctx) -> None:
    s = ctx.slots
    course = course_of(s)
    cid = s.concept or ""
    score = s.mastery.get(cid, 0.0)
    if cid not in s.completed:
        s.completed = [*s.completed, cid]
    ctx.say(
        ctx.phrase(
            f"That was the last part: {s.title} is complete! Your mastery of {s.title}: {percent(score)}.",
            "complete:tutoring",
        )
    )
    s.suggestion = suggest(course, mastery_levels(ctx, course), s)
    s.next = None
    open_lesson(ctx.context, s.suggestion or cid, 1)  # "continue" later goes on from here


def switch(ctx: Ctx) -> None:
    """Move to the topic in `next` with a fresh lesson state (prerequisites checked again)."""
    s = ctx.slots
    s.concept, s.next = s.next, None
    if s.concept == s.target:
        s.target = None
    s.resume, s.answer, s.correct = 0, None, None


# -- asides --------------------------------------------------------------------------------


def keep_message(ctx: StepContext[Any]) -> str | None:
    """Not an aside: remembers the message for analysis' "did they ask for a plan?" check."""
    remember(ctx.context, ctx.text)
    return None


def leave(ctx: Ctx) -> str | None:
    """END leaves; CONTINUE lets the other asides and the answer have the message. Undecided
    ("I might stop soon"): the lesson stays, the message is not graded, and the user is told
    how to stop."""
    decision = exit_decision(ctx)
    if decision == "END":
        return "exit"
    if decision == "CONTINUE" or not in_exercise(ctx.slots):
        return None
    ctx.say("We can stop whenever you like: say 'I'm done for today' to finish, or keep going with the exercise.")
    return ""


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
    ctx.say(ctx.phrase(encouragement(achieved, times=cheer_count(ctx.context)), "motivate:tutoring"))
    return ""  # same question again: the lesson resumes where it was


_LESSON_REQUEST = re.compile(
    r"\b(teach me|help me with|explain|switch to|move on to|let'?s (?:do|learn|study|try|go to)|"
    r"can (?:we|you) (?:do|learn|study|go to|teach|explain|help)|how about|what about|i want to (?:learn|study)|"
    r"i'?d like to (?:learn|study))\b",
    re.I,
)


_ASKS_FOR_LESSON = re.compile(
    r"\b(teach|explain|learn|lesson|quiz me|practi[cs]e|tutor|help me (?:with|understand))\b", re.I
)


def asks_for_lesson(text: str) -> bool:
    """Does the message ask to be taught ("teach me integrals", "explain limits again")?"""
    return bool(_ASKS_FOR_LESSON.search(text) or _LESSON_REQUEST.search(text))


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
    r"done with (?:this|that) (?:one|problem|question|exercise)|(?:give me |on to |onto )?the next(?: one)?|"
    r"next,? please|move on|one more)\b|^\W*next\W*$",
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


_NOT_OFF_TOPIC = {"Math", "Algebra", "Linear algebra", "Geometry", "Trigonometry", "Statistics"}
_CHITCHAT = re.compile(
    r"\b(weather|what time is it|who (?:are|made) you|are you (?:a bot|a robot|human|real|an ai)|your name|"
    r"(?:tell me )?a joke|football|soccer|netflix|movies?|tv show|video games?|the news)\b",
    re.I,
)


def off_topic(ctx: Ctx) -> str | None:
    """Something this course cannot teach ("can you help with physics after this?") or small
    talk: said so, and the same question again; never graded as an answer."""
    s = ctx.slots
    course = course_of(s)
    if course.find(ctx.text) is not None:
        return None  # about the course after all
    others = [name for _, name in named_subjects(ctx.text) if name not in _NOT_OFF_TOPIC]
    if others:
        listed = " and ".join(dict.fromkeys(others))
        later = "after this lesson" if in_exercise(s) else "elsewhere"
        ctx.say(
            ctx.phrase(
                f"{listed} isn't part of {course.title}, so I can't teach it here; it will have to wait until "
                f"{later}. Let's keep going with {s.title or 'the course'}.",
                "defer:tutoring",
            )
        )
        return ""
    if _CHITCHAT.search(ctx.text):
        ctx.say(ctx.phrase(f"That's outside our lesson; I'm here to help with {course.title}.", "defer:tutoring"))
        return ""
    return None


_HOW_FAR = re.compile(
    r"\bhow (?:many|much|long)\b.*\b(left|more|parts?|exercises?|to go|is (?:this|it)|will (?:this|it))\b", re.I
)


def answer_question(ctx: Ctx) -> str | None:
    """Answer from the course: the concept asked about, else the part being taught."""
    s = ctx.slots
    if not (in_exercise(s) or s.offer is not None):
        return None  # choosing a topic: "what is a limit?" names the topic
    course = course_of(s)
    named = course.find(ctx.text)
    if in_exercise(s) and _HOW_FAR.search(ctx.text):
        left = s.chunks - s.chunk
        more = f"{left} more after this one" if left else "this is the last one"
        ctx.say(f"You're on part {s.chunk} of {s.chunks} of {s.title}: {more}.")
        return ""
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


# -- the flow ------------------------------------------------------------------------------


def no_concept(s: TutoringSlots) -> bool:
    return s.concept is None


def has_offer(s: TutoringSlots) -> bool:
    return s.offer is not None


def retrying(s: TutoringSlots) -> bool:
    return s.correct is False and s.attempts < MAX_TRIES


def more_chunks(s: TutoringSlots) -> bool:
    return s.chunk <= s.chunks


def finished(s: TutoringSlots) -> bool:
    return s.next in (None, "done")


EXERCISE_HELP = (
    "Type your answer to the exercise (for a multiple-choice one, the letter is enough). "
    "Ask 'why?' to hear the explanation again, 'hint' for a hint, 'show me the answer' to see it, "
    "'give me another' to skip it, or 'I'm done for today' to finish."
)

tutoring = Flow(
    name="tutoring",
    description="teach a concept chunk by chunk with exercises, hints and mastery tracking",
    persona="Study Pal, a patient and upbeat calculus tutor who keeps explanations short and concrete",
    slots=TutoringSlots,
    states=[
        Step("start", run=start, initial=True),
        Ask(
            "choose",
            slot="concept",
            say=ask_topic,
            parse=concept_parser,
            reprompts=[ask_topic, lambda s: f"Please name one topic: {menu(s)}."],
            help="Name the topic you want to learn; I'll teach it step by step.",
            fallback="cancel",
        ),
        Step("check", run=check_prerequisites),
        Ask(
            "offer",
            slot="take_offer",
            say=lambda s: s.offer_text or "",
            parse=offer_parser,
            reprompts=[lambda s: f"Yes to start with {title_of(s, s.offer or '')}, or no to go straight to {s.title}?"],
            help="Concepts build on each other; learning the prerequisite first usually makes the rest easier.",
        ),
        Step("begin", run=begin),
        Step("explain", run=explain),
        Ask("exercise", slot="answer", say=ask_exercise, parse=free_text(min_chars=1), help=EXERCISE_HELP),
        Step("grade", run=grade),
        Step("reveal", run=reveal),
        Step("skip", run=skip),
        Step("complete", run=complete),
        Ask(
            "next_topic",
            slot="next",
            say=ask_next,
            parse=next_parser,
            reprompts=[ask_next],
            help="Pick what to learn next, or say you're done to see how the session went.",
        ),
        Step("switch", run=switch),
        Final("ended", summary=summary, say=closing, handoff=lambda s: "analysis"),
    ],
    transitions=[
        T("next", "start", "choose"),
        T("answer", "choose", "check"),
        T("next", "check", "choose", when=no_concept),
        T("next", "check", "offer", when=has_offer),
        T("next", "check", "begin"),
        T("answer", "offer", "begin"),
        T("next", "begin", "explain"),
        T("next", "explain", "exercise"),
        T("answer", "exercise", "grade"),
        T("next", "grade", "exercise", when=retrying),
        T("next", "grade", "explain", when=more_chunks),
        T("next", "grade", "complete"),
        T("reveal", "exercise", "reveal"),
        T("next", "reveal", "explain", when=more_chunks),
        T("next", "reveal", "complete"),
        T("skip", "exercise", "skip"),
        T("next", "skip", "explain", when=more_chunks),
        T("next", "skip", "complete"),
        T("next", "complete", "next_topic"),
        T("answer", "next_topic", "ended", when=finished),
        T("answer", "next_topic", "switch"),
        T("switch", "*", "switch"),
        T("next", "switch", "check"),
        T("exit", "*", "ended"),
    ],
    asides=[
        Aside("remember", match=lambda _: True, handle=keep_message),
        Aside("exit", match=may_exit, handle=leave),
        Aside("off-topic", match=lambda t: bool(named_subjects(t) or _CHITCHAT.search(t)), handle=off_topic),
        Aside("reveal", match=lambda t: bool(_REVEAL.search(t)), handle=give_answer),
        Aside("motivator", match=discouraged, handle=motivate),
        Aside("change-topic", match=lambda t: bool(_LESSON_REQUEST.search(t)), handle=change_topic),
        Aside("another", match=lambda t: bool(_ANOTHER.search(t)), handle=another),
        Aside("hint", match=lambda t: bool(_HINT.search(t)), handle=give_hint),
        Aside("question", match=lambda t: is_question(t) or t.rstrip().endswith("?"), handle=answer_question),
        Aside("pleasantry", match=lambda t: bool(_PLEASANTRY.search(t)), handle=acknowledge),
    ],
    max_turns=80,
    llm_calls_per_turn=4,
    cancel_summary=cancelled,
)
