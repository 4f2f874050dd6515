"""New requests in the middle of a flow: read at the open question, kept, and offered when it is done.

At an asking state a user may ask for something else than the question: another activity of the bot
("teach me continuity instead" while a study plan is being made), or anything the main conversation
answers ("can you remind me to work out tomorrow?", "how do i delete my account?", "whats my plan for
today?"). Before, such a message was a failed answer (a reprompt, an attempt used), a free-text answer
(saved as the feedback comment), or a question back about the question. Now the read stage asks
`at_question`, which reads a `NewRequest` command only when the part of the message that asks for
something else does not answer the question:

- a part that asks the bot to do something, asks about the account, the user's other records or
  advice beside the question (engine/data/requests.yaml, six languages), or names another flow of the
  bot by one of its intents, is a request, unless the state's parser reads an answer from it ("can you
  make it 4?" at the days question answers it);
- a part opening with another topic ("also my calendar isnt syncing", "btw how do i ...") is a request
  when it answers nothing;
- the parts that remain ("android. and also can you help me with shared lists") answer the question as
  usual when they do; where any text is an answer (a `greedy` parser: a feedback comment, an exercise),
  a request is split off only when it opens with another topic, and the whole message is one only when
  every part of it asks for something else.

The executor (`RequestRunner`, engine/kept.py) keeps the request in the session's carry-over (`CarryOver.requests`),
says so and asks the question again, no attempt used; when the session is back in the main
conversation (the flow finished, was cancelled or paused), a request for a flow is offered ("Do you want
to start the tutoring?", a yes starts it) and any other is carried out by the main conversation as if
it were said then. With no flow open, a message of several requests ("move it an hour later and add
decimals") is carried out one request after the other (`several`), a flow that one of them starts
keeping the rest for after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from engine.askback import about_answering, asks_options, plain_words
from engine.bot import Bot
from engine.commands import NewRequest
from engine.cues import fold_same_length, in_english_cues
from engine.extract import Invalid, Parser
from engine.fill import DIFFERENCE_BETWEEN, read_ahead
from engine.flow import Flow
from engine.gates import Gate, gate
from engine.hedges import unhedged
from engine.meanings import meanings_of
from engine.message_parts import Part, parts
from engine.message_parts import folded as askback_folded
from engine.models import FlowFrame, Slots
from engine.said import asks_for_person
from engine.slot_cues import extracted
from engine.smalltalk import small_talk
from engine.states import Ask, render
from engine.tables import any_of, compiles, load_table
from engine.utterance import Utterance

REQUESTS_FILE = Path(__file__).parent / "data" / "requests.yaml"


class RequestsTable(BaseModel):
    """engine/data/requests.yaml (its header says what each list is for)."""

    model_config = ConfigDict(extra="forbid")
    asks: list[str]
    elsewhere: list[str]
    beside: list[str]
    knowledge: list[str]
    topic: list[str]
    openers: list[str]
    contrast: list[str]
    not_requests: list[str]
    weighs: list[str]

    _check = field_validator(
        "asks", "elsewhere", "beside", "knowledge", "topic", "openers", "contrast", "not_requests", "weighs"
    )(classmethod(lambda cls, v: compiles(v)))


def load_requests(path: Path = REQUESTS_FILE) -> RequestsTable:
    """The table, validated; a broken file says what to fix."""
    return load_table(path, RequestsTable, "requests table")


@dataclass(frozen=True)
class _Compiled:
    asks: re.Pattern[str]
    elsewhere: re.Pattern[str]
    beside: re.Pattern[str]
    knowledge: re.Pattern[str]
    opens_topic: re.Pattern[str]
    only_topic: re.Pattern[str]
    contrast: re.Pattern[str]
    not_request: re.Pattern[str]
    weighs: re.Pattern[str]


@lru_cache(maxsize=1)
def _table() -> _Compiled:
    t = load_requests()
    word = r"(?<![\w']){}(?![\w'])"
    starts = r"(?<![\w']){}"  # stems: "cambi" in "cambio", "losch" in "lösche"
    topic = any_of(t.topic)
    return _Compiled(
        asks=re.compile(word.format(any_of(t.asks))),
        elsewhere=re.compile(starts.format(any_of(t.elsewhere))),
        beside=re.compile(starts.format(any_of(t.beside))),
        knowledge=re.compile(starts.format(any_of(t.knowledge))),
        opens_topic=re.compile(rf"\A(?:and |oh |so |but )?{topic}(?![\w'])"),
        only_topic=re.compile(rf"\A(?:and |oh |so |but )?(?:{topic}|{any_of(t.openers)})(?: (?:question|thing))?\W*\Z"),
        contrast=re.compile(rf"\A{any_of(t.contrast)}(?![\w'])"),
        not_request=re.compile(word.format(any_of(t.not_requests))),
        weighs=re.compile(word.format(any_of(t.weighs))),
    )


# -- reading ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A new request read at the open question: the command, and `rest`, the words that still
    answer the question ("" when none do)."""

    request: NewRequest
    rest: str


