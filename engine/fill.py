"""Several facts in one message: the open flow's other empty slots, read clause by clause.

"vegetarian, and gluten intolerant" at the diet question answers it and the allergies question
to come; "im 29, 175 cm and 80 kg, beginner i guess" at the level question gives the level and
the body weight. A flow declares which slots a message may fill ahead of their question
(`Flow.ahead`), each read by its own question's parser or by a reader the flow names; the read
stage (engine/reading.py) turns what it finds into `SetSlot` commands, each with the clause
that says it, and the open flow makes them before it reads the rest of the message as the
answer to its question (engine/flowrun.py). A slot filled ahead is not asked later: the flow
skips a question whose slot holds a value.

How a message is read:

- It is cut into clauses: at , ; . ! ? and a spaced dash, and before the words that join a
  second thought ("and", "but", "also", "y", "und", "et", "e", "ma", "mas", "aber", "pero"), not
  inside one number ("an hour and a half", "a hundred and ten").
- Each clause is read by the asked slot's parser and by the parser of every declared slot that
  is still empty. A clause names a slot when it holds one of its cue words (the slot's name,
  the `cues` of its `Ahead`, the `names` of its `Correctable`): "3 days a week", "40 min",
  "80 kg".
- A value read for another slot counts when its clause names that slot, or, for a slot whose
  answers name it by themselves (`Ahead(alone=True)`, or the slot's name given as a string:
  "vegan", "mornings", "beginner"), when the asked slot's parser does not read that clause. A
  number alone never names a slot ("3" could be days or minutes), so it needs a cue.
- A clause that names another slot is that slot's, even where the asked slot's parser reads a
  value in it ("45, 4 days a week" at the minutes question: the days are 4), unless it names the
  asked slot too ("80 kg" at the target question is the target). A clause that is a question
  ("is 15 minutes even worth it?") states no fact.
- Words the asked parser only copies back ("Monday" as the equipment) are another slot's when
  that slot reads them, unless the asked slot's own `Ahead` reader reads them too ("sore shoulder
  from the bench" at the injuries question is the injury, though "bench" is equipment).
- `Ahead(whole=True)` reads the whole message instead (a weight's role comes from the clauses
  around it); the value the asked question reads there is not taken for another slot too.
- A slot read in several clauses takes the span from the first to the last when its parser
  reads one value there ("mon, wed, fri"); several different values are not guessed. The clause
  after it is the slot's too when its parser folds it into the same value, a hedge ("4 days, maybe
  5 if i'm motivated" is 4): never the asked question's answer.
- What the clauses taken ahead leave (`rest`) is what the asked question reads; when nothing is
  read ahead, the message is left as typed. A clause taken ahead stays in the rest too when the
  asked question reads no answer without it and one with it ("mon/wed/fri at lunch" at the days
  question: the days and the time of day are in one clause).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import JsonValue, ValidationError

from engine import gloss
from engine.ahead import Ahead, declared
from engine.commands import SetSlot
from engine.cues import fold_same_length
from engine.extract import FOR_NOW, Empty, Invalid, Parser, copied, declines, fold, said_number
from engine.models import Slots
from engine.numwords import may_hold_number
from engine.states import Ask
from engine.tables import alternation, and_words, but_words, filler_phrases, indefinite_words, unsure_phrases
from engine.utterance import Utterance
from engine.yesno import read_yes_no

if TYPE_CHECKING:
    from engine.flow import Flow


class Clause(NamedTuple):
    start: int
    end: int
    text: str


# the words that join a second thought: "and" and "but" in the six languages (engine/data/and.yaml, but.yaml),
# and "also"
_JOINS = alternation([*and_words().all(), *but_words().but.all(), "also", "btw", "tambien", "también"])
# where one fact ends and the next begins: punctuation, a spaced dash, and the words that join a second
# thought, not those inside one number ("an hour and a half", "a hundred and ten")
_SPLIT = re.compile(
    # "anything but mornings" is one clause: what follows "but" there is ruled out, no other fact
    r"[,;.!?¿¡…\n]+|\s[-–—]\s|(?<![\s])(?<!hundred)(?<!thousand)(?<!anything)(?<!everything)\s++"
    rf"(?={_JOINS}\s)"
    r"(?!and a half|y media|und halb|et demie|e mezz|e meia)",
    re.I,
)
# the joining word a clause may start with: not part of what it says
_LEAD = re.compile(rf"^{_JOINS}\s+", re.I)
# the words that join one more item to a list ("peanuts and soy"), not a contrast ("but")
_AND = re.compile(alternation(and_words().all()), re.I)
# the words that join a contrast, in the six languages: what follows may qualify the value before it
_BUT = re.compile(alternation(but_words().but.all()), re.I)
MAX_CLAUSES = 12
# a habit of the past, in the six languages: "i used to run 10k", "solía correr", "früher bin ich gelaufen"
_PAST = re.compile(
    r"\b(?:used to|use to|back when|years ago|when i was (?:younger|a kid|in school)|solia|antes (?:corria|hacia|iba)"
    r"|fruher|damals|autrefois|avant je|je faisais|costumava|antigamente|prima (?:facevo|correvo|andavo)|un tempo)\b"
)
# a habit of now, in the six languages: the user (said or not) doing a sport or a pastime, told in the present
# ("i run twice a week", "salgo a correr", "ich spiele Fußball", "je fais du vélo", "jogo futebol", "corro"). It
# says what the user does, not what the plan should hold: what they will or can do is said with a modal
# (`_PLANNED`). Training itself ("i train 3x a week", "treino 3 vezes") is the plan's own activity: no habit.
_HABITS = (
    # English: a subject, then a sport or a pastime in the present
    r"(?:\b(?:i|i also|i usually|i normally|i already|we)\s+|^(?:also|usually|normally|already)\s+)"
    r"(?:run|jog|swim|cycle|bike|ride(?: my bike)?|walk|hike|climb|row|box|dance|ski|surf|skate|play\s+\w+"
    r"|go (?:running|jogging|swimming|cycling|biking|hiking|climbing|dancing|rowing|skiing|surfing"
    r"|for (?:a )?(?:run|swim|walk|ride)s?)"
    r"|do (?:yoga|pilates|crossfit|karate|judo|boxing|martial arts|zumba|spinning))\b",
    r"\b(?:i'?m|i am) (?:running|jogging|swimming|cycling|biking|hiking|climbing|playing \w+)\b",
    # Spanish
    r"\b(?:salgo a (?:correr|caminar|nadar|pedalear)|corro|nado|juego (?:al? )?\w+|camino|monto en bici"
    r"|hago (?:yoga|pilates|crossfit)|bailo|escalo)\b",
    # German
    r"\bich (?:laufe|jogge|schwimme|spiele|fahre rad|radle|wandere|klettere|tanze"
    r"|gehe (?:laufen|joggen|schwimmen|klettern|wandern)|mache (?:yoga|pilates|crossfit))\b",
    # French
    r"\bje (?:cours|nage|joue|marche|danse|grimpe|fais (?:du (?:velo|footing|jogging|yoga|pilates|crossfit|sport)"
    r"|de la (?:natation|course|danse|marche|boxe)))\b",
    # Portuguese
    r"\b(?:jogo \w+|ando de bicicleta|faco (?:yoga|pilates|crossfit|caminhada|corrida)|danco|nado|caminho|corro)\b",
    # Italian
    r"\b(?:gioco (?:a )?\w+|nuoto|vado (?:a correre|in bici|a nuotare)|faccio (?:yoga|pilates|crossfit|corsa)"
    r"|ballo)\b",
)
_HABIT = re.compile("|".join(_HABITS))
# a plan or an ability said with the habit's verb: "i can run 3 days a week", "i want to swim twice", "puedo"
_PLANNED = re.compile(
    r"\b(?:can|could|want|wanna|would|will|i'?ll|'d like|plan|planning|going to|gonna|able|puedo|quiero|podria|voy a"
    r"|kann|konnte|will|mochte|werde|peux|veux|voudrais|pourrais|vais|posso|quero|gostaria|vou|potrei|voglio|vorrei)\b"
)


def habit(text: str) -> bool:
    """Does `text` (one clause) tell what the user does now, a sport or a pastime ("i run twice a week"),
    rather than what they will or can do? Such a clause fills no `plan` slot ahead."""
    t = fold(text)
    return _HABIT.search(t) is not None and _PLANNED.search(t) is None


def plan_slots(flow: Flow[Any]) -> frozenset[str]:
    """The slots the flow declares hold a plan (`Ahead.plan`)."""
    return frozenset(a.slot for a in map(declared, flow.ahead) if a.plan)


def without_habits(text: str) -> str:
    """`text` without its clauses that tell a habit of now (`habit`), or of the past (`_PAST`)."""
    parts = clauses(text)
    kept = [c for c in parts if not habit(c.text) and not _PAST.search(fold(c.text))]
    return text if len(kept) == len(parts) else ", ".join(c.text for c in kept)


def clauses(text: str) -> list[Clause]:
    """The clauses of `text`, each with its span in it (a joining word it starts with left out)."""
    out: list[Clause] = []
    last = 0
    for m in [*_SPLIT.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[last:end]
        lead = len(piece) - len(piece.lstrip())
        joined = _LEAD.match(piece[lead:])
        if joined:
            lead += joined.end()
        s, e = last + lead, last + len(piece.rstrip())
        if e > s:
            out.append(Clause(s, e, text[s:e]))
        last = m.end() if m else len(text)
    return _hedged_numbers_joined(text, out)


# a number hedged after a comma is a few words: "3, maybe 4", "45, an hour max"
_HEDGE_WORDS = 5


def _hedged_numbers_joined(text: str, parts: list[Clause]) -> list[Clause]:
    """`parts` with a number and the one hedged after it as one clause: "three, maybe four days", "3 days, 4
    tops" say one number, as the question reads them (engine/extract.py `said_number`); split, the second
    would be read alone as the fact ("maybe four days": 4 days a week)."""
    out: list[Clause] = []
    for part in parts:
        before = out[-1] if out else None
        if (
            before is not None
            and len(part.text.split()) <= _HEDGE_WORDS
            and text[before.end : part.start].strip(" ,") == ""
            and may_hold_number(part.text)  # most clauses say no number: no number reader run
            and said_number(part.text)
            and said_number(before.text)
            and len(said_number(text[before.start : part.end])) == 1
        ):
            out[-1] = Clause(before.start, part.end, text[before.start : part.end])
        else:
            out.append(part)
    return out


@lru_cache(maxsize=256)
def _cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str] | None:
    words = sorted({fold(c) for c in cues if c.strip()}, key=len, reverse=True)
    if not words:
        return None
    # a unit may follow its number without a space ("40min", "80kg"); no letter may touch a cue
    return re.compile(rf"(?<![^\W\d_])(?:{'|'.join(re.escape(w) for w in words)})(?![^\W\d_])")


def _cues(flow: Flow[Any], slot: str, a: Ahead | None) -> re.Pattern[str] | None:
    """The words that name `slot` in a clause: its name, its `Ahead` cues, its `Correctable` names."""
    names = [n for c in flow.correctable if not isinstance(c, str) and c.slot == slot for n in c.names]
    return _cue_pattern((slot.replace("_", " "), *(a.cues if a else ()), *names))


class _Declared(NamedTuple):
    """One entry of a flow's `ahead` with what never changes between turns: its reader (or the
    callable that picks it from the slots), the words that name its slot, and how its own question
    reads an answer (for a clause that declines it: "no limitations" beside the level)."""

    ahead: Ahead
    chosen: Parser | Callable[[Any], Parser]
    cue: re.Pattern[str] | None
    asks: Parser | Callable[[Any], Parser] | None


class _FlowTable(NamedTuple):
    flow: weakref.ref[Flow[Any]]  # the flow it was built for (an id may be another's later)
    declared: tuple[_Declared, ...]
    asked_cues: dict[str, re.Pattern[str] | None]


# per flow, built on its first message and kept for as long as the flow lives
_TABLES: dict[int, _FlowTable] = {}


def _table(flow: Flow[Any]) -> _FlowTable:
    table = _TABLES.get(id(flow))
    if table is None or table.flow() is not flow:
        out: list[_Declared] = []
        for entry in flow.ahead:
            a = declared(entry)
            chosen = a.parser or flow.parser_of(a.slot)
            if chosen is not None:
                out.append(_Declared(a, chosen, _cues(flow, a.slot, a), flow.parser_of(a.slot)))
        table = _TABLES[id(flow)] = _FlowTable(weakref.ref(flow), tuple(out), {})
        weakref.finalize(flow, _TABLES.pop, id(flow), None)
    return table


def _asked_cue(flow: Flow[Any], slot: str) -> re.Pattern[str] | None:
    """The words that name the asked slot (whether or not it is declared ahead)."""
    cues = _table(flow).asked_cues
    if slot not in cues:
        own = next((declared(e) for e in flow.ahead if declared(e).slot == slot), None)
        cues[slot] = _cues(flow, slot, own)
    return cues[slot]


def asked_cues(flow: Flow[Any], slot: str) -> tuple[str, ...]:
    """The words the flow says name `slot` (`Ahead.cues`, `Correctable` names): what its question asks about,
    besides the question's own words."""
    own = next((declared(e) for e in flow.ahead if declared(e).slot == slot), None)
    names = [n for c in flow.correctable if not isinstance(c, str) and c.slot == slot for n in c.names]
    return (*(own.cues if own else ()), *names)


