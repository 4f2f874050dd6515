"""The read stage of a turn: the message, against the loaded session and what the last turn
left, into a `Reading` (engine/commands.py). Nothing here changes the session: the turn
executes what is read (engine/turn.py).

The order decides who gets the message: a person holding the conversation, then the cancel
and help commands, then an interrupting flow the open question allows, then a question back
about the open question or small talk at it (engine/askback.py: only when the message carries
no answer) after a request for something else (engine/requests.py: kept for after the flow), then
the open flow itself; with no flow open, the answer to a flow asked back,
the bot's entry rule (onboarding first, or its paused run resumed), then the main conversation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine import askback, corrections, extract, gloss, hedges, others, requests, typos
from engine import said as said_module
from engine.amend import amendments, answered, recalled
from engine.askback import (
    COMING_BACK,
    REMARKS,
    WAITING,
    SmallTalk,
    greets,
    may_ask,
    question_back,
    small_talk,
    talk_beside,
)
from engine.bot import Bot
from engine.commands import (
    AnswerFlow,
    AskBack,
    Cancel,
    Chitchat,
    Command,
    Handoff,
    Held,
    Help,
    NewRequest,
    Reading,
    Restated,
    Resume,
    SetSlot,
    Skip,
    StartFlow,
    YesNo,
)
from engine.corrections import correction_commands
from engine.cues import in_english_cues
from engine.extract import Empty, Invalid, Parser, copied, fold
from engine.fill import ahead_commands, asked_cues, extracted, names_a_slot, restated, same_word
from engine.fill import clauses as fill_clauses
from engine.flow import Flow
from engine.handoff import HOLD_KEY, hold_of
from engine.models import CarryOver, FlowFrame, SessionState, Slots, StoredRecord
from engine.none_of import about_other, none_of, reads_as_no
from engine.others import own_words, without_user
from engine.requests import at_question as request_at
from engine.requests import several
from engine.said import (
    asks_agreement,
    asks_for_person,
    cancel_beside,
    later_beside,
    puts_off,
    said,
    says_any,
    says_cancel,
    says_help,
    says_later,
    says_putting_off,
    says_refusal,
    says_resume,
    says_skip,
    says_unsure,
    skip_beside,
)
from engine.states import Ask, State, render
from engine.utterance import Utterance, utterance
from engine.yesno import read_yes_no

CANCEL_WORDS = {"cancel", "stop", "abort", "cancel this", "stop this", "/cancel"}
HELP_WORDS = {"help", "/help", "?", "help me", "what do you need?"}
# both, as one set: `plain_answer` asks it on every message at a question (a union made there was a new set each time)
_COMMAND_WORDS = frozenset(CANCEL_WORDS | HELP_WORDS)


def read(
    bot: Bot,
    session: SessionState,
    carried: CarryOver,
    text: str,
    entry: Callable[[], str | None],
    latest: Callable[[str], StoredRecord | None] | None = None,
    checked: Mapping[int, Slots] | None = None,
    flow: Flow[Any] | None = None,
    chosen: dict[int, tuple[Slots, Parser, object]] | None = None,
) -> Reading:
    """What `text` asks for; `entry` runs the bot's entry rule (asked only when no flow is open
    and no question asked back is answered); `latest` finds the user's saved records a message
    may amend (engine/amend.py); `checked`: the slots of the session's frames as the turn
    validated them on load, by `id()` of the frame (the readers validate them again without);
    `flow`: the open run's flow, as the load stage found it (looked up when not given); `chosen`:
    where a plain answer leaves the open question's parser for the execute stage (`plain_answer`)."""
    a = session.active
    open_flow = flow if flow is not None or a is None else bot.flow_for(a)
    if (only := plain_answer(bot, session, carried, text, checked, open_flow, chosen)) is not None:
        return only
    heard = utterance(text)  # the message analysed once, read by field by the readers below
    typed = text
    # the command readers read the engine's words typed a letter off written right ("cancle", "nevermnd",
    # "acutally", "waht does that mean": engine/typos.py); a command keeps the words as typed
    spelt = typos.respelled(text)
    heard_spelt = heard if spelt == text else utterance(spelt)
    # a flow's asides read its own commands ("skip this exercise" in a lesson): only command words respelled
    by_command = typos.commands_respelled(text) if spelt != text else text
    word = heard_spelt.bare
    commands: list[Command]
    here = open_flow.named.get(a.state) if open_flow is not None and a is not None else None
    valid = checked.get(id(a)) if checked is not None and a is not None else None

    own_read: list[tuple[str, bool]] = []

    def own_answer() -> tuple[str, bool]:
        # asked by the branch that finds no answer of the user's own, then by the open flow's reading: of the
        # message as typed, whatever that reading makes of it afterwards (kept here: a cached closure cost more to
        # make on every message than the reading it saves)
        if not own_read:
            own_read.append(
                (typed, False)
                if open_flow is None or a is None or not isinstance(here, Ask)
                else _own_answer(open_flow, here, a, typed, valid)
            )
        return own_read[0]

    # like cancel and help, these come before the flow's asides (some asides match any text)
    asking = isinstance(here, Ask)
    # cancel, help, a person or a skip, alone or in a sentence; with no run open, the paused one is
    # the activity a message names ("forget the onboarding for good")
    command = said(spelt, a.flow if a else _paused(session))
    if _held(session):
        commands = [Held(words=text, leave=word in CANCEL_WORDS)]
    elif word in CANCEL_WORDS or command == "cancel":
        commands = [Cancel(words=text, later=puts_off(text))]
    elif a is not None and says_cancel(spelt, a.flow, polite=True) and not _aside_of(open_flow, text, by_command):
        # "stop this please": a cancel, unless the flow's own ending reads it (a lesson's "stop please")
        commands = [Cancel(words=text, later=puts_off(text))]
    elif a is None and (paused := _paused(session)) is not None and says_cancel(spelt, paused, polite=True):
        # "drop the whole setup please" while the run is paused: no flow is open to read it as its own ending
        commands = [Cancel(words=text, later=puts_off(text))]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and (beside := cancel_beside(spelt, a.flow))
        and not _aside_of(open_flow, text, by_command)
        and not any(_answers(open_flow, here, a, words) for words in beside)
    ):
        # "this app is too slow, cancel" at "what equipment?": the words beside the cancel answer nothing;
        # those that ask for something the bot does are carried out once it is stopped ("forget it, teach
        # me integration instead")
        wanted = next((f for w in beside if (f := bot.intent_for(w)) is not None), None)
        commands = [Cancel(words=text, later=puts_off(text))]
        if wanted is not None:
            commands.append(NewRequest(words=", ".join(beside), flow=wanted))
    elif word in HELP_WORDS or (command == "help" and not _aside_of(open_flow, text, by_command)):
        # a flow's own reading of not understanding comes first: "i dont get it" at a lesson's exercise asks
        # about the exercise (the lesson explains it), not how to use the bot
        commands = [Help(words=text)]
    elif asking and command == "person" and not (bot.people and _aside_of(open_flow, text, by_command)):
        commands = [Handoff(words=text)]
    elif asking and command == "skip" and not _aside_of(open_flow, text, by_command):
        commands = [Skip(words=text)]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and (beside := skip_beside(spelt))
        and not _aside_of(open_flow, text, by_command)
        and all(_reads_none(open_flow, here, a, words, valid) for words in beside)
    ):
        # "no target really, move on", "non ho un peso obiettivo, vai avanti": the question's own none beside a
        # skip asked for is a skip; the none only says why
        commands = [Skip(words=text)]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and (says_later(text) or _reason_beside_later(open_flow, here, a, text, valid))
        and _not_greeting(text)  # "ciao" greets too
        # a flow's own reading comes first: a lesson keeps its place itself (flows/study_pal)
        and not _aside_of(open_flow, text, by_command)
        and _no_value(open_flow, here, a, text, valid)
    ):
        # "leave it for tomorrow", "not now", "on verra ça plus tard": the run is kept to come back to. Read
        # before a free-text answer, which would take any words ("not now" was stored as the injuries); a
        # question that reads the words keeps them ("not now" is a no to "shall we start?", "tomorrow 2-4pm"
        # a study window)
        commands = [Cancel(words=text, later=True)]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and (refused := says_refusal(spelt) or _only_none(open_flow, here, a, spelt, valid)) | says_putting_off(spelt)
        and _not_greeting(text)  # "ciao" greets too
        and not _aside_of(open_flow, text, by_command)
        and (_reads_nothing(open_flow, here, a, text, valid) or _refused_as_none(open_flow, here, a, spelt, valid))
    ):
        # "rather not say", "nothing for now", "ugh, not now" where the question reads nothing from them (a
        # free-text comment would keep "nada por ahora" as its words): a skip, a cancel; a
        # question that reads them keeps them ("not now" is a no to "shall we start?", a name question
        # offers a nickname to "rather not say")
        commands = [Skip(words=text) if refused else Cancel(words=text, later=puts_off(text))]
    elif isinstance(here, Ask) and open_flow and a and says_unsure(spelt) and _takes_unsure(open_flow, here, a, text):
        # "idk, no idea", "boh" where a list reader would store the words as items: not knowing is no value
        commands = [Skip(words=text)]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and own_answer() == ("", True)
        and not _aside_of(open_flow, text, by_command)
    ):
        # "my sister is 12 and trains 5 days a week", "last year I did 5 days and burned out": every clause tells of
        # someone else, a time gone by or a condition (engine/others.py), so the value it names is no answer. Small
        # talk: the question is asked again and no attempt is used
        commands = [Chitchat(words=text)]
    elif a is not None and open_flow is not None:
        flow = open_flow
        own, _ = own_answer()
        if own and own != text:
            # "my old app forced 5 days on me, I want 2": the question reads the user's own clauses only
            text, heard = own, utterance(own)
        if by_command != text and not _aside_of(open_flow, text) and _aside_of(open_flow, by_command):
            text, heard = by_command, utterance(by_command)  # a command the flow reads itself ("skpi this exercise")
        if (both := completed(flow, here, a, carried, text, valid)) != text:
            text, heard = both, utterance(both)  # "kg" after "Please add the unit": read with what it completes
        open_to = flow.interrupts if isinstance(here, Ask) and here.interruptible else ()
        interrupt = bot.intent_for(text, allowed=open_to) if open_to else None
        replies = [] if interrupt else _replies(carried, text)
        # an earlier answer corrected ("wait, I meant 3") is read first; the rest answers the question
        fixes, rest = ([], text) if interrupt else correction_commands(flow, a.state, a.slots, heard, valid)
        if not fixes and not interrupt and spelt != text:
            # a correction whose cue was typed a letter off ("acutally i meant 4 days")
            fixes, rest = correction_commands(flow, a.state, a.slots, heard_spelt, valid)
            rest = rest if fixes else text
        # a request for something else is kept for after the flow (engine/requests.py)
        asked = (
            request_at(bot, flow, here, a, heard_spelt, valid)
            if isinstance(here, Ask) and not interrupt and not fixes
            else None
        )
        # other facts the message gives ("vegetarian, and gluten intolerant"): engine/fill.py
        question = here if isinstance(here, Ask) and not interrupt else None
        sets, rest = (
            facts_ahead(flow, question, a.slots, heard if rest == text else rest, valid)
            if question is not None and asked is None
            else ([], rest)
        )
        aside = None
        if (
            isinstance(here, Ask)
            and not interrupt
            and not fixes
            and asked is None
            and not sets
            and all(isinstance(r, YesNo) and r.yes is None for r in replies)
        ):
            aside = at_question(flow, here, a, text, valid)
            if aside is None and spelt != text:
                aside = at_question(flow, here, a, spelt, valid)  # "waht does that mean?"
        again = (
            _restated(flow, here, a, heard, valid)
            if isinstance(here, Ask) and aside is None and not (interrupt or fixes or sets or replies or asked)
            else []
        )
        if interrupt:
            commands = [StartFlow(words=text, flow=interrupt, via="interrupt")]
        elif asked is not None and not asked.rest:
            commands = [asked.request]  # the question stays open, as at a question back
        elif asked is not None and not _listens_for(flow, asked.request.words):
            # beside the request, the rest may give other facts too ("45, i have dumbbells. can you log my runs?")
            sets, rest = (
                facts_ahead(flow, question, a.slots, asked.rest, valid) if question is not None else ([], asked.rest)
            )
            commands = [*replies, asked.request, *sets, AnswerFlow(words=rest, flow=a.flow, state=a.state)]
        elif asked is not None:
            commands = [*replies, AnswerFlow(words=text, flow=a.flow, state=a.state)]
        elif aside is not None:
            commands = [aside]  # the question stays open: what was suggested or offered at it still is not taken
        elif again:
            commands = [Restated(words=text, slots=again)]
        elif isinstance(here, Ask) and not fixes and _no_of_other(flow, here, a, rest, valid):
            # "no dairy for me", "no restrictions, I eat everything" at "do you have a target weight?": a none of
            # something else is no answer to the question (engine/none_of.py): what was read ahead is kept and the
            # question asked again, no attempt used
            commands = (
                [*replies, *sets, AnswerFlow(words="", flow=a.flow, state=a.state)] if sets else [Chitchat(words=text)]
            )
        else:
            commands = [*replies, *fixes, *sets, AnswerFlow(words=rest, flow=a.flow, state=a.state)]
            if not own and not (replies or fixes or sets):
                # "il mio gatto si chiama Luna" at the name question: about someone else, and no request or
                # question either (those are read above): small talk, not an answer refused
                commands = [Chitchat(words=text)]
    else:
        proposed = carried.offered if carried.confirm is None else None
        # a yes or a no alone, not one that opens a request of its own ("ok then teach me integration"): asked
        # only when something was proposed
        alone = proposed is not None and len(text.split()) <= _YES_ALONE_WORDS and bot.intent_for(text) is None
        yes = read_yes_no(text) if alone else None
        if proposed is not None and yes is False:
            return Reading(text=text, commands=[YesNo(words=text, to="proposed", subject=proposed, yes=False)])
        if proposed is not None and yes is True:
            # "yes" to "Try a lesson first, for example 'teach me limits'": read as the words proposed
            return Reading(text=proposed, commands=_main(bot, session, CarryOver(), proposed, entry, latest))
        commands = _main(bot, session, carried, text, entry, latest)
    answered = any(isinstance(c, (AnswerFlow, Resume)) for c in commands)
    # the commands are the readers' own, each made and validated where it was read: only the list is wrapped
    return _plainly(Reading, {"text": as_read(carried, text) if answered else text, "commands": commands})


