"""Exit intent in a lesson: does the user want to end the tutoring session, or go on?

Keywords first, as the study assistant's design says; its exit signals ("I'm done",
"finish", "that's all", "Thanks for your help", "Can you analyze my session?", "Let's
schedule a study plan") all end the lesson. Asking for the analysis or a plan, or to go on
another time, ends (unless it is asked for besides the lesson: "can you also schedule a session
for friday?" is kept for after it); asking for more tutoring ("done with this one, give me the next",
"that's all for limits, can you help me with derivatives?") continues; an ending phrase
ends; a bare "thanks" continues. Only a message with an exit word that none of these
settles goes to a configured model (temperature 0, END or CONTINUE); offline, or when the
model fails or says nothing, the decision is left open and the lesson stays.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine import StepContext
from flows.study_pal.texting import plain


def llm_configured(ctx: StepContext[Any]) -> bool:
    """Whether a real language model is behind ctx.parse (it is asked only what the keywords
    cannot decide)."""
    return ctx.llm_backend != "rules"


# saying goodbye: ends a lesson, and declines what the bot offers ("see you tomorrow")
LEAVING = (
    r"\b(?:good)?bye\b|\bsee (?:you|ya)\b|\b(?:gotta|got to|have to|need to|must) (?:go|run|leave)\b|"
    r"\btalk to you later\b|\b(?:good ?night|night night)\b|\bi'?m (?:off|out|leaving)\b"
)
_LEAVING = re.compile(LEAVING, re.I)


def says_goodbye(text: str) -> bool:
    return bool(_LEAVING.search(plain(text)))


# asking for the analysis or a plan
_EXIT_WANTS_NEXT_FLOW = re.compile(
    r"\banaly[sz]\w*(?!\s+(?:th(?:e|is|at)\s+)?(?:function|graph|limit|equation|expression|curve|derivative))|"
    r"\bschedul\w*|\bstudy plan\b|\bplan (?:my|a|the|some|out)\b|\bcalendar\b|\btimetable\b|"
    r"\bwhen should i\b|\bweak (?:points?|spots?|areas?)\b|\bhow (?:did i do|am i doing)\b",
    re.I,
)
# "later" of the lesson: said alone ("maybe later", "ok later then"), of it ("let's do the rest later") or as a
# goodbye ("catch you later"); in a clause about something else ("i want to give feedback later", "remind me
# later") it puts that off, not the lesson
_LATER = (
    r"^\W*(?:(?:ok(?:ay)?|alright|maybe|fine|hm+|um+|so|then|nah|no|nope|eh)\W+)*later(?:\W+(?:then|ok|maybe|please|pls|on|"
    r"today|tonight))*\W*$|\b(?:this|it|that|these|the rest|the lesson|the exercises?|more)\s+later\b|"
    r"\bcatch (?:you|ya) later\b|\bback later\b"
)
_EXIT_END = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are)\s+(?:all\s+)?(?:done|finished|through)\b(?!\s+with\s+(?:this|that|the)\s)|"
    r"^\W*(?:ok(?:ay)?\W*|alright\W*|right\W*)?(?:done|finished|finish|enough|stop|quit|exit|end|over)"
    r"(?:\W*(?:please|now|thanks|thank you))?\W*$|\bi (?:quit|give up for today)\b|"
    r"\bi'?m good for (?:now|today)\b|"
    r"\b(?:done|finished) for (?:today|now|the day|tonight)\b|\bthat'?s (?:all|it|enough)\b|\bthat is (?:all|it)\b|"
    r"\benough for (?:today|now)\b|\bthanks? (?:you )?(?:so much |a lot |very much )?for (?:your |the |all the )?"
    r"(?:help|lesson|session|time|tutoring)\b|" + LEAVING + "|"
    r"\b(?:let'?s|i want to|i'?d like to|can we|could we|i wanna) (?:stop|end|finish|quit|wrap (?:it |this )?up)\b|"
    r"\bstop (?:for (?:today|now)|here|the lesson|now)\b|\bcall it a (?:day|night)\b|\bwrap (?:it |this )?up\b|"
    r"\bpause\b|\bno more\b|\bend (?:the |this |our )?(?:session|lesson|tutoring)\b|\bfinish (?:the |this |our )?"
    r"(?:session|lesson|tutoring|here|now|up)\b|" + _LATER + r"|\b(?:need|take|taking) a break\b",
    re.I,
)
_EXIT_CONTINUE = re.compile(
    r"\b(another|next (?:one|problem|question|exercise|part)|(?:the|a) next\b|more (?:problems|exercises|questions|"
    r"practice)|one more|keep going|go on|help me with|teach me|explain|"
    r"can (?:we|you) (?:do|try|move|go|help|teach|explain)|move on|what about|how about|let'?s (?:do|try|move|go|"
    r"learn|study|continue)|continue|skip|done with (?:this|that|the) (?:one|problem|question|exercise|part))\b",
    re.I,
)
_EXIT_WORDS = re.compile(r"\b(done|finish\w*|enough|stop\w*|quit|bye|leave|exit|pause)\b", re.I)
_ONLY_THANKS = re.compile(r"^\W*(?:(?:ok(?:ay)?|great|cool|nice|perfect|awesome)\W*)?(?:thanks|thank you|thx)"
                          r"(?: (?:so much|a lot|very much))?\W*$", re.I)  # fmt: skip


# "can you also schedule a session for friday?", "make me a plan after this": a plan or an analysis
# asked for besides the lesson, not instead of it; the engine keeps it for after (engine/requests.py)
_BESIDES = re.compile(r"\b(?:also|as well|too|afterwards?|after (?:this|that|the lesson|we'?re done))\b", re.I)


def asks_besides(text: str) -> bool:
    """A plan or an analysis asked for besides the lesson, with no ending said."""
    return bool(_EXIT_WANTS_NEXT_FLOW.search(text) and _BESIDES.search(text) and not _EXIT_END.search(text))


def may_exit(text: str) -> bool:
    """The keyword prefilter: only these messages are classified END / CONTINUE at all."""
    text = plain(text)
    if asks_besides(text):
        return False
    return any(p.search(text) for p in (_EXIT_WORDS, _EXIT_END, _EXIT_WANTS_NEXT_FLOW, _PUT_OFF, _FOR_NOW))


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


Decision = Literal["END", "CONTINUE"]


_PUT_OFF = re.compile(
    r"\b(?:continue|carry on|go on|pick (?:this|it) up|do (?:this|more|the rest)|finish (?:this|it))\s+"
    r"(?:later|tomorrow|another (?:time|day)|next time|some other time)\b",
    re.I,
)


# Leaving for now rather than finishing: going away ("gotta run", "see you tomorrow"), putting the
# rest off ("let's pick this up tomorrow"), a pause or a break. The lesson is kept for later, with
# no analysis of a session that is not over; "I'm done for today", "that's all" finish it.
_FOR_NOW = re.compile(
    LEAVING + r"|\bpause\b|\b(?:need|take|taking|have) a (?:short |quick )?break\b|"
    r"\bback (?:later|soon|tomorrow)\b|"
    # "let's continue later", "we can go on with limits tomorrow", "pick this up tomorrow" (a few words between)
    r"\b(?:continue|carry on|go on|pick (?:this|it|that) (?:back )?up|take (?:this|it|that) up|do (?:the )?rest|"
    r"finish (?:this|it))(?:\s+[\w']+){0,4}?\s+(?:later|tomorrow|another (?:time|day)|next time|some other time)\b|"
    r"\b(?:till|until) (?:tomorrow|later|next time)\b",
    re.I,
)


_PLAN_ASKED = re.compile(
    r"\bschedul\w*|\bstudy plan\b|\bplan (?:my|a|the|some|out)\b|\bcalendar\b|\btimetable\b|\bwhen should i\b", re.I
)


# a plan wanted before the lesson goes on, not after it: "actually ... first", "... now", "... instead"
_BEFORE_GOING_ON = re.compile(
    r"\b(?:first|(?:right )?now|instead|actually|before (?:that|we (?:go on|continue)|continuing)|real quick)\b", re.I
)


def asks_plan_instead(text: str) -> bool:
    """A plan asked for before the lesson goes on, with no ending said ("actually can you make me a study plan
    first"): the lesson is put aside for it, its place kept, not finished. "I'm done, can you plan my week?"
    finishes it, and so does the seed's exit signal "Let's schedule a study plan"."""
    text = plain(text)
    return bool(_PLAN_ASKED.search(text) and _BEFORE_GOING_ON.search(text)) and not _EXIT_END.search(text)


def leaves_for_now(text: str) -> bool:
    """An ending that keeps the lesson for later (a pause), not one that finishes it."""
    return bool(_FOR_NOW.search(plain(text)))


def exit_by_rules(text: str) -> Decision | None:
    """Keywords: asking for the analysis or a plan, or to go on another time, ends; asking for
    more tutoring continues; an ending phrase ends; a bare "thanks" continues. None: the
    keywords cannot decide. Chat spellings ("thank u for ur help", "cya") are read written out."""
    text = plain(text)
    if _EXIT_WANTS_NEXT_FLOW.search(text) or _PUT_OFF.search(text):
        return "END"
    if _EXIT_CONTINUE.search(text) or _ONLY_THANKS.search(text):
        return "CONTINUE"
    if _EXIT_END.search(text):
        return "END"
    return None


def exit_decision(ctx: StepContext[Any]) -> Decision | None:
    """The rules when they decide; else a configured model's temperature-0 verdict. None when
    neither decides (offline, or the model failed or said nothing): the safe default then is
    to stay in the lesson."""
    decided = exit_by_rules(ctx.text)
    if decided is not None or not llm_configured(ctx):
        return decided
    verdict = ctx.parse(ExitIntent, "classify:exit")
    return verdict.decision if verdict is not None else None
