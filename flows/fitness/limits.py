"""The answer to "any injuries or limitations?", as people type it.

A no in any form ("none", "nope, not really", "not yet") is "none"; a bare yes ("I guess
so") asks which; a hedge ("yes but not sure") or a question back is undecided, so it is asked
again (a model may read it); a refusal ("rather not say") is asked again with a reason. An
injury is kept in the user's words, without the lead-in and chat around it: "bad left knee so
no running pls" -> "bad left knee, no running". A sentence about the body is never a goal,
even when it names a sport.
"""

from __future__ import annotations

import re

from engine.extract import Invalid, fold
from engine.yesno import hedged, read_yes_no
from flows.fitness.profile import NONE
from flows.fitness.readers import ACK, goal_named, is_none, parse_weight, plain
from flows.fitness.words import refusal, without_trailing_fillers

LIMIT_BODY = (  # whole words: "I sold my dumbbells" holds "old my", which is no injury
    # the side is part of what is named ("dodgy left knee"), never the part itself ("dodgy left")
    r"(?<!\w)(?:(?:bad|sore|weak|injured|torn|broken|chronic|old|stiff|dodgy|painful)\s+(?:(?:left|right|lower|upper)\s+)?\w+"
    r"|(?<!\w)\w++\s+(?:injury|pain|problems?|issues?|surgery|strain|sprain|condition)"
    r"|asthma|arthritis|diabetes|high blood pressure|a hernia|hernia|back pain|scoliosis)"
)
# a clause about the body is about an injury even when it has a level or goal word ("old
# runner's knee", "bad knee, can't do running")
BODY = re.compile(
    r"\b(?:injur\w*|pain\w*|hurts?|knees?|back|shoulders?|hips?|ankles?|wrists?|neck|elbows?|spine|sore|torn"
    r"|broken|surgery|asthma|arthritis|condition|heart|diabet\w*|hernia|joints?|feet|foot|legs?|arms?)\b"
    rf"|{LIMIT_BODY}"
)
_LIMIT_CUE = re.compile(
    rf"\b(?:i have|i've got|i've|i got|i suffer from|i'm recovering from|recovering from|i had|with)\s+"
    rf"(?:an?\s+|some\s+)?({LIMIT_BODY})\b"
)
# an injury said as a clause of its own in a longer message: "..., bad back"
_LIMIT_CLAUSE = re.compile(rf"(?:^|[,;.!]\s*|\band\s+)(?:an?\s+|my\s+)?({LIMIT_BODY})\s*(?:$|[,;.!])")
# an injury said by what is wrong with which part of the body, with the words around it up to
# the clause's end: "bad left knee from football", "torn meniscus in my right knee", "my lower back
# hurts when I run". "back" alone is a part only beside such a word ("I'm back" is no injury).
_HURT = (
    r"(?:bad|sore|weak|injured|torn|broken|chronic|stiff|dodgy|painful|pulled|twisted|sprained|strained"
    r"|busted|dislocated|fractured|herniated|slipped|wonky|tweaked|damaged)"
)
_PART = (
    r"(?:knees?|shoulders?|hips?|ankles?|wrists?|neck|elbows?|spine|meniscus|acl|mcl|hamstrings?|achilles"
    r"|tendons?|ligaments?|rotator cuff|calf|calves|groin|quads?|(?:lower|upper|my) back|discs?|joints?"
    r"|feet|foot|legs?|arms?|hands?|toes?|fingers?|shins?|ribs?)"
)
# a part of the body named: a change to the injuries names one ("pulled a hamstring, note that")
BODY_PART = rf"(?<!\w){_PART}(?!\w)"
# the words between what is wrong and the part name the part ("left", "lower"), never a time or a
# cause: "still sore from leg day" is training, not an injury
_SIDE = r"(?!(?:from|after|since|of|at|on|with|to|in|for|because|by)\b)[\w']+\s+"
# what was done to a part: "i hurt my knee", "twisted my ankle last week", "pulled a hamstring"
_DONE = r"(?:hurt|injured|twisted|pulled|sprained|strained|broke|tore|tweaked|dislocated|fractured|damaged|busted)"
_HURTING = re.compile(
    rf"(?<!\w)(?:{_HURT}\s+(?:{_SIDE}){{0,3}}?{_PART}"
    rf"|{_DONE}\s+(?:my|a|the|his|her)\s+(?:{_SIDE}){{0,2}}?{_PART}"
    # a part named in the plural takes the plural verb: "my knees hurt", "both shoulders are sore"
    rf"|(?:my\s+)?(?:(?:left|right|lower|upper)\s+)?{_PART}\s+(?:hurts?|aches?|(?:is|are) (?:bad|sore|weak|injured"
    rf"|dodgy|painful|busted|messed up|killing me)|(?:still )?gives? me (?:trouble|problems)"
    # "my lower back gets sore if i overdo it", "knees act up on stairs"
    rf"|gets? (?:sore|tight|stiff|painful|achy|tender|swollen)|acts? up|plays? up|flares? up))(?!\w)"
    # to the clause's end, or to what follows from it ("pulled a hamstring so note that")
    r"(?:(?!\s(?:so|which means|meaning)\b)[^,;.!?])*"
)
_I_DID = re.compile(rf"\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|also\s+|kinda\s+)?(?={_DONE}\s)")
_NO_LIMIT = re.compile(r"\b(?:i have|i've got|i've) no (?:injur(?:y|ies)|limitations?)\b|\bno injur(?:y|ies)\b")
# How an answer to "any injuries?" may start, before the injury itself.
_LIMIT_LEAD = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|well|um+|so)\b[,.!]?\s*)*(?:(?:i have|i've got|i've|i got|i suffer from"
    r"|i'm recovering from|recovering from|i had)\s+(?:an?\s+|some\s+)?)?",
    re.IGNORECASE,
)
# "so" and "which means" join the injury to what follows from it: "bad knee so no running"
_CONSEQUENCE = re.compile(r"(?<!\s)\s++(?:so|which means|meaning)\s++", re.IGNORECASE)


def limitation_cued(text: str) -> str | None:
    """An injury or limitation a sentence states after a cue or as a clause of its own ("I have a
    bad knee", "..., bad back"), or "none" for "no injuries": what any message may say in passing."""
    t = fold(text)
    if _NO_LIMIT.search(t):
        # "no injuries but a dodgy left knee": the injury the rest of it names, else none
        rest = _NO_LIMIT.sub(" ", t)
        if BODY.search(_INJURY_WORD.sub(" ", rest)):
            return limitation_in(rest) or NONE
        return NONE
    m = _LIMIT_CUE.search(t) or _LIMIT_CLAUSE.search(t)
    if m:
        return m.group(1)
    # what the user did to a part of the body, said of themselves: "oh btw i sprained my ankle last month"
    did = _I_DID.search(t)
    if did is None:
        return None
    said = _HURTING.match(t, did.end())
    return clean_limitation(said.group()) if said else None


def limitation_in(text: str) -> str | None:
    """An injury a clause states, cued or said by what is wrong with which part of the body ("bad
    left knee from football", "my lower back hurts"), with the words around it."""
    cued = limitation_cued(text)
    if cued is not None:
        return cued
    t = fold(text)
    said = _HURTING.search(t)
    if said is None:
        return None
    # the user's words, as typed, less the chat that ends them ("..., from football lol")
    hurt = clean_limitation(" ".join(text.split())[said.start() : said.end()]) if text.isascii() else None
    return hurt or clean_limitation(said.group())


def clean_limitation(text: str) -> str:
    """The injury in the user's words, less lead-in and chat: "yeah, dodgy shoulder tbh" -> "dodgy shoulder"."""
    t = " ".join(text.split())
    t = _LIMIT_LEAD.sub("", t)
    t = without_trailing_fillers(t)
    t = _CONSEQUENCE.sub(", ", t)
    return t.strip(" .!,;-")


_INJURY_WORD = re.compile(r"\binjur\w*(?:[- ]free)?\b")
# a part of the body said to be well names no injury: "nothing really, my knees are fine"
_WELL = re.compile(
    rf"(?:my\s+)?(?:(?:left|right|lower|upper|both)\s+)?{_PART}\s+(?:is|are|feel|feels|seem|seems)\s+"
    r"(?:(?:totally|perfectly|all|pretty|really)\s+)?(?:fine|ok|okay|good|great|alright|all right|healthy|strong)\b"
)


def parse_limitations(text: str) -> object:
    """The whole answer, less its lead-in and chat ("I have a bad knee and asthma" -> "bad knee and asthma")."""
    if is_none(text):
        return NONE
    t = fold(text)
    # none, then a remark that names no limitation ("none, thankfully", "nothing, I'm injury free")
    first, _, rest = t.partition(",")
    if rest.strip() and is_none(first) and not BODY.search(_INJURY_WORD.sub(" ", _WELL.sub(" ", rest))):
        return NONE
    # ...unless another part names one ("no injuries, but asthma")
    if (
        _NO_LIMIT.search(t)
        and read_yes_no(text) is not True
        and not BODY.search(_INJURY_WORD.sub(" ", _NO_LIMIT.sub(" ", t)))
    ):
        return NONE  # "non no injuries" (glossed "non aucune blessure")
    if refusal().search(t):
        return Invalid("No need for details: a word like “knee”, “back” or “asthma” is enough, or say “none”.")
    if not BODY.search(t):
        said = read_yes_no(text)
        if said is False:
            return NONE
        if hedged(text) or t.rstrip().endswith("?"):
            return None  # cannot decide: asked again (a model may read it)
        if said is True or plain(text) in ACK:
            return Invalid("Which injury or limitation? A few words are enough, e.g. “bad knee”, or say “none”.")
        if isinstance(goal_named(text), str) or isinstance(parse_weight(text), float):
            # free text would take "lose fat, 80 kg" as an injury; it answers a later stage instead
            return Invalid("That sounds like your goal; we'll get to goals next. First: any injuries or limitations?")
    cleaned = clean_limitation(text)
    return cleaned if len(cleaned) >= 2 else Invalid("Tell me about any injuries in a few words, or say “none”.")


def plan_around(limitation: str) -> str:
    """How a question names the limitation: "your bad knee", or the user's own words quoted."""
    if re.fullmatch(LIMIT_BODY, fold(limitation)):
        return f"your {limitation}"
    return f"your limitation (“{limitation}”)"
