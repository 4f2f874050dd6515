"""What a turn records about itself, as it goes, and the event-log entry made from it.

The entry is written as `TurnTrace.doc()` would write it, but without building the model
on the turn's path: it is validated when read (`TurnWrite.trace`, `TurnResult.trace`, the
stores' `traces()`), and a test checks every optional part against the model's own doc.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.models import FlowFrame, JsonObject, LLMCall, SessionState


@dataclass
class TraceDraft:
    """The parts of a `TurnTrace` a turn fills in as it goes (a plain object: cheap to mutate)."""

    route: str = ""
    triggers: list[str] = field(default_factory=list)
    states_entered: list[str] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    # the flow and state the turn started in (None: the main conversation)
    before: tuple[str | None, str | None] = (None, None)

    def start(self, at: FlowFrame | None) -> None:
        self.before = (at.flow, at.state) if at else (None, None)

    def doc(self, session: SessionState, text: str, reply: str, records: list[str], retried: bool) -> JsonObject:
        """The event-log entry of the turn that left `session` as it is (defaults left out)."""
        a = session.active
        doc: JsonObject = {"turn": session.turns, "user_text": text, "reply": reply, "route": self.route}
        flow_before, state_before = self.before
        if flow_before is not None:
            doc["flow_before"] = flow_before
            doc["state_before"] = state_before
        if a is not None:
            doc["flow_after"] = a.flow
            doc["state_after"] = a.state
            doc["slots_after"] = dict(a.slots)
        for key, values in (
            ("triggers", self.triggers),
            ("states_entered", self.states_entered),
            ("records", records),
            ("notices", self.notices),
        ):
            if values:
                doc[key] = list(values)
        if self.llm_calls:
            doc["llm_calls"] = [c.model_dump(mode="json", exclude_defaults=True) for c in self.llm_calls]
        if retried:
            doc["retried"] = True
        doc["at"] = session.updated_at.isoformat()
        return doc
