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
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import JsonValue, ValidationError

from engine import gloss
from engine.commands import SetSlot
from engine.cues import fold_same_length
from engine.declined import declines_named
from engine.extract import Empty, Invalid, Parser, copied, declines, fold
from engine.fact_clauses import AND, BUT, MAX_CLAUSES, PAST, Clause, clauses, habit
from engine.models import Slots
from engine.slot_cues import (
    EVERY,
    FAILED,
    DeclaredAhead,
    OpenSlot,
    any_will_do,
    asked_slot_cue,
    catch_all_only,
    flow_table,
    is_answer,
    named_before,
    only_indefinite,
    open_slots,
    read_safely,
    unfilled,
    value_read,
)
from engine.states import Ask
from engine.tables import filler_phrases
from engine.utterance import Utterance
from engine.yesno import read_yes_no

if TYPE_CHECKING:
    from engine.flow import Flow


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
        and (d.ahead.alone or (d.cue is not None and d.cue.search(said_folded)) or named_before(d.ahead, slots))
        for d in flow_table(flow).declared
    ):
        return Filled([], text)
    candidates = open_slots(flow, slots, asked_slot)
    if not any(
        c.declared_alone or (c.cue is not None and c.cue.search(said_folded)) or c.named_before for c in candidates
    ):
        return Filled([], text)
    parts = clauses(text)[:MAX_CLAUSES]
    asked = state.parser(slots) if state is not None else None
    asked_cue = asked_slot_cue(flow, state.slot) if state is not None else None
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
            asked_read[typed] = read_safely(asked, typed) if asked is not None else None
        return asked_read[typed]

    whole_read = asked_reads(text) if asked is not None and not asked.greedy else None
    answer = None if whole_read is None or isinstance(whole_read, (Invalid, Empty)) else whole_read
    # the asked slot's own reader of its values said out of turn, if the flow declares one
    own = next((d for d in flow_table(flow).declared if d.ahead.slot == asked_slot), None)
    for c in candidates:
        named_here = (c.cue is not None and c.cue.search(said_folded) is not None) or c.named_before
        if not c.whole or not (named_here or c.alone):
            continue  # what it would read could not count: no parser run
        said_whole = value_read(c.parser, text)
        # the value the asked question reads in the message is its answer, not another slot's too
        if said_whole is not None and said_whole != answer and (named_here or (c.alone and not _number(said_whole))):
            whole[c.slot] = said_whole
    # a clause that declines the asked question ("none, and i'm free mon and thu evenings" at the allergies
    # question) answers it: the other clauses are no answer to it, whatever its reader would take
    declined = (
        next((i for i, c in enumerate(parts) if declines(c.text) and is_answer(asked_reads(c.text))), None)
        if asked is not None and not asked.greedy and len(parts) > 1
        else None
    )
    compared = _compared(text)
    for i, clause in enumerate(parts):
        if text[clause.end : clause.end + 2].lstrip().startswith("?"):
            continue  # a question states no fact: "is 15 minutes even worth it?"
        if any(clause.start < b and clause.end > a for a, b in compared):
            continue  # nor do the things whose difference is asked: "what's the difference between A2 and B1?"
        if PAST.search(fold(clause.text)):
            continue  # what the user used to do is no fact of now: "i used to run 5k every week"
        # what the user does now is no plan: "i run twice a week" at the level question fills no days a week
        now = habit(clause.text)
        found_here = asked_reads(clause.text) if asked is not None and not asked.greedy else None
        if declined is not None and i != declined:
            found_here = None
        answers = asked is not None and not asked.greedy and is_answer(found_here)
        if answers:
            answered.add(i)
        # words the asked parser only copies back are no answer beside a slot that reads them ("Monday"
        # as the equipment, "abnehmen" as the injuries: a reader that takes words it does not know as
        # typed) unless the slot's own `Ahead` reader reads them ("sore shoulder from the bench" is an injury)
        echo = answers and copied(found_here, clause.text, words=1) and not _own_reads(own, slots, clause.text)
        if (
            found_here is not None
            and found_here is not FAILED
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
            if not named and any_will_do(clause.text):
                continue  # any will do names no slot by itself ("intermediate, anything goes!" is no diet)
            read = value_read(c.parser, clause.text)
            if read is None and named and not listed:
                # "advanced, no limitations": the clause names the slot and says there is none of it
                read = c.declined(clause.text)
            if listed:
                # every one of them ("every day": all seven weekdays) singles none out
                if isinstance(read, list) and len(read) == found_here and len(set(map(repr, read))) < EVERY:
                    found.setdefault(c.slot, []).append((i, read))
                    shared.add(i)
                continue
            if read is None and named and not mine and isinstance(read_safely(c.parser, clause.text), Invalid):
                # "like 3 or 4 times a week" at the injuries question: the days', though unclear (their
                # question asks it in turn), never the asked question's answer
                unclear.add(i)
            if read is None or (not named and _number(read)) or (mine and read == found_here):
                continue
            if not named and not listed and only_indefinite(c.parser, clause.text, read):
                continue  # no slot named, and nothing but "anything" read as its value
            if not named and not listed and catch_all_only(c, read, folded):
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
            value = value_read(c.parser, span)
            if value is None:
                continue  # several values, none for the whole: not guessed
        # a list the joining words cut ("allergic to peanuts and soy"): the next clause, joined by "and" and
        # read by no one, is the list's when the span to it reads more
        more = [i for i, _ in reads]
        while (
            last + 1 < len(parts)
            and last + 1 not in claimed
            and AND.fullmatch(text[parts[last].end : parts[last + 1].start].strip())
        ):
            longer = value_read(c.parser, text[parts[first].start : parts[last + 1].end])
            if longer is None or longer == value or not isinstance(longer, list):
                break
            value, last = longer, last + 1
            more.append(last)
        # a clause after it that the slot's reader folds into the same value hedges it ("4 days, maybe 5 if
        # i'm motivated": 4): the slot's words, never an answer to the asked question
        if (
            last + 1 < len(parts)
            and last + 1 not in claimed
            and value_read(c.parser, parts[last + 1].text) is not None
            and value_read(c.parser, text[parts[first].start : parts[last + 1].end]) == value
        ):
            last += 1
            more.append(last)
        # a contrast after it that the slot's reader reads nothing in alone, but reads with it into another
        # value, qualifies it ("i don't eat meat but i eat fish": pescatarian, not the first clause's vegetarian);
        # a clause the reader found unclear alone ("i eat fish": and meat?) may be such a contrast
        if (
            last + 1 < len(parts)
            and (last + 1 not in claimed or last + 1 in unclear)
            and BUT.fullmatch(text[parts[last].end : parts[last + 1].start].strip(" ,;"))
            and value_read(c.parser, parts[last + 1].text) is None
        ):
            qualified = value_read(c.parser, text[parts[first].start : parts[last + 1].end])
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
            if i in answered or not declines_named(fold(clause.text), c.cue) or not c.empty_none():
                continue
            sets.append(SetSlot(words=clause.text, slot=c.slot, value=None, declined=True))
            if i not in claimed:
                taken.add(i)
            break
    if not sets and not unclear:
        return Filled([], text)
    rest = _rest(text, parts, taken | unclear)
    if whole and asked is not None and not asked.greedy and not is_answer(asked_reads(rest)):
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
        if naming and again.strip() and is_answer(asked_reads(again)):
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
    if sets and asked is not None and not asked.greedy and not is_answer(asked_reads(rest)):
        # a clause that says another slot's value may say the asked one's too ("mon/wed/fri at lunch",
        # "saturday and sunday mornings"): it stays for the question when the question reads no answer
        # without it, one clause at a time, the first that gives one kept; then a clause the question reads
        # nothing in alone, where the slot's own `Ahead` reader reads its value ("Montag, Mittwoch und Freitag
        # abends" at the days question: "Freitag abends" is no three days alone, but a day)
        more = [i for i in sorted(taken - asked_also) if _own_reads(own, slots, parts[i].text)]
        for i in [*sorted(taken & asked_also), *more]:
            again = _rest(text, parts, (taken | unclear) - {i})
            if is_answer(asked_reads(again)):
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


def _not_its_answer(found: object, clause: str) -> bool:
    """The asked question's parser reads no answer in `clause`, or only copies its words back."""
    return not is_answer(found) or copied(found, clause, words=1)


def _quiet(flow: Flow[Any], slots: Slots, readers: Sequence[OpenSlot], text: str) -> list[SetSlot]:
    """What the whole-message readers also read from the words of their values (`Ahead.beside`), as
    quiet `SetSlot`s: each empty slot once, the first reader's value."""
    out: dict[str, SetSlot] = {}
    for c in readers:
        for slot, value in (c.beside(text) if c.beside is not None else {}).items():
            if slot in out or not unfilled(slots, slot) or (stored := _stored(flow, slots, slot, value)) is None:
                continue
            out[slot] = SetSlot(words=text, slot=slot, value=stored, noted=False)
    return list(out.values())


def _own_reads(own: DeclaredAhead | None, slots: Slots, text: str) -> bool:
    """Does the asked slot's own `Ahead` reader (the flow's reader of its values said out of turn) read `text`?"""
    if own is None:
        return False
    reader = own.chosen if isinstance(own.chosen, Parser) else own.chosen(slots)
    return value_read(reader, text) is not None


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
        if not unfilled(slots, s.slot):
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
    if not any(isinstance(s, Ask) and s.slot != state.slot and not unfilled(slots, s.slot) for s in flow.states):
        return []  # no other question answered yet: nothing to say again (and the asked parser not run for it)
    found = read_safely(asked, text)
    if found is FAILED or (found is not None and not (isinstance(found, Invalid) and _quotes(found.reason, text))):
        return []
    again: list[str] = []
    for s in flow.states:
        if not isinstance(s, Ask) or s.slot == state.slot or s.slot in again or unfilled(slots, s.slot):
            continue
        name, parser = s.slot, s.parser(slots)
        value = None if parser.greedy else value_read(parser, text)
        if value is None or _number(value):
            continue
        try:
            same = flow.slots.model_validate({**slots.model_dump(), name: value}) == slots
        except ValidationError:
            continue
        if same:
            again.append(name)
    return again