def plain_answer(
    bot: Bot,
    session: SessionState,
    carried: CarryOver,
    text: str,
    checked: Mapping[int, Slots] | None = None,
    flow: Flow[Any] | None = None,
    chosen: dict[int, tuple[Slots, Parser, object]] | None = None,
) -> Reading | None:
    """The reading of a message that is only the open question's value, written as the question writes it
    ("4" at a rating, "content" at a menu naming it: extract.written_as), or None. One such word holds no
    command, correction, request, other fact or question back, so none of their readers is asked; a word any
    of the engine's command readers knows ("later", "none", "skip"), one a flow's aside or an interrupting
    intent reads, or one said after the last turn offered or refused something, goes the whole way.
    `chosen`: the parser a question picks from its slots is left there, by `id()` of the frame with the
    slots it was picked from and the value it read, so that the execute stage neither picks it nor reads the
    message again (engine/answering.py)."""
    a = session.active
    if a is None or len(text) > _PLAIN_LONGEST or text.casefold() in _COMMAND_WORDS:
        return None
    if carried.offered or carried.suggested or carried.refused or carried.amending or _held(session):
        return None
    if flow is None:
        flow = bot.flow_for(a)
    here = flow.named.get(a.state)
    if not isinstance(here, Ask):
        return None
    valid = checked.get(id(a)) if checked is not None else None
    try:
        # `Ask.parser`, without a call into engine/states.py for the usual fixed parser
        parse = here.parse
        parser = parse if isinstance(parse, Parser) else parse(valid if valid is not None else flow.new_slots(a.slots))
    except (ValidationError, ValueError):
        return None
    value = parser.plain_value(text)
    if value is None:
        return None
    # no command of the engine's is a whole number alone (tests/test_plain_answers.py): "4" asks none of them
    if not text.isdecimal() and says_any(text, a.flow):
        return None
    if _aside_of(flow, text) or (
        here.interruptible and flow.interrupts and bot.intent_for(text, allowed=flow.interrupts)
    ):
        return None
    if chosen is not None and valid is not None:
        chosen[id(a)] = (valid, parser, value)
    # made of values typed already (the message checked as text, the frame's names): validating them again, and the
    # command union's look at each command, cost more than this function's tests
    answer = _plainly(
        AnswerFlow, {"words": text, "kind": "answer_flow", "flow": a.flow, "state": a.state, "plain": True}
    )
    return _plainly(Reading, {"text": text, "commands": [answer]})


