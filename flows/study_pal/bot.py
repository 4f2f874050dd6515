"""study-pal: a calculus tutor; main conversation plus tutoring, analysis and scheduling.

The course is loaded on every main-conversation turn (cached), so a broken or missing
`--course` is refused, with every problem listed, at the first message. Then the main
handler routes, in this order:

1. a question about the plans there are ("what's my plan for friday?") is answered from the
   saved plans (flows/study_pal/plans.py); an edit of a saved plan ("make it an hour later",
   "add statistics as well", "drop the Friday one", "move it to the weekend":
   flows/study_pal/plan_edits.py) makes a new version of it, and "and one for tomorrow too"
   makes another plan with its topics;
   then keyword intents (analysis, scheduling, tutoring), and a question naming the course or
   one of its topics ("what is a limit?", "derivatives?"), which starts a lesson on it;
2. "can we go on with derivatives?": that lesson at the part it stopped (its `lesson` record,
   flows/study_pal/kept.py), in this session or a later one; "continue" / "another": the last
   lesson, while it is open; one left for later ("gotta run") only with words that ask to take
   it up ("let's continue"); one finished for the day was closed by analysis (loop prevention:
   after analysis only an explicit request leads back into tutoring);
3. a model's intent classification, when one is configured;
4. discouragement gets the motivator's encouragement (before the flow, when both);
5. a greeting, thanks or goodbye gets a short reply; anything else an honest description
   of what the bot can do.

Hand-offs between the flows (tutoring -> analysis -> scheduling) are declared on their
final states; the session memory they share is described in flows/study_pal/memory.py.
"""

from __future__ import annotations

import re
from datetime import datetime

from engine import Bot, Intent, MainContext, Resources
from engine.cues import in_english_cues
from engine.gloss import in_english
from engine.said import says_resume
from engine.weekdays import WHEN
from flows.study_pal import timewindow
from flows.study_pal.analysis import analysis
from flows.study_pal.course import Course, course_path, get_course
from flows.study_pal.exits import leaves_for_now
from flows.study_pal.kept import KNOWN, asks_to_resume, last_lesson, lesson_of, says_known
from flows.study_pal.kept import known as known_of
from flows.study_pal.lesson import TutoringSlots
from flows.study_pal.memory import StudyMemory
from flows.study_pal.plan_edits import memo_of, read_edit, series_of, window_of
from flows.study_pal.plans import StoredPlan, asks_for_plans, current, describe, upcoming
from flows.study_pal.reading import discouraged, encouragement, is_question
from flows.study_pal.revise import is_revision, revise_window
from flows.study_pal.scheduling import (
    LONG_BREAK,
    LONG_BREAK_EVERY,
    SHORT_BREAK,
    STUDY_MINUTES,
    SchedulingSlots,
    scheduling,
)
from flows.study_pal.texting import plain
from flows.study_pal.tutoring import tutoring

