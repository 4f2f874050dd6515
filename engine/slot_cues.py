"""What a flow declares it may read ahead (`Flow.ahead`): per slot, its cue words, its reader, whether it is open.

A clause names a slot when it holds one of the slot's cue words (its name, the `cues` of its `Ahead`,
the `names` of its `Correctable`); the table of a flow's declared slots is built on its first message
and kept as long as the flow lives. `OpenSlot` is one declared slot the message may fill now, its
reader made the first time a clause needs it. engine/fill.py reads a message with these; the flow's
any-time extractor is held to the same declarations (`extracted`).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.ahead import Ahead, declared
from engine.extract import Empty, Invalid, Parser, declines, fold
from engine.models import Slots
from engine.tables import indefinite_words, unsure_phrases

if TYPE_CHECKING:
    from engine.flow import Flow


@lru_cache(maxsize=256)
def _cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str] | None:
    words = sorted({fold(c) for c in cues if c.strip()}, key=len, reverse=True)
    if not words:
        return None
    # a unit may follow its number without a space ("40min", "80kg"); no letter may touch a cue
    return re.compile(rf"(?<![^\W\d_])(?:{'|'.join(re.escape(w) for w in words)})(?![^\W\d_])")


def slot_cues(flow: Flow[Any], slot: str, a: Ahead | None) -> re.Pattern[str] | None:
    """The words that name `slot` in a clause: its name, its `Ahead` cues, its `Correctable` names."""
    names = [n for c in flow.correctable if not isinstance(c, str) and c.slot == slot for n in c.names]
    return _cue_pattern((slot.replace("_", " "), *(a.cues if a else ()), *names))


class DeclaredAhead(NamedTuple):
    """One entry of a flow's `ahead` with what never changes between turns: its reader (or the
    callable that picks it from the slots), the words that name its slot, and how its own question
    reads an answer (for a clause that declines it: "no limitations" beside the level)."""

    ahead: Ahead
    chosen: Parser | Callable[[Any], Parser]
    cue: re.Pattern[str] | None
    asks: Parser | Callable[[Any], Parser] | None


class _FlowTable(NamedTuple):
    flow: weakref.ref[Flow[Any]]  # the flow it was built for (an id may be another's later)
    declared: tuple[DeclaredAhead, ...]
    asked_cues: dict[str, re.Pattern[str] | None]


# per flow, built on its first message and kept for as long as the flow lives
_TABLES: dict[int, _FlowTable] = {}


def flow_table(flow: Flow[Any]) -> _FlowTable:
    table = _TABLES.get(id(flow))
    if table is None or table.flow() is not flow:
        out: list[DeclaredAhead] = []
        for entry in flow.ahead:
            a = declared(entry)
            chosen = a.parser or flow.parser_of(a.slot)
            if chosen is not None:
                out.append(DeclaredAhead(a, chosen, slot_cues(flow, a.slot, a), flow.parser_of(a.slot)))
        table = _TABLES[id(flow)] = _FlowTable(weakref.ref(flow), tuple(out), {})
        weakref.finalize(flow, _TABLES.pop, id(flow), None)
    return table


def asked_slot_cue(flow: Flow[Any], slot: str) -> re.Pattern[str] | None:
    """The words that name the asked slot (whether or not it is declared ahead)."""
    cues = flow_table(flow).asked_cues
    if slot not in cues:
        own = next((declared(e) for e in flow.ahead if declared(e).slot == slot), None)
        cues[slot] = slot_cues(flow, slot, own)
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
    cue = slot_cues(flow, asked, own)
    if cue is not None and cue.search(folded):
        return True
    others = {declared(e).slot for e in flow.ahead} | {c if isinstance(c, str) else c.slot for c in flow.correctable}
    for slot in others - {asked}:
        cue = slot_cues(flow, slot, None)
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


class OpenSlot:
    """A declared slot the message may fill now. Its reader, which a flow may pick from the slots,
    is made the first time a clause needs it: most clauses are decided by their cue words alone."""

    __slots__ = (
        "_asks", "_chosen", "_parser", "_slots", "beside", "catch_all", "cue", "declared_alone", "named_before", "plan",
        "slot", "whole",
    )  # fmt: skip

    def __init__(self, declared: DeclaredAhead, slots: Slots) -> None:
        self.slot, self.cue, self.whole = declared.ahead.slot, declared.cue, declared.ahead.whole
        self.plan = declared.ahead.plan
        self.catch_all = tuple(declared.ahead.catch_all)
        # the words naming it were said earlier in the conversation (a unit, kept in its slot)
        self.named_before = named_before(declared.ahead, slots)
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
        return value_read(asks if isinstance(asks, Parser) else asks(self._slots), text)

    def empty_none(self) -> bool:
        """Does the slot's own question take "none" as no value (an optional's EMPTY: no target weight), so
        that a none said ahead leaves nothing in the slot to show it was answered?"""
        asks = self._asks
        if asks is None:
            return False
        return isinstance(read_safely(asks if isinstance(asks, Parser) else asks(self._slots), "none"), Empty)

    @property
    def alone(self) -> bool:
        """May its value count in a clause that names no slot? A free-text reader takes any words:
        only a clause that names its slot is its."""
        return self.declared_alone and not self.parser.greedy


def named_before(ahead: Ahead, slots: Slots) -> bool:
    """Were the words that name the slot said earlier (`Ahead.named_by`: a slot holding them is filled)?"""
    return any(not unfilled(slots, name) for name in ahead.named_by if name in type(slots).model_fields)


def open_slots(flow: Flow[Any], slots: Slots, asked: str | None) -> list[OpenSlot]:
    """The declared slots a message may fill now: empty, not the asked one, with a parser."""
    return [
        OpenSlot(d, slots) for d in flow_table(flow).declared if d.ahead.slot != asked and unfilled(slots, d.ahead.slot)
    ]


def unfilled(slots: Slots, name: str) -> bool:
    """Is the slot as a new run holds it (None, or an empty list its model starts with)?"""
    value = getattr(slots, name, None)
    if value is None:
        return True
    if value not in ([], {}):
        return False  # a value given: the default (a factory's, made anew) is not asked for
    return bool(type(slots).__pydantic_fields__[name].get_default(call_default_factory=True) == value)


def value_read(parser: Parser, text: str) -> object:
    try:
        found = parser(text)
    except (ValueError, TypeError):
        return None
    return None if found is None or isinstance(found, (Invalid, Empty)) else found


FAILED = Invalid("the reader failed")  # a parser that raised: no value, no answer


def read_safely(parser: Parser, text: str) -> object:
    try:
        return parser(text)
    except (ValueError, TypeError):
        return FAILED


def is_answer(found: object) -> bool:
    """Is what the asked question's parser read an answer? "none" to an optional question is one
    (it declines): never another slot's value ("nothing" is no diet then)."""
    return isinstance(found, Empty) or (found is not None and not isinstance(found, Invalid))


def any_will_do(text: str) -> bool:
    """A clause that only says any value will do or the user does not know ("anything goes", "lo que sea")."""
    return " ".join(fold(text, accents=True).strip(" .!?¡¿:;)(").split()) in unsure_phrases()


@lru_cache(maxsize=1)
def _indefinite() -> re.Pattern[str]:
    words = sorted({fold(w) for w in indefinite_words()}, key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])")


def only_indefinite(parser: Parser, text: str, value: object) -> bool:
    """Whether `value`, read from `text`, comes from its indefinite words alone ("i haven't done anything
    in years" read as an omnivore diet): read again without them, the clause gives another value or none."""
    folded = fold(text)
    if _indefinite().search(folded) is None:
        return False
    return value_read(parser, _indefinite().sub(" ", folded)) != value


# a list of this many items that a count reads (a week's days) names all of them, none in particular
EVERY = 7


def catch_all_only(c: OpenSlot, value: object, folded: str) -> bool:
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
    named = {k for k, a in vague.items() if (cue := slot_cues(flow, k, a)) is not None and cue.search(folded)}
    return {
        k: v
        for k, v in found.items()
        if k == asking or k in named or k not in vague or v not in vague[k].catch_all or _own_name_said(v, folded)
    }
