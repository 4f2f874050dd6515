"""One turn: route the user's message, run the flow's machine, collect what to persist.

`Turn` works on a loaded `SessionState` and produces a `TurnWrite`; it never touches the
store's write path itself, so a conflict can simply re-run it on fresh state.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.bot import Bot
from engine.context import EntryContext, MainContext, StepContext
from engine.errors import DefinitionError
from engine.extract import Invalid
from engine.flow import ANSWER, NEXT, Aside, Ask, Final, Flow, Step, render
from engine.llm import LLM
from engine.models import (
    FlowFrame,
    FlowRun,
    JsonObject,
    Message,
    NoticeKind,
    Outcome,
    RecordDraft,
    Resources,
    SessionState,
    Slots,
    StoredRecord,
    TurnWrite,
    utcnow,
)
from engine.store import Store
from engine.trace import TraceDraft
from engine.versions import reconcile
from engine.voice import Voice
from engine.window import LOAD_LIMIT, build_prompt

CANCEL_WORDS = {"cancel", "stop", "abort", "cancel this", "stop this", "/cancel"}
HELP_WORDS = {"help", "/help", "?", "help me", "what do you need?"}
MAX_HOPS = 64
MAX_HANDOFFS = 8

M = TypeVar("M", bound=BaseModel)


class Turn:
    """One user message against one loaded session; `run()` returns what to commit."""

    def __init__(
        self,
        bot: Bot,
        store: Store,
        llm: LLM,
        session: SessionState,
        text: str,
        resources: Resources,
        *,
        retried: bool = False,
    ) -> None:
        self.bot = bot
        self.store = store
        self.llm = llm
        self.resources = resources
        self.session = session
        self.text = text
        self.expected_version = session.version
        self.reply: list[str] = []
        self.main_messages: list[Message] = []
        self.runs: list[FlowRun] = []
        self.records: list[RecordDraft] = []
        self._checked: dict[int, Slots] = {}
        self.handoffs = 0
        self.retried = retried
        self.trace = TraceDraft()
        self.trace.start(session.active)
        self.voice = Voice(llm, self.trace)

    # -- entry point -----------------------------------------------------------------------

    def run(self) -> TurnWrite:
        self._reconcile()
        a = self.session.active
        word = " ".join(self.text.lower().split()).rstrip(".!")
        if word in CANCEL_WORDS:
            self._route("command:cancel")
            self._cancel_command()
        elif word in HELP_WORDS:
            self._route("command:help")
            self._help()
        elif a is not None:
            flow = self.bot.flow(a.flow)
            here = flow.state(a.state)
            open_to = flow.interrupts if isinstance(here, Ask) and here.interruptible else ()
            interrupt = self.bot.intent_for(self.text, allowed=open_to) if open_to else None
            if interrupt:
                self._route(f"interrupt:{interrupt}")
                self.session.stack.append(a)
                self.session.active = None
                self.start(interrupt)
            else:
                self._route("flow")
                self.flow_turn(flow, a)
        else:
            self.main_messages.append(Message(role="user", content=self.text))
            entry = self.bot.entry(self.entry_context()) if self.bot.entry else None
            if entry:
                self._route(f"entry:{entry}")
                self.start(entry)
            else:
                self._main()
        return self._write()

    def reset(self) -> TurnWrite:
        """Abandon the active and suspended flows (the chat's /reset); main history stays."""
        self._reconcile()  # frames of flows the code no longer has are dropped (and logged) first
        self._route("command:reset")
        frames = ([self.session.active] if self.session.active else []) + self.session.stack[::-1]
        self.session.stack = []
        for f in frames:
            self.session.active = f
            flow = self.bot.flow(f.flow)
            self.close(flow, f, flow.new_slots(f.slots), "reset", f"{f.flow.capitalize()} was reset by the user.")
        self.session.active = None
        self.emit("Started over: no activity is running now.")
        return self._write()

    def _route(self, route: str) -> None:
        self.trace.route = route
        a = self.session.active
        self.voice.budget = self.bot.flow(a.flow).llm_calls_per_turn if a else self.bot.main_llm_calls

    def entry_context(self) -> EntryContext:
        return EntryContext(self)

    # -- what contexts may ask of the turn (engine.context.TurnOps) -------------------------

    @property
    def user(self) -> str:
        return self.session.user

    @property
    def store_url(self) -> str:
        return self.store.url

    @property
    def llm_backend(self) -> str:
        return self.llm.name

    @property
    def memory(self) -> JsonObject:
        return self.session.context

    def note(self, kind: NoticeKind, flow: str | None, detail: str) -> None:
        self.trace.notice(kind, flow, None, detail)

    def save_record(self, kind: str, data: JsonObject) -> None:
        self.records.append(RecordDraft(kind=kind, data=data))

    def latest(self, kind: str) -> StoredRecord | None:
        return self.store.latest(kind, bot=self.bot.name, user=self.session.user)

    def records_of(self, kind: str) -> list[StoredRecord]:
        return self.store.records(kind, bot=self.bot.name, user=self.session.user)

    def start_flow(self, name: str, seed: Slots | None) -> None:
        """Start `name` from code (a bot's main handler), with `seed` of the flow's own slots model."""
        flow = self.bot.flow(name)
        if seed is not None and not isinstance(seed, flow.slots):
            raise DefinitionError(
                f"started with {type(seed).__name__}, but its slots model is {flow.slots.__name__}", flow=name
            )
        self.trace.route = f"intent:{name}"
        self.start(name, seed=seed.model_dump(exclude_unset=True) if seed is not None else None)

    # -- output ----------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        if not text:
            return
        self.reply.append(text)
        a = self.session.active
        msg = Message(role="assistant", content=text)
        if a is not None:
            a.scratchpad.append(msg)
        else:
            self.main_messages.append(msg)

    # -- the main conversation -------------------------------------------------------------

    def _main(self) -> None:
        self._route("main")
        if self.bot.converse is not None:
            self.bot.converse(MainContext(self, None, Slots()))
        else:
            self.default_main()

    def detect_intent(self) -> str | None:
        flow = self.bot.intent_for(self.text)
        if flow is None and not self.voice.offline and self.bot.intents:
            answer = self.llm_parse(self.bot.intent_model, "classify:intent", None)
            choice = getattr(answer, "value", None) if answer else None
            flow = choice if isinstance(choice, str) and self.bot.has_flow(choice) else None
        return flow

    def default_main(self) -> None:
        flow = self.detect_intent()
        if flow:
            self.trace.route = f"intent:{flow}"
            self.start(flow)
            return
        self.emit(self.phrase(self.bot.capabilities, "reply:main", None))

    # -- flows -----------------------------------------------------------------------------

    def start(self, name: str, *, seed: dict[str, object] | None = None, handoff: bool = False) -> None:
        """Enter flow `name` (or resume its paused run). A handed-off flow does not read the
        message for its own slots: that message answered the previous flow's question."""
        flow = self.bot.flow(name)
        self.voice.budget += flow.llm_calls_per_turn
        paused = next((f for f in reversed(self.session.stack) if f.flow == name), None)
        if paused is not None:
            # a paused or suspended run of the same flow carries on where it stopped
            self.session.stack.remove(paused)
            paused.paused = False
            self.session.stack.append(paused)
            self.resume_or_return(greeting="Welcome back! Let's continue. ")
            return
        frame = FlowFrame(flow=name, version=flow.version, state=flow.initial.name)
        frame.scratchpad.append(Message(role="user", content=self.text))
        try:
            slots = flow.slots.model_validate(seed or {})
        except ValidationError as e:
            raise DefinitionError(f"cannot start with {seed!r}: {e}", flow=name) from e
        if not handoff:
            for s in flow.states:
                if isinstance(s, Ask) and s.prefill:
                    slots = self._try_set(flow, slots, s, s.parser(slots)(self.text)) or slots
            slots = self._extract(flow, slots, None)[0]
        self.session.active = frame
        self.trace.enter(name, frame.state)
        self.advance(flow, frame, slots)

    def flow_turn(self, flow: Flow[Any], frame: FlowFrame) -> None:
        frame.turns += 1
        frame.scratchpad.append(Message(role="user", content=self.text))
        # validated once already by _reconcile this turn
        slots = self._checked.pop(id(frame), None) or flow.new_slots(frame.slots)
        if frame.turns > flow.max_turns:
            summary = f"{flow.name.capitalize()} ended after {flow.max_turns} turns without finishing."
            self.close(flow, frame, slots, "expired", summary)
            self.emit(f"We've been at this for a while, so I've stopped the {flow.name} here.")
            self.resume_or_return()
            return
        state = flow.state(frame.state)
        if not isinstance(state, Ask):
            raise DefinitionError("session rests in a state that does not ask", flow=flow.name, state=frame.state)
        for aside in flow.asides:
            if aside.match(self.text) and self._aside(flow, frame, slots, state, aside):
                return
        slots, changed = self._extract(flow, slots, state.slot)
        if changed:
            frame.slots = slots.model_dump(mode="json")
        if state.slot in changed:
            frame.attempts = 0
            self.move(flow, frame, slots, ANSWER)
            return
        if changed:
            # the message corrected or added other answers, so it is not this question's answer
            show = flow.show or (lambda k, v: f"{k.replace('_', ' ')}: {v}")
            noted = ", ".join(show(k, getattr(slots, k)) for k in changed)
            again = self.question(flow, state, slots)
            self.emit(f"Noted ({noted}). {again}")
            return
        updated, reason = self.parse_answer(flow, state, slots, frame)
        if updated is not None:
            if frame.attempts:
                frame.attempts = 0
            self.move(flow, frame, updated, ANSWER)
            return
        frame.attempts += 1
        if frame.attempts >= state.max_attempts:
            self.fallback(flow, frame, slots, state)
            return
        tier = frame.attempts
        self.trace.notice("reprompt", flow.name, state.name, str(tier))
        expects = state.parser(slots).expects
        if tier <= len(state.reprompts):
            again = render(state.reprompts[tier - 1], slots)
        elif tier == 1:
            again = f"I need {expects}. {render(state.say, slots)}"
        else:
            # past the declared phrasings each rung still gets more explicit, never a repeat
            last = render(state.reprompts[-1], slots) if state.reprompts else render(state.say, slots)
            again = f"Please reply with just {expects}. {last}"
        text = f"{reason} {again}" if reason else again
        self.emit(self.phrase(text, f"reprompt:{flow.name}.{state.name}", flow.name))

    def _aside(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, state: Ask, aside: Aside) -> bool:
        ctx: StepContext[Slots] = StepContext(self, flow.name, slots)
        trigger = aside.handle(ctx)
        if trigger is None:
            return False
        self.trace.notice("aside", flow.name, frame.state, aside.name)
        if trigger == "":
            frame.slots = ctx.slots.model_dump(mode="json")
            self.emit(self.question(flow, state, ctx.slots))
            return True
        self.move(flow, frame, ctx.slots, trigger)
        return True

    def _extract(self, flow: Flow[Any], slots: Slots, asking: str | None) -> tuple[Slots, list[str]]:
        """Apply the flow's any-time extractor; returns the slots and the names it changed."""
        if flow.extract is None:
            return slots, []
        changed: list[str] = []
        for name, value in flow.extract(self.text, slots, asking).items():
            if getattr(slots, name, None) == value:
                continue
            try:
                slots = flow.slots.model_validate({**slots.model_dump(), name: value})
            except ValidationError:
                continue  # a value the slot refuses is not a correction; the state's parser decides
            changed.append(name)
        return slots, changed

    def fallback(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, state: Ask) -> None:
        self.trace.notice("fallback", flow.name, state.name, state.fallback)
        frame.attempts = 0
        if state.fallback == "skip":
            self.emit("Let's skip that one for now.")
            self.move(flow, frame, slots, ANSWER)
            return
        if state.fallback == "cancel" and flow.on_cancel == "pause":
            # a flow that must finish (onboarding) keeps its answers and resumes on the next visit
            frame.paused = True
            self.session.stack.append(frame)
            self.session.active = None
            self.trace.notice("pause", flow.name, frame.state)
            self.emit(f"I couldn't understand the answers, so I've paused the {flow.name}; what you told me is kept.")
            return
        outcome: Outcome = "cancelled" if state.fallback == "cancel" else "escalated"
        summary = (
            f"{flow.name.capitalize()} {outcome}: no usable answer for {state.slot} "
            f"after {state.max_attempts} attempts."
        )
        if outcome == "escalated":
            self.records.append(
                RecordDraft(kind="escalation", data={"flow": flow.name, "state": state.name, "slots": frame.slots})
            )
        self.close(flow, frame, slots, outcome, summary)
        self.emit(
            "I'm connecting you to a person who can help."
            if outcome == "escalated"
            else f"I couldn't understand the answers, so I've stopped the {flow.name}."
        )
        self.resume_or_return()

    def question(self, flow: Flow[Any], state: Ask, slots: Slots) -> str:
        """What an asking state says, phrased (or as its template, offline)."""
        return self.phrase(render(state.say, slots), f"ask:{flow.name}.{state.name}", flow.name)

    def move(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, trigger: str) -> None:
        """Fire `trigger` and run on until the flow waits for the user or ends."""
        self.fire(flow, frame, slots, trigger)
        self.advance(flow, frame, slots)

    def fire(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, trigger: str) -> None:
        dest = flow.fire(frame.state, trigger, slots)
        self.trace.fire(flow.name, frame.state, trigger, dest)
        if dest != frame.state and frame.attempts:
            frame.attempts = 0  # failed attempts belong to the question they were made at
        frame.state = dest

    def advance(self, flow: Flow[Any], frame: FlowFrame, slots: Slots) -> None:
        """Run from the state just entered until the flow waits for the user or ends."""
        for _ in range(MAX_HOPS):
            state = flow.state(frame.state)
            if isinstance(state, Ask):
                if getattr(slots, state.slot) is not None and not state.ask_if_filled:
                    self.fire(flow, frame, slots, ANSWER)
                    continue
                # the frame's stored slots catch up once, where the flow comes to rest
                frame.slots = slots.model_dump(mode="json")
                self.emit(self.question(flow, state, slots))
                return
            if isinstance(state, Step):
                ctx: StepContext[Slots] = StepContext(self, flow.name, slots)
                state.run(ctx)
                slots = ctx.slots
                self.fire(flow, frame, slots, NEXT)
                continue
            self.finish(flow, frame, slots, state)
            return
        raise DefinitionError(f"more than {MAX_HOPS} states entered in one turn", flow=flow.name, state=frame.state)

    def finish(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, final: Final) -> None:
        nxt = final.handoff(slots) if final.handoff else None
        if nxt and not self.bot.has_flow(nxt):
            raise DefinitionError(
                f"hands off to {nxt!r}, which bot {self.bot.name!r} does not have", flow=flow.name, state=final.name
            )
        closing = render(final.say, slots) if final.say else ""
        # phrased while the scratchpad still exists, so the model sees the conversation it closes
        said = self.phrase(closing, f"close:{flow.name}", flow.name) if closing else ""
        run = self.close(flow, frame, slots, final.outcome, render(final.summary, slots))
        if final.records:
            self.records.extend(final.records(slots))
        # a turn that would otherwise end in silence tells the user what was done
        self.emit(said or ("" if nxt or self.reply else run.summary))
        if nxt:
            self.handoffs += 1
            if self.handoffs > MAX_HANDOFFS:
                raise DefinitionError(
                    f"more than {MAX_HANDOFFS} handoffs in one turn", flow=flow.name, state=final.name
                )
            self.trace.notice("handoff", flow.name, final.name, nxt)
            self.start(nxt, handoff=True)
            return
        if self.bot.on_return:
            self.emit(self.bot.on_return(run, self.entry_context()) or "")
        self.resume_or_return()

    def close(self, flow: Flow[Any], frame: FlowFrame, slots: Slots, outcome: Outcome, summary: str) -> FlowRun:
        """Collapse: drop the scratchpad, keep one summary line in main history, save the run."""
        run = FlowRun(
            flow=flow.name,
            outcome=outcome,
            summary=summary,
            slots=slots.model_dump(mode="json"),
            turns=frame.turns,
            started_at=frame.started_at,
            ended_at=utcnow(),
        )
        self.runs.append(run)
        self.main_messages.append(Message(role="system", content=summary))
        self.session.active = None
        return run

    def resume_or_return(self, greeting: str = "") -> None:
        """Resume the most recently suspended flow, if any; paused flows wait to be asked for."""
        waiting = [i for i, f in enumerate(self.session.stack) if not f.paused]
        if not waiting or self.session.active is not None:
            return
        frame = self.session.stack.pop(waiting[-1])
        flow = self.bot.flow(frame.flow)
        self.session.active = frame
        self.trace.notice("resume", flow.name, frame.state)
        self.voice.budget += flow.llm_calls_per_turn
        state = flow.state(frame.state)
        if isinstance(state, Ask):
            slots = flow.new_slots(frame.slots)
            lead = greeting or f"Back to the {flow.name}: "
            self.emit(lead + self.question(flow, state, slots))

    def _cancel_command(self) -> None:
        a = self.session.active
        if a is None:
            self.main_messages.append(Message(role="user", content=self.text))
            self.emit("There is nothing to cancel; we're in the main conversation.")
            return
        flow = self.bot.flow(a.flow)
        a.scratchpad.append(Message(role="user", content=self.text))
        if flow.on_cancel == "pause":
            a.paused = True
            self.session.stack.append(a)
            self.session.active = None
            self.trace.notice("pause", flow.name, a.state)
            self.emit(flow.pause_message)
            return
        slots = flow.new_slots(a.slots)
        self.close(flow, a, slots, "cancelled", render(flow.cancel_summary, slots, flow=flow.name.capitalize()))
        self.emit(f"OK, I've stopped the {flow.name}.")
        self.resume_or_return()

    def _help(self) -> None:
        a = self.session.active
        if a is None:
            self.main_messages.append(Message(role="user", content=self.text))
            self.emit(self.bot.capabilities)
            return
        flow = self.bot.flow(a.flow)
        state = flow.state(a.state)
        a.turns += 1  # help turns count towards max_turns: no flow may be kept open forever
        a.scratchpad.append(Message(role="user", content=self.text))
        if isinstance(state, Ask):
            slots = flow.new_slots(a.slots)
            hint = state.help or f"I'm asking for {state.parser(slots).expects}."
            verb = "pause" if flow.on_cancel == "pause" else "stop"
            self.emit(f"{hint} {render(state.say, slots)} (Say 'cancel' to {verb} the {flow.name}.)")

    # -- parsing, and the way to an LLM (engine/voice.py) -----------------------------------

    def parse_answer(
        self, flow: Flow[Any], state: Ask, slots: Slots, frame: FlowFrame
    ) -> tuple[Slots | None, str | None]:
        raw = state.parser(slots)(self.text)
        if isinstance(raw, Invalid):
            return None, raw.reason
        if raw is None:
            answer = self.llm_parse(flow.answer_models[state.name], f"parse:{flow.name}.{state.name}", flow.name)
            raw = getattr(answer, "value", None) if answer else None
            if raw is None:
                return None, None
        try:
            return flow.slots.model_validate({**frame.slots, state.slot: raw}), None
        except ValidationError as e:
            return None, _friendly(e, state.parser(slots).expects)

    def _try_set(self, flow: Flow[Any], slots: Slots, state: Ask, raw: object) -> Slots | None:
        if raw is None or isinstance(raw, Invalid):
            return None
        try:
            updated: Slots = flow.slots.model_validate({**slots.model_dump(), state.slot: raw})
        except ValidationError:
            return None
        return updated

    def _prompt(self, name: str | None) -> list[Message]:
        current = Message(role="user", content=self.text)
        profile = self.latest("profile")
        about = f" The user's profile: {profile.data}." if profile else ""
        if name is None:
            # stored history, then what this turn has added to it so far (the current message aside)
            history = [*self.store.history(self.session.id, LOAD_LIMIT), *_without(self.main_messages, current)]
            return build_prompt(f"You are {self.bot.persona}.{about}", history, current)
        a = self.session.active
        return build_prompt(
            f"You are {self.bot.flow(name).persona}, part of {self.bot.name}.{about}",
            _without(a.scratchpad if a else [], current),
            current,
        )

    def phrase(self, content: str, purpose: str, flow: str | None) -> str:
        """`content` as the model phrases it in `flow`'s persona (the main one when None)."""
        return self.voice.phrase(content, purpose, lambda: self._prompt(flow))

    def llm_parse(self, schema: type[M], purpose: str, flow: str | None) -> M | None:
        """The message read into `schema` by the model; None offline or when it fails."""
        return self.voice.parse(schema, purpose, lambda: self._prompt(flow))

    # -- versions and the write ------------------------------------------------------------

    def _reconcile(self) -> None:
        """Drop stored frames whose flow, state or slots no longer exist in the code, saying so."""
        found = reconcile(self.bot, self.session)
        self._checked = found.slots
        for f, problem in found.dropped:
            self.trace.notice("reset", f.flow, f.state, problem)
            self.runs.append(
                FlowRun(
                    flow=f.flow, outcome="reset", summary=f"{f.flow} was reset: {problem}.", slots=f.slots,
                    turns=f.turns, started_at=f.started_at, ended_at=utcnow(),
                )
            )  # fmt: skip
            self.main_messages.append(Message(role="system", content=f"{f.flow} was reset: {problem}."))
            self.reply.append(f"(Your unfinished {f.flow} was reset because the bot was updated: {problem}.)")

    def _write(self) -> TurnWrite:
        s = self.session
        s.turns += 1
        s.version = self.expected_version + 1
        s.updated_at = utcnow()
        reply = "\n\n".join(self.reply)
        return TurnWrite(
            session=s,
            expected_version=self.expected_version,
            trace_doc=self.trace.doc(s, self.text, reply, [r.kind for r in self.records], self.retried),
            messages=self.main_messages,
            runs=self.runs,
            records=self.records,
            reply=reply,
        )


def _without(messages: list[Message], current: Message) -> list[Message]:
    """`messages` minus the last copy of the current user message, which a prompt puts last."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i] == current:
            return [*messages[:i], *messages[i + 1 :]]
    return list(messages)


def _friendly(e: ValidationError, expects: str) -> str:
    first = e.errors()[0]
    msg = str(first.get("msg", "invalid value"))
    return f"That doesn't work ({msg.lower()}); I need {expects}."
