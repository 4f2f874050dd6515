"""The engine's own commands, the same in every flow and bot: cancel, help, skip, a person asked
for, and a person holding the line.

Cancel stops the open run (or pauses it, for a flow that must finish), or a paused run when none
is open; help says why the open question is asked and what it needs; skip leaves an optional
question unanswered (a required one stays, no attempt used); a person asked for ends the run
escalated where the bot has people. While a person holds the conversation, the bot only holds
the line.
"""

from __future__ import annotations

from typing import Any

from engine.flow import Flow
from engine.flowrun import FlowRunner
from engine.handoff import end_hold
from engine.models import FlowFrame, Heard, Message, RecordDraft
from engine.states import ANSWER, SKIP, Ask, render


class Controls:
    """The engine's own commands, carried out against the open run."""

    def __init__(self, flows: FlowRunner) -> None:
        self.flows = flows
        self.fx = flows.fx

    def cancel(self, heard: Heard, *, later: bool = False) -> None:
        """`later`: the message puts it off ("gotta go, can we finish this later?", "leave it for tomorrow"):
        the open run is paused to come back to, whatever the flow does on a cancel; a paused run stays."""
        a = self.fx.session.active
        if a is None:
            self.fx.main_messages.append(Message(role="user", content=heard.text))
            paused = next(
                (i for i in range(len(self.fx.session.stack) - 1, -1, -1) if self.fx.session.stack[i].paused), None
            )
            if paused is None:
                self.fx.emit("There is nothing to cancel; we're in the main conversation.")
                return
            if later:
                # put off again, never dropped: what the user told the run is theirs until they stop it
                name = self.fx.bot.flow_for(self.fx.session.stack[paused]).name
                self.fx.trace.notice("later", name, self.fx.session.stack[paused].state)
                self.fx.emit(
                    f"No problem: the {name} stays paused with your answers kept. Say 'continue' when you're back, "
                    f"or 'cancel the {name}' to drop it."
                )
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
        if later:
            # put off, whatever the flow does on a cancel: the run waits paused with its answers, and
            # "let's continue" brings it back at this question (engine/reading.py)
            a.paused = True
            self.fx.session.stack.append(a)
            self.fx.session.active = None
            self.fx.trace.notice("later", flow.name, a.state)
            name = flow.name.replace("_", " ")
            self.fx.emit(
                f"No problem, let's pick this up later: the {name} is paused with your answers kept. "
                "Say 'continue' when you're back."
            )
            return
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

    def help(self, heard: Heard) -> None:
        a = self.fx.session.active
        if a is None:
            self.fx.main_messages.append(Message(role="user", content=heard.text))
            self.fx.emit(self.fx.bot.capabilities)
            return
        found = self.open_question(heard)
        if found is not None:
            flow, a, state = found
            slots = flow.new_slots(a.slots)
            hint = state.help or f"I'm asking for {state.parser(slots).expects}."
            why = render(state.why, slots) if state.why else ""
            if why and why != hint:
                hint = f"{why} {hint}"  # why it is asked, then what it needs
            verb = "pause" if flow.on_cancel == "pause" else "stop"
            self.fx.emit(f"{hint} {render(state.say_again, slots)} (Say 'cancel' to {verb} the {flow.name}.)")

    def open_question(self, heard: Heard) -> tuple[Flow[Any], FlowFrame, Ask] | None:
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

    def skip(self, heard: Heard) -> None:
        """ "skip" at a question: left unanswered where the flow goes on without it (its fallback
        is to skip); elsewhere the question stays, no attempt used."""
        found = self.open_question(heard)
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

    def person(self, heard: Heard) -> None:
        """A person asked for at a question: where the bot has people, the run ends escalated and
        the session waits for one; where it has none, the user is told so and asked again."""
        found = self.open_question(heard)
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

    def with_agent(self, leaving: bool, heard: Heard) -> None:
        """A person has the conversation: the message goes into the history; the bot only holds the line."""
        self.fx.main_messages.append(Message(role="user", content=heard.text))
        if leaving:
            self.fx.route("agent:left")
            end_hold(self.fx.session)
            self.fx.trace.notice("agent", detail="the user left the queue")
            self.fx.main_messages.append(Message(role="system", content="The user left the queue for a person."))
            self.fx.emit("OK, you've left the queue; I'm back. What can I do for you?")
            return
        self.fx.route("agent:waiting")
        self.fx.emit(self.fx.bot.holding)