def names_a_slot(flow: Flow[Any], asked: str, text: str) -> bool:
    """Whether `text` names a slot of the flow by the words the flow declares for it: the asked slot by its name,
    its `Ahead` cues and its `Correctable` names, or a word of four letters or more of one ("a minha língua" names
    the native language, "língua materna"); any other slot it fills ahead or lets be corrected by its name and its
    `Correctable` names ("the days"), not by its cues, which may be values of its own ("lunch" is a time of day)."""
    folded = fold(text)
    words = set(re.findall(r"[\w'-]+", folded))
    own = next((declared(e) for e in flow.ahead if declared(e).slot == asked), None)
    names = (asked.replace("_", " "), *(own.cues if own else ()), *asked_cues(flow, asked))
    if any(same_word(w, n) for n in {w for n in names for w in re.findall(r"[\w'-]+", fold(n))} for w in words):
        return True
    cue = _cues(flow, asked, own)
    if cue is not None and cue.search(folded):
        return True
    others = {declared(e).slot for e in flow.ahead} | {c if isinstance(c, str) else c.slot for c in flow.correctable}
    for slot in others - {asked}:
        cue = _cues(flow, slot, None)
        if cue is not None and cue.search(folded):
            return True
    return False


# a word shorter than this names nothing by itself ("of", "de", "h"), and is no stem of another ("sessione" is
# "session" with an ending; "minuto" and "minute" share a stem of this length)
_NAMING_LETTERS = 4
_STEM_LETTERS = 5


