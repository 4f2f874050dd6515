"""Whether a message at an open question answers it, and with what: the read stage's checks before its commands.

A bare no, a none, a refusal said as none, a put-off with a reason beside it, "not sure" where the
question takes it; a value that only copies the message's words back, or words another slot of the flow
reads; the user's own words kept as the answer where a reader of any words takes them (an injury told
in a sentence). engine/reading.py asks these in its order; each is the open question's parser's word
on the message, and the flow's declarations (engine/slot_cues.py).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from engine import extract, gloss
from engine import said as said_module
from engine.beside import later_beside
from engine.corrections import correction_commands
from engine.extract import Empty, Invalid, Parser, copied, fold
from engine.fill import ahead_commands, restated
from engine.flow import Flow
from engine.models import FlowFrame, Slots
from engine.none_of import about_other, none_of, reads_as_no
from engine.others import own_words, without_user
from engine.said import (
    says_refusal,
    says_unsure,
)
from engine.slot_cues import asked_cues, extracted, names_a_slot, same_word
from engine.smalltalk import talk_beside
from engine.states import Ask, render
from engine.utterance import Utterance


def _copies(value: object, text: str) -> bool:
    """Whether a parser's value (or one item of it) only copies words of the message back."""
    return copied(value, text, words=1) or (
        isinstance(value, str) and bool(fold(value).strip()) and fold(value) in fold(text)
    )


def no_value(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
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
    return not fills_other(flow, slots, state, text)


# a bare no is an answer of its own to many questions (a yes/no, "any injuries?"); at a free-text one the flow
# asks again for words ("Could you describe it in a few words?"), as before
_BARE_NO = frozenset({"no", "nope", "nah", "n", "-"})


def no_of_other(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
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


def only_none(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
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


def reads_nothing(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
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
        return bool(quoted) and unread and not fills_other(flow, slots, state, text)
    # one word copied back is no reading either ("Esci" as the equipment): these words say something else
    if value is not None and not copied(value, text, words=1):
        return False
    return not fills_other(flow, slots, state, text)


def reason_beside_later(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
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


def reads_none(flow: Flow[Any], state: Ask, frame: FlowFrame, words: str, checked: Slots | None) -> bool:
    """Whether the open question reads `words` as it reads "none": its own none (the empty value, [])."""
    try:
        parser = state.parser(checked if checked is not None else flow.new_slots(frame.slots))
        none = parser("none")
        return none is not None and not isinstance(none, Invalid) and reads_as_no(parser(words), none)
    except (ValidationError, ValueError):
        return False


def refused_as_none(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> bool:
    """Whether `text` only declines to say ("dont want to say", "no aplica en mi caso") where the open question
    reads it as its none: declining to say is no none (the user did not say there is no target weight), a skip.
    Words that are a none themselves ("n/a", "not applicable") stay the none."""
    if not says_refusal(text) or extract.declines(gloss.in_english(text)):
        return False
    return reads_none(flow, state, frame, text, checked)


def restated_here(flow: Flow[Any], state: Ask, frame: FlowFrame, heard: Utterance, checked: Slots | None) -> list[str]:
    """engine/fill.py's `restated`, over the run's slots (none read when this code cannot read them)."""
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        # most messages answer the question, and restate nothing: read that first, then whether the
        # message fills or changes another slot, which makes it the flow's to read ("english, and i live in Rome")
        again = restated(flow, state, slots, heard)
        return [] if not again or fills_other(flow, slots, state, heard.text) else again
    except (ValidationError, ValueError):
        return []


# a word no parser reads: what a parser says to it, it says to any words it cannot read
_UNREADABLE = "zqxjvw"


def _refused_alike(parser: Parser, refused: Invalid) -> bool:
    """Whether `refused` is what `parser` says to words it cannot read at all, not a reading of its own."""
    other = parser(_UNREADABLE)
    return isinstance(other, Invalid) and _UNREADABLE not in fold(other.reason) and other.reason == refused.reason


def takes_unsure(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str) -> bool:
    """Whether the open question's parser takes words that only say the user does not know as its value
    (a list reader's ["idk", "no idea"]): every item it read says so."""
    try:
        value = state.parser(flow.new_slots(frame.slots))(text)
    except (ValidationError, ValueError):
        return False
    # a list only: a free-text answer keeps its words (a quiz grades "dunno" as a wrong answer, a comment is as typed)
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and says_unsure(v) for v in value)


def answers_question(flow: Flow[Any], state: Ask, frame: FlowFrame, words: str) -> bool:
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
    return fills_other(flow, slots, state, words) or bool(ahead_commands(flow, state, frame.slots, words).sets)


def own_answer_of(flow: Flow[Any], state: Ask, frame: FlowFrame, text: str, checked: Slots | None) -> tuple[str, bool]:
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
        return not any(_keeps_words(s.value, clause) for s in sets) and not fills_other(flow, slots, state, clause)

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
    return own, named or fills_other(flow, slots, state, text) or bool(
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


def fills_other(flow: Flow[Any], slots: Slots, state: Ask, text: str) -> bool:
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
