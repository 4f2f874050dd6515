"""Running a flow's machine within a turn: start, fire, advance, finish, collapse.

A flow starts reading its first message for the slots it may fill ahead; a trigger fires
through the flow's one Machine; from there the run advances: Steps run and fire `next`, an
asking state already answered fires `answer`, the first one open asks its question, a Final
collapses the run into one summary line (and may hand off to another flow). What a message
does at the open question is engine/answering.py's.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, JsonValue, ValidationError

from engine.answers import extract, try_set
from engine.context import StepContext
from engine.declined import declined_now
from engine.effects import Effects, message
from engine.errors import DefinitionError
from engine.fill import fill, read_ahead
from engine.flow import Flow
from engine.models import (
    FlowFrame,
    FlowRun,
    Heard,
    JsonObject,
    Outcome,
    RecordDraft,
    Slots,
)
from engine.states import ANSWER, NEXT, SKIP, Aside, Ask, Final, Step, render

MAX_HOPS = 64
MAX_HANDOFFS = 8


# a dataclass: its generated __init__ is no code of this module, so a turn that makes its runner does
# not walk here and back for it (bench/walk.py)
@dataclass(eq=False)
class FlowRunner:
    """Runs the session's flows within one turn; what it does lands in the turn's `Effects`."""

    fx: Effects

    def start(self, name: str, heard: Heard, *, seed: dict[str, object] | None = None, handoff: bool = False) -> None:
        """Enter flow `name` (or resume its paused run). A handed-off flow does not read the
        message for its own slots: that message answered the previous flow's question; it reads a
        request kept for it instead, when there is one."""
        flow = self.fx.bot.flow(name)
        self.fx.voice.budget += flow.llm_calls_per_turn
        paused = next((f for f in reversed(self.fx.session.stack) if f.flow == name), None)
        if paused is not None:
            # a paused or suspended run of the same flow carries on where it stopped
            self.fx.session.stack.remove(paused)
            paused.paused = False
            self.fx.session.stack.append(paused)
            self.resume_or_return(heard, greeting="Welcome back! Let's continue. ")
            return
        frame = FlowFrame(flow=name, version=flow.version, state=flow.initial.name)
        frame.scratchpad.append(message("user", heard.text))
        try:
            slots = flow.slots.model_validate(seed or {})
        except ValidationError as e:
            raise DefinitionError(f"cannot start with {seed!r}: {e}", flow=name) from e
        # a flow handed over to reads the words of a request kept for it ("can you also schedule a
        # session for friday 4-6pm?"), not the message that answered the previous flow: its
        # reading ahead and its first steps see them as the message
        carry = self.fx.session.carry
        kept = next((k.text for k in carry.requests if k.flow == name), None) if handoff else None
        if kept is not None:
            carry.requests = [k for k in carry.requests if k.flow != name]  # carried out: not offered again
        if kept is not None:
            heard = heard.reading(kept)
        if not handoff or kept is not None:
            for s in flow.states:
                if isinstance(s, Ask) and s.prefill:
                    slots = try_set(flow, slots, s, s.parser(slots)(heard.text)) or slots
            slots = extract(flow, slots, None, heard.text)[0]
            # the message that starts a flow may answer its questions ahead, its first one too
            # ("hi! intermediate, no injuries"): read as at a question, with none asked yet
            sets = read_ahead(flow, None, slots, heard.text).sets
            slots = fill(flow, slots, sets)[0]
            frame.declined = declined_now(frame.declined, sets)
        self.fx.session.active = frame
        self.fx.trace.enter(name, frame.state)
        self.advance(flow, frame, slots, heard)

    def run_aside(
        self,
        flow: Flow[Any],
        frame: FlowFrame,
        slots: Slots,
        state: Ask,
        aside: Aside,
        heard: Heard,
        answer: object = None,
        *,
        stay: bool = False,
    ) -> bool:
        """Run `aside` on the message; `answer`: the question's answer said before it in the same
        message ("7. oh and do i have anything planned?"), taken once the aside is handled. `stay`: the
        question must stay open (a question back at an offer): an aside that would leave it, having said
        nothing, is not taken (False), and the slots it changed are dropped with it."""
        fx = self.fx
        # an aside not taken leaves the slots as they were: it works on a copy where it may not be taken
        own = slots.model_copy(deep=True) if stay else slots
        ctx: StepContext[Slots] = StepContext(fx, heard, flow.name, own, state.name, heard.text, fx.resources)
        said = len(fx.reply)
        trigger = aside.handle(ctx)
        if trigger is None or (stay and trigger != "" and len(fx.reply) == said):
            return False
        self.fx.trace.notice("aside", flow.name, frame.state, aside.name)
        if trigger == "" and aside.command is not None:
            # the question asked again after the aside's answer: the command it carried out (`Aside.command`)
            self.fx.trace.notice(aside.command, flow.name, frame.state, f"aside: {aside.name}")
        if trigger == SKIP:  # the flow's own way past the question ("give me another")
            self.fx.trace.notice("skipped", flow.name, frame.state, state.slot)
        if trigger == "" and answer is not None and (updated := try_set(flow, ctx.slots, state, answer)) is not None:
            frame.attempts = 0
            self.move(flow, frame, updated, ANSWER, heard)
            return True
        if trigger == "":
            frame.slots = ctx.slots.model_dump(mode="json")
            self.fx.emit(self.question(flow, state, ctx.slots, heard))
            return True
        self.move(flow, frame, ctx.slots, trigger, heard)
        return True

    def fallback(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, state: Ask, heard: Heard) -> None:
        """No usable answer after `max_attempts`: skip the question, pause or cancel the flow, or escalate."""
        self.fx.trace.notice("fallback", flow.name, state.name, state.fallback)
        frame.attempts = 0
        if state.fallback == "skip":
            self.fx.emit("Let's skip that one for now.")
            self.move(flow, frame, slots, ANSWER, heard)
            return
        if state.fallback == "cancel" and flow.on_cancel == "pause":
            # a flow that must finish (onboarding) keeps its answers and resumes on the next visit
            frame.paused = True
            self.fx.session.stack.append(frame)
            self.fx.session.active = None
            self.fx.trace.notice("pause", flow.name, frame.state)
            self.fx.emit(
                f"I couldn't understand the answers, so I've paused the {flow.name}; what you told me is kept."
            )
            return
        outcome: Outcome = "cancelled" if state.fallback == "cancel" else "escalated"
        summary = (
            f"{flow.name.capitalize()} {outcome}: no usable answer for {state.slot} "
            f"after {state.max_attempts} attempts."
        )
        if outcome == "escalated":
            self.fx.records.append(
                RecordDraft(kind="escalation", data={"flow": flow.name, "state": state.name, "slots": frame.slots})
            )
        self.close(flow, frame, slots, outcome, summary)
        self.fx.emit(
            "I'm connecting you to a person who can help."
            if outcome == "escalated"
            else f"I couldn't understand the answers, so I've stopped the {flow.name}."
        )
        self.resume_or_return(heard)

    def question(self, flow: Flow[Any], state: Ask, slots: Slots, heard: Heard, *, again: bool = True) -> str:
        """What an asking state says, phrased after `heard` (or as its template, offline); `again`
        unless the state has just been entered."""
        text = _asked(state, slots, again=again)
        if not state.phrased:
            return text
        return self.fx.phrase(text, f"ask:{flow.name}.{state.name}", flow.name, heard)

    def move(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, trigger: str, heard: Heard) -> None:
        """Fire `trigger` and run on until the flow waits for the user or ends."""
        self.fire(flow, frame, slots, trigger)
        self.advance(flow, frame, slots, heard)

    def fire(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, trigger: str) -> None:
        # the flow's table of edges, made once per flow: an edge without a condition is taken here (most of a
        # turn's fires), one with conditions, or a state or trigger the flow lacks, is the flow's to decide
        edges = flow.edges.get((frame.state, trigger))
        dest = edges[0][0] if edges is not None and edges[0][1] is None else flow.fire(frame.state, trigger, slots)
        # recorded in the trace's lists here (engine/trace.py): the fire, and its dest as a state entered
        trace = self.fx.trace
        fired: JsonObject = {"flow": flow.name, "source": frame.state, "trigger": trigger, "dest": dest}
        if trigger == ANSWER and isinstance(asked := flow.named[frame.state], Ask):
            # what the question was answered with, before the steps after it use it (`Fired`); a None is left
            # out as the model's own doc leaves a default out
            fired["slot"] = asked.slot
            value = _json_value(slots, asked.slot)
            if value is not None:
                fired["value"] = value
        trace.fired.append(fired)
        trace.entered.append({"flow": flow.name, "state": dest})
        if dest != frame.state and frame.attempts:
            frame.attempts = 0  # failed attempts belong to the question they were made at
        # a frame's fields are not validated on assignment: set as pydantic's __setattr__ sets it, without its two calls
        frame.__dict__["state"] = dest
        frame.__pydantic_fields_set__.add("state")

    def advance(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, heard: Heard) -> None:
        """Run from the state just entered until the flow waits for the user or ends."""
        fx = self.fx
        for _ in range(MAX_HOPS):
            state = flow.named[frame.state]  # a lookup, not a call into the flow per state entered
            if isinstance(state, Ask):
                # a question declined ahead is answered though its slot stays empty (`FlowFrame.declined`)
                answered = getattr(slots, state.slot) is not None or state.slot in frame.declined
                if answered and not state.ask_if_filled:
                    self.fire(flow, frame, slots, ANSWER)
                    continue
                # the frame's stored slots catch up once, where the flow comes to rest (set as `fire` sets the state)
                frame.__dict__["slots"] = json_slots(slots)
                frame.__pydantic_fields_set__.add("slots")
                # `question`, phrased and emitted in one call into the effects
                text = _asked(state, slots, again=False)
                if state.phrased:
                    fx.say(text, f"ask:{flow.name}.{state.name}", flow.name, heard)
                else:
                    fx.emit(text)
                return
            if isinstance(state, Step):
                ctx: StepContext[Slots] = StepContext(fx, heard, flow.name, slots, None, heard.text, fx.resources)
                # copied as they were (a list a step appends to in place is another list after it): what the step
                # changed is a value the flow derives, noted so (`derived`) unless the step carries out an answer
                held = None if state.carries_answers else _held(slots)
                state.run(ctx)
                slots = ctx.slots
                if held is not None:
                    # made here, as `fire` makes its entries: the kind is one of NoticeKind's
                    fx.trace.notices.extend(
                        {"kind": "derived", "flow": flow.name, "state": state.name, "detail": name}
                        for name, value in slots.__dict__.items()
                        if held.get(name, value) != value
                    )
                self.fire(flow, frame, slots, NEXT)
                continue
            self.finish(flow, frame, slots, state, heard)
            return
        raise DefinitionError(f"more than {MAX_HOPS} states entered in one turn", flow=flow.name, state=frame.state)

    def finish(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, final: Final, heard: Heard) -> None:
        nxt = final.handoff(slots) if final.handoff else None
        if nxt and not self.fx.bot.has_flow(nxt):
            raise DefinitionError(
                f"hands off to {nxt!r}, which bot {self.fx.bot.name!r} does not have", flow=flow.name, state=final.name
            )
        closing = render(final.say, slots) if final.say else ""
        # phrased while the scratchpad still exists, so the model sees the conversation it closes
        said = self.fx.phrase(closing, f"close:{flow.name}", flow.name, heard) if closing else ""
        run = self.close(flow, frame, slots, final.outcome, render(final.summary, slots))
        if final.records:
            self.fx.records.extend(final.records(slots))
        # a turn that would otherwise end in silence tells the user what was done
        self.fx.emit(said or ("" if nxt or self.fx.reply else run.summary))
        if nxt:
            self.fx.handoffs += 1
            if self.fx.handoffs > MAX_HANDOFFS:
                raise DefinitionError(
                    f"more than {MAX_HANDOFFS} handoffs in one turn", flow=flow.name, state=final.name
                )
            self.fx.trace.notice("handoff", flow.name, final.name, nxt)
            self.start(nxt, heard, handoff=True)
            return
        if self.fx.bot.on_return:
            self.fx.emit(self.fx.bot.on_return(run, self.fx.entry_context(heard)) or "")
        self.resume_or_return(heard)

    def close(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, outcome: Outcome, summary: str) -> FlowRun:
        """Collapse: drop the scratchpad, keep one summary line in main history, save the run."""
        run = _finished(flow.name, outcome, summary, json_slots(slots), frame.turns, frame.started_at, self.fx.now)
        self.fx.runs.append(run)
        self.fx.main_messages.append(message("system", summary))
        self.fx.session.active = None
        if outcome == "escalated":
            self.fx.hand_to_agent(summary)
        return run

    def resume_or_return(self, heard: Heard, greeting: str = "") -> None:
        """Resume the most recently suspended flow, if any; paused flows wait to be asked for."""
        waiting = [i for i, f in enumerate(self.fx.session.stack) if not f.paused]
        if not waiting or self.fx.session.active is not None:
            return
        frame = self.fx.session.stack.pop(waiting[-1])
        flow = self.fx.bot.flow_for(frame)
        self.fx.session.active = frame
        self.fx.trace.notice("resume", flow.name, frame.state)
        self.fx.voice.budget += flow.llm_calls_per_turn
        state = flow.state(frame.state)
        if isinstance(state, Ask):
            slots = flow.new_slots(frame.slots)
            lead = greeting or f"Back to the {flow.name}: "
            self.fx.emit(lead + self.question(flow, state, slots, heard))


def _asked(state: Ask, slots: Slots, *, again: bool) -> str:
    """The words of an asking state's question, before any phrasing; `again` unless just entered."""
    template = state.say_again if again else state.say
    # a question written as code (the flow's own function) or as plain text is said as it is; one
    # with {slots} in it is filled by `render`
    return template(slots) if callable(template) else template if "{" not in template else render(template, slots)