def same_word(word: str, other: str) -> bool:
    """Whether two folded words are one word said in two forms: the same, or one a stem of five letters or more of
    the other ("session", "sessions", "sessione"; "workout", "workouts"). Words of under four letters are none."""
    if len(word) < _NAMING_LETTERS or len(other) < _NAMING_LETTERS:
        return False
    short, long = sorted((word, other), key=len)
    return short == long or (len(short) >= _STEM_LETTERS and long.startswith(short))


class _Open:
    """A declared slot the message may fill now. Its reader, which a flow may pick from the slots,
    is made the first time a clause needs it: most clauses are decided by their cue words alone."""

    __slots__ = (
        "_asks", "_chosen", "_parser", "_slots", "beside", "catch_all", "cue", "declared_alone", "named_before", "plan",
        "slot", "whole",
    )  # fmt: skip

    def __init__(self, declared: _Declared, slots: Slots) -> None:
        self.slot, self.cue, self.whole = declared.ahead.slot, declared.cue, declared.ahead.whole
        self.plan = declared.ahead.plan
        self.catch_all = tuple(declared.ahead.catch_all)
        # the words naming it were said earlier in the conversation (a unit, kept in its slot)
        self.named_before = _named_before(declared.ahead, slots)
        self.beside = declared.ahead.beside
        # the flow says its values name it (`Ahead.alone`); `alone` is whether they do here
        self.declared_alone = declared.ahead.alone
        self._chosen, self._slots, self._asks = declared.chosen, slots, declared.asks
        self._parser: Parser | None = None

    @property
    def parser(self) -> Parser:
        if self._parser is None:
            chosen = self._chosen
            self._parser = chosen if isinstance(chosen, Parser) else chosen(self._slots)
        return self._parser

    def declined(self, text: str) -> object:
        """The slot's none, as its own question reads a clause that names the slot and declines it ("no
        limitations", "keine Allergien"): a reader of values said in passing may know no "none" (an
        injury reader reads injuries); None when the question has no stored none (an optional's EMPTY)."""
        asks = self._asks
        if asks is None or not declines(text):
            return None
        return _value(asks if isinstance(asks, Parser) else asks(self._slots), text)

    def empty_none(self) -> bool:
        """Does the slot's own question take "none" as no value (an optional's EMPTY: no target weight), so
        that a none said ahead leaves nothing in the slot to show it was answered?"""
        asks = self._asks
        if asks is None:
            return False
        return isinstance(_read(asks if isinstance(asks, Parser) else asks(self._slots), "none"), Empty)

    @property
    def alone(self) -> bool:
        """May its value count in a clause that names no slot? A free-text reader takes any words:
        only a clause that names its slot is its."""
        return self.declared_alone and not self.parser.greedy


