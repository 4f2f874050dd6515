"""The read stage with no flow open: a flow asked back, the entry rule, a saved record, the main conversation.

A yes or a no to the flow the last turn asked about comes first; a put-off with a run paused keeps it
paused; "let's continue" with a run put off resumes it; a value for the field of a saved record asked
for, a change to a saved record or a question about it (a flow's update path, engine/amend.py); several
requests at once, each in turn; else small talk for the main conversation. A paused run is resumed at
its question, or its entry flow started, unless the message is small talk or a put-off of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.amend import amendments, answered, recalled
from engine.bot import Bot
from engine.carried import carried_replies
from engine.commands import (
    Cancel,
    Chitchat,
    Command,
    NewRequest,
    Resume,
    StartFlow,
    YesNo,
)
from engine.extract import fold
from engine.fact_clauses import clauses as fill_clauses
from engine.models import CarryOver, SessionState, StoredRecord
from engine.requests import several
from engine.said import (
    says_later,
    says_putting_off,
    says_resume,
)
from engine.smalltalk import COMING_BACK, SmallTalk, greets, small_talk
from engine.states import Ask
from engine.yesno import read_yes_no


def read_main(
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
        out.append(YesNo(words=text, to="confirm", subject=asked, yes=read_yes_no(text), request=carried.confirm_words))
        if out[0].yes is not None:  # type: ignore[union-attr]
            return out
    waiting = next((f for f in reversed(session.stack) if f.paused), None)
    if waiting is not None and says_later(text) and small_talk(text) is None:
        # "leave it for tomorrow" while a run is paused: it stays paused (it was resumed and the words
        # taken as its answer); said back, never dropped. A goodbye ("good night!") is small talk, said back
        return [*out, Cancel(words=text, later=True)]
    name = entry() if bot.entry else None
    if waiting is not None and waiting.flow != name and _going_on(text, waiting.flow):
        # "let's continue", "where were we" with a run put off that the entry rule does not bring back
        # (a feedback, a lesson, a clarification): it carries on at its question
        return [*out, StartFlow(words=text, flow=waiting.flow, via="entry")]
    # "What should your goal be?" was asked: this message is its value, unless it gives none
    if (
        not name
        and carried.amending is not None
        and latest is not None
        and (value := answered(bot, text, latest, carried.amending, carried.suggested))
    ):
        return [*out, *value]
    if not name:
        # only a flow with an update path (`Flow.amends`) has records a message may change or ask about: a bot
        # without one has neither reader asked (each folds and searches the message before it looks at the flows)
        saved = latest if latest is not None and any(f.amends is not None for f in bot.flows) else None
        changes = amendments(bot, text, saved) if saved is not None else []
        recall = recalled(bot, text, saved) if saved is not None and not changes else None
        if recall is not None:
            return [*out, recall]
        if not changes and len(asks := several(text)) > 1:
            # "move it an hour later and add decimals": each request carried out in turn
            return [*out, *(NewRequest(words=x) for x in asks)]
        if changes:
            return [*out, *changes]
        # only small talk ("thanks!", "ok bye", "merci, à plus"): the main conversation answers it as such
        talk = _main_talk(text)
        return [*out, Chitchat(words=talk.words, social=talk.kinds) if talk else Chitchat(words=text)]
    paused = next((f for f in reversed(session.stack) if f.flow == name and f.paused), None)
    if paused is None:
        # an activity the entry flow would let interrupt its questions is started at once when the message
        # asks for it ("I'd like to leave some feedback" as a new learner's first words: it was lost to
        # the onboarding's first question); the entry flow comes with the next message
        entering = bot.flow(name)
        interrupt = bot.intent_for(text, allowed=entering.interrupts) if entering.interrupts else None
        if interrupt:
            return [*out, StartFlow(words=text, flow=interrupt, via="interrupt")]
        return [*out, StartFlow(words=text, flow=name, via="entry")]
    if says_putting_off(text):
        # "ok cool, later then", "good night!", "bye" while the run is paused: no answer to its question, nor
        # a wish to go on; said back, and the run stays paused
        return [*out, Chitchat(words=text, social=("reaction",), paused=True)]
    talk = small_talk(text)
    if talk is not None and not set(talk.kinds) <= COMING_BACK:
        # "thanks for the help!" after a cancel paused the run answers nothing at its question:
        # the main conversation replies and the run stays paused ("hi again" asks it again)
        return [*out, Chitchat(words=talk.words, social=talk.kinds, paused=True)]
    # after "cancel" paused the run, the next message may answer its open question ("polish");
    # one that asks for an activity the flow lets interrupt it starts that at once, the run
    # staying paused; "hi again" answers nothing, even where any text is an answer
    flow = bot.flow(name)
    interrupt = bot.intent_for(text, allowed=flow.interrupts) if flow.interrupts else None
    if interrupt:
        return [*out, StartFlow(words=text, flow=interrupt, via="interrupt")]
    if (
        not isinstance(flow.state(paused.state), Ask)
        or _going_on(text, name)
        # "how are you?", "sorry, i was away": a greeting or being back answers nothing at the paused question
        or (talk is not None and (greets(text) or bool({"away", "sorry"} & set(talk.kinds))))
    ):
        return [*out, StartFlow(words=text, flow=name, via="entry")]
    return [*out, *carried_replies(carried, text), Resume(words=text, flow=name)]


def _going_on(text: str, flow: str) -> bool:
    """Whether `text` only says to go on with the paused run of `flow` ("let's continue", "where were we",
    "resume my setup", "ok i'm back")."""
    if says_resume(text, flow) or not fold(text).strip(" !.,?"):
        return True
    # only being back or a greeting, in six languages ("hi, i'm back", "hola de nuevo", "sorry for the delay"),
    # or an acknowledgement ("ok", "vale", "d'accord"; not "interesting"): the paused question is asked again, not
    # answered (engine/data/questions_back.yaml's small talk)
    talk = small_talk(text)
    if talk is None:
        return False
    return set(talk.kinds) <= {"greeting", "away"} or (talk.kinds == ("reaction",) and read_yes_no(text) is True)


def _main_talk(text: str) -> SmallTalk | None:
    """`text` as only small talk in the main conversation: the kinds of engine/askback.py, or a goodbye
    said the way a run is put off ("gotta go", "ok cool, later then"), which no flow is open to pause."""
    talk = small_talk(text)
    if talk is None and says_putting_off(text):
        return SmallTalk(kinds=("goodbye",), words=text.strip())
    if talk is None and _only_yes(text):
        # "yes" after "Updated your profile: ...", with nothing asked: it agrees, as "ok" does
        return SmallTalk(kinds=("reaction",), words=text.strip())
    return talk


# a yes said alone is a word or two ("yes", "yeah sure", "claro que sí")
_YES_WORDS = 3


def _only_yes(text: str) -> bool:
    """Whether every clause of `text` is a yes of a few words or small talk ("yes!", "sí, perfecto"), so that
    it asks for nothing ("yes please teach me" does)."""
    parts = [c.text for c in fill_clauses(text)]
    yes = [p for p in parts if len(p.split()) <= _YES_WORDS and read_yes_no(p) is True]
    return bool(yes) and all(p in yes or small_talk(p) is not None for p in parts)