# -- the run's values as stored, made from ones validated already -----------------------------------------------------

_new, _set = object.__new__, object.__setattr__
# the types whose JSON is the value itself (a float only when finite: pydantic writes inf and nan otherwise)
_AS_IS = frozenset((str, int, bool, type(None)))


@functools.cache
def _dumps_as_is(model: type[BaseModel]) -> bool:
    """Whether `model` dumps a value of JSON's own types as that value: no serializer of its own anywhere in its
    schema (a field's or the model's, an excluded field), no computed field, no alias (asked once per model)."""
    fields = model.__pydantic_fields__.values()
    return (
        "serializ" not in repr(model.__pydantic_core_schema__)
        and not model.__pydantic_computed_fields__
        and not any(f.alias or f.serialization_alias for f in fields)
    )


def json_slots(slots: Slots) -> JsonObject:
    """`slots.model_dump(mode="json")`, read straight off the model where every value is JSON's own (text, numbers,
    booleans, None, lists of them: most flows' slots) and the model writes them as they are: a run stores its slots
    where it comes to rest and when it closes, and pydantic's serializer cost several times this loop."""
    if not _dumps_as_is(type(slots)):
        return slots.model_dump(mode="json")
    out: JsonObject = {}
    for k, v in slots.__dict__.items():
        t = type(v)
        if t in _AS_IS or (t is float and math.isfinite(v)):
            out[k] = v
        elif t is list and all(type(x) in _AS_IS or (type(x) is float and math.isfinite(x)) for x in v):
            out[k] = list(v)
        else:
            return slots.model_dump(mode="json")
    return out