ANALYSIS = Intent(
    "analysis",
    patterns=[
        r"\banaly[sz]\w*",
        r"\bweak (?:points?|spots?|areas?|topics?)\b",
        r"\bhow (?:did i do|am i doing)\b",
        r"\breview my (?:session|progress|results)\b",
    ],
    description="the user wants an analysis of their exercise results and weak points",
)
# a non-word character that marks no clause (not ".,;:!?", not the space of " -")
_MARKLESS = r"(?:[^\w.,;:!?\s]|\s(?!-))"
# what a study session is called (when one is: engine/weekdays.py `WHEN`)
_SESSION = r"(?:session|block|slot|time|period|hours?)s?"
SCHEDULING = Intent(
    "scheduling",
    patterns=[
        r"\bschedul\w*",
        r"\bstudy plan\b",
        r"\bplan (?:my|a|the|some|out)\b",
        r"\b(?:make|create|build|set up|need|want|do|get|put together|draw up)\s+(?:me\s+)?"
        r"(?:a|another|a new|new|my)\s+(?:study\s+)?plan\b",
        r"\bcalendar\b",
        r"\btimetable\b",
        r"\bwhen should i (?:study|learn|revise|practi[cs]e)\b",
        r"\bpomodoro\b",
        # "plan chemistry and biology on Friday at 4", "book tomorrow 3-5": a planning verb that starts a
        # clause or follows a request ("tmrw is packed, can we plan something fri"), then a day or time
        # (from the last clause mark before it: the non-word characters after a mark hold no other
        # mark, so a long run of punctuation is scanned once, not once from each of its marks)
        rf"(?:^|[.,;:!?]|\s-){_MARKLESS}*+(?:(?:ok(?:ay)?|so|then|hey){_MARKLESS}++)*"
        r"(?:(?:can|could|would|shall) (?:you|we|i) |"
        r"please |pls |let'?s |i (?:want|need|wanna) to |i'?d like to |help me )?"
        rf"(?:plan|book|block(?: out)?|set aside|reserve|pencil in)\b.{{0,80}}?\b(?:{WHEN}|"
        r"\d{1,2}(?::\d{2})?\s*(?:am|pm)?)\b",
        # a study session asked for by its name and when, with no clock ("can you set up a study block saturday
        # morning?", "i need a study session tomorrow evening", "sunday afternoon study time?")
        rf"\bstudy\s+{_SESSION}\b.{{0,60}}?\b{WHEN}\b",
        rf"\b{WHEN}\b.{{0,30}}?\bstudy\s+{_SESSION}\b",
        # a range's end may carry its mark ("study sessions tue/thu 5-7pm")
        r"\b(?:study|revise|review)\b.{0,60}?(?:\b(?:from|between|at)\s+\d|\b\d{1,2}\s*(?:-|to)\s*\d{1,2}(?!\d))",
    ],
    description="the user wants a study plan or schedule for a time window",
)
TUTORING = Intent(
    "tutoring",
    patterns=[
        r"\bteach\b",
        r"\bexplain\b",
        r"\blearn\b",
        r"\blesson\b",
        r"\bhelp me (?:with|understand)\b",
        r"\bquiz me\b",
        r"\bpractice\b",
        r"\btutor\b",
    ],
    description="the user wants to learn a topic or asks what something is",
)

CAPABILITIES = (
    "I'm Study Pal, your calculus tutor. I can teach a topic step by step with exercises "
    "('teach me derivatives', 'what is a limit?'), analyse your weak points ('analyze my weak "
    "points'), and make a Pomodoro study plan ('schedule study from 14-16 tomorrow'). "
    "Type 'help' at any time, or 'cancel' to leave an activity."
)

# what a learner says of a topic they want help with; "limits were easy today" asks for none
_WANTS_HELP = re.compile(
    r"\b(?:help|need|want|wanna|would like|struggl\w*|stuck|confus\w*|lost|trouble|problems? with|hard|difficult"
    r"|(?:don'?t|do not|can'?t|cannot) (?:get|understand)|practi[cs]e|review|revise|study|go over|work on|brush up"
    r"|let'?s (?:do|start|try|cover|tackle)|can we (?:do|start|try|cover)|start with|begin with)\b",
    re.I,
)
_CONTINUE = re.compile(r"^\s*(?:let'?s )?(continue|go on|keep going|next|more|another(?: one)?|resume)\b", re.I)


def asks_about_a_topic(course: Course, text: str) -> bool:
    """A message about a topic of the course (misspelt too): a question naming it or the course
    ("what is a limit?", "derivatives?"), a topic's name alone, or what a learner says of a topic
    they want help with ("i need help with derivitives", "struggling with limits", "I don't get
    integrals"); not one that only talks of it ("limits were easy today") or says it is known."""
    asked = is_question(text) or text.rstrip().endswith("?") or len(text.split()) <= 2
    if course.find(text) is None:
        # the course as a whole, asked about or wanted ("can we do some calculus"): a lesson that
        # starts by asking which topic
        return course.mentions_course(text) and (asked or _wants_help(text))
    if asked:
        return True
    # in the learner's words too: "necesito ayuda con las derivadas" (engine/cues.py); a clause
    # saying a topic is known asks for none, another clause may ("let's do derivatives, limits i know")
    # a clause that is a topic's name and a word or so ("integrals please, i know derivatives already")
    return any(
        bool(_wants_help(c) or (len(c.split()) <= 2 and course.find(c) is not None)) and not says_known(c)
        for c in _CLAUSE.split(text)
        if c.strip()
    )


