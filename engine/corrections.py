"""Reading a correction of an earlier answer, said at a later question, in any flow.

"wait, I meant 3" at the feedback details question, "change the days to five" at fitness's
equipment question, "no sorry, it's Ana not Anna" at the timezone question: a message (or
one clause of it) corrects a filled slot the flow lets be corrected (`Flow.correctable`,
`Flow.corrects`) when

- it names the slot by one of its declared words and gives a new value beside it, with a
  correction cue ("change the days to five", "mein Name ist eigentlich Annika");
- it says the old value as wrong and the new one ("bands not dumbbells", "it's Ana not Anna",
  "not vegetarian anymore, omnivore"): the old value picks the slot;
- it has a cue and a short value that only one correctable slot reads ("wait, I meant 3");
  a value several slots read is asked about (`unclear`), never guessed;
- it is a value said alone with no cue, a change of mind ("muscle gain" at the target weight
  question, "vegan" at the allergies question): only for a slot whose values name it by themselves
  (`Ahead(alone=True)`), where the open question reads nothing from it, in a short clause that is no
  question and no small talk (engine/askback.py) and whose words are mostly the value's own.

Each value is read by the slot's own parser (the parser of the Ask state that fills it) and
must be one the slots model takes and differ from the value held. The cue words, negations,
links and fillers of six languages are data (engine/data/corrections.yaml). What the
corrections said is cut out of the message; the rest (`rest`) is read as usual, as the
answer to the open question ("sorry make it 2 days, 60 mins").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any, NamedTuple

from pydantic import ValidationError

from engine import gloss
from engine.ahead import declared
from engine.askback import may_ask
from engine.commands import Command, CorrectSlot, WhichSlot
from engine.correctionwords import (
    LEADING_NO,
    Clause,
    alternatives,
    correction_words,
    fold_same_length,
    split_clauses,
    strip_ends,
    without_cues,
)
from engine.cues import in_english_cues
from engine.extract import Empty, Invalid, Parser, copied, fold, numbers
from engine.flow import Flow
from engine.models import Slots
from engine.states import JUST_BEFORE, Ask, Correctable
from engine.tables import alternation, but_words
from engine.takeback import answer_meant, answers, repaired_numbers, self_repaired
from engine.utterance import Utterance

# a correction by its value alone is short ("wait, I meant 3", "scusa, volevo dire quattro"):
# a longer clause with a cue word in it is more likely an answer that happens to hold a number
VALUE_ONLY_WORDS = 6


class CorrectionReading(NamedTuple):
    """The corrections a message carries, what is left of it, and a value several slots read."""

    commands: list[CorrectSlot]
    rest: str  # the message without the words the corrections used ("" when nothing is left)
    unclear: list[str]  # slots a value could correct, when more than one could (ask which)


NOTHING = CorrectionReading([], "", [])


# "but" in the six languages (engine/data/but.yaml)
_BUT = re.compile(rf"{alternation(but_words().but.all())}\b", re.I)


@dataclass
class _Target:
    correctable: Correctable
    parser: Parser
    current: object
    names: re.Pattern[str] | None


@lru_cache(maxsize=512)
def _names(slot: str, names: tuple[str, ...]) -> re.Pattern[str]:
    """The words that name a slot (and its own name), as one pattern, longest first; built once."""
    said = sorted({fold_same_length(n) for n in names} | {fold_same_length(slot.replace("_", " "))}, key=len)
    return re.compile(rf"(?<![\w'])(?:{alternatives(said[::-1])})(?![\w'])")


def _targets(flow: Flow[Any], slots: Slots, asked: str | None) -> list[_Target]:
    out = []
    for c, parser, current in flow.correctables(slots):
        if c.slot == asked and c.key is None:
            continue  # the open question's own slot is answered, not corrected
        out.append(_Target(c, parser, current, _names(c.slot, tuple(c.names))))
    return out


def _read(target: _Target, slots: Slots, text: str) -> object | None:
    """`text` as a new value of `target`: parsed, taken by the slots model, and not the value held."""
    said = strip_ends(without_cues(text))
    if not said:
        return None
    value = target.parser(said)
    if value is None:
        # a reader that needs the words around its value ("I have a bad knee")
        value = target.parser(without_cues(text).strip(" ,.;:!?"))
    if value is None or isinstance(value, Invalid | Empty):
        return None
    if value == target.current:
        return None
    try:
        _set(slots, target.correctable, value)
    except ValidationError:
        return None
    return value


def _set(slots: Slots, c: Correctable, value: object) -> Slots:
    if c.key is not None:
        held = getattr(slots, c.slot) or {}
        value = {**held, c.key: value}
    return type(slots).model_validate({**slots.model_dump(), c.slot: value})


def slot_value(slots: Slots, c: Correctable, value: object) -> Any:
    """What the slot holds once `value` corrects it (one answer of a dict slot replaced), as JSON."""
    return _set(slots, c, value).model_dump(mode="json")[c.slot]


def _is_old(target: _Target, text: str) -> bool:
    """Does `text` say the value `target` holds now ("dumbbells", "Anna", "45")?"""
    said = strip_ends(without_cues(text))
    if not said:
        return False
    current = target.current
    if isinstance(current, bool):
        return False
    if isinstance(current, int | float):
        return current in numbers(said)
    folded = fold(said)
    if isinstance(current, str) and (folded == fold(current) or folded == fold(current.replace("_", " "))):
        return True
    value = target.parser(said)
    if value == current:
        return True
    if isinstance(current, list) and isinstance(value, list) and value:
        return set(map(str, value)) <= set(map(str, current))
    return False


def _replace_items(target: _Target, old: str, new: object) -> object:
    """A list slot's items said as wrong are replaced by the new ones ("bands not dumbbells")."""
    current = target.current
    if not isinstance(current, list) or not isinstance(new, list):
        return new
    gone = target.parser(strip_ends(without_cues(old)))
    gone_items = set(map(str, gone)) if isinstance(gone, list) else set()
    kept = [x for x in current if str(x) not in gone_items]
    return list(dict.fromkeys([*kept, *new]))


