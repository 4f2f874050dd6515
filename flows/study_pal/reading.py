"""Reading what a learner says during a lesson: answers to the flow's questions, and the
asides that are not answers ("show me the answer", discouragement, another topic, "give me
another", a hint, a question about the lesson, off-course talk, a thanks). Leaving the
lesson is read in flows/study_pal/exits.py.

Keywords decide first; a model is asked only where they cannot, and the safe default on
doubt is to carry on with the lesson.
"""

from __future__ import annotations

import re
from typing import Any

from wordfreq import zipf_frequency

from engine import StepContext, picked
from engine.extract import Invalid, Parser, ruled_out
from engine.said import says_not_understanding
from engine.smalltalk import small_talk
from engine.yesno import read_yes_no
from flows.study_pal.course import Course
from flows.study_pal.exits import asks_plan_instead, exit_decision, leaves_for_now
from flows.study_pal.kept import asked_first, says_known
from flows.study_pal.lesson import (
    Ctx,
    TutoringSlots,
    course_of,
    current_chunk,
    in_exercise,
    title_of,
)
from flows.study_pal.marking import attempted, has_math, spelled_out, yes_or_no
from flows.study_pal.mastery import percent
from flows.study_pal.memory import StudyMemory
from flows.study_pal.subjects import named_subjects
from flows.study_pal.texting import plain

# -- parsing the answers to the flow's questions ---------------------------------------------


def concept_parser(s: TutoringSlots) -> Parser:
    course = course_of(s)

    def rule(text: str) -> object:
        # a topic ruled out is not the one picked ("not limits, derivatives", "nicht Grenzwerte, lieber Ableitungen")
        lowered = text.lower()
        named = asked_first(course, text, [cid for at, cid in course.mentions(text) if not ruled_out(lowered, at)])
        # the question lists the topics in the course's order: "the second one" picks too
        return (named[0] if named else None) or picked(text, course.order)

    return Parser(rule, f"a topic: {course.menu()}")


def exercise_parser(s: TutoringSlots) -> Parser:
    """The answer to the current exercise, right or wrong, as typed; a reply that is no attempt at
    it (flows/study_pal/marking.py `attempted`) is refused, so it is graded as nothing and uses no try."""
    exercise = current_chunk(s).exercise if in_exercise(s) else None

    def rule(text: str) -> object:
        t = text.strip()
        if exercise is None or attempted(exercise, t):
            return t or None
        kind = "the letter of an option" if exercise.is_choice else "a number or an expression"
        return Invalid(
            f"That doesn't look like an answer to the exercise. Type {kind}, or say 'hint' or 'show me the answer'."
        )

    return Parser(rule, "your answer to the exercise", greedy=True)


_INSIST = re.compile(r"\b(anyway|anyways|insist|straight|directly|right away|just teach|skip (?:it|that))\b", re.I)


_UNDERSTAND = re.compile(r"\bi (?:already |kinda |pretty much )?(?:get|understand)\s++(\w+)", re.I)


def offer_parser(s: TutoringSlots) -> Parser:
    """yes -> teach the prerequisite first; no / "X anyway" -> teach what was asked."""
    course = course_of(s)

    def rule(text: str) -> object:
        if _INSIST.search(text) or says_known(text):  # "I already know limits": straight on
            return False
        if (m := _UNDERSTAND.search(text)) and course.find(m.group(1)) == s.offer:
            return False  # "hmm not really, i think i get limits": the prerequisite is understood
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


# -- asides --------------------------------------------------------------------------------


def keep_message(ctx: StepContext[Any]) -> str | None:
    """Not an aside: remembers the message for analysis' "did they ask for a plan?" check."""
    ctx.shared(StudyMemory).remember(ctx.text)
    return None


def leave(ctx: Ctx) -> str | None:
    """END leaves; CONTINUE lets the other asides and the answer have the message. Undecided
    ("I might stop soon"): the lesson stays, the message is not graded, and the user is told
    how to stop."""
    decision = exit_decision(ctx)
    if decision == "END":
        # "gotta run, let's pick this up tomorrow": kept for later; "I'm done for today": finished
        # "actually can you make me a study plan first": put aside for the plan, its place kept too
        if (leaves_for_now(ctx.text) or asks_plan_instead(ctx.text)) and ctx.slots.concept is not None:
            ctx.slots.paused = True
            ctx.shared(StudyMemory).lesson_paused = True  # the analysis that follows leaves it open
        return "exit"
    if decision == "CONTINUE" or not in_exercise(ctx.slots):
        return None
    ctx.say("We can stop whenever you like: say 'I'm done for today' to finish, or keep going with the exercise.")
    return ""


