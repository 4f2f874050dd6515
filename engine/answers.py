"""Reading a user's message as the answer to an asking state, and as the other slots it fills:
functions of the message (`Heard`), the flow and its slots; what they say lands in `Effects`.

The state's parser first; when it cannot decide, one model call reads the asked slot and
every other slot the message may fill or correct (form filling). A model's free text is kept
only when the message holds its words. The flow's any-time readers (`fills`, `extract`) run
on every message; what they change is a correction only where the flow allows it.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from engine.commands import Command
from engine.effects import Effects
from engine.extract import Empty, Invalid, Parser, copied, fold
from engine.fill import declines_asked, extracted, plan_slots, without_habits
from engine.flow import Flow
from engine.models import FlowFrame, Heard, Slots
from engine.proposals import kept, proposed, with_proposal
from engine.said import says_not_knowing, unwrapped
from engine.states import Ask


class Answer(NamedTuple):
    """What reading the message as the asked slot's answer found."""

    slots: Slots | None  # the slots with the answer set; None when there is no usable answer
    reason: str | None  # why the answer was refused, when it was
    others: bool = False  # a model's parse filled other slots (noted), not the asked one
    # what the message says instead of an answer, proposed by the model and evidenced (engine/proposals.py)
    command: Command | None = None


def fillable(flow: Flow[Any], slots: Slots, name: str) -> bool:
    """May a message set `name` now: is it open, or a filled slot the flow lets be corrected?"""
    return getattr(slots, name, None) is None or name in flow.correctable_names


def _fill_from_model(
    fx: Effects, flow: Flow[Any], slots: Slots, found: dict[str, object], text: str
) -> tuple[Slots, dict[str, Any], bool]:
    """Slots a model read beside the asked one, each kept only if its slot takes it; what
    changed is acknowledged as the rules' findings are (the flag: something changed)."""
    changed: list[str] = []
    for name, value in found.items():
        if isinstance(value, str) and not _in_message(value, text):
            continue  # a free text the message does not hold is the model's, not the user's
        try:
            slots = flow.slots.model_validate({**slots.model_dump(), name: value})
        except ValidationError:
            continue
        changed.append(name)
    if changed:
        shown = ", ".join(f"{k.replace('_', ' ')}: {getattr(slots, k)}" for k in changed)
        show = flow.show
        if show is not None:
            shown = ", ".join(show(k, getattr(slots, k)) for k in changed)
        fx.emit(f"Noted ({shown}).")
    return slots, slots.model_dump(mode="json"), bool(changed)


def extract(
    flow: Flow[Any], slots: Slots, asking: str | None, text: str, asked: Parser | None = None
) -> tuple[Slots, list[str]]:
    """Read `text` for every slot the flow lets any message fill (open ones, and filled ones it
    lets be corrected), then apply its any-time extractor; returns the slots and the names changed.
    `asked`: the open question's parser. Where it reads its answer in the message, a reader that only
    copies the whole message back takes nothing: "hmm like a 4 i guess" is the rating, not also the comment."""
    if asked is not None and asked.reads_plainly(text):
        return slots, []  # "4" at the rating question is the rating and says nothing else (engine/extract.py)
    found: dict[str, object] = {}
    answers: bool | None = None
    for name, reader in flow.fills.items():
        if name == asking or not fillable(flow, slots, name):
            continue
        value = (reader if isinstance(reader, Parser) else reader(slots))(text)
        if value is None or isinstance(value, Invalid):
            continue
        if asked is not None and not asked.greedy and copied(value, text):
            if answers is None:
                answers = _reads_answer(asked, text)
            if answers:
                continue
        found[name] = value
    found.update(extracted(flow, text, slots, asking))
    if (plan := plan_slots(flow) & found.keys()) and (kept := without_habits(text)) != text:
        # a plan is never read from a habit told in passing ("intermediate, i run twice a week" fills no days a
        # week): a plan slot keeps only what the message gives it without those clauses (engine/fill.py `habit`)
        again = extract(flow, slots, asking, kept, asked)[0] if kept.strip() else slots
        found = {k: v for k, v in found.items() if k not in plan or getattr(again, k, None) == v}
    changed: list[str] = []
    for name, value in found.items():
        if getattr(slots, name, None) == value:
            continue
        try:
            slots = flow.slots.model_validate({**slots.model_dump(), name: value})
        except ValidationError:
            continue  # a value the slot refuses is not a correction; the state's parser decides
        changed.append(name)
    return slots, changed


def _reads_answer(parser: Parser, text: str) -> bool:
    read = parser(text)
    return read is not None and not isinstance(read, Invalid | Empty)