def _contrast(text: str) -> tuple[str, str] | None:
    """ "X not Y" as (X, Y), split at the last negation followed by a few words; "switch Y to X"
    as (X, Y) too."""
    folded = fold_same_length(text)
    if m := correction_words().swap.search(folded):
        return text[m.start("new") : m.end("new")], text[m.start("old") : m.end("old")]
    for m in reversed(list(correction_words().negation.finditer(folded))):
        old = text[m.end() :]
        if old.strip() and len(old.split()) <= 5:
            return text[: m.start()], old
    return None


def _said(text: str) -> tuple[str, str] | None:
    """ "i said 3 days" as ("", "3 days"): what was said before, now said to be wrong."""
    m = correction_words().said.search(fold_same_length(text))
    return (text[: m.start()], text[m.end() :]) if m else None


MAX_CLAUSES = 12


def _answers_open(asked: Parser, text: str) -> bool:
    """Whether the open question's parser reads an answer from `text`, not a copy of its words."""
    if asked.greedy:
        return False
    answer = asked(text)
    return answer is not None and not isinstance(answer, Invalid) and not copied(answer, text)


def read_corrections(
    flow: Flow[Any], state: Ask[Any], slots: Slots, text: str, *, uncued: bool = False
) -> CorrectionReading:
    """The corrections `text` makes to `flow`'s filled slots at the question `state`. `uncued`: the
    message has no correction cue but is a value alone (`_value_alone`): only a slot whose values name
    it by themselves may take it, and only where the open question reads nothing from it."""
    targets = _targets(flow, slots, state.slot)
    if not targets:
        return NOTHING
    words = correction_words()
    asked = state.parser(slots)
    commands: list[CorrectSlot] = []
    unclear: list[str] = []
    used: list[tuple[int, int]] = []
    corrected: set[tuple[str, str | None]] = set()
    carried_cue = False
    carried_named: list[_Target] = []
    carried_old: tuple[list[_Target], str] | None = None
    carried_from: int | None = None
    carried_answer: Clause | None = None
    made: list[tuple[_Target, object]] = []  # each correction made: its target and the new value read
    # a correction is said within a few clauses; every clause may run each target's parser, so
    # a 4,000-character message read whole cost 370 ms (bench/worst_case.py)
    said = split_clauses(text)[:MAX_CLAUSES]
    # a cue of a correction other than an old value said as wrong: "actually", "I meant", a leading "no"
    uncontrasted_cue = (
        words.cue.search(fold_same_length(text)) is not None or LEADING_NO.match(fold_same_length(text)) is not None
    )
    joined = -1  # the last clause a list value corrected above took in ("the days tue, thu and sat")
    for n, clause in enumerate(said):
        if n <= joined:
            continue
        folded = fold_same_length(clause.read)
        cued = carried_cue or words.cue.search(fold_same_length(clause.text)) is not None
        # "no its Sam", "nah im in lisbon": a no that opens a clause leads what follows
        if (lead := LEADING_NO.match(fold_same_length(clause.text))) and clause.text[lead.end() :].strip():
            cued, clause = True, Clause(clause.start, clause.end, clause.text[lead.end() :], clause.comma)
            folded = fold_same_length(clause.read)
        split = _contrast(clause.text) or _said(clause.text)
        new_part, old_part = split if split else (clause.text, "")
        olds = [t for t in targets if old_part and _is_old(t, old_part)]
        cued = cued or bool(olds)  # "not Max, Sam": the old value said as wrong is a cue
        if not olds and carried_old is not None:
            olds, old_part = carried_old
        named = [t for t in targets if t.names is not None and t.names.search(folded)] or carried_named
        # "oh and I'm also allergic to peanuts": a filled list named with a word of adding gets the items said
        adds = [t for t in named if isinstance(t.current, list) and t.current] if not olds else []
        adds = adds if adds and words.adding.search(fold_same_length(text)) else []
        candidates: list[tuple[_Target, object]] = []
        if named and (cued or olds or old_part):
            candidates = _named_values(named, slots, clause.read if not split else in_english_cues(new_part))
        elif adds:
            candidates = _named_values(adds, slots, clause.read)
        if not candidates and olds:
            candidates = [(t, v) for t in olds if (v := _read(t, slots, new_part)) is not None]
            if candidates and not uncontrasted_cue and _answers_open(asked, text):
                # "not Spanish, German" at the language to learn, Spanish the native one: with no cue but the old
                # value said as wrong, the value the open question reads is its answer, its options weighed
                candidates = [(t, v) for t, v in candidates if v != asked(text)]
        content = strip_ends(without_cues(new_part))
        if not content and not old_part and words.negation.fullmatch(fold_same_length(clause.text).strip(" ,.!")):
            cued = True  # "no, meu nome é Ana Luísa": a bare no leads a correction
        if not candidates and not named and not olds and cued and 0 < len(content.split()) <= VALUE_ONLY_WORDS:
            answer = asked(content)
            # an any-words reader that only copies the words back ("4 a week" as the equipment) reads
            # no answer there: the value may still correct an earlier one
            answers_open = (
                not asked.greedy
                and answer is not None
                and not isinstance(answer, Invalid)
                and not copied(answer, content)
            )
            # "i meant" points back at an answer given: it may correct one the open question reads too, unless
            # that answer is in this message ("30 minutes, I mean 45": the minutes taken back, no other answer)
            meant = words.meant.search(fold_same_length(clause.text)) is not None
            if meant and answers_open and any(answers(asked, c.text) for c in said[:n]):
                meant = False
            if not answers_open or meant:
                candidates = [
                    (t, v)
                    for t in targets
                    if _by_value(flow, state, t.correctable) and (v := _read(t, slots, new_part)) is not None
                ]
        elif (
            uncued
            and not candidates
            and not named
            and not olds
            and 0 < len(content.split()) <= VALUE_ONLY_WORDS
            and _reads_nothing(asked, content)
        ):
            # a value said alone, no cue ("muscle gain" at the target weight question, goal fat loss): a change
            # of mind, where the open question reads nothing from it (a value it refuses, "lose 10 kg" at the
            # target question, was meant for it; an any-words reader's copy, "vegan" as an allergy, is none)
            # and the slot's values name it by themselves
            alone = _alone(flow)
            candidates = [
                (t, v)
                for t in targets
                if t.correctable.slot in alone
                and t.correctable.key is None
                and _by_value(flow, state, t.correctable)
                and (v := _read(t, slots, new_part)) is not None
                and _said_as_value(t.parser, content, v)
            ]
        candidates = [(t, v) for t, v in candidates if (t.correctable.slot, t.correctable.key) not in corrected]
        candidates = _read_in_english(candidates, slots, new_part)
        if len(candidates) == 1:
            t, v = candidates[0]
            if olds and t in olds:
                v = _replace_items(t, old_part, v)
            elif t in adds and isinstance(t.current, list) and isinstance(v, list):
                v = list(dict.fromkeys([*t.current, *v]))  # added to what is held, in the order said
            # a list the commas cut ("make the days tue, thu and sat"): the clauses after it that only list
            # more of its items are its own
            v, joined = _listed_on(t, slots, said, n, v, targets)
            if joined > n:
                clause = Clause(clause.start, said[joined].end, text[clause.start : said[joined].end])
            c = t.correctable
            corrected.add((c.slot, c.key))
            commands.append(CorrectSlot(words=clause.text, slot=c.slot, key=c.key, value=slot_value(slots, c, v)))
            made.append((t, v))
            # a "no" before the correction belongs to it ("no, my name is Ana Luísa", "no. uk time" at
            # "Shall I save it?"), unless a "but" follows or a sentence of its own with its own cue
            # ("no, but I bought it on the website", "no. and wait, it was 5 days ago")
            answer_kept = carried_answer is not None and (
                _BUT.match(clause.text) is not None
                or (not carried_answer.comma and words.cue.search(fold_same_length(clause.text)) is not None)
            )
            start = clause.start if carried_from is None or answer_kept else carried_from
            used.append((start, clause.end))
            carried_answer = None
            carried_cue, carried_named, carried_old, carried_from = False, [], None, None
            continue
        if len(candidates) > 1:
            unclear = sorted({t.correctable.key or t.correctable.slot for t, _ in candidates})
        # what a clause leaves open is carried to the next one: "wait," "go back to goals," "i'm not vegetarian,"
        empty = not content or (named and not candidates)
        if cued and empty:
            carried_cue = True
            carried_named = named if not candidates else []
            carried_old = (olds, old_part) if olds else None
            if carried_from is None:
                carried_from = clause.start
                # a bare "no" leading a correction may also answer a yes/no question
                bare_no = words.negation.fullmatch(fold_same_length(clause.text).strip(" ,.!")) is not None
                carried_answer = clause if bare_no and not asked.greedy and answers(asked, clause.text) else None
        else:
            carried_cue, carried_named, carried_old, carried_from, carried_answer = False, [], None, None, None
    if not commands:
        return CorrectionReading([], "", unclear)
    used += _restating(said, used, made)
    return CorrectionReading(commands, _rest(text, used, asked), [])