# Giving up on the exercise asks for its answer too: the learner wants it shown and the lesson to
# go on, not encouragement and the same exercise again. It is read before the motivator, which
# keeps "too hard", "I'm lost" and a "give up" outside an exercise; "I give up for today" is an
# exit, read before either.
_REVEAL = re.compile(
    r"\b(?:show|tell|give)(?: me)? (?:the |your )?(?:answer|solution)\b|\bwhat(?:'s| is) the (?:answer|solution)\b|"
    r"\b(?:reveal|just tell me)\b|\b(?:the )?(?:answer|solution),? please\b|"
    # "no idea, just show me": the exercise's answer, never "just show me how limits work"
    r"\bjust show me(?: it| already| pls| please)?\s*(?:$|[.,;!?])|"
    r"\bi(?:'ll| will)? give up\b|\bi'?m giving up\b|\bi give in\b|"
    # the answer asked for in the five other languages the learners write in
    r"\b(?:dime|muéstrame|muestrame|enséñame|zeig mir|sag mir|montre-moi|dis-moi|dimmi|mostrami|me mostra|me diz"
    r"|me diga|mostra-me|diz-me) (?:la|die|a) (?:respuesta|solución|solucion|antwort|lösung|losung|réponse|reponse"
    r"|solution|risposta|soluzione|resposta|solução|solucao)\b",
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
    if request is None and (
        not in_exercise(s) or is_question(ctx.text) or attempted(current_chunk(s).exercise, ctx.text)
    ):
        return None  # no request, and no bare topic said instead of an answer ("derivatives please")
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
    r"next,? please|move on|one more|i'?ll pass|pass on (?:this|that)(?: one)?)\b|^\W*(?:next|pass)\W*$"
    # after an acknowledgement, a bare "next" moves on too ("got it, next", "ok cool next")
    r"|^\W*(?:(?:ok(?:ay)?|k+|cool|got it|alright|right|fine|sure|great|nice|thanks|understood|i see)\W+)+"
    r"(?:next|pass)\W*$",
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
    r"^\s*(?:(?:but|so|wait|hm+|ok|okay|oh|also|sorry|btw|by the way),? )*(why|how|what|what'?s|whats|which|explain|"
    r"can you explain|could you explain|i don'?t (?:understand|get)|i do not understand|i'?m confused|"
    r"what does|where does|where did|is there|are there|(?:can|could) (?:you|u)|does|do (?:we|i|you)|should|"
    r"remind me)\b",
    re.I,
)


def is_question(text: str) -> bool:
    # not understanding, in any language the engine reads ("no entiendo"), asks to have it explained
    return bool(_QUESTION.search(text)) or says_not_understanding(text)


def owns_question(text: str, s: TutoringSlots) -> bool:
    """A request that asks to have something of the course explained ("by the way could you remind me what
    a limit is", "can you tell me what the chain rule is"): the lesson's own question, which the course
    answers now, not a request for something else kept for after the lesson (engine/requests.py)."""
    if not (in_exercise(s) or s.offer is not None) or not _DEFINES.search(plain(text).lower()):
        return False
    course = course_of(s)
    return course.find(text) is not None or _part_about(course, _terms(text)) is not None


_LETTER = re.compile(r"\b[a-z]\b", re.I)  # an option letter


def asks_back(text: str) -> bool:
    """A question that cannot be an answer ("is this on the exam?"): it ends in "?", has a few
    words, and no number, symbol, option letter or yes/no in it ("4?", "c?", "yes?" are answers)."""
    if not text.rstrip().endswith("?") or len(text.split()) < 3:
        return False
    said = spelled_out(text)
    return not (has_math(said) or _LETTER.search(said)) and yes_or_no(text) is None


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
    if not (is_question(ctx.text) or asks_back(ctx.text)) and named in (None, s.concept):
        return None  # "4?" is an answer; only "derivatives?" (another topic) is a question
    if in_exercise(s) and named in (None, s.concept):
        chunk = current_chunk(s)
        material = chunk.explain  # the part at hand
        # what the question asks to have explained ("what's the chain rule?"), not one about the lesson
        # itself ("is this on the exam?"), which the part at hand answers as before
        terms = _terms(ctx.text)
        if terms and not _holds(material, terms) and _holds(chunk.hint, terms):
            material = chunk.hint  # "why do we factor it?": the exercise's own hint says
    else:
        about = course.concept(named or s.offer or "")  # another topic; at an offer, "why?" is about it
        material = f"{about.title}: {about.chunks[0].explain}"
    terms = _terms(ctx.text)
    if (
        named in (None, s.concept)
        and terms
        and not _holds(material, terms)
        and _DEFINES.search(plain(ctx.text).lower())
    ):
        # "wait what's the chain rule again?" in a lesson on limits, "what's a tangent line?" when limits
        # are offered: the part at hand says nothing of it; the course's part that does answers, and the
        # course that has none says so
        found = _part_about(course, terms)
        if found is None:
            ctx.say(f"That isn't in this course's lessons ({' '.join(terms)}), so I can't explain it well here.")
            return ""
        material = found
    # "i dont get it", "im confused" ask nothing: no "good question" for them
    opener = "Let me explain." if says_not_understanding(ctx.text) else "Good question."
    ctx.say(ctx.phrase(f"{opener} {material}", "answer:tutoring"))
    return ""  # the lesson stays at the same chunk