_WORDS = re.compile(r"[\w'’-]+")
# a part that opens with a question word asks, with or without its "?" ("comment je fais pour mieux dormir")
_ASKING = re.compile(
    r"(?:how|what|which|when|where|why|should|is|are|comment|combien|quel|quelle|pourquoi|como|cuanto|cuanta|cual"
    r"|cada|wie|welche|welcher|was|warum|come|quanto|quanta|qual|ogni|quando|porque)\b"
)
# a statement that wants something ("btw i also want to learn squat form"), not one that tells a fact
_WANTS = re.compile(
    r"\b(?:want|wanna|need|would love|quiero|quisiera|necesito|mochte|ich will|brauche|je veux|voudrais|"
    r"j'aimerais|vorrei|voglio|mi serve|quero|queria|gostaria|preciso)\b"
)


# a verb said to the bot with a thing it makes or gives as its object ("set a reminder", "give me some recipes")
_A_THING = re.compile(
    r"\b(?:can|could|would|will|pls|please) (?:you|u) (?:also |please |pls |just |maybe )?"
    r"\w+ (?:me |us )?(?:a|an|some)\b"
    r"|\A(?:(?:please|pls|also|first|now|just) )*(?:show|give|send|make|get|find|recommend|suggest) (?:me|us) "
    r"(?:a|an|some|\d+|a few)\b"
)

# a verb said to the bot with a thing of the user's as its object ("can you check my spanish homework", "tu peux
# corriger mon texte en anglais", "kannst du meine Hausaufgaben korrigieren"): the words after the possessive, up
# to a word that links them to something else, name the thing
_THEIR_THING = re.compile(
    r"\b(?:(?:can|could|would|will) (?:you|u) (?:please |pls |also |just )?\w++(?: over| through| at)? (?:my|our)"
    r"|(?:puedes|podrias|podes|puede|podria) (?:por favor )?\w++ (?:mis?|nuestr[oa]s?)"
    r"|(?:tu peux|peux-tu|pouvez-vous|vous pouvez|tu pourrais|vous pourriez) (?:\w++ )?(?:mon|ma|mes|notre|nos)"
    r"|(?:kannst du|konnen sie|konntest du|konnten sie) (?:(?:bitte|mal|mir) )*+mein(?:e[nmr]?+)?"
    r"|(?:puoi|potresti|puo) (?:per favore )?\w++ (?:(?:il|la|i|le) )?(?:mio|mia|miei|mie)"
    r"|(?:voce pode|pode|podes|poderia|voce poderia) \w++ (?:(?:o|a|os|as) )?(?:meu|minha|meus|minhas)"
    r")((?: [\w'-]++){1,3})"
)
# what ends the words naming the thing: a link to another ("my text IN english", "mi rutina DE principiante")
_LINK = frozenset(
    {"to", "as", "in", "into", "for", "on", "at", "of", "with", "down", "up", "and", "or",
     "en", "a", "de", "del", "para", "por", "y", "o",
     "pour", "dans", "avec", "au", "aux", "et", "ou",
     "auf", "zu", "fur", "mit", "von", "im", "und", "oder",
     "di", "per", "con", "su", "nel", "e",
     "em", "no", "na", "do", "da", "com"}
)  # fmt: skip


