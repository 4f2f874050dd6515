"""Changing facts of a profile in words: a review before it is saved, and amendments after.

A flow declares its update path with `Amends`: the record kind it saves, the slots that may
be changed (`Amendable`: the words that name the fact, and the slot's own question parser),
how the saved record reads back into its slots, and how the record is derived again from
them. Two things use it:

- `review(amends)`, the parser of an asking state before the record is saved: "yes" (or
  "looks good") accepts, "days should be 4" or "remove the knee thing" is a `Revision`
  whose changes a `Step(run=revise(amends))` applies and says, and the state asks again;
- the main conversation, once the record exists: `amendments` reads a message that says a
  change ("switch me to mon wed fri", "I got a kettlebell") into `Amend` commands, and the
  turn saves a new version of the record (a new record of the same kind: the latest wins).

A value is always read by the slot's own parser, so a change reads as its question's
answer does. A message is read with its cue phrases of other languages written in English
(engine/cues.py: "meine Muttersprache ist" is "my native language is"), so the facts' names and
the record's words are English, and the values stay as typed. A message naming a fact without a
value, naming two facts in one phrase, or leaving the record inconsistent (`settle`) is asked
about: nothing is guessed.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError
from typing_extensions import TypeVar

from engine.commands import Amend, AmendAsk, Command, Recall
from engine.cues import in_english_cues
from engine.extract import Empty, Invalid, Parser, fold, numbers
from engine.models import JsonObject, RecordDraft, Slots, StoredRecord
from engine.names import field_named
from engine.yesno import read_yes_no

if TYPE_CHECKING:  # the read stage imports this module; what a step may touch is not its business
    from engine.context import StepContext

S = TypeVar("S", bound=Slots, default=Slots)

# "remove the knee thing", "my knee is fine now", "I sold the bike": the fact goes (a list loses
# what is named; any other slot takes its question's "none")
_REMOVE = re.compile(
    r"\b(?:remove|drop|delete|take (?:off|out)|get rid of|got rid of|no longer|any ?more|no more|sold|lost|gave away"
    r"|(?:is|are|'s) (?:fine|ok|okay|good|healed|better|gone)(?: now)?|healed|recovered|gone now"
    r"|enlever|supprimer|entfernen|quitar|elimina|rimuovi|remover)\b"
)
# "I only have bands now": a list is replaced, not added to ("just bought" adds)
_ONLY = re.compile(r"\b(?:only|instead|nothing but|just (?:have|use))\b")
# words after a value that are not part of it: "allergic to shellfish too", "82 kg now"
_TRAILING_WORDS = frozenset(
    {"too", "as well", "also", "now", "again", "anymore", "any more", "please", "thanks", "actually", "really",
     "i guess", "i think",
     # the same said in the other languages read ("llámame Maxi por favor")
     "por favor", "bitte", "svp", "stp", "per favore", "jetzt", "maintenant", "ahora", "adesso", "agora"}
)  # fmt: skip
# what a value is not, said beside it: "not vegetarian", "evenings not mornings"
_DENIED = re.compile(r"(?<!\W)\W*+(?:not|rather than|instead of|but not)\b")
_DENIED_AFTER = re.compile(r"(?<![\w'])(?:not|rather than|instead of|but not)\s", re.IGNORECASE)


def _without_trailing(text: str) -> str:
    """`text` without the words after its value that are not part of it, read from the end
    (a pattern anchored at the end is tried from every start: slow on a long message)."""
    words = text.rstrip(" \t.!?,").split()
    while words:
        for n in (2, 1):
            if len(words) > n and " ".join(words[-n:]).lower().strip(",") in _TRAILING_WORDS:
                words = words[:-n]
                break
        else:
            break
    return " ".join(words).rstrip(",")


def _without_denied(part: str) -> str:
    """`part` up to what its value is said not to be ("evenings not mornings": "evenings")."""
    m = _DENIED_AFTER.search(part, 1)
    return part[: m.start()].rstrip() if m else part


# A main-conversation message changes a saved fact only when it says it changes something: "what
# should I do on my rest days?" names days and changes nothing.
_CHANGE = re.compile(
    r"\b(?:change|changed|switch|set|make|move|update|edit|correct|fix|now|actually|anymore|any more|no longer"
    r"|instead|got|get|bought|have|add|remove|drop|delete|fine|healed|recovered|sold|lost|should be|from now"
    r"|going|gone|went|switched|started|stopped|became|quit|picked up|again|too|also|as well|down to|up to"
    r"|found out|gave|these days|by now|no more|note|note down|log|write down|keep in mind|for the record"
    r"|meant|i mean"
    # "actually", "now" in the other languages read (their verbs of changing are the cue table's "change")
    r"|eigentlich|jetzt|nun|en fait|maintenant|desormais|en realidad|de hecho|ahora|in realta|adesso"
    r"|na verdade|agora)\b"
)
# the same words, which say that something changes and are never part of the new value: left out of
# what the slot's parser reads ("ich heiße jetzt Jonas" is "my name is jetzt Jonas" to the cue table)
_ADVERBS = re.compile(
    r"(?<![\w'])(?:actually|now|eigentlich|jetzt|nun|en fait|maintenant|d[ée]sormais|en realidad|de hecho|ahora"
    r"|in realt[àa]|adesso|na verdade|agora)(?![\w'])\s*,?\s*",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"\?\s*$|^\W*(?:what|how|why|when|where|which|who|can|could|should|do|does|is|are)\b")
# "can you set my level to B2 please", "could u switch me to evenings?": a request to change, not a question
_ASKED_TO_CHANGE = re.compile(
    # a discourse word before it is no question either ("actually can you switch me to ...?", "oh and could u ...")
    r"^\W*(?:(?:please|pls|so|ok|okay|hey|actually|oh|and|also|um|umm|hmm|sorry|wait|btw)\W+)*"
    r"(?:(?:can|could|would|will) (?:you|u|we|i)"
    # the same in the other languages read, before the cue table's "change" ("kann ich change my name?")
    r"|kann ich|kannst du|konnen sie|konnen wir|puis-je|je peux|tu peux|est-ce que je peux|puedo|puedes|podemos"
    r"|posso|puoi|possiamo|pode|podes)\b(?: please| pls)?"
    r" (?:change|switch|set|make|move|update|put|correct|fix|add|remove|drop|do)\b"
)
# the verbs of a change asked for, with or without its value ("can i change my name?", "kann ich meinen
# Namen ändern?" once the cue table has read it): a bot asks for a value the message does not give
_CHANGING = re.compile(r"\b(?:change|switch|update|edit|fix|correct|modify|amend)\b")


def _said(text: str) -> str:
    """The message as the readers here compare it: folded, its other languages' cues in English."""
    return fold(in_english_cues(text))