def _read_in_english(candidates: list[tuple[_Target, object]], slots: Slots, text: str) -> list[tuple[_Target, object]]:
    """Of several slots a clause gives a value, the ones it still gives once its words of another
    language are read in English (engine/gloss.py): "lieber nur zweimal pro Woche" is "twice per week",
    the days, and its "pro" no fitness level. Those read either way are all kept (then asked about)."""
    if len(candidates) < 2:
        return candidates
    english = gloss.in_english(text)
    if english == text:
        return candidates
    kept = [(t, v) for t, v in candidates if _read(t, slots, english) is not None]
    return kept or candidates


def _restating(
    said: list[Clause], used: list[tuple[int, int]], made: list[tuple[_Target, object]]
) -> list[tuple[int, int]]:
    """The clauses no correction took that only say a new value again, in other words: "it's the web
    version, in chrome" (chrome is the web app) is one correction, and "in chrome" no answer to the
    open question."""
    out = []
    for clause in said:
        if any(s <= clause.start and clause.end <= e for s, e in used):
            continue
        piece = strip_ends(without_cues(clause.text))
        if piece and any(_same(t.parser(piece), v) for t, v in made):
            out.append((clause.start, clause.end))
    return out


def _same(read: object, value: object) -> bool:
    return read is not None and not isinstance(read, Invalid | Empty) and read == value