def _their_thing(p: Part, parser: Parser, asked: Sequence[str]) -> bool:
    """Whether part `p` asks the bot to do something to a thing of the user's that the open question (`asked`: its
    words, help, reason and what its parser expects) does not name and its parser reads nothing from ("could you
    read over my german essay" at the language question); "can you put my level down as beginner" names the
    level asked about, "can you count my dumbbells" names a value."""
    m = _THEIR_THING.search(p.folded)
    if m is None:
        return False
    head: list[str] = []
    for w in m.group(1).split():
        if w in _LINK:
            break
        head.append(w)
    content = [w for w in head if len(w) >= _SUBJECT_LETTERS and w not in plain_words()]
    # a value the question lists ("my limits homework" where it offers limits) names no subject of it
    unread = [w for w in content if not _reads(parser, w, echo_counts=True)]
    # "can you put my level down as beginner", "could you set my target language to german": its own subject
    return bool(unread) and not any(_named(w, asked) for w in unread)


# one more of something ("report another bug", "otro error", "un altro bug"): never the answer to the open question
_ANOTHER = re.compile(
    r"\b(?:another|one more|a second|otr[oa]|un autre|une autre|encore une?|einen anderen|eine andere|ein anderes"
    r"|noch (?:einen|eine|ein)|un altro|un'altra|un altra|ancora una?|outr[oa]|mais uma?)\b"
)


def _takes_down(parser: Parser, typed: str) -> bool:
    """Whether `typed` asks the bot to take down an answer the parser reads ("can you note a nut allergy?", "mi segni
    le noci?", "kannst du Laktose eintragen?"): the request is the answer's (engine/hedges.py `asking`), not another."""
    hedged = unhedged(typed)
    return hedged is not None and hedged.asking and _reads(parser, hedged.words.rstrip(" ?!"), echo_counts=True)


def _reads(parser: Parser, typed: str, *, echo_counts: bool) -> bool:
    """Does the parser read an answer from `typed`? In a request, a value that only copies the words
    back (a free-list reader's "can you do that?") is none (`echo_counts` False)."""
    value = parser(typed)
    if value is None or isinstance(value, Invalid):
        return False
    if echo_counts:
        return True
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = " ".join(str(v) for v in value)
    if isinstance(value, str):
        said = _WORDS.findall(fold_same_length(typed))
        return not said or _WORDS.findall(fold_same_length(value)) != said
    return True


def _fills(flow: Flow[Any], slots: Slots, asked: str, typed: str, state: Ask[Any] | None = None) -> bool:
    """Does `typed` give a value to a slot of the flow that it reads from any message ("vorrei imparare
    il giapponese" at the name question is the language to learn), empty or correctable, or to one the flow
    declares a message may fill before its question (`Flow.ahead`: "ah e il mio obiettivo è mettere su massa"
    at the injuries question is the goal)?"""
    if state is not None and any(s.slot != asked for s in read_ahead(flow, state, slots, typed).sets):
        return True
    found: dict[str, object] = {}
    for name, reader in flow.fills.items():
        if name == asked or (getattr(slots, name, None) is not None and name not in flow.correctable):
            continue
        found[name] = (reader if isinstance(reader, Parser) else reader(slots))(typed)
    found.update(extracted(flow, typed, slots, asked))
    return any(
        v is not None and not isinstance(v, Invalid) and k != asked and getattr(slots, k, None) != v
        for k, v in found.items()
    )


def _other_flow(bot: Bot, open_flow: str, typed: str, cued: bool = False) -> str | None:
    """The flow of the bot other than the open one that one of its intents reads in `typed`; with `cued`, also
    with its cue phrases of other languages written in English, as the main conversation reads intents ("je
    peux signaler un problème ?" asks for the feedback as "can I report a problem?" does)."""
    others = [i for i in bot.intents if i.flow != open_flow]
    found = next((i.flow for i in others if i.matches(typed)), None)
    if found is None and cued and (english := in_english_cues(typed)) != typed:
        found = next((i.flow for i in others if i.matches(english)), None)
    return found


