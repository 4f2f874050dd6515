"""What a turn records about itself, as it goes, and the event-log entry made from it.

The entry is written as `TurnTrace.doc()` would write it, but without building the model
on the turn's path: it is validated when read (`TurnWrite.trace`, `TurnResult.trace`, the
stores' `traces()`), and a test checks every optional part against the model's own doc.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from pydantic import JsonValue

from engine.errors import DefinitionError
from engine.models import JsonObject, LLMCall, NoticeKind, SessionState

# checked where a notice is made, as building the `Notice` model did: an unknown kind stored
# would make the session's traces unreadable
_NOTICE_KINDS = frozenset(get_args(NoticeKind))


@dataclass
class TraceDraft:
    """The parts of a `TurnTrace` a turn fills in as it goes (a plain object: cheap to mutate)."""

    route: str = ""
    message_id: str | None = None
    # `Entered`, `Fired` and `Notice` events as the JSON their models dump (defaults left out),
    # made directly: a turn records several, and each model built and dumped again cost more
    # than the rest of the trace
    entered: list[JsonObject] = field(default_factory=list)
    fired: list[JsonObject] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    notices: list[JsonObject] = field(default_factory=list)
    # the flow and state the turn started in (None: the main conversation)
    before: tuple[str | None, str | None] = (None, None)

    def enter(self, flow: str, state: str) -> None:
        self.entered.append({"flow": flow, "state": state})

    def fire(self, flow: str, source: str, trigger: str, dest: str) -> None:
        self.fired.append({"flow": flow, "source": source, "trigger": trigger, "dest": dest})
        self.entered.append({"flow": flow, "state": dest})

    def notice(self, kind: NoticeKind, flow: str | None = None, state: str | None = None, detail: str = "") -> None:
        if kind not in _NOTICE_KINDS:
            raise DefinitionError(f"unknown notice kind {kind!r}; the kinds are {sorted(_NOTICE_KINDS)}", flow=flow)
        event: JsonObject = {"kind": kind}
        if flow is not None:
            event["flow"] = flow
        if state is not None:
            event["state"] = state
        if detail:
            event["detail"] = detail
        self.notices.append(event)

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
        for key, events in (("entered", self.entered), ("fired", self.fired), ("notices", self.notices)):
            if events:
                copied: list[JsonValue] = []  # not list[JsonValue](events): calling the alias costs ten times more
                copied.extend(events)
                doc[key] = copied
        if records:
            doc["records"] = list(records)
        if self.llm_calls:
            doc["llm_calls"] = [c.model_dump(mode="json", exclude_defaults=True) for c in self.llm_calls]
        if retried:
            doc["retried"] = True
        if self.message_id is not None:
            doc["message_id"] = self.message_id
        doc["at"] = session.updated_at.isoformat()
        return doc