def _listed_on(
    target: _Target, slots: Slots, said: list[Clause], n: int, value: object, targets: list[_Target]
) -> tuple[object, int]:
    """`value`, a list read in clause `n`, with the items the clauses after it list (each running on from the
    one before at a comma, with no cue and no other slot's name), and the last clause taken."""
    if not isinstance(value, list):
        return value, n
    last = n
    for k in range(n + 1, len(said)):
        nxt = said[k]
        folded = fold_same_length(nxt.read)
        if not said[k - 1].comma:
            break
        if any(t is not target and t.names is not None and t.names.search(folded) for t in targets):
            break
        more = target.parser(strip_ends(without_cues(nxt.text)))
        if not isinstance(more, list) or not more:
            break
        longer = list(dict.fromkeys([*value, *more]))
        try:
            _set(slots, target.correctable, longer)
        except ValidationError:
            break
        value, last = longer, k
    return value, last


def _by_value(flow: Flow[Any], state: Ask[Any], c: Correctable) -> bool:
    """May a value alone pick `c` at `state`? JUST_BEFORE: only at the question right after its own
    in the flow's order ("anzi no, ci ho ripensato: il tedesco" at the timezone question)."""
    if c.by_value != JUST_BEFORE:
        return bool(c.by_value)
    asks = [s.slot for s in flow.states if isinstance(s, Ask)]
    here = asks.index(state.slot) if state.slot in asks else -1
    return here > 0 and asks[here - 1] == c.slot


