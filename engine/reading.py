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

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine import correctionwords, extract, hedges, message_parts, others, requests, typos, wrapped
from engine import said as said_module
from engine.answer_checks import (
    answers_question,
    no_of_other,
    no_value,
    only_none,
    own_answer_of,
    reads_none,
    reads_nothing,
    reason_beside_later,
    refused_as_none,
    restated_here,
    takes_unsure,
)
from engine.beside import cancel_beside, skip_beside
from engine.bot import Bot
from engine.carried import as_read, carried_replies, completed
from engine.commands import (
    AnswerFlow,
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
from engine.extract import Parser, fold
from engine.fill import ahead_commands
from engine.flow import Flow
from engine.handoff import HOLD_KEY, hold_of
from engine.models import CarryOver, SessionState, Slots, StoredRecord
from engine.question_talk import at_question
from engine.reading_main import read_main
from engine.requests import at_question as request_at
from engine.said import (
    puts_off,
    said,
    says_any,
    says_cancel,
    says_later,
    says_putting_off,
    says_refusal,
    says_unsure,
)
from engine.smalltalk import small_talk
from engine.states import Ask
from engine.utterance import Utterance, utterance
from engine.wrapped import asks_agreement
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
                else own_answer_of(open_flow, here, a, typed, valid)
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
        and not any(answers_question(open_flow, here, a, words) for words in beside)
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
        and all(reads_none(open_flow, here, a, words, valid) for words in beside)
    ):
        # "no target really, move on", "non ho un peso obiettivo, vai avanti": the question's own none beside a
        # skip asked for is a skip; the none only says why
        commands = [Skip(words=text)]
    elif (
        isinstance(here, Ask)
        and a is not None
        and open_flow is not None
        and (says_later(text) or reason_beside_later(open_flow, here, a, text, valid))
        and _not_greeting(text)  # "ciao" greets too
        # a flow's own reading comes first: a lesson keeps its place itself (flows/study_pal)
        and not _aside_of(open_flow, text, by_command)
        and no_value(open_flow, here, a, text, valid)
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
        and (refused := says_refusal(spelt) or only_none(open_flow, here, a, spelt, valid)) | says_putting_off(spelt)
        and _not_greeting(text)  # "ciao" greets too
        and not _aside_of(open_flow, text, by_command)
        and (reads_nothing(open_flow, here, a, text, valid) or refused_as_none(open_flow, here, a, spelt, valid))
    ):
        # "rather not say", "nothing for now", "ugh, not now" where the question reads nothing from them (a
        # free-text comment would keep "nada por ahora" as its words): a skip, a cancel; a
        # question that reads them keeps them ("not now" is a no to "shall we start?", a name question
        # offers a nickname to "rather not say")
        commands = [Skip(words=text) if refused else Cancel(words=text, later=puts_off(text))]
    elif isinstance(here, Ask) and open_flow and a and says_unsure(spelt) and takes_unsure(open_flow, here, a, text):
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
        replies = [] if interrupt else carried_replies(carried, text)
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
            restated_here(flow, here, a, heard, valid)
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
        elif isinstance(here, Ask) and not fixes and no_of_other(flow, here, a, rest, valid):
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
            return Reading(text=proposed, commands=read_main(bot, session, CarryOver(), proposed, entry, latest))
        commands = read_main(bot, session, carried, text, entry, latest)
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
        said_module.command_table,
        wrapped._wrapping,
        message_parts.questions_back_table,
        requests._table,
        requests._gate,  # the strings the request reader's patterns need, read off them: ~150 ms to build
        correctionwords.correction_words,
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


def _not_greeting(text: str) -> bool:
    """Is `text` no small talk, or a goodbye ("bye", "see you tomorrow"), rather than other small talk?"""
    talk = small_talk(text)
    return talk is None or "goodbye" in talk.kinds


# a yes to what the main conversation proposed is a few words ("sure why not", "ok let's do it")
_YES_ALONE_WORDS = 5
