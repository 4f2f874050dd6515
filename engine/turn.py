"""One turn: read the user's message into commands, execute them: a flow or the main conversation.

`Turn` works on a loaded `SessionState` and produces a `TurnWrite`; it never touches the
store's write path itself, so a conflict can simply re-run it on fresh state.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.amend import amendments, apply_changes, changed_lines
from engine.answering import OpenQuestion
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
    Reading,
    Resume,
    SetSlot,
    Skip,
    StartFlow,
    WhichSlot,
    YesNo,
)
from engine.context import MainContext
from engine.effects import Effects
from engine.errors import DefinitionError, SlotRejected
from engine.extract import fold
from engine.flow import Flow
from engine.flowrun import FlowRunner
from engine.handoff import end_hold
from engine.kept import RequestRunner
from engine.llm.port import LLM, TextSink
from engine.load import load, take_carry
from engine.models import (
    FlowFrame,
    FlowRun,
    Heard,
    Message,
    Outcome,
    RecordDraft,
    Resources,
    SessionState,
    Slots,
    TurnWrite,
)
from engine.reading import read
from engine.states import ANSWER, SKIP, Ask, render
from engine.store import Store


class Turn:
    """One user message against one loaded session; `run()` returns what to commit.

    The turn holds its parts, none inherits another: `fx` (engine/effects.py) is what the turn
    has done so far and its ports, `flows` (engine/flowrun.py) runs the flows' machines,
    `answers` (engine/answering.py) is what a message does at the open question, `kept`
    (engine/kept.py) keeps new requests made during a flow. The message is a value (`Heard`)
    handed down, never rewritten.
    """

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
        now: datetime | None = None,
    ) -> None:
        self.fx = Effects(bot, store, llm, session, text, resources, retried=retried, now=now)
        self.flows = FlowRunner(self.fx)
        self.answers = OpenQuestion(self.flows)
        self.kept = RequestRunner(self.flows)

    def run(self) -> TurnWrite:
        """One message, stage by stage: load (the stored frames brought to the code and the
        clock, and what the last turn left: engine/load.py), read (the message into commands:
        engine/reading.py), execute (each command against the machines; phrasing happens as they
        are carried out, through the voice, within the call budget), write (everything to commit,
        as one `TurnWrite`: engine/effects.py)."""
        fx = self.fx
        self._load()
        carried = take_carry(fx.session)
        fx.reply[:0] = carried.pending  # told before anything this message causes
        typed = Heard(fx.said)
        entry = lambda: fx.bot.entry(fx.entry_context(typed)) if fx.bot.entry else None  # noqa: E731
        reading = read(fx.bot, fx.session, carried, fx.said, entry, fx.latest, fx.checked)
        self._execute(reading)
        return fx.write()

    def _execute(self, reading: Reading) -> None:
        """The execute stage: the reading's commands carried out in order. A yes or no at the
        open question, corrections and slots filled ahead go with the command that answers the
        flow; a new request is kept for after the flow (or carried out, with none open)."""
        fx = self.fx
        heard = Heard(reading.text)
        if reading.text != fx.said:  # a yes to an offer: the flow reads the message it offered
            answered = next(c for c in reading.commands if isinstance(c, (AnswerFlow, Resume)))
            fx.trace.notice("offer", answered.flow, getattr(answered, "state", None), reading.text)
        if fx.session.active is None and isinstance(
            reading.commands[0], (YesNo, StartFlow, Resume, Chitchat, Amend, AmendAsk, NewRequest)
        ):
            fx.main_messages.append(Message(role="user", content=heard.text))  # main history has it
        replies: list[YesNo] = []  # a yes or no at the open question, for the flow that reads it
        # corrections of earlier answers and slots filled ahead, made before it reads
        fixes: list[CorrectSlot | WhichSlot | SetSlot] = []
        # a new request beside an answer, or beside a request that starts a flow, asks nothing again
        beside = fx.session.active is None or any(isinstance(c, AnswerFlow) for c in reading.commands)
        for command in reading.commands:
            if isinstance(command, YesNo) and command.to != "confirm":
                replies.append(command)
            elif isinstance(command, CorrectSlot | WhichSlot | SetSlot):
                fixes.append(command)
            elif isinstance(command, NewRequest):
                if not beside:
                    self._route("command:new_request")
                self.kept.keep_request(command, heard, answered=beside, carry_out=self.main_request)
            else:
                heard = self.execute(command, heard, replies, fixes)
        self.kept.offer_kept(self.main_request)  # back in the main conversation: what was asked for meanwhile

    def main_request(self, text: str) -> None:
        """`text` carried out in the main conversation as if said now: a change to a saved record,
        else the main conversation's answer (which may start a flow)."""
        heard = Heard(text)
        changes = amendments(self.fx.bot, text, self.fx.latest)
        for change in changes:
            self.execute(change, heard)
        if not changes:
            self._main(heard)

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
                self._with_agent(leave, heard)
            case Handoff():
                self._route("command:person")
                self._person(heard)
            case Skip():
                self._route("command:skip")
                self._skip(heard)
            case Cancel():
                self._route("command:cancel")
                self._cancel_command(heard)
            case Help():
                self._route("command:help")
                self._help(heard)
            case StartFlow(flow=name, via="interrupt"):
                self._route(f"interrupt:{name}")
                a = self.fx.session.active
                if a is not None:  # the open run waits on the stack, and comes back when this one ends
                    self.fx.session.stack.append(a)
                    self.fx.session.active = None
                self.flows.start(name, heard)
            case StartFlow(flow=name, via=_):
                self._route(f"entry:{name}")
                self.flows.start(name, heard)
            case AnswerFlow(words=rest):
                a = self.fx.session.active
                if a is None:
                    raise DefinitionError("a reading answers a flow, but none is open")
                self._route("flow")
                proposed = self.answers.flow_turn(
                    self.fx.bot.flow_for(a), a, heard, replies=replies, fixes=fixes, rest=rest
                )
                if proposed is not None:
                    # what the model found the message says instead, evidenced, with the calls left
                    self.fx.voice.ceiling = self.fx.voice.budget
                    command, heard = proposed
                    return self.execute(command, heard)
            case AskBack() | Chitchat() if self.fx.session.active is not None:
                # a question back about the open question, or small talk at it (engine/askback.py)
                a = self.fx.session.active
                self._route(f"command:{command.kind}")
                self.answers.asked_back(self.fx.bot.flow_for(a), a, command, heard)
            case AskBack():
                raise DefinitionError("a reading asks back about a question, but no flow is open")
            case Resume(flow=name):
                self._resume_paused(name, replies, heard)
            case YesNo(to="confirm", subject=name, yes=yes, request=request):
                self._confirm(name, yes, heard, request)
            case Chitchat(social=social) if social:
                # small talk while a run is paused (the read stage reads it as such only then): said back
                # and the run stays paused, not the main conversation's account of what the bot does
                self._route("command:chitchat")
                self.fx.emit(acknowledgement(social))
                paused = next((f for f in reversed(self.fx.session.stack) if f.paused), None)
                if paused is not None:
                    name = paused.flow.replace("_", " ")
                    self.fx.emit(f"Your {name} is paused; say 'continue' when you want to pick it up.")
            case Chitchat():
                self._main(heard)
            case Amend():
                self._amend(command)
            case AmendAsk(question=question):
                self._route(f"amend:{command.flow}")
                self.fx.trace.notice("route", detail=f"amend {command.record}: asked")
                self.fx.emit(question)
            case _:
                raise DefinitionError(f"no executor for a {command.kind} command at the top of a turn")
        return heard

    def _amend(self, command: Amend) -> None:
        """One fact of a saved record changed: the record's new version replaces any this turn
        made already (several facts in one message make one version), and the user is told."""
        self._route(f"amend:{command.flow}")
        amends = self.fx.bot.flow(command.flow).amends
        record = self.fx.latest(command.record)
        if amends is None or record is None:
            raise DefinitionError(
                f"an amendment of {command.record!r}, which nothing saved declares", flow=command.flow
            )
        before = self.fx._amended.get(command.record) or amends.load(record.data)
        after = apply_changes(amends, before, {command.slot: command.value})
        if isinstance(after, str):
            self.fx.emit(after)
            return
        self.fx._amended[command.record] = after
        self.fx.records = [r for r in self.fx.records if r.kind != command.record]
        self.fx.records.extend(amends.records(after))
        lines = changed_lines(amends, before, after)
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
        self._route(f"entry:{name}")
        # resuming, only the rules read the message: no model is asked, so nothing is proposed
        self.answers.flow_turn(flow, paused, heard, resuming=True, replies=replies)

    def reset(self) -> TurnWrite:
        """Abandon the active and suspended flows (the chat's /reset); main history stays."""
        self._load()  # frames of flows the code no longer has are dropped (and logged) first
        self._route("command:reset")
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

    def _route(self, route: str) -> None:
        self.fx.trace.route = route
        a = self.fx.session.active
        budget = self.fx.bot.flow_for(a).llm_calls_per_turn if a else self.fx.bot.main_llm_calls
        # a command the model proposed is carried out with the calls the turn had left (`ceiling`)
        self.fx.voice.budget = budget if self.fx.voice.ceiling is None else min(budget, self.fx.voice.ceiling)

    def start_flow(self, name: str, seed: Slots | None, heard: Heard) -> None:
        """Start `name` from code (a bot's main handler), with `seed` of the flow's own slots model."""
        flow = self.fx.bot.flow(name)
        if seed is not None and not isinstance(seed, flow.slots):
            raise DefinitionError(
                f"started with {type(seed).__name__}, but its slots model is {flow.slots.__name__}", flow=name
            )
        self.fx.trace.route = f"intent:{name}"
        self.flows.start(name, heard, seed=seed.model_dump(exclude_unset=True) if seed is not None else None)

    def _main(self, heard: Heard) -> None:
        self._route("main")
        if self.fx.bot.converse is not None:
            self.fx.bot.converse(MainContext(self.fx, self, heard))
        else:
            self.default_main(heard)

    def detect_intent(self, heard: Heard) -> str | None:
        """The flow a keyword pattern asks for. A model's guess never starts a flow here: see
        `_guess_intent`, whose answer is asked back first."""
        return self.fx.bot.intent_for(heard.text)

    def _guess_intent(self, heard: Heard) -> Intent | None:
        """With a model: the intent it reads in a message no pattern matched, when the message
        holds one of that intent's cue words and the model quotes the words that show it."""
        if self.fx.voice.offline:
            return None
        candidates = [i for i in self.fx.bot.intents if i.cued(heard.text)]
        if not candidates:
            return None  # no cue word: small talk, and the model is not even asked
        answer = self.fx.llm_parse(self.fx.bot.intent_model(candidates), "classify:intent", None, heard)
        flow, evidence = getattr(answer, "value", None), getattr(answer, "evidence", None)
        chosen = next((i for i in candidates if i.flow == flow), None)
        if chosen is None or not isinstance(evidence, str) or not evidence.strip():
            return None
        if fold(evidence) not in fold(heard.text) or not chosen.cued(evidence):
            self.fx.trace.notice("route", detail=f"{flow}: the quoted evidence {evidence!r} is not in the message")
            return None
        return chosen

    def default_main(self, heard: Heard) -> None:
        flow = self.detect_intent(heard)
        if flow:
            self.fx.trace.route = f"intent:{flow}"
            self.flows.start(flow, heard)
            return
        guessed = self._guess_intent(heard)
        if guessed is not None:
            # a model's reading of what the user wants is asked back, never acted on
            self.fx.session.carry.confirm = guessed.flow
            self.fx.trace.notice("route", detail=f"asked: {guessed.flow}")
            self.fx.emit(guessed.question)
            return
        self.main_reply(heard)

    def main_reply(self, heard: Heard, fallback: str | None = None, background: str = "") -> None:
        """Answer the message: with a model, its own words in the bot's persona, from the main
        history, what the bot knows of the user and `background`, streamed to the turn's sink;
        offline, `fallback` (the capabilities)."""
        content = fallback or self.fx.bot.capabilities
        if fallback is None and self.fx.voice.offline and self.fx.bot.offline_note:
            content = f"{content} {self.fx.bot.offline_note}"
        sink = self.fx.voice.sink
        if sink is not None and self.fx.reply:
            self.fx.voice.sink = _after_a_break(sink)  # it follows what the turn has said already
        try:
            prompt = lambda: self.fx.prompt(None, "reply", heard, background)  # noqa: E731
            said = self.fx.voice.phrase(content, "reply:main", prompt, reply=True)
        finally:
            self.fx.voice.sink = sink
        self.fx.emit(said.text, shown=said.shown)

    def _confirm(self, flow: str, answer: bool | None, heard: Heard, request: str | None = None) -> None:
        """The answer to "Do you want to ...?": yes starts the flow, reading the kept `request`
        that asked for it when there is one; no is acknowledged; neither is only noted (the
        reading goes on to its next command)."""
        self.fx.trace.notice(
            "route", detail=f"{flow}: {'yes' if answer else 'no' if answer is False else 'not answered'}"
        )
        if answer is True:
            self._route(f"confirmed:{flow}")
            self.flows.start(flow, heard.reading(request) if request else heard)
        elif answer is False:
            self._route("main")
            self.fx.emit("OK, no problem.")

    def _cancel_command(self, heard: Heard) -> None:
        a = self.fx.session.active
        if a is None:
            self.fx.main_messages.append(Message(role="user", content=heard.text))
            paused = next(
                (i for i in range(len(self.fx.session.stack) - 1, -1, -1) if self.fx.session.stack[i].paused), None
            )
            if paused is None:
                self.fx.emit("There is nothing to cancel; we're in the main conversation.")
                return
            # "stop" with a run paused stops that run for good: it was waiting to be asked for
            frame = self.fx.session.stack.pop(paused)
            flow = self.fx.bot.flow_for(frame)
            slots = flow.new_slots(frame.slots)
            summary = render(flow.cancel_summary, slots, flow=flow.name.capitalize())
            self.flows.close(flow, frame, slots, "cancelled", summary)
            self.fx.emit(f"OK, I've stopped the paused {flow.name}; what you told me in it is discarded.")
            return
        flow = self.fx.bot.flow_for(a)
        a.scratchpad.append(Message(role="user", content=heard.text))
        if flow.on_cancel == "pause":
            a.paused = True
            self.fx.session.stack.append(a)
            self.fx.session.active = None
            self.fx.trace.notice("pause", flow.name, a.state)
            self.fx.emit(flow.pause_message)
            return
        slots = flow.new_slots(a.slots)
        self.flows.close(flow, a, slots, "cancelled", render(flow.cancel_summary, slots, flow=flow.name.capitalize()))
        self.fx.emit(f"OK, I've stopped the {flow.name}.")
        self.flows.resume_or_return(heard)

    def _help(self, heard: Heard) -> None:
        a = self.fx.session.active
        if a is None:
            self.fx.main_messages.append(Message(role="user", content=heard.text))
            self.fx.emit(self.fx.bot.capabilities)
            return
        found = self._open_question(heard)
        if found is not None:
            flow, a, state = found
            slots = flow.new_slots(a.slots)
            hint = state.help or f"I'm asking for {state.parser(slots).expects}."
            why = render(state.why, slots) if state.why else ""
            if why and why != hint:
                hint = f"{why} {hint}"  # why it is asked, then what it needs
            verb = "pause" if flow.on_cancel == "pause" else "stop"
            self.fx.emit(f"{hint} {render(state.say_again, slots)} (Say 'cancel' to {verb} the {flow.name}.)")

    def _open_question(self, heard: Heard) -> tuple[Flow[Any], FlowFrame, Ask] | None:
        """The open flow, its run and the question it waits at, the message noted in its scratchpad."""
        a = self.fx.session.active
        if a is None:
            return None
        flow = self.fx.bot.flow_for(a)
        state = flow.state(a.state)
        if not isinstance(state, Ask):
            return None
        a.turns += 1  # these turns count towards max_turns too: no flow may be kept open forever
        a.scratchpad.append(Message(role="user", content=heard.text))
        return flow, a, state

    def _skip(self, heard: Heard) -> None:
        """ "skip" at a question: left unanswered where the flow goes on without it (its fallback
        is to skip); elsewhere the question stays, no attempt used."""
        found = self._open_question(heard)
        if found is None:
            return
        flow, frame, state = found
        slots = self.fx.checked.pop(id(frame), None) or flow.new_slots(frame.slots)
        if flow.skips_from(state.name):
            self.fx.trace.notice("skipped", flow.name, state.name, state.slot)
            frame.attempts = 0
            self.flows.move(flow, frame, slots, SKIP, heard)  # the flow says how it goes on ("let's move on")
            return
        if state.fallback != "skip":
            self.fx.trace.notice("skipped", flow.name, state.name, "refused: the flow needs this answer")
            needed = f"I need this one to go on ({state.parser(slots).expects})."
            self.fx.emit(f"{needed} {self.flows.question(flow, state, slots, heard)}")
            return
        self.fx.trace.notice("skipped", flow.name, state.name, state.slot)
        frame.attempts = 0
        self.fx.emit("Let's skip that one for now.")  # as the fallback says it
        self.flows.move(flow, frame, slots, ANSWER, heard)

    def _person(self, heard: Heard) -> None:
        """A person asked for at a question: where the bot has people, the run ends escalated and
        the session waits for one; where it has none, the user is told so and asked again."""
        found = self._open_question(heard)
        if found is None:
            return
        flow, frame, state = found
        slots = self.fx.checked.pop(id(frame), None) or flow.new_slots(frame.slots)
        if not self.fx.bot.people:
            self.fx.trace.notice("agent", flow.name, state.name, f"asked for a person; {self.fx.bot.name} has none")
            there = "There's no person I can put you through to here: I'm an automated assistant."
            self.fx.emit(f"{there} {self.flows.question(flow, state, slots, heard)}")
            return
        summary = f"{flow.name.capitalize()} escalated: the user asked for a person at {state.slot}."
        self.fx.records.append(
            RecordDraft(kind="escalation", data={"flow": flow.name, "state": state.name, "slots": frame.slots})
        )
        self.flows.close(flow, frame, slots, "escalated", summary)
        self.fx.emit("I'm connecting you to a person who can help.")
        self.flows.resume_or_return(heard)

    def _load(self) -> None:
        """The load stage (engine/load.py), recorded: what it migrated, dropped or closed is in
        the trace, the main history and the reply."""
        loaded = load(self.fx.bot, self.fx.session, self.fx.now)
        self.fx.checked = loaded.checked
        for f, was in loaded.migrated:
            self.fx.trace.notice("migrated", f.flow, f.state, f"v{was} -> v{f.version}")
        for c in loaded.closed:
            self.fx.trace.notice(c.notice, c.frame.flow, c.frame.state, c.detail)
            self._close_frame(c.frame, c.outcome, c.summary)
            self.fx.reply.append(c.told)

    def _close_frame(self, f: FlowFrame, outcome: Outcome, summary: str) -> None:
        """A run that ends outside its flow (reset, expired): its summary line, its run row."""
        self.fx.runs.append(
            FlowRun(
                flow=f.flow, outcome=outcome, summary=summary, slots=f.slots,
                turns=f.turns, started_at=f.started_at, ended_at=self.fx.now,
            )
        )  # fmt: skip
        self.fx.main_messages.append(Message(role="system", content=summary))

    def _with_agent(self, leaving: bool, heard: Heard) -> None:
        """A person has the conversation: the message goes into the history; the bot only holds the line."""
        self.fx.main_messages.append(Message(role="user", content=heard.text))
        if leaving:
            self._route("agent:left")
            end_hold(self.fx.session)
            self.fx.trace.notice("agent", detail="the user left the queue")
            self.fx.main_messages.append(Message(role="system", content="The user left the queue for a person."))
            self.fx.emit("OK, you've left the queue; I'm back. What can I do for you?")
            return
        self._route("agent:waiting")
        self.fx.emit(self.fx.bot.holding)

    def agent_reply(self) -> TurnWrite:
        """A person's answer (this turn's text): into the history, and shown to the user with their next message."""
        self._route("agent:reply")
        self.fx.main_messages.append(Message(role="assistant", content=self.fx.said))
        self.fx.trace.notice("agent", detail="reply")
        self._tell_later(f"Agent: {self.fx.said}")
        return self.fx.write()

    def release(self) -> TurnWrite:
        """The person hands the conversation back to the bot."""
        self._route("agent:release")
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
        self._route("command:expire")
        self._load()
        for told in [r for r in self.fx.reply if r.startswith("(")]:
            self._tell_later(told)
        self.fx.reply = []
        return self.fx.write()

    def refuse(self, rejected: SlotRejected) -> TurnWrite:
        """The message again, after playing it made flow code set a slot its model refuses:
        nothing that play did is kept; the user hears why and the open question again."""
        self._load()
        self._route("refused")
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


def _after_a_break(sink: TextSink) -> TextSink:
    """`sink`, with a paragraph break before the first piece."""
    started = False

    def separated(piece: str) -> None:
        nonlocal started
        sink(piece if started else "\n\n" + piece)
        started = True

    return separated