def _wants_help(text: str) -> bool:
    return bool(_WANTS_HELP.search(text) or _WANTS_HELP.search(in_english_cues(text)))


# a run of spaces is taken once, from its start (a long run tried at every position was quadratic)
_CLAUSE = re.compile(r"[,;.!?]++|(?<!\s)\s++(?:but|and)\s", re.I)


def converse(ctx: MainContext) -> None:
    course = get_course(course_path(ctx.resources))  # a broken course is refused here, listing its problems
    ctx.shared(StudyMemory).remember(ctx.text)
    # keywords first, and a topic question or "continue" need no model to classify them
    text = plain(ctx.text)  # "can u plan ...", "gtg": chat spellings written out for the keywords
    if asks_for_plans(text):  # before the keywords: "what does my schedule look like?" makes no plan
        at = timewindow.now()
        ctx.say(ctx.phrase(describe(upcoming(ctx.records("study_plan"), at), text, at), "reply:main"))
        return
    flow = study_pal.intent_for(text)
    if flow == "scheduling" and asks_what_planning_is(text):
        ctx.say(ctx.phrase(POMODORO, "reply:main"))
        return
    if flow in (None, "scheduling") and edit_plan(ctx, course, text):
        return
    if flow in (None, "scheduling") and revises_plan(ctx):
        ctx.start("scheduling", SchedulingSlots(revise=True))
        return
    if flow in (None, "scheduling") and plans_again(ctx, text):
        ctx.start("scheduling", SchedulingSlots(again=True))
        return
    back = asks_to_resume(text) or bool(_CONTINUE.search(text) or _RESUME_LESSON.search(text))
    if flow in (None, "tutoring") and back and leaves_for_now(text):
        put_off(ctx)  # "let's continue later", "we can go on with limits tomorrow": not now
        return
    named = course.find(text)
    if flow in (None, "tutoring") and named is not None and asks_to_resume(text):
        resume_topic(ctx, named)  # "can we go on with derivatives?": at the part it stopped
        return
    if flow is None and asks_about_a_topic(course, text):
        flow = "tutoring"
    if flow is None and (_CONTINUE.search(text) or _RESUME_LESSON.search(text)):
        resume(ctx)
        return
    if flow == "tutoring" and says_resume(text, "tutoring") and last_lesson(ctx) is not None:
        # "I'm home, can we go on with the lesson?" only says to go on (the engine's words for it): the kept
        # lesson, not a new one, though "lesson" names the tutoring
        resume(ctx)
        return
    if flow is None and says_known(text) and course.find(text) is not None:
        note_known(ctx, course, text)  # "i think i know limits already": remembered, not a lesson
        return
    flow = flow or ctx.intent()
    if discouraged(ctx.text):
        cheer = encouragement(in_lesson=flow == "tutoring", times=ctx.shared(StudyMemory).cheer())
        ctx.say(ctx.phrase(cheer, "motivate:main"))
        if flow is None:
            return
    if flow is not None:
        # a plan asked for here, with no time said, asks when; one taken at the end of an analysis is made at once
        ctx.start(flow, SchedulingSlots(asked=True) if flow == "scheduling" else None)
        return
    ctx.reply(background=course_outline(course))