@dataclass(frozen=True)
class _Cues:
    """What one part of the message says, before any parser is asked."""

    topic_only: bool = False  # only "also", "before that", "actually": it goes with the request after it
    asks: bool = False  # asks the bot to do something
    elsewhere: bool = False  # asks about the account or the user's other records
    beside: bool = False  # asks advice beside the question
    knowledge: bool = False  # a question of knowledge beside the question
    opens: bool = False  # opens another topic
    other: str | None = None  # another flow of the bot an intent reads in it

    @property
    def any(self) -> bool:
        return self.asks or self.elsewhere or self.beside or self.knowledge or self.opens or self.other is not None


def _cues(bot: Bot, open_flow: str, heard: Utterance, found: Sequence[Part], n: int) -> _Cues:
    table = _table()
    text = heard.text
    p = found[n]
    folded = p.folded
    # a topic opens a part before its filler is trimmed: "also" and "and" are filler to a question back
    lead = _lead(heard, found, n)
    if table.not_request.search(folded) or asks_for_person(text[p.start : p.end]):
        return _Cues()  # a person asked for is the handoff's, not a request kept for later
    if table.only_topic.match(lead):
        return _Cues(topic_only=True)
    if any(i.flow == open_flow and i.matches(text[p.start : p.end]) for i in bot.intents):
        return _Cues()  # what the open flow does ("can you explain the chain rule?" in a lesson): its own
    asks, elsewhere, beside, knowledge, opens = _said(folded, lead, p.role)
    return _Cues(
        asks=asks,
        elsewhere=elsewhere,
        beside=beside,
        knowledge=knowledge,
        opens=opens,
        # read in English only where the phrase tables read no request: a request they read ("pode agendar uma
        # sessão ...?") is kept as said, and carried out when the flow is done
        other=_other_flow(bot, open_flow, text[p.start : p.end], cued=not (asks or elsewhere or beside or knowledge)),
    )


@lru_cache(maxsize=1024)
def _said(folded: str, lead: str, role: str) -> tuple[bool, bool, bool, bool, bool]:
    """The cues a part's words give, whatever the bot (`_Cues` without `other`): the phrase tables'
    alternations searched over the part, thousands of characters each, asked at every question of
    every turn; the same words give the same cues, so they are searched once per part."""
    table = _table()
    return (
        table.asks.search(folded) is not None,
        table.elsewhere.search(folded) is not None,
        table.beside.search(folded) is not None,
        (role in ("open", "polar", "question") or _ASKING.match(folded) is not None)
        and table.knowledge.search(folded) is not None,
        table.opens_topic.match(lead) is not None,
    )


