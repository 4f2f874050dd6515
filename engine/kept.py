"""Requests kept during a flow, carried out: the executor's half of engine/requests.py.

The read stage reads a `NewRequest` at the open question (engine/requests.py); here the turn keeps
it in the session's carry-over (`CarryOver.requests`), says so and asks the question again, and once
back in the main conversation offers it (a request for a flow) or carries it out (any other).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.answering import open_at
from engine.commands import NewRequest
from engine.flowrun import FlowRunner
from engine.handoff import hold_of
from engine.models import MAX_KEPT, Heard, KeptRequest


def _label(name: str) -> str:
    return name.replace("_", " ")


class RequestRunner:
    """The new-request half of a turn: kept at a question, offered or carried out once back in main."""

    def __init__(self, run: FlowRunner) -> None:
        self.run = run
        self.fx = run.fx

    def keep_request(
        self, command: NewRequest, heard: Heard, *, answered: bool, carry_out: Callable[[str], None]
    ) -> None:
        """A new request at the open question: kept for when the flow is done, and said so; unless the
        message also `answered` the question, the question is asked again, no attempt used. With no
        flow open, `carry_out` does it now (the main conversation's handling, engine/turn.py)."""
        a = self.fx.session.active
        if a is None:
            carry_out(command.words)
            return
        flow = self.fx.bot.flow_for(a)
        opened = None
        if not answered:
            opened = open_at(self.run, flow, a, heard)
            if opened is None:
                return
            # the flow's asides hear it first, as they hear a question back: a lesson answers a
            # question on the saved plans at once, support keeps another question for after its answer
            for aside in flow.asides:
                if (
                    aside.requests
                    and aside.match(heard.text)
                    and self.run.run_aside(flow, a, opened[0], opened[1], aside, heard)
                ):
                    self.fx.trace.notice("request", flow.name, opened[1].name, f"aside: {aside.name}")
                    return
        kept = KeptRequest(text=command.words, flow=command.flow, during=a.flow)
        if kept not in self.fx.session.carry.requests:
            # a session keeps a few: the oldest give way, so no conversation piles them up unbounded
            self.fx.session.carry.requests = [*self.fx.session.carry.requests, kept][-MAX_KEPT:]
        self.fx.trace.notice("request", a.flow, a.state, f"kept: {command.flow or 'main'}")
        later = f"the {_label(command.flow)}" if command.flow else "that"
        noted = f"Noted: I'll come back to {later} once we're done with the {_label(flow.name)}."
        if opened is None:
            self.fx.emit(noted)
            return
        slots, state = opened
        cancel = "pause" if flow.on_cancel == "pause" else "stop"
        self.fx.emit(f"{noted} (Say 'cancel' to {cancel} it now.)")
        self.fx.emit(self.run.question(flow, state, slots, heard))

    def offer_kept(self, carry_out: Callable[[str], None]) -> None:
        """Back in the main conversation with requests kept: each one not for a flow is carried out
        (`carry_out`, as if said now), then the first one for a flow is offered (a yes starts it);
        the rest wait for the next time."""
        carry = self.fx.session.carry
        if not carry.requests:
            return
        a = self.fx.session.active
        # a request for the flow now open is being done (a flow handed over to it)
        carry.requests = [k for k in carry.requests if a is None or k.flow != a.flow]
        if a is not None or hold_of(self.fx.session) is not None or not carry.requests:
            return
        kept, carry.requests = carry.requests, []
        last: list[str] = []  # what the main conversation said to the request before
        for n, k in enumerate(kept):
            if self.fx.session.active is not None or carry.confirm is not None:
                carry.requests.extend(kept[n:])  # a flow started, or one is offered: the rest wait
                return
            if k.flow is not None and self.fx.bot.has_flow(k.flow):
                intent = next((i for i in self.fx.bot.intents if i.flow == k.flow), None)
                question = intent.question if intent else f"Do you want to start the {_label(k.flow)}?"
                carry.confirm, carry.confirm_words = k.flow, k.text
                self.fx.trace.notice("request", k.flow, None, "offered")
                self.fx.emit(f"You also asked: “{k.text}”. {question}")
                continue
            self.fx.trace.notice("request", k.during, None, "started")
            self.fx.emit(f"You also asked: “{k.text}”.")
            before, history = len(self.fx.reply), len(self.fx.main_messages)
            carry_out(k.text)
            said = self.fx.reply[before:]
            if said and said == last and self.fx.session.active is None:
                # the same answer again (offline, the capabilities): said once
                del self.fx.reply[before:]
                del self.fx.main_messages[history:]
            last = said