def gives_no_value(after: str) -> bool:
    """Whether the words after a slot's name say no value of it: they only put the change in order
    ("change my name first", "fix my name too", "cambiar mi nombre primero"), or join the name to one
    more word that makes it the name of another thing ("nombre de usuario", "nom d'utilisateur")."""
    words, folded = correction_words(), fold_same_length(after)
    return bool(folded.strip(" ,.!?")) and bool(words.no_value.fullmatch(folded) or words.compound.fullmatch(folded))


def _named_values(named: list[_Target], slots: Slots, text: str) -> list[tuple[_Target, object]]:
    """The value beside a slot's name: after it ("the days to five"), else before it ("4 days")."""
    found: list[tuple[_Target, object]] = []
    folded = fold_same_length(text)
    for t in named:
        m = t.names.search(folded) if t.names else None
        if m is not None and gives_no_value(folded[m.end() :]):
            # "i want to change my name first", "fix my name too": it is to change, to what is not said yet;
            # "cambiar mi nombre de usuario", "nom d'utilisateur": the name of another thing
            continue
        pieces = [text[m.end() :], text[: m.start()]] if m else [text]
        for n, piece in enumerate(pieces):
            if n == 1:
                # before the name, only the value said with it ("only do 2 days", "spanish native")
                piece = " ".join(without_cues(piece).split()[-2:])
            v = _read(t, slots, piece)
            if v is not None:
                found.append((t, v))
                break
    return found


def _rest(text: str, used: list[tuple[int, int]], asked: Parser) -> str:
    out, last = [], 0
    for s, e in sorted(used):
        out.append(text[last:s])
        last = max(last, e)
    out.append(text[last:])
    # what is left keeps its own words (a comment is stored as typed); pieces of filler only go
    pieces = [p.strip(" ,.;:!?-–—") for p in re.split(r"[.;!?\n,]+", "".join(out))]
    return ", ".join(p for p in pieces if p and (strip_ends(p) or (not asked.greedy and _read_in(asked, p))))


def _read_in(asked: Parser, piece: str) -> bool:
    """Is a piece of filler words the open question's to read? An answer is ("no" at "Shall I save
    it?"); so is a value it questions, unless the piece is English filler ("ok", "um"): "mon" is
    French for "my" and Monday in "make it four days: mon, wed, fri" at the weekdays question."""
    found = asked(piece)
    if found is None:
        return False
    return (
        not isinstance(found, Invalid) or correction_words().english_filler.fullmatch(fold_same_length(piece)) is None
    )


def _may_correct(heard: Utterance) -> bool:
    """Every way a correction is read starts from a cue, a negation, a swap or a leading no."""
    return _cued(heard.lowered)


# asked at every later question of every turn: four alternations of the correction words over the
# message, whose answer is the words' alone, searched once per message
@lru_cache(maxsize=1024)
def _cued(folded: str) -> bool:
    w = correction_words()
    return bool(w.cue.search(folded) or w.negation.search(folded) or w.swap.search(folded) or LEADING_NO.match(folded))


@lru_cache(maxsize=1024)
def _adds(folded: str) -> bool:
    """Whether the words say something is added ("also", "as well", "auch"): the message's alone."""
    return correction_words().adding.search(folded) is not None


