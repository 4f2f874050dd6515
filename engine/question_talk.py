"""A question back, small talk or a call for help at the open question, when the message answers nothing.

`at_question` reads what engine/askback.py and engine/smalltalk.py find in the message only where it
gives no answer to the open question nor to any other slot the flow reads from any message: a
question the flow owns (`Aside.owns`) is answered by its aside; asking to wait with a short reason is
waiting; not understanding is a call for help.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from engine import askback, message_parts, requests
from engine.answer_checks import fills_other
from engine.askback import may_ask, question_back
from engine.commands import (
    AskBack,
    Chitchat,
    Help,
)
from engine.extract import Invalid, Parser, copied, fold
from engine.flow import Flow
from engine.models import FlowFrame, Slots
from engine.said import (
    asks_for_person,
    says_cancel,
    says_help,
    says_skip,
)
from engine.smalltalk import REMARKS, WAITING, greets, small_talk, talk_beside
from engine.states import Ask, render
from engine.yesno import read_yes_no

# the reason given beside asking to wait ("phone call", "someone at the door"): a few words
_WHY_WAITING_WORDS = 4


def at_question(
    flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None = None
) -> AskBack | Chitchat | Help | None:
    """`text` at `state`'s open question as a question back about it or as small talk, when the
    message gives no answer to it nor to any other slot the flow reads from any message
    (`checked`: the frame's slots as the turn validated them on load)."""
    # a flow that owns some questions (`Aside.owns`) reads them however they are put
    disputed = askback.disputes(text)
    if not may_ask(text) and not any(x.owns is not None for x in flow.asides) and not disputed:
        return None
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return None  # slots this code cannot read: the flow's own reading says what is wrong
    if requests.owned(flow, slots, text):
        # a question the flow declares its own (`Aside.owns`: "by the way could you remind me what a limit is" in
        # a lesson), however it opens: a question back about what the flow is about, answered by its aside
        return AskBack(words=text.strip(), about="other")
    if disputed and askback.offers(parser):
        # "i thought i did ok" at "shall I make a plan for your weak points?": what the offer is based on
        # disputed, neither a yes nor a no; answered as "why?" is, the offer still open
        return AskBack(words=text.strip(), about="why")
    if not may_ask(text):
        return None
    talk = small_talk(text)
    if talk is not None and "goodbye" in talk.kinds:
        return None  # leaving is put off or cancel at a question (read before), else the flow's to read
    if talk is not None:
        if parser.greedy and REMARKS & set(talk.kinds):
            return None  # at a free-text question a remark is an answer ("you're so helpful" as feedback)
        value = parser(text)
        # a value read from a greeting is an answer ("morning" to "what time of day?", "Ola" as a
        # name), and a yes or a no read from small talk is one; not a value that only copies the
        # words back ("thanks so far" as the equipment), nor one read from other small talk ("i'm so
        # tired today" names no day to study, "lmao" no injury), from asking to wait ("one sec" is
        # no 1) or from a greeting of several words ("buenas tardes" is no afternoon)
        taken = (
            value is not None
            and not isinstance(value, Invalid)
            # an agreeing word is a yes to a question that reads one as a value ("sure" to "shall we go on?")
            # a complaint names what is wrong ("the app is so slow" is latency where feedback asks the area)
            and (
                bool({"greeting", "complaint"} & set(talk.kinds))
                or isinstance(value, bool)
                or read_yes_no(text) is True
                or _named(value, talk.words)
            )
            and not copied(value, text)
            and not set(talk.kinds) <= WAITING
            and not greets(text)
        ) or (value is None and _named(parser(talk.words), talk.words))  # "ok, Vale": the small talk's word
        if (parser.greedy or not taken) and not fills_other(flow, slots, state, text):
            return Chitchat(words=talk.words, social=talk.kinds)
        return None
    beside = talk_beside(text)
    if beside is not None and parser.greedy:
        # where any text is an answer, only asking to wait beside a few words of why ("hang on, phone
        # call" at an exercise) is no answer; other small talk there may be one
        said, others = beside
        if set(said.kinds) <= WAITING and all(len(x.split()) <= _WHY_WAITING_WORDS for x in others):
            return Chitchat(words=said.words, social=said.kinds)
        beside = None
    if beside is not None:
        # small talk beside a short statement the question reads nothing from ("hold on a sec, dog is
        # barking"): small talk; a statement it reads is an answer ("sorry, 3 days")
        said, others = beside
        # nor one that says a command ("ugh this is taking forever - just cancel it - i have a lot to do")
        commands = any(says_cancel(x) or says_skip(x) or says_help(x) or asks_for_person(x) for x in others)
        if (
            not commands
            and all(parser(x) is None for x in (*others, text))
            and not fills_other(flow, slots, state, text)
        ):
            return Chitchat(words=said.words, social=said.kinds)
        return None
    question = _what_is_asked(state, slots, parser)
    asked = question_back(text, parser, free_text=parser.greedy, question=question)
    # an open question states nothing ("what counts as flexitarian?" gives no diet, "is 5 the best?" no rating)
    # nor does a question on how to answer ("should I mention the bugs here?" names no category)
    stating = any(
        p.role not in ("open", "filler") and not askback.asks_how_to_answer(p) for p in message_parts.parts(text)
    )
    if asked is None or (stating and fills_other(flow, slots, state, text)):
        return None
    if asked.help or _not_understood(text):
        # "what are you asking exactly? i don't get it": not understanding the question, said beside asking
        # about it, calls for help (the reason, what it needs, the question), in any language
        return Help(words=asked.words)
    return AskBack(words=asked.words, about=asked.about)


def _not_understood(text: str) -> bool:
    """Whether a statement of the message says the user does not understand ("no entiendo", "je comprends pas"):
    a part that is a call for help on its own (engine/said.py)."""
    return any(p.role == "statement" and says_help(text[p.start : p.end]) for p in message_parts.parts(text))


def _named(value: object, words: str) -> bool:
    """Whether the question read one word of small talk back as a proper noun: "Vale" (or "ok, Vale")
    to "what's your name?" is a name; at any other question "vale" acknowledges."""
    if not isinstance(value, str) or " " in value.strip() or not value[:1].isupper():
        return False
    return fold(value) in re.findall(r"[\w'-]+", fold(words))


def _what_is_asked(state: Ask, slots: Slots, parser: Parser) -> str:
    """The words of the open question, its help, its reason and what its parser expects."""
    try:
        said = render(state.say, slots)
    except Exception:  # a question that needs more than its slots to say: its help and reason still tell
        said = ""
    why = render(state.why, slots) if state.why else ""
    return " ".join((said, state.help, why, parser.expects))