def _named_before(ahead: Ahead, slots: Slots) -> bool:
    """Were the words that name the slot said earlier (`Ahead.named_by`: a slot holding them is filled)?"""
    return any(not _empty(slots, name) for name in ahead.named_by if name in type(slots).model_fields)


def _open(flow: Flow[Any], slots: Slots, asked: str | None) -> list[_Open]:
    """The declared slots a message may fill now: empty, not the asked one, with a parser."""
    return [_Open(d, slots) for d in _table(flow).declared if d.ahead.slot != asked and _empty(slots, d.ahead.slot)]


def _empty(slots: Slots, name: str) -> bool:
    """Is the slot as a new run holds it (None, or an empty list its model starts with)?"""
    value = getattr(slots, name, None)
    if value is None:
        return True
    if value not in ([], {}):
        return False  # a value given: the default (a factory's, made anew) is not asked for
    return bool(type(slots).__pydantic_fields__[name].get_default(call_default_factory=True) == value)


def _value(parser: Parser, text: str) -> object:
    try:
        found = parser(text)
    except (ValueError, TypeError):
        return None
    return None if found is None or isinstance(found, (Invalid, Empty)) else found


_FAILED = Invalid("the reader failed")  # a parser that raised: no value, no answer


def _read(parser: Parser, text: str) -> object:
    try:
        return parser(text)
    except (ValueError, TypeError):
        return _FAILED


def _answers(found: object) -> bool:
    """Is what the asked question's parser read an answer? "none" to an optional question is one
    (it declines): never another slot's value ("nothing" is no diet then)."""
    return isinstance(found, Empty) or (found is not None and not isinstance(found, Invalid))


def _any_will_do(text: str) -> bool:
    """A clause that only says any value will do or the user does not know ("anything goes", "lo que sea")."""
    return " ".join(fold(text, accents=True).strip(" .!?¡¿:;)(").split()) in unsure_phrases()


@lru_cache(maxsize=1)
def _indefinite() -> re.Pattern[str]:
    words = sorted({fold(w) for w in indefinite_words()}, key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])")


def _only_indefinite(parser: Parser, text: str, value: object) -> bool:
    """Whether `value`, read from `text`, comes from its indefinite words alone ("i haven't done anything
    in years" read as an omnivore diet): read again without them, the clause gives another value or none."""
    folded = fold(text)
    if _indefinite().search(folded) is None:
        return False
    return _value(parser, _indefinite().sub(" ", folded)) != value


# a list of this many items that a count reads (a week's days) names all of them, none in particular
_EVERY = 7


def _vague(c: _Open, value: object, folded: str) -> bool:
    """Whether `value` is one of the slot's catch-all values (`Ahead.catch_all`) and the folded clause says
    no word of its own name."""
    return value in c.catch_all and not _own_name_said(value, folded)


def _own_name_said(value: object, folded: str) -> bool:
    """Whether the folded text says a word of the value's own name ("general fitness", "for my health":
    general_health), the words that single it out among the slot's values."""
    words = re.findall(r"[^\W\d_]+", fold(str(value).replace("_", " ")))
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", folded) for w in words)


def _catch_alls(flow: Flow[Any]) -> dict[str, Ahead]:
    return {a.slot: a for a in map(declared, flow.ahead) if a.catch_all}


def extracted(flow: Flow[Any], text: str, slots: Slots, asking: str | None) -> dict[str, object]:
    """The flow's any-time extractor (`Flow.extract`) on `text`, held to the flow's declarations: a slot's
    catch-all value (`Ahead.catch_all`: a goal of general health from "i want to get in shape") is kept out
    of turn only where the message names the slot or says the value's own name, as `read_ahead` keeps it."""
    if flow.extract is None:
        return {}
    found = flow.extract(text, slots, asking)
    vague = _catch_alls(flow)
    if not any(k != asking and k in vague and v in vague[k].catch_all for k, v in found.items()):
        return found
    folded = fold(text)
    named = {k for k, a in vague.items() if (cue := _cues(flow, k, a)) is not None and cue.search(folded)}
    return {
        k: v
        for k, v in found.items()
        if k == asking or k in named or k not in vague or v not in vague[k].catch_all or _own_name_said(v, folded)
    }


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Filled(NamedTuple):
    """What a message gives ahead: the commands, and the rest of it for the asked question."""

    sets: list[SetSlot]
    rest: str


# asking the difference between things, in the six languages (folded): what it names is compared, not said
DIFFERENCE_BETWEEN = re.compile(
    r"\b(?:difference|diferencia|diferenca|unterschied|differenza) (?:between|entre|zwischen|tra|fra)\b"
)
_SENTENCE_END = re.compile(r"[.?!;]")


def _compared(text: str) -> list[tuple[int, int]]:
    """Where `text` names things whose difference it asks: from each "difference between" to its sentence's end."""
    folded = fold_same_length(text) if not text.isascii() else text.lower()
    out = []
    for m in DIFFERENCE_BETWEEN.finditer(folded):
        end = _SENTENCE_END.search(folded, m.end())
        out.append((m.start(), end.start() if end is not None else len(text)))
    return out