def at_question(
    bot: Bot, flow: Flow[Any], state: Ask, frame: FlowFrame, said: Utterance | str, checked: Slots | None = None
) -> Found | None:
    """The message at `state`'s open question as a new request, with what of it still answers the
    question (`checked`: the frame's slots as the turn validated them on load)."""
    table = _table()
    heard = said if isinstance(said, Utterance) else Utterance(said)
    text = heard.text
    if not _may_ask(bot, flow.name, heard):
        return None  # most answers: no word any cue of a request needs (engine/gates.py), no part read
    found = [p for p in parts(text) if p.role != "filler"]
    cues = [_cues(bot, flow.name, heard, found, n) for n in range(len(found))]
    # a part after one that only opens another topic opens it ("aproveitando, como funciona o modo offline?")
    cues = [
        replace(c, opens=True) if n and cues[n - 1].topic_only and not c.topic_only else c for n, c in enumerate(cues)
    ]
    # the difference between things the question does not name is asked beside it ("what's the difference between
    # ser and estar?" at the timezone question); between its own options it asks about it
    cues = [
        replace(c, knowledge=True)
        if not c.any
        and _asks_about_things(found[n])  # its sentence cut only for a part that asks about things
        and _compares_other(found[n], _sentence(heard, found[n]), flow, state, frame, checked)
        else c
        for n, c in enumerate(cues)
    ]
    if not any(c.any for c in cues):
        return None  # most answers: no slots read, no parser asked
    if small_talk(text) is not None:
        return None  # "give me a sec, checking": small talk asks for nothing
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return None  # slots this code cannot read: the flow's own reading says what is wrong
    greedy = parser.greedy
    asking: list[int] = []  # the parts that ask for something else
    wanted: str | None = None
    topic_only = [n for n, c in enumerate(cues) if c.topic_only]
    for n, (p, c) in enumerate(zip(found, cues, strict=True)):
        if not c.any:
            continue
        typed = text[p.start : p.end]
        strong = c.asks or c.elsewhere
        if greedy:
            request = strong or (c.other is not None and c.opens)
        elif c.beside and not strong:
            request = not _reads(parser, typed, echo_counts=False)
        elif c.knowledge and not strong:
            # "how many push ups should a beginner do?" at the level question asks, naming a level; "is morning
            # better for fat loss?" at the time of day weighs the question's own options: a question back
            request = not _weighs_its_values(p, parser)
        elif c.elsewhere and p.role in ("open", "question"):
            request = True  # "whats my plan for today?" asks about the plan, whatever day it names
        elif strong or c.other is not None:
            # a thing asked of the bot is a request whatever value it names ("could you set a reminder for 7am?"
            # at the time of day); what is asked of the answer is not ("can you make it 4?")
            request = (
                not _reads(parser, typed, echo_counts=False)
                or (c.asks and _A_THING.search(p.folded) is not None)
                or (c.asks and _ANOTHER.search(p.folded) is not None)
                or (c.asks and _their_thing(p, parser, [*_asked_words(state, slots), *_WORDS.findall(parser.expects)]))
            ) and not _takes_down(parser, typed)
        else:
            # only another topic opened: a request when the message answers nothing ("MEZ, also UTC+1"), or
            # when it is a thought of its own after the answer ("evenings. btw i also want to learn squat form")
            request = not _reads(parser, typed, echo_counts=False) and (
                not _reads(parser, text, echo_counts=True)
                or (
                    n > 0
                    and len(_WORDS.findall(typed)) >= 4
                    and (p.role != "statement" or _WANTS.search(p.folded) is not None)
                )
            )
        if request and not c.beside and not c.knowledge and _about_answering_it(p, state, slots):
            continue  # "where do I find the model?" at the phone model, "which ones do you have?": a question back
        # a question of knowledge fills nothing it names ("wie spät ist es in Berlin?" gives no timezone), nor does
        # one more of something asked for ("je voudrais signaler un autre bug" is no comment on this one)
        another = c.asks and _ANOTHER.search(p.folded) is not None
        # a part the open flow says is its own ("could you remind me what a limit is" in a lesson on limits) is the
        # flow's to answer: the aside that owns it hears it as said, not kept for later
        if request and owned(flow, slots, typed):
            continue
        # only another topic opened ("ah e il mio obiettivo è ..."): a fact the flow reads ahead is no request; a
        # thing asked of the bot ("remind me the night before") is one, whatever time or value it names
        ahead = state if not (c.asks or c.elsewhere or c.beside or c.other) else None
        if request and (c.knowledge or another or not _fills(flow, slots, state.slot, typed, ahead)):
            asking.append(n)
            wanted = wanted or c.other
    if not asking:
        return None
    if all(not cues[n].beside and not cues[n].knowledge and _on_the_question(found[n], state, slots) for n in asking):
        return None  # "what can i change?" where the question asks what to change: a question back about it
    for n in list(asking):  # "zwischen der, die und das?": the things compared go on past a comma, in the request
        if cues[n].knowledge and _compares_other(
            found[n], sentence := _sentence(heard, found[n]), flow, state, frame, checked
        ):
            asking += [
                m
                for m in range(n + 1, len(found))
                if m not in asking and found[m].end <= found[n].start + len(sentence) + 1
            ]
    for n in range(len(found)):  # "..., not a whole program": what the request is not goes with it
        if n - 1 in asking and n not in asking and table.contrast.match(_lead(heard, found, n)):
            asking.append(n)
    asking.sort()
    rest = [n for n in range(len(found)) if n not in asking and n not in topic_only]
    first = min(asking + [n for n in topic_only if n + 1 in asking or n + 1 in topic_only])
    # the user's words, with the topic they opened it with ("also can you ...") and, at the end, its "?"
    start = (found[first - 1].end if first else 0) + len(_lead_gap(text, found, first))
    end = len(text) if asking[-1] == len(found) - 1 else found[asking[-1]].end
    words = text[start:end].strip()
    command = NewRequest(words=words, flow=wanted)
    if not rest:
        return Found(command, "")
    answer = ", ".join(text[found[n].start : found[n].end] for n in rest)
    if small_talk(answer) is not None:
        return Found(command, "")  # "hi, sorry, can you ...": nothing answers
    if greedy:
        # any text answers here: a request is split off only where it opens another topic
        opened = all(table.opens_topic.match(_lead(heard, found, n)) or n - 1 in topic_only for n in asking)
        return Found(command, answer) if opened and min(asking) > max(rest) else None
    # the rest must answer: what else it says ("why? are you going to give me recipes") is not a request's
    if any(found[n].role in ("question", "open", "polar") for n in rest):
        return None
    if _reads(parser, answer, echo_counts=True):
        return Found(command, answer)
    # a remark after a request asked outright, saying why ("can u make me a meal plan? im so lost with food lol"):
    # the request, and the question asked again, as the remark answers nothing
    outright = all(found[n].role in ("question", "open", "polar") or cues[n].opens for n in asking)
    return Found(command, "") if outright and min(rest) > max(asking) else None