# "what is a pomodoro?", "how does the pomodoro thing work": a question about the method, not a
# request for a plan; a request verb or a day or time in the message makes it one
_WHAT_IS = re.compile(
    r"^\W*(?:(?:so|and|but|hey|wait|um+|hm+|ok|okay)\W+)*(?:what(?:'s| is| are| does)|how (?:does|do|did) (?:the |a |"
    r"your |this )?(?:pomodoro|study plan|schedul)|explain|tell me (?:about|what))\b",
    re.I,
)
_WANTS_ONE = re.compile(
    r"\b(?:make|create|build|give|set up|schedule (?:me|my|some|a|study)|plan (?:me|my)|book|can you|could you|"
    r"please|want|need|would like|i'?d like)\b",
    re.I,
)
POMODORO = (
    f"A Pomodoro is {STUDY_MINUTES} minutes of focused study, then a {SHORT_BREAK}-minute break; after every "
    f"{LONG_BREAK_EVERY}th, a {LONG_BREAK}-minute one. My study plans are built from them, weakest topics "
    "first. Say e.g. 'schedule study from 2pm to 4pm on Friday' and I'll make you one."
)


def asks_what_planning_is(text: str) -> bool:
    """A question about the method ("what is a pomodoro?"), not a request for a plan."""
    if not _WHAT_IS.search(text) or _WANTS_ONE.search(text):
        return False
    return timewindow.parse_window(text, timewindow.now()) is None


def note_known(ctx: MainContext, course: Course, text: str) -> None:
    """Topics the learner says they know, said outside a lesson: kept as the lesson keeps a known
    prerequisite (with what they build on), so no lesson offers them again; the reply says so and
    names the first topic of the course not known."""
    named = [cid for _, cid in course.mentions(text)]
    kept = known_of(ctx)
    new = [c for c in dict.fromkeys([*named, *(p for cid in named for p in course.all_prerequisites(cid))])]
    for cid in new:
        if cid not in kept:
            ctx.record(KNOWN, {"concept": cid})
    knows = kept | set(new)
    titles = " and ".join(course.concept(cid).title for cid in named)
    ahead = next((cid for cid in course.order if cid not in knows), None)
    offer = ""
    if ahead is not None:
        title = course.concept(ahead).title
        offer = f" Shall we go on with {title}? Say e.g. 'teach me {title.lower()}'."
    ctx.say(ctx.phrase(f"Noted: you know {titles}, so I won't take you through it again.{offer}", "reply:main"))


def course_outline(course: Course) -> str:
    """What the main conversation's model is told of the course, so it can talk about it."""
    topics = ", ".join(course.concept(cid).title for cid in course.order)
    return f"The course is {course.title!r}; its topics, in order: {topics}."