def _held(slots: Slots) -> dict[str, object]:
    """The slots' values as they are now, a list or dict copied (one level: what a step appends or sets in place),
    to tell afterwards which ones a step changed."""
    return {k: v.copy() if type(v) in (list, dict) else v for k, v in slots.__dict__.items()}


def _json_value(slots: Slots, name: str) -> JsonValue:
    """The JSON of one slot's value, as `json_slots` reads it."""
    v = slots.__dict__.get(name)
    t = type(v)
    if (t in _AS_IS or (t is float and math.isfinite(v))) and _dumps_as_is(type(slots)):  # type: ignore[arg-type]
        return v
    return slots.model_dump(mode="json", include={name}).get(name)


def _finished(
    flow: str, outcome: Outcome, summary: str, slots: JsonObject, turns: int, started: datetime, ended: datetime
) -> FlowRun:
    """`FlowRun(...)` of values typed and validated already (the slots as `json_slots` dumps them, the frame's
    count and times), without validating them again: its `JsonObject` calls Python code per value. A summary a
    flow's function made is validated when it is not text, as the model would."""
    if type(summary) is not str:
        return FlowRun(
            flow=flow, outcome=outcome, summary=summary, slots=slots, turns=turns, started_at=started, ended_at=ended
        )
    run = _new(FlowRun)
    values = {
        "flow": flow, "outcome": outcome, "summary": summary, "slots": slots,
        "turns": turns, "started_at": started, "ended_at": ended,
    }  # fmt: skip
    _set(run, "__dict__", values)
    _set(run, "__pydantic_fields_set__", set(values))
    _set(run, "__pydantic_extra__", None)
    _set(run, "__pydantic_private__", None)
    return run