def correction_commands(
    flow: Flow[Any], state: str, values: dict[str, Any], said: Utterance | str, checked: Slots | None = None
) -> tuple[list[Command], str]:
    """The read stage's part: the commands the corrections in the message give at `state` of
    `flow` (whose slots hold `values`; `checked`: those as the turn validated them on load), and
    the words left for the open question."""
    heard = said if isinstance(said, Utterance) else Utterance(said)
    text = heard.text
    here = flow.state(state)
    if not isinstance(here, Ask):
        return [], repaired_numbers(heard)
    if not here.corrections or not (flow.correctable or flow.corrects):
        return [], answer_meant(flow, here, values, checked, heard)
    if flow.corrects is None and all(values.get(n) in (None, [], {}) for n in flow.correctable_names):
        # nothing filled yet that could be corrected: no slots model built
        return [], answer_meant(flow, here, values, checked, heard)
    # a word of adding ("also", "too", "auch") may add items to a filled list it names, with no cue
    uncued = not _may_correct(heard) and not _adds(heard.lowered)
    if uncued and not _value_alone(flow, heard):
        # no cue, no old value said as wrong: an answer like any other (perhaps taken back within)
        return [], answer_meant(flow, here, values, checked, heard)
    slots = checked if checked is not None else flow.new_slots(values)
    if uncued and not _reads_nothing(here.parser(slots), text):
        # most short answers: the open question's own, told before any slot's parser runs
        return [], answer_meant(flow, here, values, checked, heard)
    found = read_corrections(flow, here, slots, text, uncued=uncued)
    if found.unclear:
        return [WhichSlot(words=text, slots=found.unclear)], ""
    if not found.commands:
        return [], answer_meant(flow, here, values, checked, heard)
    # a number taken back in what is left is read as the number meant
    return list(found.commands), self_repaired(found.rest)


def _alone(flow: Flow[Any]) -> frozenset[str]:
    """The slots whose values name them by themselves (`Ahead(alone=True)`, a bare slot name in `Flow.ahead`)."""
    return frozenset(a.slot for a in map(declared, flow.ahead) if a.alone)


def _reads_nothing(asked: Parser, content: str) -> bool:
    """Does the open question read nothing from `content`, so that a value said alone may be meant for an
    earlier one? No answer and no refusal (a value it refuses, "lose 10 kg" at the target weight question,
    was meant for it), or only the words copied back by a reader of any words ("vegan" as an allergy); a
    free-text question reads everything."""
    if asked.greedy:
        return False
    answer = asked(content)
    return answer is None or (not isinstance(answer, Invalid | Empty) and copied(answer, content, words=1))


def _value_alone(flow: Flow[Any], heard: Utterance) -> bool:
    """May an uncued message be a value alone that corrects an earlier answer? Short, one clause, in a flow
    with a slot whose values name it, and neither a question nor small talk (engine/askback.py: "are eggs
    good for building muscle?", "salut toi" name a goal in passing)."""
    text = heard.text
    if not _alone(flow) or len(text.split()) > VALUE_ONLY_WORDS or len(split_clauses(text)) != 1:
        return False
    return "?" not in text and "¿" not in text and not may_ask(text)


_VALUE_WORDS = re.compile(r"[^\W_]+")
# a value's word in another language spelt nearly as in English ("vegano", "vegetariano", "keto")
_NEAR = 0.8


def _said_as_value(parser: Parser, content: str, value: object) -> bool:
    """Is `value` said as itself, not found inside other words? Its own words ("muscle_gain" is "muscle
    gain") make up at least half of `content`'s, as typed or in English (engine/gloss.py): "muscle gain",
    "vegan", "bad knee"; not "are eggs good for building muscle", nor "meat" as the diet omnivore. A word
    the parser reads the value from alone that is spelt nearly as one of them is one too ("vegano")."""
    items = value if isinstance(value, list) else [value]
    own = {w for item in items if isinstance(item, str) for w in _VALUE_WORDS.findall(fold(item))}
    if not own:
        return False

    def its_own(word: str) -> bool:
        if word in own:
            return True
        near = any(SequenceMatcher(None, word, w).ratio() >= _NEAR for w in own)
        return near and _same(parser(word), value)

    for said in dict.fromkeys((content, gloss.in_english(content))):
        words = _VALUE_WORDS.findall(fold(said))
        if words and 2 * sum(map(its_own, words)) >= len(words):
            return True
    return False