# no value a question writes is longer (a cheap test before any other)
_PLAIN_LONGEST = 40
_M = TypeVar("_M", bound=BaseModel)


def _plainly(model: type[_M], values: dict[str, Any]) -> _M:
    """A frozen `model` holding `values` (every field), as pydantic holds them, without validating them."""
    made = object.__new__(model)
    object.__setattr__(made, "__dict__", values)
    object.__setattr__(made, "__pydantic_fields_set__", set(values) - {"kind"})  # a default, as validation leaves it
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def facts_ahead(
    flow: Flow[Any], state: Ask, values: dict[str, Any], said: Utterance | str, checked: Slots | None
) -> tuple[list[SetSlot], str]:
    """Other facts the message gives (engine/fill.py), and the rest for the asked question: none
    when the rest only asks whether the facts will do or thanks ("about 45 min, ok?" at the
    injuries question was a yes to having one)."""
    sets, rest = ahead_commands(flow, state, values, said, checked)
    if not sets or not rest:
        return sets, rest
    text = said.text if isinstance(said, Utterance) else said
    # a clause ends before its punctuation: the message's question mark is the rest's when it ends the message
    asking = text.rstrip().endswith("?") and fold(text).rstrip(" ?!.").endswith(fold(rest).rstrip(" ?!."))
    return sets, "" if asks_agreement(rest + "?" if asking else rest) else rest


