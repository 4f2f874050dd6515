"""The read stage of a turn: the message, against the loaded session and what the last turn
left, into a `Reading` (engine/commands.py). Nothing here changes the session: the turn
executes what is read (engine/turn.py).

The order decides who gets the message: a person holding the conversation, then the cancel
and help commands, then an interrupting flow the open question allows, then the open flow
itself; with no flow open, the answer to a flow asked back, the bot's entry rule (onboarding
first, or its paused run resumed), then the main conversation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.amend import amendments
from engine.bot import Bot
from engine.commands import (
    AnswerFlow,
    Cancel,
    Chitchat,
    Command,
    Handoff,
    Held,
    Help,
    Reading,
    Resume,
    Skip,
    StartFlow,
    YesNo,
)
from engine.corrections import correction_commands
from engine.extract import fold, read_yes_no
from engine.handoff import hold_of
from engine.models import CarryOver, SessionState, StoredRecord
from engine.said import said
from engine.states import Ask

CANCEL_WORDS = {"cancel", "stop", "abort", "cancel this", "stop this", "/cancel"}
HELP_WORDS = {"help", "/help", "?", "help me", "what do you need?"}

# Words that only say the user is back after a pause: the paused question is asked again, not answered.
_COMING_BACK = re.compile(
    r"(?:(?:hi|hello|hey|hiya|yo|hallo|hola|ok|okay|so)[ ,!]*)?(?:again|there|i'?m back|back|continue|resume"
    r"|let'?s (?:continue|go on|carry on)|where were we)?"
)


def read(
    bot: Bot,
    session: SessionState,
    carried: CarryOver,
    text: str,
    entry: Callable[[], str | None],
    latest: Callable[[str], StoredRecord | None] | None = None,
) -> Reading:
    """What `text` asks for; `entry` runs the bot's entry rule (asked only when no flow is open
    and no question asked back is answered); `latest` finds the user's saved records a message
    may amend (engine/amend.py)."""
    word = " ".join(text.lower().split()).rstrip(".!")
    commands: list[Command]
    a = session.active
    here = bot.flow_for(a).named.get(a.state) if a is not None else None
    # like cancel and help, these come before the flow's asides (some asides match any text)
    asking = isinstance(here, Ask)
    command = said(text, a.flow if a else None)  # cancel, help, a person or a skip, alone or in a sentence
    if hold_of(session) is not None:
        commands = [Held(words=text, leave=word in CANCEL_WORDS)]
    elif word in CANCEL_WORDS or command == "cancel":
        commands = [Cancel(words=text)]
    elif word in HELP_WORDS or command == "help":
        commands = [Help(words=text)]
    elif asking and command == "person" and not (bot.people and _aside_for(bot, session, text)):
        commands = [Handoff(words=text)]
    elif asking and command == "skip" and not _aside_for(bot, session, text):
        commands = [Skip(words=text)]
    elif a is not None:
        flow = bot.flow_for(a)
        open_to = flow.interrupts if isinstance(here, Ask) and here.interruptible else ()
        interrupt = bot.intent_for(text, allowed=open_to) if open_to else None
        if interrupt:
            commands = [StartFlow(words=text, flow=interrupt, via="interrupt")]
        else:
            # an earlier answer corrected ("wait, I meant 3") is read first; the rest answers the question
            fixes, rest = correction_commands(flow, a.state, a.slots, text)
            commands = [*_replies(carried, text), *fixes, AnswerFlow(words=rest, flow=a.flow, state=a.state)]
    else:
        commands = _main(bot, session, carried, text, entry, latest)
    answered = any(isinstance(c, (AnswerFlow, Resume)) for c in commands)
    return Reading(text=as_read(carried, text) if answered else text, commands=commands)


def _aside_for(bot: Bot, session: SessionState, text: str) -> bool:
    """Whether the open flow has an aside for the words: a lesson reads "pass" as giving up its
    exercise, support files what was answered so far when it hands over to a person. A person
    asked for where the bot has none is still the engine's to answer (some asides take any text)."""
    a = session.active
    return a is not None and any(x.match(text) for x in bot.flow_for(a).asides)


def _main(
    bot: Bot,
    session: SessionState,
    carried: CarryOver,
    text: str,
    entry: Callable[[], str | None],
    latest: Callable[[str], StoredRecord | None] | None = None,
) -> list[Command]:
    """With no flow open: a question asked back is answered now or not at all, then the entry
    rule, then a change to a saved record (its flow's update path), then the main conversation."""
    asked = carried.confirm
    out: list[Command] = []
    if asked is not None and bot.has_flow(asked):
        out.append(YesNo(words=text, to="confirm", subject=asked, yes=read_yes_no(text)))
        if out[0].yes is not None:  # type: ignore[union-attr]
            return out
    name = entry() if bot.entry else None
    if not name:
        changes = amendments(bot, text, latest) if latest is not None else []
        return [*out, *(changes or [Chitchat(words=text)])]
    paused = next((f for f in reversed(session.stack) if f.flow == name and f.paused), None)
    if paused is None:
        return [*out, StartFlow(words=text, flow=name, via="entry")]
    # after "cancel" paused the run, the next message may answer its open question ("polish");
    # one that asks for an activity the flow lets interrupt it starts that at once, the run
    # staying paused; "hi again" answers nothing, even where any text is an answer
    flow = bot.flow(name)
    interrupt = bot.intent_for(text, allowed=flow.interrupts) if flow.interrupts else None
    if interrupt:
        return [*out, StartFlow(words=text, flow=interrupt, via="interrupt")]
    if not isinstance(flow.state(paused.state), Ask) or _COMING_BACK.fullmatch(fold(text).strip(" !.,?")):
        return [*out, StartFlow(words=text, flow=name, via="entry")]
    return [*out, *_replies(carried, text), Resume(words=text, flow=name)]


def _replies(carried: CarryOver, text: str) -> list[Command]:
    """A yes or a no to what the last turn put to the user at the open question: a suggested
    value first, then an offered message (the flow's executor decides what each does)."""
    if carried.suggested is None and carried.offered is None:
        return []
    yes = read_yes_no(text)
    out: list[Command] = []
    if carried.suggested is not None:
        out.append(YesNo(words=text, to="suggested", subject=carried.suggested, yes=yes))
    if carried.offered is not None and not (yes is True and carried.suggested is None):
        out.append(YesNo(words=text, to="offered", subject=carried.offered, yes=yes))
    return out


def as_read(carried: CarryOver, text: str) -> str:
    """The message the open question reads: after an aside's "Did you mean English?", a yes is
    read as the message it offered ("I want to learn English"); a value suggested at the same
    time is answered first (its executor takes the yes)."""
    if carried.offered is not None and carried.suggested is None and read_yes_no(text) is True:
        return carried.offered
    return text