def _is_question(t: str) -> bool:
    """A question about something, not a change asked for politely (`t` folded)."""
    return _QUESTION.search(t) is not None and _ASKED_TO_CHANGE.search(t) is None


def asks_to_change(text: str) -> bool:
    """Whether a message asks for a change in so many words, in any of the languages read: a bot
    with a question for the new value asks it when the message names the fact but not the value."""
    return _CHANGING.search(_said(text)) is not None


# Accepting a summary, beside the engine's yes in six languages
_APPROVE = re.compile(
    r"^\W*(?:(?:it |that |this |everything |all )?(?:looks|sounds|seems|is) (?:good|great|fine|right|correct|perfect)"
    r"|all good|all correct|perfect|correct|that'?s (?:right|correct|it|all)|save it|go ahead|confirm(?:ed)?|lgtm"
    r"|c'est (?:bon|parfait)|parfait|passt|alles (?:gut|richtig)|perfecto|todo bien|perfetto|va bene|tudo certo)\b"
)
# leaving a pending change as it was ("keep it as it is", "never mind that", "leave it at 4")
_KEEP = re.compile(
    r"\b(?:keep (?:it|them|that|as is|it as it is|what you have)|leave (?:it|them|that)(?: as it is| as is| at \w+)?"
    r"|as it (?:is|was)|never ?mind (?:that|the change|it)|no change|forget the change|don'?t change (?:it|anything)"
    r"|d[eé]jal[oa] (?:as[ií]|como est[aá])|lass es so|laisse comme [cç]a|lascia cos[iì]|deixa assim)\b"
)
# a part that refers back to a fact named elsewhere in the message ("make it 5", "change that to 70 kg")
_REFERS = re.compile(r"\b(?:it|that|this|them|those)\b")
# a change that says it adds ("add saturday", "also sunday"), to a list that is otherwise replaced
_ADDING = re.compile(r"^(?:(?:please|pls|and|oh)\s++)*+(?:add|plus|also)\b")
# ... or said after what is added ("saturday as well", "sunday too please", "oh and saturdays too")
_ADDED = re.compile(r"\b(?:too|as well|also)(?:\s+(?:then|please|pls|now))*\W*$")
_PARTS = re.compile(
    r"[;.!?\n]+|,\s*+|(?<!\s)\s++but\s+|(?<!\s)\s++(?:and|also|plus)\s++"
    r"(?=(?:my|the|i|i'm|im|i've|change|switch|make|set|add|remove|drop|take|put|move|swap|replace)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Amendable(Generic[S]):
    """A slot that may be changed in words: `names` finds the fact in a message, `parse`
    (the slot's question parser, from the slots as they stand) reads its new value. A list
    slot that `adds` gains what a message names ("I got a kettlebell") or loses it ("remove
    the bands"); one that does not is replaced ("switch me to mon wed fri")."""

    slot: str
    names: re.Pattern[str]
    parse: Callable[[S], Parser]
    label: str = ""
    adds: bool = True
    # the parser of a bare answer to "What should your X be?", where `parse` reads a value only in a
    # sentence that says it ("call me Sam"); None: `parse` reads both
    answer: Callable[[S], Parser] | None = None
    # what the fact is called in the languages the flow reads ("Gewicht", "el peso", "l'objectif"): said alone at
    # a review, the fact to change, its value asked for (engine/corrections.py field_named)
    called: Sequence[str] = ()


@dataclass(frozen=True)
class Amends(Generic[S]):
    """A flow's update path: its saved record `kind`, the slots that may change, how the
    record reads back into slots (`load`), and how its new version is derived (`records`).
    `settle(before, after)` returns the slots made consistent after a change (a count that
    follows a list), or a question when they cannot be without asking."""

    kind: str
    fields: Sequence[Amendable[S]]
    load: Callable[[JsonObject], S]
    records: Callable[[S], list[RecordDraft]]
    settle: Callable[[S, S], S | str] | None = None
    show: Callable[[str, Any], str] | None = None
    # the record's own words that say a change outright, with no change word ("call me Sam", "I moved
    # to Lisbon"), in English (the message's cues of other languages are read as English first)
    says: re.Pattern[str] | None = None
    # each record is an entry of its own (a feedback entry), not the one profile whose latest version
    # wins: a new version names the one it replaces (`revises`: its id), and `unrevised` leaves that out
    revises: bool = False
    # the saved record told back when the user asks about it ("what's my plan again?"): the words that
    # name it, and the sentence that tells it
    names: re.Pattern[str] | None = None
    describe: Callable[[S], str] | None = None

    def field(self, slot: str) -> Amendable[S]:
        return next(f for f in self.fields if f.slot == slot)

    def shown(self, slot: str, value: object) -> str:
        f = self.field(slot)
        if self.show is not None:
            return self.show(slot, value)
        return f"{f.label or slot.replace('_', ' ')}: {value}"


class Changes(BaseModel):
    """What a message changes: the new values, the words each came from, or a question."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    values: dict[str, JsonValue] = {}
    words: dict[str, str] = {}
    question: str | None = None
    # the fact whose new value the question asks for, when it asks for one
    asking: str | None = None


class Revision(BaseModel):
    """A review's answer: accepted, or the changes to make before asking again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    accepted: bool = False
    changes: dict[str, JsonValue] = {}
    # a change asked for that cannot stand yet ("days should be 3" with four days named): kept, and its
    # question asked, until the user settles it or drops it; no yes saves while it waits
    pending: dict[str, JsonValue] = {}
    asked: str = ""
    # the pending change was dropped at the user's word: said, and the summary shown again
    dropped: bool = False


def _is_list(model: type[Slots], slot: str) -> bool:
    annotation = model.model_fields[slot].annotation
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = {typing.get_origin(a) or a for a in (typing.get_args(annotation) if union else (annotation,))}
    return list in kinds


class _Unread:
    """No value for the slot in the words (None is a value: a target removed)."""


UNREAD = _Unread()


def _value(f: Amendable[S], slots: S, part: str) -> object:
    """The new value `part` gives `f`'s slot: the parser's reading, a list edited by it, or
    the question's "none" for a fact removed; UNREAD when it gives none, Invalid when refused."""
    parser = f.parse(slots)
    t = fold(part)
    current = getattr(slots, f.slot)
    removing = _REMOVE.search(t) is not None
    plain = _ADVERBS.sub("", part).strip() or part
    found = parser(_without_trailing(plain) or plain)
    if isinstance(found, Invalid):
        return found
    if _is_list(type(slots), f.slot):
        if isinstance(found, Empty) or found == []:
            return []  # the question's "none": "I have no equipment"
        have = [x for x in current or [] if isinstance(x, str)]
        if removing:
            # what the list holds, named by the parser or said in so many words ("no longer allergic to peanuts": a
            # list reader reads that clause as no list at all, engine/extract.py `_clause`)
            named = found if isinstance(found, list) else []
            gone = [x for x in have if x in named or re.search(rf"\b{re.escape(fold(x))}\b", t)]
            if not gone:
                if not named:
                    return UNREAD
                return Invalid(f"I have no {', '.join(map(str, named))} in your {f.label or f.slot} to remove.")
            return [x for x in have if x not in gone]
        if not isinstance(found, list):
            return UNREAD
        if _ONLY.search(t) or (not f.adds and not _ADDING.match(t) and not _ADDED.search(t)):
            return found  # a list that is replaced when changed ("tuesday and thursday"), unless added to in words
        return [*have, *(x for x in found if x not in have)]
    if isinstance(found, Empty):
        return None
    if found is not None and not removing:
        return found
    if removing:
        none = parser("none")
        if isinstance(none, Empty):
            return None
        if none is not None and not isinstance(none, Invalid):
            return none
    return UNREAD if found is None else found


def _says_change(amends: Amends[Any], t: str) -> bool:
    """Whether `t` (the message in English, folded) says a change to `amends`' record is made: a
    change cue or the record's own words, not asked as a question. In the main conversation a
    message that does not is read as no change without the record."""
    said_so = _CHANGE.search(t) is not None or (amends.says is not None and amends.says.search(t) is not None)
    return said_so and not _is_question(t)


def _continues(earlier: object, value: object, part: str) -> bool:
    """Whether `part`, read as `value` for a list slot an earlier part of the message already gave a
    value, goes on with that list rather than replacing it: "switch me to monday, wednesday and friday"
    is split at its comma, and its second part says no change of its own (no change or removal word)."""
    if not isinstance(earlier, list) or not isinstance(value, list) or not value:
        return False
    t = fold(part)
    return _CHANGE.search(t) is None and _REMOVE.search(t) is None


def read_changes(amends: Amends[S], text: str, slots: S, *, cued: bool = False) -> Changes:
    """The changes `text` makes to `slots`, read part by part (a phrase per fact). `cued`: in
    the main conversation, where a fact is changed only by a message saying so."""
    if not cued and (slot := field_named(text, {f.slot: f.called for f in amends.fields if f.called})) is not None:
        # "Gewicht", "el peso" at the review: the fact to change named alone in the user's language
        return Changes(question=f"What should your {amends.field(slot).label or slot} be?", asking=slot)
    text = in_english_cues(text)
    t = fold(text)
    if cued and not _says_change(amends, t):
        return Changes()
    values: dict[str, JsonValue] = {}
    words: dict[str, str] = {}
    unvalued: list[Amendable[S]] = []  # a fact named alone without its value ("my rating was unfair")
    referring: list[str] = []  # a part naming no fact that refers back to one ("make it 5")
    for part in (p.strip() for p in _PARTS.split(text)):
        if not part:
            continue
        if _DENIED.match(fold(part)):
            continue  # "not vegetarian" beside "I'm vegan": what the value is not
        kept = _without_denied(part)  # "evenings not mornings", "vegan rather than vegetarian"
        if any(f.names.search(fold(kept)) for f in amends.fields):
            part = kept  # ("not allergic to peanuts anymore" is all the change there is)
        named = [f for f in amends.fields if f.names.search(fold(part))]
        if not named and _REFERS.search(fold(part)):
            referring.append(part)
        read: dict[str, object] = {}
        refused: Invalid | None = None
        for f in named:
            value = _value(f, slots, part)
            if isinstance(value, Invalid):
                refused = refused or value
                continue
            if value is UNREAD:
                if len(named) == 1:
                    unvalued.append(f)
                continue
            read[f.slot] = value
        if refused is not None and not read:
            return Changes(question=refused.reason)
        if len(read) > 1:
            labels = " or your ".join(amends.field(k).label or k for k in read)
            return Changes(question=f"Did you mean your {labels}? Please say which, one at a time.")
        for slot, value in read.items():
            earlier = values.get(slot)
            if isinstance(earlier, list) and isinstance(value, list) and _continues(earlier, value, part):
                value = [*earlier, *(x for x in value if x not in earlier)]
                part = f"{words[slot]}, {part}"
            values[slot] = value  # type: ignore[assignment]
            words[slot] = part
    if len(unvalued) == 1 and not values:
        # "my rating was unfair, make it 5": the one fact named, and its value in the part referring to it
        f = unvalued[0]
        for part in referring:
            value = _value(f, slots, part)
            if isinstance(value, Invalid):
                return Changes(question=value.reason)
            if value is not UNREAD:
                values[f.slot], words[f.slot] = value, part  # type: ignore[assignment]
                break
    missing = [f for f in unvalued if f.slot not in values]
    if missing and (not cued or (len(missing) == 1 and not values and _CHANGING.search(t) is not None)):
        # "days should be" at the review; "can i change my goal?" after saving: its new value is asked for
        # (the fact whose own label is said, where its words name another: "my training days")
        labelled = [g for g in amends.fields if g.label and fold(g.label) in t]
        f = labelled[0] if len(labelled) == 1 else missing[0]
        return Changes(question=f"What should your {f.label or f.slot} be?", asking=f.slot)
    if cued and not values and not words and (number := numbers(t)):
        # "make it 4": a value without the fact it is for is asked about, never guessed
        fits = [
            f
            for f in amends.fields
            if isinstance(f.parse(slots)(t), int | float) and not isinstance(f.parse(slots)(t), bool)
        ]
        if fits:
            which = " or your ".join(f.label or f.slot for f in fits)
            example = f"{fits[0].label or fits[0].slot} should be {number[0]:g}"
            return Changes(question=f"Do you mean your {which}? Say for example “{example}”.")
    changed = {k: v for k, v in values.items() if v != _dumped(slots, k)}
    if values and not changed:
        same = "; ".join(amends.shown(k, getattr(slots, k)) for k in values)
        return Changes(question=f"That's what I have already ({same}).")
    return Changes(values=changed, words={k: words[k] for k in changed})


def _dumped(slots: Slots, slot: str) -> JsonValue:
    value: JsonValue = slots.model_dump(mode="json").get(slot)
    return value


def apply_changes(amends: Amends[S], slots: S, values: Mapping[str, JsonValue]) -> S | str:
    """`slots` with `values` set and settled; a question (or the reason a value is refused)
    when they cannot be."""
    try:
        after = type(slots).model_validate({**slots.model_dump(), **values})
    except ValidationError as e:
        first = e.errors()[0]
        return f"That can't be right ({first.get('msg', 'invalid value').lower()})."
    if amends.settle is None:
        return after
    return amends.settle(slots, after)


def changed_lines(amends: Amends[S], before: S, after: S) -> list[str]:
    """Each changed amendable fact, as it reads now and as it was: "days a week: 4 (was 3)"."""
    out = []
    for f in amends.fields:
        old, new = getattr(before, f.slot), getattr(after, f.slot)
        if old != new:
            was = amends.shown(f.slot, old).split(": ", 1)[-1] if old is not None else "not given"
            out.append(f"{amends.shown(f.slot, new)} (was {was})")
    return out


# -- the review before saving ---------------------------------------------------------------


def review(amends: Amends[S], example: str = "days should be 4", slot: str = "review") -> Callable[[S], Parser]:
    """The parser of a review question (its answer in `slot`): changes first ("yes, but days should
    be 4" changes the days), then a yes; anything else is asked again, with what can be said.

    A change that cannot stand as asked ("days should be 3" with four days named) is kept pending with
    its question (`reviewed` asks it alone, without the summary's "say yes to save"); the next answer
    completes it ("mon wed fri"), or drops it ("keep it as it is"); a yes meanwhile asks it again, so a
    yes never saves a profile against a change the user asked for."""

    def make(slots: S) -> Parser:
        held = getattr(slots, slot, None)
        pending = held.pending if isinstance(held, Revision) else {}

        def rule(text: str) -> object:
            found = read_changes(amends, text, slots)
            if found.question is not None and not (pending and _KEEP.search(fold(text))):
                return Invalid(found.question)
            if found.values:
                values = {**pending, **found.values}  # the pending change, completed by this answer
                settled = apply_changes(amends, slots, values)
                if isinstance(settled, str):
                    return Revision(pending=values, asked=settled)
                return Revision(changes=values)
            if pending and (_KEEP.search(fold(text)) or read_yes_no(text) is False):
                return Revision(dropped=True, pending=pending)
            if pending:
                # a yes, or anything else, while a change waits: its question again, never a save
                assert isinstance(held, Revision)
                return Revision(pending=pending, asked=held.asked)
            if read_yes_no(text) is True or _APPROVE.search(fold(text)):
                return Revision(accepted=True)
            if read_yes_no(text) is False:
                return Invalid(f"What should I change? For example “{example}”.")
            return Invalid("I couldn't tell what to change.")  # the reprompt says what may be said

        return Parser(rule, f"“yes”, or what to change (for example “{example}”)")

    return make


def revise(amends: Amends[S], slot: str) -> Callable[[StepContext[S]], None]:
    """The step after a review answer in `slot`: the changes applied and said; a review left
    unanswered (skipped) is accepted as it stands."""

    def run(ctx: StepContext[S]) -> None:
        answer = getattr(ctx.slots, slot)
        if isinstance(answer, Revision) and answer.dropped:
            # the pending change left as it was, said so; the review shows the profile again
            kept = "; ".join(amends.shown(k, getattr(ctx.slots, k)) for k in answer.pending)
            ctx.say(f"OK, I've left it as it was ({kept}).")
            setattr(ctx.slots, slot, Revision())
            return
        if not isinstance(answer, Revision) or not answer.changes:
            return  # a pending change stays in `slot`: the review asks its question (`reviewed`)
        before = ctx.slots
        settled = apply_changes(amends, before, answer.changes)
        if isinstance(settled, str):  # read as consistent by the parser: only a stale frame gets here
            ctx.say(settled)
            return
        ctx.slots = settled
        lines = changed_lines(amends, before, settled)
        if lines:
            ctx.say(f"Changed: {'; '.join(lines)}.")
        setattr(ctx.slots, slot, Revision())

    return run


def reviewed(summary: Callable[[S], str], slot: str = "review") -> Callable[[S], str]:
    """A review question's words: `summary` (the profile and "say yes to save it"), or, while a change
    asked for waits to be settled (`Revision.pending`), only its question and how to drop it: one
    question at a time, and no offer to save what the user asked to change."""

    def say(slots: S) -> str:
        held = getattr(slots, slot, None)
        if isinstance(held, Revision) and held.pending and held.asked:
            return f"{held.asked} Or say “keep it as it is” to leave it unchanged."
        return summary(slots)

    return say


def accepted(slot: str) -> Callable[[Slots], bool]:
    """A transition condition: the review in `slot` was accepted (or skipped)."""

    def check(s: Slots) -> bool:
        answer = getattr(s, slot)
        return answer is None or (isinstance(answer, Revision) and answer.accepted)

    return check


# -- amendments after saving ------------------------------------------------------------------


class _Flows(typing.Protocol):
    @property
    def flows(self) -> Sequence[Any]: ...


def _saved(
    bot: _Flows, latest: Callable[[str], StoredRecord | None], wanted: Callable[[Amends[Any]], bool] | None = None
) -> Iterator[tuple[Any, Amends[Any], Slots]]:
    """Each flow with an update path, its `Amends`, and the user's latest record of it read back into
    slots; a record this version cannot read is left out (redoing the flow will do). `wanted`: only
    the update paths it accepts, whose records alone are then read from the store and validated."""
    for flow in bot.flows:
        amends: Amends[Any] | None = getattr(flow, "amends", None)
        if amends is None or (wanted is not None and not wanted(amends)):
            continue
        record = latest(amends.kind)
        if record is None:
            continue
        try:
            slots = amends.load(record.data)
        except ValidationError:
            continue
        yield flow, amends, slots


# a question about what the user told, in their own words: "what's my plan again?", "which days did i
# pick?", "remind me of my target weight"
_ASKS_MINE = re.compile(
    r"^\W*(?:(?:so|ok|okay|hey|and|wait|um+|hm+)\W+)*(?:what(?:'s| is| are| was| were)?|which|how many|how much|when"
    r"|remind me|tell me|show me|can you (?:remind|tell|show) me|do you (?:know|remember)"
    # the same in the other languages read ("was ist my level?" once the cue table has read "mein Niveau")
    r"|was ist|was war|welche[rs]?|wie (?:ist|hei(?:ss|ß)t)|quel(?:le)?s? (?:est|sont|etait)|c'est quoi"
    r"|cual(?:es)? (?:es|son|era)|que|qual(?:e|i)? (?:e|sono|era)|quale|qual (?:e|era)|quais sao)\b.*"
    r"\b(?:my|am i|i'?m at|i (?:said|picked|chose|told you|gave|have)"
    # what the bot holds of the user: "what timezone do you have for me now?", "what level have you got me at?"
    r"|(?:have|got) (?:for |on )?me|(?:have|got) me (?:down |set )?(?:as|at|in|for)"
    r"|mein\w*|mon|ma|mes|mi|mis|il mio|la mia|meu|minha"
    r"|(?:did|do) i (?:say|pick|choose|tell you|give|have))\b"
    # "how many days a week do i train?", "which days do i work out?": a count or a choice of what the user does
    r"|^\W*(?:how many|how much|how often|which)\b.*\b(?:did|do) i\b"
)
# "which days did i pick?" asks for the days, not how many: a list whose label's noun is said
_WHICH = re.compile(r"^\W*(?:(?:so|ok|okay|hey|and|wait)\W+)*which\b")


def recalled(bot: _Flows, text: str, latest: Callable[[str], StoredRecord | None]) -> Command | None:
    """A question about a saved record ("what's my plan again?") or one fact of it ("what's my target
    weight?"), told from the latest record by the flow's `Amends` (`describe`, `shown`); None when the
    message asks nothing of the kind, or changes something (a change is an amendment)."""
    t = _said(text)
    # read as typed too: the cue table reads "qual é o meu nível?" as "qual and o my level?"
    if not (_ASKS_MINE.search(t) or _ASKS_MINE.search(fold(text))) or (
        _CHANGE.search(t) is not None and not _is_question(t)
    ):
        return None
    for _, amends, slots in _saved(bot, latest):
        if amends.describe is None:
            continue
        # "what are my training days?": the fact whose own label is said, where the words name several
        labelled = [f for f in amends.fields if f.label and fold(f.label) in t]
        if _WHICH.search(t) and len(labelled) != 1:
            labelled = [
                f
                for f in amends.fields
                if f.label
                and re.search(rf"\b{re.escape(fold(f.label).split()[-1])}\b", t)
                and isinstance(getattr(slots, f.slot), list)
            ]
        named = labelled if len(labelled) == 1 else [f for f in amends.fields if f.names.search(t)]
        if len(named) == 1:
            f = named[0]
            value = getattr(slots, f.slot)
            if value is None:
                told = f"You haven't given your {f.label or f.slot.replace('_', ' ')}."
            else:
                told = f"Your {amends.shown(f.slot, value)}."
            return Recall(words=text, record=amends.kind, told=told)
        if amends.names is not None and amends.names.search(t):
            return Recall(words=text, record=amends.kind, told=amends.describe(slots))
    return None


def answered(
    bot: _Flows, text: str, latest: Callable[[str], StoredRecord | None], asked: str, suggested: str | None = None
) -> list[Command]:
    """The message after "What should your goal be?" (`asked`: "flow.slot"), read as that fact's new
    value by its question's parser (`Amendable.answer`, else `parse`): an `Amend`; a value refused is
    said and asked again (a yes after "Did you mean Amsterdam?" is the value `suggested`); a message
    that gives no value is none of this (an empty list)."""
    if suggested is not None and read_yes_no(text) is True:
        text = suggested
    flow_name, _, slot = asked.partition(".")
    for flow, amends, slots in _saved(bot, latest):
        if flow.name != flow_name or not any(f.slot == slot for f in amends.fields):
            continue
        f = amends.field(slot)
        value = _value(f if f.answer is None else replace(f, parse=f.answer), slots, in_english_cues(text))
        if isinstance(value, Invalid):
            refused = value.reason
            return [
                AmendAsk(
                    words=text,
                    record=amends.kind,
                    flow=flow.name,
                    question=refused,
                    slot=slot,
                    suggested=value.suggestion,
                )
            ]
        if value is UNREAD:
            return []
        if value == _dumped(slots, slot):
            same = amends.shown(slot, getattr(slots, slot))
            return [
                AmendAsk(
                    words=text, record=amends.kind, flow=flow.name, question=f"That's what I have already ({same})."
                )
            ]
        settled = apply_changes(amends, slots, {slot: value})  # type: ignore[dict-item]
        if isinstance(settled, str):
            return [AmendAsk(words=text, record=amends.kind, flow=flow.name, question=settled)]
        return [Amend(words=text, record=amends.kind, flow=flow.name, slot=slot, value=value)]
    return []


def unrevised(records: Sequence[StoredRecord]) -> list[StoredRecord]:
    """A user's entries of a kind whose `Amends` `revises`, as they stand: an entry a later version
    replaced is left out (the version is kept in its place)."""
    replaced = {r.data.get("revises") for r in records}
    return [r for r in records if r.id not in replaced]


def amendments(bot: _Flows, text: str, latest: Callable[[str], StoredRecord | None]) -> list[Command]:
    """What a main-conversation message changes in the user's saved records, as commands."""
    # most main-conversation messages say no change at all: told from the words alone (as
    # `read_changes` tells it first), the saved record is then neither read from the store nor
    # validated into slots (a profile's `load` is most of a first message's turn on language-buddy)
    t = fold(in_english_cues(text))
    for flow, amends, slots in _saved(bot, latest, lambda amends: _says_change(amends, t)):
        found = read_changes(amends, text, slots, cued=True)
        if found.question is not None:
            return [
                AmendAsk(words=text, record=amends.kind, flow=flow.name, question=found.question, slot=found.asking)
            ]
        if found.values:
            settled = apply_changes(amends, slots, found.values)
            if isinstance(settled, str):
                return [AmendAsk(words=text, record=amends.kind, flow=flow.name, question=settled)]
            return [
                Amend(words=found.words[k], record=amends.kind, flow=flow.name, slot=k, value=v)
                for k, v in found.values.items()
            ]
    return []