def warm_up() -> None:
    """Build every table the read stage reads now, not inside the first turn that needs one.

    A server, or a parent process that forks workers, calls this once at start: built on a
    message, the word tables, command phrases, small talk, requests and correction words cost
    about a second inside that turn, while the session's other writers wait for it.
    """
    extract.warm_up()
    typos.warm_up()
    for build in (
        said_module._table,
        said_module._wrapping,
        askback._table,
        requests._table,
        requests._gate,  # the strings the request reader's patterns need, read off them: ~150 ms to build
        corrections._words,
        others._table,  # the clauses that are no answer of the user's own: ~50 ms to build
        hedges._table,
    ):
        build()
    in_english_cues("warm up")


def _paused(session: SessionState) -> str | None:
    """The flow of the run paused last, if any."""
    return next((f.flow for f in reversed(session.stack) if f.paused), None)


def _held(session: SessionState) -> bool:
    """Whether a person holds the conversation (engine/handoff.py): asked of handoff.py only when the session
    keeps a hold at all, which few do."""
    return HOLD_KEY in session.context and hold_of(session) is not None


def _aside_of(flow: Flow[Any] | None, text: str, spelt: str | None = None) -> bool:
    """Whether the open flow (none: no aside) has an aside for the words, as typed or `spelt` right
    (engine/typos.py): a lesson reads "pass" as giving up its exercise, support files what was answered so far
    when it hands over to a person. A person asked for where the bot has none is still the engine's to answer
    (some asides take any text)."""
    if flow is None:
        return False
    # an aside that hears every message (a lesson notes each one in its memory) reads none in particular
    return any((x.match(text) or (spelt is not None and x.match(spelt))) and not x.match("") for x in flow.asides)


