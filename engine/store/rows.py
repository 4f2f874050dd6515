"""Models to the store's row values and rows back to models, validated on the way in.

Kept apart from the SQL (engine/sqlstore.py) so the shapes of the stored columns read in
one place. A session row is validated in one pydantic call: its JSON columns are spliced
verbatim into one document with the scalar columns, which costs less than validating each
column and then the frame and the session (see bench/turn_overhead.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from json.encoder import encode_basestring_ascii
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import to_json

from engine.errors import StoreError
from engine.models import (
    CarryOver,
    FlowFrame,
    FlowRun,
    JsonObject,
    Message,
    RecordDraft,
    SessionState,
    StoredRecord,
    carry_from_context,
)

# the order session_from_row unpacks a sessions row in (the store checks it against the table)
SESSION_COLUMNS = (
    "id", "bot", "user", "flow", "state", "flow_version", "slots", "scratchpad", "attempts", "flow_turns",
    "flow_started_at", "flow_declined", "stack", "context", "carry", "turns", "version", "created_at", "updated_at",
)  # fmt: skip
RUN_COLUMNS = ("flow", "outcome", "summary", "slots", "turns", "started_at", "ended_at")
RECORD_COLUMNS = ("id", "kind", "bot", "user", "session_id", "data", "created_at")

# a carry-over's fields when it carries nothing, compared as a dict: a model's __eq__ also
# compares its private and extra parts, several times slower
_NO_CARRY = CarryOver().__dict__
_object_json: TypeAdapter[JsonObject] = TypeAdapter(JsonObject)
# pydantic-core's own calls, without the Python wrappers of TypeAdapter.dump_json and
# BaseModel.model_validate_json (their argument handling costs as much as a short list's JSON)
_messages_json = TypeAdapter(list[Message]).serializer.to_json
_frames_json = TypeAdapter(list[FlowFrame]).serializer.to_json
_session_from_json = SessionState.__pydantic_validator__.validate_json


def session_values(s: SessionState) -> dict[str, object]:
    a = s.active
    return {
        "id": s.id,
        "bot": s.bot,
        "user": s.user,
        "flow": a.flow if a else None,
        "state": a.state if a else None,
        "flow_version": a.version if a else None,
        # a frame's slots are always JSON values already (a model_dump(mode="json") or a loaded row)
        "slots": to_json(a.slots).decode() if a else "{}",
        "scratchpad": _messages_json(a.scratchpad).decode() if a else "[]",
        "attempts": a.attempts if a else 0,
        "flow_turns": a.turns if a else 0,
        "flow_started_at": a.started_at.isoformat() if a else None,
        "flow_declined": json.dumps(a.declined) if a and a.declined else "[]",
        "stack": _frames_json(s.stack).decode() if s.stack else "[]",
        "context": json.dumps(s.context) if s.context else "{}",
        "carry": "{}" if s.carry.__dict__ == _NO_CARRY else s.carry.model_dump_json(exclude_defaults=True),
        "turns": s.turns,
        "version": s.version,
        "updated_at": s.updated_at.isoformat(),
    }


def session_from_row(row: Sequence[Any]) -> SessionState:
    """Validate a sessions row into a SessionState in one pydantic (Rust) call.

    The JSON columns are spliced verbatim into one JSON document with the scalar columns:
    one `model_validate_json` is cheaper than parsing each column and validating the frame
    and the session separately, and it validates exactly as strictly.
    """
    (sid, bot, user, flow, state, flow_version, slots, scratchpad, attempts, flow_turns,
     flow_started_at, flow_declined, stack, context, carry, turns, version, created_at, updated_at) = row  # fmt: skip
    q = _quote
    if flow is None:
        active = "null"
    else:
        active = (
            f'{{"flow":{q(flow)},"version":{_number(flow_version or 0)},"state":{q(state or "")},'
            f'"slots":{slots},"scratchpad":{scratchpad},"attempts":{_number(attempts)},'
            f'"turns":{_number(flow_turns)},"started_at":{q(instant_text(flow_started_at))},'
            f'"declined":{flow_declined}}}'
        )
    doc = (
        f'{{"id":{q(sid)},"bot":{q(bot)},"user":{q(user)},"active":{active},"stack":{stack},'
        f'"context":{context},"carry":{carry},"turns":{_number(turns)},"version":{_number(version)},'
        f'"created_at":{q(instant_text(created_at))},"updated_at":{q(instant_text(updated_at))}}}'
    )
    try:
        session: SessionState = _session_from_json(doc)
    except ValidationError as e:
        raise StoreError(f"stored session row is invalid: {e}", session=str(sid)) from e
    # a session last written before `carry` existed keeps it in its memory's old keys
    return carry_from_context(session) if '"innerloop.' in context else session


def instant_text(value: object) -> str:
    """A stored time as the ISO text it was written as (PostgreSQL reads back datetimes, in UTC)."""
    return value.isoformat() if isinstance(value, datetime) else str(value)


def _quote(value: object) -> str:
    """`json.dumps(value)`, without the encoder's Python-level setup for the usual plain str."""
    return encode_basestring_ascii(value) if type(value) is str else json.dumps(value)


def record_from_row(row: Sequence[Any]) -> StoredRecord:
    rid, kind, bot, user, sid, data, created_at = row
    return StoredRecord(
        id=rid,
        kind=kind,
        bot=bot,
        user=user,
        session_id=sid,
        data=_object_json.validate_json(data),
        created_at=created_at,
    )


def _number(value: object) -> str:
    return str(value) if type(value) is int else json.dumps(value)


def run_values(session_id: str, r: FlowRun) -> dict[str, object]:
    return {
        "session_id": session_id,
        "flow": r.flow,
        "outcome": r.outcome,
        "summary": r.summary,
        "slots": json.dumps(r.slots),
        "turns": r.turns,
        "started_at": r.started_at.isoformat(),
        "ended_at": r.ended_at.isoformat(),
    }


def record_values(s: SessionState, d: RecordDraft, now: object) -> dict[str, object]:
    return {
        "kind": d.kind,
        "bot": s.bot,
        "user": s.user,
        "session_id": s.id,
        "data": json.dumps(d.data),
        "created_at": now,
    }


def run_from_row(row: Sequence[Any]) -> FlowRun:
    flow, outcome, summary, slots, turns, started_at, ended_at = row
    return FlowRun(
        flow=flow,
        outcome=outcome,
        summary=summary,
        slots=_object_json.validate_json(slots),
        turns=turns,
        started_at=started_at,
        ended_at=ended_at,
    )
