"""What a turn records about itself, as it goes.

The event-log entry made from it is the write stage's (engine/effects.py `trace_doc`), written
as `TurnTrace.doc()` would write it, but without building the model on the turn's path: it is
validated when read (`TurnWrite.trace`, `TurnResult.trace`, the stores' `traces()`), and a test
checks every optional part against the model's own doc.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from engine.errors import DefinitionError
from engine.models import JsonObject, LLMCall, NoticeKind

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
    # than the rest of the trace. A fire is appended by the one place that fires (engine/flowrun.py
    # `FlowRunner.fire`: its `fired` entry, and its dest in `entered`), without a call into this module
    entered: list[JsonObject] = field(default_factory=list)
    fired: list[JsonObject] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    notices: list[JsonObject] = field(default_factory=list)
    # the flow and state the turn started in (None: the main conversation), given when it is
    # made: the dataclass's own __init__ is no code of this module (bench/walk.py)
    before: tuple[str | None, str | None] = (None, None)

    def enter(self, flow: str, state: str) -> None:
        self.entered.append({"flow": flow, "state": state})

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