def _may_ask(bot: Bot, open_flow: str, heard: Utterance) -> bool:
    """Whether a part of the message may give a cue `_cues` reads or a question about things
    (`_compares_other`): a word one of their patterns needs (`gate`), in the folded message the parts
    and their leads are cut from, or one an intent of another flow needs in the message as typed."""
    cues = _gate()
    lowered = heard.lowered
    blanked = askback_folded(heard.text)  # the parts' own folding: emoticons blanked
    return (
        cues.may(lowered)
        or (blanked != lowered and cues.may(blanked))
        or any(i.flow != open_flow and i.gate.may(heard.text) for i in bot.intents)
        or (
            (english := in_english_cues(heard.text)) != heard.text
            and any(i.flow != open_flow and i.gate.may(english) for i in bot.intents)
        )
    )


@lru_cache(maxsize=1)
def _gate() -> Gate:
    """What any cue of `_cues` and `_compares_other` needs: made from the patterns they search."""
    t = _table()
    return gate([t.asks, t.elsewhere, t.beside, t.knowledge, t.opens_topic, t.only_topic, *_ABOUT_THINGS])


def owned(flow: Flow[Any], slots: Slots, typed: str) -> bool:
    """Whether an aside of the flow declares the request in `typed` its own (`Aside.owns`)."""
    return any(x.owns is not None and x.owns(typed, slots) for x in flow.asides)