def read_ahead(flow: Flow[Any], state: Ask[Any] | None, slots: Slots, said: Utterance | str) -> Filled:
    """The slots the message fills besides the one `state` asks for (None: the flow is starting),
    as `SetSlot` commands with the clause that says each, and what is left for the question."""
    heard = said if isinstance(said, Utterance) else Utterance(said)
    text = heard.text
    if not flow.ahead:
        return Filled([], text)
    # a slot's value counts only where its cue words name it, or where its values name it by
    # themselves (`alone`): with neither possible, no parser is built or run
    asked_slot = state.slot if state is not None else None
    # cue words are English and the flow's own: a message in another language names a slot in its
    # English gloss too ("dreimal die Woche" is "3 times per week", engine/gloss.py)
    glossed = gloss.in_english(text)
    said_folded = heard.folded if glossed == text else f"{heard.folded} | {fold(glossed)}"
    if not any(
        d.ahead.slot != asked_slot
        and (d.ahead.alone or (d.cue is not None and d.cue.search(said_folded)) or _named_before(d.ahead, slots))
        for d in _table(flow).declared
    ):
        return Filled([], text)
    candidates = _open(flow, slots, asked_slot)
    if not any(
        c.declared_alone or (c.cue is not None and c.cue.search(said_folded)) or c.named_before for c in candidates
    ):
        return Filled([], text)
    parts = clauses(text)[:MAX_CLAUSES]
    asked = state.parser(slots) if state is not None else None
    asked_cue = _asked_cue(flow, state.slot) if state is not None else None
    found: dict[str, list[tuple[int, object]]] = {}
    whole: dict[str, object] = {}
    # what the asked question's parser reads, per text: the whole message is often one clause
    asked_read: dict[str, object] = {}
    # clauses that name another slot whose value they leave unclear: no one's answer
    unclear: set[int] = set()
    # the clauses the asked question reads something in (not only copies back)
    asked_also: set[int] = set()
    # clauses that answer the asked question and give another slot's value as well: never taken from it
    shared: set[int] = set()
    answered: set[int] = set()

    def asked_reads(typed: str) -> object:
        if typed not in asked_read:
            asked_read[typed] = _read(asked, typed) if asked is not None else None
        return asked_read[typed]

    whole_read = asked_reads(text) if asked is not None and not asked.greedy else None
    answer = None if whole_read is None or isinstance(whole_read, (Invalid, Empty)) else whole_read
    # the asked slot's own reader of its values said out of turn, if the flow declares one
    own = next((d for d in _table(flow).declared if d.ahead.slot == asked_slot), None)
    for c in candidates:
        named_here = (c.cue is not None and c.cue.search(said_folded) is not None) or c.named_before
        if not c.whole or not (named_here or c.alone):
            continue  # what it would read could not count: no parser run
        said_whole = _value(c.parser, text)
        # the value the asked question reads in the message is its answer, not another slot's too
        if said_whole is not None and said_whole != answer and (named_here or (c.alone and not _number(said_whole))):
            whole[c.slot] = said_whole
    # a clause that declines the asked question ("none, and i'm free mon and thu evenings" at the allergies
    # question) answers it: the other clauses are no answer to it, whatever its reader would take
    declined = (
        next((i for i, c in enumerate(parts) if declines(c.text) and _answers(asked_reads(c.text))), None)
        if asked is not None and not asked.greedy and len(parts) > 1
        else None
    )
    compared = _compared(text)
    for i, clause in enumerate(parts):
        if text[clause.end : clause.end + 2].lstrip().startswith("?"):
            continue  # a question states no fact: "is 15 minutes even worth it?"
        if any(clause.start < b and clause.end > a for a, b in compared):
            continue  # nor do the things whose difference is asked: "what's the difference between A2 and B1?"
        if _PAST.search(fold(clause.text)):
            continue  # what the user used to do is no fact of now: "i used to run 5k every week"
        # what the user does now is no plan: "i run twice a week" at the level question fills no days a week
        now = habit(clause.text)
        found_here = asked_reads(clause.text) if asked is not None and not asked.greedy else None
        if declined is not None and i != declined:
            found_here = None
        answers = asked is not None and not asked.greedy and _answers(found_here)
        if answers:
            answered.add(i)
        # words the asked parser only copies back are no answer beside a slot that reads them ("Monday"
        # as the equipment, "abnehmen" as the injuries: a reader that takes words it does not know as
        # typed) unless the slot's own `Ahead` reader reads them ("sore shoulder from the bench" is an injury)
        echo = answers and copied(found_here, clause.text, words=1) and not _own_reads(own, slots, clause.text)
        if (
            found_here is not None
            and found_here is not _FAILED
            and not echo
            and not copied(found_here, clause.text, words=1)
        ):
            asked_also.add(i)  # read, even if refused alone ("sunday mornings": one day of the two planned)
        folded = fold(clause.text)
        if glossed != text and (english := gloss.in_english(clause.text)) != clause.text:
            folded = f"{folded} | {fold(english)}"
        # a clause that names the asked slot, and its parser reads, is its answer whatever else it names;
        # another slot its cue names there reads its own value too ("4x a week for an hour" at the days
        # question: the minutes are 60), the clause staying the question's
        mine = answers and not echo and asked_cue is not None and asked_cue.search(folded) is not None
        # a count the question reads in a list another slot reads by itself ("mon wed fri" to "how many
        # days?": 3): the list is that slot's too, the count the question's
        counts = answers and not echo and isinstance(found_here, int) and not isinstance(found_here, bool)
        for c in candidates:
            if c.whole or (now and c.plan):
                continue
            named = c.cue is not None and c.cue.search(folded) is not None
            listed = counts and c.alone and not named
            if not named and not listed and (mine or (answers and not echo) or not c.alone):
                continue  # decided without running the slot's parser (most slots, most clauses)
            if not named and _any_will_do(clause.text):
                continue  # any will do names no slot by itself ("intermediate, anything goes!" is no diet)
            read = _value(c.parser, clause.text)
            if read is None and named and not listed:
                # "advanced, no limitations": the clause names the slot and says there is none of it
                read = c.declined(clause.text)
            if listed:
                # every one of them ("every day": all seven weekdays) singles none out
                if isinstance(read, list) and len(read) == found_here and len(set(map(repr, read))) < _EVERY:
                    found.setdefault(c.slot, []).append((i, read))
                    shared.add(i)
                continue
            if read is None and named and not mine and isinstance(_read(c.parser, clause.text), Invalid):
                # "like 3 or 4 times a week" at the injuries question: the days', though unclear (their
                # question asks it in turn), never the asked question's answer
                unclear.add(i)
            if read is None or (not named and _number(read)) or (mine and read == found_here):
                continue
            if not named and not listed and _only_indefinite(c.parser, clause.text, read):
                continue  # no slot named, and nothing but "anything" read as its value
            if not named and not listed and _vague(c, read, folded):
                continue  # "i want to get in shape": why the user came, not which goal (`Ahead.catch_all`)
            found.setdefault(c.slot, []).append((i, read))
            if mine:
                shared.add(i)
            if read == found_here:
                asked_also.discard(i)  # one value the two slots read in the same words: the other slot's
    sets: list[SetSlot] = []
    taken: set[int] = set()
    # the clauses some slot reads, or the asked question answers
    claimed = {i for reads in found.values() for i, _ in reads} | answered | unclear
    for c in candidates:
        if c.slot in whole:
            if (stored := _stored(flow, slots, c.slot, whole[c.slot])) is not None:
                sets.append(SetSlot(words=text, slot=c.slot, value=stored))
            continue
        reads = found.get(c.slot)
        if not reads:
            continue
        first, last = reads[0][0], reads[-1][0]
        values = {repr(v) for _, v in reads}
        value: object = reads[0][1]
        if len(values) > 1:
            span = text[parts[first].start : parts[last].end]
            value = _value(c.parser, span)
            if value is None:
                continue  # several values, none for the whole: not guessed
        # a list the joining words cut ("allergic to peanuts and soy"): the next clause, joined by "and" and
        # read by no one, is the list's when the span to it reads more
        more = [i for i, _ in reads]
        while (
            last + 1 < len(parts)
            and last + 1 not in claimed
            and _AND.fullmatch(text[parts[last].end : parts[last + 1].start].strip())
        ):
            longer = _value(c.parser, text[parts[first].start : parts[last + 1].end])
            if longer is None or longer == value or not isinstance(longer, list):
                break
            value, last = longer, last + 1
            more.append(last)
        # a clause after it that the slot's reader folds into the same value hedges it ("4 days, maybe 5 if
        # i'm motivated": 4): the slot's words, never an answer to the asked question
        if (
            last + 1 < len(parts)
            and last + 1 not in claimed
            and _value(c.parser, parts[last + 1].text) is not None
            and _value(c.parser, text[parts[first].start : parts[last + 1].end]) == value
        ):
            last += 1
            more.append(last)
        # a contrast after it that the slot's reader reads nothing in alone, but reads with it into another
        # value, qualifies it ("i don't eat meat but i eat fish": pescatarian, not the first clause's vegetarian);
        # a clause the reader found unclear alone ("i eat fish": and meat?) may be such a contrast
        if (
            last + 1 < len(parts)
            and (last + 1 not in claimed or last + 1 in unclear)
            and _BUT.fullmatch(text[parts[last].end : parts[last + 1].start].strip(" ,;"))
            and _value(c.parser, parts[last + 1].text) is None
        ):
            qualified = _value(c.parser, text[parts[first].start : parts[last + 1].end])
            if qualified is not None and qualified != value:
                value, last = qualified, last + 1
                more.append(last)
        if (stored := _stored(flow, slots, c.slot, value)) is None:
            continue
        sets.append(SetSlot(words=text[parts[first].start : parts[last].end], slot=c.slot, value=stored))
        taken.update(i for i in more if i not in shared)
    # a question declined ahead whose none leaves its slot empty ("muscle gain, no target weight" at the level
    # question, "Muskelaufbau ohne Zielgewicht"): kept as declined, so the flow does not ask it. The none is said
    # next to the words naming the slot, in a clause of its own or beside another slot's value; a none its
    # question stores ("no injuries": "none", "no allergies": []) is a value, read above
    for c in candidates:
        if c.slot in whole or c.slot in found or c.cue is None:
            continue
        for i, clause in enumerate(parts):
            if i in answered or not _declines_named(fold(clause.text), c.cue) or not c.empty_none():
                continue
            sets.append(SetSlot(words=clause.text, slot=c.slot, value=None, declined=True))
            if i not in claimed:
                taken.add(i)
            break
    if not sets and not unclear:
        return Filled([], text)
    rest = _rest(text, parts, taken | unclear)
    if whole and asked is not None and not asked.greedy and not _answers(asked_reads(rest)):
        # a value read in the whole message leaves its clauses in the rest ("lose wieght, 88kg now, want
        # 80 kg"); when the question reads no answer with them and one without the clauses that name the
        # slot, those go, and what the reader also reads from its words is set with it (the unit)
        naming = {
            i
            for i, clause in enumerate(parts)
            for c in candidates
            if c.slot in whole and c.cue is not None and c.cue.search(fold(clause.text))
        }
        again = _rest(text, parts, taken | unclear | naming)
        if naming and again.strip() and _answers(asked_reads(again)):
            rest = again
    if whole and asked is not None and (asked.greedy or copied(asked_reads(rest), rest, words=1)):
        # a question that takes any words (free text, or a reader that copies what it does not know back)
        # cannot tell which clauses answer it: those that name a slot a whole-message reader set, where it
        # reads no answer or only copies the words back, are that slot's: "I'm 200 lbs now" or "my back
        # hurts, 200 lbs btw" at the injuries question hold a weight, no injury; a clause the question's
        # own reader of its values reads stays its answer ("bad knee, and i'm 80 kg")
        naming = {
            i
            for i, clause in enumerate(parts)
            for c in candidates
            if c.slot in whole
            and c.cue is not None
            and c.cue.search(fold(clause.text))
            and (asked.greedy or _not_its_answer(asked_reads(clause.text), clause.text))
            and not _own_reads(own, slots, clause.text)
        }
        if naming:
            rest = _rest(text, parts, taken | unclear | naming)
    # what a whole-message reader also reads from the words of a value it set (the unit the weight was
    # written in, so that a later number without one is read in it), set quietly beside it
    wrote = {done.slot for done in sets}
    sets += _quiet(flow, slots, [c for c in candidates if c.slot in whole and c.slot in wrote], text)
    if sets and asked is not None and not asked.greedy and not _answers(asked_reads(rest)):
        # a clause that says another slot's value may say the asked one's too ("mon/wed/fri at lunch",
        # "saturday and sunday mornings"): it stays for the question when the question reads no answer
        # without it, one clause at a time, the first that gives one kept; then a clause the question reads
        # nothing in alone, where the slot's own `Ahead` reader reads its value ("Montag, Mittwoch und Freitag
        # abends" at the days question: "Freitag abends" is no three days alone, but a day)
        more = [i for i in sorted(taken - asked_also) if _own_reads(own, slots, parts[i].text)]
        for i in [*sorted(taken & asked_also), *more]:
            again = _rest(text, parts, (taken | unclear) - {i})
            if _answers(asked_reads(again)):
                rest = again
                break
    if sets and _only_filler(rest) and read_yes_no(rest) is None:
        # what the values taken ahead leave is only a hedge or filler ("B1, more or less", "29, i guess"): no
        # attempt at the asked question, which is asked again as it was, not refused for those words; an "ok"
        # or a "no" stays, a yes/no question's answer
        rest = ""
    return Filled(sets, rest)