def parse_answer(
    fx: Effects,
    flow: Flow[Any],
    state: Ask,
    slots: Slots,
    frame: FlowFrame,
    heard: Heard,
    *,
    resuming: bool = False,
    parser: Parser | None = None,
) -> Answer:
    """`heard` as the answer to `state`; `resuming` a paused run, a message the rules cannot
    read is no answer, and no model is asked to make it one. `parser`: the state's parser for
    `slots`, when the caller has made it already."""
    text = heard.text
    if parser is None:
        parser = state.parser(slots)
    raw = parser(text)
    # the value as the question writes it ("beginner") is only itself: no words around it to take off
    words = isinstance(raw, str | list) and not parser.greedy and not parser.reads_plainly(text)
    if words and isinstance(raw, list) and says_not_knowing(text):
        # "keine Ahnung, ehrlich" at the allergies question: not knowing, whose words a list reader would
        # keep as two items; no value, and the question's way with not knowing follows (engine/answering.py).
        # A reader that takes not knowing as its answer (a placement test's "no idea") returns it whole.
        raw = None
    inner = _unwrapped(text) if raw is None or isinstance(raw, Invalid) or words else None
    if inner is not None:
        # the answer between an acknowledgement and a "please": "ok. Sofía", "english please"; a
        # value in words keeps none of them ("ok yeah asthma" is asthma)
        again = parser(inner)
        if again is not None and not isinstance(again, Invalid) and (not words or type(again) is type(raw)):
            raw = again
    if (raw is None or isinstance(raw, Invalid)) and declines_asked(flow, state.slot, text):
        # "im Moment kein Zielgewicht" at the target question: its none, said with the words naming it
        raw = parser("none")
    if isinstance(raw, Empty):
        # "none" to an optional question answers it: the slot's own empty value, never the word
        empty = empty_value(flow.slots, state.slot)
        try:
            return Answer(flow.slots.model_validate({**frame.slots, state.slot: empty}), None)
        except ValidationError as e:
            return Answer(None, _friendly(e, state.parser(slots).expects))
    if isinstance(raw, Invalid):
        if raw.suggestion is not None:
            # read by the next turn only, at this question
            fx.session.carry.suggested = raw.suggestion
        # a reply that only adds what is missing ("kg", "pm") is read with this message (engine/reading.py)
        fx.session.carry.refused_at, fx.session.carry.refused = f"{flow.name}.{frame.state}", text
        return Answer(None, raw.reason)
    if raw is None and resuming:
        return Answer(None, None)  # a greeting after a pause
    filled = False
    if raw is None:
        # one call reads the asked slot and every other slot the message may fill or correct
        others = tuple(n for n in flow.fills if n != state.slot and fillable(flow, slots, n))
        form = with_proposal(flow.form_model(state, others))
        answer = fx.llm_parse(form, f"parse:{flow.name}.{state.name}", flow.name, heard)
        raw = getattr(answer, "value", None) if answer else None
        if isinstance(raw, str) and not raw.strip():
            raw = None  # an empty text says nothing was given
        # a field left at its default (None, or an empty dict slot's {}) says nothing
        extra = {n: v for n in others if (v := getattr(answer, n, None)) is not None and v != getattr(slots, n)}
        if extra:
            slots, frame.slots, filled = _fill_from_model(fx, flow, slots, extra, text)
        if raw is None:
            return Answer(None, None, filled, None if filled else _proposed(fx, flow, state, slots, answer, text))
    try:
        return Answer(flow.slots.model_validate({**frame.slots, state.slot: raw}), None, filled)
    except ValidationError as e:
        return Answer(None, _friendly(e, state.parser(slots).expects), filled)


def _proposed(
    fx: Effects, flow: Flow[Any], state: Ask, slots: Slots, answer: BaseModel | None, text: str
) -> Command | None:
    """The command the model proposed instead of an answer, when the message says it."""
    proposal = proposed(answer)
    if proposal is None:
        return None
    found = kept(proposal, text, state.parser(slots), flow.name)
    if isinstance(found, str):
        fx.trace.notice("parse_rejected", flow.name, state.name, f"proposed {found}")
        return None
    fx.trace.notice("proposed", flow.name, state.name, f"{found.kind}: {found.words!r}")
    return found


def try_set(flow: Flow[Any], slots: Slots, state: Ask, raw: object) -> Slots | None:
    """`slots` with `raw` as the asked slot's answer; None when there is none or the slot refuses it."""
    if raw is None or isinstance(raw, Invalid):
        return None
    try:
        updated: Slots = flow.slots.model_validate({**slots.model_dump(), state.slot: raw})
    except ValidationError:
        return None
    return updated


def empty_value(model: type[Slots], name: str) -> object:
    """What a slot holds when its question was answered "none": [] for a list, {} for a
    mapping, None for anything else (a number slot stays a number or nothing)."""
    annotation = model.model_fields[name].annotation
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = {typing.get_origin(a) or a for a in (typing.get_args(annotation) if union else (annotation,))}
    if list in kinds:
        return []
    if dict in kinds:
        return {}
    return None


def _unwrapped(text: str) -> str | None:
    """`text` without every acknowledgement before it ("ok yeah asthma" is "asthma"), None when none wraps it."""
    inner = None
    while (again := unwrapped(inner or text)) is not None and again != inner:
        inner = again
    return inner


def _in_message(value: str, text: str) -> bool:
    """Does `text` hold some of `value`'s words (or, for a closed choice, is it there at all)?"""
    words = {w for w in re.findall(r"\w+", fold(value)) if len(w) > 2}
    said = set(re.findall(r"\w+", fold(text)))
    return bool(words & said) if words else fold(value) in fold(text)


def _friendly(e: ValidationError, expects: str) -> str:
    first = e.errors()[0]
    own = validator_sentence(first)
    if own is not None:
        return own  # the author's reason; the reprompt that follows says what is needed
    msg = str(first.get("msg", "invalid value"))
    return f"That doesn't work ({msg.lower()}); I need {expects}."


def validator_sentence(error: ErrorDetails) -> str | None:
    """The sentence an author's validator raised, as written (capital and full stop added), or None for pydantic's own.

    pydantic words a `ValueError` from a validator as "Value error, <the message>"; the
    user should read the author's message, not the library's prefix.
    """
    if error["type"] not in ("value_error", "assertion_error"):
        return None
    raised = (error.get("ctx") or {}).get("error")
    text = str(raised).strip() if raised is not None else ""
    if not text:
        return None
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else f"{text}."
