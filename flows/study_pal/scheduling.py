"""Scheduling: a Pomodoro study plan inside the user's window, weakest topics first.

Entered from analysis ("yes, make a plan") or straight from the main conversation
("schedule study from 14-15 tomorrow for Math"), or to revise a saved plan ("make it an
hour later", "move it to Saturday": flows/study_pal/revise.py; an edit read in the main
conversation, flows/study_pal/plan_edits.py, comes with its new window or the subjects to
`add` or `remove`). The window is read from the
message (flows/study_pal/timewindow.py); a window that cannot work ("16-14", "9-9:10") is
asked for again, and so are the hours of a day named without any ("a plan for saturday": the
answer's hours are on that day), and the time of a plan asked for in the main conversation
without one ("help me make a study plan"). A plan taken at the end of an analysis without a
time is made at once in the default window, and so is one whose answer is "whenever". Sessions are 25 minutes of study
with 5-minute breaks and a 15-minute break after every fourth.

A time said with a set of days ("weekdays after 6pm", "mon wed fri 7-9": repeats.py) is a plan
for each of those days in the coming week, saved as one record a day.

Topics: subjects named anywhere in the message ("plan chemistry and biology on Friday",
"for limits and derivatives": flows/study_pal/subjects.py) are studied alone, in equal
shares, a course topic under its course title. Otherwise the last analysis' weak points are
prioritised: one session each, most severe first, while sessions last; the rest shared by
the D'Hondt method with weights severe 3, moderate 2, mild 1; the sessions of a topic are
kept together. With neither, the course as a whole, unprioritised. A revision keeps the
plan's topics unless it names others. The plan is saved as a `study_plan` record {date,
window, prioritized, sessions: [{start, end, topic}]} (a revision adds `revises`: the old
date and window, whose record stays) with times as HH:MM, and summarised in the main history.
"""

from __future__ import annotations

from datetime import date, time

from pydantic import BaseModel, ConfigDict, Field

from engine import Ask, Correctable, Final, Flow, RecordDraft, Slots, Step, StepContext, T
from engine.cues import in_english_cues
from engine.extract import Invalid, Parser
from engine.gloss import in_english, respelled
from engine.models import JsonObject
from flows.study_pal import timewindow
from flows.study_pal.course import course_path, get_course
from flows.study_pal.memory import PlanMemo, StudyMemory, Topic
from flows.study_pal.repeats import repeat_days
from flows.study_pal.revise import read_window, revise_window
from flows.study_pal.subjects import named_subjects, read_subjects
from flows.study_pal.timewindow import Window, default_window, hhmm, window_parser

STUDY_MINUTES = 25
SHORT_BREAK = 5
LONG_BREAK = 15
LONG_BREAK_EVERY = 4
WEIGHTS = {"severe": 3, "moderate": 2, "mild": 1}