_CLAUSE_BREAK = re.compile(r"[,;.!?]+|\s[-–—]\s")


@lru_cache(maxsize=1)
def _filler() -> frozenset[str]:
    return frozenset(fold(p) for p in filler_phrases())


def _only_filler(text: str) -> bool:
    """Is every clause of `text` made of filler words only (engine/data/commands.yaml `filler`)?"""
    filler = _filler()
    for clause in _CLAUSE_BREAK.split(fold(text)):
        words = clause.split()
        while words:
            n = next((n for n in (3, 2, 1) if len(words) >= n and " ".join(words[:n]) in filler), 0)
            if not n:
                return False
            words = words[n:]
    return bool(text.strip())


# the words that say there is none of what follows, in the six languages (folded): "no target weight", "sin peso
# objetivo", "ohne Zielgewicht", "pas de poids cible", "senza peso obiettivo", "i don't have a target weight"
_NONE_OF = (
    r"(?:no|none|without|zero|i don'?t (?:really )?have(?: an?| any)?|i have no|sin|sin un|ningun\w*"
    r"|no tengo(?: un| una)?|sem|sem um|nenhum\w*|nao tenho(?: um| uma)?|ohne|kein\w*|habe? kein\w*"
    r"|pas d'|pas de|sans|aucun\w*|je n'?ai pas d'|senza|nessun\w*|non ho(?: un| una)?)"
)
# ... or after them: "ein Zielgewicht habe ich nicht", "target weight: none"
_NONE_AFTER = (
    r"(?:\s*:)?\s+(?:none|no|habe ich (?:nicht|keins)|hab ich (?:nicht|keins)|keins|nada|aucun|nessuno|nenhum)\b"
)


