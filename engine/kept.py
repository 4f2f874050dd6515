"""Requests kept during a flow, carried out: the executor's half of engine/requests.py.

The read stage reads a `NewRequest` at the open question (engine/requests.py); here the turn keeps
it in the session's carry-over (`CarryOver.requests`), says so and asks the question again, and once
back in the main conversation offers it (a request for a flow) or carries it out (any other).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.commands import NewRequest
from engine.flowrun import FlowRunner
from engine.handoff import hold_of
from engine.models import KeptRequest

MAX_KEPT = 5  # requests kept at once while a flow is open


def _label(name: str) -> str:
    return name.replace("_", " ")


class RequestRunner(FlowRunner):
    """The new-request half of a turn: kept at a question, offered or carried out once back in main."""

    def keep_request(self, command: NewRequest, *, answered: bool, carry_out: Callable[[str], None]) -> None:
        """A new request at the open question: kept for when the flow is done, and said so; unless the
        message also `answered` the question, the question is asked again, no attempt used. With no
        flow open, `carry_out` does it now (the main conversation's handling, engine/turn.py)."""
        a = self.session.active
        if a is None:
            carry_out(command.words)
            return
        flow = self.bot.flow_for(a)
        opened = None
        if not answered:
            opened = self._counted(flow, a)
            if opened is None:
                return
            # the flow's asides hear it first, as they hear a question back: a lesson answers a
            # question on the saved plans at once, support keeps another question for after its answer
            for aside in flow.asides:
                if aside.requests and aside.match(self.text) and self._aside(flow, a, opened[0], opened[1], aside):
                    self.trace.notice("request", flow.name, opened[1].name, f"aside: {aside.name}")
                    return
        kept = KeptRequest(text=command.words, flow=command.flow, during=a.flow)
        if kept not in self.session.carry.requests:
            # a session keeps a few: the oldest give way, so no conversation piles them up unbounded
            self.session.carry.requests = [*self.session.carry.requests, kept][-MAX_KEPT:]
        self.trace.notice("request", a.flow, a.state, f"kept: {command.flow or 'main'}")
        later = f"the {_label(command.flow)}" if command.flow else "that"
        noted = f"Noted: I'll come back to {later} once we're done with the {_label(flow.name)}."
        if opened is None:
            self.emit(noted)
            return
        slots, state = opened
        cancel = "pause" if flow.on_cancel == "pause" else "stop"
        self.emit(f"{noted} (Say 'cancel' to {cancel} it now.)")
        self.emit(self.question(flow, state, slots))

    def offer_kept(self, carry_out: Callable[[str], None]) -> None:
        """Back in the main conversation with requests kept: each one not for a flow is carried out
        (`carry_out`, as if said now), then the first one for a flow is offered (a yes starts it);
        the rest wait for the next time."""
        carry = self.session.carry
        if not carry.requests:
            return
        a = self.session.active
        # a request for the flow now open is being done (a flow handed over to it)
        carry.requests = [k for k in carry.requests if a is None or k.flow != a.flow]
        if a is not None or hold_of(self.session) is not None or not carry.requests:
            return
        kept, carry.requests = carry.requests, []
        last: list[str] = []  # what the main conversation said to the request before
        for n, k in enumerate(kept):
            if self.session.active is not None or carry.confirm is not None:
                carry.requests.extend(kept[n:])  # a flow started, or one is offered: the rest wait
                return
            if k.flow is not None and self.bot.has_flow(k.flow):
                intent = next((i for i in self.bot.intents if i.flow == k.flow), None)
                question = intent.question if intent else f"Do you want to start the {_label(k.flow)}?"
                carry.confirm, carry.confirm_words = k.flow, k.text
                self.trace.notice("request", k.flow, None, "offered")
                self.emit(f"You also asked: “{k.text}”. {question}")
                continue
            self.trace.notice("request", k.during, None, "started")
            self.emit(f"You also asked: “{k.text}”.")
            before, history = len(self.reply), len(self.main_messages)
            carry_out(k.text)
            said = self.reply[before:]
            if said and said == last and self.session.active is None:
                # the same answer again (offline, the capabilities): said once
                del self.reply[before:]
                del self.main_messages[history:]
            last = said