class StudySession(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    start: str
    end: str
    topic: str
    day: date | None = None  # in a plan over several days ("weekdays after 6pm"): the day it is on


class SchedulingSlots(Slots):
    window: Window | None = None
    problem: str | None = None  # why the window in the message cannot be used
    day: date | None = None  # a day named without hours ("a plan for saturday"): when on it is asked
    asked: bool = False  # asked for in the main conversation: no time said at all is asked too
    ask: bool = False  # no time said: the window is asked for
    used_default: bool = False
    subject: str | None = None  # the subjects named, as the plan lists them ("Chemistry, Biology")
    subjects: list[str] = Field(default_factory=list)
    revise: bool = False  # started to change the last plan
    again: bool = False  # another plan like the last one, at another time ("and one for tmrw too")
    revised: Window | None = None  # the window of the plan this one replaces
    add: list[str] = Field(default_factory=list)  # "add statistics as well": subjects added to the plan revised
    remove: list[str] = Field(default_factory=list)  # "take math out": subjects taken out of it
    priorities: list[str] = Field(default_factory=list)  # "Derivatives (severe)", most severe first
    # the other days the window repeats on ("weekdays after 6pm": flows/study_pal/repeats.py)
    repeat: list[date] = Field(default_factory=list)
    sessions: list[StudySession] = Field(default_factory=list)


Ctx = StepContext[SchedulingSlots]


def pomodoros(window: Window) -> list[tuple[time, time]]:
    """Study sessions that fit in `window`: 25 minutes each, 5 between, 15 after every fourth."""
    t = window.start.hour * 60 + window.start.minute
    end = window.end.hour * 60 + window.end.minute
    out: list[tuple[time, time]] = []
    while t + STUDY_MINUTES <= end:
        out.append((time(t // 60, t % 60), time((t + STUDY_MINUTES) // 60, (t + STUDY_MINUTES) % 60)))
        t += STUDY_MINUTES + (LONG_BREAK if len(out) % LONG_BREAK_EVERY == 0 else SHORT_BREAK)
    return out


def allocate(sessions: int, weights: list[int]) -> list[int]:
    """Sessions per topic (topics in priority order): one each first, the rest by D'Hondt.

    D'Hondt gives the next session to the topic with the highest weight / (sessions + 1),
    ties to the higher priority, so severe topics get the most time without starving others.
    """
    counts = [0] * len(weights)
    for i in range(min(sessions, len(weights))):
        counts[i] = 1
    for _ in range(sessions - sum(counts)):
        best = max(range(len(weights)), key=lambda i: (weights[i] / (counts[i] + 1), -i))
        counts[best] += 1
    return counts


def read(ctx: Ctx) -> None:
    s = ctx.slots
    course = get_course(course_path(ctx.resources))
    at = timewindow.now()
    memo = ctx.shared(StudyMemory).last_plan if s.revise else None
    if memo is not None and (s.window is not None or s.add or s.remove):
        # an edit read in the main conversation (flows/study_pal/plan_edits.py): its window, or the same
        s.revised, s.window = memo.window, s.window or memo.window
        s.subjects = []  # the subjects an edit names are the ones it adds or takes out, not the plan's
        return
    # the request as said, its time words typed a letter off written right ("saterday", "evning")
    said = respelled(ctx.text)
    found = revise_window(said, at, memo.window) if memo else read_window(said, at)
    if not isinstance(found, Window) and (english := in_english(in_english_cues(said))) != said:
        # the request in the user's language ("einen Lernplan für morgen von 14 bis 16 Uhr", "eine Stunde
        # später"): its cue and time words read in English, as the window question's parser reads an answer
        glossed = revise_window(english, at, memo.window) if memo else read_window(english, at)
        if isinstance(glossed, Window):
            said, found = english, glossed
    if isinstance(found, Window) and memo is None and not s.again and timewindow.names_no_time(said, at):
        s.day = found.day  # a day alone: its hours are asked, not taken from the default
    elif isinstance(found, Window):
        s.window = found
    elif isinstance(found, Invalid):
        s.problem = found.reason
    elif memo is not None:
        s.problem = "I couldn't tell what to change in the plan."
    elif s.asked and not s.again:
        s.ask = True  # "help me make a study plan": when is asked, not guessed
    if memo is not None:
        s.revised = memo.window
    s.subjects = read_subjects(said, course)
    s.subject = ", ".join(s.subjects) or None


def plan(ctx: Ctx) -> None:
    s = ctx.slots
    if s.window is None:
        s.window = default_window(timewindow.now())
        s.used_default = True
    course = get_course(course_path(ctx.resources))
    if not s.subjects and not s.revise and not s.again:
        # the subjects said beside the time ("saturday 10-12, limits first then derivatives")
        s.subjects = read_subjects(respelled(ctx.text), course)
    # told from the subjects as they are now, not as `read` found them: a correction at the time
    # question ("oops, physics not biology") changes `subjects`, and `read` is not run again for it
    # (it reads the request's words, which the correction's message would replace)
    s.subject = ", ".join(s.subjects) or None
    memo = ctx.shared(StudyMemory).last_plan if s.revise or s.again else None
    weak = ctx.shared(StudyMemory).analysis
    topics: list[Topic]
    if s.subjects:
        topics = [Topic(name=name, weight=1) for name in s.subjects]
    elif memo is not None:
        names = [*s.add, *s.remove]
        topics = [t for t in memo.topics if t.name not in names] + [Topic(name=n, weight=1) for n in s.add]
        s.priorities = [p for p in memo.priorities if not any(p.startswith(f"{n} (") for n in s.remove)]
    elif weak:
        topics = [Topic(name=w.title, weight=WEIGHTS[w.severity]) for w in weak]
        s.priorities = [f"{w.title} ({w.severity})" for w in weak]
    else:
        topics = [Topic(name=course.title, weight=1)]
    at = timewindow.now()
    # a revision keeps the days it was given (a plan over several days changed as one: plan_edits.py)
    days = (
        ([s.window.day, *s.repeat] if s.repeat else [])
        if s.revise
        else repeat_days(ctx.text, at.date(), at.time(), s.window.start)
    )
    if days:
        s.window, s.repeat = s.window.model_copy(update={"day": days[0]}), days[1:]
    each = pomodoros(s.window)
    counts = allocate(len(each), [t.weight for t in topics])
    names = [t.name for t, n in zip(topics, counts, strict=True) for _ in range(n)]
    # a plan over several days shares each day the same way: every subject comes back each day
    s.sessions = [
        StudySession(start=hhmm(a), end=hhmm(b), topic=name, day=day)
        for day in ([*days] if days else [None])
        for (a, b), name in zip(each, names, strict=True)
    ]
    ctx.shared(StudyMemory).last_plan = PlanMemo(
        window=s.window, topics=topics, priorities=s.priorities, repeat=s.repeat
    )
    ctx.shared(StudyMemory).forget_recent()  # the wish for a plan is fulfilled


def ask_window(s: SchedulingSlots) -> str:
    if s.day is not None and s.problem is None:
        return f"When on {s.day:%A} would you like to study? For example '14-16' or 'from 2pm to 4pm'."
    lead = f"{s.problem} " if s.problem else ""
    return f"{lead}When would you like to study? For example '14-16 tomorrow' or 'from 2pm to 4pm on Friday'."


def presented(s: SchedulingSlots) -> str:
    if s.window is None:
        return "I couldn't make a plan."
    if s.add:
        moved = f"Added {' and '.join(s.add)}. "
    elif s.remove:
        moved = f"Took {' and '.join(s.remove)} out. "
    elif s.revised and s.repeat:
        moved = f"Moved from {hhmm(s.revised.start)}-{hhmm(s.revised.end)}. "
    else:
        moved = f"Moved from {s.revised.label()}. " if s.revised else ""
    pomodoro = (
        f"(Pomodoro: {STUDY_MINUTES} min study, {SHORT_BREAK} min breaks, {LONG_BREAK} min after every "
        f"{LONG_BREAK_EVERY}th)"
    )
    if s.repeat:
        days = [s.window.day, *s.repeat]
        lines = [
            f"{moved}📚 Your study plan for {len(days)} days, {hhmm(s.window.start)}-{hhmm(s.window.end)} each, "
            f"{days[0]:%A %d %B} to {days[-1]:%A %d %B} {pomodoro}:"
        ]
    else:
        lines = [f"{moved}📚 Your study plan for {s.window.label()} {pomodoro}:"]
    if s.priorities:
        lines.append(f"Prioritised from your analysis: {', '.join(s.priorities)}.")
    if s.repeat:
        lines += [
            f"📖 {day:%A %Y-%m-%d}: {_runs([x for x in s.sessions if x.day == day])}"
            for day in [s.window.day, *s.repeat]
        ]
    else:
        lines += [f"{i}. 📖 {x.start}-{x.end} {x.topic}" for i, x in enumerate(s.sessions, start=1)]
    if s.used_default:
        lines.append(
            "You didn't give a time, so I picked this one; say e.g. 'schedule study from 2pm to 4pm "
            "on Friday' for another."
        )
    return "\n".join(lines)


def _runs(sessions: list[StudySession]) -> str:
    """A day's sessions told by topic: "Chemistry ×2 (19:00-19:55), Biology ×2 (20:00-20:55)"."""
    runs: list[list[StudySession]] = []
    for x in sessions:
        if runs and runs[-1][-1].topic == x.topic:
            runs[-1].append(x)
        else:
            runs.append([x])
    return ", ".join(f"{r[0].topic} ×{len(r)} ({r[0].start}-{r[-1].end})" for r in runs)


def summary(s: SchedulingSlots) -> str:
    if s.window is None:
        return "Scheduling ended without a plan."
    listed = "; ".join(f"{x.start}-{x.end} {x.topic}" for x in s.sessions)
    how = " (prioritised by the analysis)" if s.priorities else ""
    verb = "revised" if s.revised else "saved"
    if s.repeat:
        days = ", ".join(d.isoformat() for d in [s.window.day, *s.repeat])
        topics = ", ".join(dict.fromkeys(x.topic for x in s.sessions))
        return f"Study plans {verb}{how} for {days}, {hhmm(s.window.start)}-{hhmm(s.window.end)} each: {topics}."
    return (
        f"Study plan {verb}{how} for {s.window.day.isoformat()} {hhmm(s.window.start)}-{hhmm(s.window.end)}: {listed}."
    )


def study_plan(s: SchedulingSlots) -> list[RecordDraft]:
    """The plan as a `study_plan` record; a plan over several days as one record a day, so each
    day is told, edited and dropped as a plan of its own ("drop the Friday one")."""
    if s.window is None:
        return []
    if s.repeat:
        # a revision of a plan over several days moves its hours, not its days: each day's
        # record replaces that day's plan at the old hours
        old = f"{hhmm(s.revised.start)}-{hhmm(s.revised.end)}" if s.revised is not None else None
        return [
            RecordDraft(
                kind="study_plan",
                data={
                    "date": day.isoformat(),
                    "window": f"{hhmm(s.window.start)}-{hhmm(s.window.end)}",
                    "prioritized": bool(s.priorities),
                    "sessions": [x.model_dump(mode="json", exclude={"day"}) for x in s.sessions if x.day == day],
                    **({"revises": {"date": day.isoformat(), "window": old}} if old else {}),
                },
            )
            for day in [s.window.day, *s.repeat]
        ]
    data: JsonObject = {
        "date": s.window.day.isoformat(),
        "window": f"{hhmm(s.window.start)}-{hhmm(s.window.end)}",
        "prioritized": bool(s.priorities),
        "sessions": [x.model_dump(mode="json", exclude={"day"}) for x in s.sessions],
    }
    if s.revised is not None:
        data["revises"] = {
            "date": s.revised.day.isoformat(),
            "window": f"{hhmm(s.revised.start)}-{hhmm(s.revised.end)}",
        }
    return [RecordDraft(kind="study_plan", data=data)]


def window_problem(s: SchedulingSlots) -> bool:
    """The window in the message cannot be used, or it named a day without hours: asked."""
    return s.problem is not None or (s.window is None and (s.day is not None or s.ask))


SUBJECT_WORDS = ("subject", "subjects", "topic", "topics", "materia", "matière", "sujet", "Fach", "Thema", "matéria")
SUBJECTS_SAID = Parser(lambda text: [name for _, name in sorted(named_subjects(text))] or None, "the subjects")

scheduling = Flow(
    name="scheduling",
    description="make a Pomodoro study plan in the user's time window, weakest topics first",
    persona="Study Pal, an organised study planner",
    slots=SchedulingSlots,
    states=[
        Step("read", run=read, initial=True),
        Ask(
            "window",
            slot="window",
            say=ask_window,
            parse=lambda s: window_parser(s.day),
            reprompts=[
                "Please give a start and end time, like '14-16 tomorrow' or 'from 2pm to 4pm on Friday'.",
                "Type a time range such as '15:00-17:00 today'.",
            ],
            help="I fit 25-minute study sessions with short breaks into the time you give me.",
            why="I fit 25-minute study sessions with short breaks into the time you give me.",
        ),
        Step("plan", run=plan),
        Final("done", summary=summary, say=presented, records=study_plan),
    ],
    transitions=[
        T("next", "read", "window", when=window_problem),
        T("next", "read", "plan"),
        T("answer", "window", "plan"),
        T("next", "plan", "done"),
    ],
    max_turns=6,
    llm_calls_per_turn=2,
    cancel_summary="Scheduling cancelled by the user; no plan saved.",
    # the subjects read from the request may be corrected at the time question ("oops, chemistry
    # not biology"); the plan is made from `subjects`
    correctable=(Correctable("subjects", names=SUBJECT_WORDS, parser=SUBJECTS_SAID),),
    # a subject said at the time question is the plan's ("chemistry" to "when would you like to
    # study?" was dropped for the course's topics)
    fills={"subjects": SUBJECTS_SAID},
)