# the longest `things` a question about how things work names: unbounded, a lazy `.+?` searched from every "how
# did" of a long message runs to its end each time (quadratic, tests/test_pattern_shapes.py)
_THINGS_CHARS = 80
# a question about things, with what it is about (`things`): the difference between them ("what's the difference
# between ser and estar?"), how one works ("how do integrals work?") or how one does something ("zeigst du mir, wie
# man Kniebeugen richtig macht?"). About things the open question names it asks about the question ("what's the
# difference between intermediate and advanced?"); about anything else it asks the bot something beside it, in
# every flow (folded text). How a thing works is read in English only: the question's words are English, and
# "comment fonctionne le fuseau horaire ?" names the timezone in words no English question has
_ABOUT_THINGS = (
    re.compile(DIFFERENCE_BETWEEN.pattern + r" (?P<things>.+)"),
    re.compile(rf"\bhow (?:does|do|did) (?P<things>.{{1,{_THINGS_CHARS}}}?) (?:work|works|function)\b"),
    re.compile(rf"\bwie man (?P<things>.{{1,{_THINGS_CHARS}}}?) (?:richtig |korrekt )?(?:macht|mache|tut)\b"),
)
# words that compare what was said, not things of their own ("the difference between them", "between the two")
_DEICTIC = frozenset(
    {"this", "that", "these", "those", "them", "it", "they", "both", "one", "ones", "two", "first", "second",
     "esto", "eso", "esos", "estas", "ellos", "ceci", "cela", "ça", "ca", "eux", "dies", "diese", "beiden",
     "questo", "quello", "questi", "quelli", "isso", "isto", "aquilo", "eles", "los", "les", "gli"}
)  # fmt: skip
# what joins the things compared ("ser and estar", "der, die und das")
_JOINING = frozenset({"and", "or", "y", "o", "e", "et", "ou", "und", "oder", "vs", "versus"})


def _asks_about_things(p: Part) -> bool:
    """Whether part `p` asks about things at all (`_ABOUT_THINGS`): the first test of `_compares_other`."""
    return any(x.search(p.folded) for x in _ABOUT_THINGS)


def _compares_other(
    p: Part, sentence: str, flow: Flow[Any], state: Ask, frame: FlowFrame, checked: Slots | None
) -> bool:
    """Whether part `p` asks about things (their difference, how they work or are done) none of which the open
    question names nor its parser reads; `sentence`: the folded message from the part to the end of its sentence,
    where the things it lists go on past a comma ("zwischen der, die und das")."""
    if not _asks_about_things(p):
        return False
    found = next((m for m in (x.search(sentence) for x in _ABOUT_THINGS) if m is not None), None)
    if found is None:
        return False
    said = [w for w in _WORDS.findall(found["things"]) if w not in _JOINING]
    things = [w for w in said if len(w) >= _SUBJECT_LETTERS and w not in plain_words()]
    everyday = not things and len(said) >= 2 and not any(w in _DEICTIC for w in said)
    if everyday:
        # the things are everyday words themselves ("ser and estar", "der, die und das", "le et la"): plain words
        # as subjects, named by the question only as they are ("le" is no "level")
        things = said
    try:
        slots = checked if checked is not None else flow.new_slots(frame.slots)
        parser = state.parser(slots)
    except (ValidationError, ValueError):
        return False
    asked = [*_asked_words(state, slots), *_WORDS.findall(state.slot.replace("_", " "))]
    # the question's own values, named in its words or the user's ("zwischen Ausdauer und Gesundheit")
    return bool(things) and not any(
        (w in asked if everyday else _named(w, asked)) or _reads(parser, w, echo_counts=False) for w in things
    )


def _weighs_its_values(p: Part, parser: Parser) -> bool:
    """Whether part `p` weighs one thing against another (requests.yaml `weighs`) and names a value the open
    question's parser reads in one of its words ("is morning better for fat loss?", "é melhor treinar 3 ou 4
    dias?", whose words together are several numbers, no one value)."""
    if _table().weighs.search(p.folded) is None:
        return False
    # a word the question lists as one of its values is read as itself ("morning" at "morning, midday, ..."): not a
    # copy, as a list reader's copy of any word is
    return any(
        _reads(parser, w, echo_counts=False) or parser.reads_plainly(w)
        for w in _WORDS.findall(p.folded)
        if w not in plain_words()
    )


def _about_answering_it(p: Part, state: Ask, slots: Slots) -> bool:
    """Whether part `p` asks how to answer the open question ("where do I find the model?" where it asks the phone
    model) or which answers it has ("which ones do you have?", "what languages do you have?" at the language to
    learn), naming nothing the question does not name ("where do I find my invoices?" asks about something else)."""
    if (rest := about_answering(p)) is None and not asks_options(p):
        return False
    said = rest if rest is not None else p.folded
    own = [w for w in _WORDS.findall(said) if len(w) >= _SUBJECT_LETTERS and w not in plain_words() | _DEICTIC]
    asked = _asked_words(state, slots)
    return all(_named(w, asked) for w in own)