def _listens_for(flow: Flow[Any], words: str) -> bool:
    """Whether an aside of the flow that hears requests listens for the request's own words in
    particular (support keeps another question for after its answer itself). An aside that hears
    every message (it matches nothing at all too), or that the answer beside the request woke
    ("German" woke the language change, "and can you correct my writing?" is no language), leaves
    an answer beside a request to be split."""
    return any(x.requests and x.match(words) and not x.match("") for x in flow.asides)


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
    return [*out, *_replies(carried, text), Resume(words=text, flow=name)]


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


def _copies(value: object, text: str) -> bool:
    """Whether a parser's value (or one item of it) only copies words of the message back."""
    return copied(value, text, words=1) or (
        isinstance(value, str) and bool(fold(value).strip()) and fold(value) in fold(text)
    )


def _no_value(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Whether the open question reads no value from words that only put the thing off: its parser finds
    none, refuses them, or only copies them back (a free-text question takes any words: a comment, the
    injuries, so the put-off is read before it); nor do they fill another slot. A value read from them
    keeps them an answer ("not now" is a no to "shall we start?")."""
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        value = state.parser(slots)(text)
    except (ValidationError, ValueError):
        return False  # slots this code cannot read: the flow's own reading says what is wrong
    # a list reader's items that are only the message's clauses ("hold on", "lets do the rest later") read none
    items = value if isinstance(value, list) and len(value) > 1 else [value]
    # "maybe later" to an offer: the no a yes/no reader hears in it is a no for now, the offer kept to come
    # back to (a put-off); "not now" and "nah, maybe later" say no and stay the no
    later = value is False and said_module.later_no_no(text)
    if (
        value is not None
        and not later
        and not isinstance(value, Invalid | Empty)
        and not all(_copies(v, text) for v in items)
    ):
        return False
    return not _fills_other(flow, slots, state, text)


def _not_greeting(text: str) -> bool:
    """Is `text` no small talk, or a goodbye ("bye", "see you tomorrow"), rather than other small talk?"""
    talk = small_talk(text)
    return talk is None or "goodbye" in talk.kinds


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


# a reply that completes the refused answer is a fragment: "kg", "in pounds", "pm please"
_COMPLETING_WORDS = 3


def completed(
    flow: Flow[Any], state: State | None, frame: FlowFrame, carried: CarryOver, text: str, checked: Slots | None
) -> str:
    """The message as the open question reads it: after "Please add the unit" to "I weigh 78 and want to
    be 70", a reply that only adds the missing part ("kg") is read with the refused message ("I weigh 78
    and want to be 70 kg"), when the question reads nothing at all from the reply alone (a new answer,
    even a refused one, is its own: "lose 10 kg") and an answer from both."""
    if carried.refused is None or carried.refused_at != f"{frame.flow}.{frame.state}" or not isinstance(state, Ask):
        return text
    if len(text.split()) > _COMPLETING_WORDS:
        return text
    try:
        parser = state.parser(checked if checked is not None else flow.new_slots(frame.slots))
    except (ValidationError, ValueError):
        return text
    if parser.greedy or _read(parser, text) is not None:
        return text  # a free text takes any words: "x" then "k" is no comment "x k"
    both = f"{carried.refused.rstrip(' .!')} {text.strip()}"
    found = _read(parser, both)
    return both if found is not None and not isinstance(found, Invalid | Empty) else text


def _read(parser: Parser, text: str) -> object:
    try:
        return parser(text)
    except (ValueError, TypeError):
        return None


def as_read(carried: CarryOver, text: str) -> str:
    """The message the open question reads: after an aside's "Did you mean English?", a yes is
    read as the message it offered ("I want to learn English"); a value suggested at the same
    time is answered first (its executor takes the yes)."""
    if carried.offered is not None and carried.suggested is None and read_yes_no(text) is True:
        return carried.offered
    return text


# a yes to what the main conversation proposed is a few words ("sure why not", "ok let's do it")
_YES_ALONE_WORDS = 5

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
        if (parser.greedy or not taken) and not _fills_other(flow, slots, state, text):
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
            and not _fills_other(flow, slots, state, text)
        ):
            return Chitchat(words=said.words, social=said.kinds)
        return None
    question = _what_is_asked(state, slots, parser)
    asked = question_back(text, parser, free_text=parser.greedy, question=question)
    # an open question states nothing ("what counts as flexitarian?" gives no diet, "is 5 the best?" no rating)
    # nor does a question on how to answer ("should I mention the bugs here?" names no category)
    stating = any(p.role not in ("open", "filler") and not askback.asks_how_to_answer(p) for p in askback.parts(text))
    if asked is None or (stating and _fills_other(flow, slots, state, text)):
        return None
    if asked.help or _not_understood(text):
        # "what are you asking exactly? i don't get it": not understanding the question, said beside asking
        # about it, calls for help (the reason, what it needs, the question), in any language
        return Help(words=asked.words)
    return AskBack(words=asked.words, about=asked.about)


def _not_understood(text: str) -> bool:
    """Whether a statement of the message says the user does not understand ("no entiendo", "je comprends pas"):
    a part that is a call for help on its own (engine/said.py)."""
    return any(p.role == "statement" and says_help(text[p.start : p.end]) for p in askback.parts(text))


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


# a bare no is an answer of its own to many questions (a yes/no, "any injuries?"); at a free-text one the flow
# asks again for words ("Could you describe it in a few words?"), as before
_BARE_NO = frozenset({"no", "nope", "nah", "n", "-"})


def _no_of_other(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Does `text` open with a "no" before words naming something other than what the question asks about ("no
    dairy for me" at the target weight, "no gym nearby" at the injuries), where the question reads it as it reads
    a plain no? What the question asks about: its words as asked, its slot's name and the words naming its slot."""
    if none_of(text) is None:
        return False  # most messages: no parser run here
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
        if parser.greedy or not reads_as_no(parser(text), parser("no")):
            return False
        asked = " ".join(
            (
                render(state.say, slots),
                render(state.say_again, slots),
                state.slot.replace("_", " "),
                *asked_cues(flow, state.slot),
            )
        )
    except (ValidationError, ValueError, KeyError):
        return False  # slots this code cannot read: the flow's own reading says what is wrong
    return about_other(text, asked)