# words of a question that ask, not what it is about ("can you explain that again?"): never its terms
_ASKING = frozenset(
    {"explain", "confused", "understand", "mean", "meant", "example", "again", "question", "exercise", "answer",
     "hint", "lesson", "part", "step", "help", "sorry", "wait", "lost", "repeat", "clarify", "tell", "show",
     "about", "exactly", "really", "thing", "stuff", "work", "works", "bit", "idea", "remind", "means"}
)  # fmt: skip
# a question that asks to have something explained
_DEFINES = re.compile(
    r"\b(?:what(?:'s| is| are| was| were)|whats|what about|explain|how (?:does|do|did|is) .{1,40}(?:work|mean)"
    r"|tell me about|remind me (?:of|about|what))\b"
)
# a word this common is no term of the course ("what", "that", "does")
_COMMON_ZIPF = 5.2


def _terms(text: str) -> list[str]:
    """The words a question is about: not the asking words, not the commonest ones."""
    words = re.findall(r"[a-z]{4,}", plain(text).lower())
    return [w for w in dict.fromkeys(words) if w not in _ASKING and zipf_frequency(w, "en") < _COMMON_ZIPF]


def _holds(material: str, terms: list[str]) -> bool:
    """Does `material` say every term (a plural or another ending of it too)?"""
    said = set(re.findall(r"[a-z]+", material.lower()))
    return all(any(w.startswith(t[:5]) or (t.startswith(w) and len(w) >= 4) for w in said) for t in terms)


def _part_about(course: Course, terms: list[str]) -> str | None:
    """The first part of the course that says every term, as its concept's title and its text."""
    for concept in course.concepts:
        for chunk in concept.chunks:
            if _holds(f"{concept.title} {chunk.explain}", terms):
                return f"{concept.title}: {chunk.explain}"
    return None


def pleasantry(text: str) -> bool:
    """Whether `text` only thanks or reacts ("thanks!", "makes sense", "vale", "merci beaucoup"): the engine's
    small talk reader (engine/askback.py), in the six languages."""
    talk = small_talk(text)
    return talk is not None and set(talk.kinds) <= {"thanks", "reaction"}


def acknowledge(ctx: Ctx) -> str | None:
    """A "thanks" or a "makes sense" after feedback is not an attempt at the next exercise."""
    if not in_exercise(ctx.slots):
        return None  # at an offer or a topic choice, "ok" is a yes
    talk = small_talk(ctx.text)
    ctx.say("You're welcome!" if talk is not None and "thanks" in talk.kinds else "Good.")
    return ""


# a message that only buys time or reacts ("brb", "hmm", "hold on let me think", "lol this is fun")
_STALL = re.compile(
    r"\A(?:(?:ok|okay|um+|uh+|h+m+|so|wait|lol|haha+|hehe+|sorry|back|i'?m back)\W*)*"
    r"(?:brb|be right back|(?:one|a|just a) (?:sec|second|min|minute|moment)|"
    r"give me a (?:sec|second|min|minute|moment)|hold on|hang on|wait|let me think|thinking|"
    r"h+m+|u+m+|u+h+|lol|lmao|haha+|hehe+|this is (?:fun|hard|tricky|cool)|fun)"
    r"(?:\W+(?:let me think|lol|haha+|this is (?:fun|hard|tricky|cool)))*",
)


def stalls(text: str) -> bool:
    return bool(_STALL.fullmatch(re.sub(r"[^\w\s']+", " ", plain(text).lower()).strip()))


def take_your_time(ctx: Ctx) -> str | None:
    """ "hmm", "brb", "hold on let me think": no attempt at the exercise, which waits."""
    if not in_exercise(ctx.slots):
        return None
    ctx.say("Take your time.")
    return ""
