"""What the tutoring flow's steps do: pick and check the topic, explain, grade, save, move on.

The flow itself (what each state says, its states and transitions) is declared in
flows/study_pal/tutoring.py, which reads top to bottom as that declaration.
"""

from __future__ import annotations

from flows.shared.grading import plausibly_right, verdict_model
from flows.study_pal import timewindow
from flows.study_pal.course import MASTERY_THRESHOLD, Course, course_path, get_course
from flows.study_pal.kept import KNOWN, KeptLesson, Status, asked_first, keep, known, known_in, lesson_of
from flows.study_pal.lesson import (
    MAX_TRIES,
    Ctx,
    TutoringSlots,
    advance,
    course_of,
    current_chunk,
    set_concept,
)
from flows.study_pal.marking import check_answer
from flows.study_pal.mastery import ExerciseResult, mastery, percent, read_results
from flows.study_pal.memory import StudyMemory


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
        # the concept asked for, not one said to be known ("I know derivatives already, teach me integration")
        s.concept = next(iter(asked_first(course, ctx.text, course.find_all(ctx.text))), None)
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
    prerequisites = course.all_prerequisites(cid)
    # "teach me derivatives, I already know limits": said before any offer, remembered the same
    remember_known(ctx, known_in(course, ctx.text, None, prerequisites))
    knows = known(ctx) | set(s.known_now)
    unmet = [p for p in prerequisites if levels[p] < MASTERY_THRESHOLD and p not in knows]
    if not unmet or s.resume:
        return  # a lesson taken up again was already agreed to
    s.offer = unmet[0]
    listed = ", ".join(f"{course.concept(p).title} ({percent(levels[p])})" for p in unmet)
    s.offer_text = (
        f"{s.title} builds on {listed}, and your mastery there is below {percent(MASTERY_THRESHOLD)}. "
        f"Shall we start with {course.concept(unmet[0]).title} first? "
        f"Say yes, or no to go straight to {s.title}."
    )


def remember_known(ctx: Ctx, concepts: list[str]) -> None:
    """Save the prerequisites the learner said they know (once each), so none is offered again."""
    s = ctx.slots
    for cid in concepts:
        if cid not in s.known_now and cid not in known(ctx):
            ctx.record(KNOWN, {"concept": cid})
        s.known_now = [*dict.fromkeys([*s.known_now, cid])]


def begin(ctx: Ctx) -> None:
    s = ctx.slots
    if s.offer is not None and s.take_offer:
        s.target = s.concept
        set_concept(s, s.offer)
    elif s.offer is not None:  # "no, I already know limits": not offered again
        remember_known(ctx, known_in(course_of(s), ctx.text, s.offer, course_of(s).all_prerequisites(s.concept or "")))
    s.offer = s.offer_text = s.take_offer = None
    kept = lesson_of(ctx, s.concept or "") if s.resume else None
    if kept is not None and kept.parts == s.chunks and not kept.finished:
        s.answered = [n for n in kept.answered if 1 <= n <= s.chunks]
    s.chunk = s.resume - 1 if s.resume else 0
    advance(s)  # the part it stopped at, past any already answered
    if s.resume and 1 < s.chunk <= s.chunks:
        ctx.say(f"Let's pick up {s.title} where we left off: part {s.chunk} of {s.chunks}.")
    else:
        s.chunk, s.answered = 1, []
        ctx.say(f"Let's learn {s.title}: {s.chunks} short parts, each with an exercise.")
    s.resume = 0


def explain(ctx: Ctx) -> None:
    s = ctx.slots
    ctx.say(ctx.phrase(f"Part {s.chunk}/{s.chunks}. {current_chunk(s).explain}", "explain:tutoring"))
    s.answer, s.correct, s.attempts = None, None, 0
    s.asked_at = timewindow.now()
    ctx.shared(StudyMemory).open_lesson(s.concept, s.chunk)
    keep(ctx, kept_now(s))


def kept_now(s: TutoringSlots, status: Status = "open") -> KeptLesson:
    """Where the lesson stands: the part under way (or, once complete, the one suggested next)."""
    if s.chunk > s.chunks and s.suggestion and s.suggestion != s.concept:
        parts = len(course_of(s).concept(s.suggestion).chunks)
        return KeptLesson(concept=s.suggestion, part=1, parts=parts, status=status)
    part = s.chunk if 1 <= s.chunk <= s.chunks else 1
    return KeptLesson(concept=s.concept or "", part=part, parts=max(s.chunks, 1), answered=s.answered, status=status)


def grade(ctx: Ctx) -> None:
    s = ctx.slots
    chunk = current_chunk(s)
    exercise = chunk.exercise
    s.attempts += 1
    right = check_answer(exercise, s.answer or "")
    if not right and not exercise.is_choice:
        # rules accept only the listed forms; a model may recognise an equivalent one
        verdict = ctx.parse(verdict_model(exercise.question, tuple(exercise.answers or ())), "grade:tutoring")
        answers = tuple(exercise.answers or ())
        right = getattr(verdict, "correct", None) is True and plausibly_right(s.answer or "", answers)
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
    ctx.shared(StudyMemory).analysis = None  # out of date now: a plan is prioritised by a fresh one only
    s.answered = [*s.answered, s.chunk]
    advance(s)


def skip(ctx: Ctx) -> None:
    ctx.say("No problem, let's move on.")
    advance(ctx.slots)


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
    if s.target and s.target != cid:
        # the prerequisite was taken on the way to what the learner asked for: go straight on to it
        s.next = s.target
        ctx.say(f"Now on to {course.concept(s.target).title}, which you asked for.")
    ctx.shared(StudyMemory).open_lesson(s.suggestion or cid, 1)  # "continue" later goes on from here
    keep(ctx, kept_now(s))


def switch(ctx: Ctx) -> None:
    """Move to the topic in `next` with a fresh lesson state (prerequisites checked again)."""
    s = ctx.slots
    s.concept, s.next = s.next, None
    if s.concept == s.target:
        s.target = None
    s.resume, s.answer, s.correct = 0, None, None