def _only_none(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Does `text` only say there is none, maybe for now ("nothing for now", "nada por ahora", "rien pour
    l'instant"), where the question has no none of its own for it? A free-text comment would keep the words;
    they answer nothing: a skip. A question that reads them as it reads "none" keeps them (the injuries' none)."""
    if fold(text).strip(" .!") in _BARE_NO or not extract.declines(gloss.in_english(text)):
        return False
    try:
        parser = state.parser(checked if checked is not None else flow.new_slots(frame.slots))
        # only a free-text question would keep the words: a closed one reads them its own way ("nothing" to
        # "what would you like to change?" changes nothing)
        return parser.greedy and bool(parser(text) != parser("none"))
    except (ValidationError, ValueError):
        return False


def _reads_nothing(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Whether the open question's parser reads nothing from `text`: no value, a value that only copies
    the words back (a free-text answer, an item of a list), or a refusal that quotes them ("I don't
    know where “not now” is"); nor does it fill another slot. A reason of the flow's own that does not
    quote them ("a nickname works too") is the flow's reading of them."""
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        value = state.parser(slots)(text)
    except (ValidationError, ValueError):
        return False  # slots this code cannot read: the flow's own reading says what is wrong
    if isinstance(value, Invalid):
        quoted = fold(text).strip(" .,!?")
        # quoted back, or refused as the parser refuses words it cannot read at all ("quit" at a placement
        # question: "Please answer with one letter")
        unread = quoted in fold(value.reason) or _refused_alike(state.parser(slots), value)
        return bool(quoted) and unread and not _fills_other(flow, slots, state, text)
    # one word copied back is no reading either ("Esci" as the equipment): these words say something else
    if value is not None and not copied(value, text, words=1):
        return False
    return not _fills_other(flow, slots, state, text)


def _reason_beside_later(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Whether `text` puts the thing off beside a few words the open question reads nothing from ("gonna finish
    this later, gotta cook" at the equipment): the words are the reason, not an item. Words it reads a value from,
    its none included, answer ("none, let's finish tomorrow" at the injuries is the none, then the put-off)."""
    beside = later_beside(text)
    # asking to wait is no put-off ("hold on, someone's at the door, brb"): small talk, the question kept open
    if not beside or talk_beside(text) is not None:
        return False
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return False
    if parser.greedy:
        return False  # where any words answer, a few beside the put-off may be the answer ("app is slow, later")
    for words in beside:
        value = parser(words)
        items = value if isinstance(value, list) and value else [value]
        if value is not None and not isinstance(value, Invalid) and not all(_copies(v, words) for v in items):
            return False
    return True


def _reads_none(flow: Flow[Any], state: Ask, frame: FlowFrame, words: str, checked: Slots | None) -> bool:
    """Whether the open question reads `words` as it reads "none": its own none (the empty value, [])."""
    try:
        parser = state.parser(checked if checked is not None else flow.new_slots(frame.slots))
        none = parser("none")
        return none is not None and not isinstance(none, Invalid) and reads_as_no(parser(words), none)
    except (ValidationError, ValueError):
        return False


def _refused_as_none(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Whether `text` only declines to say ("dont want to say", "no aplica en mi caso") where the open question
    reads it as its none: declining to say is no none (the user did not say there is no target weight), a skip.
    Words that are a none themselves ("n/a", "not applicable") stay the none."""
    if not says_refusal(text) or extract.declines(gloss.in_english(text)):
        return False
    return _reads_none(flow, state, frame, text, checked)


def _restated(flow: Flow[Any], state: Ask, frame: FlowFrame, heard: Utterance, checked: Slots | None) -> list[str]:
    """engine/fill.py's `restated`, over the run's slots (none read when this code cannot read them)."""
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        # most messages answer the question, and restate nothing: read that first, then whether the
        # message fills or changes another slot, which makes it the flow's to read ("english, and i live in Rome")
        again = restated(flow, state, slots, heard)
        return [] if not again or _fills_other(flow, slots, state, heard.text) else again
    except (ValidationError, ValueError):
        return []


# a word no parser reads: what a parser says to it, it says to any words it cannot read
_UNREADABLE = "zqxjvw"


def _refused_alike(parser: Parser, refused: Invalid) -> bool:
    """Whether `refused` is what `parser` says to words it cannot read at all, not a reading of its own."""
    other = parser(_UNREADABLE)
    return isinstance(other, Invalid) and _UNREADABLE not in fold(other.reason) and other.reason == refused.reason


def _takes_unsure(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str) -> bool:
    """Whether the open question's parser takes words that only say the user does not know as its value
    (a list reader's ["idk", "no idea"]): every item it read says so."""
    try:
        value = state.parser(flow.new_slots(frame.slots))(text)
    except (ValidationError, ValueError):
        return False
    # a list only: a free-text answer keeps its words (a quiz grades "dunno" as a wrong answer, a comment is as typed)
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and says_unsure(v) for v in value)


def _answers(flow: Flow[Any], state: Ask, frame: FlowFrame, words: str) -> bool:
    """Might `words`, said beside a cancel, answer the open question or fill another slot? Where any
    text is an answer (a free-text question) they might; a value that only copies several words
    back ("this app is too slow" as the equipment) is none."""
    try:
        slots = flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return True  # slots this code cannot read: the flow's own reading says what is wrong
    if parser.greedy:
        return True
    value = parser(words)
    if value is not None and not isinstance(value, Invalid) and not copied(value, words):
        return True
    return _fills_other(flow, slots, state, words) or bool(ahead_commands(flow, state, frame.slots, words).sets)


def _own_answer(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> tuple[str, bool]:
    """`text` without its clauses that are no answer of the user's own (engine/others.py), "" when none is left,
    and whether the whole message names a value the flow reads. Where any text is an answer (a comment, what
    happened before a crash) the words are kept as typed: "my kids love it but the audio cuts out" is feedback
    as it stands; where the question keeps the words it reads (an injury, an allergy), a time gone by is an
    answer ("i had to stop running because of my knee")."""
    if own_words(text) == text:
        return text, False  # most messages: no clause left out, and no parser run here
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return text, False  # slots this code cannot read: the flow's own reading says what is wrong
    if parser.greedy:
        return text, False
    value = parser(text)
    named = value is not None and not isinstance(value, Invalid)

    def gone_by(clause: str) -> bool:
        # a time gone by is no answer ("last year I did 5 days"), except where the question keeps the user's words
        # (an injury) or the clause gives another slot's value ("30, oh btw i sprained my ankle last month")
        said = parser(clause)
        if said is not None and not isinstance(said, Invalid) and _keeps_words(said, clause):
            return False
        sets = ahead_commands(flow, state, frame.slots, clause).sets
        return not any(_keeps_words(s.value, clause) for s in sets) and not _fills_other(flow, slots, state, clause)

    corrected: list[bool] = []

    def corrects() -> bool:
        # whether the message corrects an earlier answer (read once, and only for a message with a thing's clause)
        if not corrected:
            corrected.append(bool(correction_commands(flow, state.name, frame.slots, text, checked)[0]))
        return corrected[0]

    def not_asked(thing: str, clause: str) -> bool:
        # "my lunch break is 60 minutes", "la palestra chiude tra 20 minuti": a thing the question does not ask
        # about is the subject, so the number is the thing's; "my goal is 3 days", "the evening works", "the
        # sessions are 45 min" name the question (a slot's declared words, the question's own) or a value of it.
        # A clause another slot keeps as the user's words is that slot's ("3, the speech recognition is off": the
        # comment beside the rating)
        said = parser(thing)
        if said is not None and not isinstance(said, Invalid):
            return False
        if names_a_slot(flow, state.slot, thing) or _in_question(state, slots, thing):
            return False
        if corrects():
            return False  # "oops, the order is 7781": an earlier answer corrected, named by its thing
        sets = ahead_commands(flow, state, frame.slots, clause).sets
        return not any(_keeps_words(s.value, clause) for s in sets) and not _kept_by_other(flow, slots, state, clause)

    own = own_words(text, past=gone_by, thing=not_asked)
    if own:
        # a thing's clause beside the user's own answer stays what the flow makes of it where it changes nothing of
        # the answer ("3, la app va lenta": the rating, and the comment); where it would, the user's clause is read
        # alone ("3 days, the gym is open every day" is 3, not 7)
        answer = parser(own)
        if answer is not None and not isinstance(answer, Invalid):
            beside = own_words(text, past=gone_by, thing=lambda _thing, _clause: False)
            own = beside if beside == own or parser(beside) == answer else own
    # the user set against the someone else left out ("io Marco", "moi au gluten") is the subject, no word of the
    # answer: where the reader reads nothing with it, or takes it into the value, the words are read without it
    bare = without_user(own) if own and own != text else None
    if bare:
        kept = parser(own)
        if kept is None or isinstance(kept, Invalid) or _holds_word(kept, own.split()[0]):
            again = parser(bare)
            # "moi non", "yo no", "me neither" say who is not (the user), no answer "no" to the question
            if again is not None and not isinstance(again, (Invalid, bool)):
                own = bare
    # a value another question of the flow would take from the message ahead counts too: "la piscine ferme dans 25
    # minutes" at the target weight question names minutes, and with every clause left out is small talk
    return own, named or _fills_other(flow, slots, state, text) or bool(
        ahead_commands(flow, state, frame.slots, text).sets
    )


def _in_question(state: Ask, slots: Slots, words: str) -> bool:
    """Whether a word of `words` is a word of the question as asked, of its help, of its reason or of its
    reprompts (`same_word`): "the app crashes on android" at "Which device does the app crash on?", "my workouts
    are 45 minutes" where the reason speaks of each workout, are about what the question asks."""
    said: list[str] = []
    for text in (state.say, state.help, state.why or "", *state.reprompts):
        try:
            said.append(text(slots) if callable(text) else text)
        except (AttributeError, KeyError, TypeError, ValueError):
            continue  # a text that cannot be written from these slots names nothing here
    asked = set(re.findall(r"[\w'-]+", fold(" ".join(said))))
    return any(same_word(w, a) for w in re.findall(r"[\w'-]+", fold(words)) for a in asked)


def _holds_word(value: object, word: str) -> bool:
    """Whether a parser's value (a text, or a list of them) holds `word` as one of its words."""
    w = fold(word).strip(",")
    items = value if isinstance(value, list) else [value]
    return any(isinstance(v, str) and w in re.findall(r"[\w'-]+", fold(v)) for v in items)


# a value of this many words, all of them the message's, is the user's words kept (an injury), not a choice named
_KEPT_WORDS = 3


def _keeps_words(value: object, text: str) -> bool:
    """Whether a parser's value keeps the user's own words (an injury, an item of a list) rather than naming a
    value of its own ("beginner", 3, "Google Play")."""
    said = set(re.findall(r"[\w'-]+", fold(text)))
    items = value if isinstance(value, list) else [value]
    return any(
        isinstance(v, str) and len(w := re.findall(r"[\w'-]+", fold(v))) >= _KEPT_WORDS and set(w) <= said
        for v in items
    ) or copied(value, text)


def _kept_by_other(flow: Flow[Any], slots: Slots, state: Ask, text: str) -> bool:
    """Does a reader of another slot that any message may fill (`Flow.fills`) keep `text`'s words as its value (a
    comment: "the speech recognition is off sometimes" beside a rating)? A number or a day it reads there is no
    reason to keep a thing's clause: "la piscine ferme dans 25 minutes" gives no session length either."""
    for name, reader in flow.fills.items():
        if name == state.slot:
            continue
        try:
            value = (reader if isinstance(reader, Parser) else reader(slots))(text)
        except (ValidationError, ValueError):
            continue
        if value is not None and not isinstance(value, Invalid) and _keeps_words(value, text):
            return True
    return False


def _fills_other(flow: Flow[Any], slots: Slots, state: Ask, text: str) -> bool:
    """Does `text` set a slot of the flow other than the asked one ("why? I'm 30 btw")? Then it is
    the flow's to read (noted, and the question asked again)."""
    found: dict[str, object] = {}
    for name, reader in flow.fills.items():
        if name == state.slot or (getattr(slots, name, None) is not None and name not in flow.correctable):
            continue
        value = (reader if isinstance(reader, Parser) else reader(slots))(text)
        if value is not None and not isinstance(value, Invalid):
            found[name] = value
    found.update(extracted(flow, text, slots, state.slot))
    for name, value in found.items():
        if name == state.slot or getattr(slots, name, None) == value:
            continue
        try:
            flow.slots.model_validate({**slots.model_dump(), name: value})
        except ValidationError:
            continue
        return True
    return False