def _sentence(heard: Utterance, p: Part) -> str:
    """The folded message from part `p` to the end of its sentence (the next ?, ! or .)."""
    rest = fold_same_length(heard.lowered[p.start :])
    return re.split(r"[?!.;]", rest, maxsplit=1)[0]


def _asked_words(state: Ask, slots: Slots) -> list[str]:
    """The words of the open question, its help and its reason, and the terms it declares meanings for (the levels
    A1-C2 at a placement question that names none), folded."""
    try:
        said = render(state.say, slots)
        terms = meanings_of(state.meanings, slots)
    except Exception:  # a question that needs more than its slots to say: its help still tells
        said, terms = "", {}
    named = " ".join(f"{k} {' '.join(m.words)}" for k, m in terms.items()).replace("_", " ")
    return _WORDS.findall(fold_same_length(f"{said} {state.help} {state.why or ''} {named}"))


def _named(word: str, asked: Sequence[str]) -> bool:
    return any(q.startswith(word[: _SUBJECT_LETTERS + 1]) for q in asked)


def _on_the_question(p: Part, state: Ask, slots: Slots) -> bool:
    """Whether part `p` asks only with the open question's own words ("what can i change?", "je peux changer
    quoi ?" where it asks what to change): about the question, not something else."""
    own = [w for w in _WORDS.findall(p.folded) if len(w) >= _SUBJECT_LETTERS and w not in plain_words()]
    if not own:
        return False
    asked = _asked_words(state, slots)
    return all(_named(w, asked) for w in own)


_SUBJECT_LETTERS = 3  # shorter words name no subject


def _lead(heard: Utterance, found: Sequence[Part], n: int) -> str:
    """Part `n` with the filler it opens with ("and also can you ..."), folded (the folded message
    keeps the message's positions)."""
    return heard.lowered[found[n - 1].end if n else 0 : found[n].end].strip(_MARKS)


def _lead_gap(text: str, found: Sequence[Part], n: int) -> str:
    """The marks between part `n - 1` and part `n`'s first word."""
    between = text[found[n - 1].end if n else 0 : found[n].end]
    return between[: len(between) - len(between.lstrip(_GAP))]


_MARKS = " .,;:!?¿¡-–—"
_GAP = " .,;:!?-–—"  # an opening "¿" or "¡" is the request's own


# -- several requests in one message ---------------------------------------------------------------------

# where a second request starts: "and", "then", "also", "plus" or a comma, before a verb that asks
_SECOND = re.compile(
    r"(?:,\s*+|(?<!\s)\s++)(?:and(?: then| also)?|then|also|plus|oh and)\s++"
    r"(?=(?:(?:please|pls|also|can you|could you)\s+)?"
    r"(?:add|move|drop|remove|delete|make|change|switch|set|teach|explain|schedule|plan|book|cancel|put|push"
    r"|shift|swap|include|throw in|remind|send|show|tell me)\b)",
    re.IGNORECASE,
)


# what opens a request without making one: "can you also teach me ..." is one request, its "also"
# an adverb, not a second request's start
_OPENER = re.compile(
    r"(?:(?:so|ok|okay|and|hey|oh)\s+)?(?:can|could|would|will)\s+(?:you|u)(?:\s+please)?|please|pls|i want you to"
    r"|i'?d like you to|i need you to"
    # "ok then teach me integration": an acknowledgement before "then" leads into the request, makes none
    r"|(?:ok(?:ay)?|alright|all right|right|well|so|fine|cool|great|sure|yeah|hmm+)(?:[\s,]+(?:so|well|now))*",
    re.IGNORECASE,
)


def several(text: str) -> list[str]:
    """`text` as the requests it makes one after the other ("can you move it an hour later and add
    decimals": two), or one when it makes one ("can you also teach me derivatives")."""
    out = [p for p in (p.strip(" ,") for p in _SECOND.split(text)) if p]
    if len(out) < 2 or any(_OPENER.fullmatch(p) for p in out):
        return [text]
    return out
