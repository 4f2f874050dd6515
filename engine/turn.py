"""One turn: load, read the user's message into commands, execute them, write.

`Turn.run` is the path of a message, readable in one function: each stage is a call with typed
values between them (`Loaded`, `Reading`, `Heard`, `TurnWrite`). `Turn` works on a loaded
`SessionState` and produces a `TurnWrite`; it never touches the store's write path itself, so
a conflict can simply re-run it on fresh state. The other entry points (reset, an agent's reply
or release, an idle sweep, a refused slot) are here too, each one short play of the same parts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

from engine.amend import amendments, apply_changes, changed_lines
from engine.answering import OpenQuestion
from engine.bot import Bot
from engine.commands import (
    Amend,
    AmendAsk,
    AnswerFlow,
    AskBack,
    Cancel,
    Chitchat,
    Command,
    CorrectSlot,
    Handoff,
    Held,
    Help,
    NewRequest,
    Reading,
    Recall,
    Restated,
    Resume,
    SetSlot,
    Skip,
    StartFlow,
    WhichSlot,
    YesNo,
)
from engine.controls import Controls
from engine.effects import Effects, message
from engine.errors import DefinitionError, SlotRejected
from engine.extract import READ_THIS_TURN, fold
from engine.flow import Flow
from engine.flowrun import FlowRunner
from engine.handoff import end_hold
from engine.kept import RequestRunner
from engine.llm import LLM, TextSink
from engine.load import Loaded, load
from engine.mainconv import MainConversation
from engine.models import (
    FlowFrame,
    FlowRun,
    Heard,
    Message,
    Outcome,
    RecordDraft,
    Resources,
    SessionState,
    TurnWrite,
)
from engine.reading import CANCEL_WORDS, read
from engine.smalltalk import acknowledgement
from engine.states import Ask
from engine.store import Store
from engine.trace import TraceDraft
from engine.voice import Voice


def play(
    entry: Callable[[Turn], TurnWrite],
    bot: Bot,
    store: Store,
    llm: LLM,
    resources: Resources,
    session: SessionState,
    text: str,
    now: datetime,
    *,
    retried: bool = False,
    message_id: str | None = None,
    sink: TextSink | None = None,
) -> TurnWrite:
    """`text` played on the loaded `session` through `entry` (`Turn.run` for a user's message, or
    another entry point): the turn's effects made, then the turn; what to commit is returned. The
    session manager (engine/runtime.py) calls this once per play, and commits what it returns."""
    a = session.active
    trace = TraceDraft(before=(a.flow, a.state) if a else (None, None), message_id=message_id)
    fx = Effects(
        bot, store, llm, resources, session, text, now, session.version, trace, Voice(llm, trace, sink=sink),
        retried=retried, offline=llm.name == "rules",
    )  # fmt: skip
    return entry(Turn(fx))


class Turn:
    """One user message against one loaded session; `run()` returns what to commit.

    The turn holds its parts, none inherits another: `fx` (engine/effects.py) is what the turn
    has done so far and its ports, `flows` (engine/flowrun.py) runs the flows' machines,
    `answers` (engine/answering.py) is what a message does at the open question, `kept`
    (engine/kept.py) keeps new requests made during a flow, `main` (engine/mainconv.py) is the
    main conversation, `controls` (engine/controls.py) the engine's own commands (cancel, help,
    skip, a person). The message is a value (`Heard`) handed down, never rewritten.
    """

    def __init__(self, fx: Effects) -> None:
        self.fx = fx
        # the run the load stage left open, and its flow (`Loaded.flow`)
        self._opened: tuple[FlowFrame | None, Flow[Any] | None] = (None, None)
        # the parts nearly every message needs, made at once (dataclasses: a `cached_property` costs
        # more, taking a lock on every first read)
        self.flows = FlowRunner(fx)
        self.answers = OpenQuestion(self.flows, fx)

    # the other parts made when the turn first needs them: most messages answer the open question, and
    # never reach the main conversation or the engine's controls
    @cached_property
    def kept(self) -> RequestRunner:
        return RequestRunner(self.flows)

    @cached_property
    def main(self) -> MainConversation:
        return MainConversation(self.flows)

    @cached_property
    def controls(self) -> Controls:
        return Controls(self.flows)

    def run(self) -> TurnWrite:
        """One message, stage by stage: load (the stored frames brought to the code and the
        clock, and what the last turn left: engine/load.py), read (the message into commands:
        engine/reading.py), execute (each command against the machines; phrasing happens as they
        are carried out, through the voice, within the call budget), write (everything to commit,
        as one `TurnWrite`: engine/effects.py)."""
        fx = self.fx
        loaded = self._load(take=True)
        carried = loaded.carried
        fx.reply[:0] = carried.pending  # told before anything this message causes
        # the message as typed, made only when the entry rule is asked (no flow open): most turns never ask it
        entry = lambda: fx.bot.entry(fx.entry_context(Heard(fx.said))) if fx.bot.entry else None  # noqa: E731
        # the read and execute stages ask the same parsers about the same words: each reads them once
        # (set here, not through a context manager of engine/extract.py: two calls into it and back a turn)
        kept = READ_THIS_TURN.set({})
        try:
            reading = read(fx.bot, fx.session, carried, fx.said, entry, fx.latest, fx.checked, loaded.flow, fx.chosen)
            self._execute(reading)
        finally:
            READ_THIS_TURN.reset(kept)
        return fx.write()

    def _flow_of(self, frame: FlowFrame) -> Flow[Any]:
        """The flow `frame` continues on: the one the load stage found for the run it left open, else
        looked up (`Bot.flow_for`)."""
        opened, flow = self._opened
        return flow if flow is not None and frame is opened else self.fx.bot.flow_for(frame)

    def _execute(self, reading: Reading) -> None:
        """The execute stage: the reading's commands carried out in order. A yes or no at the
        open question, corrections and slots filled ahead go with the command that answers the
        flow; a new request is kept for after the flow (or carried out, with none open)."""
        fx = self.fx
        heard = Heard(reading.text)
        if reading.text != fx.said:  # a yes to an offer: the flow (or the main conversation) reads the words offered
            answered = next((c for c in reading.commands if isinstance(c, (AnswerFlow, Resume))), None)
            flow = answered.flow if answered is not None else None
            fx.trace.notice("offer", flow, getattr(answered, "state", None), reading.text)
        if fx.session.active is None and isinstance(
            reading.commands[0], (YesNo, StartFlow, Resume, Chitchat, Amend, AmendAsk, NewRequest, Recall)
        ):
            fx.main_messages.append(message("user", heard.text))  # main history has it
        replies: list[YesNo] = []  # a yes or no at the open question, for the flow that reads it
        # corrections of earlier answers and slots filled ahead, made before it reads
        fixes: list[CorrectSlot | WhichSlot | SetSlot] = []
        # a new request beside an answer, or beside a request that starts a flow, asks nothing again
        beside = fx.session.active is None or any(isinstance(c, AnswerFlow) for c in reading.commands)
        for command in reading.commands:
            if isinstance(command, YesNo) and command.to not in ("confirm", "proposed"):
                replies.append(command)
            elif isinstance(command, CorrectSlot | WhichSlot | SetSlot):
                fixes.append(command)
            elif isinstance(command, NewRequest):
                if not beside:
                    self.fx.route("command:new_request")
                self.kept.keep_request(command, heard, answered=beside, carry_out=self.main_request)
            else:
                heard = self.execute(command, heard, replies, fixes)
        if fx.session.carry.requests:  # back in the main conversation: what was asked for meanwhile
            self.kept.offer_kept(self.main_request)

    def main_request(self, text: str) -> None:
        """`text` carried out in the main conversation as if said now: a change to a saved record,
        else the main conversation's answer (which may start a flow)."""
        heard = Heard(text)
        changes = amendments(self.fx.bot, text, self.fx.latest)
        for change in changes:
            self.execute(change, heard)
        if not changes:
            self.main.converse(heard)

    def execute(
        self,
        command: Command,
        heard: Heard,
        replies: Sequence[YesNo] = (),
        fixes: Sequence[CorrectSlot | WhichSlot | SetSlot] = (),
    ) -> Heard:
        """Carry out one command of the message's reading (`heard`); `replies` go to the flow that
        reads the message (a yes or no to a suggested value or an offered message), and so do
        `fixes` (earlier answers it corrects: made first, then the rest of the message is read).
        Returns the message as the commands after this one read it (a flow may have read only
        the rest of it)."""
        match command:
            case Held(leave=leave):
                self.controls.with_agent(leave, heard)
            case Handoff():
                self.fx.route("command:person")
                self.controls.person(heard)
            case Skip():
                self.fx.route("command:skip")
                self.controls.skip(heard)
            case Cancel() if self._cancels_something_kept(heard):
                # "drop it", "cancel that one" with no activity open or paused: it is something the
                # bot keeps (a saved plan), which the bot's own main conversation reads
                fx = self.fx
                fx.main_messages.append(Message(role="user", content=heard.text))
                self.main.converse(heard)
            case Cancel(later=later):
                self.fx.route("command:cancel")
                self.controls.cancel(heard, later=later)
            case Help():
                self.fx.route("command:help")
                self.controls.help(heard)
            case StartFlow(flow=name, via="interrupt"):
                self.fx.route(f"interrupt:{name}")
                a = self.fx.session.active
                if a is not None:  # the open run waits on the stack, and comes back when this one ends
                    self.fx.session.stack.append(a)
                    self.fx.session.active = None
                self.flows.start(name, heard)
            case StartFlow(flow=name, via=_):
                self.fx.route(f"entry:{name}")
                self.flows.start(name, heard)
            case AnswerFlow(words=rest, plain=plain):
                a = self.fx.session.active
                if a is None:
                    raise DefinitionError("a reading answers a flow, but none is open")
                flow = self._flow_of(a)
                self.fx.route("flow", flow)
                proposed = self.answers.flow_turn(flow, a, heard, replies=replies, fixes=fixes, rest=rest, plain=plain)
                if proposed is not None:
                    # what the model found the message says instead, evidenced, with the calls left
                    self.fx.voice.ceiling = self.fx.voice.budget
                    command, heard = proposed
                    return self.execute(command, heard)
            case Restated() if (a := self.fx.session.active) is not None:
                flow = self._flow_of(a)
                self.fx.route("command:restated", flow)
                self.answers.restated(flow, a, command, heard)
            case AskBack() | Chitchat() if self.fx.session.active is not None:
                # a question back about the open question, or small talk at it (engine/askback.py)
                a = self.fx.session.active
                flow = self._flow_of(a)
                self.fx.route(f"command:{command.kind}", flow)
                self.answers.asked_back(flow, a, command, heard)
            case AskBack():
                raise DefinitionError("a reading asks back about a question, but no flow is open")
            case Resume(flow=name):
                self._resume_paused(name, replies, heard)
            case YesNo(to="confirm", subject=name, yes=yes, request=request):
                self._confirm(name, yes, heard, request)
            case YesNo(to="proposed"):
                self.fx.route("main")
                self.fx.emit("OK, no problem.")
            case Chitchat(social=social, paused=True):
                # small talk while the entry flow's run is paused: said back and the run stays paused, not
                # the main conversation's account of what the bot does
                self.fx.route("command:chitchat")
                self.fx.emit(acknowledgement(social))
                paused = next((f for f in reversed(self.fx.session.stack) if f.paused), None)
                if paused is not None:
                    name = paused.flow.replace("_", " ")
                    self.fx.emit(f"Your {name} is paused; say 'continue' when you want to pick it up.")
            case Chitchat(social=social):
                if social:
                    self.fx.trace.notice("chitchat", detail=",".join(social))
                self.main.converse(heard, social)
            case Amend():
                self._amend(command)
            case Recall(record=record, told=told):
                self.fx.route("main")
                self.fx.trace.notice("route", detail=f"recall {record}")
                self.fx.emit(told)
            case AmendAsk(question=question, slot=slot):
                self.fx.route(f"amend:{command.flow}")
                self.fx.trace.notice("route", detail=f"amend {command.record}: asked")
                self.fx.emit(question)
                if slot is not None:  # the next message may be the value asked for (a yes: the one suggested)
                    self.fx.session.carry.amending = f"{command.flow}.{slot}"
                    self.fx.session.carry.suggested = command.suggested
            case _:
                raise DefinitionError(f"no executor for a {command.kind} command at the top of a turn")
        return heard

    def _cancels_something_kept(self, heard: Heard) -> bool:
        """A cancel said of something ("drop it", "cancel the plan"), not alone, with no run open or
        paused, to a bot with a main conversation of its own."""
        s = self.fx.session
        if s.active is not None or any(f.paused for f in s.stack) or self.fx.bot.converse is None:
            return False
        return fold(heard.text).strip(" .!") not in CANCEL_WORDS

    def _amend(self, command: Amend) -> None:
        """One fact of a saved record changed: the record's new version replaces any this turn
        made already (several facts in one message make one version), and the user is told."""
        self.fx.route(f"amend:{command.flow}")
        amends = self.fx.bot.flow(command.flow).amends
        record = self.fx.latest(command.record)
        if amends is None or record is None:
            raise DefinitionError(
                f"an amendment of {command.record!r}, which nothing saved declares", flow=command.flow
            )
        earlier = self.fx._amended.get(command.record)  # a change this message made already
        before = earlier or amends.load(record.data)
        after = apply_changes(amends, before, {command.slot: command.value})
        if isinstance(after, str):
            self.fx.emit(after)
            return
        lines = changed_lines(amends, before, after)
        if not lines:
            # "drop sunday, 3 days is enough": the days change dropped Sunday already, and says so
            if earlier is None:
                self.fx.emit(f"Your {command.record.replace('_', ' ')} already says that; nothing to change.")
            return
        self.fx._amended[command.record] = after
        self.fx.records = [r for r in self.fx.records if r.kind != command.record]
        drafts = amends.records(after)
        if amends.revises:  # an entry of its own: the new version names the one it replaces
            drafts = [RecordDraft(kind=d.kind, data={**d.data, "revises": record.id}) for d in drafts]
        self.fx.records.extend(drafts)
        self.fx.trace.notice("route", detail=f"amend {command.record}.{command.slot}: {command.words!r}")
        what = f"Updated your {command.record.replace('_', ' ')}: {'; '.join(lines)}."
        self.fx.main_messages.append(Message(role="system", content=what))
        self.fx.emit(what)

    def _resume_paused(self, name: str, replies: Sequence[YesNo], heard: Heard) -> None:
        """The entry rule's paused run, back with this message as the answer to its question."""
        paused = next(f for f in reversed(self.fx.session.stack) if f.flow == name and f.paused)
        flow = self.fx.bot.flow(name)
        self.fx.session.stack.remove(paused)
        paused.paused = False
        self.fx.session.active = paused
        self.fx.trace.notice("resume", flow.name, paused.state)
        self.fx.route(f"entry:{name}")
        # resuming, only the rules read the message: no model is asked, so nothing is proposed
        self.answers.flow_turn(flow, paused, heard, resuming=True, replies=replies)

    def reset(self) -> TurnWrite:
        """Abandon the active and suspended flows (the chat's /reset); main history stays."""
        self._load()  # frames of flows the code no longer has are dropped (and logged) first
        self.fx.route("command:reset")
        frames = ([self.fx.session.active] if self.fx.session.active else []) + self.fx.session.stack[::-1]
        self.fx.session.stack = []
        self.fx.session.carry.requests = []  # what was asked for during them goes with them
        for f in frames:
            self.fx.session.active = f
            flow = self.fx.bot.flow_for(f)
            summary = f"{f.flow.capitalize()} was reset by the user."
            self.flows.close(flow, f, flow.new_slots(f.slots), "reset", summary)
        self.fx.session.active = None
        self.fx.emit("Started over: no activity is running now.")
        return self.fx.write()

    def _confirm(self, flow: str, answer: bool | None, heard: Heard, request: str | None = None) -> None:
        """The answer to "Do you want to ...?": yes starts the flow, reading the kept `request`
        that asked for it when there is one; no is acknowledged; neither is only noted (the
        reading goes on to its next command)."""
        self.fx.trace.notice(
            "route", detail=f"{flow}: {'yes' if answer else 'no' if answer is False else 'not answered'}"
        )
        if answer is True:
            self.fx.route(f"confirmed:{flow}")
            self.flows.start(flow, heard.reading(request) if request else heard)
        elif answer is False:
            self.fx.route("main")
            self.fx.emit("OK, no problem.")

    def _load(self, *, take: bool = False) -> Loaded:
        """The load stage (engine/load.py), recorded: what it migrated, dropped or closed is in
        the trace, the main history and the reply. `take`: what the last turn left is taken too."""
        loaded = load(self.fx.bot, self.fx.session, self.fx.now, take=take)
        self.fx.checked = loaded.checked
        self._opened = (self.fx.session.active, loaded.flow)
        for f, was in loaded.migrated:
            self.fx.trace.notice("migrated", f.flow, f.state, f"v{was} -> v{f.version}")
        for c in loaded.closed:
            self.fx.trace.notice(c.notice, c.frame.flow, c.frame.state, c.detail)
            self._close_frame(c.frame, c.outcome, c.summary)
            self.fx.reply.append(c.told)
        return loaded

    def _close_frame(self, f: FlowFrame, outcome: Outcome, summary: str) -> None:
        """A run that ends outside its flow (reset, expired): its summary line, its run row."""
        self.fx.runs.append(
            FlowRun(
                flow=f.flow, outcome=outcome, summary=summary, slots=f.slots,
                turns=f.turns, started_at=f.started_at, ended_at=self.fx.now,
            )
        )  # fmt: skip
        self.fx.main_messages.append(Message(role="system", content=summary))

    def agent_reply(self) -> TurnWrite:
        """A person's answer (this turn's text): into the history, and shown to the user with their next message."""
        self.fx.route("agent:reply")
        self.fx.main_messages.append(Message(role="assistant", content=self.fx.said))
        self.fx.trace.notice("agent", detail="reply")
        self._tell_later(f"Agent: {self.fx.said}")
        return self.fx.write()

    def release(self) -> TurnWrite:
        """The person hands the conversation back to the bot."""
        self.fx.route("agent:release")
        end_hold(self.fx.session)
        self.fx.trace.notice("agent", detail="handed back")
        self.fx.main_messages.append(
            Message(role="system", content="An agent handed the conversation back to the bot.")
        )
        self._tell_later("(The agent has handed you back to me. How can I help?)")
        return self.fx.write()

    def _tell_later(self, text: str) -> None:
        self.fx.session.carry.pending.append(text)

    def expire(self) -> TurnWrite:
        """Close the session's idle runs now (`innerloop sessions expire`); the user hears of it next time."""
        self.fx.route("command:expire")
        self._load()
        for told in [r for r in self.fx.reply if r.startswith("(")]:
            self._tell_later(told)
        self.fx.reply = []
        return self.fx.write()

    def refuse(self, rejected: SlotRejected) -> TurnWrite:
        """The message again, after playing it made flow code set a slot its model refuses:
        nothing that play did is kept; the user hears why and the open question again."""
        self._load()
        self.fx.route("refused")
        a = self.fx.session.active
        self.fx.trace.notice("slot_rejected", a.flow if a else None, a.state if a else None, str(rejected))
        question = ""
        if a is not None:
            a.scratchpad.append(Message(role="user", content=self.fx.said))
            flow = self.fx.bot.flow_for(a)
            state = flow.state(a.state)
            if isinstance(state, Ask):
                question = self.flows.question(flow, state, flow.new_slots(a.slots), Heard(self.fx.said))
        else:
            self.fx.main_messages.append(Message(role="user", content=self.fx.said))
        self.fx.emit(f"That can't be right ({rejected.reason}). {question}".strip())
        return self.fx.write()
