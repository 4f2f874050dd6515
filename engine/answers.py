"""The slots a message fills or corrects beside the asked one, and corrections of earlier answers:
functions of the message (`Heard`), the flow and its slots; what they say lands in `Effects`.

The flow's any-time readers (`fills`, `extract`) run on every message that is not a plain answer;
what they change is a correction only where the flow allows it. A model's reading of the other
slots (form filling, asked by `parse_answer` in engine/answering.py) keeps a free text only when
the message holds its words. A correction is validated by the slots model, said back, and the
steps behind that read the corrected slot run again.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from engine.commands import CorrectSlot, WhichSlot
from engine.context import StepContext
from engine.effects import Effects
from engine.extract import Empty, Invalid, Parser, copied, fold
from engine.fact_clauses import clauses, plan_slots, without_habits
from engine.flow import Flow
from engine.models import FlowFrame, Heard, Slots
from engine.slot_cues import extracted
from engine.states import Ask


def fillable(flow: Flow[Any], slots: Slots, name: str) -> bool:
    """May a message set `name` now: is it open, or a filled slot the flow lets be corrected?"""
    return getattr(slots, name, None) is None or name in flow.correctable_names


def fill_from_model(
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
        # week): a plan slot keeps only what the message gives it without those clauses (engine/fact_clauses.py `habit`)
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


def _in_message(value: str, text: str) -> bool:
    """Does `text` hold some of `value`'s words (or, for a closed choice, is it there at all)?"""
    words = {w for w in re.findall(r"\w+", fold(value)) if len(w) > 2}
    said = set(re.findall(r"\w+", fold(text)))
    return bool(words & said) if words else fold(value) in fold(text)


def refused_because(e: ValidationError, expects: str) -> str:
    """Why a slot refused an answer, said to the user: the author's validator sentence, else pydantic's
    message with what the question expects."""
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


# -- corrections of earlier answers -------------------------------------------------------


def correct(
    fx: Effects, flow: Flow[Any], frame: FlowFrame, slots: Slots, fixes: Sequence[CorrectSlot | WhichSlot], heard: Heard
) -> tuple[Slots, str]:
    """Make the corrections (each validated by the slots model), say what changed, and run
    again the steps behind that read a corrected slot; a value several slots could take is
    asked about instead."""
    said: list[str] = []
    changed: list[str] = []
    for fix in fixes:
        if isinstance(fix, WhichSlot):
            names = [flow.label(n) for n in fix.slots]
            which = " or ".join(names)
            said.append(f"Which answer do you want to change: {which}? Name it, e.g. “change the {names[0]} to …”.")
            continue
        try:
            slots = flow.slots.model_validate({**slots.model_dump(), fix.slot: fix.value})
        except ValidationError as e:
            said.append(f"I couldn't change that ({_reason(e)}).")
            continue
        changed.append(fix.slot)
        fx.trace.notice("correct", flow.name, frame.state, fix.key or fix.slot)
        said.append(_changed(flow, fix, getattr(slots, fix.slot)))
    if changed:
        frame.slots = slots.model_dump(mode="json")
        slots = rerun(fx, flow, frame, slots, changed, heard)
    return slots, " ".join(said)


def rerun(fx: Effects, flow: Flow[Any], frame: FlowFrame, slots: Slots, corrected: list[str], heard: Heard) -> Slots:
    """Run again the steps behind the current state that read a corrected slot, so what they
    derived follows the correction; the state does not move."""
    for step in flow.steps_behind(frame.state, corrected):
        ctx = StepContext(fx, heard, flow.name, slots.model_copy(deep=True), None, heard.text, fx.resources)
        step.run(ctx)
        derived = flow.slots.model_validate(ctx.slots.model_dump())
        fx.trace.notice("rerun", flow.name, frame.state, f"{step.name} ({', '.join(corrected)} corrected)")
        # what the step works out again is the flow's, as when it first ran (engine/flowrun.py `advance`)
        if not step.carries_answers:
            for name, value in derived.__dict__.items():
                if slots.__dict__.get(name, value) != value:
                    fx.trace.notice("derived", flow.name, step.name, name)
        slots = derived
    frame.slots = slots.model_dump(mode="json")
    return slots


def beside_correction(flow: Flow[Any], state: Ask, before: Slots, slots: Slots, heard: Heard) -> Slots | None:
    """The answer in the clauses of the message the flow's any-time reader corrects nothing in,
    when they read one: a correction said in passing leaves the answer beside it standing."""
    if flow.extract is None:
        return None
    plain = [
        c.text
        for c in clauses(heard.text)
        if not any(getattr(before, k, None) != v for k, v in flow.extract(c.text, before, state.slot).items())
    ]
    if not plain or len(plain) == len(clauses(heard.text)):
        return None
    raw = state.parser(slots)(", ".join(plain))
    # a yes or a no beside a correction is about it: "no, call me Sam" at "Shall I save it?"
    return None if isinstance(raw, bool) else try_set(flow, slots, state, raw)


def _changed(flow: Flow[Any], fix: CorrectSlot, value: object) -> str:
    """ "OK, rating changed to 3.": the flow's way of showing the slot, as a change."""
    if fix.key is not None and isinstance(value, dict):
        # an answer keyed by its question ("Which device shows the late reminders?") is told as the answer
        # to that question, not as a label
        said = value.get(fix.key)
        return (
            f"OK, your answer to “{fix.key}” is now {said}."
            if fix.key.endswith("?")
            else f"OK, {fix.key} changed to {said}."
        )
    told = ", ".join(map(str, value)) if isinstance(value, list) else value
    shown = flow.show(fix.slot, value) if flow.show else f"{fix.slot.replace('_', ' ')}: {told}"
    label, sep, told = shown.partition(": ")
    return f"OK, {label} changed to {told}." if sep else f"OK, changed: {shown}."


def _reason(e: ValidationError) -> str:
    first = e.errors()[0]
    return validator_sentence(first) or str(first.get("msg", "not a valid value")).lower()


def corrects(old: object, new: object) -> bool:
    """Does setting a slot from `old` to `new` change an answer? Filling an empty slot does not,
    nor does adding answers to a dict slot that holds several; replacing one does."""
    if old is None or (isinstance(old, list | dict | str) and not old):
        return False  # an empty list is no answer yet ("chemistry" at the time question fills the subjects)
    if isinstance(old, dict) and isinstance(new, dict):
        return any(k not in new or new[k] != v for k, v in old.items())
    return True