_FOR_NOW_ONLY = re.compile(rf"(?:{FOR_NOW}|really|yet|thanks|thank you)(?:[ ,]+(?:{FOR_NOW}|really|yet|thanks))*")


@lru_cache(maxsize=256)
def _declining(cue: str) -> re.Pattern[str]:
    # at most one word between the none and the slot's words ("no specific target"), never a word that makes it
    # something else than a none ("no idea what target", "no more than")
    return re.compile(
        rf"(?<![\w'])(?:{_NONE_OF})(?:\s+|(?<='))(?!idea\b|clue\b|sure\b|more\b|less\b)(?:[\w'-]+\s+)?{cue}"
        rf"|{cue}{_NONE_AFTER}"
    )


def _declines_named(folded: str, cue: re.Pattern[str]) -> bool:
    """Does a clause (folded) say there is none of what `cue` names ("no target weight", "kein Zielgewicht")?"""
    return _declining(cue.pattern).search(folded) is not None


def declines_asked(flow: Flow[Any], slot: str, text: str) -> bool:
    """Does the message only decline the asked question by the words naming its slot ("no target for now",
    "im Moment kein Zielgewicht", "pas d'objectif pour l'instant"), where its parser reads no value? What is
    left beside the none may only say for now."""
    cue = _asked_cue(flow, slot)
    if cue is None:
        return False
    folded = fold(text).strip(" .!")
    found = _declining(cue.pattern).search(folded)
    if found is None:
        return False
    left = f"{folded[: found.start()]} {folded[found.end() :]}".strip(" ,.!")
    return not left or _FOR_NOW_ONLY.fullmatch(left) is not None


def declined_now(before: Sequence[str], sets: Sequence[SetSlot]) -> list[str]:
    """The questions a run keeps as declined ahead (`FlowFrame.declined`): `before`, and those `sets` decline."""
    return [*before, *(s.slot for s in sets if s.declined and s.slot not in before)]


def _not_its_answer(found: object, clause: str) -> bool:
    """The asked question's parser reads no answer in `clause`, or only copies its words back."""
    return not _answers(found) or copied(found, clause, words=1)


