"""One turn: read the user's message into commands, execute them: a flow or the main conversation.

`Turn` works on a loaded `SessionState` and produces a `TurnWrite`; it never touches the
store's write path itself, so a conflict can simply re-run it on fresh state.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from engine.amend import amendments, apply_changes, changed_lines
from engine.askback import acknowledgement
from engine.bot import Bot, Intent
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
    Resume,
    SetSlot,
    Skip,
    StartFlow,
    WhichSlot,
    YesNo,
)
from engine.context import MainContext
from engine.errors import DefinitionError, SlotRejected
from engine.extract import fold
from engine.flow import Flow
from engine.handoff import end_hold
from engine.kept import RequestRunner
from engine.llm.port import TextSink
from engine.models import (
    CarryOver,
    FlowFrame,
    FlowRun,
    Message,
    Outcome,
    RecordDraft,
    SessionState,
    Slots,
    TurnWrite,
)
from engine.reading import read
from engine.states import ANSWER, SKIP, Ask, render
from engine.versions import reconcile


def idle_frames(bot: Bot, session: SessionState, now: datetime) -> list[tuple[FlowFrame, timedelta]]:
    """The open runs (active or paused) whose flow's `idle_timeout` passed since the user's last turn."""
    idle = now - session.updated_at
    frames = ([session.active] if session.active else []) + list(session.stack)
    out = []
    for f in frames:
        flow = bot.named.get(f.flow)
        timeout = flow.idle_timeout if flow is not None else None
        if timeout is not None and idle > timeout:
            out.append((f, idle))
    return out


def _duration(d: timedelta) -> str:
    if d >= timedelta(days=2):
        return f"{d.days} days"
    if d >= timedelta(hours=2):
        return f"{d.seconds // 3600 + d.days * 24} hours"
    return f"{max(1, int(d.total_seconds() // 60))} minutes"


class Turn(RequestRunner):
    """One user message against one loaded session; `run()` returns what to commit."""

    def run(self) -> TurnWrite:
        """One message, stage by stage: load (what the last turn left, and the stored frames
        brought to the code), read (the message into commands: engine/reading.py), execute
        (each command against the machine), write (everything to commit, as one `TurnWrite`).
        Phrasing happens as commands are executed, through the voice, within the call budget.
        """
        # load
        self._reconcile()
        # what the last turn left is this message's only: a question asked back, a suggestion
        # or an offer is answered now or not at all
        carried, self.session.carry = self.session.carry, CarryOver()
        self.session.carry.requests = carried.requests  # kept until the flow they wait for is done
        self.reply[:0] = carried.pending  # told before anything this message causes
        # read
        reading = read(
            self.bot, self.session, carried, self.text, lambda: self._entry_rule(), self.latest, self._checked
        )
        if reading.text != self.text:  # a yes to an offer: the flow reads the message it offered
            answered = next(c for c in reading.commands if isinstance(c, (AnswerFlow, Resume)))
            self.trace.notice("offer", answered.flow, getattr(answered, "state", None), reading.text)
            self.text = reading.text
        # execute
        if self.session.active is None and isinstance(
            reading.commands[0], (YesNo, StartFlow, Resume, Chitchat, Amend, AmendAsk, NewRequest)
        ):
            self.main_messages.append(Message(role="user", content=self.text))  # main history has it
        replies: list[YesNo] = []  # a yes or no at the open question, for the flow that reads it
        # corrections of earlier answers and slots filled ahead, made before it reads
        fixes: list[CorrectSlot | WhichSlot | SetSlot] = []
        # a new request beside an answer, or beside a request that starts a flow, asks nothing again
        beside = self.session.active is None or any(isinstance(c, AnswerFlow) for c in reading.commands)
        for command in reading.commands:
            if isinstance(command, YesNo) and command.to != "confirm":
                replies.append(command)
            elif isinstance(command, CorrectSlot | WhichSlot | SetSlot):
                fixes.append(command)
            elif isinstance(command, NewRequest):
                if not beside:
                    self._route("command:new_request")
                self.keep_request(command, answered=beside, carry_out=self.main_request)
            else:
                self.execute(command, replies, fixes)
        self.offer_kept(self.main_request)  # back in the main conversation: what was asked for meanwhile
        # write
        return self._write()

    def main_request(self, text: str) -> None:
        """`text` carried out in the main conversation as if said now: a change to a saved record,
        else the main conversation's answer (which may start a flow)."""
        said, self.text = self.text, text
        try:
            changes = amendments(self.bot, text, self.latest)
            for change in changes:
                self.execute(change)
            if not changes:
                self._main()
        finally:
            self.text = said

    def _entry_rule(self) -> str | None:
        return self.bot.entry(self.entry_context()) if self.bot.entry else None

    def execute(
        self,
        command: Command,
        replies: Sequence[YesNo] = (),
        fixes: Sequence[CorrectSlot | WhichSlot | SetSlot] = (),
    ) -> None:
        """Carry out one command of the message's reading; `replies` go to the flow that reads
        the message (a yes or no to a suggested value or an offered message), and so do `fixes`
        (earlier answers it corrects: made first, then the rest of the message is read)."""
        match command:
            case Held(leave=leave):
                self._with_agent(leave)
            case Handoff():
                self._route("command:person")
                self._person()
            case Skip():
                self._route("command:skip")
                self._skip()
            case Cancel():
                self._route("command:cancel")
                self._cancel_command()
            case Help():
                self._route("command:help")
                self._help()
            case StartFlow(flow=name, via="interrupt"):
                self._route(f"interrupt:{name}")
                a = self.session.active
                if a is not None:  # the open run waits on the stack, and comes back when this one ends
                    self.session.stack.append(a)
                    self.session.active = None
                self.start(name)
            case StartFlow(flow=name, via=_):
                self._route(f"entry:{name}")
                self.start(name)
            case AnswerFlow(words=rest):
                a = self.session.active
                if a is None:
                    raise DefinitionError("a reading answers a flow, but none is open")
                self._route("flow")
                proposed = self.flow_turn(self.bot.flow_for(a), a, replies=replies, fixes=fixes, rest=rest)
                if proposed is not None:
                    # what the model found the message says instead, evidenced, with the calls left
                    self.voice.ceiling = self.voice.budget
                    self.execute(proposed)
            case AskBack() | Chitchat() if self.session.active is not None:
                # a question back about the open question, or small talk at it (engine/askback.py)
                a = self.session.active
                self._route(f"command:{command.kind}")
                self.asked_back(self.bot.flow_for(a), a, command)
            case AskBack():
                raise DefinitionError("a reading asks back about a question, but no flow is open")
            case Resume(flow=name):
                self._resume_paused(name, replies)
            case YesNo(to="confirm", subject=name, yes=yes, request=request):
                self._confirm(name, yes, request)
            case Chitchat(social=social) if social:
                # small talk while a run is paused (the read stage reads it as such only then): said back
                # and the run stays paused, not the main conversation's account of what the bot does
                self._route("command:chitchat")
                self.emit(acknowledgement(social))
                paused = next((f for f in reversed(self.session.stack) if f.paused), None)
                if paused is not None:
                    name = paused.flow.replace("_", " ")
                    self.emit(f"Your {name} is paused; say 'continue' when you want to pick it up.")
            case Chitchat():
                self._main()
            case Amend():
                self._amend(command)
            case AmendAsk(question=question):
                self._route(f"amend:{command.flow}")
                self.trace.notice("route", detail=f"amend {command.record}: asked")
                self.emit(question)
            case _:
                raise DefinitionError(f"no executor for a {command.kind} command at the top of a turn")

    def _amend(self, command: Amend) -> None:
        """One fact of a saved record changed: the record's new version replaces any this turn
        made already (several facts in one message make one version), and the user is told."""
        self._route(f"amend:{command.flow}")
        amends = self.bot.flow(command.flow).amends
        record = self.latest(command.record)
        if amends is None or record is None:
            raise DefinitionError(
                f"an amendment of {command.record!r}, which nothing saved declares", flow=command.flow
            )
        before = self._amended.get(command.record) or amends.load(record.data)
        after = apply_changes(amends, before, {command.slot: command.value})
        if isinstance(after, str):
            self.emit(after)
            return
        self._amended[command.record] = after
        self.records = [r for r in self.records if r.kind != command.record]
        self.records.extend(amends.records(after))
        lines = changed_lines(amends, before, after)
        self.trace.notice("route", detail=f"amend {command.record}.{command.slot}: {command.words!r}")
        what = f"Updated your {command.record.replace('_', ' ')}: {'; '.join(lines)}."
        self.main_messages.append(Message(role="system", content=what))
        self.emit(what)

    def _resume_paused(self, name: str, replies: Sequence[YesNo]) -> None:
        """The entry rule's paused run, back with this message as the answer to its question."""
        paused = next(f for f in reversed(self.session.stack) if f.flow == name and f.paused)
        flow = self.bot.flow(name)
        self.session.stack.remove(paused)
        paused.paused = False
        self.session.active = paused
        self.trace.notice("resume", flow.name, paused.state)
        self._route(f"entry:{name}")
        # resuming, only the rules read the message: no model is asked, so nothing is proposed
        self.flow_turn(flow, paused, resuming=True, replies=replies)

    def reset(self) -> TurnWrite:
        """Abandon the active and suspended flows (the chat's /reset); main history stays."""
        self._reconcile()  # frames of flows the code no longer has are dropped (and logged) first
        self._route("command:reset")
        frames = ([self.session.active] if self.session.active else []) + self.session.stack[::-1]
        self.session.stack = []
        self.session.carry.requests = []  # what was asked for during them goes with them
        for f in frames:
            self.session.active = f
            flow = self.bot.flow_for(f)
            self.close(flow, f, flow.new_slots(f.slots), "reset", f"{f.flow.capitalize()} was reset by the user.")
        self.session.active = None
        self.emit("Started over: no activity is running now.")
        return self._write()

    def _route(self, route: str) -> None:
        self.trace.route = route
        a = self.session.active
        budget = self.bot.flow_for(a).llm_calls_per_turn if a else self.bot.main_llm_calls
        # a command the model proposed is carried out with the calls the turn had left (`ceiling`)
        self.voice.budget = budget if self.voice.ceiling is None else min(budget, self.voice.ceiling)

    def start_flow(self, name: str, seed: Slots | None) -> None:
        """Start `name` from code (a bot's main handler), with `seed` of the flow's own slots model."""
        flow = self.bot.flow(name)
        if seed is not None and not isinstance(seed, flow.slots):
            raise DefinitionError(
                f"started with {type(seed).__name__}, but its slots model is {flow.slots.__name__}", flow=name
            )
        self.trace.route = f"intent:{name}"
        self.start(name, seed=seed.model_dump(exclude_unset=True) if seed is not None else None)

    def _main(self) -> None:
        self._route("main")
        if self.bot.converse is not None:
            self.bot.converse(MainContext(self))
        else:
            self.default_main()

    def detect_intent(self) -> str | None:
        """The flow a keyword pattern asks for. A model's guess never starts a flow here: see
        `_guess_intent`, whose answer is asked back first."""
        return self.bot.intent_for(self.text)

    def _guess_intent(self) -> Intent | None:
        """With a model: the intent it reads in a message no pattern matched, when the message
        holds one of that intent's cue words and the model quotes the words that show it."""
        if self.voice.offline:
            return None
        candidates = [i for i in self.bot.intents if i.cued(self.text)]
        if not candidates:
            return None  # no cue word: small talk, and the model is not even asked
        answer = self.llm_parse(self.bot.intent_model(candidates), "classify:intent", None)
        flow, evidence = getattr(answer, "value", None), getattr(answer, "evidence", None)
        chosen = next((i for i in candidates if i.flow == flow), None)
        if chosen is None or not isinstance(evidence, str) or not evidence.strip():
            return None
        if fold(evidence) not in fold(self.text) or not chosen.cued(evidence):
            self.trace.notice("route", detail=f"{flow}: the quoted evidence {evidence!r} is not in the message")
            return None
        return chosen

    def default_main(self) -> None:
        flow = self.detect_intent()
        if flow:
            self.trace.route = f"intent:{flow}"
            self.start(flow)
            return
        guessed = self._guess_intent()
        if guessed is not None:
            # a model's reading of what the user wants is asked back, never acted on
            self.session.carry.confirm = guessed.flow
            self.trace.notice("route", detail=f"asked: {guessed.flow}")
            self.emit(guessed.question)
            return
        self.main_reply()

    def main_reply(self, fallback: str | None = None, background: str = "") -> None:
        """Answer the message: with a model, its own words in the bot's persona, from the main
        history, what the bot knows of the user and `background`, streamed to the turn's sink;
        offline, `fallback` (the capabilities)."""
        content = fallback or self.bot.capabilities
        if fallback is None and self.voice.offline and self.bot.offline_note:
            content = f"{content} {self.bot.offline_note}"
        sink = self.voice.sink
        if sink is not None and self.reply:
            self.voice.sink = _after_a_break(sink)  # it follows what the turn has said already
        try:
            said = self.voice.phrase(content, "reply:main", lambda: self._prompt(None, "reply", background), reply=True)
        finally:
            self.voice.sink = sink
        self.emit(said.text, shown=said.shown)

    def _confirm(self, flow: str, answer: bool | None, request: str | None = None) -> None:
        """The answer to "Do you want to ...?": yes starts the flow, reading the kept `request`
        that asked for it when there is one; no is acknowledged; neither is only noted (the
        reading goes on to its next command)."""
        self.trace.notice("route", detail=f"{flow}: {'yes' if answer else 'no' if answer is False else 'not answered'}")
        if answer is True:
            self._route(f"confirmed:{flow}")
            said, self.text = self.text, request or self.text
            try:
                self.start(flow)
            finally:
                self.text = said
        elif answer is False:
            self._route("main")
            self.emit("OK, no problem.")

    def _cancel_command(self) -> None:
        a = self.session.active
        if a is None:
            self.main_messages.append(Message(role="user", content=self.text))
            paused = next((i for i in range(len(self.session.stack) - 1, -1, -1) if self.session.stack[i].paused), None)
            if paused is None:
                self.emit("There is nothing to cancel; we're in the main conversation.")
                return
            # "stop" with a run paused stops that run for good: it was waiting to be asked for
            frame = self.session.stack.pop(paused)
            flow = self.bot.flow_for(frame)
            slots = flow.new_slots(frame.slots)
            self.close(flow, frame, slots, "cancelled", render(flow.cancel_summary, slots, flow=flow.name.capitalize()))
            self.emit(f"OK, I've stopped the paused {flow.name}; what you told me in it is discarded.")
            return
        flow = self.bot.flow_for(a)
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
        found = self._open_question()
        if found is not None:
            flow, a, state = found
            slots = flow.new_slots(a.slots)
            hint = state.help or f"I'm asking for {state.parser(slots).expects}."
            why = render(state.why, slots) if state.why else ""
            if why and why != hint:
                hint = f"{why} {hint}"  # why it is asked, then what it needs
            verb = "pause" if flow.on_cancel == "pause" else "stop"
            self.emit(f"{hint} {render(state.say_again, slots)} (Say 'cancel' to {verb} the {flow.name}.)")

    def _open_question(self) -> tuple[Flow[Any], FlowFrame, Ask] | None:
        """The open flow, its run and the question it waits at, the message noted in its scratchpad."""
        a = self.session.active
        if a is None:
            return None
        flow = self.bot.flow_for(a)
        state = flow.state(a.state)
        if not isinstance(state, Ask):
            return None
        a.turns += 1  # these turns count towards max_turns too: no flow may be kept open forever
        a.scratchpad.append(Message(role="user", content=self.text))
        return flow, a, state

    def _skip(self) -> None:
        """ "skip" at a question: left unanswered where the flow goes on without it (its fallback
        is to skip); elsewhere the question stays, no attempt used."""
        found = self._open_question()
        if found is None:
            return
        flow, frame, state = found
        slots = self._checked.pop(id(frame), None) or flow.new_slots(frame.slots)
        if flow.skips_from(state.name):
            self.trace.notice("skipped", flow.name, state.name, state.slot)
            frame.attempts = 0
            self.move(flow, frame, slots, SKIP)  # the flow says how it goes on ("let's move on")
            return
        if state.fallback != "skip":
            self.trace.notice("skipped", flow.name, state.name, "refused: the flow needs this answer")
            needed = f"I need this one to go on ({state.parser(slots).expects})."
            self.emit(f"{needed} {self.question(flow, state, slots)}")
            return
        self.trace.notice("skipped", flow.name, state.name, state.slot)
        frame.attempts = 0
        self.emit("Let's skip that one for now.")  # as the fallback says it
        self.move(flow, frame, slots, ANSWER)

    def _person(self) -> None:
        """A person asked for at a question: where the bot has people, the run ends escalated and
        the session waits for one; where it has none, the user is told so and asked again."""
        found = self._open_question()
        if found is None:
            return
        flow, frame, state = found
        slots = self._checked.pop(id(frame), None) or flow.new_slots(frame.slots)
        if not self.bot.people:
            self.trace.notice("agent", flow.name, state.name, f"asked for a person; {self.bot.name} has none")
            there = "There's no person I can put you through to here: I'm an automated assistant."
            self.emit(f"{there} {self.question(flow, state, slots)}")
            return
        summary = f"{flow.name.capitalize()} escalated: the user asked for a person at {state.slot}."
        self.records.append(
            RecordDraft(kind="escalation", data={"flow": flow.name, "state": state.name, "slots": frame.slots})
        )
        self.close(flow, frame, slots, "escalated", summary)
        self.emit("I'm connecting you to a person who can help.")
        self.resume_or_return()

    def _reconcile(self) -> None:
        """Bring stored frames to the code: migrate what can move, drop what no longer fits, saying so.

        Then close the runs left idle past their flow's `idle_timeout`; the message itself is
        routed as usual afterwards (it is not an answer to a question asked days ago).
        """
        found = reconcile(self.bot, self.session)
        self._checked = found.slots
        for f, was in found.migrated:
            self.trace.notice("migrated", f.flow, f.state, f"v{was} -> v{f.version}")
        for f, problem in found.dropped:
            self.trace.notice("reset", f.flow, f.state, problem)
            self._close_frame(f, "reset", f"{f.flow} was reset: {problem}.")
            self.reply.append(f"(Your unfinished {f.flow} was reset because the bot was updated: {problem}.)")
        for f, idle in idle_frames(self.bot, self.session, self.now):
            self.trace.notice("expired", f.flow, f.state, str(idle))
            self._checked.pop(id(f), None)
            self._drop_frame(f)
            self._close_frame(f, "expired", f"{f.flow.capitalize()} expired after {_duration(idle)} without a reply.")
            self.reply.append(f"(Your unfinished {f.flow} was closed: nothing was said in it for {_duration(idle)}.)")

    def _drop_frame(self, f: FlowFrame) -> None:
        if self.session.active is f:
            self.session.active = None
        else:
            self.session.stack = [x for x in self.session.stack if x is not f]

    def _close_frame(self, f: FlowFrame, outcome: Outcome, summary: str) -> None:
        """A run that ends outside its flow (reset, expired): its summary line, its run row."""
        self.runs.append(
            FlowRun(
                flow=f.flow, outcome=outcome, summary=summary, slots=f.slots,
                turns=f.turns, started_at=f.started_at, ended_at=self.now,
            )
        )  # fmt: skip
        self.main_messages.append(Message(role="system", content=summary))

    def _with_agent(self, leaving: bool) -> None:
        """A person has the conversation: the message goes into the history; the bot only holds the line."""
        self.main_messages.append(Message(role="user", content=self.text))
        if leaving:
            self._route("agent:left")
            end_hold(self.session)
            self.trace.notice("agent", detail="the user left the queue")
            self.main_messages.append(Message(role="system", content="The user left the queue for a person."))
            self.emit("OK, you've left the queue; I'm back. What can I do for you?")
            return
        self._route("agent:waiting")
        self.emit(self.bot.holding)

    def agent_reply(self) -> TurnWrite:
        """A person's answer (this turn's text): into the history, and shown to the user with their next message."""
        self._route("agent:reply")
        self.main_messages.append(Message(role="assistant", content=self.text))
        self.trace.notice("agent", detail="reply")
        self._tell_later(f"Agent: {self.text}")
        return self._write()

    def release(self) -> TurnWrite:
        """The person hands the conversation back to the bot."""
        self._route("agent:release")
        end_hold(self.session)
        self.trace.notice("agent", detail="handed back")
        self.main_messages.append(Message(role="system", content="An agent handed the conversation back to the bot."))
        self._tell_later("(The agent has handed you back to me. How can I help?)")
        return self._write()

    def _tell_later(self, text: str) -> None:
        self.session.carry.pending.append(text)

    def expire(self) -> TurnWrite:
        """Close the session's idle runs now (`innerloop sessions expire`); the user hears of it next time."""
        self._route("command:expire")
        self._reconcile()
        for told in [r for r in self.reply if r.startswith("(")]:
            self._tell_later(told)
        self.reply = []
        return self._write()

    def refuse(self, rejected: SlotRejected) -> TurnWrite:
        """The message again, after playing it made flow code set a slot its model refuses:
        nothing that play did is kept; the user hears why and the open question again."""
        self._reconcile()
        self._route("refused")
        a = self.session.active
        self.trace.notice("slot_rejected", a.flow if a else None, a.state if a else None, str(rejected))
        question = ""
        if a is not None:
            a.scratchpad.append(Message(role="user", content=self.text))
            flow = self.bot.flow_for(a)
            state = flow.state(a.state)
            if isinstance(state, Ask):
                question = self.question(flow, state, flow.new_slots(a.slots))
        else:
            self.main_messages.append(Message(role="user", content=self.text))
        self.emit(f"That can't be right ({rejected.reason}). {question}".strip())
        return self._write()


def _after_a_break(sink: TextSink) -> TextSink:
    """`sink`, with a paragraph break before the first piece."""
    started = False

    def separated(piece: str) -> None:
        nonlocal started
        sink(piece if started else "\n\n" + piece)
        started = True

    return separated