def edit_plan(ctx: MainContext, course: Course, text: str) -> bool:
    """Edit a saved plan as the message asks ("add statistics as well", "drop the Friday one", "move it
    to the weekend"; read by flows/study_pal/plan_edits.py); False when it asks no edit of one. A plan
    made over several days ("mon wed fri 7-9pm") is one plan to an edit that names no day: its hours,
    its subjects or the whole of it change on every day; a day named changes that day's alone."""
    at = timewindow.now()
    plans = current(ctx.records("study_plan"), at)
    if not plans:
        return False
    edit = read_edit(text, course, plans, plans[-1], at)
    if edit is None:
        return False
    memory = ctx.shared(StudyMemory)
    together = [] if edit.named else series_of(memory.last_plan, plans)
    days_kept = edit.op != "move" or (edit.window is not None and edit.window.day == edit.plan.date)
    if edit.plan not in together or not days_kept:
        together = []  # a plan moved to other days is moved alone
    if together and edit.one:
        # "drop that one" among plans made together: which day's is not guessed
        days = ", ".join(f"{p.date:%A}" for p in together)
        ctx.say(
            ctx.phrase(
                f"Which day's plan do you mean ({days})? Say e.g. 'the {together[0].date:%A} one'.", "reply:main"
            )
        )
        return True
    memo = memo_of(edit.plan, memory.last_plan)
    if together and memory.last_plan is not None:
        first = together[0]
        memo = memory.last_plan.model_copy(
            update={"window": window_of(first), "repeat": [p.date for p in together[1:]]}
        )
    names = [t.name for t in memo.topics]
    which = "plans" if together else f"plan for {edit.plan.label()}"
    problem = None
    if edit.op == "add" and not (added := [n for n in edit.subjects if n not in names]):
        problem = f"{' and '.join(edit.subjects)} {'is' if len(edit.subjects) == 1 else 'are'} already in it."
    elif edit.op == "remove" and (missing := [n for n in edit.subjects if n not in names]):
        problem = f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in it ({', '.join(names)})."
    elif edit.op == "remove" and set(names) <= set(edit.subjects):
        problem = f"That would leave it empty. Say e.g. 'drop the {edit.plan.date:%A} one' to remove the plan."
    if problem is not None:
        ctx.say(ctx.phrase(f"Your {which}: {problem}", "reply:main"))
        return True
    if edit.op == "drop":
        dropped = together or [edit.plan]
        drop_plans(ctx, dropped, [p for p in plans if p not in dropped], at)
        return True
    memory.last_plan = memo  # the plan the scheduling flow revises
    repeat = list(memo.repeat) if together else []
    if edit.op == "move" and edit.window is not None:
        window = edit.window.model_copy(update={"day": memo.window.day}) if together else edit.window
        ctx.start("scheduling", SchedulingSlots(revise=True, window=window, repeat=repeat))
    elif edit.op == "add":
        ctx.start("scheduling", SchedulingSlots(revise=True, add=added, repeat=repeat))
    else:
        ctx.start("scheduling", SchedulingSlots(revise=True, remove=edit.subjects, repeat=repeat))
    return True


def drop_plans(ctx: MainContext, dropped: list[StoredPlan], left: list[StoredPlan], at: datetime) -> None:
    """Save a version of each plan of `dropped` that says it is dropped, and say which plans are left."""
    for plan in dropped:
        ctx.record(
            "study_plan",
            {
                "date": plan.date.isoformat(),
                "window": plan.window,
                "prioritized": False,
                "sessions": [],
                "revises": {"date": plan.date.isoformat(), "window": plan.window},
                "dropped": True,
            },
        )
    memory = ctx.shared(StudyMemory)
    last = memory.last_plan
    if last is not None:
        gone = {
            p.date
            for p in dropped
            if p.window == f"{timewindow.hhmm(last.window.start)}-{timewindow.hhmm(last.window.end)}"
        }
        days = [d for d in [last.window.day, *last.repeat] if d not in gone]
        if not days:
            memory.last_plan = memo_of(left[-1], None) if left else None
        elif gone:
            # what is left of a plan over several days is still the one "it" means
            memory.last_plan = last.model_copy(
                update={"window": last.window.model_copy(update={"day": days[0]}), "repeat": days[1:]}
            )
    ahead = sorted(left, key=lambda p: (p.date, p.start))
    now = "; ".join(p.label() for p in ahead) if ahead else "none"
    if len(dropped) == 1:
        told = f"Dropped your study plan for {dropped[0].label()}."
    else:
        told = (
            f"Dropped your study plans for {', '.join(f'{p.date:%A %Y-%m-%d}' for p in dropped)}, {dropped[0].window}."
        )
    ctx.say(ctx.phrase(f"{told} Your plans now: {now}.", "reply:main"))


def revises_plan(ctx: MainContext) -> bool:
    """Does the message change the last plan ("make it an hour later", "Saturday instead")?"""
    memo = ctx.shared(StudyMemory).last_plan
    if memo is None:
        return False
    # asked in the user's language ("anzi, spostalo a venerdì", "eine Stunde früher"): read in English as the
    # scheduling flow reads its window (engine/cues.py, engine/gloss.py)
    for text in dict.fromkeys((ctx.text, in_english(in_english_cues(ctx.text)))):
        if is_revision(text) and revise_window(text, timewindow.now(), memo.window) is not None:
            return True
    return False


# "and one for tmrw too", "same for saturday", "another one friday 10-12": the last plan's topics again
_AGAIN = re.compile(r"\b(?:one|another|same|again|too|also|as well)\b", re.I)