def _quiet(flow: Flow[Any], slots: Slots, readers: Sequence[_Open], text: str) -> list[SetSlot]:
    """What the whole-message readers also read from the words of their values (`Ahead.beside`), as
    quiet `SetSlot`s: each empty slot once, the first reader's value."""
    out: dict[str, SetSlot] = {}
    for c in readers:
        for slot, value in (c.beside(text) if c.beside is not None else {}).items():
            if slot in out or not _empty(slots, slot) or (stored := _stored(flow, slots, slot, value)) is None:
                continue
            out[slot] = SetSlot(words=text, slot=slot, value=stored, noted=False)
    return list(out.values())


def _own_reads(own: _Declared | None, slots: Slots, text: str) -> bool:
    """Does the asked slot's own `Ahead` reader (the flow's reader of its values said out of turn) read `text`?"""
    if own is None:
        return False
    reader = own.chosen if isinstance(own.chosen, Parser) else own.chosen(slots)
    return _value(reader, text) is not None


def _stored(flow: Flow[Any], slots: Slots, slot: str, value: object) -> JsonValue | None:
    """`value` as the slots model stores it (JSON), so a command says what will be kept; None when
    the model refuses it."""
    try:
        checked = flow.slots.model_validate({**slots.model_dump(), slot: value})
    except ValidationError:
        return None
    stored: JsonValue = checked.model_dump(mode="json")[slot]
    return stored


def _rest(text: str, parts: list[Clause], taken: set[int]) -> str:
    """The clauses not taken, runs of neighbours as typed, runs apart joined by a comma."""
    runs: list[str] = []
    run: list[Clause] = []
    for i, clause in enumerate(parts):
        if i in taken:
            if run:
                runs.append(text[run[0].start : run[-1].end])
            run = []
            continue
        run.append(clause)
    if run:
        runs.append(text[run[0].start : run[-1].end])
    return ", ".join(runs)


def ahead_commands(
    flow: Flow[Any], state: Ask[Any], values: dict[str, Any], said: Utterance | str, checked: Slots | None = None
) -> Filled:
    """The read stage's entry: `read_ahead` at the open question, over the run's stored slots
    (`checked`: those slots as the turn validated them on load; slots this code cannot read are
    the flow's own reading's to report: nothing is read ahead)."""
    if not flow.ahead or not state.corrections:
        return Filled([], said.text if isinstance(said, Utterance) else said)
    if checked is None:
        try:
            checked = flow.new_slots(values)
        except ValidationError:
            return Filled([], said.text if isinstance(said, Utterance) else said)
    return read_ahead(flow, state, checked, said)


def fill(flow: Flow[Any], slots: Slots, sets: Sequence[SetSlot]) -> tuple[Slots, list[str]]:
    """Make the slots `sets` fill, each checked by the slots model again (a slot filled meanwhile
    keeps its value); returns the slots and the names filled."""
    filled: list[str] = []
    for s in sets:
        if not _empty(slots, s.slot):
            continue
        if s.declined:
            filled.append(s.slot)  # nothing to set: the run keeps it as declined (`declined_now`), and it is said
            continue
        try:
            slots = flow.slots.model_validate({**slots.model_dump(), s.slot: s.value})
        except ValidationError:
            continue
        if s.noted:
            filled.append(s.slot)
    return slots, filled


def noted_line(flow: Flow[Any], slots: Slots, names: Sequence[str]) -> str:
    """ "Noted (allergies: gluten).": what was filled ahead, as the flow shows its slots."""
    if not names:
        return ""
    # a question declined ahead leaves its slot empty: said as its none
    said = (shown(flow, k, "none" if (v := getattr(slots, k)) is None else v) for k in names)
    return f"Noted ({', '.join(said)})."


def shown(flow: Flow[Any], name: str, value: object) -> str:
    """How a slot reads when the engine acknowledges it: the flow's `show`, else its name and its
    value, a list as its items ("subjects: Chemistry, Biology", not "['Chemistry', 'Biology']")."""
    if flow.show is not None:
        return flow.show(name, value)
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    return f"{name.replace('_', ' ')}: {value}"


def _quotes(reason: str, text: str) -> bool:
    """Does a parser's refusal only quote the message back ("I don't know where “inglés” is"), rather
    than give a reason of its own ("You already speak German natively")?"""
    said = fold(text).strip(" .,!?")
    return any(f"{a}{said}{b}" in fold(reason) for a, b in ("“”", '""', "''"))


def restated(flow: Flow[Any], state: Ask[Any], slots: Slots, said: Utterance | str) -> list[str]:
    """The filled slots a message that answers nothing only says again ("inglés, obviamente" at the
    timezone question, English noted as the language learnt; the user's name again), each read from
    the whole message by its own question's parser as the value it holds. None when the asked question
    reads the message: an answer, or a refusal with a reason of its own, which says more than "I have
    that". A number alone restates nothing: it names no slot (`Ahead`)."""
    text = said.text if isinstance(said, Utterance) else said
    asked = state.parser(slots)
    if asked.greedy:
        return []
    if not any(isinstance(s, Ask) and s.slot != state.slot and not _empty(slots, s.slot) for s in flow.states):
        return []  # no other question answered yet: nothing to say again (and the asked parser not run for it)
    found = _read(asked, text)
    if found is _FAILED or (found is not None and not (isinstance(found, Invalid) and _quotes(found.reason, text))):
        return []
    again: list[str] = []
    for s in flow.states:
        if not isinstance(s, Ask) or s.slot == state.slot or s.slot in again or _empty(slots, s.slot):
            continue
        name, parser = s.slot, s.parser(slots)
        value = None if parser.greedy else _value(parser, text)
        if value is None or _number(value):
            continue
        try:
            same = flow.slots.model_validate({**slots.model_dump(), name: value}) == slots
        except ValidationError:
            continue
        if same:
            again.append(name)
    return again