def plans_again(ctx: MainContext, text: str) -> bool:
    """Does the message ask for another plan like the last one, at a time it names?"""
    if ctx.shared(StudyMemory).last_plan is None:
        return False
    if not _AGAIN.search(text):
        # asked in the user's language ("und noch einen für Samstag Vormittag"): its cue and time words in English
        text = in_english(in_english_cues(text))
        if not _AGAIN.search(text):
            return False
    return isinstance(timewindow.parse_window(text, timewindow.now()), timewindow.Window)


# "pick up where we left off", "back to the lesson", "can we carry on?": the kept lesson, whatever its topic
_RESUME_LESSON = re.compile(
    r"\b(?:where (?:we|i) (?:left off|stopped)|(?:back to|resume|continue|carry on with|go on with) (?:the|my|our) "
    r"(?:lesson|tutoring|exercises?)|(?:can|could|shall) we (?:continue|carry on|go on|resume|keep going)|"
    r"pick (?:it|this|that) (?:back )?up)\b",
    re.I,
)


def resume(ctx: MainContext) -> None:
    """Go on with the kept lesson where it stopped (its `lesson` record: flows/study_pal/kept.py);
    after analysis closed it, only say how to start one."""
    kept = last_lesson(ctx)
    memory = ctx.shared(StudyMemory)
    if kept is None and memory.tutoring_active and (open_lesson := memory.last_lesson()) is not None:
        # a session stored before lessons were kept as records has only the memory's place
        ctx.start("tutoring", TutoringSlots(concept=open_lesson[0], resume=open_lesson[1]))
        return
    # a lesson left for later ran into analysis: "another one" alone does not lead back (loop
    # prevention), words that ask to take it up do
    wanted = kept is not None and (kept.status == "open" or (kept.status == "paused" and asks_to_resume(ctx.text)))
    if kept is not None and wanted and not kept.finished:
        ctx.start("tutoring", TutoringSlots(concept=kept.concept, resume=kept.part))
        return
    ctx.say(ctx.phrase("There's no lesson open right now. Say 'teach me' and a topic to start one.", "reply:main"))


def put_off(ctx: MainContext) -> None:
    """ "Let's continue later" with no lesson running: the kept one stays where it is."""
    kept = last_lesson(ctx)
    if kept is not None and kept.status != "closed" and not kept.finished:
        title = get_course(course_path(ctx.resources)).concept(kept.concept).title
        where = f"Your lesson stays where it is ({title}, part {kept.part} of {kept.parts}): "
        ctx.say(ctx.phrase(f"Sure. {where}say 'let's continue' whenever you're ready.", "reply:main"))
        return
    ctx.say(ctx.phrase("Sure, whenever you're ready: say 'teach me' and a topic.", "reply:main"))


def resume_topic(ctx: MainContext, concept: str) -> None:
    """The lesson on `concept` at the part it stopped, even after analysis closed it (it is asked
    for by name); from the start when none was kept or it was finished."""
    kept = lesson_of(ctx, concept)
    part = kept.part if kept is not None and kept.started and not kept.finished else 0
    ctx.start("tutoring", TutoringSlots(concept=concept, resume=part))


def check_course(resources: Resources) -> list[str]:
    """Refuse a missing or invalid course before the first turn (DataFileError names each fault)."""
    get_course(course_path(resources))
    return []


study_pal = Bot(
    name="study-pal",
    persona="Study Pal, a patient and upbeat calculus tutor",
    flows=[tutoring, analysis, scheduling],
    intents=[ANALYSIS, SCHEDULING, TUTORING],
    capabilities=CAPABILITIES,
    converse=converse,
    check=check_course,
    knows=("mastery", "study_plan"),
    small_talk={
        "greeting": "Hi!",
        "thanks": "You're welcome! Say 'teach me' and a topic whenever you want to go on.",
        "goodbye": "Bye for now, and well done for studying today!",
    },
)
